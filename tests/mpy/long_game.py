"""A move that keeps a long, reproducible game going, for the heap scripts (MicroPython and CPython).

Choosing any move that does not end the game at once is not enough: a random
game trades its pawns and pieces early, and in an ending with no pawn move or
capture left the 75-move rule (FIDE 9.6.2) ends the game whatever is played
(the earlier scripts stopped at ply 573 and 608, at 8/8/8/5K2/8/8/1k6/3Q4 w - - 149).
So quiet piece moves come first, and a pawn move or a capture is played only
when the halfmove clock nears 150: the pawns and the material last for
thousands of plies.
"""

_PAWN = 1
_QUEEN = 5
_LATE = 140            # halfmove clock from which a pawn move or a capture is wanted


def choose(pos, seed):
    """A legal move (queen promotions only) after which the game goes on; SystemExit if none."""
    moves = pos.legal_moves()
    n = len(moves)
    start = seed % n
    board = pos.board
    late = pos.halfmove >= _LATE
    for strict in (True, False):
        for i in range(n):
            m = moves[(start + i) % n]
            if (m >> 14) & 7 not in (0, _QUEEN):
                continue
            resets = board[m & 127] & 7 == _PAWN or board[(m >> 7) & 127] != 0
            if strict and resets != late:
                continue
            pos.push(m)
            over = pos.outcome() is not None
            pos.pop()
            if not over:
                return m
    raise SystemExit("no move keeps the game going at ply %d" % pos.ply())
