"""Millennium ChessLink, spoken when the host does (protocol.py hands this the bytes).

Loaded only when a host's first bytes are a whole ChessLink message with a good check (protocol.py).
The public description is the Magic Chessboard's ("ChessLink: Magic Chessboard Communications
Protocol", Dave Woodfield, in the python-mchess repository on GitHub, domschl/python-mchess): printable ASCII at 38400 7O1 (over USB
the parity bit travels in bit 7: stripped here from what comes, set on what goes), each message a
command letter, its hex fields, and a check of 2 hex digits (the XOR of the characters before it).

S -> s + 64 pieces (H1 ... A1, H2 ... A8, as a Millennium board with its cable on the right sends
them: python-mchess's and PicoChess's default, which they read without seeing the start position
first; KQRNBP white, kqrnbp black, "." empty); V -> v + version; I -> i0055mm (chess.com's app asks;
the answer DGTCentaurMods' ChessLink emulation gives it);
X (all LEDs off) -> x; L (slot time, 81 LED codes) -> l; W addr data -> w addr data; R addr -> r
addr data (the E2ROM's bytes: 02, automatic reports, is followed: off, or a status at each settled
change); T (a reset): no reply, the reports, the LEDs and the E2ROM back to their defaults (the game
goes on). The pieces are dgt.py's ``reported``: the game's while the board follows it (a status
once a move is taken, never a piece in the hands), what the switches sense while it is out of sync.

The LEDs: the Magic Chessboard has 81, on the corners of the squares (LED 1 at H1's outer corner,
9 at H8's, 73 at A1's, 81 at A8's: 9 per file line, from the h-file's edge to the a-file's, each
from rank 1's edge to rank 8's; python-mchess's mapping for a board with its cable on the right). A square is
lit, as the frame's ``asked`` meaning, when its four corners all flash (any pattern: shown
steady); a square between two lit ones on a file or rank has its four corners lit too, so it shows
lit as well (the corners are shared: the board cannot tell). Not done: the E2ROM's scan time and
report timing.
"""

from .. import const
from .dgt import Changes, reported

_LENGTHS = {ord("S"): 3, ord("X"): 3, ord("T"): 3, ord("V"): 3, ord("R"): 5, ord("W"): 7, ord("L"): 167,
            ord("I"): 5}
_LETTERS = b".PRNBKQprnbkq"       # dgt.py's piece codes -> ChessLink's letters
_HEX = b"0123456789ABCDEF"
_REPORTS_OFF = const(1)           # E2ROM address 02, bits 2-0: 001, no automatic reports


def check(text, n):
    """The check of ``text[:n]``: the XOR of its characters (parity bits stripped), as 2 upper-case
    hex digits (ints)."""
    x = 0
    for i in range(n):
        x ^= text[i] & 0x7F
    return _HEX[x >> 4], _HEX[x & 15]


def valid(msg, n):
    """Whether ``msg[:n]`` (parity bits ignored) is one whole ChessLink command with a good check."""
    if n < 3 or _LENGTHS.get(msg[0] & 0x7F) != n:
        return False
    hi, lo = check(msg, n - 2)
    return msg[n - 2] & 0x7F == hi and msg[n - 1] & 0x7F == lo


def _odd(c):
    """``c`` (7 bits) with bit 7 set when needed for an odd number of ones (the parity of 7O1)."""
    ones = 0
    x = c
    while x:
        ones += x & 1
        x >>= 1
    return c if ones & 1 else c | 0x80


def _hex(b):
    return bytes((_HEX[b >> 4], _HEX[b & 15]))


def _digit(c):
    """The value of the upper-case hex digit ``c`` (an int), or -1 if it is none."""
    if 48 <= c <= 57:
        return c - 48
    if 65 <= c <= 70:
        return c - 55
    return -1


def _byte(msg, i):
    """The byte written as 2 hex digits at ``msg[i]`` (a message's fields are checked hex digits
    before it is run: ``_hex_fields``)."""
    return _digit(msg[i]) << 4 | _digit(msg[i + 1])


def _hex_fields(msg, n):
    """Whether every field of ``msg[:n]`` (after its letter, before its check) is hex digits."""
    for i in range(1, n - 2):
        if _digit(msg[i]) < 0:
            return False
    return True


