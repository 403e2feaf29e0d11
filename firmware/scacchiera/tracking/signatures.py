"""What each legal move does to the board's occupancy, as the reed switches see it.

A presence-only board cannot see pieces, only which squares hold one. Each
legal move therefore has a *signature*: the squares whose occupancy it
changes (emptied or filled). A quiet move changes its origin and
destination, a capture only its origin (the target stays occupied), en
passant three squares, castling four. ``MoveTable`` groups the legal moves of
one position by signature, once per committed move, so each presence change
is matched with a dictionary lookup.

A signature is packed into one small int: the changed squares, sorted, six
bits each, after a count (at most four squares: 4 + 24 bits < 2**30).
"""

from ..rules.squares import DROP, KING, PAWN


def pack(squares):
    """Signature of a sorted list of squares (0..63); -1 if more than four."""
    n = len(squares)
    if n > 4:
        return -1
    key = n
    for sq in squares:
        key = key << 6 | sq
    return key


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


class MoveTable:
    """The legal moves of one position, indexed by signature.

    A signature maps to its move, or to a list when several moves share it
    (promotions, captures by one piece): most have one, and a bare int costs
    no heap on the Pico.
    """

    def __init__(self, pos):
        self.moves = pos.legal_moves()
        self.by_signature = {}
        self.captured = {}     # move -> square of the captured piece (captures only)
        for m in self.moves:
            key = pack(changed_squares(pos, m))
            same = self.by_signature.get(key)
            if same is None:
                self.by_signature[key] = m
            elif isinstance(same, int):
                self.by_signature[key] = [same, m]
            else:
                same.append(m)
            c = capture_square(pos, m)
            if c >= 0:
                self.captured[m] = c

    def matching(self, signature):
        same = self.by_signature.get(signature, ())
        return (same,) if isinstance(same, int) else same
