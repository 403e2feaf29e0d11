"""Timing and heap measurement for the MicroPython scripts, the same on both Pythons.

The WebAssembly port collects garbage only between runs, so a live-heap
figure comes from the ``__after_gc__`` hook tools/micropython/run.mjs calls
after a real collection; on a Pico (or CPython) it is taken at once.
"""

import gc
import sys
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def heap_verdict(used, limit):
    """Print the figure against ``limit``; exit 1 over it."""
    if used > limit:
        print("heap over limit: %d > %d" % (used, limit))
        sys.exit(1)
    print("heap ok: %d <= %d" % (used, limit))


def measure_heap(report):
    """Call ``report(bytes in use)`` after a collection; returns the hook for run.mjs (``__after_gc__``)."""
    def after_gc():
        gc.collect()
        report(gc.mem_alloc())
    if sys.platform != "webassembly":
        gc.collect()
        report(gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0)
    return after_gc
