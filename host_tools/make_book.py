"""Build the engine's opening book (firmware/book.bin) from named openings, each move vetted by Stockfish.

    python -m host_tools.make_book [--check]
    python -m host_tools.make_book --evaluate [--stockfish PATH]

The lines are lichess's chess-openings (CC0: host_tools/openings/, the names and their moves,
3,807 lines of the five ECO volumes) and the project's own main lines below, which go deeper.
python-chess reads each line's SAN; the rules module gives every position's key (the 30-bit
Zobrist ``Position.hash`` the device looks up) and every move's small int.

A named opening is not always a good one (1. g4 has its names too), so the book keeps a move
only where Stockfish found it sound: from the mover's view, the position after the move scores at
least ``FLOOR`` and no more than ``LOSS`` below the best of the position before and its other book
moves (``keep``). Every position of every line keeps its sound moves, whoever got there: after a
dubious move by the hands, the engine still answers from the book. A position's moves are ordered
by that score, best first: the strong levels (seed 0) play the first.

The scores are Stockfish's at depth ``DEPTH``, one per position, kept in host_tools/openings/
evals.tsv (EPD, centipawns for the side to move), so the book is rebuilt without Stockfish;
``--evaluate`` adds the positions missing there. ``--check`` fails if the committed book differs
from what the lines and the scores give (tests run it).
"""

import argparse
import csv
import glob
import os
import struct
import sys

import chess

from host_tools import _paths  # noqa: F401
from host_tools.generated import write_or_check
from scacchiera.engine.book import MAGIC, VERSION, HEADER, ENTRY
from scacchiera.rules import Position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "firmware", "book.bin")
OPENINGS = os.path.join(ROOT, "host_tools", "openings")
EVALS = os.path.join(OPENINGS, "evals.tsv")
DEPTH = 14
LOSS = 40       # centipawns a book move may give up on the best known
FLOOR = -80     # the mover's score after a book move, at least: Black starts about 35 cp down
MATE = 10000    # a mate's score (less the plies to it)

