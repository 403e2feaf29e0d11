"""The LED frame: which squares are lit and with what *meaning*, from the game's state alone.

Colours and blinking are the palette's business; a frame is 64 small ints,
one meaning per square (0: dark), so the firmware, the simulator and the
tests all read the same thing. Their documented names (the simulator's JSON
and the serial protocol use them) are in leds/names.py.
"""

from ..rules.squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DROP, const, from_square, to_square, promotion
from ..rules.occupancy import changed_squares
from ..tracking import tracker as tr

NONE = const(0)
LAST_MOVE = const(1)       # the last move's from and to, dim
CHECK = const(2)           # the king in check
CLAIM = const(3)           # the side to move may claim a draw (on its king)
LIFTED = const(4)          # a piece in the hand: its square
LEGAL = const(5)           # where the lifted piece may go
LEGAL_CAPTURE = const(6)   # ...taking a piece
SHOW_FROM = const(7)       # a move to execute: the piece to take from here
SHOW_TO = const(8)         # ...and put here
ERROR = const(9)           # a piece on a wrong square (blinks)
FIX = const(10)            # where a misplaced piece belongs
TO_EMPTY = const(11)       # out of sync: clear this square
TO_FILL = const(12)        # out of sync: put a piece here
PROMOTE_QUEEN = const(13)  # the promotion the board will play
PROMOTE_KNIGHT = const(14)
PROMOTE_ROOK = const(15)
PROMOTE_BISHOP = const(16)
WINNER = const(17)         # game over: the winner's king
LOSER = const(18)          # ...the loser's king
DRAW = const(19)           # ...both kings of a drawn game
DROP_TARGET = const(20)    # Scacchi Sprint: where the tile just drawn may be placed
DROP_PAWN = const(21)      # Scacchi Sprint: the tile a placement will be (tap to change)
DROP_KNIGHT = const(22)
DROP_BISHOP = const(23)
DROP_ROOK = const(24)
DROP_QUEEN = const(25)
TIME_LOW = const(26)       # the running clock's last 10 s: its player's king (pulses)
OFFER = const(27)          # a draw offered: the offering player's king (the draw gesture accepts)
AWAY = const(28)           # the side to move has left the board: the waiting player's king may end it
SUGGEST_FROM = const(29)   # a hint (the engine's or the host's): the piece to move
SUGGEST_TO = const(30)     # ...and where (not enforced: any legal move is still taken)
ASKED = const(31)          # a square a DGT or ChessLink program asked to light (link/dgt.py, link/chesslink.py)

COUNT = const(32)          # meanings, NONE included: leds/names.py names each one

_PROMOTE = {QUEEN: PROMOTE_QUEEN, KNIGHT: PROMOTE_KNIGHT, ROOK: PROMOTE_ROOK, BISHOP: PROMOTE_BISHOP}
_DROP = {PAWN: DROP_PAWN, KNIGHT: DROP_KNIGHT, BISHOP: DROP_BISHOP, ROOK: DROP_ROOK, QUEEN: DROP_QUEEN}


def _mark(frame, move, at_from, at_to):
    """Light a move's squares. A placement has only its square: its origin bits are 0, not a1."""
    if not move & DROP:
        frame[from_square(move)] = at_from
    frame[_landing(move)] = at_to


def _landing(move):
    """The square (0..63) the moving piece lands on: a Chess960 castling is written king takes
    rook, and its king lands beside (tracking/chess960.py)."""
    if promotion(move) != KING:
        return to_square(move)
    from ..rules.chess960 import king_to
    return king_to(from_square(move), to_square(move))


# What a program's lit square may cover: quiet guidance only. The board's own words (a lifted piece and
# where it may go, a move to make, check, an error, out of sync) stay on top.
_UNDER_ASKED = (NONE, LAST_MOVE, SUGGEST_FROM, SUGGEST_TO, DROP_TARGET)


