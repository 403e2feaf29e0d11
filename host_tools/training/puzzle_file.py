"""Pack the puzzle CSV into the file the board reads from its flash (firmware/puzzles.bin).

    python -m host_tools.training.puzzle_file [--check]

The format is the firmware's (firmware/scacchiera/training/puzzle_file.py
documents it and reads it); this writes it from make_puzzles.py's CSV, in the
CSV's order (by rating). ``--check`` fails if the committed file differs from
what the CSV gives (the tests run it), as make_book.py's does.
"""

import argparse
import os
import struct
import sys

import chess

from host_tools import _paths  # noqa: F401
from host_tools.training.puzzle_csv import CSV_PATH, read_csv
from scacchiera.training.puzzle_file import MAGIC, VERSION, HEADER, RECORD, MAX_PLIES, THEMES, code_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN_PATH = os.path.join(ROOT, "firmware", "puzzles.bin")


def record(pid, fen, moves, rating, themes):
    """One puzzle's RECORD bytes."""
    board = chess.Board(fen)
    if not 2 <= len(moves) <= MAX_PLIES:
        raise ValueError("puzzle %s: %d plies (2..%d)" % (pid, len(moves), MAX_PLIES))
    out = bytearray(RECORD)
    for square, piece in board.piece_map().items():
        code = (0 if piece.color == chess.WHITE else 8) | piece.piece_type
        out[square >> 1] |= code << (4 * (square & 1))
    flags = 1 if board.turn == chess.BLACK else 0
    for i, right in enumerate((chess.BB_H1, chess.BB_A1, chess.BB_H8, chess.BB_A8)):
        if board.castling_rights & right:
            flags |= 2 << i
    out[32] = flags
    out[33] = chess.square_file(board.ep_square) + 1 if board.ep_square is not None else 0
    bits = 0
    for name in themes:
        bits |= 1 << THEMES.index(name)
    struct.pack_into("<HHB", out, 34, rating, bits, len(moves))
    number = int(pid, 16)
    out[39:42] = number.to_bytes(3, "little")
    for i, uci in enumerate(moves):
        struct.pack_into("<H", out, 42 + 2 * i, code_of(uci))
    return bytes(out)


def pack(puzzles):
    """The whole file's bytes for ``puzzles`` (read_csv's tuples), in their order."""
    head = MAGIC + bytes((VERSION, RECORD)) + struct.pack("<H", len(puzzles)) + bytes(HEADER - 8)
    return head + b"".join(record(*p) for p in puzzles)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if firmware/puzzles.bin is stale")
    parser.add_argument("--csv", default=CSV_PATH)
    parser.add_argument("--out", default=BIN_PATH)
    args = parser.parse_args(argv)
    data = pack(read_csv(args.csv))
    if args.check:
        with open(args.out, "rb") as f:
            if f.read() != data:
                print("%s is stale: run python -m host_tools.training.puzzle_file" % args.out)
                return 1
        return 0
    with open(args.out, "wb") as f:
        f.write(data)
    print("%d puzzles, %d bytes, in %s" % ((len(data) - HEADER) // RECORD, len(data), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
