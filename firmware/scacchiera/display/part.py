"""The display as a part of the main loop (parts.py's hooks): redraw the panel when its screen changed.

Every SLOW_MS tick it looks at a few small ints (the game said something,
the app is dirty, the menu moved, the running clock's second, the engine's
thinking); only when one of them changed, and at most every
``REFRESH_MS``, does it compose the screen's strings (screen.py, or the
menu's) and hand the panel the lines that differ. So a steady scan and a
steady tick allocate nothing (tests/mpy/check_scan_no_alloc.py), and a
running clock costs one composition a second.

The panel (``hw.display``: hal.Oled on the Pico, a fake in the simulator)
has one method: ``show(lines, icons, changed)``, ``changed`` a bit mask of
the lines (panel pages) to send.
"""

from ..clock import elapsed
from . import ROWS
from . import screen
from .menu import Menu

REFRESH_MS = 200          # at most 5 redraws a second: a line costs the I2C bus ~3 ms (docs/display.md)


class DisplayPart:
    def __init__(self, panel):
        self.panel = panel
        self.lines = [""] * ROWS       # what the panel shows
        self.icons = bytearray(ROWS)
        self._lines = [""] * ROWS      # the next screen, composed
        self._icons = bytearray(ROWS)
        self.menu = Menu()
        self.stale = True              # something the screen shows may have changed
        self.draws = 0                 # panel updates (lines sent), for tests and the bench
        self._drawn_ms = 0
        self._second = -1              # the running clock's whole seconds when last composed
        self._thinking = False
        self._diag = False

    # -- the part's hooks -----------------------------------------------------------

    def boot(self, runner, now):
        runner.app.listeners.append(self._event)
        runner.menu = self.menu
        runner.display = self
        self.stale = True
        self._drawn_ms = now - REFRESH_MS     # the first screen at once

    def _event(self, event):
        self.stale = True

    def scan(self, runner, now):
        pass

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        pass

    def tick(self, runner, now):
        """Compose and draw if something changed, at most every REFRESH_MS. Allocates nothing otherwise."""
        diag = runner.diag is not None
        if diag != self._diag:
            self._diag = diag
            self.stale = True
        elif runner.app.dirty and not diag:   # diagnostics leave the game's frame dirty: not ours to draw
            self.stale = True
        menu = self.menu
        if menu.tick(now) or menu.changed:
            menu.changed = False
            self.stale = True
        clocks = getattr(runner.app.game, "clocks", None)
        if clocks is not None and clocks.on and clocks.running:
            second = clocks.left_ms(clocks.running == 1, now) // 1000
            if second != self._second:
                self._second = second
                self.stale = True
        engine = getattr(runner, "engine", None)
        thinking = engine is not None and engine.thinking
        if thinking != self._thinking:
            self._thinking = thinking
            self.stale = True
        if self.stale and elapsed(now, self._drawn_ms) >= REFRESH_MS:
            self.redraw(runner, now)

    # -- drawing ---------------------------------------------------------------------

    def compose(self, runner, now):
        """The screen now into the spare buffers: the menu's while it is open (not over diagnostics), else the game's."""
        if self.menu.open and runner.diag is None:
            return self.menu.compose(runner, self._lines, self._icons)
        return screen.compose(runner, now, self._lines, self._icons)

    def redraw(self, runner, now):
        self.stale = False
        self._drawn_ms = now
        self.compose(runner, now)
        changed = 0
        for i in range(ROWS):
            if self._lines[i] != self.lines[i] or self._icons[i] != self.icons[i]:
                changed |= 1 << i
        if not changed:
            return
        self.lines, self._lines = self._lines, self.lines
        self.icons, self._icons = self._icons, self.icons
        self.panel.show(self.lines, self.icons, changed)
        self.draws += 1
