"""Heap in use after importing the rules and playing a long game (MicroPython).

Whatever it imports is counted in the figure, so it imports only the rules and
long_game.py (the move choice shared with firmware_heap.py, a few hundred bytes).

Usage: rules_heap.py PLIES LIMIT_BYTES. Prints the figures; exits 1 over the limit.
"""

import gc
import sys

from scacchiera.rules import Position
from long_game import choose


def long_game(plies):
    """A reproducible game of ``plies`` plies that never ends early."""
    p = Position()
    seed = 12345
    while p.ply() < plies:
        seed = (seed * 1103 + 12345) & 0xFFFF
        p.push(choose(p, seed))
    return p


game = long_game(int(sys.argv[1]))
limit = int(sys.argv[2])


def report(used):
    print("plies %d" % game.ply())
    print("heap in use after import and a %d-ply game: %d bytes" % (game.ply(), used))
    if used > limit:
        print("heap over limit: %d > %d" % (used, limit))
        sys.exit(1)
    print("heap ok: %d <= %d" % (used, limit))


def __after_gc__():
    # The WebAssembly port collects only between runs: tools/micropython/run.mjs
    # calls this after a real collection, with ``game`` still alive.
    gc.collect()
    report(gc.mem_alloc())


if sys.platform != "webassembly":   # on a Pico, gc.collect() works in place
    gc.collect()
    report(gc.mem_alloc())
