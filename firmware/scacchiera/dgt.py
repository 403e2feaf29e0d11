"""The DGT e-board serial protocol, spoken when the host does (protocol.py hands this the bytes).

Loaded only when a host's first byte is a DGT command: a board played without such a host never
spends RAM on it. The public description is DGT's ``dgtbrd.h`` (in PicoChess's sources): one-byte
commands from the host; messages from the board of a header byte ``0x80 | id``, a 14-bit length
that counts the 3 header bytes (its high 7 bits, then its low 7), then data bytes below 0x80.
Squares go a8, b8, ... h8, a7, ... h1; pieces are 0 empty, 1-6 white P R N B K Q, 7-12 black.

The board senses presence, not pieces: each occupied square is given the piece the tracked game
puts there, and a piece moving through the hands is named by the tracker (``sensed``). With
updates on (0x43, 0x44, 0x4B) every settled change of a square goes out as a FIELD_UPDATE, in the
order the switches settled. docs/protocols.md says what an app sees and what is not done yet
(bus mode, the Revelation II's LEDs, the clock's messages). DGT's header asks that the protocol not
be used commercially without DGT's permission: this project is GPL and sells nothing.
"""

from . import const

RESET = const(0x40)
SEND_BRD = const(0x42)
SEND_UPDATE = const(0x43)
SEND_UPDATE_BRD = const(0x44)
RETURN_SERIALNR = const(0x45)
RETURN_BUSADRES = const(0x46)
SEND_TRADEMARK = const(0x47)
SEND_EE_MOVES = const(0x49)
SEND_UPDATE_NICE = const(0x4B)
SEND_BATTERY_STATUS = const(0x4C)
SEND_VERSION = const(0x4D)
RETURN_LONG_SERIALNR = const(0x55)
# The commands a host's first byte may be (protocol.py's _DGT_COMMANDS has them as bits).
COMMANDS = (RESET, SEND_BRD, SEND_UPDATE, SEND_UPDATE_BRD, RETURN_SERIALNR, RETURN_BUSADRES, SEND_TRADEMARK,
            SEND_EE_MOVES, SEND_UPDATE_NICE, SEND_BATTERY_STATUS, SEND_VERSION, RETURN_LONG_SERIALNR)

BOARD_DUMP = const(0x86)
FIELD_UPDATE = const(0x8E)
EE_MOVES = const(0x8F)
BUSADRES = const(0x90)
SERIALNR = const(0x91)
TRADEMARK = const(0x92)
VERSION = const(0x93)
BATTERY_STATUS = const(0xA0)
LONG_SERIALNR = const(0xA2)

# Our piece codes (rules: type 1-6 P N B R Q K, +8 black) -> DGT's (1-6 white P R N B K Q, +6 black).
_CODE = bytes((0, 1, 3, 4, 2, 6, 5, 0, 0, 7, 9, 10, 8, 12, 11, 0))
_TRADEMARK = b"Digital Game Technology (compatible): Scacchiera, open firmware (GPL). Not a DGT product."


def message(kind, data):
    """One message: its header (the length counts the 3 header bytes) and its data."""
    n = len(data) + 3
    return bytes((kind, (n >> 7) & 0x7F, n & 0x7F)) + bytes(data)


def dgt_square(square):
    """Our square 0..63 (a1 = 0) -> DGT's field 0..63 (a8 = 0)."""
    return (7 - (square >> 3)) * 8 + (square & 7)


def _lifted_before(pos, physical, emptied, seq, colour):
    """The square of the piece lifted last before ``seq`` that is still off the board (of the side
    ``colour``, 0 white, 8 black, or either with -1); -1 if none."""
    best = -1
    for sq in range(64):
        p = pos.piece_at(sq)
        if p and not physical[sq] and emptied[sq] <= seq and (colour < 0 or (p & 8) == colour) \
                and (best < 0 or emptied[sq] > emptied[best]):
            best = sq
    return best


