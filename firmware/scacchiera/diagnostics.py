"""Diagnostics mode: for the person assembling the board (hardware/README.md, "The diagnostics mode").

While it runs the game is paused and the board shows its wiring directly:

- the LED follows the magnet: every square whose reed is closed is lit white;
- a walking LED: one LED at a time in chain order (LED 0, 1, 2...), red on
  the first lap, green on the second, blue on the third, and so on; or, for
  the bench test of one reed (``diag on e4``), that square's LED only,
  green while its reed is closed and red while open, and a line at each change;
- a report once a second (the serial protocol prints it): the occupancy map,
  the measured scan rate, and the stuck and dead switches, that is the squares
  never seen open and never seen closed since diagnostics started; and on the
  board, the columns' recovery times, measured again as diagnostics start, with
  the scan's wait set from them (hal.py, sensing/columns.py).

A main-loop part (runner.py) that holds the board while it runs (``Runner.hold``:
the game gets no scans, this part draws the LEDs). The ``diag`` button
(main.py) and command (link/commands.py) load this module only when asked (RAM):
``toggle``, ``start``, ``stop``, ``running``.
Nothing allocates per scan or per frame; only the report builds lists.
"""

from . import elapsed
from .rules.squares import square_name

WALK_MS = 150
REPORT_MS = 1000


def running(runner):
    """The Diagnostics part while diagnostics run, else None."""
    holder = runner.holder
    return holder if isinstance(holder, Diagnostics) else None


