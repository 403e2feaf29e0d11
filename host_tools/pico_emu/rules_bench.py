"""The rules' speed on the emulated RP2040 (``make bench``; ``python -m host_tools.pico_emu.rules_bench``).

The firmware as deployed (machine code where it is written so), MicroPython
v1.28.0 at 125 MHz in rp2040js: Ctrl-C stops the board's loop and the raw
REPL runs tests/mpy/bench_rules.py (perft with a push and a pop at every
node, Kiwipete's legal moves listed), then ``Position.perft`` as the rules
count it (the last ply's moves counted, not played) and a push with its pop.
Issue 26's goals for the rules: perft >= 25,000 nodes/s, Kiwipete's legal
moves <= 2 ms. XIP flash cache misses are not modelled.
"""

import os
import re

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing

ROOT = _paths._ROOT

MORE = """
import gc

def bulk(fen, depth):
    p = Position.from_fen(fen)
    gc.collect()        # each figure from the same heap: a collection inside it is its own garbage's
    t = time.ticks_us()
    n = p.perft(depth)
    us = time.ticks_diff(time.ticks_us(), t)
    return n, n * 1000000 // us

for name, fen, depth in (("start", START, 3), ("kiwipete", KIWIPETE, 2)):
    n, nps = bulk(fen, depth)
    print("bulk_%s_d%d %d nodes %d nodes/s" % (name, depth, n, nps))
p = Position.from_fen(KIWIPETE)
moves = p.legal_moves()
gc.collect()
t = time.ticks_us()
for m in moves:
    p.push(m)
    p.pop()
print("push_pop_us %d us" % (time.ticks_diff(time.ticks_us(), t) // len(moves)))
print("DONE")
"""


def measure():
    """The figures' lines, ``name value unit``, as the REPL printed them."""
    with open(os.path.join(ROOT, "tests", "mpy", "bench_rules.py")) as f:
        code = f.read()
    hands = PicoHands()
    try:
        out = hands.repl(code + MORE, "DONE", limit_ms=120000)
    finally:
        hands.emu.close()
    return re.findall(r"(?:perft|kiwipete|bulk|push_pop)_\w+ [^\r\n]*", out)


def main():
    why = missing()
    if why:
        print("== Rules on the emulated Pico: skipped (%s)" % why)
        return
    print("== Rules on the emulated Pico (MicroPython v1.28.0, 125 MHz, the .mpy build; XIP misses not modelled)")
    for line in measure():
        print("  " + line)
    print("  (goals: perft >= 25000 nodes/s; Kiwipete's legal moves <= 2000 us)")


if __name__ == "__main__":
    main()