def sensed(app, out):
    """Fill ``out`` (64 bytes, our square order) with DGT piece codes of what the board senses: an
    occupied square the tracked game has a piece on gets it; a square the game has empty gets the
    side to move's piece lifted last before it was filled (still off the board; else either side's);
    a square of the opponent's piece,
    emptied and filled again in this turn, gets the side to move's piece lifted last before then (a
    capture, the victim taken off first or after)."""
    game = app.game
    pos = game.position
    tracker = game.tracker
    physical = tracker.physical
    emptied = tracker.emptied
    filled = tracker.filled
    mover = pos.turn << 3                 # 0 white, 8 black: the colour bit of the side to move's pieces
    for sq in range(64):
        if not physical[sq]:
            out[sq] = 0
            continue
        p = pos.piece_at(sq)
        if not p:                         # the side to move's piece first (en passant lifts two)
            src = _lifted_before(pos, physical, emptied, filled[sq], mover)
            if src < 0:
                src = _lifted_before(pos, physical, emptied, filled[sq], -1)
            p = pos.piece_at(src) if src >= 0 else 0
        elif (p & 8) != mover and emptied[sq] > tracker.base_seq:
            src = _lifted_before(pos, physical, emptied, filled[sq], mover)
            if src >= 0:
                p = pos.piece_at(src)     # its piece taken off, one of the side to move's put there
        out[sq] = _CODE[p]


class Changes:
    """Whether the settled switches or the game changed since the last look: the pieces are compared
    only then, not at every scan (dgt.py's and chesslink.py's reports)."""

    def __init__(self):
        self.rows = bytearray(8)
        self.ply = -1
        self.pos = None

    def new(self, app):
        stable = app.debouncer.stable
        pos = app.game.position
        if stable == self.rows and pos.ply() == self.ply and pos is self.pos:
            return False
        self.rows[:] = stable
        self.ply = pos.ply()
        self.pos = pos
        return True


class Dgt:
    """The DGT host's side of the link: its commands answered, the board's changes sent."""

    def __init__(self, protocol):
        self.protocol = protocol
        self.updates = False              # field updates on (SEND_UPDATE, SEND_UPDATE_BRD, SEND_UPDATE_NICE)
        self.shown = bytearray(64)        # the pieces the host was last told, our square order
        self.now = bytearray(64)
        self.changes = Changes()

    def _send(self, kind, data, reply=True):
        self.protocol.send_bytes(message(kind, data), reply)

    def board_dump(self, runner):
        sensed(runner.app, self.now)
        self.shown[:] = self.now
        dump = bytearray(64)
        for sq in range(64):
            dump[dgt_square(sq)] = self.now[sq]
        self._send(BOARD_DUMP, dump)

    def byte(self, runner, b):
        """One byte from the host. Unknown bytes are ignored (a DGT board does the same)."""
        if b == RESET:
            self.updates = False
        elif b == SEND_BRD:
            self.board_dump(runner)
        elif b in (SEND_UPDATE, SEND_UPDATE_BRD, SEND_UPDATE_NICE):
            self.updates = True
            sensed(runner.app, self.shown)
        elif b == SEND_VERSION:
            self._send(VERSION, b"\x01\x00")
        elif b == SEND_TRADEMARK:
            self._send(TRADEMARK, _TRADEMARK)
        elif b == RETURN_SERIALNR:
            self._send(SERIALNR, b"00001")
        elif b == RETURN_LONG_SERIALNR:
            self._send(LONG_SERIALNR, b"0000000001")
        elif b == RETURN_BUSADRES:
            self._send(BUSADRES, b"\x00\x01")
        elif b == SEND_BATTERY_STATUS:
            self._send(BATTERY_STATUS, b"\x64\x00\x00\x00\x00\x00\x00\x00\x00")   # on USB power: full
        elif b == SEND_EE_MOVES:
            self._send(EE_MOVES, b"")     # no stored moves: the board's archive is the protocol's `games`

    def tick(self, runner):
        """After the switches settled or the game moved: each square whose piece changed, as a
        FIELD_UPDATE (the pieces are compared only then, not at every scan)."""
        if not self.updates or not self.changes.new(runner.app):
            return
        now = self.now
        sensed(runner.app, now)
        shown = self.shown
        for sq in range(64):
            if now[sq] != shown[sq]:
                shown[sq] = now[sq]
                self._send(FIELD_UPDATE, bytes((dgt_square(sq), now[sq])), False)
