"""Under MicroPython: the columns' electrical model (host_tools/fakehw/columns.py) and hal.py's wait.

Rev 1's columns (the Pico's own pull-up at its datasheet's worst) read each piece once more one
row further on when the scan waits a fixed 20 us after a row; the wait hal.py measures at boot
reads the board right, and so does rev 2 (a 10 kOhm pull-up per column) at 20 us. Then the scan
allocates nothing with the model in place. Needs host_tools/fakehw first on the path.
"""

import micropython

import machine
import hal
from columns import ColumnLoads
from fakehal import LoopSerial

PIECES = [0, 27, 45]                      # a1, d4, f6
GHOSTS = sorted(PIECES + [sq + 8 for sq in PIECES])


def occupied(hw):
    rows = hw.read_rows(bytearray(8))
    return [sq for sq in range(64) if rows[sq >> 3] >> (sq & 7) & 1]


def main():
    for pull_up, at_20 in ((None, GHOSTS), (10000, PIECES)):
        machine.reset_board(columns=ColumnLoads(pull_up_ohms=pull_up))
        machine.board.set_squares(PIECES)
        hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/column-settle-games")
        measured = hw.settle_us
        hw.set_settle(20)
        got = occupied(hw)
        assert got == at_20, (pull_up, got)
        hw.set_settle(measured)
        got = occupied(hw)
        assert got == PIECES, (pull_up, got)
        rows = bytearray(8)
        hw.read_rows(rows)
        micropython.heap_lock()
        try:
            for _ in range(200):
                hw.read_rows(rows)
        finally:
            micropython.heap_unlock()
        print("pull-up %s: at 20 us %s, measured wait %d us reads right, scans allocate nothing"
              % (pull_up, "ghosts" if at_20 == GHOSTS else "right", measured))
    print("ok")


main()
