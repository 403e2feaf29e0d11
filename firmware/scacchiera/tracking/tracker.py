"""The move tracker: which move, if any, the hands on the board have just made.

It keeps two views of the board, the *logical* occupancy (the game's
position) and the *physical* one (the debounced reed switches), and, as
per-square sequence numbers, when each square was last emptied and filled.
The moment of the last commit, when the two views agreed, is ``base_seq``.
From those it decides:

- a **move** when the physical occupancy is exactly what one legal move
  leaves (its signature, see signatures.py) and the log agrees: a captured
  piece's square must have been emptied at some point, for with the mover
  still in the hand "origin empty" looks exactly like a finished capture.
  The move is committed once the board has been still for ``settle_ms``, or
  at once when the other side starts its own move: what the hands did after
  the match then belongs to the reply, so a quick reply is never lost.
- a **takeback** when the occupancy returns to the previous position's (a
  legal reply always empties its origin, so this is never a reply).
- an **amendment** when the side that has just moved goes on moving (a rook
  that settled before its king came to castle, a slide that paused): the
  last move is replaced by the move the whole sequence makes.
- a **move in progress** when what has changed so far is part of a legal
  move: a lifted piece, a captured piece taken off first, a king that has
  castled while its rook waits, a pawn that took en passant before its
  victim left the board.
- an **error** when a piece stands on a square no move in progress explains
  and the board has been still for ``settle_ms``: the LEDs show it with its fix.

When one occupancy stands for several moves that differ only in the piece
(a promotion, or in Scacchi Sprint a tile placed that could be of several
types), the board plays its current *choice* and shows it; tapping the piece
cycles the choice, the host can set it too.

It also recognises the board gestures (docs/gestures.md): a *tap* is a piece
lifted and put back on its own square; both kings off the board together is
the draw gesture.
"""

from .. import elapsed
from ..rules.squares import PAWN, QUEEN, KNIGHT, ROOK, BISHOP, KING, DROP, const, from_square, to_square, promotion
from ..rules.variants import variant_of, SPRINT
from ..rules.occupancy import changed_squares, fill_occupancy
from ..sensing.debounce import DEFAULT_DELAY_MS
from .signatures import MoveTable, pack

# What the tracker asks of the game (the ``notify(kind, value, now)`` callback).
MOVE = const(1)          # value: the move to commit
TAKEBACK = const(2)      # take the last move back
AMEND = const(3)         # value: the move that replaces the last one
TAP = const(4)           # value: the square whose piece was lifted and put back
KINGS_OFF = const(5)     # both kings off the board together (the draw gesture)
IN_SYNC = const(6)       # the board matches the game again
SETUP_STEP = const(7)    # value: a set-up guide's next step (setup_guide.py): its piece type, 0 to clear

# The board's state, for the LED frame.
IDLE = const(0)          # physical == logical
LIFTED = const(1)        # pieces in the hand: a move in progress, or not yet judged
PENDING = const(2)       # a move recognised, settling
ERROR = const(3)         # a piece on a wrong square, still for settle_ms
OUT_OF_SYNC = const(4)   # no moves recognised until the board matches the game
# The states' names, by number, as the serial protocol and the simulator write them.
STATE_NAMES = ("idle", "lifted", "pending", "error", "sync")

PROMOTION_CYCLE = (QUEEN, KNIGHT, ROOK, BISHOP)
DROP_CYCLE = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN)   # after the tile just drawn, which comes first

DEFAULT_SETTLE_MS = 250
# A move that is also the start of another (a rook move that may begin a
# castling) settles more slowly, so the king has time to follow.
_DEFAULT_PREFIX_SETTLE_MS = const(1200)
# A move with a choice of piece (a promotion, an ambiguous drop) waits this
# long for taps that choose another piece.
_DEFAULT_PROMOTION_MS = const(1500)
_TAP_MS = const(900)     # the longest lift that still counts as a tap
_KINGS_OFF_MS = const(1000)  # both kings off this long: the draw gesture

