"""Per-square deferred debouncing (QMK's ``sym_defer_pk``), on timestamps.

A reed switch under a moving magnet chatters, and a magnet sliding past a
neighbouring square closes its reed for a moment. *Deferred* debouncing
reports a square's change only once its raw state has held, unchanged, for
``delay_ms``: noise shorter than that never reaches move recognition. Eager
debouncing (report at once, ignore what follows) would be faster to react
but reports every brush of a passing magnet, which on a chessboard is a
phantom move; so we defer.

Time comes from timestamps, not scan counts: bounce is a physical time, and
a scan loop that stalls (a flash write, a garbage collection) must not turn
a 2 ms bounce into a long press. After a stall a pending change is
accepted at the first scan that sees it still there, if ``delay_ms`` has
passed since it was first seen. The times are kept modulo 2**16 ms (RAM):
a stall of over 65 s would only delay a change.

A change shorter than ``delay_ms`` is still news when it lasted ``BRIEF_MS``
or more: a square that left its stable state and came back, away that long
since its last edge (the bounces of its leaving are not counted). A capture made
fast (the victim off and the capturer down within 30 ms) or a quick tap on a
promoted piece are that; a reed's bounce (a few ms) is not: shorter than
BRIEF_MS is too fast to be a hand. It goes to the sink as ``present`` 2, and
the app takes it only while the hands are making a move (app.py: at rest a
wobble is no gesture; a magnet sliding past is part of a move).

The scan path allocates nothing: state is four 8-byte rows and a table of 64
16-bit times.
"""

from array import array

from .. import const, heap_lock, heap_unlock

DEFAULT_DELAY_MS = 30
BRIEF_MS = const(8)     # a square out of its stable state this long, and back within delay_ms: news (brief)
_NONE = bytes(8)


class Debouncer:
    """Feed raw rows with ``scan(rows, now)``; stable changes go to ``sink(square, present, now)``.

    ``rows[r]`` has bit ``f`` set when the square ``r * 8 + f`` (a1 = 0) has a
    piece on it.
    """

    def __init__(self, sink, delay_ms=DEFAULT_DELAY_MS, initial=None):
        self.sink = sink               # sink(square, present, now); present 2: a brief change (docstring)
        self.delay_ms = delay_ms
        self.stable = bytearray(8)     # what we report
        self.raw = bytearray(8)        # last raw rows seen
        self.briefs = bytearray(8)     # squares back from a brief change in this scan (told after it)
        self.at = 0                    # the last scan's time (ms, low 16 bits)
        self.since = array("H", bytes(128))   # when each square's raw state last changed (ms, low 16 bits)
        if initial is not None:
            self.reset(initial)

    def reset(self, rows):
        """Take ``rows`` as the stable state without reporting (at boot)."""
        for r in range(8):
            self.stable[r] = rows[r]
            self.raw[r] = rows[r]

    def scan(self, rows, now):
        """One scan of the matrix. Returns the number of changes reported.

        Changes that settle at the same scan are reported departures first:
        a piece lifted and another put down within one debounce window are a
        lift, then a placement, whatever the order of their squares.
        """
        if self.quiet(rows, now):
            return 0
        heap_lock()                    # _poll's frame on the stack (scacchiera/__init__.py)
        try:
            n = self._poll(rows, now)  # true: a square's raw state is not its stable one
        except:                        # (not finally: 3 words more, and this frame would go on the heap)
            heap_unlock()
            raise
        heap_unlock()
        if self.briefs != _NONE:
            self._briefs(now)          # (rare: its frame may go on the heap)
        if not n:
            return 0
        n = self._settle(0, now)       # departures first; one local for both (runner.step: 11 words)
        return self._settle(1, now) + n

    def quiet(self, rows, now):
        """The usual scan: nothing moved and nothing waits (two compares); True if so, the scan's
        time noted. Nothing else is due (the main loop asks it first while the engine searches)."""
        raw = self.raw
        if rows == raw and raw == self.stable:
            self.at = now & 0xFFFF
            return True
        return False

    def _briefs(self, now):
        briefs = self.briefs
        for sq in range(64):
            if briefs[sq >> 3] >> (sq & 7) & 1:
                self.sink(sq, 2, now)
        briefs[:] = _NONE

    def _poll(self, rows, now):
        """Note each square's raw change (some square's raw or new state is not the stable one:
        ``scan``); is any square's raw state not the stable one?"""
        stable = self.stable
        raw = self.raw
        since = self.since
        stalled = (now - self.at) & 0xFFFF > self.delay_ms    # what happened meanwhile is unknown
        self.at = now & 0xFFFF
        waiting = False
        for r in range(8):
            new = rows[r]
            moved = new ^ raw[r]
            if moved:
                # Restart the quiet period of each square whose raw state changed; one back in
                # its stable state after BRIEF_MS or more away (since its last edge: the bounces of
                # its leaving are not counted) is told after the scan (briefs).
                raw[r] = new
                back = moved & ~(new ^ stable[r])
                f = 0
                while moved:
                    if moved & 1:
                        sq = r * 8 + f
                        if back & 1 and not stalled and (now - since[sq]) & 0xFFFF >= BRIEF_MS:
                            self.briefs[r] |= 1 << f
                        since[sq] = now & 0xFFFF
                    moved >>= 1
                    back >>= 1
                    f += 1
            if new != stable[r]:
                waiting = True
        return waiting

    def _settle(self, present, now):
        """Report the departures (``present`` 0) or arrivals (1) that have held for ``delay_ms``."""
        stable = self.stable
        raw = self.raw
        since = self.since
        reported = 0
        for r in range(8):
            bits = raw[r] ^ stable[r]
            bits &= raw[r] if present else ~raw[r]
            f = 0
            while bits:
                if bits & 1 and (now - since[r * 8 + f]) & 0xFFFF >= self.delay_ms:
                    stable[r] ^= 1 << f
                    self.sink(r * 8 + f, present, now)
                    reported += 1
                bits >>= 1
                f += 1
        return reported

    def pending(self):
        """Has a reed changed that is not reported yet (its ``delay_ms`` not over)? A piece
        lifted reaches the game ``delay_ms`` after its reed opens."""
        return self.raw != self.stable

