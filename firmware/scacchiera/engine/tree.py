"""The search's own copy of a position: pseudo-legal moves into a buffer, make and unmake.

The rules module's ``Position.generate`` is exact but makes a list of moves
and a scratch per call, and ``push`` grows the game's history: right for a
game, an allocation per node for a search. The tree keeps its own
board and state (a bytearray and an array, not a Position: RAM), writes moves
into one preallocated list (engine/movegen.py, machine code on the Pico),
and undoes from preallocated per-ply stacks: nothing is allocated once a
search has started. A pseudo-legal move that leaves the king
attacked is unmade at once; the root's moves are checked against
``Position.legal_moves()`` by the engine.

Moves and pieces are the rules module's small ints (rules/squares.py); the
Zobrist keys and castling masks are the rules module's too, so the tree's
hash is the game's repetition key. A Chess960 position brings its castling
rooks and masks, and rules/chess960.py's castling (king takes rook, KING in
the promotion bits: see its docstring).

Make and unmake are viper (scacchiera/__init__.py): machine code on the
Pico, plain Python elsewhere, the same lines. A move changes the board, the
score (middle game and end game, by the piece-square tables), the game
phase, the hash, the pawns' own key, the bishops and the rooks by file
(static_score's terms read them), castling, en passant and the clocks; its
undo record keeps what unmake cannot recompute. All of it is in buffers a pointer reaches:
``st`` (the fields below), ``undo`` (UNDO words a ply), ``keys`` (the hash
at every ply), the board, the castling masks ``keep``, and the tables MIDDLE
and END (16-bit signed: read through an unsigned pointer, so ``((x + 0x8000)
& 0xFFFF) - 0x8000`` gives the sign back, and leaves a signed value, what
plain Python reads, as it is), the Zobrist keys (30-bit) and the phase
weights. Their indexes: the board and ``keep`` (128 bytes) at a move's
squares (0x88, on the board), at the square behind an en passant capture and
at a castling rook's squares (on the king's rank: a king castles from its
e-file square); a table at piece (0..15) << 6 | square (0..63), inside its
1,024 entries; a Zobrist key at its offsets (rules/position.py); ``st``'s
rooks at ROOK_FILES + 8 * colour + a square's file (& 7: 0..7); ``undo``
and ``keys`` at ply < MAX_PLY + 1 (the search stops deepening at MAX_PLY -
2). Ints: scores within +-16,000, a hash of 30 bits: no 32-bit wrap.
"""

from array import array

from .. import const, micropython, ptr8, ptr16, ptr32
from ..rules.squares import ROOK, KING
from ..rules.position import ZOBRIST, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_SIDE, CASTLE_KEEP
from ..rules.legal import attacked
from .evaluate import MIDDLE, END, PHASE

MAX_PLY = const(48)
_CASTLE = const(98304)       # rules/chess960.py's CASTLE: KING in a move's promotion bits
MOVE_SPACE = const(800)      # moves of every ply on the current line
ROOM = const(230)           # more than any position's moves (218)

def shorts(n):
    """n zeros as 16-bit ints: half a list's RAM on MicroPython."""
    return array("h", bytes(2 * n))


def ints(n):
    """n zeros as 32-bit ints (moves, keys: small ints up to 30 bits)."""
    return array("i", bytes(4 * n))


def _line_steps():
    """For each 0x88 difference b - a + 119: the step from a towards b if they share a line, + 18 (0: none)."""
    steps = bytearray(239)
    for d in (16, -16, 1, -1, 15, 17, -15, -17):
        for n in range(1, 8):
            steps[d * n + 119] = d + 18
    return steps


_LINE = _line_steps()


# Tree.st: the position on the line, one int each.
TURN = const(0)
CASTLING = const(1)
EP = const(2)            # en passant square, -1: none
HALF = const(3)          # the halfmove clock
HASH = const(4)
MG = const(5)            # the score, white's view, middle game and end game
EG = const(6)
GAME_PHASE = const(7)    # the material left, for the blend of the two
SPECIAL = const(8)       # the last move made was a king move or an en passant capture
PLY = const(9)           # plies made since the root
KINGS = const(10)        # + colour: the kings' squares
PAWN_KEY = const(12)     # the Zobrist keys of the pawns alone, xored: the pawn table's key
BISHOPS = const(13)      # white's bishops + 16 * black's
ROOK_FILES = const(14)   # + 8 * colour + file: that side's rooks on the file
STATE = const(30)

# Tree.undo: a ply's record, UNDO words from ply * UNDO.
U_MOVE = const(0)
U_CAPTURED = const(1)
U_STATE = const(2)       # castling | (en passant + 1) << 4 | halfmove << 12
U_HASH = const(3)
U_MG = const(4)
U_EG = const(5)
U_PAWN_KEY = const(6)
UNDO = const(7)

