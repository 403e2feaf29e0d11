"""Shared by the firmware tests: the fake hardware on the path, a board booted on it, its state."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKEHW = os.path.join(ROOT, "host_tools", "fakehw")
if FAKEHW not in sys.path:
    # Appended, not first: the CPython tests use fakehal/memfs/player/simclock from
    # here; only the subprocess and MicroPython runs need the fake `machine` first.
    sys.path.append(FAKEHW)

from scacchiera import start  # noqa: E402  (firmware/scacchiera/start.py)
from fakehal import FakeHardware  # noqa: E402
from memfs import MemFS, PowerCut  # noqa: E402
from player import Player  # noqa: E402
from simclock import Reset  # noqa: E402

from scacchiera.rules import Position  # noqa: E402

PERIOD_US = 5000
START_SQUARES = list(range(16)) + list(range(48, 64))


def run_on_the_pins(script, flash, *args, radio=False):
    """A tests/mpy check of the whole firmware on the fake pins under CPython: the fake ``machine`` first
    on the path (as mpy_runner.run_micropython puts it for MicroPython), ``flash`` its folder;
    ``radio``: the fake ``bluetooth`` before them (a Pico W)."""
    import subprocess
    paths = [os.path.join(FAKEHW, "radio")] if radio else []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths + [FAKEHW, os.path.join(ROOT, "firmware")]))
    return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "mpy", script), str(flash)] + list(args),
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


class Board:
    """A board booted on FakeHardware: its runner, its hands, the lines it sent."""

    def __init__(self, fs=None, rows=None, squares=START_SQUARES, cause="power_on", held=(), display=None,
                 radio=False):
        self.hw = FakeHardware(fs=fs, display=display)
        if radio:                        # a Pico W (the fake bluetooth on the path: tests/test_ble.py)
            import ble_radio
            self.hw.parts = (ble_radio.part(self.hw),)
        self.hw.cause = cause
        if rows is not None:
            self.hw.occupied[:] = rows
        else:
            self.hw.set_squares(squares)
        for name in held:
            self.hw.press(name)
        self.runner = start.build(self.hw, PERIOD_US)
        self.hands = Player(self.hw, self.run, PERIOD_US)

    @property
    def game(self):
        return self.runner.app.game

    def run(self, steps):
        start.serve(self.runner, steps)

    def wait(self, ms):
        self.hands.wait(ms)

    def play(self, *ucis):
        for uci in ucis:
            self.hands.play_uci(self.game, uci)

    def set_up(self, most=8):
        """The hands do what the LEDs ask until the board is in sync: the pieces off the squares lit
        to empty, onto those lit to fill (a Chess960 set-up's steps: tracking/setup_guide.py)."""
        for _ in range(most):
            if self.game.in_sync():
                return
            to_empty, to_fill = self.game.sync_squares()
            for sq in to_empty:
                self.hands.lift(sq)
            for sq in to_fill:
                self.hands.place(sq)
            self.wait(200)
        assert self.game.in_sync(), "still out of sync"

    def send(self, line, steps=4):
        self.hw.send(line)
        self.run(steps)

    def lines(self):
        return self.hw.take()

    def replies(self, cmd=None):
        return [l for l in self.hw.take() if "re" in l and (cmd is None or l["re"] == cmd)]

    def state(self):
        """What must survive a power cut: the game, its number and the options."""
        game = self.game
        pos = game.position
        o = game.options
        return {"game": self.runner.journal.game_id, "start": pos.start_fen,
                "moves": [pos.uci(m) for m in pos.move_stack], "result": game.result,
                "options": (o.hints, o.takeback, o.settle_ms, o.lang, pos.profile, self.runner.brightness)}


def rows_of(fen):
    """The switch rows of a position's pieces."""
    return Position(fen).occupancy()


def copy_fs(fs):
    new = MemFS(fs.mode)
    new.files = dict((name, bytearray(data)) for name, data in fs.files.items())
    new.dirs = list(fs.dirs)
    return new
