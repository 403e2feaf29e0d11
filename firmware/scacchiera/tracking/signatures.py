"""What each legal move does to the board's occupancy, as the reed switches see it.

A presence-only board cannot see pieces, only which squares hold one. Each
legal move therefore has a *signature*: the squares whose occupancy it
changes (rules/occupancy.py). ``MoveTable`` groups the legal moves of
one position by signature, once per committed move, so each presence change
is matched with a dictionary lookup.

A signature is packed into one small int: the changed squares, sorted, six
bits each, after a count (at most four squares: 4 + 24 bits < 2**30).
"""

from ..rules.occupancy import changed_squares, capture_square


def pack(squares):
    """Signature of a sorted list of squares (0..63); -1 if more than four."""
    n = len(squares)
    if n > 4:
        return -1
    key = n
    for sq in squares:
        key = key << 6 | sq
    return key


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