_PAWN = const(1)
_BISHOP = const(3)
_ROOK = const(4)
_QUEEN = const(5)
_KING = const(6)
_PHASE_FULL = const(24)     # engine/evaluate.py's PHASE_FULL (tests/test_engine.py checks them)
_Z_CASTLING = const(768)    # rules/position.py's ZOBRIST_CASTLING (tests/test_engine.py checks them)
_Z_EP = const(784)          # ... ZOBRIST_EP
_Z_SIDE = const(792)        # ... the index of ZOBRIST_SIDE
_PHASES = bytes(PHASE)


@micropython.viper
def make_move(board, state, undo, keys, keep, move: int) -> int:
    """Play a pseudo-legal ``move``; returns 1 (the record and the hash's side and en passant done,
    nothing else) for a Chess960 castling, king takes rook, which Tree finishes; else 0."""
    b = ptr8(board)
    st = ptr32(state)
    u = ptr32(undo)
    mid = ptr16(MIDDLE)
    end = ptr16(END)
    z = ptr32(ZOBRIST)
    ph = ptr8(_PHASES)
    ply = st[PLY]
    us = st[TURN]
    fr = move & 127
    to = (move >> 7) & 127
    piece = b[fr]
    cap = b[to]
    ep = st[EP]
    castling = st[CASTLING]
    at = ply * UNDO
    u[at + U_MOVE] = move
    u[at + U_CAPTURED] = cap
    u[at + U_STATE] = castling | (ep + 1) << 4 | st[HALF] << 12
    h = st[HASH]
    u[at + U_HASH] = h
    mg = st[MG]
    eg = st[EG]
    u[at + U_MG] = mg
    u[at + U_EG] = eg
    u[at + U_PAWN_KEY] = st[PAWN_KEY]
    h ^= z[_Z_SIDE]
    if ep >= 0:
        h ^= z[_Z_EP + (ep & 7)]
    if cap and cap >> 3 == us:
        st[HASH] = h
        return 1
    f64 = (fr + (fr & 7)) >> 1
    t64 = (to + (to & 7)) >> 1
    i = piece << 6
    mg += (((mid[i | t64] + 0x8000) & 0xFFFF) - 0x8000) - (((mid[i | f64] + 0x8000) & 0xFFFF) - 0x8000)
    eg += (((end[i | t64] + 0x8000) & 0xFFFF) - 0x8000) - (((end[i | f64] + 0x8000) & 0xFFFF) - 0x8000)
    zp = (piece - 1 - ((piece >> 3) << 1)) << 6
    h ^= z[zp | f64] ^ z[zp | t64]
    half = st[HALF] + 1
    if cap:
        i = cap << 6 | t64
        mg -= ((mid[i] + 0x8000) & 0xFFFF) - 0x8000
        eg -= ((end[i] + 0x8000) & 0xFFFF) - 0x8000
        t = cap & 7
        st[GAME_PHASE] = st[GAME_PHASE] - ph[t]
        taken = z[(cap - 1 - ((cap >> 3) << 1)) << 6 | t64]     # the taken piece's key
        h ^= taken
        if t == _PAWN:
            st[PAWN_KEY] = st[PAWN_KEY] ^ taken
        elif t == _ROOK:
            i = ROOK_FILES + ((us ^ 1) << 3) + (to & 7)
            st[i] = st[i] - 1
        elif t == _BISHOP:
            st[BISHOPS] = st[BISHOPS] - (1 if us else 16)
        half = 0
    b[fr] = 0
    b[to] = piece
    new_ep = -1
    t = piece & 7
    st[SPECIAL] = 1 if t == _KING else 0
    if t == _PAWN:
        half = 0
        step = to - fr
        pk = st[PAWN_KEY] ^ z[zp | f64] ^ z[zp | t64]
        if to == ep:
            st[SPECIAL] = 1
            c = to - 16 if us == 0 else to + 16
            x = b[c]
            c64 = (c + (c & 7)) >> 1
            i = x << 6 | c64
            mg -= ((mid[i] + 0x8000) & 0xFFFF) - 0x8000
            eg -= ((end[i] + 0x8000) & 0xFFFF) - 0x8000
            taken = z[(x - 1 - ((x >> 3) << 1)) << 6 | c64]
            h ^= taken
            pk ^= taken
            b[c] = 0
        elif step == 32 or step == -32:
            # en passant only if an enemy pawn stands beside (the rules module
            # also asks for legality; the hash differs only in that rare case)
            enemy = _PAWN | (us ^ 1) << 3
            if (not (to + 1) & 0x88 and b[to + 1] == enemy) or (not (to - 1) & 0x88 and b[to - 1] == enemy):
                new_ep = fr + (step >> 1)
                h ^= z[_Z_EP + (new_ep & 7)]
        elif (move >> 14) & 7:
            promoted = (move >> 14) & 7 | us << 3
            b[to] = promoted
            i = piece << 6 | t64
            j = promoted << 6 | t64
            mg += (((mid[j] + 0x8000) & 0xFFFF) - 0x8000) - (((mid[i] + 0x8000) & 0xFFFF) - 0x8000)
            eg += (((end[j] + 0x8000) & 0xFFFF) - 0x8000) - (((end[i] + 0x8000) & 0xFFFF) - 0x8000)
            st[GAME_PHASE] = st[GAME_PHASE] + ph[promoted & 7]
            h ^= z[zp | t64] ^ z[(promoted - 1 - ((promoted >> 3) << 1)) << 6 | t64]
            pk ^= z[zp | t64]
            if promoted & 7 == _ROOK:
                i = ROOK_FILES + (us << 3) + (to & 7)
                st[i] = st[i] + 1
            elif promoted & 7 == _BISHOP:
                st[BISHOPS] = st[BISHOPS] + (16 if us else 1)
        st[PAWN_KEY] = pk
    elif t == _ROOK:
        i = ROOK_FILES + (us << 3)
        st[i + (fr & 7)] = st[i + (fr & 7)] - 1
        st[i + (to & 7)] = st[i + (to & 7)] + 1
    elif t == _KING:
        st[KINGS + us] = to
        if to - fr == 2 or fr - to == 2:
            rook = _ROOK | us << 3
            rfr = fr + 3 if to > fr else fr - 4
            rto = fr + 1 if to > fr else fr - 1
            b[rfr] = 0
            b[rto] = rook
            r1 = (rfr + (rfr & 7)) >> 1
            r2 = (rto + (rto & 7)) >> 1
            i = rook << 6
            mg += (((mid[i | r2] + 0x8000) & 0xFFFF) - 0x8000) - (((mid[i | r1] + 0x8000) & 0xFFFF) - 0x8000)
            eg += (((end[i | r2] + 0x8000) & 0xFFFF) - 0x8000) - (((end[i | r1] + 0x8000) & 0xFFFF) - 0x8000)
            zp = (rook - 1 - ((rook >> 3) << 1)) << 6
            h ^= z[zp | r1] ^ z[zp | r2]
            i = ROOK_FILES + (us << 3)
            st[i + (rfr & 7)] = st[i + (rfr & 7)] - 1
            st[i + (rto & 7)] = st[i + (rto & 7)] + 1
    if castling:
        kp = ptr8(keep)
        rights = castling & kp[fr] & kp[to]
        if rights != castling:
            h ^= z[_Z_CASTLING + castling] ^ z[_Z_CASTLING + rights]
            st[CASTLING] = rights
    st[EP] = new_ep
    st[HALF] = half
    st[TURN] = us ^ 1
    st[HASH] = h
    st[MG] = mg
    st[EG] = eg
    ply += 1
    st[PLY] = ply
    ptr32(keys)[ply] = h
    return 0


