"""The firmware's main loop: scan -> debounce -> game -> LED frame, with the protocol and the journal beside it.

One cooperative loop, paced at ``period_us`` (2 ms: 500 scans/s; 2.5 ms while
the engine searches in the time between scans, ``due_us``). Every
iteration (``step``) reads the switch matrix, hands it to the application
and feeds the watchdog; every ``SLOW_MS`` it also polls the buttons and
redraws the LEDs if the frame changed (or a blink phase turned). What sits
beside the game is a list of parts (``parts``, as KMK's extensions) with
hooks the loop calls: the protocol (the serial port's bytes in and out) and
the journal (durable moves, once the LEDs show them and the host has heard).
A part may hold the board for a while (``hold``: diagnostics), the game paused.
A steady scan allocates nothing (tests/mpy/check_scan_no_alloc.py).

A part is any object with these hooks, called in list order (``crash``:
last part first)::

    boot(runner, now)          at power-up, before the game looks at the board (LEDs not lit yet)
    scan(runner, now)          after every scan: allocate nothing when nothing happens
    tick(runner, now)          every SLOW_MS (10 ms), after the buttons, before the LEDs are redrawn
    shown(runner, frame, now)  the game's frame of meanings (64 bytes, leds/frame.py) composed anew
    crash(runner)              the loop failed: save what can be saved (a reset follows)
    draw(runner, buf, now)     a part that holds the board only: fill ``buf`` (the strip's bytes),
                               True if it changed

No base class gives the empty ones: inheriting one cost the Pico's heap 544 B
(the WebAssembly port's hands-only game, measured), more than the parts'
few empty methods.

Why not asyncio tasks: each task switch is a pass of the scheduler, and the
work here is a fixed sequence at fixed periods; one loop is simpler to
time, and tests drive it step by step on a simulated clock.

The loop sees the hardware only through ``hw`` (hal.py on the Pico;
host_tools/fakehw for tests and the simulator)::

    read_rows(buf8)        fill 8 rank bytes: bit f of byte r set if square r*8+f holds a piece
    write_pixels(buf)      show LED bytes (chain order, the strip's channel order)
    ticks_ms(), ticks_us(), sleep_us(us)
    buttons()              bit i set while button button_names[i] is held
    button_names           e.g. ("diag", "undo")
    serial_read(buf)       copy waiting serial bytes into buf without blocking; return the count
    serial_write(data, start)  write bytes data[start:], or as much as the link takes now
                           without waiting (maybe nothing); return the count written
    serial_ctrl_c(on)      whether byte 0x03 from the host stops the firmware (MicroPython's Ctrl-C):
                           off while a DGT host, whose binary commands may hold 0x03, has the link
    start_watchdog(ms), feed_watchdog(), stop_watchdog(), reset(), reset_cause()
    fs                     the flash (storage/fs.py's interface)
    open_data(name)        a data file shipped with the firmware (puzzles.bin), open for binary
                           reading; OSError if there is none
    display                optional: a panel with show(lines, icons, changed), or None (docs/display.md)
    columns, measure_columns()  optional: the columns' recovery times and the scan's wait (hal.py,
                           sensing/columns.py), measured at boot and again by diagnostics
    parts                  optional: callables f(runner) that start.build calls before boot, to add
                           the hardware's own parts (hal.py: the wiring's news, link/notice.py; a
                           Pico W's radio, link/ble.py)
"""

import gc

from . import VERSION, FIRMWARE, options, elapsed, heap_lock, heap_unlock
from .app import App
from . import const
from .leds.palette import Palette, BLINK_MS
from .link.protocol import Protocol
from .storage.journal import Journal

PERIOD_US = 2000          # one scan every 2 ms: 500 scans/s in quiet states, >= 400 over a game (docs/firmware.md: the budget)
SEARCH_PERIOD_US = 2500   # while a part works between scans (the engine's search): 400 scans/s (docs/engine.md)
SLOW_MS = 10              # serial, buttons, LEDs
_SEARCH_SLOW_MS = const(20)   # the same while a part searches and the board is quiet (Runner.step)
_RATE_MS = const(1000)    # the scan rate's window
CATCH_UP_US = 10000       # a stall up to this long is caught up (scans back to back); a longer one is not
_LONG_SCAN_MS = const(3)  # a scan that took this long (a move's commit) leaves a due slice to the next step,
                          # once: the shorter steps and catching up keep scans (docs/firmware.md)
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
_GC_PLIES = const(12)     # plies played between two garbage collections made while the board is still


