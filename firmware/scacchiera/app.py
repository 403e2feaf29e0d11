"""The application: switches -> debounce -> game -> LED frame -> palette -> pixels.

Everything the board does, with no hardware in it: the Pico's ``main.py``
feeds it raw switch rows and the time and writes its pixels to the strip;
the simulator and the tests do the same with simulated switches. One path
for data, one object to drive.
"""

from .sensing.debounce import Debouncer
from .tracking.tracker import LIFTED, PENDING
from .game.controller import Game
from .leds import frame as led_frame
from .leds.palette import Palette


def rows_to_occupancy(rows, out):
    """8 rank bytes (bit f = file f) -> 64 bytes of 0/1."""
    for sq in range(64):
        out[sq] = (rows[sq >> 3] >> (sq & 7)) & 1
    return out


class App:
    def __init__(self, fen=None, profile="fide",
                 led_of_square=None, led_order="GRB", brightness_cap=255, listener=None,
                 variant=None, seed=None):
        self.listener = listener
        self.listeners = []          # more listeners beside ``listener``: the serial protocol, the journal
        self.game = Game(fen, profile, listener=self._event, variant=variant, seed=seed)
        self.debouncer = Debouncer(self._change)     # its delay is the tracker's held_ms too
        self.frame = bytearray(64)
        self.palette = Palette(led_of_square or bytes(range(64)), led_order, brightness_cap)
        self.dirty = True            # the frame may have changed: recompose before the next write
        self.asked = None            # squares a program on the USB link asked to light (dgt.py, chesslink.py)

    def _event(self, event):
        self.dirty = True
        if self.listener is not None:
            self.listener(event)
        for listener in self.listeners:
            listener(event)

    def _change(self, square, present, now):
        """A debounced change; ``present`` 2: a change shorter than the debounce (sensing/debounce.py),
        which while a move is in the hands is both its edges (a capture made fast, a quick tap on a
        promoted piece, a magnet sliding past); at rest a wobble, no gesture."""
        self.dirty = True
        game = self.game
        if present == 2:
            tracker = game.tracker
            if tracker.state != LIFTED and tracker.state != PENDING:
                return
            present = tracker.physical[square]
            game.change(square, 1 - present, now)
        game.change(square, present, now)

    def boot(self, rows, now=0):
        """The switches as found at power-on: taken as they are, then compared with the game."""
        self.debouncer.reset(rows)
        self.game.board_mismatch(rows_to_occupancy(rows, bytearray(64)), now)
        self.dirty = True

    def scan(self, rows, now):
        """One scan of the matrix (8 rank bytes); True if a reed's change reached the game (its
        LEDs are due at once; a move it committed waits for them to be told: game.lights_first).
        Allocates nothing unless something changed."""
        game = self.game
        tracker = game.tracker
        seq = tracker.seq
        self.debouncer.scan(rows, now)
        state = tracker.state
        game.tick(now)
        if tracker.state != state or game.redraw:
            game.redraw = False        # a clock's last seconds, an absent player: no event says so
            self.dirty = True
        return tracker.seq != seq

    def compose(self):
        """The frame of meanings now."""
        if self.dirty:
            led_frame.compose(self.game, self.frame, self.asked)
            self.dirty = False
        return self.frame

    def ask(self, square, on):
        """A program on the USB link (a DGT or ChessLink host) asks for ``square`` lit, or dark; -1: all
        dark. The 64 bytes are made with its first request (RAM)."""
        if self.asked is None:
            if not on:
                return
            self.asked = bytearray(64)
        if square < 0:
            for sq in range(64):
                self.asked[sq] = 0
        else:
            self.asked[square] = 1 if on else 0
        self.dirty = True