@micropython.viper
def unmake_move(board, state, undo) -> int:
    """Take back the last move made; returns 1 for a Chess960 castling (the state restored, the
    pieces not: Tree puts them back), else 0."""
    b = ptr8(board)
    st = ptr32(state)
    u = ptr32(undo)
    ply = st[PLY] - 1
    st[PLY] = ply
    at = ply * UNDO
    move = u[at + U_MOVE]
    us = st[TURN] ^ 1
    st[TURN] = us
    fr = move & 127
    to = (move >> 7) & 127
    s = u[at + U_STATE]
    st[CASTLING] = s & 15
    ep = ((s >> 4) & 255) - 1
    st[EP] = ep
    st[HALF] = s >> 12
    st[HASH] = u[at + U_HASH]
    st[MG] = u[at + U_MG]
    st[EG] = u[at + U_EG]
    st[PAWN_KEY] = u[at + U_PAWN_KEY]
    piece = b[to]
    ph = ptr8(_PHASES)
    promoted = (move >> 14) & 7
    if promoted:
        if promoted == _KING:        # a Chess960 castling
            return 1
        piece = _PAWN | us << 3
        st[GAME_PHASE] = st[GAME_PHASE] - ph[promoted]
    rooks = ROOK_FILES + (us << 3)      # the mover's rooks by file
    b[fr] = piece
    cap = u[at + U_CAPTURED]
    b[to] = cap
    if cap:
        t = cap & 7
        st[GAME_PHASE] = st[GAME_PHASE] + ph[t]
        if t == _ROOK:
            i = ROOK_FILES + ((us ^ 1) << 3) + (to & 7)
            st[i] = st[i] + 1
        elif t == _BISHOP:
            st[BISHOPS] = st[BISHOPS] + (1 if us else 16)
    t = piece & 7
    if t == _PAWN:
        if to == ep:
            b[to - 16 if us == 0 else to + 16] = _PAWN | (us ^ 1) << 3
        elif promoted == _ROOK:
            st[rooks + (to & 7)] = st[rooks + (to & 7)] - 1
        elif promoted == _BISHOP:
            st[BISHOPS] = st[BISHOPS] - (16 if us else 1)
    elif t == _ROOK:
        st[rooks + (to & 7)] = st[rooks + (to & 7)] - 1
        st[rooks + (fr & 7)] = st[rooks + (fr & 7)] + 1
    elif t == _KING:
        st[KINGS + us] = fr
        if to - fr == 2 or fr - to == 2:
            rfr = fr + 3 if to > fr else fr - 4     # the rook's corner, as make_move's
            rto = fr + 1 if to > fr else fr - 1     # where the castling put it
            b[rto] = 0
            b[rfr] = _ROOK | us << 3
            st[rooks + (rto & 7)] = st[rooks + (rto & 7)] - 1
            st[rooks + (rfr & 7)] = st[rooks + (rfr & 7)] + 1
    return 0


