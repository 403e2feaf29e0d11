"""What a move does to the board's occupancy: which squares it empties or fills.

A presence-only board (reed switches) sees only this. A quiet move changes
its origin and destination, a capture only its origin (the target stays
occupied), en passant three squares, castling four, a drop one. Squares here
are 0..63; the 0x88 board stays inside rules/.
"""

from .. import micropython, ptr8
from .squares import DROP, KING, PAWN


@micropython.viper
def fill_occupancy(board, out):
    """``out`` (64 bytes) set to 1 where the 0x88 ``board`` (a position's, 128 bytes) has a
    piece, 0 elsewhere (a1 = 0): the tracker's two views, each move, in the step that commits it
    (machine code on the Pico, scacchiera/__init__.py). Indexes: board at sq + (sq & 0x38) < 128
    and out at sq < 64, for sq in 0..63."""
    b = ptr8(board)
    o = ptr8(out)
    sq = 0
    while sq < 64:
        o[sq] = 1 if b[sq + (sq & 0x38)] else 0
        sq += 1


def changed_squares(pos, move):
    """The squares (0..63, sorted) whose occupancy ``move`` changes in ``pos``."""
    to88 = (move >> 7) & 127
    to = (to88 + (to88 & 7)) >> 1
    if move & DROP:
        return [to]
    fr88 = move & 127
    fr = (fr88 + (fr88 & 7)) >> 1
    board = pos.board
    piece = board[fr88]
    t = piece & 7
    if move >> 14 & 7 == KING:           # Chess960's castling, king takes rook
        from .chess960 import castle_changes
        squares = castle_changes(fr, to)
    elif t == KING and (to - fr == 2 or fr - to == 2):
        rook_from, rook_to = (fr + 3, fr + 1) if to > fr else (fr - 4, fr - 1)
        squares = [fr, to, rook_from, rook_to]
    elif board[to88]:
        squares = [fr]
    elif t == PAWN and to88 == pos.ep:
        squares = [fr, to, to - 8 if piece >> 3 == 0 else to + 8]
    else:
        squares = [fr, to]
    squares.sort()
    return squares


def pack(squares):
    """One small int for a sorted list of squares (0..63): the count, then each square in
    6 bits (at most four: 4 + 24 bits < 2**30); -1 if more than four."""
    n = len(squares)
    if n > 4:
        return -1
    key = n
    for sq in squares:
        key = key << 6 | sq
    return key


def signature(pos, move):
    """``pack(changed_squares(pos, move))``, with no list for a quiet move or a capture
    (most moves: the tables of every position the game reaches are built from these)."""
    if not move & DROP and move >> 14 & 7 != KING:       # not a drop, not Chess960's castling
        fr88 = move & 127
        to88 = (move >> 7) & 127
        fr = (fr88 + (fr88 & 7)) >> 1
        if pos.board[to88]:                          # (pos.board twice, not a local: 11 words, runner.step)
            return 1 << 6 | fr                       # a capture: only the origin empties
        t = pos.board[fr88] & 7
        if t != KING and not (t == PAWN and to88 == pos.ep):
            to = (to88 + (to88 & 7)) >> 1
            return (2 << 12 | fr << 6 | to) if fr < to else (2 << 12 | to << 6 | fr)
    return pack(changed_squares(pos, move))


def capture_square(pos, move):
    """Square (0..63) of the piece ``move`` captures, or -1."""
    if move & DROP or move >> 14 & 7 == KING:           # a drop, Chess960's castling (its rook is its own)
        return -1
    to88 = (move >> 7) & 127
    to = (to88 + (to88 & 7)) >> 1
    if pos.board[to88]:
        return to
    piece = pos.board[move & 127]
    if piece & 7 == PAWN and to88 == pos.ep:
        return to - 8 if piece >> 3 == 0 else to + 8
    return -1
