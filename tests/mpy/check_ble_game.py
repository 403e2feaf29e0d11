"""A Pegasus app over Bluetooth LE on the real firmware under MicroPython (and CPython): the HAL finds the
radio (the fake ``bluetooth`` of host_tools/fakehw/radio first on the path: a Pico W), an app connects
and plays the game the test gives through the Nordic UART Service, its notifications at the default
MTU; after every move the FIELD_UPDATEs and a fresh BOARD_DUMP must be what the test expects
(python-chess's, from tests/test_ble.py). Then an LED command in three writes, the connection lost and
regained, and a radio that does not start.

Usage: check_ble_game.py FOLDER GAME_JSON. Prints "ok ..." per check, then "N passed, 0 failed".
"""

import json
import sys

import bluetooth
import machine
from dgt_wire import messages
from pinboard import PinBoard

PERIOD_US = 5000
START = list(range(16)) + list(range(48, 64))
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
passed = []


def ok(name):
    passed.append(name)
    print("ok   " + name)


class App:
    """The phone: connected, subscribed to TX, every notification kept in ``raw``."""

    def __init__(self):
        self.central = bluetooth.Central()
        self.central.connect()
        self.central.subscribe(NUS_TX)
        self.raw = bytearray()
        self.at = 0

    def write(self, data, steps=4):
        self.central.write(NUS_RX, data)
        board.run(steps)

    def got(self):
        self.raw += self.central.take()
        got, self.at = messages(self.raw, self.at)
        return got


board = PinBoard(sys.argv[1], PERIOD_US)
game = json.loads(sys.argv[2])
assert board.hw.radio is not None and board.hw.radio_why == "", board.hw.radio_why
board.set_up(START)
adv = bluetooth.BLE().advertising
assert adv is not None and b"DGT PEGASUS" in adv[2], adv
ok("the HAL found the radio; it advertises as a DGT Pegasus")
board.lines()
app = App()
app.write(b"\x42", 12)                 # SEND_BRD: the app has the board
assert app.got() == [(0x86, bytes(game["start"]))]
assert board.lines() == [{"ev": "ble", "holder": "dgt"}]
app.write(b"\x44")                     # SEND_UPDATE_BRD
for ply, (steps, updates, dump) in enumerate(zip(game["steps"], game["updates"], game["dumps"])):
    for kind, square in steps:
        (machine.board.lift if kind == "lift" else machine.board.place)(square)
        board.hands.wait(80)
    board.hands.wait(game["settle"][ply])
    fields = [[data[0], data[1]] for kind, data in app.got() if kind == 0x8E]
    if updates is not None:
        assert fields == updates, (ply, fields, updates)
    app.write(b"\x42")
    got = app.got()
    assert got == [(0x86, bytes(dump))], (ply, got, dump)
assert app.central.cut == 0 and board.lines() == []
ok("%d plies over BLE: field updates and board dumps, nothing on USB" % len(game["steps"]))
for piece in (bytes((0x60, 4)), bytes((1, 12)), bytes((28, 0))):   # e7 and e5 lit, in three writes
    app.write(piece, 6)
asked = board.runner.app.asked
assert [sq for sq in range(64) if asked[sq]] == [36, 52], asked
ok("an LED command in three writes, 30 ms apart")
app.central.disconnect()
board.run(4)
assert bluetooth.BLE().advertising is not None
assert board.lines() == [{"ev": "ble", "holder": None}]
board.hands.wait(1000)
app = App()
app.write(b"\x42", 12)
assert app.got() == [(0x86, bytes(game["dumps"][-1]))]
ok("the connection lost and regained: advertising again, the board read afresh")
bluetooth.reset()
bluetooth.radio_fails = True
import ble_radio  # noqa: E402


class Pins:
    pass


hw = Pins()
ble_radio.part(hw)
assert hw.radio is None and hw.radio_why == "the radio did not start: OSError 22", hw.radio_why
ok("a radio that does not start: none, and why")
print("%d passed, 0 failed" % len(passed))
