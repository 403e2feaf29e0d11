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

from .. import const, elapsed

# The Pico drops the screen's, the words' and the menu's modules after use (RAM), as notation.py
# drops the FEN reader.
_DROP_AFTER_USE = sys.implementation.name == "micropython"

ROWS = const(8)           # 8 lines of 16 characters: framebuf's 8 x 8 font on 128 x 64 pixels,
COLS = const(16)          # a line one of the SSD1306's 8 pages


# -- the part ------------------------------------------------------------------------------------

REFRESH_MS = 200          # at most 5 compositions of the whole screen a second
# No composition of the whole screen until the board has been still this long (unless the board's engine
# thinks): on the Pico its slices hold the loop up to ~20 ms each (an import from flash), and a quick tap
# (a promotion's choice) made inside such a hold could be missed. The clock's line and the lines' sending
# are cheap: never held back.
QUIET_MS = 250

# Where a composition of the whole screen stands: a slice a tick (``DisplayPart._compose_slice``).
_IDLE = const(0)
_SCREEN = const(1)        # screen.py imported
_WORDS = const(2)         # ...and the language's words read


class DisplayPart:
    """The display as a part of the main loop (runner.py's hooks): redraw the panel when its screen changed.

    Every SLOW_MS tick it looks at a few small ints (the game said something,
    the app is dirty, the menu moved, the running clock's second, the engine's
    thinking) and does at most one slice of work, so that no tick holds the
    loop long (docs/display.md has the figures on the emulated RP2040):

    - the running clock's new second: line 0 composed here (``clock_line``:
      no words, no import), then sent; a ticking clock costs one line a second;
    - anything else: the whole screen composed in slices, at most every
      ``REFRESH_MS`` and once the board is still (``QUIET_MS``): import
      ``screen.py``; read the language's words; compose (``compose``, or the
      menu's). On the Pico the first two are imports from flash, dropped
      after use (RAM); on CPython the modules stay and it takes one tick;
    - a composed line that differs from the panel's: sent, one a tick (one
      SSD1306 page, 129 bytes on the bus).

    So a steady scan and a steady tick allocate nothing
    (tests/mpy/check_scan_no_alloc.py), and a running clock costs one short
    composition a second.

    The panel (``hw.display``: oled.Oled on the Pico, a FakeDisplay in the simulator)
    has one method: ``show(lines, icons, changed)``, ``changed`` a bit mask of
    the lines (panel pages) to send.
    """

    def __init__(self, panel):
        self.panel = panel
        self.lines = [""] * ROWS       # what the panel shows, or will once ``unsent`` is sent
        self.icons = bytearray(ROWS)
        self.unsent = 0                # lines composed, not yet sent: bit i = line i
        self.menu = None               # a menu.Menu while the menu is open (loaded then)
        self.stale = True              # something the screen shows may have changed
        self.draws = 0                 # compositions that changed the screen, for tests and the bench
        self._drawn_ms = 0
        self._phase = _IDLE            # where a composition of the whole screen stands
        self._words = None             # the language's words, between two slices of a composition
        self._second = -1              # the running clock's whole seconds when last shown
        self._clock = False            # ...which is not the second line 0 shows
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
        """Note what changed; then one slice: send a line, or compose, the clock's line or the whole
        screen (at most every REFRESH_MS and once the board is still, QUIET_MS). Allocates nothing
        when nothing changed."""
        diag = runner.holder is not None
        if diag != self._diag:
            self._diag = diag
            self.stale = True
        elif runner.app.dirty and not diag:   # diagnostics leave the game's frame dirty: not ours to draw
            self.stale = True
        if self.menu is not None and self.menu.tick(now):
            self._close_menu()
        clocks = runner.app.game.clocks
        if clocks.on and clocks.running:
            second = clocks.left_ms(clocks.running == 1, now) // 1000
            if second != self._second:
                self._second = second
                self._clock = True
        thinking = runner.engine is not None and runner.engine.thinking   # (one local less: 11 words, runner.step)
        if thinking != self._thinking:
            self._thinking = thinking
            self.stale = True
            if thinking:                   # at once, not REFRESH_MS after the move that started it
                self._drawn_ms = now - REFRESH_MS
        # A composition waits for the board to be still (QUIET_MS), but not while the board's engine
        # thinks (the hands wait, the tracker holds: no tap to miss, and its level must show while it
        # searches: level 1 searches ~0.15 s), nor once the screen is imported (the other slices, ~12
        # and ~5 ms, are shorter than any tap).
        if self.unsent:
            self._send_one()
        elif (self.stale or self._phase != _IDLE) and elapsed(now, self._drawn_ms) >= REFRESH_MS and \
                (self._phase != _IDLE or thinking or elapsed(now, runner.app.game.tracker.last_event_ms) >= QUIET_MS):
            self._compose_slice(runner, now)
        elif self._clock:
            self._clock_slice(runner, now)

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

    # -- composing and sending --------------------------------------------------------

    def _clock_slice(self, runner, now):
        """Line 0 of the game screen with a clock on: both clocks, the same in every language."""
        self._clock = False
        clocks = runner.app.game.clocks
        if self.menu is None and not self._diag and clocks.on:
            self._take(0, clock_line(clocks, now), 0)

    def _compose_slice(self, runner, now):
        """One slice of composing the whole screen: import screen.py; read the words; compose."""
        if self._phase == _IDLE:
            self.stale = False             # what changes from now on is composed next time
        if self.menu is None or self._diag:
            if self._phase == _IDLE and _DROP_AFTER_USE and __name__ + ".screen" not in sys.modules:
                from . import screen       # noqa: F401  (an import from flash: a slice of its own)
                self._phase = _SCREEN
                return
            from .screen import compose, words
            if self._words is None:
                self._words = words(runner.app.game.options.lang)
                if _DROP_AFTER_USE:
                    self._phase = _WORDS
                    return
        lines = [""] * ROWS
        icons = bytearray(ROWS)
        if self.menu is not None and not self._diag:
            self.menu.compose(runner, lines, icons)
        else:
            compose(runner, now, lines, icons, self._words)
        self._end_composition()
        self._clock = False
        self._drawn_ms = now
        changed = self.unsent
        for i in range(ROWS):
            self._take(i, lines[i], icons[i])
        if self.unsent != changed:
            self.draws += 1

    def _end_composition(self):
        """Drop what a composition in slices held (its words, screen.py), once it is done."""
        self._phase = _IDLE
        self._words = None
        drop("screen")

    def _take(self, row, text, icon):
        """Line ``row`` is to show ``text`` and ``icon``: to be sent if the panel shows something else."""
        if text != self.lines[row] or icon != self.icons[row]:
            self.lines[row] = text
            self.icons[row] = icon
            self.unsent |= 1 << row

    def _send_one(self):
        """Send the first unsent line: one SSD1306 page (~3 ms on the I2C bus at 400 kHz)."""
        bit = self.unsent & -self.unsent
        self.unsent ^= bit
        self.panel.show(self.lines, self.icons, bit)

    def redraw(self, runner, now):
        """The whole screen at once, every slice and every line (the bench's figure of a redraw; tests)."""
        self._compose_slice(runner, now)
        while self._phase != _IDLE:
            self._compose_slice(runner, now)
        while self.unsent:
            self._send_one()


def clock_text(ms):
    """Time left as the clock shows it: M:SS, H:MM:SS past an hour, 0:00 at the flag."""
    s = (ms + 999) // 1000 if ms > 0 else 0
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def clock_line(clocks, now):
    """Line 0 with a clock on, ``W 4:59    B 5:00``: no words, so the part composes it without screen.py."""
    white = "W " + clock_text(clocks.left_ms(True, now))
    black = "B " + clock_text(clocks.left_ms(False, now))
    return white + " " * max(1, COLS - len(white) - len(black)) + black


def drop(name):
    """On the Pico, forget this package's module ``name`` once used (RAM): the next use imports it again."""
    if _DROP_AFTER_USE:
        sys.modules.pop(__name__ + "." + name, None)
        if name in globals():
            del globals()[name]
