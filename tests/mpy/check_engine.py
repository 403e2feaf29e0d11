"""The engine under MicroPython: the same moves as CPython, no allocation while searching, its heap.

Usage: check_engine.py FENS_FILE MAX_NODES
Prints one line per position, ``<uci> <nodes> <depth> <score>``, with the
search run in slices of 300 nodes under micropython.heap_lock() (start()
may allocate: the legal moves, a copy of the history; a searched node must
not). Then ``engine heap: N`` (the Engine object, with its table and
buffers) and ``nodes/s: N`` for the whole run.
"""

import gc
import sys

import micropython

from measure import ticks_us, ticks_diff
from scacchiera.rules import Position
from scacchiera.engine import Engine


def main():
    path = sys.argv[1]
    max_nodes = int(sys.argv[2])
    gc.collect()
    before = gc.mem_alloc()
    engine = Engine()
    gc.collect()
    print("engine heap: %d" % (gc.mem_alloc() - before))
    total = 0
    spent = 0
    with open(path) as f:
        for line in f:
            fen = line.strip()
            if not fen or fen.startswith("#"):
                continue
            p = Position(fen)
            engine.start(p, max_nodes=max_nodes)
            t0 = ticks_us()
            micropython.heap_lock()
            try:
                while not engine.step(300):
                    pass
            finally:
                micropython.heap_unlock()
            spent += ticks_diff(ticks_us(), t0)
            total += engine.nodes
            m = engine.result
            print("%s %d %d %s" % (p.uci(m) if m else "none", engine.nodes, engine.depth, engine.score))
    print("nodes/s: %d" % (total * 1000000 // max(spent, 1)))


main()