# The project's own main lines (the book's first 35, kept: several go deeper than the named ones).
LINES = (
    ("Ruy Lopez, Closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3"),
    ("Ruy Lopez, Berlin", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6 Bxc6 dxc6 dxe5 Nf5 Qxd8+ Kxd8"),
    ("Ruy Lopez, Exchange", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4"),
    ("Italian, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O"),
    ("Two Knights", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7 O-O O-O Re1 d6"),
    ("Scotch", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6 e5 Qe7 Qe2 Nd5"),
    ("Petrov", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5 Bd3 Nc6 O-O Be7"),
    ("Four Knights", "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4 O-O O-O d3 d6"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3"),
    ("Sicilian, Classical", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 d6 Bg5 e6 Qd2 a6"),
    ("Sicilian, Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7 Be3 a6 Bd3"),
    ("Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4 Nf3 Nc6 cxd4 d6"),
    ("French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3 Ne7 Qg4"),
    ("French, Tarrasch", "e4 e6 d4 d5 Nd2 Nf6 e5 Nfd7 Bd3 c5 c3 Nc6 Ne2"),
    ("French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6 a3"),
    ("Caro-Kann, Classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6 Nf3 Nd7 h5 Bh7"),
    ("Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5 Be3"),
    ("Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6 Bc4 Bf5"),
    ("Pirc", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7 Be2 O-O O-O c6"),
    ("Alekhine", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4 Be2 e6 O-O Be7"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5 O-O a6"),
    ("Slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5 e3 e6 Bxc4 Bb4 O-O"),
    ("Semi-Slav", "d4 d5 c4 c6 Nc3 Nf6 Nf3 e6 e3 Nbd7 Bd3 dxc4 Bxc4 b5"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O"),
    ("Queen's Indian", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6 b3 Bb4+ Bd2 Be7"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6 d5 Ne7"),
    ("Grunfeld", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3 Bg7 Nf3 c5 Be2"),
    ("Benoni", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6 e4 g6 Nf3 Bg7 Be2 O-O"),
    ("Dutch", "d4 f5 g3 Nf6 Bg2 e6 Nf3 Be7 O-O O-O c4 d6"),
    ("London", "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5 c3 Nc6 Nbd2 Bd6"),
    ("Catalan", "d4 Nf6 c4 e6 g3 d5 Bg2 Be7 Nf3 O-O O-O dxc4 Qc2 a6"),
    ("English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 Nf3 Nf6 O-O O-O"),
    ("English, Reversed Sicilian", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6"),
    ("Reti", "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7 d3 O-O"),
)


def named_lines():
    """(name, SAN moves) of every line of chess-openings' five volumes, in their order."""
    out = []
    for path in sorted(glob.glob(os.path.join(OPENINGS, "[a-e].tsv"))):
        with open(path, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                out.append((row["name"], " ".join(t for t in row["pgn"].split() if not t.endswith("."))))
    return out


def all_lines():
    return named_lines() + list(LINES)


class Tree:
    """Every position of the lines (by EPD), its key and its moves in the order the lines give them."""

    def __init__(self, lines):
        self.key = {}         # EPD -> the rules module's key
        self.moves = {}       # EPD -> [(python-chess move, our small int, EPD after)]
        self.keys = {}        # key -> EPD: two positions on one key would mix their moves
        for name, san in lines:
            board = chess.Board()
            pos = Position()
            for token in san.split():
                try:
                    move = board.parse_san(token)
                except ValueError as exc:
                    raise SystemExit("%s: bad move %r: %s" % (name, token, exc))
                ours = pos.parse_uci(move.uci())
                epd = board.epd()
                self._note(epd, pos.hash)
                board.push(move)
                pos.push(ours)
                after = board.epd()
                self._note(after, pos.hash)
                moves = self.moves.setdefault(epd, [])
                if all(m != move for m, _, _ in moves):
                    moves.append((move, ours, after))

    def _note(self, epd, key):
        if self.keys.setdefault(key, epd) != epd:
            raise SystemExit("two positions on one key %d: %s and %s" % (key, self.keys[key], epd))
        self.key[epd] = key

    def positions(self):
        return sorted(self.key)


def read_evals(path=EVALS):
    scores = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                epd, cp = line.rstrip("\n").split("\t")
                scores[epd] = int(cp)
    return scores


def keep(before, after):
    """Which of a position's book moves the book keeps, best first: ``before`` is the position's
    score for the side to move, ``after`` the mover's score after each move (a list, in line order)."""
    best = max([before] + after)
    kept = [i for i, s in enumerate(after) if s >= best - LOSS and s >= FLOOR]
    return sorted(kept, key=lambda i: -after[i])     # a stable sort: equals keep the lines' order


def book_entries(tree, scores):
    """Sorted (key, move) pairs and the count of moves dropped as unsound."""
    entries = []
    dropped = 0
    for epd, moves in tree.moves.items():
        try:
            before = scores[epd]
            after = [-scores[a] for _, _, a in moves]
        except KeyError as missing:
            raise SystemExit("no score for %s: run python -m host_tools.make_book --evaluate" % missing)
        kept = keep(before, after)
        dropped += len(moves) - len(kept)
        entries.extend((tree.key[epd], rank, moves[i][1]) for rank, i in enumerate(kept))
    entries.sort()
    return [(key, move) for key, _, move in entries], dropped


def render(entries):
    assert all(move < 1 << 16 for _, move in entries)
    head = MAGIC + bytes((VERSION, ENTRY)) + struct.pack("<I", len(entries))
    return head + bytes(HEADER - len(head)) + b"".join(struct.pack("<IH", key, move) for key, move in entries)


def evaluate(tree, stockfish, out=print):
    """Score the positions evals.tsv lacks with Stockfish at DEPTH; rewrite the file, sorted."""
    import chess.engine
    scores = read_evals()
    missing = [epd for epd in tree.positions() if epd not in scores]
    out("%d positions, %d to evaluate at depth %d" % (len(tree.key), len(missing), DEPTH))
    with chess.engine.SimpleEngine.popen_uci(stockfish) as sf:
        sf.configure({"Threads": 1, "Hash": 16})
        for n, epd in enumerate(missing, 1):
            board = chess.Board(epd + " 0 1")
            if board.is_game_over():
                scores[epd] = 0 if not board.is_checkmate() else -MATE
            else:
                info = sf.analyse(board, chess.engine.Limit(depth=DEPTH))
                scores[epd] = info["score"].pov(board.turn).score(mate_score=MATE)
            if n % 500 == 0:
                out("  %d / %d" % (n, len(missing)))
    with open(EVALS, "w") as f:
        for epd in sorted(scores):
            f.write("%s\t%d\n" % (epd, scores[epd]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed book is out of date")
    ap.add_argument("--evaluate", action="store_true", help="score the positions evals.tsv lacks (Stockfish)")
    ap.add_argument("--stockfish", default=None)
    args = ap.parse_args(argv)
    tree = Tree(all_lines())
    if args.evaluate:
        from host_tools.engine_match import find_stockfish
        found = find_stockfish(args.stockfish)
        if not found:
            raise SystemExit("stockfish not found: apt-get install stockfish (or --stockfish PATH)")
        evaluate(tree, found)
    entries, dropped = book_entries(tree, read_evals())
    print("%d positions, %d moves kept, %d dropped as unsound" % (len(tree.moves), len(entries), dropped))
    return write_or_check(OUT, render(entries), __doc__.split("\n")[0], ["--check"] if args.check else [])


if __name__ == "__main__":
    sys.exit(main())