# The pawn structure's terms, middle game then end game, by the pawn's rank counted from its own
# side (1..6).
_PASSED = bytes((0, 5, 10, 15, 25, 40, 60, 0, 0, 10, 15, 25, 45, 75, 115, 0))
# pawn_terms' scratch, by file + 1 (0 and 9 are the sides' empty files): white's pawns on the
# file, black's, white's rearmost pawn's rank (8: none), black's rearmost's rank + 1 (0: none).
_FILES = bytearray(40)
_SEEN = bytearray(16)      # pawn_terms' list of the pawns' squares
_W_PAWNS = const(0)
_B_PAWNS = const(10)
_W_REAR = const(20)
_B_REAR = const(30)

# The pawn table (Tree.pawns): what the pawns alone are worth, kept under their key (PAWN_KEY)
# because the pawns change in few of the moves a search makes. PAWN_SLOTS entries of four ints:
# the key (-1: empty), the middle- and end-game terms (white's view), and the files that hold
# pawns (white's in bits 0..7, black's in 8..15). A slot is the key's low bits; a new structure
# takes the slot over.
PAWN_SLOTS = const(16)
_P_KEY = const(0)
_P_MG = const(1)
_P_EG = const(2)
_P_FILES = const(3)


def pawn_table():
    """An empty pawn table (every key -1)."""
    return array("i", [-1, 0, 0, 0] * PAWN_SLOTS)


@micropython.viper
def pawn_terms(board, pawns, at: int, key: int):
    """Count the pawns' terms into the pawn table's entry at ``at``, under ``key``: passed pawns
    (by rank, more in the end game), doubled and isolated pawns, and the files holding pawns.
    Indexes: the board at squares 0..119 (0x88, on the board), ``_FILES`` at field + file + 1
    (0..39), ``_PASSED`` at rank (1..6) and 8 + rank, ``_SEEN`` below 16 (a side has at most
    eight pawns), ``pawns`` at ``at`` + 0..3 (``at`` a slot's start, below 4 * PAWN_SLOTS)."""
    b = ptr8(board)
    pt = ptr32(pawns)
    fl = ptr8(_FILES)
    passed = ptr8(_PASSED)
    i = 0
    while i < 10:
        fl[_W_PAWNS + i] = 0
        fl[_B_PAWNS + i] = 0
        fl[_W_REAR + i] = 8
        fl[_B_REAR + i] = 0
        i += 1
    # first the files' pawns, and where the pawns stand
    seen = ptr8(_SEEN)
    n = 0
    sq = 16               # no pawn stands on the first rank or the last
    while sq < 104:
        if sq & 8:
            sq += 8       # off the board: the next rank
        p = b[sq]
        if p & 7 == _PAWN:
            seen[n] = sq
            n += 1
            f = (sq & 7) + 1
            r = sq >> 4
            if p == _PAWN:
                fl[_W_PAWNS + f] = fl[_W_PAWNS + f] + 1
                if r < fl[_W_REAR + f]:
                    fl[_W_REAR + f] = r
            else:
                fl[_B_PAWNS + f] = fl[_B_PAWNS + f] + 1
                if r + 1 > fl[_B_REAR + f]:
                    fl[_B_REAR + f] = r + 1
        sq += 1
    # then each pawn against the files
    mg = 0
    eg = 0
    i = 0
    while i < n:
        sq = seen[i]
        i += 1
        f = (sq & 7) + 1
        r = sq >> 4
        if b[sq] == _PAWN:
            # passed: no black pawn ahead on its file or the two beside
            if fl[_B_REAR + f - 1] <= r + 1 and fl[_B_REAR + f] <= r + 1 and fl[_B_REAR + f + 1] <= r + 1:
                mg += passed[r]
                eg += passed[8 + r]
            if not fl[_W_PAWNS + f - 1] and not fl[_W_PAWNS + f + 1]:
                mg -= 10
                eg -= 15
        else:
            # passed: no white pawn below it on its file or the two beside
            if fl[_W_REAR + f - 1] >= r and fl[_W_REAR + f] >= r and fl[_W_REAR + f + 1] >= r:
                mg -= passed[7 - r]
                eg -= passed[15 - r]
            if not fl[_B_PAWNS + f - 1] and not fl[_B_PAWNS + f + 1]:
                mg += 10
                eg += 15
    files = 0
    f = 1
    while f < 9:
        if fl[_W_PAWNS + f]:
            files |= 1 << (f - 1)
            mg -= 10 * (fl[_W_PAWNS + f] - 1)
            eg -= 20 * (fl[_W_PAWNS + f] - 1)
        if fl[_B_PAWNS + f]:
            files |= 256 << (f - 1)
            mg += 10 * (fl[_B_PAWNS + f] - 1)
            eg += 20 * (fl[_B_PAWNS + f] - 1)
        f += 1
    pt[at + _P_KEY] = key
    pt[at + _P_MG] = mg
    pt[at + _P_EG] = eg
    pt[at + _P_FILES] = files


