"""Under MicroPython: a Ctrl-C or a crash that lands inside a locked stretch leaves the heap usable.

The loop locks the heap around calls that allocate nothing (scacchiera/__init__.py). The REPL tools
send Ctrl-C twice; the second can arrive after a lock and before its unlock, and the loop then
stopped with the heap locked: the REPL's first line was a MemoryError and the board was stuck (the
emulated board's bench and make deploy's move from stock MicroPython met it). start.serve unlocks
it, for a Ctrl-C and for a crash. Needs host_tools/fakehw first on the path.
"""

import micropython

import machine
import hal
from fakehal import LoopSerial
from simclock import Reset
from scacchiera import start


def board(fail_at, error):
    """A board whose loop, at its ``fail_at``-th watchdog feed (one each 10 ms tick), locks the heap
    and raises ``error``."""
    machine.reset_board()
    serial = LoopSerial()
    hw = hal.Hardware(clock=machine.clock, serial=serial, root="/tmp/ctrl-c-games")
    runner = start.build(hw)
    feeds = [0]
    feed = hw.feed_watchdog

    def interrupted_feed():
        feeds[0] += 1
        if feeds[0] == fail_at:
            micropython.heap_lock()
            raise error
        feed()
    hw.feed_watchdog = interrupted_feed
    return runner, serial


def main():
    runner, _serial = board(20, KeyboardInterrupt())
    try:
        start.serve(runner, 200)
        raise AssertionError("the Ctrl-C did not stop the loop")
    except KeyboardInterrupt:
        pass
    room = bytearray(1000)                 # MemoryError here if the heap stayed locked
    print("ctrl-c: stopped, the heap usable (%d bytes)" % len(room))
    runner, serial = board(20, ValueError("a bug"))
    try:
        start.serve(runner, 200)
        raise AssertionError("the crash did not reset the board")
    except Reset:
        pass
    room = bytearray(1000)
    crashes = [line for line in serial.sent if '"crash"' in line]
    assert len(crashes) == 1 and "a bug" in crashes[0], serial.sent[-3:]
    print("crash: told, reset, the heap usable (%d bytes)" % len(room))
    print("ok")


main()
