"""What a position is worth to the engine: material and piece-square tables, tapered.

Seed 001 counts P 1, N 3, B 3, R 5, Q 10; the engine works in centipawns and
refines that to P 100, N 320, B 330, R 500, Q 900 (the usual correction: a
bishop a little over a knight, a queen a little under two rooks). The
piece-square tables are Tomasz Michniewski's "simplified evaluation function"
(every value fits a signed byte), with a middle-game and an end-game table for
the king; the two are blended by the material left (the phase: N and B 1,
R 2, Q 4, 24 at the start). Mobility and king safety are left out: on a
Cortex-M0+ they cost more search depth than they give back.

The tables are expanded once, at import, into one ``array('h')`` per phase,
indexed by ``piece << 6 | square`` (piece code 1..14, square 0..63) with the
material included and the sign folded in (white positive), so the search
updates its score by two lookups per moved piece.
"""

from array import array

from ..rules.squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING

VALUE = (0, 100, 320, 330, 500, 900, 0)
# Contribution of each piece type to the game phase (24 = every piece on).
PHASE = (0, 0, 1, 1, 2, 4, 0)
PHASE_FULL = 24

# Piece-square tables, from white's side, rank 8 first as one reads a diagram;
# values are centipawns + 64 (so they are bytes).
_B = 64
_TABLES = {
    PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
        5, 5, 10, 25, 25, 10, 5, 5,
        0, 0, 0, 20, 20, 0, 0, 0,
        5, -5, -10, 0, 0, -10, -5, 5,
        5, 10, 10, -20, -20, 10, 10, 5,
        0, 0, 0, 0, 0, 0, 0, 0),
    KNIGHT: (
        -50, -40, -30, -30, -30, -30, -40, -50,
        -40, -20, 0, 0, 0, 0, -20, -40,
        -30, 0, 10, 15, 15, 10, 0, -30,
        -30, 5, 15, 20, 20, 15, 5, -30,
        -30, 0, 15, 20, 20, 15, 0, -30,
        -30, 5, 10, 15, 15, 10, 5, -30,
        -40, -20, 0, 5, 5, 0, -20, -40,
        -50, -40, -30, -30, -30, -30, -40, -50),
    BISHOP: (
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10, 0, 0, 0, 0, 0, 0, -10,
        -10, 0, 5, 10, 10, 5, 0, -10,
        -10, 5, 5, 10, 10, 5, 5, -10,
        -10, 0, 10, 10, 10, 10, 0, -10,
        -10, 10, 10, 10, 10, 10, 10, -10,
        -10, 5, 0, 0, 0, 0, 5, -10,
        -20, -10, -10, -10, -10, -10, -10, -20),
    ROOK: (
        0, 0, 0, 0, 0, 0, 0, 0,
        5, 10, 10, 10, 10, 10, 10, 5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5,
        0, 0, 0, 5, 5, 0, 0, 0),
    QUEEN: (
        -20, -10, -10, -5, -5, -10, -10, -20,
        -10, 0, 0, 0, 0, 0, 0, -10,
        -10, 0, 5, 5, 5, 5, 0, -10,
        -5, 0, 5, 5, 5, 5, 0, -5,
        0, 0, 5, 5, 5, 5, 0, -5,
        -10, 5, 5, 5, 5, 5, 0, -10,
        -10, 0, 5, 0, 0, 0, 0, -10,
        -20, -10, -10, -5, -5, -10, -10, -20),
    KING: (
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -20, -30, -30, -40, -40, -30, -30, -20,
        -10, -20, -20, -20, -20, -20, -20, -10,
        20, 20, 0, 0, 0, 0, 20, 20,
        20, 30, 10, 0, 0, 10, 30, 20),
}
_KING_END = (
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10, 0, 0, -10, -20, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 20, 30, 30, 20, -10, -30,
    -30, -30, 0, 0, 0, 0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50)


def _as_bytes(values):
    return bytes(v + _B for v in values)


def _expand(end):
    """One table for all 16 piece codes: value of piece p on square s (a1 = 0), white positive."""
    out = array("h", bytes(2 * 16 * 64))
    for t in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING):
        table = _as_bytes(_KING_END if (end and t == KING) else _TABLES[t])
        for sq in range(64):
            # table index: rank 8 first, so white's square sq is row 7 - rank.
            v = VALUE[t] + table[(7 - (sq >> 3)) * 8 + (sq & 7)] - _B
            out[t << 6 | sq] = v
            out[(t | 8) << 6 | (sq ^ 56)] = -v
    return out


MIDDLE = _expand(False)
END = _expand(True)
del _TABLES
