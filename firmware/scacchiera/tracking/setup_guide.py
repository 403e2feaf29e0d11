"""Chess960's set-up, guided by the LEDs one kind of piece at a time.

The switches sense presence, not pieces: every Chess960 start position fills the same 32 squares
as chess's, so a board set up for chess looks "in sync" with any of them. The board therefore
chooses the position and guides the hands through it in steps it can check: first the two back
ranks cleared (the pawns stay), then the kings' squares lit to fill, then the queens', rooks',
bishops' and knights'. A piece put on a square of the step (and no other) is taken to be the piece
the step names; the LEDs, the display and the ``out_of_sync`` event (``guide``) say which.

Loaded only for a Chess960 start whose back rank is not chess's (the tracker asks ``steps``).
"""

from ..rules.squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING

# The steps' piece types, in order (0: the back ranks cleared).
ORDER = (0, KING, QUEEN, ROOK, BISHOP, KNIGHT)
_CHESS = (ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK)


def steps(pos):
    """[(piece type, occupancy)] for ``pos``, the last being the position's own occupancy; or
    None when no guide is needed: moves played, not the 32 pieces of a start, or chess's own
    back rank (set up as for chess)."""
    if pos.ply():
        return None
    back = [pos.piece_at(sq) & 7 for sq in range(8)]
    if tuple(back) == _CHESS or 0 in back:
        return None
    for sq in range(64):
        rank = sq >> 3
        want = PAWN if rank == 1 or rank == 6 else (back[sq & 7] if rank == 0 or rank == 7 else 0)
        if want and rank > 5:
            want |= 8                    # black's
        if pos.piece_at(sq) != want:
            return None
    out = []
    occupancy = bytearray(64)
    for sq in range(8, 56):
        occupancy[sq] = 1 if pos.piece_at(sq) else 0
    for kind in ORDER:
        for f in range(8):
            if back[f] == kind:
                occupancy[f] = occupancy[56 + f] = 1
        out.append((kind, bytes(occupancy)))
    return out
