"""How the hands castle in Chess960, as the reed switches see it (loaded only in a Chess960 game).

A Chess960 castling (rules/chess960.py) is written king takes rook; it may change four squares'
occupancy, two, or none: the king may land on its rook's square, a king or a rook may already
stand where it goes. The tracker asks this module three things:

- ``castle_landed``: may the log since the turn began be this castling? A castling whose king
  square is refilled by its rook (king f1, rook h1: only g1 and h1 change) leaves the occupancy of
  a rook move (Rh1-g1); it is the castling only if the king was lifted, and then it wins.
- ``castle_in_progress``: are the changes so far part of this castling, in any order (the king
  first, as FIDE recommends, the rook first, the king put down on its square before the rook
  leaves it)? Squares a piece leaves may be empty, squares one lands on may be filled.
- ``swap``: the castlings that change no square (king f1 and rook g1 become king g1 and rook f1)
  are made by lifting the king and the rook together and putting them down; the same gesture
  just after such a castling takes it back.
"""

from ..rules.squares import KING, from_square, to_square, promotion
from ..rules.chess960 import castle_targets
from .tracker import MOVE, TAKEBACK


def is_castle(move):
    """KING in a move's promotion bits: a castling, written king takes rook (rules/chess960.py)."""
    return promotion(move) == KING


def targets(move):
    """(king, rook, king's destination, rook's destination): squares 0..63 of a castling."""
    king = from_square(move)
    rook = to_square(move)
    kto, rto = castle_targets(king, rook)
    return king, rook, kto, rto


def castle_landed(tracker, move, since):
    """The log's rank for this castling when it may be what the hands did since ``since``, else -1:
    its king lifted (unless the king stays), and then ahead of any other move of the same occupancy."""
    king, rook, kto, rto = targets(move)
    if king != kto and tracker.emptied[king] <= since:
        return -1
    return tracker.seq + 1


def castle_in_progress(tracker, diff, other=-1):
    """A castling (not ``other``) that the changes ``diff`` are part of, in whatever order, or -1."""
    required = tracker.required
    for move in tracker.table.moves:
        if is_castle(move) and move != other and (required < 0 or move == required) \
                and _begun(tracker, move, diff):
            return move
    return -1


def _begun(tracker, move, diff):
    """Are the changes ``diff`` the castling ``move`` begun?"""
    king, rook, kto, rto = targets(move)
    physical = tracker.physical
    if king not in diff and rook not in diff:
        return False
    for sq in diff:
        if physical[sq]:
            if sq != kto and sq != rto:
                return False
        elif sq != king and sq != rook:
            return False
    return True


def swap(tracker):
    """(MOVE, the castling) for a castling that changes no square, made by the hands since the turn
    began (the tracker's ``base_seq``); (TAKEBACK, 0) for the same gesture just after one; else None."""
    since = tracker.base_seq
    if not tracker.enabled or tracker.hold:
        return None
    for move in tracker.table.matching(0):
        if is_castle(move) and (tracker.required < 0 or move == tracker.required) \
                and _together(tracker, from_square(move), to_square(move), since):
            return MOVE, move
    pos = tracker.pos
    if tracker.takeback_enabled and pos.ply():
        last = pos.peek()
        if is_castle(last) and _swaps(last) and _together(tracker, from_square(last), to_square(last), since):
            return TAKEBACK, 0
    return None


def _swaps(move):
    """Does the castling ``move`` swap its king and rook (so no square's occupancy changes)?"""
    king, rook, kto, rto = targets(move)
    return kto == rook and rto == king


def _together(tracker, a, b, since):
    """Were squares ``a`` and ``b`` both lifted since ``since``, empty at one moment, and both filled again?"""
    emptied = tracker.emptied
    filled = tracker.filled
    return emptied[a] > since and emptied[b] > since and filled[a] > emptied[a] and filled[b] > emptied[b] \
        and emptied[a] < filled[b] and emptied[b] < filled[a]
