"""Chess clocks: each player's time for the game, with a bonus per move (seed 003's "partita lampo").

Loaded only when a time control is set (option ``clock``); without one the
game holds a ``NoClocks`` (controller.py). Small ints only: two times left, when the running clock started, and one
word per ply (the mover's time after it) in an ``array`` made when a clock
is set, so a takeback gives the time back and the journal can save it.
Nothing is allocated while a clock runs (tests/mpy/check_scan_no_alloc.py).

Times are in ms. A clock's time left is ``white``/``black`` when it is
stopped; the running one's is that minus the time since ``since``. docs/rules.md
says when the clocks start, stop and get their bonus.

An online game's clocks are the server's: the host sets both times after
each of its updates (``follow``, the protocol's ``clock``), and from then on
until a new game a clock that reaches 0 here stops at 0 without ending the
game (``host``): the server says when a flag fell (the protocol's ``end``).
"""

from array import array

from .. import const, elapsed
from ..time_control import parse_control
from ..tracking import tracker as tr

STOPPED = const(0)
WHITE_RUNS = const(1)
BLACK_RUNS = const(2)
LOW_MS = const(10000)        # a player's last 10 s: the LEDs pulse their king
_GROW = const(32)            # plies the history grows by
_UNKNOWN = const(-1)         # a ply played before the clock was set