def _leds(app, msg):
    """``L``: msg[3:165] holds 81 LED codes (2 hex digits each, after the slot time). A square is
    asked for when its four corner LEDs all flash."""
    for sq in range(64):
        file, top = 7 - (sq & 7), sq >> 3          # the square's corners: lines file, file + 1; top, top + 1
        lit = True
        for corner in (file * 9 + top, file * 9 + top + 1, (file + 1) * 9 + top, (file + 1) * 9 + top + 1):
            if _byte(msg, 3 + 2 * corner) == 0:
                lit = False
                break
        if app.asked is not None or lit:
            app.ask(sq, lit)


class ChessLink:
    """The ChessLink host's side of the link: its commands answered, the board's changes reported."""

    def __init__(self, protocol):
        self.protocol = protocol
        self.msg = bytearray(170)
        self.n = 0
        self.e2 = bytearray(256)
        self._defaults()
        self.shown = bytearray(64)
        self.now = bytearray(64)
        self.changes = Changes()

    def _defaults(self):
        e2 = self.e2
        for i in range(256):
            e2[i] = 0
        e2[1] = 20                        # the scan time (2.048 ms units), as the description's default
        e2[2] = 3                         # reports at each change (the description's 000, every scan, would flood)

    def _reply(self, text):
        text = bytearray(text)
        hi, lo = check(text, len(text))
        text.append(hi)
        text.append(lo)
        for i in range(len(text)):
            text[i] = _odd(text[i])
        self.protocol.send_bytes(bytes(text), True)

    def byte(self, runner, b):
        """One byte from the host: a message is answered once whole (a bad check, or a field that is
        not hex digits: ignored, as the Magic Chessboard ignores a bad check). False if it cannot be a ChessLink host's (a line end, a lowercase
        letter, "{": a text host), so protocol.py gives the link back."""
        if b == 10 or b == 13 or b == 123 or 0x61 <= b < 0x80:
            self.n = 0
            return False
        c = b & 0x7F
        if self.n == 0 and c not in _LENGTHS:
            return True
        self.msg[self.n] = c
        self.n += 1
        if self.n < _LENGTHS[self.msg[0]]:
            return True
        n, self.n = self.n, 0
        if (self.e2[0] & 1 or valid(self.msg, n)) and _hex_fields(self.msg, n):
            self._command(runner, self.msg, n)
        return True

    def drop(self):
        """Forget the message under way (hosts.py: one its code could not handle)."""
        self.n = 0

    def starts(self, b):
        """Whether ``b`` may begin one of this host's messages (hosts.py: another program's first
        byte is one that may not)."""
        return self.n > 0 or (b & 0x7F) in _LENGTHS

    def _status(self, runner):
        reported(runner.app, self.now)
        self.shown[:] = self.now
        out = bytearray(b"s")
        for rank in range(8):
            for file in range(7, -1, -1):
                out.append(_LETTERS[self.now[rank * 8 + file]])
        self._reply(out)

    def _command(self, runner, msg, n):
        cmd = msg[0]
        if cmd == ord("S"):
            self._status(runner)
        elif cmd == ord("V"):
            self._reply(b"v0100")
        elif cmd == ord("I"):
            self._reply(b"i0055mm\n")
        elif cmd == ord("X"):
            runner.app.ask(-1, False)
            self._reply(b"x")
        elif cmd == ord("L"):
            _leds(runner.app, msg)
            self._reply(b"l")
        elif cmd == ord("T"):
            runner.app.ask(-1, False)
            self._defaults()
        elif cmd == ord("R") or cmd == ord("W"):
            address = _byte(msg, 1)
            if cmd == ord("W"):
                self.e2[address] = _byte(msg, 3)
            self._reply((b"w" if cmd == ord("W") else b"r") + _hex(address) + _hex(self.e2[address]))

    def tick(self, runner, now):
        """After the switches settled or the game moved: a status, when the host wants reports."""
        if self.e2[2] & 7 == _REPORTS_OFF or not self.changes.new(runner.app):
            return
        reported(runner.app, self.now)
        if self.now != self.shown:
            self._status(runner)
