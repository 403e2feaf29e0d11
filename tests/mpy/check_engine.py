"""The engine under MicroPython: the same moves as CPython, no allocation while searching, its heap.

Usage: check_engine.py FENS_FILE MAX_NODES [BUILD]
A line ``chess960 <FEN>`` is a Chess960 position (X-FEN or Shredder-FEN).
BUILD: the firmware as deployed (.mpy files, ``python -m host_tools.deploy
build``), loaded as on the Pico; without it the sources on the path.
Prints one line per position, ``<uci> <nodes> <depth> <score>``, with the search run in
slices of 300 nodes under micropython.heap_lock() (start() may allocate: the
legal moves, a copy of the history; a searched node must not), then
``nodes/s: N`` for the whole run and ``nodes/s in 1-node slices: N`` for
the first positions searched one node per step (what a scan loop that
gives the engine a node at a time gets), and ``nodes searched: N`` in all
(for a figure per CPU second: the ticks are wall-clock time, which a busy
host stretches). The heap: engine_heap.py.
"""

import sys

import micropython

if len(sys.argv) > 3:
    sys.path.insert(0, sys.argv[3])

from measure import ticks_us, ticks_diff
from scacchiera.rules.variants import new_position
from scacchiera.engine import Engine


def position(line):
    if line.startswith("chess960 "):
        return new_position(line[9:], variant="chess960")
    return new_position(line)


def main():
    path = sys.argv[1]
    max_nodes = int(sys.argv[2])
    engine = Engine()
    total = 0
    spent = 0
    fens = []
    with open(path) as f:
        for line in f:
            fen = line.strip()
            if fen and not fen.startswith("#"):
                fens.append(fen)
    for fen in fens:
        p = position(fen)
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
    searched = total
    total = spent = 0
    for fen in fens[1:4]:
        engine.start(position(fen), max_nodes=max_nodes)
        t0 = ticks_us()
        while not engine.step(1):
            pass
        spent += ticks_diff(ticks_us(), t0)
        total += engine.nodes
    print("nodes/s in 1-node slices: %d" % (total * 1000000 // max(spent, 1)))
    print("nodes searched: %d" % (searched + total))


main()