_SQUARES_MASK = const(0x3FFF)  # a move's from and to bits
_GROUP_MASK = const(0x23FFF)   # ...and the drop flag: moves that differ only in the piece


class Tracker:
    held_ms = DEFAULT_DELAY_MS    # how long a change had held when the debounce reported it

    def __init__(self, pos, notify, settle_ms=DEFAULT_SETTLE_MS,
                 prefix_settle_ms=_DEFAULT_PREFIX_SETTLE_MS, promotion_ms=_DEFAULT_PROMOTION_MS):
        self.pos = pos
        self.notify = notify
        self.settle_ms = settle_ms
        self.prefix_settle_ms = prefix_settle_ms
        self.promotion_ms = promotion_ms
        self.takeback_enabled = True
        self.enabled = True          # False once the game is over (freeze): no more moves
        self.required = -1           # a move the board asks for (an engine's): only it is accepted
        self.hold = False            # the side to move is an engine's or the host's, not yet shown: no move
        self.physical = bytearray(64)
        self.logical = bytearray(64)
        self.previous = bytearray(64)  # logical occupancy before the last move
        self.seq = 0
        self.emptied = [0] * 64      # seq of each square's last emptying
        self.filled = [0] * 64       # seq of each square's last filling
        self.base_seq = 0            # the views agreed here: the current turn's log is after it
        self.prev_base_seq = 0       # ...and the last move's turn's log after this
        self.last_event_ms = 0
        self.diff = []               # squares where physical != logical
        self.state = IDLE
        self.misplaced = False       # a piece stands where no move in progress explains it
        self.pending = -1            # the move (or takeback/amendment) now shown by the board
        self.pending_kind = 0
        self.pending_prefix = False
        self.matched = -1            # the last move (or amendment) the board showed, and when
        self.matched_kind = MOVE
        self.matched_seq = 0
        self.matched_ms = 0          # ...the time of the change that completed it (the clocks stop there;
                                     # kept after the commit, for the game to read)
        self.choices = ()            # piece types the matched move may have, in tap order
        self.choice_index = 0
        self.preferred = 0           # a piece type the host asked for in advance
        self.in_progress = -1        # a legal move the state is part of, or -1
        self.syncing = False
        self.guide = None            # a set-up's steps still to come (setup_guide.py), or None
        self.guide_piece = -1        # the piece type its current step places (0: clear the back ranks), -1: none
        self.lift_square = -1        # tap detection
        self.lift_ms = 0
        self.kings_off_ms = -1
        self.table = None
        self.view = TrackerView(self)
        self.adopt(pos)

    # -- the game tells the tracker -------------------------------------------
    # The game sets the tracker up only through these methods: the fields
    # are the tracker's own, so its invariants hold here.

    def configure(self, settle_ms, takeback):
        """The player's options: how long a move settles, whether takebacks are recognised."""
        self.settle_ms = settle_ms
        self.takeback_enabled = takeback

    def adopt(self, pos):
        """``pos`` is the game now (a new game, a restored one): moves allowed, nothing required."""
        self.pos = pos
        self.enabled = True
        self.required = -1
        self.guide = None
        self.guide_piece = -1
        if pos.variant == "chess960":
            from .setup_guide import steps
            self.guide = steps(pos)      # None: no guide needed
        self.new_position()

    def require(self, move):
        """Accept only ``move`` (an engine's, shown on the board) until it is played or forgotten:
        the hands may make it now (no longer ``hold``)."""
        self.required = move
        self.hold = False

    def forget_required(self):
        """Accept any legal move again."""
        self.required = -1

    def freeze(self, now):
        """The game is over: no more moves are recognised, nor a takeback (a result stands: the
        board asks for the last move's pieces back where they were).

        A move still settling (the host ended the game while the piece was landing) is dropped, not
        committed afterwards: the board then asks for the piece back, as for any move after the end.
        """
        self.enabled = False
        if self.pending >= 0 and self.pending_kind != TAKEBACK:
            self.matched = -1
            self._refresh(now)

    def resume(self):
        """The game goes on again (a move of a finished game was taken back)."""
        self.enabled = True

    def new_position(self, sync=False):
        """The game's position changed from outside (new game, set-up, undo from the host)."""
        self._load_logical()
        if self.guide:
            self._next_step()
        self.base_seq = self.prev_base_seq = self.seq
        self.syncing = sync or self.physical != self.logical
        self._refresh(0)

    def _next_step(self):
        """The set-up guide's next step: its occupancy is what the board asks for now."""
        self.guide_piece, occupancy = self.guide.pop(0)
        self.logical[:] = occupancy
        if not self.guide:
            self.guide = None            # the last step's occupancy is the position's own

    def moved(self, kind, moves=None):
        """The game has applied what ``notify`` asked (a MOVE, TAKEBACK or AMEND);
        ``moves``: the new position's legal moves, if the game has them."""
        if kind == MOVE:
            # The position before the move is the one the logical view showed: it becomes the previous.
            self.previous, self.logical = self.logical, self.previous
            self._load_logical(False, moves)
        elif kind == AMEND:
            self._load_logical(False, moves)   # the amended move left the same position as this one
        else:
            self._load_logical()
            self.base_seq = self.prev_base_seq = self.seq
        self._refresh(self.last_event_ms)

    def set_physical(self, occupancy, now=0):
        """Take a whole occupancy (64 bytes of 0/1) as the board's state, without events (boot)."""
        self.physical[:] = occupancy
        self.syncing = self.physical != self.logical
        self._refresh(now)

    def _load_logical(self, previous=True, moves=None):
        """The logical view from the game's position (and, if ``previous``, the one before its last move)."""
        pos = self.pos
        fill_occupancy(pos.board, self.logical)
        if previous and pos.ply():
            move = pos.pop()
            fill_occupancy(pos.board, self.previous)
            pos.push(move)
        elif previous:
            self.previous[:] = self.logical
        self.table = MoveTable(pos, moves)
        self.drops = variant_of(pos) == SPRINT      # tiles can arrive from the hand (Scacchi Sprint)
        self.chess960 = pos.variant == "chess960"    # castlings as tracking/chess960.py sees them
        self.pending = -1
        self.matched = -1
        self.choices = ()

    # -- presence changes and time ----------------------------------------------

    def change(self, square, present, now):
        """A debounced presence change on ``square`` (1: a piece arrived, 0: it left)."""
        if self.physical[square] == present:
            return
        self.physical[square] = present
        self.seq += 1
        if present:
            self.filled[square] = self.seq
        else:
            self.emptied[square] = self.seq
        self.last_event_ms = now
        self._gesture(square, present, now)
        if self._reply_begins(square, present):
            # The move the board showed last is played, now: what the hands
            # did after it belongs to the reply, judged in the new position.
            self._commit(self.matched_kind, self.matched, self.matched_seq, now)
            return
        self._refresh(now)

    def _reply_begins(self, square, present):
        """Does this change start the other side's reply to the move the board showed last?

        Yes for a lift of one of the replier's own pieces, and in Scacchi Sprint
        for a tile put on a square the move does not touch. Lifting the mover
        again is ambiguous (adjusting it, or the victim of a capture) and waits.
        """
        matched = self.matched
        if matched < 0 or self.syncing or square == to_square(matched):
            return False
        if present:
            return self.drops and self.matched_kind == MOVE and square not in changed_squares(self.pos, matched)
        piece = self.pos.piece_at(square)
        replier = self.pos.turn ^ 1 if self.matched_kind == MOVE else self.pos.turn
        return piece != 0 and piece >> 3 == replier

    def tick(self, now):
        """Time passes: commit what has settled, notice held gestures and errors."""
        if self.pending >= 0 and self.state == PENDING:
            wait = self.prefix_settle_ms if self.pending_prefix else self.settle_ms
            if self.pending_kind == MOVE and self.choices:
                wait = max(wait, self.promotion_ms)
            if elapsed(now, self.last_event_ms) + self.held_ms >= wait:   # the settle counts from the reed's edge
                self._commit(self.pending_kind, self.pending, self.seq, now)
                return
        if self.kings_off_ms >= 0 and elapsed(now, self.kings_off_ms) >= _KINGS_OFF_MS:
            self.kings_off_ms = -1
            self.notify(KINGS_OFF, 0, now)
        if self.state == LIFTED and self.misplaced and elapsed(now, self.last_event_ms) >= self.settle_ms:
            self.state = ERROR

    # -- judging the board ----------------------------------------------------------

    def _refresh(self, now):
        """Compare the views again and decide what the board shows."""
        phys = self.physical
        logi = self.logical
        self.diff = diff = [sq for sq in range(64) if phys[sq] != logi[sq]]
        self.pending = -1
        self.in_progress = -1
        self.misplaced = False
        if self.syncing:
            while not diff and self.guide:
                self._next_step()        # a step of the set-up done: the next one's squares
                self.diff = diff = [sq for sq in range(64) if phys[sq] != logi[sq]]
                self.notify(SETUP_STEP, self.guide_piece, now)
            if not diff:
                self.guide_piece = -1
                self.syncing = False
                self.base_seq = self.prev_base_seq = self.seq
                self.notify(IN_SYNC, 0, now)
        elif not diff:
            swapped = None
            if self.chess960:
                from .chess960 import swap
                swapped = swap(self)     # king and rook lifted together, put down swapped
            self.base_seq = self.seq     # all back in place: a fresh start of the turn
            if not (self.choices and self.lift_square == to_square(self.matched)):
                self.matched = -1        # (a placed tile lifted to be tapped keeps its choice)
            if swapped is not None:
                self._pend(*swapped)
        elif not self.enabled:
            self._check_takeback()
        else:
            move = -1 if self.hold else self._match(self.table, diff, self.base_seq)
            if move >= 0:
                if self.matched < 0 or (self.matched & _GROUP_MASK) != (move & _GROUP_MASK):
                    self._offer_choices(diff, move)
                self._pend(MOVE, move)
                self.pending_prefix = self._is_prefix(diff, move)
            elif not self._check_takeback() and not self._check_amend():
                self.in_progress = self._progress(diff)
                self.misplaced = self.in_progress < 0 and any(phys[sq] for sq in diff)
        self.kings_off_ms = self._kings_off(now)
        if self.syncing:
            self.state = OUT_OF_SYNC
        elif self.pending >= 0:
            self.state = PENDING
        elif not diff:
            self.state = IDLE
        else:
            self.state = LIFTED

    def _pend(self, kind, move):
        """Show what the hands did (a MOVE or an AMEND and its move, a TAKEBACK), to commit once the
        board settles; a move is also the one the board matched last (a reply then commits it)."""
        self.pending = move
        self.pending_kind = kind
        self.pending_prefix = False
        if kind != TAKEBACK:
            self.matched = move
            self.matched_kind = kind
            self.matched_seq = self.seq
            self.matched_ms = self.last_event_ms

    def _match(self, table, diff, since):
        """The legal move of ``table`` that the occupancy and the log since ``since`` show, or -1."""
        best = -1
        best_landed = -1
        for m in table.matching(pack(diff)):
            if self.required >= 0 and (m & _SQUARES_MASK) != (self.required & _SQUARES_MASK):
                continue
            captured = table.captured.get(m, -1)
            if captured >= 0 and self.emptied[captured] <= since:
                continue       # the captured piece never left: the mover may still be in the hand
            landed = self.filled[to_square(m)]
            if not m & (DROP | 7 << 14) and self.emptied[from_square(m)] > landed:
                continue       # a piece lands after it leaves: this one came from elsewhere
                               # (a promotion may bring its new piece first)
            if self.chess960 and promotion(m) == KING:      # a castling, king takes rook
                from .chess960 import castle_landed
                landed = castle_landed(self, m, since)
                if landed < 0:
                    continue
            # Two captures by one piece leave the same occupancy: the last square filled wins.
            if landed > best_landed:
                best, best_landed = m, landed
        return best

    def _offer_choices(self, diff, move):
        """The piece types ``move`` could have (promotion or drop), in the order taps cycle them."""
        types = [(m >> 14) & 7 for m in self.table.matching(pack(diff))
                 if (m & _GROUP_MASK) == (move & _GROUP_MASK)]
        self.choice_index = 0
        if len(types) < 2:
            self.choices = ()
            return
        if move & DROP:
            drawn = self.pos.drawn_tile()
            order = ((drawn,) if drawn else ()) + DROP_CYCLE
        else:
            order = PROMOTION_CYCLE
        choices = []
        for t in order:
            if t in types and t not in choices:
                choices.append(t)
        self.choices = tuple(choices)
        if self.preferred in self.choices:
            self.choice_index = self.choices.index(self.preferred)

    def _is_prefix(self, diff, move):
        """Is ``move``'s change also the first half of a castling (the rook moved first, or in
        Chess960 the king a square towards its castled square)?"""
        if self.chess960:
            from .chess960 import castle_in_progress
            return castle_in_progress(self, diff, move) >= 0
        for m in self.table.moves:
            fr, to = from_square(m), to_square(m)
            if m != move and (to - fr == 2 or fr - to == 2) and self.pos.piece_at(fr) & 7 == KING:
                squares = changed_squares(self.pos, m)
                if all(sq in squares for sq in diff):
                    return True
        return False

    def _progress(self, diff):
        """A legal move of which the changes so far are a part, or -1."""
        if self.hold:
            return -1                  # not the hands' move: a piece put down is an error
        if self.chess960:
            from .chess960 import castle_in_progress
            m = castle_in_progress(self, diff)
            if m >= 0:
                return m
        table = self.table
        for m in table.moves:
            if self.required >= 0 and (m & _SQUARES_MASK) != (self.required & _SQUARES_MASK):
                continue
            captured = table.captured.get(m, -1)
            # Started from the origin, or by taking off the piece to be captured (tested first:
            # a lift passes a few moves of the ~35 on to the changed squares' list).
            if from_square(m) not in diff and (len(diff) != 1 or diff[0] != captured):
                continue
            squares = changed_squares(self.pos, m)
            for sq in diff:
                if sq not in squares and not (sq == captured and not self.physical[sq]):
                    break
            else:
                return m
        return -1

    def _check_takeback(self):
        if self.enabled and self.takeback_enabled and self.pos.ply() and self.physical == self.previous:
            self._pend(TAKEBACK, 0)
            return True
        return False

    def _check_amend(self):
        """Is the side that just moved still moving: another move from the previous position?"""
        pos = self.pos
        if not pos.ply():
            return False
        # Once the other side has lifted one of its own pieces, the last move stands.
        for sq in self.diff:
            piece = pos.piece_at(sq)
            if piece and piece >> 3 == pos.turn:
                return False
        diff = [sq for sq in range(64) if self.physical[sq] != self.previous[sq]]
        if len(diff) > 4:
            return False
        last = pos.pop()
        try:
            move = self._match(MoveTable(pos), diff, self.prev_base_seq)
        finally:
            pos.push(last)
        if move < 0 or (move & _SQUARES_MASK) == (last & _SQUARES_MASK):
            return False
        self._pend(AMEND, move)
        return True

    def _kings_off(self, now):
        diff = self.diff
        if len(diff) != 2 or self.syncing:
            return -1
        pos = self.pos
        if pos.king_square(0) not in diff or pos.king_square(1) not in diff:
            return -1
        return self.kings_off_ms if self.kings_off_ms >= 0 else now

    # -- committing ---------------------------------------------------------------

    def _commit(self, kind, move, at_seq, now):
        if kind == MOVE and self.choices:
            move = (move & ~(7 << 14)) | self.choices[self.choice_index] << 14
        self.choices = ()
        self.choice_index = 0
        self.preferred = 0
        if kind != AMEND:   # an amended move keeps the turn it replaces
            self.prev_base_seq = self.base_seq
        self.base_seq = at_seq
        self.pending = -1
        self.matched = -1
        self.notify(kind, move, now)   # the game applies it, then calls moved()

    # -- what the game reads ----------------------------------------------------------

    def in_sync(self):
        return self.state != OUT_OF_SYNC

    def hands_at_work(self, now, quiet_ms):
        """Is the board not as the game says, with a reed changed (since boot) within ``quiet_ms``?
        A long stall of the loop then could bring two of the hands' changes at once, their order lost."""
        return bool(self.diff) and self.seq > 0 and elapsed(now, self.last_event_ms) < quiet_ms

    def physical_is(self, occupancy):
        """Do the switches show exactly ``occupancy`` (64 bytes of 0/1)?"""
        return self.physical == occupancy

    def mismatch(self):
        """(to_empty, to_fill): squares (0..63) the hands must clear or fill to match the game."""
        phys = self.physical
        return [sq for sq in self.diff if phys[sq]], [sq for sq in self.diff if not phys[sq]]

    # -- the choice of piece --------------------------------------------------------

    def chosen_type(self):
        """The piece type a move with a choice will have (its promotion, or its tile)."""
        return self.choices[self.choice_index]

    def choose(self, piece_type):
        """The host's choice for the move being made, or the next one that has a choice."""
        self.preferred = piece_type
        if piece_type in self.choices:
            self.choice_index = self.choices.index(piece_type)

    # -- gestures -------------------------------------------------------------------

    def _gesture(self, square, present, now):
        if not present:
            self.lift_square = square
            self.lift_ms = now
            return
        if square != self.lift_square or elapsed(now, self.lift_ms) > _TAP_MS:
            self.lift_square = -1        # another piece put down first: no tap
            return
        self.lift_square = -1
        matched = self.matched
        if matched >= 0 and self.choices and to_square(matched) == square \
                and self.seq == self.matched_seq + 2:
            # The new piece tapped: the next piece of the cycle.
            self.choice_index = (self.choice_index + 1) % len(self.choices)
            return
        if self.physical == self.logical:
            self.notify(TAP, square, now)