class Runner:
    def __init__(self, hw, led_of_square, led_order="GRB", max_level=255, period_us=PERIOD_US):
        self.hw = hw
        self.led_of_square = bytes(led_of_square)
        self.led_order = led_order
        self.max_level = max_level     # the power budget's cap (board_config.LED_MAX_LEVEL)
        options.defaults(self, options.RUNNER)   # brightness: percent of max_level
        self.period_us = period_us
        self.due_us = 0                # when the next scan is due (ticks_us): a part may work until then
        self.searching = None          # the part that works between scans (until its search ends): pace at SEARCH_PERIOD_US
        self.app = App(led_of_square=self.led_of_square, led_order=led_order, brightness_cap=max_level)
        self.app.game.seed_source = hw.random_seed
        self.app.game.lights_first = True
        self.journal = Journal(hw.fs)
        self.protocol = Protocol(self)
        self.app.listeners.append(self.journal.event)
        self.app.listeners.append(self.protocol.event)
        self.app.listeners.append(self._event)
        self.engine = None             # opponent.py's part while the board's engine plays
        self.drill = None              # training/drill.py's part while a drill runs (and how it ended)
        self.line = None               # moves the protocol's line commands sent for the next drill (training/)
        self.holder = None             # a part that holds the board (diagnostics): the game pauses
        # What a button's press does: f(runner, now). main.py adds "diag".
        self.buttons = {"undo": _undo}
        self.rows = bytearray(8)       # the switches at the last scan (rank bytes)
        # What the strip shows. Unknown at boot (a watchdog reset leaves the LEDs lit): 0xFF,
        # which no frame under the power cap has, so the first frame is always written.
        self.front = bytearray(b"\xff" * (3 * len(self.led_of_square)))
        self.back = bytearray(len(self.front))                # the next pixels
        self.scans = 0
        self.scan_rate = 0             # full scans per second, measured
        self.cause = ""
        self._rate_ms = self._rate_scans = self._slow_ms = 0
        self._blink = -1
        self._collected = 0            # the ply of the last collection made by still()
        self._buttons = self._button_sample = 0
        # What sits beside the game (the hooks above). The protocol before the journal: a move's
        # line goes to the host before the flash write that makes it durable (journal.LINE_WAIT_MS).
        self.parts = [self.protocol, self.journal]
        self.menu = None               # the display part, when there is one: it takes the buttons first (its menu)
        self.display = None            # the display part, when a panel was found at boot

    # -- boot -------------------------------------------------------------------------

    def boot(self):
        """Resume the saved game (or start one), compare the board with it, light the LEDs."""
        hw = self.hw
        now = hw.ticks_ms()
        self.cause = hw.reset_cause()
        self.protocol.send({"ev": "boot", "proto": VERSION, "firmware": FIRMWARE, "cause": self.cause})
        hw.read_rows(self.rows)
        parts = self.parts
        for part in parts:
            part.boot(self, now)
        self.app.boot(self.rows, now)
        self._buttons = self._button_sample = hw.buttons()
        self._slow_ms = self._rate_ms = now
        self.show(now)
        for part in parts:
            part.scan(self, now)

    # -- the loop -----------------------------------------------------------------------

    def run(self, steps=-1):
        """Scan every ``period_us`` (``steps`` times, or for ever); every SEARCH_PERIOD_US after a
        step in which a part worked until the next scan was due (``searching``, ``due_us``)."""
        hw = self.hw
        quiet_us = self.period_us
        search_us = max(quiet_us, SEARCH_PERIOD_US)
        next_us = hw.ticks_us()
        while steps:
            next_us = (next_us + (quiet_us if self.searching is None else search_us)) & _MASK
            self.due_us = next_us
            self.step()
            if steps > 0:
                steps -= 1
            wait = (next_us - hw.ticks_us()) & _MASK       # elapsed(), inline: a call less a scan
            if wait >= _HALF:
                wait = wait - _MASK - 1
            if wait > 0:
                hw.sleep_us(wait)
            elif wait < -CATCH_UP_US:
                next_us = hw.ticks_us()   # a long stall (a sector erase): start the schedule afresh

    def step(self):
        """One scan and whatever is due. Allocates nothing when nothing happens, its calls' frames
        included: each call a steady scan makes fits in 11 words (scacchiera/__init__.py; tests/
        test_frames.py), so some are split in two. While a part searches (the engine) and the
        switches are as they were, a scan between two ticks is the search's next slice alone: the
        game's timed work (a move's settle, a gesture, the clocks), the serial port and the journal
        wait for the next tick, _SEARCH_SLOW_MS at most; a reed's change ends the wait at once."""
        now = self.hw.ticks_ms()
        self._read()
        if self.searching is not None and self.holder is None and (now - self._slow_ms) & _MASK < _SEARCH_SLOW_MS \
                and self.app.debouncer.quiet(self.rows, now):
            self.searching.scan(self, now)   # the search's next slice alone (the docstring)
            return
        self.searching = None
        if self.holder is None and self.app.scan(self.rows, now):
            self.show(now)             # a piece lifted or put down: its LEDs now, not at the next slice
            self.app.game.announce()   # then the news of a move the change committed (lights_first)
        if elapsed(now, self._slow_ms) >= SLOW_MS and (elapsed(self.hw.ticks_ms(), now) < _LONG_SCAN_MS or
                                                       elapsed(now, self._slow_ms) >= 2 * SLOW_MS):
            self._slow_ms = now
            self._poll_buttons(now)
            if elapsed(now, self._rate_ms) >= _RATE_MS:
                self.scan_rate = ((self.scans - self._rate_scans) & _MASK) * 1000 // elapsed(now, self._rate_ms)
                self._rate_ms = now
                self._rate_scans = self.scans
            for part in self.parts:
                part.tick(self, now)
            self.show(now)
            self.hw.feed_watchdog()    # every SLOW_MS (2 x at most): a call less a scan
        for part in self.parts:
            part.scan(self, now)

    def _read(self):
        """Read the switch rows (``rows``)."""
        heap_lock()                    # read_rows' frame on the stack (scacchiera/__init__.py)
        try:
            self.hw.read_rows(self.rows)
        finally:
            heap_unlock()
        self.scans = (self.scans + 1) & _MASK

    def crash(self, e):
        """The loop failed: say why and save what can be saved (a reset follows)."""
        try:
            self.protocol.send({"ev": "crash", "error": "%r" % e})
        except Exception:
            pass
        parts = self.parts
        for i in range(len(parts) - 1, -1, -1):
            try:
                parts[i].crash(self)
            except Exception:
                pass

    def show(self, now):
        """Redraw if something changed; write the strip only if the pixels did."""
        if self.holder is None and not self.app.dirty and (now // BLINK_MS) & 1 == self._blink:
            return                     # the usual case, in a frame of 11 words (step's docstring)
        self._draw(now)

    def _draw(self, now):
        holder = self.holder
        if holder is not None:
            if not holder.draw(self, self.back, now):
                return
        else:
            app = self.app
            self._blink = (now // BLINK_MS) & 1
            frame = app.compose()
            for part in self.parts:
                part.shown(self, frame, now)
            app.palette.render(frame, self.back, now)
        if self.back != self.front:
            self.front, self.back = self.back, self.front
            self.hw.write_pixels(self.front)

    def still(self):
        """The board is still and the game saved (the journal, after a move's write). A dozen plies
        after the last collection, collect the garbage now: MicroPython collects when an allocation
        finds no room, and that allocation is most often a move's commit, the step that lights a
        reply's lift (docs/firmware.md: a collection's time)."""
        ply = self.app.game.position.ply()
        if ply - self._collected >= _GC_PLIES or ply < self._collected:
            self._collected = ply
            gc.collect()

    def held(self, name):
        """Is button ``name`` held (as last polled; at boot, as found at power-up)?"""
        names = self.hw.button_names
        return name in names and self._buttons >> names.index(name) & 1 == 1

    def _poll_buttons(self, now):
        """A button counts once it reads the same twice, SLOW_MS apart: the display's menu takes it
        first (when there is one), else its press runs ``buttons[name]``."""
        mask = self.hw.buttons()
        if mask != self._button_sample:
            self._button_sample = mask
            return
        pressed = mask & ~self._buttons
        self._buttons = mask
        if pressed:
            self._pressed(pressed, now)

    def _pressed(self, pressed, now):
        names = self.hw.button_names
        for i in range(len(names)):
            if pressed >> i & 1:
                self.protocol.send({"ev": "button", "name": names[i]})
                if self.menu is not None and self.menu.button(self, names[i], now):
                    continue
                action = self.buttons.get(names[i])
                if action is not None:
                    action(self, now)

    # -- what the protocol (and the buttons) ask ------------------------------------------

    def hold(self, part):
        """``part`` (in ``parts``) takes the board: the game gets no scans, ``part.draw`` the LEDs."""
        self.holder = part
        self.app.dirty = True

    def let_go(self, now):
        """The game takes the board back and looks at it afresh."""
        self.holder = None
        self.app.boot(self.rows, now)
        self.app.dirty = True

    def _event(self, ev):
        """The board's gestures that reach beyond the game: a hint asked, who plays (opponent.py)."""
        kind = ev["kind"]
        if kind == "suggest_asked" or kind == "opponent_asked":
            from .opponent import gesture      # loaded only then (RAM)
            gesture(self, ev)

    def set_option(self, name, value, save=True):
        """Change an option (options.py) and save it in the journal; ValueError for a bad name or value."""
        if options.check(name, value)[4] == options.RUNNER:
            if name == "opponent" or name == "engine_side":
                from .opponent import attach     # loaded only when someone other than a person plays
                attach(self, name, value, save)
            else:
                setattr(self, name, value)
            if name == "brightness":
                self.app.palette = Palette(self.led_of_square, self.led_order,
                                           max(1, self.max_level * self.brightness // 100))
            elif name == "usb":
                if self.protocol.host is not None:
                    from .link.hosts import leave
                    leave(self.protocol)         # the next host is told (or forced) by the new setting
            else:
                self.app.game.machine = -1 if self.opponent == "person" else "wb".index(self.engine_side)
        else:
            self.app.game.set_option(name, value)
        self.app.dirty = True
        if save:
            self.journal.option(name, value)


def _undo(runner, now):
    """The undo button: take the last move back (not while a part holds the board)."""
    if runner.holder is None:
        runner.app.game.take_back_turn()