@micropython.viper
def static_score(board, state, pawns) -> int:
    """The static score from the side to move's view, in centipawns: the middle- and end-game
    scores (the tables, kept up by make and unmake) and the terms below, blended by the phase.

    The terms: the pawns' (``pawn_terms``, read from the pawn table ``pawns``, counted on a
    miss), the bishop pair, a rook on an open or half-open file, the pawns in front of a king on
    its first two ranks. In a won ending the lone king is driven to the edge and the other king
    brought close (the piece-square tables alone let a rook or queen up wander for 100 plies).
    Indexes: the board at squares 0..119 (0x88, on the board: a king's file + -1..1 is kept in
    0..7), ``state`` at its fields, ``pawns`` at a slot (key & (PAWN_SLOTS - 1)) * 4 + 0..3."""
    st = ptr32(state)
    b = ptr8(board)
    pt = ptr32(pawns)
    key = st[PAWN_KEY]
    at = (key & (PAWN_SLOTS - 1)) << 2
    if pt[at + _P_KEY] != key:
        pawn_terms(board, pawns, at, key)
    mg = pt[at + _P_MG]
    eg = pt[at + _P_EG]
    files = pt[at + _P_FILES]
    # rooks: no pawn of their own on the file, open, or half-open with one of the other side's
    f = 0
    while f < 8:
        n = st[ROOK_FILES + f]
        if n and not files & (1 << f):
            if files & (256 << f):
                mg += 12 * n
                eg += 5 * n
            else:
                mg += 25 * n
                eg += 10 * n
        n = st[ROOK_FILES + 8 + f]
        if n and not files & (256 << f):
            if files & (1 << f):
                mg -= 12 * n
                eg -= 5 * n
            else:
                mg -= 25 * n
                eg -= 10 * n
        f += 1
    bishops = st[BISHOPS]
    if bishops & 15 >= 2:
        mg += 30
        eg += 45
    if bishops >> 4 >= 2:
        mg -= 30
        eg -= 45
    # a king on its first two ranks, its shelter (middle game): on its file and the two beside
    # (those on the board), a pawn of its own one or two squares ahead, or a fault if the file
    # has none of its pawns
    k = st[KINGS]
    if k >> 4 <= 1:
        f = (k & 7) - 1
        while f <= (k & 7) + 1:
            if f >= 0 and f <= 7:
                if b[k + 16 - (k & 7) + f] == _PAWN:
                    mg += 15
                elif b[k + 32 - (k & 7) + f] == _PAWN:
                    mg += 8
                elif not files & (1 << f):
                    mg -= 15
            f += 1
    k = st[KINGS + 1]
    if k >> 4 >= 6:
        f = (k & 7) - 1
        while f <= (k & 7) + 1:
            if f >= 0 and f <= 7:
                if b[k - 16 - (k & 7) + f] == 8 | _PAWN:
                    mg -= 15
                elif b[k - 32 - (k & 7) + f] == 8 | _PAWN:
                    mg -= 8
                elif not files & (256 << f):
                    mg += 15
            f += 1
    ph = st[GAME_PHASE]
    if ph > _PHASE_FULL:
        ph = _PHASE_FULL
    s = ((st[MG] + mg) * ph + (st[EG] + eg) * (_PHASE_FULL - ph)) // _PHASE_FULL
    if ph <= 6 and (s > 250 or s < -250):
        w = st[KINGS]
        bk = st[KINGS + 1]
        loser = bk if s > 0 else w
        f = loser & 7
        r = loser >> 4
        edge = (f if f > 3 else 7 - f) + (r if r > 3 else 7 - r)
        df = (w & 7) - (bk & 7)
        dr = (w >> 4) - (bk >> 4)
        near = 14 - (df if df > 0 else -df) - (dr if dr > 0 else -dr)
        bonus = 10 * edge + 4 * near
        s += bonus if s > 0 else -bonus
    return -s if st[TURN] else s


