"""The optional display: what a small screen says, composed from the game's state like the LED frame.

``DisplayPart`` is the main-loop part that redraws the panel when its
screen changed; ``screen.py`` composes the game screen (``ROWS`` lines of at
most ``COLS`` characters and an icon per line, pure: the simulator, the
tests and the page read the same lines); ``hands.py`` its rarer lines (a
board error, out of sync, the result's reason); ``menu.py`` is the buttons'
menu; ``en.py`` and ``it.py`` hold each language's words (one string each);
``icons.py`` the icons' bitmaps for oled.py. A 128 x 64 SSD1306 with
framebuf's 8 x 8 font holds 16 characters on 8 lines, each line one of the
controller's 8 pages (firmware/oled.py sends only the lines that changed).
Loaded only when a panel answers at boot (main.py): a board without one
spends no RAM on it. On the Pico only this module stays between redraws:
the others are imported when used and dropped after (``drop``), since every
module and global costs the Pico's RAM (docs/display.md has the figures).
"""


import sys

from ..clock import elapsed
from .. import const

# The Pico drops the screen's, the words' and the menu's modules after use (RAM), as notation.py
# drops the FEN reader.
_DROP_AFTER_USE = sys.implementation.name == "micropython"

ROWS = const(8)           # 8 lines of 16 characters: framebuf's 8 x 8 font on 128 x 64 pixels,
COLS = const(16)          # a line one of the SSD1306's 8 pages


# -- the part ------------------------------------------------------------------------------------

REFRESH_MS = 200          # at most 5 redraws a second: a line costs the I2C bus ~3 ms (docs/display.md)
# No redraw until the board has been still this long: a redraw holds the loop ~34 ms on the Pico, and a
# quick tap (a promotion's choice) made inside that hold would be missed.
QUIET_MS = 250


class DisplayPart:
    """The display as a part of the main loop (parts.py's hooks): redraw the panel when its screen changed.

    Every SLOW_MS tick it looks at a few small ints (the game said something,
    the app is dirty, the menu moved, the running clock's second, the engine's
    thinking); only when one of them changed, and at most every
    ``REFRESH_MS``, does it compose the screen's strings (``compose``, or the
    menu's) and hand the panel the lines that differ. So a steady scan and a
    steady tick allocate nothing (tests/mpy/check_scan_no_alloc.py), and a
    running clock costs one composition a second.

    The panel (``hw.display``: oled.Oled on the Pico, a FakeDisplay in the simulator)
    has one method: ``show(lines, icons, changed)``, ``changed`` a bit mask of
    the lines (panel pages) to send.
    """

    def __init__(self, panel):
        self.panel = panel
        self.lines = [""] * ROWS       # what the panel shows
        self.icons = bytearray(ROWS)
        self.menu = None               # a menu.Menu while the menu is open (loaded then)
        self.stale = True              # something the screen shows may have changed
        self.draws = 0                 # panel updates (lines sent), for tests and the bench
        self._drawn_ms = 0
        self._second = -1              # the running clock's whole seconds when last composed
        self._thinking = False
        self._diag = False

    # -- the part's hooks -----------------------------------------------------------

    def boot(self, runner, now):
        runner.app.listeners.append(self._event)
        runner.menu = self                 # buttons come here first (``button``)
        runner.display = self
        self.stale = True
        self._drawn_ms = now - REFRESH_MS     # the first screen at once

    def _event(self, event):
        self.stale = True

    def _nothing(self, runner, now=0, frame=None):
        pass

    # Hooks the display has no use for: one function (RAM); no *args, which would allocate a tuple a scan.
    scan = shown = crash = _nothing

    def tick(self, runner, now):
        """Compose and draw if something changed, at most every REFRESH_MS and once the board is still
        (QUIET_MS). Allocates nothing otherwise."""
        diag = runner.holder is not None
        if diag != self._diag:
            self._diag = diag
            self.stale = True
        elif runner.app.dirty and not diag:   # diagnostics leave the game's frame dirty: not ours to draw
            self.stale = True
        if self.menu is not None and self.menu.tick(now):
            self._close_menu()
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
        if self.stale and elapsed(now, self._drawn_ms) >= REFRESH_MS and \
                elapsed(now, runner.app.game.tracker.last_event_ms) >= QUIET_MS:
            self.redraw(runner, now)

    # -- the menu ---------------------------------------------------------------------

    def button(self, runner, name, now):
        """A button pressed: True if the menu took it (menu opens it; the rest only while it is open)."""
        menu = self.menu
        if menu is None:
            if name != "menu":
                return False
            from .menu import Menu
            menu = self.menu = Menu()
        taken = menu.button(runner, name, now)
        if taken:
            self.stale = True
        if not menu.open:
            self._close_menu()
        return taken

    def _close_menu(self):
        self.menu = None
        self.stale = True
        drop("menu")

    # -- drawing ---------------------------------------------------------------------

    def redraw(self, runner, now):
        """Compose the screen (fresh strings: garbage once drawn) and send the lines that differ."""
        self.stale = False
        self._drawn_ms = now
        lines = [""] * ROWS
        icons = bytearray(ROWS)
        if self.menu is not None and runner.holder is None:
            self.menu.compose(runner, lines, icons)
        else:
            from .screen import compose
            compose(runner, now, lines, icons)
            drop("screen")
        shown = self.lines
        changed = 0
        for i in range(ROWS):
            if lines[i] != shown[i] or icons[i] != self.icons[i]:
                changed |= 1 << i
                shown[i] = lines[i]
                self.icons[i] = icons[i]
        if changed:
            self.panel.show(shown, self.icons, changed)
            self.draws += 1


def drop(name):
    """On the Pico, forget this package's module ``name`` once used (RAM): the next use imports it again."""
    if _DROP_AFTER_USE:
        sys.modules.pop(__name__ + "." + name, None)
        if name in globals():
            del globals()[name]
