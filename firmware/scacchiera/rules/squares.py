"""Squares, pieces and moves as small ints: the vocabulary every layer shares.

Squares are numbered like python-chess: a1 = 0, b1 = 1, ..., h8 = 63
(``rank * 8 + file``). Inside the move generator the board is a 0x88
mailbox (``rank * 16 + file``), where ``sq & 0x88`` is non-zero exactly when
a step has left the board; ``sq88()`` and ``sq64()`` convert.

A piece is ``type | color << 3``: white pieces are 1..6, black 9..14.
A move is one small int (never an object, so lists of moves stay cheap on
the RP2040)::

    bits 0-6    from square (0x88)
    bits 7-13   to square (0x88)
    bits 14-16  promotion piece type, or the dropped piece type
    bit  17     drop: a piece placed from the hand (Scacchi Sprint)
"""

from .. import const

WHITE = const(0)
BLACK = const(1)

PAWN = const(1)
KNIGHT = const(2)
BISHOP = const(3)
ROOK = const(4)
QUEEN = const(5)
KING = const(6)

DROP = const(0x20000)

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
# Piece letters indexed by type; index 0 is unused.
PIECE_SYMBOLS = " pnbrqk"


def sq88(square):
    """0..63 -> 0x88 index."""
    return square + (square & 0x38)


def sq64(sq):
    """0x88 index -> 0..63."""
    return (sq + (sq & 7)) >> 1


def square_name(square):
    return FILE_NAMES[square & 7] + RANK_NAMES[square >> 3]


def parse_square(name):
    """'e4' -> 28. ValueError if it is not a square name."""
    if len(name) != 2 or name[0] not in FILE_NAMES or name[1] not in RANK_NAMES:
        raise ValueError("not a square: %r" % (name,))
    return FILE_NAMES.index(name[0]) + 8 * RANK_NAMES.index(name[1])


def make_move(from_square, to_square, promotion=0):
    """A move from python-chess style squares (0..63)."""
    return sq88(from_square) | sq88(to_square) << 7 | promotion << 14


def make_drop(piece_type, to_square):
    return DROP | piece_type << 14 | sq88(to_square) << 7


def from_square(move):
    """Origin 0..63 (meaningless for a drop)."""
    fr = move & 127
    return (fr + (fr & 7)) >> 1


def to_square(move):
    """Destination 0..63."""
    to = (move >> 7) & 127
    return (to + (to & 7)) >> 1


def promotion(move):
    """Promotion piece type, 0 if none (for a drop: 0)."""
    return 0 if move & DROP else (move >> 14) & 7


def is_drop(move):
    return bool(move & DROP)


def drop_piece(move):
    """Dropped piece type, 0 if the move is not a drop."""
    return (move >> 14) & 7 if move & DROP else 0