@micropython.viper
def left_in_check(board, state, undo, was_in_check: int) -> int:
    """After make: is the side that just moved in check (the move was illegal)? 1 if so.

    Unless the mover was in check, moved its king or took en passant, only a
    piece leaving the line between its king and an enemy slider can expose
    the king: one ray walk instead of a full attack test. ``_LINE``'s index,
    a difference of two 0x88 squares + 119, is within its 239 bytes.
    """
    st = ptr32(state)
    them = st[TURN]
    k = st[KINGS + (them ^ 1)]
    if was_in_check or st[SPECIAL]:
        return 1 if attacked(board, k, them) else 0
    fr = ptr32(undo)[(st[PLY] - 1) * UNDO + U_MOVE] & 127
    step = ptr8(_LINE)[fr - k + 119]
    if not step:
        return 0
    step -= 18
    b = ptr8(board)
    s = k + step
    while not s & 0x88:
        x = b[s]
        if x:
            if x >> 3 != them:
                return 0
            t = x & 7
            if t == _QUEEN:
                return 1
            if step == 16 or step == -16 or step == 1 or step == -1:
                return 1 if t == _ROOK else 0
            return 1 if t == _BISHOP else 0
        s += step
    return 0


@micropython.viper
def stops_check(state, move: int, checker: int) -> int:
    """Can ``move`` (not a king move) answer a check by the piece on ``checker``: take it or
    block? 1 if so. ``_LINE``'s indexes: differences of 0x88 squares + 119, within its 239 bytes."""
    st = ptr32(state)
    to = (move >> 7) & 127
    if to == checker or to == st[EP]:
        return 1
    k = st[KINGS + st[TURN]]
    line = ptr8(_LINE)
    step = line[checker - k + 119]
    if not step or line[to - k + 119] != step:
        return 0
    a = to - k
    b = checker - k
    return 1 if (a if a > 0 else -a) < (b if b > 0 else -b) else 0


@micropython.viper
def is_repetition(state, keys, history, n: int) -> int:
    """Has the current position stood before, on this line or in the game? 1 if so.
    ``history``: the game's keys (array('i'), ``n`` of them, the root's last). The walk
    goes back two plies a step, no further than the halfmove clock: inside ``keys`` for
    d <= ply, inside ``history`` for i >= 0."""
    st = ptr32(state)
    line = ptr32(keys)
    game = ptr32(history)
    ply = st[PLY]
    h = st[HASH]
    half = st[HALF]
    d = 2
    while d <= half:
        if d <= ply:
            if line[ply - d] == h:
                return 1
        else:
            i = n - 1 - (d - ply)
            if i < 0:
                return 0
            if game[i] == h:
                return 1
        d += 2
    return 0


@micropython.viper
def has_pieces(board, us: int) -> int:
    """Has side ``us`` two pieces besides king and pawns? 1 if so. With fewer, zugzwang is common
    enough that passing (null-move pruning) is no safe guess. Reads the board's squares (0x88)."""
    b = ptr8(board)
    n = 0
    sq = 0
    while sq < 120:
        if sq & 8:
            sq += 8           # off the board: the next rank
        p = b[sq]
        if p and p >> 3 == us:
            t = p & 7
            if t != _PAWN and t != _KING:
                n += 1
                if n == 2:
                    return 1
        sq += 1
    return 0


# -- the transposition table's entries (search.py's table) --------------------------------------
# The table is one bytearray, an entry TT_ENTRY bytes: the key's 30 bits in bytes 0-3 (the bound's
# 2 bits above them), the move's 18 in bytes 4, 5 and byte 6's low 2 (the search's generation in
# its 6 above), the depth, the score + 32768 in two bytes. Asked at nearly every node, so viper
# (what it bought: docs/engine.md); here, not in a module of their own, for RAM. Indexes: the
# table is (mask + 1) * TT_ENTRY bytes (Search makes it so), and an entry starts at
# (key & mask) * TT_ENTRY.
TT_ENTRY = const(10)
_MATE_BOUND = const(30000)   # as search.py's MATE_BOUND: scores beyond this are mates


