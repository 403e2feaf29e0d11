"""What a position is worth to the engine: material and piece-square tables, tapered.

Seed 001 counts P 1, N 3, B 3, R 5, Q 10; the engine works in centipawns and
refines that to P 100, N 320, B 330, R 500, Q 900 (the usual correction: a
bishop a little over a knight, a queen a little under two rooks). The
piece-square tables are Tomasz Michniewski's "simplified evaluation function"
(engine/square_tables.py), with a middle-game and an end-game table for the
king; the two are blended by the material left (the phase: N and B 1, R 2,
Q 4, 24 at the start).

The tables are expanded once, at import, into one ``array('h')`` per phase,
indexed by ``piece << 6 | square`` (piece code 1..14, square 0..63) with the
material included and the sign folded in (white positive), so the search
updates its score by two lookups per moved piece. What the tables cannot see
is counted at each evaluation (engine/tree.py's ``static_score``, machine
code on the Pico; the pawns' own terms kept in a small table under a key of
the pawns): passed, doubled and isolated pawns, the bishop pair, rooks on
open files, the pawns in front of a king on its first two ranks. Mobility is
not counted: it would walk every piece's moves at each evaluation.
"""

from array import array

from .. import forget
from ..rules.squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING

VALUE = (0, 100, 320, 330, 500, 900, 0)
# Contribution of each piece type to the game phase (24 = every piece on).
PHASE = (0, 0, 1, 1, 2, 4, 0)
PHASE_FULL = 24


def _expand():
    """The middle-game and end-game tables for all 16 piece codes: the value of piece p on square
    s (a1 = 0) at p << 6 | s, white positive, material included."""
    from . import square_tables
    middle = array("h", bytes(2 * 16 * 64))
    end = array("h", bytes(2 * 16 * 64))
    for t in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING):
        for out, table in ((middle, square_tables.TABLES[t]),
                           (end, square_tables.KING_END if t == KING else square_tables.TABLES[t])):
            for sq in range(64):
                # the table is rank 8 first: white's square sq is at row 7 - rank
                v = VALUE[t] + table[(7 - (sq >> 3)) * 8 + (sq & 7)]
                out[t << 6 | sq] = v
                out[(t | 8) << 6 | (sq ^ 56)] = -v
    forget(square_tables)
    return middle, end


MIDDLE, END = _expand()
del _expand
