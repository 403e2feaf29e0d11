"""The firmware's per-scan cost (MicroPython and CPython): prints "name value unit" lines for make bench.

Needs host_tools/fakehw first on the path (hal.py imports the fake machine).

- hal_read_rows_us: hal.Hardware.read_rows with pins that cost nothing (stub
  Pin objects, a dict for mem32) and no settle wait: the Python work of one
  matrix scan. On the Pico the pin calls are C functions, so this bounds it.
- loop_step_us: one quiet iteration of the main loop (runner.step) on
  FakeHardware: debounce, tracker tick, the 10 ms slice, the watchdog.
- loop_step_fakepins_us: the same with hal.py on the fake machine's
  electrical model (the model's own cost included: not a device figure).
"""


import hal
import machine
from scacchiera import start  # noqa: E402  (firmware/scacchiera/start.py)
from fakehal import FakeHardware, LoopSerial
from measure import ticks_us, ticks_diff


START = list(range(16)) + list(range(48, 64))
N = 3000


def timed(fn, n=N):
    t = ticks_us()
    for _ in range(n):
        fn()
    return ticks_diff(ticks_us(), t) / n


class StubPin:
    def value(self, v=None):
        return 1


class NoClock:
    def sleep_us(self, us):
        pass

    def ticks_ms(self):
        return 0

    def ticks_us(self):
        return 0


def main_bench():
    machine.reset_board()
    for sq in START:
        machine.board.place(sq)
    hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/bench-games")
    runner = start.build(hw, 5000)
    runner.run(200)
    print("loop_step_fakepins_us %.1f us" % timed(runner.step))

    rows = bytearray(8)
    hw._rows = tuple(StubPin() for _ in range(8))
    hw._mem = {0xD0000004: 0x3FC}
    hw._sleep_us = NoClock().sleep_us
    print("hal_read_rows_us %.1f us" % timed(lambda: hw.read_rows(rows)))

    fake = FakeHardware()
    fake.set_squares(START)
    runner = start.build(fake, 5000)
    runner.run(200)
    print("loop_step_us %.1f us" % timed(runner.step))


main_bench()
