"""The engine's moves from a file of positions, judged by Stockfish: what a change does to its mistakes.

    python -m host_tools.engine_judge [FILE] [--nodes 14000] [--tt 1024,4096] [--depth 13]
    python -m host_tools.engine_judge --book 200 [--nodes 18000] [--depth 13]

FILE (default data/engine-match/engine-blunders-2026-11-29.txt): lines whose third to
eighth words are a FEN (the file's own columns: the move played, Stockfish's
best, the position, ...); a line starting with ``#`` is a comment. For each
table size (entries; Engine's ``tt_entries``) a fresh engine at the top level
(book off) searches every position at ``--nodes``, and Stockfish at
``--depth`` scores its move against its own best (centipawns, each score
capped at +-1000, as docs/engine.md's "Where the games are lost" did). Prints
per size: the mean loss, the moves within 150 cp of the best, those losing
150 or more, the mean depth reached; a cheaper reading than games, which
judge the whole engine.

``--book N``: what the opening book buys. N of the book's positions (every k-th of them sorted,
the same ones each run), each judged twice: the engine's own move (book off, ``--nodes``) and the
book's moves (its first, which the strong levels play, and the mean over all of them, which a
seeded game draws from).
"""

import argparse
import os
import sys

import chess
import chess.engine

from host_tools import _paths  # noqa: F401
from host_tools.engine_match import find_stockfish
from scacchiera.engine import Engine, MAX_LEVEL
from scacchiera.rules import Position

DEFAULT = os.path.join(_paths._ROOT, "data", "engine-match", "engine-blunders-2026-11-29.txt")
CAP = 1000


def positions(path):
    with open(path) as f:
        return [" ".join(line.split()[2:8]) for line in f if line.strip() and not line.startswith("#")]


def loss(stockfish, fen, uci, depth):
    """Stockfish's best score less the score after ``uci`` (the mover's view), each capped."""
    board = chess.Board(fen)
    limit = chess.engine.Limit(depth=depth)
    best = stockfish.analyse(board, limit)["score"].pov(board.turn).score(mate_score=CAP)
    board.push_uci(uci)
    after = stockfish.analyse(board, limit)["score"].pov(not board.turn).score(mate_score=CAP)
    return max(0, max(-CAP, min(CAP, best)) - max(-CAP, min(CAP, after)))


def judge(fens, nodes, tt_entries, stockfish, depth):
    """(mean loss, within 150 cp, 150 or more, mean depth) of the engine's moves."""
    losses = []
    depths = []
    for fen in fens:
        engine = Engine(MAX_LEVEL, tt_entries=tt_entries)
        engine.use_book = False
        position = Position(fen)
        move = engine.best_move(position, max_nodes=nodes)
        depths.append(engine.depth)
        losses.append(loss(stockfish, fen, position.uci(move), depth))
    n = len(losses)
    return sum(losses) / n, sum(x < 150 for x in losses), sum(x >= 150 for x in losses), sum(depths) / n


def judge_book(count, nodes, stockfish, depth, out=print):
    """(the engine's mean loss, the book's first move's, the mean over the book's moves) in ``count``
    of the book's positions."""
    from host_tools import make_book
    from scacchiera.engine.book import book_moves
    answered = sorted({board.epd() for board, _pos, _move in make_book.walk()})
    chosen = answered[::max(1, len(answered) // count)][:count]
    engine_losses, first_losses, mean_losses = [], [], []
    for n, epd in enumerate(chosen, 1):
        fen = epd + " 0 1"
        position = Position(fen)
        engine = Engine(MAX_LEVEL)
        engine.use_book = False
        engine_losses.append(loss(stockfish, fen, position.uci(engine.best_move(position, max_nodes=nodes)), depth))
        losses = [loss(stockfish, fen, position.uci(m), depth) for m in book_moves(position.hash)]
        first_losses.append(losses[0])
        mean_losses.append(sum(losses) / len(losses))
        if n % 50 == 0:
            out("  %d / %d" % (n, len(chosen)))
    k = len(chosen)
    out("%d of the book's %d positions with moves, %d nodes: the engine's own move loses %.0f cp on average "
        "(%d of them 50 or more), the book's first %.0f (%d), the book's moves on average %.0f"
        % (k, len(answered), nodes, sum(engine_losses) / k, sum(x >= 50 for x in engine_losses),
           sum(first_losses) / k, sum(x >= 50 for x in first_losses), sum(mean_losses) / k))
    return sum(engine_losses) / k, sum(first_losses) / k, sum(mean_losses) / k


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=DEFAULT)
    ap.add_argument("--nodes", type=int, default=None, help="nodes a move (default: the top level's)")
    ap.add_argument("--tt", default="1024", help="comma-separated table sizes (entries)")
    ap.add_argument("--depth", type=int, default=13, help="Stockfish's depth")
    ap.add_argument("--stockfish", default=None)
    ap.add_argument("--book", type=int, default=0, metavar="N", help="judge the book in N of its positions")
    args = ap.parse_args(argv)
    from scacchiera.engine import LEVELS
    nodes = args.nodes or LEVELS[MAX_LEVEL][2]
    path = find_stockfish(args.stockfish)
    if not path:
        raise SystemExit("stockfish not found: apt-get install stockfish (or --stockfish PATH)")
    stockfish = chess.engine.SimpleEngine.popen_uci(path)
    if args.book:
        try:
            judge_book(args.book, nodes, stockfish, args.depth)
        finally:
            stockfish.quit()
        return 0
    fens = positions(args.file)
    try:
        for size in [int(x) for x in args.tt.split(",")]:
            mean, good, bad, depth = judge(fens, nodes, size, stockfish, args.depth)
            print("%d positions, %d nodes, table %d entries (%d KB): mean loss %.0f cp, %d within 150 cp of "
                  "Stockfish's best, %d losing 150 or more; depth %.1f on average"
                  % (len(fens), nodes, size, size * 10 // 1024, mean, good, bad, depth), flush=True)
    finally:
        stockfish.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