def start(runner, now):
    if running(runner) is None:
        measure = getattr(runner.hw, "measure_columns", None)
        if measure is not None:
            measure()                 # the columns timed afresh: the report gives them (hal.py)
        diag = Diagnostics(runner.led_of_square, runner.led_order,
                           max(1, runner.max_level * runner.brightness // 100))
        diag.begin(runner, now)
        runner.parts.append(diag)
        runner.hold(diag)


def stop(runner, now):
    diag = running(runner)
    if diag is not None:
        runner.parts.remove(diag)
        runner.let_go(now)        # the game looks at the board afresh


def toggle(runner, now):
    if running(runner) is None:
        start(runner, now)
    else:
        stop(runner, now)


class Diagnostics:
    def __init__(self, led_of_square, order="GRB", level=255):
        self.led_of_square = bytes(led_of_square)
        self.offsets = tuple("RGB".index(c) for c in order)   # buffer slot i holds channel offsets[i]
        self.level = level
        self.rows = bytearray(8)          # the switches now (rank bytes)
        self.closed_seen = bytearray(8)   # bit set: that reed has been seen closed
        self.open_seen = bytearray(8)     # bit set: ...seen open
        self.started = 0
        self.changed = True               # the LEDs must be redrawn
        self.walk = -1                    # the walking LED's index, as last drawn
        self.reported = 0                 # when the last report went, and runner.scans then
        self.scans = 0
        self.watched = -1                 # the square of the bench test (``diag on e4``), or -1
        self.watched_closed = 0           # its reed now: 1 closed
        self.watched_changes = 0          # how often it changed since watched (a reed that chatters)
        self.watched_news = False         # a change the protocol has not told yet

    def watch(self, square):
        """The bench test: ``square``'s reed told live (an ``ev: reed`` line at each change) and lit
        green while closed, red while open: raise or lower a magnet over it and see where it closes."""
        self.watched = square
        self.watched_closed = (self.rows[square >> 3] >> (square & 7)) & 1
        self.watched_changes = 0
        self.watched_news = True
        self.changed = True

    def begin(self, runner, now):
        self.reported = now
        self.scans = runner.scans
        self.start(runner.rows, now)

    def start(self, rows, now):
        for r in range(8):
            self.rows[r] = rows[r]
            self.closed_seen[r] = 0
            self.open_seen[r] = 0
        self.started = now
        self.walk = -1
        self.changed = True
        self.look(rows, now)

    def look(self, rows, now):
        """One scan of the matrix: remember what each reed has done."""
        seen_c = self.closed_seen
        seen_o = self.open_seen
        mine = self.rows
        for r in range(8):
            b = rows[r]
            seen_c[r] |= b
            seen_o[r] |= ~b & 0xFF
            if mine[r] != b:
                mine[r] = b
                self.changed = True
        watched = self.watched
        if watched >= 0:
            closed = (rows[watched >> 3] >> (watched & 7)) & 1
            if closed != self.watched_closed:
                self.watched_closed = closed
                self.watched_changes += 1
                self.watched_news = True
        if self.walking(now) != self.walk:
            self.changed = True

    # -- the main loop's part (runner.py's hooks), holding the board ----------------------

    def boot(self, runner, now):
        pass

    def scan(self, runner, now):
        self.look(runner.rows, now)

    def tick(self, runner, now):
        """Once a second, the report, with the scans/s since the last one; the watched reed at once."""
        if self.watched_news:
            self.watched_news = False
            runner.protocol.send({"ev": "reed", "square": square_name(self.watched),
                                  "closed": bool(self.watched_closed), "changes": self.watched_changes})
        dt = elapsed(now, self.reported)
        if dt >= REPORT_MS:
            scans = runner.scans
            report = self.report(((scans - self.scans) & 0x3FFFFFFF) * 1000 // dt)
            self.reported = now
            self.scans = scans
            report["ev"] = "diag"
            columns = getattr(runner.hw, "columns", None)
            if columns is not None:
                report["columns"] = columns
            runner.protocol.send(report)

    def draw(self, runner, buf, now):
        """The LEDs while holding the board: True if ``buf`` was drawn anew."""
        if not self.changed:
            return False
        self.render(buf, now)
        return True

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        pass

    def walking(self, now):
        if self.watched >= 0:
            return self.led_of_square[self.watched]
        return (elapsed(now, self.started) // WALK_MS) % 64

    def render(self, buf, now):
        """The LED bytes: closed reeds white, the walking LED in its lap's colour."""
        level = self.level
        leds = self.led_of_square
        for i in range(len(buf)):
            buf[i] = 0
        rows = self.rows
        for sq in range(64):
            if (rows[sq >> 3] >> (sq & 7)) & 1:
                i = leds[sq] * 3
                buf[i] = buf[i + 1] = buf[i + 2] = level
        step = elapsed(now, self.started) // WALK_MS
        walk = step % 64
        channel = (step // 64) % 3              # 0 red, 1 green, 2 blue
        if self.watched >= 0:                   # the bench test: the watched square only, green or red
            walk = leds[self.watched]
            channel = 1 if self.watched_closed else 0
        i = walk * 3
        for slot in range(3):
            buf[i + slot] = level if self.offsets[slot] == channel else 0
        self.walk = walk
        self.changed = False
        return buf

    def occupancy_map(self):
        """The board as text, rank 8 first: '#' a closed reed, '.' an open one."""
        lines = []
        for rank in range(7, -1, -1):
            b = self.rows[rank]
            lines.append("%d %s" % (rank + 1, "".join("#" if b >> f & 1 else "." for f in range(8))))
        lines.append("  abcdefgh")
        return lines

    def stuck(self):
        """Squares whose reed was never seen open (closed all along: stuck, or a piece never lifted)."""
        return [square_name(sq) for sq in range(64) if not self.open_seen[sq >> 3] >> (sq & 7) & 1]

    def dead(self):
        """Squares whose reed was never seen closed (no piece yet, or a broken reed, diode or joint)."""
        return [square_name(sq) for sq in range(64) if not self.closed_seen[sq >> 3] >> (sq & 7) & 1]

    def report(self, scan_rate):
        return {"map": self.occupancy_map(), "scan_rate": scan_rate,
                "stuck": self.stuck(), "dead": self.dead()}
