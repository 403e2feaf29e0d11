"""Move order at a node, as machine code on the Pico: score every move once (the search then takes
the best left, engine/search.py's walk).

Viper (scacchiera/__init__.py); plain Python on CPython and the WebAssembly
port, the same lines. The scores are 16-bit (``Search.scores``, ``history``)
and never negative: the table move 30000, a capture 20000 + at most 900 +
400, a killer 15000, a history score at most 14000 + 48 * 48 before the
table is halved (search.py); so the pointer's unsigned 16-bit reads are the
values. Indexes: ``moves`` and ``scores`` from ``first`` to ``end`` - 1, a
range the search's buffers hold (its ROOM check); the board at a
move's squares (0x88, on the board: 0..119); ``history`` at the mover's
index (piece - 1 - 2 * colour, Zobrist's piece index: white 0..5, black
6..11) << 6 | square (0..63), inside its HISTORY entries; VALUES at a piece
type (0..7).
"""

from array import array

from .. import const, micropython, ptr8, ptr16, ptr32
from .evaluate import VALUE

TT_SCORE = const(30000)
CAPTURE = const(20000)
KILLER = const(15000)
HISTORY = const(768)      # the history table's entries: 12 pieces x 64 squares
VALUES = array("h", VALUE + (0,))     # by piece type 0..7 (7: none)


@micropython.viper
def score_moves(moves, scores, board, history, first: int, end: int, ttmove: int, k1: int, k2: int):
    """Score ``moves[first:end]``: the table's move, captures and queen promotions by victim
    then attacker (MVV-LVA), the ply's two killers ``k1`` and ``k2``, then the history score."""
    m32 = ptr32(moves)
    s16 = ptr16(scores)
    b = ptr8(board)
    h16 = ptr16(history)
    value = ptr16(VALUES)
    j = first
    while j < end:
        m = m32[j]
        if m == ttmove:
            s16[j] = TT_SCORE
        else:
            victim = b[(m >> 7) & 127]
            promo = (m >> 14) & 7
            if victim or promo == 5:
                s16[j] = CAPTURE + value[victim & 7] - (b[m & 127] & 7) + promo * 100
            elif m == k1:
                s16[j] = KILLER
            elif m == k2:
                s16[j] = KILLER - 1
            else:
                to = (m >> 7) & 127
                p = b[m & 127]
                s16[j] = h16[(p - 1 - ((p >> 3) << 1)) << 6 | (to + (to & 7)) >> 1]
        j += 1
