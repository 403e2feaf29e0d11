"""The heap an online game's PGN tags take on the board (docs/lichess.md): the firmware booted on the fake
pins, a host's hello, then (argument ``tags``) the eight tags the companion gives a Lichess game. Run it
with and without: the difference is the tags' cost. The live heap is taken after a real collection
(measure.py: run.mjs calls ``__after_gc__``)."""

import sys

import machine
from measure import measure_heap
from pinboard import PinBoard

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
    print("heap_after %d bytes (%s)" % (used, "8 tags" if "tags" in sys.argv else "no tags"))


__after_gc__ = measure_heap(report)