@micropython.viper
def tt_find(tt, key: int, mask: int, generation: int) -> int:
    """Byte offset of ``key``'s entry in ``tt`` if it holds it from this search, else -1."""
    t = ptr8(tt)
    i = (key & mask) * TT_ENTRY
    if (t[i + 6] >> 2) != generation:
        return -1
    if (t[i] | t[i + 1] << 8 | t[i + 2] << 16 | (t[i + 3] & 63) << 24) != key:
        return -1
    return i


@micropython.viper
def tt_put(tt, key: int, mask: int, generation: int, depth: int, flag: int, score: int, move: int, ply: int):
    """Store a node's result in ``key``'s entry (always replacing); a mate's score counted from
    the node, not the root, so that it holds wherever the position comes again."""
    if score > _MATE_BOUND:
        score += ply
    elif score < -_MATE_BOUND:
        score -= ply
    t = ptr8(tt)
    i = (key & mask) * TT_ENTRY
    t[i] = key & 255
    t[i + 1] = (key >> 8) & 255
    t[i + 2] = (key >> 16) & 255
    t[i + 3] = (key >> 24) & 63 | flag << 6
    t[i + 4] = move & 255
    t[i + 5] = (move >> 8) & 255
    t[i + 6] = (move >> 16) & 3 | generation << 2
    t[i + 7] = depth if depth > 0 else 0
    score += 32768
    t[i + 8] = score & 255
    t[i + 9] = (score >> 8) & 255