class Clocks:
    """Both players' clocks for the time control ``control`` ("M+S"). ``running``: STOPPED,
    WHITE_RUNS or BLACK_RUNS."""

    on = True

    def __init__(self, control):
        self.base, self.bonus = parse_control(control)    # ValueError if it is no time control
        self.control = control
        self.white = self.black = 0     # ms left (for the running clock: when it started)
        self.running = STOPPED
        self.since = 0                  # when the running clock started
        self.paused = STOPPED           # the clock a power cut stopped, to run again once the board is in step
        self.low = False                # the running clock is in its last LOW_MS
        self.host = False               # the host's clock decides (follow): no flag falls here
        self.held = STOPPED             # the clock an engine's announced move stopped (``announced``)
        self._after = array("i")        # the mover's ms left after each ply (_UNKNOWN: not timed)
        self._n = 0                     # plies in _after
        # Before the last move, for an amendment: its mover's ms, which clock ran and since when.
        self._undo_left = self._undo_running = self._undo_since = 0
        self.reset()

    def reset(self):
        """A new game: both players have the whole time, nothing runs until the first move."""
        self.white = self.black = self.base
        self.running = self.paused = self.held = STOPPED
        self.low = self.host = False
        self._n = 0

    # -- reading ------------------------------------------------------------------------

    def left_ms(self, white, now):
        """The ms ``white`` (bool: white's clock, else black's) has left at ``now`` (0 once its flag fell)."""
        ms = self.white if white else self.black
        if self.running == (WHITE_RUNS if white else BLACK_RUNS):
            ms -= elapsed(now, self.since)
        return ms if ms > 0 else 0

    def fallen(self, now):
        """The running clock whose time is out (WHITE_RUNS or BLACK_RUNS), else STOPPED; notes ``low``."""
        running = self.running
        if running == STOPPED:
            return STOPPED
        ms = (self.white if running == WHITE_RUNS else self.black) - elapsed(now, self.since)
        if ms <= 0:
            return running
        low = ms <= LOW_MS
        if low != self.low:
            self.low = low
        return STOPPED

    def after(self, ply):
        """The mover's ms left after ply ``ply`` (1 = the first), or -1 if not timed."""
        return self._after[ply - 1] if 0 < ply <= self._n else _UNKNOWN

    def report(self, game, now):
        """The game's ``clock`` event: both players' ms left and whose clock runs."""
        running = self.running
        game.emit("clock", white=self.left_ms(True, now), black=self.left_ms(False, now),
                  running=None if running == STOPPED else "wb"[running - 1])

    def tick(self, game, now):
        """Time passes with a clock running: its flag falls, or it enters its last LOW_MS
        (``game.redraw``: the LEDs pulse the king). Allocates nothing until the flag falls."""
        low = self.low
        fallen = self.fallen(now)
        if fallen != STOPPED:
            if self.host:              # at 0 until the host's clock says more (or ends the game)
                self.stop(now)
                self.report(game, now)
                return
            t = game.tracker
            if t.state == tr.PENDING and t.pending_kind != tr.TAKEBACK \
                    and self.left_ms(fallen == WHITE_RUNS, t.matched_ms) > 0:
                return    # a move put down in time settles: it stops the clock where it was placed
            self.stop(now)
            from ..rules.material import flag_fall
            flag_fall(game.position, fallen - 1)
            game.end_declared(now)
        elif self.low != low:
            game.redraw = True

    # -- the game tells the clocks --------------------------------------------------------------

    def moved(self, white, ply, at):
        """``white`` (bool) has made ply ``ply``, placed at ``at``: their clock stops, gets the
        bonus, and the other one starts from ``at``."""
        left = self.white if white else self.black
        self._undo_left, self._undo_running, self._undo_since = left, self.running, self.since
        if self.host and self.running != (WHITE_RUNS if white else BLACK_RUNS):
            self._record(ply, left)    # the host's clock moved on before the hands did: it has the times
            return
        if self.running == (WHITE_RUNS if white else BLACK_RUNS):
            spent = elapsed(at, self.since)
            if spent > 0:
                left -= spent
        left += self.bonus
        if white:
            self.white = left
        else:
            self.black = left
        self._record(ply, left)
        self.running = BLACK_RUNS if white else WHITE_RUNS
        self.since = at
        self.paused = self.held = STOPPED
        self.low = False

    def announced(self, white, now):
        """The computer (``white``: its colour) has announced its move at ``now``: its clock stops
        there, and the opponent's starts once the hands have made the move (``moved``). True if a
        clock stopped. Not on the host's clock (an online game's server keeps its own)."""
        mine = WHITE_RUNS if white else BLACK_RUNS
        if self.host or self.running != mine:
            return False
        self.stop(now)
        self.held = mine
        return True

    def unannounced(self, now):
        """The announced move was withdrawn (the host's ``unshow``): its clock runs again from ``now``."""
        if self.held == STOPPED:
            return False
        self.running, self.held = self.held, STOPPED
        self.since = now
        return True

    def amended(self, white):
        """The last move (by ``white``) is being replaced (a castling whose rook came first):
        the clocks as they were before it, so the whole sequence is timed as one move."""
        left = self._undo_left
        self.running, self.since = self._undo_running, self._undo_since
        if white:
            self.white = left
        else:
            self.black = left
        self._n -= 1

    def took_back(self, white_to_move, ply, now):
        """The game is back at ply ``ply`` (``white_to_move``): both clocks as they stood when the
        taken-back move began (its time and bonus given back, and the time its opponent spent
        since); the mover's clock runs from ``now`` (nothing runs back at the game's start)."""
        mine = self._before(ply - 1)
        theirs = self._before(ply)
        if white_to_move:
            self.white, self.black = (self.white if mine < 0 else mine), (self.black if theirs < 0 else theirs)
        else:
            self.black, self.white = (self.black if mine < 0 else mine), (self.white if theirs < 0 else theirs)
        self._n = ply if ply < self._n else self._n
        self.running = STOPPED if ply == 0 else (WHITE_RUNS if white_to_move else BLACK_RUNS)
        self.since = now
        self.paused = self.held = STOPPED
        self.low = False

    def _before(self, ply):
        """The ms its mover had after ply ``ply`` (the base before the game's first), or -1 if not known."""
        if ply <= 0:
            return self.base
        return self._after[ply - 1] if ply <= self._n else _UNKNOWN

    def follow(self, white, black, running, now):
        """The host's times (an online game's server): ``white`` and ``black`` ms left, ``running``
        (STOPPED, WHITE_RUNS or BLACK_RUNS) from ``now``. Until a new game, a flag that falls here
        stops at 0 and waits for the host to end the game."""
        self.white, self.black = white, black
        self.running, self.since = running, now
        self.paused = self.held = STOPPED
        self.low = False
        self.host = True

    def stop(self, now):
        """The game ended: the running clock keeps the time it has now."""
        running = self.running
        if running == WHITE_RUNS:
            self.white = self.left_ms(True, now)
        elif running == BLACK_RUNS:
            self.black = self.left_ms(False, now)
        self.running = self.paused = STOPPED
        self.low = False

    def pause(self, white_to_move):
        """Power-up with a game in progress: the side to move's clock waits for the board to be in step."""
        self.running = self.held = STOPPED
        self.paused = (WHITE_RUNS if white_to_move else BLACK_RUNS) if self._n else STOPPED

    def resume(self, now):
        """The board is in step again after a power-up: the paused clock runs from ``now``. True if one did."""
        if self.paused == STOPPED:
            return False
        self.running, self.paused = self.paused, STOPPED
        self.since = now
        return True

    def restore(self, times, white_to_move):
        """A saved game's times (the mover's ms after each ply, -1 where not timed): the clocks
        as they stood after its last move, paused (``pause``)."""
        self._n = 0
        for i in range(len(times)):
            self._record(i + 1, times[i])
        n = len(times)
        mine = self._before(n - 1)
        theirs = self._before(n)
        if white_to_move:
            self.white, self.black = (self.base if mine < 0 else mine), (self.base if theirs < 0 else theirs)
        else:
            self.black, self.white = (self.base if mine < 0 else mine), (self.base if theirs < 0 else theirs)
        self.pause(white_to_move)

    def _record(self, ply, left):
        a = self._after
        while len(a) < ply:
            a.extend(_UNKNOWNS)
        a[ply - 1] = left
        self._n = ply


_UNKNOWNS = array("i", [_UNKNOWN] * _GROW)
