"""A ChessLink host on the real firmware under MicroPython (and CPython): V, W, S answered with parity
and check, a move reported on its own. Usage: check_chesslink.py FOLDER. Prints "N passed, 0 failed"."""

import sys

import machine
from pinboard import PinBoard

START = list(range(16)) + list(range(48, 64))
STATUS = "RNBKQBNRPPPPPPPP................................pppppppprnbkqbnr"   # H1 ... A1, H2 ... A8
AFTER_E4 = "RNBKQBNRPPP.PPPP...........P....................pppppppprnbkqbnr"
passed = []


def ok(name):
    passed.append(name)
    print("ok   " + name)


def message(text):
    x = 0
    for c in text:
        x ^= ord(c)
    out = bytearray((text + "%02X" % x).encode())
    for i in range(len(out)):
        ones = 0
        b = out[i]
        while b:
            ones += b & 1
            b >>= 1
        if not ones & 1:
            out[i] |= 0x80
    return bytes(out)


def replies(serial, at):
    text = "".join(chr(b & 0x7F) for b in serial.raw[at:])
    return text, len(serial.raw)


board = PinBoard(sys.argv[1], 5000)
board.set_up(START)
assert "scacchiera.link.chesslink" not in sys.modules
ok("chesslink.py not loaded before a ChessLink host")
serial = board.serial
serial.raw = bytearray()
serial.send_bytes(message("V"))
board.run(12)
text, at = replies(serial, 0)
assert text.startswith("v0100") and ("s" + STATUS) in text, text
ok("V answered, then the first report")
serial.send_bytes(message("S"))
board.run(12)
text, at = replies(serial, at)
assert text[:65] == "s" + STATUS, text
ok("S answered")
for bad in ("WXX01", "RLL"):          # not hex, with a good check: ignored (it reset the board)
    serial.send_bytes(message(bad))
    board.run(12)
    text, at = replies(serial, at)
    assert text == "", (bad, text)
serial.send_bytes(message("R02"))
board.run(12)
text, at = replies(serial, at)
assert text[:5] == "r0203", text
ok("WXX01 and RLL ignored, the link still answers")
machine.board.lift(12)
board.hands.wait(80)
machine.board.place(28)
board.hands.wait(500)
text, at = replies(serial, at)
assert ("s" + AFTER_E4) in text, text
ok("e2-e4 reported")
print("%d passed, 0 failed" % len(passed))
