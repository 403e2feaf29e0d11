"""What each legal move does to the board's occupancy, as the reed switches see it.

A presence-only board cannot see pieces, only which squares hold one. Each
legal move therefore has a *signature*: the squares whose occupancy it
changes (rules/occupancy.py). ``MoveTable`` groups the legal moves of
one position by signature, once per committed move, so each presence change
is matched with a dictionary lookup.

A signature is packed into one small int: the changed squares, sorted, six
bits each, after a count (at most four squares: 4 + 24 bits < 2**30;
rules/occupancy.py's ``pack`` and ``signature``).
"""

from ..rules.occupancy import capture_square, changed_squares, pack, signature  # noqa: F401  (re-exported)


class MoveTable:
    """The legal moves of one position, indexed by signature.

    A signature maps to its move, or to a list when several moves share it
    (promotions, captures by one piece): most have one, and a bare int costs
    no heap on the Pico.
    """

    def __init__(self, pos, moves=None):
        """``moves``: the legal moves of ``pos``, if the caller has them."""
        self.moves = pos.legal_moves() if moves is None else moves
        self.by_signature = by = {}
        self.captured = captured = {}     # move -> square of the captured piece (captures only)
        for m in self.moves:                # (locals: this runs in the step that commits a move)
            key = signature(pos, m)
            same = by.get(key)
            if same is None:
                by[key] = m
            elif isinstance(same, int):
                by[key] = [same, m]
            else:
                same.append(m)
            if key < 128 or key >> 18 == 3:    # one square changes (a capture, a drop) or three (en passant)
                c = capture_square(pos, m)
                if c >= 0:
                    captured[m] = c

    def matching(self, signature):
        same = self.by_signature.get(signature, ())
        return (same,) if isinstance(same, int) else same