def compose(game, frame, asked=None):
    """Fill ``frame`` (64 bytes) with the meaning of each square now. ``asked``: 64 bytes, non-zero
    where a program on the USB link asked for light (None: none asked)."""
    for i in range(64):
        frame[i] = NONE
    pos = game.position
    v = game.tracker.view
    state = v.state()
    if state == tr.OUT_OF_SYNC:
        switches = v.switches()
        for sq in v.differences():
            frame[sq] = TO_EMPTY if switches[sq] else TO_FILL
        return frame
    last = game.last_move()
    if last >= 0:
        _mark(frame, last, LAST_MOVE, LAST_MOVE)
    king = pos.king_square(pos.turn)
    if game.result is not None:
        _game_over(game, frame)
    elif pos.is_check():
        frame[king] = CHECK
    elif game.claimable:
        frame[king] = CLAIM
    if game.result is None:
        if game.offer >= 0:
            frame[pos.king_square(game.offer)] = OFFER
        if game.away:
            frame[pos.king_square(pos.turn ^ 1)] = AWAY
        clocks = game.clocks
        if clocks.low and clocks.running:
            frame[pos.king_square(clocks.running - 1)] = TIME_LOW
    req = v.required()
    if req >= 0 and state == tr.IDLE:
        _mark(frame, req, SHOW_FROM, _DROP[(req >> 14) & 7] if req & DROP else SHOW_TO)
    elif state == tr.IDLE and game.suggestion >= 0 and game.options.suggest:
        _mark(frame, game.suggestion, SUGGEST_FROM, SUGGEST_TO)
    if state == tr.IDLE and game.options.hints and game.result is None:
        _drop_targets(game, frame)
    if state == tr.LIFTED:
        _lifted(game, frame)
    elif state == tr.PENDING:
        chosen = v.choice()
        if chosen >= 0:
            kinds = _DROP if chosen & DROP else _PROMOTE
            frame[to_square(chosen)] = kinds[(chosen >> 14) & 7]
    elif state == tr.ERROR:
        switches = v.switches()
        for sq in v.differences():
            frame[sq] = ERROR if switches[sq] else FIX
    if asked is not None:
        for sq in range(64):
            if asked[sq] and frame[sq] in _UNDER_ASKED:
                frame[sq] = ASKED
    return frame


def _lifted(game, frame):
    """Pieces in the hand: their squares, where they may go (with hints), what a half-done move still needs."""
    v = game.tracker.view
    pos = game.position
    diff = v.differences()
    switches = v.switches()
    progress = v.in_progress()
    if progress >= 0 and len(diff) > 1:
        in_game = v.game_occupancy()
        for sq in changed_squares(pos, progress):
            if sq not in diff:
                frame[sq] = SHOW_FROM if in_game[sq] else SHOW_TO
    # Where a lifted piece may go: only while nothing has been put down yet.
    hints = game.options.hints and not any(switches[sq] for sq in diff)
    moves = v.legal_moves()
    captures = v.captures()
    for sq in diff:
        if switches[sq]:
            continue
        frame[sq] = LIFTED
        if not hints:
            continue
        piece = pos.piece_at(sq)
        if not piece or piece >> 3 != pos.turn:
            continue
        sq88 = sq + (sq & 0x38)         # ``sq`` on the 0x88 board
        origin = DROP | 127             # a move's origin there, and the drop bit: a drop has no origin
        for m in moves:
            if m & origin == sq88:
                to = _landing(m)
                if frame[to] in (NONE, LAST_MOVE):
                    frame[to] = LEGAL_CAPTURE if m in captures else LEGAL


def _drop_targets(game, frame):
    """Scacchi Sprint, with visual assistance: where the tile just drawn may go."""
    pos = game.position
    drawn = pos.drawn_tile()
    if not drawn:
        return
    for m in game.tracker.view.legal_moves():
        if m & DROP and (m >> 14) & 7 == drawn:
            to = to_square(m)
            if frame[to] == NONE:
                frame[to] = DROP_TARGET


def _game_over(game, frame):
    pos = game.position
    w = pos.king_square(0)
    b = pos.king_square(1)
    result = game.result[0]
    if result == "1-0":
        frame[w], frame[b] = WINNER, LOSER
    elif result == "0-1":
        frame[w], frame[b] = LOSER, WINNER
    else:
        frame[w] = frame[b] = DRAW

