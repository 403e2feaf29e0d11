"""Simulated time for the fake hardware: ticks that move only when the firmware sleeps.

The firmware's loop paces itself with ``sleep_us``; here that call is what
advances the clock, so a test runs hours of board time in seconds and is
exactly repeatable. Ticks wrap at 2**30 like MicroPython's and stay small
ints (no allocation on MicroPython). Plain Python that also runs on MicroPython.
"""

_MASK = 0x3FFFFFFF


class Reset(BaseException):
    """The firmware called machine.reset() (or the fake hardware's reset()): the board reboots."""


class Clock:
    def __init__(self, ms=0):
        self._ms = ms & _MASK
        self._us = (ms * 1000) & _MASK
        self._sub = 0

    def ticks_ms(self):
        return self._ms

    def ticks_us(self):
        return self._us

    def sleep_us(self, us):
        if us <= 0:
            return
        self._us = (self._us + us) & _MASK
        sub = self._sub + us
        self._ms = (self._ms + sub // 1000) & _MASK
        self._sub = sub % 1000

    def sleep_ms(self, ms):
        self.sleep_us(ms * 1000)

    def ticks_diff(self, a, b):
        d = (a - b) & _MASK
        return d - _MASK - 1 if d > _MASK >> 1 else d

    def ticks_add(self, a, b):
        return (a + b) & _MASK
