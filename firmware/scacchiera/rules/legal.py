"""Legality as machine code on the Pico: is a square attacked, and the legal move generator's loops.

Viper (scacchiera/__init__.py); plain Python on CPython and the WebAssembly
port, the same lines. The algorithm is the one position.py's docstring
describes: checks and pins found once by walking out from the king, a
pinned piece moving only along its pin, the king only to squares no enemy
attacks once it has left its own, and in check only the moves that take the
checker or step between. ``marks`` (128 bytes, 0x88, cleared at each walk)
holds what the walk found: 1 on a square a move must reach to answer the
check, a pin's step + 64 (47..81) on a pinned piece's square, else 0.

``attacked`` is the question every legality test asks (the rules and the
engine's search).

Indexes, since viper checks none: the board and ``marks`` (128 bytes each)
are read or written at ``k`` (the king, on the board), at ``fr`` (0..119,
on the board), at squares that passed ``& 0x88 == 0`` (0..127), and at a
pawn's one or two steps ahead (a pawn never stands on its last rank: the
FEN reader refuses it and promotion replaces it).
"""

from .. import const, micropython, ptr8

_PAWN = const(1)
_KNIGHT = const(2)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)
_BLOCK = const(1)

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
    i = 0
    while i < 16:               # a knight's step, then a king's
        s = sq + steps[i] - 64
        if not s & 0x88 and b[s] == (_KNIGHT if i < 8 else _KING) | c:
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


@micropython.viper
def checks_and_pins(board, marks, k: int, us: int) -> int:
    """Mark on ``marks`` (128 bytes, cleared first) what a walk out from side ``us``'s king on
    ``k`` finds: the squares that answer a check (_BLOCK) and each pinned piece's pin; returns the
    checks."""
    b = ptr8(board)
    mk = ptr8(marks)
    steps = ptr8(STEPS)
    i = 0
    while i < 128:          # four a turn: 26 us a call on the emulated Pico, one a turn 32
        mk[i] = 0
        mk[i + 1] = 0
        mk[i + 2] = 0
        mk[i + 3] = 0
        i += 4
    them = us ^ 1
    # along each ray from the king, their slider first is a check,
    # one of ours then their slider a pin; then knights and pawns
    checks = 0
    i = 8
    while i < 16:
        d = steps[i] - 64
        slider = _ROOK if i < 12 else _BISHOP
        i += 1
        s = k + d
        while not s & 0x88 and not b[s]:
            s += d
        if s & 0x88:
            continue
        own = -1
        if b[s] >> 3 == us:
            own = s
            s += d
            while not s & 0x88 and not b[s]:
                s += d
            if s & 0x88 or b[s] >> 3 == us:
                continue
        t = b[s] & 7
        if t != slider and t != _QUEEN:
            continue
        if own >= 0:
            mk[own] = d + 64
            continue
        checks += 1
        on = k + d
        while on != s:          # the squares between the king and the checker, then its own
            mk[on] = _BLOCK
            on += d
        mk[s] = _BLOCK
    p = _KNIGHT | them << 3
    i = 0
    while i < 8:
        s = k + steps[i] - 64
        i += 1
        if not s & 0x88 and b[s] == p:
            checks += 1
            mk[s] = _BLOCK
    p = _PAWN | them << 3
    s = k + 15 if us == 0 else k - 17
    i = 0
    while i < 2:
        if not s & 0x88 and b[s] == p:
            checks += 1
            mk[s] = _BLOCK
        s += 2
        i += 1
    return checks


@micropython.viper
def legal_moves(board, marks, append, pos, flags: int) -> int:
    """Append the legal moves of the side to move: the king's, then ``pos._castles(append, k, us,
    them)`` when not in check and a right is left, then every other piece from a1 to h8; returns
    how many it found besides the castlings.

    ``marks``: what checks_and_pins marked. ``flags``: the king's square (bits 0-6), the side to
    move (bit 7), en passant square + 1 (bits 8-14; 0: none), a castling right left (bit 15),
    the checks (bits 16-17), count only (bit 18: no move appended but the castlings, perft's last
    ply); ``pos._ep_is_legal(fr, to)`` tells whether that capture leaves the king safe. ``pos``,
    not its bound methods: making those cost ~30 us a call on the Pico.
    The order is position.py's before this module: the moves, and so the engine, are the same.
    """
    b = ptr8(board)
    mk = ptr8(marks)
    steps = ptr8(STEPS)
    k = flags & 127
    us = (flags >> 7) & 1
    ep = ((flags >> 8) & 127) - 1
    checks = (flags >> 16) & 3
    keep = ((flags >> 18) & 1) ^ 1
    them = us ^ 1
    n = 0

    # -- the king: its destination must not be attacked once it has left its square
    b[k] = 0
    i = 8
    while i < 16:
        s = k + steps[i] - 64
        i += 1
        if s & 0x88:
            continue
        x = b[s]
        if x and x >> 3 == us:
            continue
        if not attacked(board, s, them):
            if keep:
                append(k | s << 7)
            n += 1
    b[k] = _KING | us << 3
    if checks > 1:
        return n
    if not checks and flags & 0x8000:
        pos._castles(append, k, us, them)

    # -- every other piece
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
            fr += 8
            continue
        p = b[fr]
        t = p & 7
        if not p or p >> 3 != us or t == _KING:
            fr += 1
            continue
        pin = mk[fr] - 64 if mk[fr] > _BLOCK else 0
        if t == _PAWN:
            # the push, then the captures towards the a-file and the h-file
            j = 0
            while j < 3:
                d = fwd + (2 * j - 3 if j else 0)       # j: 0, 1, 2 -> fwd, fwd - 1, fwd + 1
                j += 1
                to = fr + d
                if to & 0x88 or (pin and pin != d and pin != -d):
                    continue
                x = b[to]
                if j == 1:
                    if x:
                        continue
                elif not x:
                    if to == ep and pos._ep_is_legal(fr, to):
                        if keep:
                            append(fr | to << 7)
                        n += 1
                    continue
                elif x >> 3 == us:
                    continue
                if not checks or mk[to] == _BLOCK:
                    # on the last rank: a queen, a rook, a bishop, a knight; else the move once
                    promo = _QUEEN if to & 0x70 == last_rank else 0
                    low = _KNIGHT if promo else 0
                    while promo >= low:
                        if keep:
                            append(fr | to << 7 | promo << 14)
                        n += 1
                        promo -= 1
                if j == 1 and fr & 0x70 == start_rank:
                    to += fwd
                    if not b[to] and (not checks or mk[to] == _BLOCK):
                        if keep:
                            append(fr | to << 7)
                        n += 1
        elif t == _KNIGHT:
            i = 0
            while i < 8 and not pin:
                to = fr + steps[i] - 64
                i += 1
                if to & 0x88:
                    continue
                x = b[to]
                if x and x >> 3 == us:
                    continue
                if not checks or mk[to] == _BLOCK:
                    if keep:
                        append(fr | to << 7)
                    n += 1
        else:
            i = 12 if t == _BISHOP else 8
            last = 12 if t == _ROOK else 16
            while i < last:
                d = steps[i] - 64
                i += 1
                if pin and pin != d and pin != -d:
                    continue
                to = fr + d
                while not to & 0x88:
                    x = b[to]
                    if x and x >> 3 == us:
                        break
                    if not checks or mk[to] == _BLOCK:
                        if keep:
                            append(fr | to << 7)
                        n += 1
                    if x:
                        break
                    to += d
        fr += 1
    return n
