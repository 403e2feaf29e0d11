"""Build the engine's opening book (firmware/book.bin) from the main lines below.

    python -m host_tools.make_book [--check]

The lines are well-known main lines (ECO names), in SAN. python-chess checks
each one; the rules module gives every position's key (the 30-bit Zobrist
``Position.hash`` the device looks up) and every move's small int. A position
reached by several lines gets each distinct move once, in the order the lines
come, so the first line through a position is its main move (the strong
levels, seed 0, play it). ``--check`` fails if the committed book differs from
what the lines give (tests run it).

A larger book (lichess's chess-openings, 6,141 entries vetted by Stockfish)
was tried and dropped: it lost its SPRT against this one (docs/engine.md,
"The opening book").
"""

import os
import struct
import sys

import chess

from host_tools import _paths  # noqa: F401
from host_tools.generated import write_or_check
from scacchiera.engine.book import MAGIC, VERSION, HEADER, ENTRY
from scacchiera.rules import Position

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "book.bin")

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


def walk(lines=LINES):
    """Every step of every line: (python-chess's board before the move, the rules module's position
    before it, our small int of the move); each position is pushed on once the caller is done with it."""
    for name, san in lines:
        board = chess.Board()
        pos = Position()
        for token in san.split():
            try:
                move = board.parse_san(token)
            except ValueError as exc:
                raise SystemExit("%s: bad move %r: %s" % (name, token, exc))
            ours = pos.parse_uci(move.uci())
            yield board, pos, ours
            board.push(move)
            pos.push(ours)


def book_entries(lines=LINES):
    """Sorted (key, move) pairs: every position of every line with its book moves. Two positions on
    one 30-bit key would mix their moves: refused."""
    seen = {}
    where = {}            # key -> the position's EPD
    for board, pos, ours in walk(lines):
        epd = board.epd()
        if where.setdefault(pos.hash, epd) != epd:
            raise SystemExit("two positions on one key %d: %s and %s" % (pos.hash, where[pos.hash], epd))
        moves = seen.setdefault(pos.hash, [])
        if ours not in moves:
            moves.append(ours)
    # a stable sort by key keeps each position's moves in line order
    return sorted(((key, m) for key, moves in seen.items() for m in moves), key=lambda e: e[0])


def render(entries):
    assert all(move < 1 << 16 for _, move in entries)
    head = MAGIC + bytes((VERSION, ENTRY)) + struct.pack("<I", len(entries))
    return head + bytes(HEADER - len(head)) + b"".join(struct.pack("<IH", key, move) for key, move in entries)


def main(argv=None):
    return write_or_check(OUT, render(book_entries()), __doc__.split("\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
