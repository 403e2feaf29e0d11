"""Is a square attacked? The question every legality test asks, as machine code on the Pico.

Viper (scacchiera/native.py): on the RP2040 this is Thumb code reading the
board through a raw pointer; on CPython and the WebAssembly port the same
lines run as Python. Every read is ``board[s]`` with ``s & 0x88 == 0``
checked first: a 0x88 index that passed that test lies in 0..127 (any int
in -128..255 outside it has bit 7 set), and the board is 128 bytes, so no
read leaves it. ``sq`` itself is a square of the board (0x88, on it).
"""

from .. import const
from ..native import micropython, ptr8

_PAWN = const(1)
_KNIGHT = const(2)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)

# Every step a piece takes, + 64 so a byte holds it: the knight's at 0-7, then the
# king's and queen's at 8-15 (the rook's 8-11, the bishop's 12-15). The rules and
# the engine's generator walk them in this order.
STEPS = bytes(d + 64 for d in (33, 31, 18, 14, -33, -31, -18, -14,
                               16, -16, 1, -1, 15, 17, -15, -17))


@micropython.viper
def attacked(board, sq: int, by: int) -> bool:
    """Is 0x88 square ``sq`` attacked by side ``by`` (0 white, 1 black) on ``board``?"""
    b = ptr8(board)
    steps = ptr8(STEPS)
    c = by << 3
    p = _PAWN | c
    s = sq - 17 if by == 0 else sq + 15     # the two squares a pawn of ``by`` takes on sq from
    j = 0
    while j < 2:
        if not s & 0x88 and b[s] == p:
            return True
        s += 2
        j += 1
    p = _KNIGHT | c
    i = 0
    while i < 8:
        s = sq + steps[i] - 64
        if not s & 0x88 and b[s] == p:
            return True
        i += 1
    p = _KING | c
    while i < 16:
        s = sq + steps[i] - 64
        if not s & 0x88 and b[s] == p:
            return True
        i += 1
    q = _QUEEN | c
    i = 8
    while i < 16:
        d = steps[i] - 64
        p = (_ROOK if i < 12 else _BISHOP) | c
        s = sq + d
        while not s & 0x88:
            x = b[s]
            if x:
                if x == p or x == q:
                    return True
                break
            s += d
        i += 1
    return False