class Tree:
    """Board, side, castling, en passant, clocks, hash and score (``st``), with make/unmake."""

    def __init__(self):
        self.board = bytearray(128)    # 0x88, as Position.board
        self.moves = ints(MOVE_SPACE)
        self.st = ints(STATE)       # the fields above: TURN, CASTLING, EP, ...
        self.keep = CASTLE_KEEP   # the castling rights each square keeps when a piece leaves or is taken
        self.rooks = None     # Chess960: each right's rook (0x88), as Chess960Position.rooks
        # Chess960: rules/chess960.py's castling functions, loaded with a Chess960 position
        self._may_castle = self._move_castle = self._unmove_castle = self._king_to = self._rook_to = None
        n = MAX_PLY + 1
        self.undo = ints(n * UNDO)   # each ply's record (the U_ fields above)
        self.keys = ints(n)      # the hash at every ply of the line
        self.pawns = pawn_table()   # the pawns' terms by their key (PAWN_SLOTS entries)

    def load(self, position):
        """Copy ``position`` (a rules Position) in; the tree never touches it again."""
        board = self.board
        src = position.board
        st = self.st
        for i in range(PAWN_KEY, STATE):
            st[i] = 0
        mg = eg = phase = 0
        for sq in range(128):
            p = src[sq]
            board[sq] = p
            if p and not sq & 0x88:
                i = p << 6 | (sq + (sq & 7)) >> 1
                mg += MIDDLE[i]
                eg += END[i]
                phase += PHASE[p & 7]
                t = p & 7
                if t == _PAWN:
                    st[PAWN_KEY] ^= ZOBRIST[(p - 1 - ((p >> 3) << 1)) << 6 | (sq + (sq & 7)) >> 1]
                elif t == _ROOK:
                    st[ROOK_FILES + ((p >> 3) << 3) + (sq & 7)] += 1
                elif t == _BISHOP:
                    st[BISHOPS] += 16 if p >> 3 else 1
        st[KINGS] = position.kings[0]
        st[KINGS + 1] = position.kings[1]
        st[TURN] = position.turn
        st[CASTLING] = position.castling
        if position.variant == "chess960":
            from ..rules.chess960 import may_castle, move_castle, unmove_castle, king_to, rook_to
            self._may_castle = may_castle
            self._move_castle = move_castle
            self._unmove_castle = unmove_castle
            self._king_to = king_to
            self._rook_to = rook_to
            self.rooks = bytes(position.rooks)
            self.keep = bytes(position.castle_keep)
        else:
            self.rooks = None
            self.keep = CASTLE_KEEP
        st[EP] = position.ep
        st[HALF] = position.halfmove
        st[HASH] = position.hash
        st[MG] = mg
        st[EG] = eg
        st[GAME_PHASE] = phase
        st[SPECIAL] = 0
        st[PLY] = 0
        self.keys[0] = position.hash

    def castles(self, n):
        """Write the side to move's castlings from ``moves[n]`` on; returns the new end (the search
        writes the other moves with movegen.pseudo_moves)."""
        moves = self.moves
        st = self.st
        us = st[TURN]
        rights = st[CASTLING] >> (2 * us) & 3
        if not rights:
            return n
        k = st[KINGS + us]
        them = us ^ 1
        board = self.board
        if self.rooks is not None:
            for side in (0, 1):
                rook = self.rooks[2 * us + side]
                if rights & (1 << side) and self._may_castle(board, k, rook, them):
                    moves[n] = k | rook << 7 | _CASTLE
                    n += 1
            return n
        if rights & 1 and not board[k + 1] and not board[k + 2] and not attacked(board, k, them) \
                and not attacked(board, k + 1, them):
            moves[n] = k | (k + 2) << 7
            n += 1
        if rights & 2 and not board[k - 1] and not board[k - 2] and not board[k - 3] \
                and not attacked(board, k, them) and not attacked(board, k - 1, them):
            moves[n] = k | (k - 2) << 7
            n += 1
        return n

    def castle(self, move):
        """make's end for a Chess960 castling, when make_move returned 1 (its undo record saved,
        the hash's side and en passant done): king and rook to their chess squares, the mover's
        rights gone."""
        ksq = move & 127
        rsq = (move >> 7) & 127
        st = self.st
        us = st[TURN]
        kto = self._king_to(ksq, rsq)
        self._move_castle(self.board, ksq, rsq, us)
        castling = st[CASTLING]
        new = castling & (15 ^ (3 << 2 * us))
        st[HASH] ^= ZOBRIST[ZOBRIST_CASTLING + castling] ^ ZOBRIST[ZOBRIST_CASTLING + new]
        self._shift(KING | us << 3, ksq, kto)
        rto = self._rook_to(ksq, rsq)
        self._shift(ROOK | us << 3, rsq, rto)
        st[ROOK_FILES + (us << 3) + (rsq & 7)] -= 1
        st[ROOK_FILES + (us << 3) + (rto & 7)] += 1
        st[KINGS + us] = kto
        st[CASTLING] = new
        st[SPECIAL] = 1
        st[EP] = -1
        st[HALF] += 1
        st[TURN] = us ^ 1
        st[PLY] += 1
        self.keys[st[PLY]] = st[HASH]

    def _shift(self, piece, a, b):
        """The score and hash of ``piece`` moved from ``a`` to ``b`` (0x88)."""
        a = (a + (a & 7)) >> 1
        b = (b + (b & 7)) >> 1
        i = piece << 6
        st = self.st
        st[MG] += MIDDLE[i | b] - MIDDLE[i | a]
        st[EG] += END[i | b] - END[i | a]
        z = (piece - 1 - ((piece >> 3) << 1)) << 6
        st[HASH] ^= ZOBRIST[z | a] ^ ZOBRIST[z | b]

    def make_null(self):
        """Pass the move (null-move pruning): side, en passant and hash change, nothing moves."""
        st = self.st
        ply = st[PLY]
        at = ply * UNDO
        undo = self.undo
        undo[at + U_MOVE] = 0
        undo[at + U_STATE] = st[CASTLING] | (st[EP] + 1) << 4 | st[HALF] << 12
        h = st[HASH]
        undo[at + U_HASH] = h
        h ^= ZOBRIST_SIDE
        if st[EP] >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (st[EP] & 7)]
        st[EP] = -1
        st[HALF] = 0     # no repetition reaches back across a pass
        st[TURN] ^= 1
        st[HASH] = h
        ply += 1
        st[PLY] = ply
        self.keys[ply] = h

    def unmake_null(self):
        st = self.st
        ply = st[PLY] - 1
        st[PLY] = ply
        st[TURN] ^= 1
        at = ply * UNDO
        state = self.undo[at + U_STATE]
        st[EP] = ((state >> 4) & 255) - 1
        st[HALF] = state >> 12
        st[HASH] = self.undo[at + U_HASH]

    def unmake(self):
        """Take back the last move made: unmake_move."""
        if unmake_move(self.board, self.st, self.undo):
            self.uncastle()

    def uncastle(self):
        """unmake's end for a Chess960 castling, when unmake_move returned 1: the pieces back."""
        st = self.st
        move = self.undo[st[PLY] * UNDO + U_MOVE]
        us = st[TURN]
        ksq = move & 127
        rsq = (move >> 7) & 127
        self._unmove_castle(self.board, ksq, rsq, us)
        st[KINGS + us] = ksq
        st[ROOK_FILES + (us << 3) + (self._rook_to(ksq, rsq) & 7)] -= 1
        st[ROOK_FILES + (us << 3) + (rsq & 7)] += 1
