"""Millisecond timestamps that wrap, as MicroPython's time.ticks_ms() does.

Logic never reads a clock: every call is handed ``now`` (ms). On the Pico that
is ``time.ticks_ms()``, which wraps at 2**30; in the simulator and the tests it
is simulated time. Differences go through ``elapsed`` so both work.
"""

from . import const

_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)


def elapsed(now, then):
    """Milliseconds from ``then`` to ``now`` (negative if ``then`` is later), wrap-safe."""
    d = (now - then) & _TICKS_MASK
    return d - _TICKS_MASK - 1 if d >= _TICKS_HALF else d   # never 2**30: a big int on MicroPython
