"""Live heap with the engine loaded and searched, against the rules alone (MicroPython).

Self-contained (whatever it imports is counted). Usage:
engine_heap.py MODE [BUILD]: MODE ``rules`` imports the rules and sets up a
game position (the baseline); ``modules`` also imports the engine's modules;
``engine`` also makes an Engine and searches twice (a book
move and a search). BUILD: the deployed .mpy
files, loaded as on the Pico. The figure is taken after a real collection
(tools/micropython/run.mjs calls ``__after_gc__``): ``heap in use: N``.
The engine's cost is the difference between the two modes.
"""

import gc
import sys

if len(sys.argv) > 2:
    sys.path.insert(0, sys.argv[2])

from scacchiera.rules import Position

mode = sys.argv[1]
position = Position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
engine = None
if mode in ("modules", "engine"):
    from scacchiera.engine import Engine
if mode == "engine":
    engine = Engine()
    engine.best_move(position, max_nodes=500)
    engine.best_move(Position(), max_nodes=500)
    print("from the book: %s" % engine.from_book)     # book.bin, read beside the build's package


def __after_gc__():
    gc.collect()
    print("heap in use: %d" % gc.mem_alloc())