class TrackerView:
    """What the LED frame reads of the tracker, and nothing it could change: one per tracker.

    What it returns is the tracker's own (no copy, so composing a frame allocates
    nothing): read it, never keep or change it.
    """

    def __init__(self, tracker):
        self._t = tracker

    def state(self):
        return self._t.state

    def differences(self):
        """The squares (0..63, ascending) where the switches and the game differ."""
        return self._t.diff

    def switches(self):
        """The switches' occupancy: 64 bytes, 1 where a piece stands (read only)."""
        return self._t.physical

    def game_occupancy(self):
        """The game's occupancy: 64 bytes, 1 where the position has a piece (read only)."""
        return self._t.logical

    def required(self):
        """The move the board asks for (an engine's), or -1."""
        return self._t.required

    def choice(self):
        """The settling move with the piece it will have now, if it has a choice of piece
        (a promotion, a tile in Scacchi Sprint), else -1."""
        t = self._t
        if t.state != PENDING or t.pending_kind != MOVE or not t.choices:
            return -1
        return (t.pending & ~(7 << 14)) | t.chosen_type() << 14

    def in_progress(self):
        """A legal move that the changes so far are part of, or -1."""
        return self._t.in_progress

    def legal_moves(self):
        return self._t.table.moves

    def captures(self):
        """{legal capture: square 0..63 of the piece it takes} (read only)."""
        return self._t.table.captured
