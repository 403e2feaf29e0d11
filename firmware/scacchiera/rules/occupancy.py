"""What a move does to the board's occupancy: which squares it empties or fills.

A presence-only board (reed switches) sees only this. A quiet move changes
its origin and destination, a capture only its origin (the target stays
occupied), en passant three squares, castling four, a drop one. Squares here
are 0..63; the 0x88 board stays inside rules/.
"""

from .squares import DROP, KING, PAWN


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
    if t == KING and (to - fr == 2 or fr - to == 2):
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


def capture_square(pos, move):
    """Square (0..63) of the piece ``move`` captures, or -1."""
    if move & DROP:
        return -1
    to88 = (move >> 7) & 127
    to = (to88 + (to88 & 7)) >> 1
    if pos.board[to88]:
        return to
    piece = pos.board[move & 127]
    if piece & 7 == PAWN and to88 == pos.ep:
        return to - 8 if piece >> 3 == 0 else to + 8
    return -1
