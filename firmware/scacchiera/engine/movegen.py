"""The search's two hottest loops, as machine code on the Pico: its moves, and who gives check.

Viper (scacchiera/__init__.py): Thumb code on the RP2040 that reads the board
and writes the move buffer through raw pointers; plain Python on CPython and
the WebAssembly port, the same lines and the same moves in the same order.
Nothing is checked at run time by viper, so every index is in range by
construction:

- the board (128 bytes) is read at ``fr`` (0..119, a square of the board),
  at ``fr`` plus one or two pawn steps (a pawn never stands on its last rank,
  and a double step starts from its second), or at a square ``s`` that has
  passed ``s & 0x88 == 0`` (in -128..255 only 0..127 pass);
- the move buffer is written from ``n`` on, at most 218 moves (the most any
  position has), and the caller (the search's walk) calls only when ``n + ROOM``
  fits the buffer.
"""

from .. import const, micropython, ptr8, ptr32
from ..rules.legal import STEPS

_PAWN = const(1)
_KNIGHT = const(2)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)


@micropython.viper
def pseudo_moves(board, moves, n: int, flags: int) -> int:
    """Write the pseudo-legal moves but castling from ``moves[n]`` on; returns the new end.

    ``flags``: the side to move (bit 0), all moves (bit 1; else captures and queen
    promotions only), en passant square + 1 from bit 2 (0: none). Squares in order
    a1..h8, each piece's steps in STEPS's order: the bytecode's order.
    """
    b = ptr8(board)
    out = ptr32(moves)
    steps = ptr8(STEPS)
    us = flags & 1
    quiet = flags & 2
    ep = (flags >> 2) - 1
    fwd = 16
    start_rank = 0x10
    last_rank = 0x70
    if us:
        fwd = -16
        start_rank = 0x60
        last_rank = 0
    fr = 0
    while fr < 120:
        if fr & 8:
            fr += 8           # past the 0x88 board's right half: the next rank
            continue
        p = b[fr]
        if not p or p >> 3 != us:
            fr += 1
            continue
        t = p & 7
        if t == _PAWN:
            # the push, then the captures towards the a-file and the h-file
            k = 0
            while k < 3:
                to = fr + fwd + (2 * k - 3 if k else 0)       # k: 0, 1, 2 -> 0, -1, +1
                k += 1
                if to & 0x88:
                    continue
                x = b[to]
                if k == 1:
                    if x:
                        continue
                elif not x or x >> 3 == us:
                    if to == ep and not x:
                        out[n] = fr | to << 7
                        n += 1
                    continue
                if to & 0x70 == last_rank:
                    # a queen always; a rook, a bishop, a knight with the quiet moves
                    promo = _QUEEN
                    while promo >= (_KNIGHT if quiet else _QUEEN):
                        out[n] = fr | to << 7 | promo << 14
                        n += 1
                        promo -= 1
                elif k > 1 or quiet:
                    out[n] = fr | to << 7
                    n += 1
                    if k == 1 and fr & 0x70 == start_rank and not b[to + fwd]:
                        out[n] = fr | (to + fwd) << 7
                        n += 1
        elif t == _KNIGHT or t == _KING:
            i = 0 if t == _KNIGHT else 8
            last = i + 8
            while i < last:
                to = fr + steps[i] - 64
                i += 1
                if to & 0x88:
                    continue
                x = b[to]
                if x:
                    if x >> 3 != us:
                        out[n] = fr | to << 7
                        n += 1
                elif quiet:
                    out[n] = fr | to << 7
                    n += 1
        else:
            i = 12 if t == _BISHOP else 8
            last = 12 if t == _ROOK else 16
            while i < last:
                d = steps[i] - 64
                i += 1
                to = fr + d
                while not to & 0x88:
                    x = b[to]
                    if x:
                        if x >> 3 != us:
                            out[n] = fr | to << 7
                            n += 1
                        break
                    if quiet:
                        out[n] = fr | to << 7
                        n += 1
                    to += d
        fr += 1
    return n


@micropython.viper
def checker(board, k: int, us: int) -> int:
    """The square of the piece checking side ``us``'s king on ``k``: -1 if none, -2 if two."""
    b = ptr8(board)
    steps = ptr8(STEPS)
    c = (us ^ 1) << 3
    found = -1
    pawn = _PAWN | c
    s = k + 15 if us == 0 else k - 17
    j = 0
    while j < 2:
        if not s & 0x88 and b[s] == pawn:
            found = s
        s += 2
        j += 1
    p = _KNIGHT | c
    i = 0
    while i < 8:
        s = k + steps[i] - 64
        if not s & 0x88 and b[s] == p:
            if found >= 0:
                return -2
            found = s
        i += 1
    q = _QUEEN | c
    while i < 16:
        d = steps[i] - 64
        p = (_ROOK if i < 12 else _BISHOP) | c
        s = k + d
        while not s & 0x88:
            x = b[s]
            if x:
                if x == p or x == q:
                    if found >= 0:
                        return -2
                    found = s
                break
            s += d
        i += 1
    return found
