"""Can the check in a FEN have come from a last move? Asked once, when a FEN is loaded.

A FEN may put the side to move in check only as one legal move could have
done it. The rules are python-chess's ``Board.status()`` (IMPOSSIBLE_CHECK and
TOO_MANY_CHECKERS), so the board refuses exactly the FENs python-chess calls
invalid:

- at most two pieces give check (a move gives one check and uncovers at most one);
- two checkers never stand on one line with the king: the first of them to
  arrive would have been blocked by, or have captured, the other;
- after a two-square pawn move (the FEN's en passant square) only that pawn
  checks, or a piece the pawn uncovered on leaving its square.

Like python-chess these are basic checks, not a proof that the position can be
reached (two knights giving check together are still accepted).
notation.set_fen imports this module only when the side to move is in check.
"""

from .squares import KNIGHT, BISHOP, ROOK, QUEEN, PAWN, WHITE

_LINES = (16, -16, 1, -1, 15, 17, -15, -17)
_KNIGHT_STEPS = (33, 31, 18, 14, -33, -31, -18, -14)


def checkers(board, sq, by):
    """0x88 squares of the pieces of side ``by`` that attack square ``sq``.

    The king is left out: a king next to the other never passes the FEN's
    opposite-check test.
    """
    found = []
    c = by << 3
    pawn = PAWN | c
    for d in ((-15, -17) if by == WHITE else (15, 17)):
        s = sq + d
        if not s & 0x88 and board[s] == pawn:
            found.append(s)
    for d in _KNIGHT_STEPS:
        s = sq + d
        if not s & 0x88 and board[s] == KNIGHT | c:
            found.append(s)
    for i in range(8):
        d = _LINES[i]
        slider = ROOK | c if i < 4 else BISHOP | c
        s = sq + d
        while not s & 0x88:
            x = board[s]
            if x:
                if x == slider or x == QUEEN | c:
                    found.append(s)
                break
            s += d
    return found


def _on_one_line(a, b, c):
    """Do 0x88 squares a, b and c lie on one rank, file or diagonal?"""
    dr, df = (b >> 4) - (a >> 4), (b & 7) - (a & 7)
    if not (dr == 0 or df == 0 or dr == df or dr == -df):
        return False
    return dr * ((c & 7) - (a & 7)) == df * ((c >> 4) - (a >> 4))


def impossible_check(pos, ep_sq):
    """Why no last move can have given the side to move its check, or None if one can.

    ``ep_sq`` is the FEN's en passant square (0x88, -1 if none), already checked
    to stand behind a pawn that has just moved two squares.
    """
    us = pos.turn
    king = pos.kings[us]
    board = pos.board
    found = checkers(board, king, us ^ 1)
    if len(found) > 2:
        return "FEN: the side to move is in check from %d pieces (a move gives at most 2)" % len(found)
    if ep_sq >= 0:
        step = -16 if us == WHITE else 16
        pushed_to, pushed_from = ep_sq + step, ep_sq - step
        if len(found) > 1:
            return "FEN: a double check cannot follow the two-square pawn move the en passant square shows"
        if found[0] != pushed_to:
            # With the pawn back on its square, the king must be out of check.
            pawn = board[pushed_to]
            board[pushed_to] = 0
            board[pushed_from] = PAWN | us << 3      # a blocker that attacks nothing of ours
            before = pos._attacked(king, us ^ 1)
            board[pushed_from] = 0
            board[pushed_to] = pawn
            if before:
                return "FEN: the check cannot come from the two-square pawn move the en passant square shows"
    elif len(found) == 2 and _on_one_line(found[0], found[1], king):
        return "FEN: two pieces give check along one line, which no move can do"
    return None
