"""A DGT host on the real firmware under MicroPython (and CPython): the hands play the game the test
gives (their steps, in the orders it chose), and after every move the FIELD_UPDATEs the host got and a
fresh BOARD_DUMP must be what the test expects (python-chess's positions, computed on CPython by
tests/test_dgt.py). dgt.py must not be loaded before the host's first byte.

Usage: check_dgt_game.py FOLDER GAME_JSON. Prints "ok ..." per check, then "N passed, 0 failed".
"""

import json
import sys

import machine
from dgt_wire import messages
from pinboard import PinBoard

PERIOD_US = 5000
START = list(range(16)) + list(range(48, 64))
passed = []


def ok(name):
    passed.append(name)
    print("ok   " + name)


board = PinBoard(sys.argv[1], PERIOD_US)
game = json.loads(sys.argv[2])
board.set_up(START)
assert "scacchiera.link.dgt" not in sys.modules, "link/dgt.py loaded before a DGT host spoke"
ok("dgt.py not loaded before a DGT host")
serial = board.serial
serial.raw = bytearray()
at = 0
serial.send_bytes(b"\x42")            # SEND_BRD, then silence: a DGT host
board.run(12)
got, at = messages(serial.raw, at)
assert got == [(0x86, bytes(game["start"]))], got
ok("the first board dump")
serial.send_bytes(b"\x44")            # SEND_UPDATE_BRD: field updates from now on
board.run(4)
for ply, (steps, updates, dump) in enumerate(zip(game["steps"], game["updates"], game["dumps"])):
    for kind, square in steps:
        (machine.board.lift if kind == "lift" else machine.board.place)(square)
        board.hands.wait(80)
    board.hands.wait(game["settle"][ply])
    got, at = messages(serial.raw, at)
    fields = [[data[0], data[1]] for kind, data in got if kind == 0x8E]
    if updates is not None:
        assert fields == updates, (ply, fields, updates)
    serial.send_bytes(b"\x42")
    board.run(4)
    got, at = messages(serial.raw, at)
    assert got == [(0x86, bytes(dump))], (ply, got, dump)
ok("%d plies: field updates and board dumps" % len(game["steps"]))
serial.send_bytes(bytes((0x60, 4, 1, 12, 28, 0)))   # the Revelation II's LEDs: e7 and e5 (fields 12, 28)
serial.send_bytes(b"\x41")                         # SEND_CLK: no clock set, so "no clock connected"
board.run(4)
asked = board.runner.app.asked
assert [sq for sq in range(64) if asked[sq]] == [36, 52], asked
got, at = messages(serial.raw, at)
assert got == [(0x8D, b"\x00\x00\x00\x00\x00\x00\x20")], got
serial.send_bytes(bytes((0x82, 0, 1, 3)))           # bus mode: SEND_BRD to address 1, its sum
board.run(4)
raw = bytes(serial.raw[at:])
assert raw[0] == 0x83 and raw[1:5] == bytes((0, 70, 0, 1)) and raw[5:69] == bytes(game["dumps"][-1]), raw
assert raw[69] == sum(raw[:69]) & 0x7F and len(raw) == 70, raw
at += 70
ok("LEDs asked, the clock, a bus mode board dump")
assert b"{" not in bytes(serial.raw)
ok("no JSON to a DGT host")
print("%d passed, 0 failed" % len(passed))
