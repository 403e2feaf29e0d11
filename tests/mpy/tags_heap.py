"""The heap an online game's PGN tags take on the board (docs/lichess.md): the firmware booted on the fake
pins, a host's hello, then (argument ``tags``) the eight tags the companion gives a Lichess game. Run it
with and without: the difference is the tags' cost. The live heap is taken after a real collection
(measure.py: run.mjs calls ``__after_gc__``). ``pad=N`` (last): N bytes held from the start, left out
of the figure, so that the blocks land elsewhere (tests/mpy/firmware_heap.py says why: the collector is
conservative; the test takes the least of a few layouts)."""

import gc
import sys

padding = None
padding_cost = 0
if sys.argv[-1].startswith("pad="):
    before = gc.mem_alloc()
    padding = bytearray(int(sys.argv.pop()[4:]))
    padding_cost = gc.mem_alloc() - before

import machine  # noqa: E402
from measure import measure_heap  # noqa: E402
from pinboard import PinBoard  # noqa: E402

TAGS = (("Event", "Lichess rapid game"), ("Site", "https://lichess.org/AbCd1234"), ("Date", "2026.11.22"),
        ("White", "Player"), ("Black", "Lichess AI level 8"), ("WhiteElo", "1500"), ("BlackElo", "2800"),
        ("TimeControl", "600+5"))

machine.reset_board()
for sq in list(range(16)) + list(range(48, 64)):
    machine.board.place(sq)
board = PinBoard("/flash/tags", 5000)
board.serial.send("hello")
board.serial.send("set clock 10+5")
board.run(100)
if "tags" in sys.argv:
    for name, value in TAGS:
        board.serial.send('{"cmd": "tag", "name": "%s", "value": "%s"}' % (name, value))
        board.run(4)
board.run(200)
board.serial.take()
board.serial.sent = []


def report(used):
    print("heap_after %d bytes (%s)" % (used - padding_cost, "8 tags" if "tags" in sys.argv else "no tags"))


__after_gc__ = measure_heap(report)
