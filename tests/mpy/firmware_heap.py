"""Heap in use after the firmware boots and plays a long game through its main loop (MicroPython).

The real main loop (start.build / start.serve, the runner, protocol, journal)
on a FakeHardware: hands play PLIES plies, each lift and place scanned at
5 ms in simulated time, every move journalled on the (in-memory) flash.
Then, after a real collection (run.mjs calls ``__after_gc__``), the live
heap. The fake flash's bytes live in the heap here but not on the Pico, so
they are reported apart and subtracted.

Usage: firmware_heap.py PLIES LIMIT_BYTES [BUILD [LEVEL | display | fake-display | no-display |
model-only]]. With LEVEL the board's
engine plays black at that level (``set opponent engine LEVEL``: its part and
tables loaded, searching in slices between the scans) and the hands play
what its LEDs show; without it the hands play both sides. BUILD is the firmware as
deployed (``python -m host_tools.deploy BUILD``: .mpy files, loaded as on the
Pico); without it the sources on the path are used. The flash is the
in-memory filesystem under /flash (outside the Python heap, as on the Pico).
``display``: the optional OLED found at boot (hal.Oled drawing with framebuf
onto the SSD1306 model on the fake I2C bus); ``fake-display``: a FakeDisplay
(the display's logic alone, on the same FakeHardware as the plain run);
``no-display`` and ``model-only``: hal.py and the fake machine loaded, no
panel found (the model, at another address, in the second): the differences
between these runs are the display's own cost (docs/display.md).
Prints the figures; exits 1 over the limit. Also prints the cost of one quiet
scan of the loop (us), for ``make bench``.

``pad=N`` (last): N bytes held from the start, before the firmware loads, so that every block after
them lands elsewhere; their own cost is left out of the figure. The port's collector is
conservative (a word of a block that looks like a pointer into the heap keeps what it points at),
so how much garbage it keeps depends on where the blocks land: tests/test_firmware.py takes the
least of a few such layouts.
"""

import gc
import sys
import time

padding = None
padding_cost = 0
if sys.argv[-1].startswith("pad="):
    before = gc.mem_alloc()
    padding = bytearray(int(sys.argv.pop()[4:]))
    padding_cost = gc.mem_alloc() - before

if len(sys.argv) > 3 and sys.argv[3] != "-":
    sys.path.insert(0, sys.argv[3])

from scacchiera import start  # noqa: E402  (firmware/scacchiera/start.py)
from fakehal import FakeHardware
from player import Player
from long_game import choose
from measure import heap_verdict, measure_heap
from scacchiera.storage.fs import OsFS

PERIOD_US = 5000
plies = int(sys.argv[1])
limit = int(sys.argv[2])
level = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4].isdigit() else 0


class Quiet(FakeHardware):
    """Keeps no copy of what the board sends (the host would read it)."""

    def serial_write(self, data, start=0):
        self.lines_sent = getattr(self, "lines_sent", 0) + 1
        return len(data) - start


display = None
if len(sys.argv) > 4 and sys.argv[4] in ("display", "no-display", "model-only"):
    import hal
    import machine
    from ssd1306_model import Ssd1306Model
    machine.reset_board()
    if sys.argv[4] != "no-display":       # model-only: the model at an address the firmware does not use
        machine.i2c_devices[0x3C if sys.argv[4] == "display" else 0x3D] = Ssd1306Model()
    display, why = hal.find_display()
    if display is None and sys.argv[4] == "display":
        raise SystemExit("no display: " + why)
if len(sys.argv) > 4 and sys.argv[4] == "fake-display":
    from fakehal import FakeDisplay
    display = FakeDisplay()
hw = Quiet(fs=OsFS("/flash/games"), display=display)
hw.set_squares(list(range(16)) + list(range(48, 64)))
runner = start.build(hw, PERIOD_US)
hands = Player(hw, lambda n: start.serve(runner, n), PERIOD_US)
game = runner.app.game
if level:
    runner.set_option("opponent", "engine %d" % level)
seed = 12345
while game.position.ply() < plies and game.result is None:
    seed = (seed * 1103 + 12345) & 0xFFFF
    before = game.position.ply()
    if level and game.position.turn == 1:
        waited = 0
        while game.tracker.required < 0 and waited < 600000:
            hands.wait(100)           # the engine thinks, a node after each scan
            waited += 100
        move = game.tracker.required
    else:
        move = choose(game.position, seed)
    hands.play(game.position, move)
    if game.position.ply() != before + 1:
        hands.wait(1500)              # a capture may settle longer
    if game.position.ply() != before + 1:
        raise SystemExit("the board did not take move %d (state %d)" % (before + 1, game.tracker.state))
hands.wait(2000)
if runner.journal.dirty or runner.journal.errors:
    raise SystemExit("journal not flushed")

# A quiet scan, timed: the whole step (scan, debounce, tracker tick, slices, watchdog).
t0 = time.ticks_us()
n = 2000
for _ in range(n):
    runner.step()
quiet_us = time.ticks_diff(time.ticks_us(), t0) / n


def report(used):
    print("plies %d" % game.position.ply())
    if display is not None:
        print("display on: %d redraws, screen %r" % (runner.display.draws, runner.display.lines[:3]))
    print("loop_step_us %.1f us (one quiet scan of the main loop, fake hardware)" % quiet_us)
    print("journal_bytes %d bytes" % runner.journal.size)
    print("heap_after_game %d bytes (%s; the test's fake hardware included%s)" % (
        used, "the deployed .mpy build" if len(sys.argv) > 3 and sys.argv[3] != "-" else "compiled from source",
        "; the engine playing black at level %d" % level if level else ""))
    heap_verdict(used, limit)


__after_gc__ = measure_heap(lambda used: report(used - padding_cost))
