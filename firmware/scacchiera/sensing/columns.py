"""How long the scan waits after each row, from what the columns measured at boot.

When the scan releases a row, the columns its closed reeds held LOW charge back through
their pull-ups; read the next row sooner and a piece shows once more one row further on.
How long that takes depends on the wiring (ribbons, strips, pull-ups: hardware/pcb), not
on a guess: hal.py times each column from LOW back to 1 (``Hardware.measure_columns``, at
boot and when diagnostics start) and this module turns the times into the scan's longest
wait and into what the person building the board is told.
"""

from .. import const

MARGIN = const(2)          # the wait: the slowest column's time, twice, ...
MARGIN_US = const(2)       # ... and 2 us (the timer's tick, the poll's own time)
LIMIT_US = const(500)      # a column not back to 1 by then is held LOW: a short, a bad pin


def settle_us(times):
    """The scan's longest wait after a row (us) for these recovery times (us, one a column); the
    columns held LOW do not count (they would make every row wait for nothing)."""
    slowest = 0
    for t in times:
        if slowest < t <= LIMIT_US:
            slowest = t
    return slowest * MARGIN + MARGIN_US


def report(times, pins, slow_us):
    """What ``status`` and ``diag`` say of the columns: the wait, each time, and a sentence for
    each column that is held LOW or slower than ``slow_us`` (board_config.ROW_SETTLE_US)."""
    problems = []
    for column in range(len(times)):
        t = times[column]
        where = "column %d (GP%d)" % (column, pins[column])
        if t > LIMIT_US:
            problems.append(where + " stays LOW: a short to GND, a solder bridge or a damaged pin")
        elif t > slow_us:
            problems.append("%s takes %d us to recover: fit its 10 kOhm pull-up (hardware/pcb)" % (where, t))
    return {"settle_us": settle_us(times), "recovery_us": list(times), "problems": problems}
