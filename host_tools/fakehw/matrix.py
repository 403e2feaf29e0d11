"""The reed matrix as a circuit, built from firmware/board_config.py.

Tests drive it exactly as the firmware drives the real pins: `drive(pin, 0)`
on one row, `gpio_in()` to read every column in one word, `release(pin)` to
let the row float again. Because the wires come from board_config, a wiring
change shows up in every test that scans through this model.

The model is digital with three strengths: a driven pin (or a pressed button
shorting a pin to GND) is strong, a pull-up or pull-down is weak, anything
else floats. A level spreads through closed reeds the way current flows:
with diodes only column -> row, so a LOW row pulls down the columns of its
own closed reeds and nothing else; without diodes both ways, which is how
ghost squares appear. A floating pin reads 0 here (on the chip it is
undefined, which is why every input has a pull).

Plain Python that also runs on MicroPython.
"""

try:
    import board_config
except ImportError:  # on the host, run from a checkout: firmware/ holds it
    import sys
    from os import path

    sys.path.insert(0, path.join(path.dirname(path.dirname(path.dirname(path.abspath(__file__)))), "firmware"))
    import board_config

NUM_GPIOS = 30  # GPIO_IN bits 0..29 on the RP2040
_STRONG = 2
_WEAK = 1


class ShortCircuit(Exception):
    """Two pins driven to opposite levels are joined through closed reeds."""


class ReedMatrix:
    """Which reeds are closed, which pins are driven, and what each pin reads.

    `diodes=False` models a matrix built without them, to show ghosting.
    `pull_ups=True` starts with the column and button pull-ups enabled, as the
    firmware configures them; a fake machine.Pin passes False and calls
    `pull()` itself, so a firmware that forgets a pull-up reads a floating 0.
    """

    def __init__(self, config=None, diodes=True, pull_ups=True):
        self.config = config if config is not None else board_config
        self.diodes = diodes
        self.closed = bytearray(64)  # by square: 1 = a magnet closes its reed
        self._driven = {}  # pin -> 0/1
        self._pulls = {}  # pin -> 0/1 (pull-down/pull-up)
        self._pressed = {}  # button pin -> True while shorted to GND
        self._levels = None  # cache, dropped on every change
        self.revision = 0  # bumped when reeds, buttons or pulls change (fake machine caches by it)
        self._square_at = {}  # (row pin, col pin) -> square
        cfg = self.config
        for square in range(64):
            row, col = cfg.square_to_rc(square)
            self._square_at[(cfg.ROW_PINS[row], cfg.COL_PINS[col])] = square
        if pull_ups:
            for pin in cfg.COL_PINS:
                self._pulls[pin] = 1
            for _name, pin in cfg.BUTTONS:
                self._pulls[pin] = 1

    # --- the board: pieces and buttons ---

    def place(self, square):
        """A magnet over `square` closes its reed."""
        self.closed[square] = 1
        self.revision += 1
        self._levels = None

    def lift(self, square):
        self.closed[square] = 0
        self.revision += 1
        self._levels = None

    def set_squares(self, squares):
        """Exactly these squares are occupied."""
        for square in range(64):
            self.closed[square] = 0
        for square in squares:
            self.closed[square] = 1
        self.revision += 1
        self._levels = None

    def occupied(self):
        return [square for square in range(64) if self.closed[square]]

    def press(self, name, down=True):
        """Hold (or let go of) the button called `name`."""
        pin = self.config.button_pin(name)
        if pin is None:
            raise ValueError("no button " + name)
        self.short_to_ground(pin, down)

    def short_to_ground(self, pin, shorted=True):
        """`pin` joined to GND: a pressed button, or a fault (a solder bridge, a damaged pin)."""
        _check_pin(pin)
        if shorted:
            self._pressed[pin] = True
        else:
            self._pressed.pop(pin, None)
        self.revision += 1
        self._levels = None

    # --- the pins, as the firmware sees them ---

    def drive(self, pin, level):
        """Make `pin` an output at `level` (0 or 1)."""
        _check_pin(pin)
        self._driven[pin] = 1 if level else 0
        self._levels = None

    def release(self, pin):
        """Make `pin` an input again (high impedance)."""
        _check_pin(pin)
        self._driven.pop(pin, None)
        self._levels = None

    def pull(self, pin, level):
        """Enable a pull-up (1), a pull-down (0), or no pull (None)."""
        _check_pin(pin)
        if level is None:
            self._pulls.pop(pin, None)
        else:
            self._pulls[pin] = 1 if level else 0
        self.revision += 1
        self._levels = None

    def read(self, pin):
        """The level the pad sees: 0 or 1."""
        _check_pin(pin)
        return (self.gpio_in() >> pin) & 1

    def gpio_in(self):
        """All pin levels as one int, bit n = GPIO n, as SIO GPIO_IN reads them."""
        if self._levels is None:
            self._levels = self._solve()
        return self._levels

    # --- the circuit ---

    def _edges(self):
        """Closed reeds as current paths: node -> nodes current can flow to."""
        forward = {}
        backward = {}
        for (row_pin, col_pin), square in self._square_at.items():
            if not self.closed[square]:
                continue
            _link(forward, backward, col_pin, row_pin)  # through the diode
            if not self.diodes:
                _link(forward, backward, row_pin, col_pin)
        return forward, backward

    def _solve(self):
        forward, backward = self._edges()
        strong = {}
        for pin, level in self._driven.items():
            strong[pin] = level
        for pin in self._pressed:
            if strong.get(pin, 0) == 1:
                raise ShortCircuit("GP%d driven HIGH while its button shorts it to GND" % pin)
            strong[pin] = 0
        low = {}
        high = {}
        for pin, level in strong.items():
            # A LOW pulls down whatever can push current into it; a HIGH
            # lifts whatever it can push current into.
            _spread(pin, _STRONG, backward if level == 0 else forward, low if level == 0 else high, strong)
        for pin, level in self._pulls.items():
            if pin not in strong:
                _spread(pin, _WEAK, backward if level == 0 else forward, low if level == 0 else high, strong)
        word = 0
        for pin in range(NUM_GPIOS):
            lo = low.get(pin, 0)
            hi = high.get(pin, 0)
            if lo == _STRONG and hi == _STRONG:
                raise ShortCircuit("GP%d joins pins driven HIGH and LOW through closed reeds" % pin)
            if hi > lo:
                word |= 1 << pin
        return word


def _check_pin(pin):
    if not 0 <= pin < NUM_GPIOS:
        raise ValueError("no GPIO %d" % pin)


def _link(forward, backward, a, b):
    """Current can flow from node a to node b."""
    forward.setdefault(a, []).append(b)
    backward.setdefault(b, []).append(a)


def _spread(start, strength, edges, reached, strong):
    """Mark every node the source at `start` reaches; a strongly held node stops it."""
    todo = [start]
    seen = {start: True}
    while todo:
        node = todo.pop()
        if reached.get(node, 0) < strength:
            reached[node] = strength
        if node != start and node in strong:
            continue
        for nxt in edges.get(node, ()):
            if nxt not in seen:
                seen[nxt] = True
                todo.append(nxt)
