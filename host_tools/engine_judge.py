"""The engine's moves from a file of positions, judged by Stockfish: what a change does to its mistakes.

    python -m host_tools.engine_judge [FILE] [--nodes 14000] [--tt 1024,4096] [--depth 13]

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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=DEFAULT)
    ap.add_argument("--nodes", type=int, default=None, help="nodes a move (default: the top level's)")
    ap.add_argument("--tt", default="1024", help="comma-separated table sizes (entries)")
    ap.add_argument("--depth", type=int, default=13, help="Stockfish's depth")
    ap.add_argument("--stockfish", default=None)
    args = ap.parse_args(argv)
    from scacchiera.engine import LEVELS
    nodes = args.nodes or LEVELS[MAX_LEVEL][2]
    path = find_stockfish(args.stockfish)
    if not path:
        raise SystemExit("stockfish not found: apt-get install stockfish (or --stockfish PATH)")
    fens = positions(args.file)
    stockfish = chess.engine.SimpleEngine.popen_uci(path)
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
