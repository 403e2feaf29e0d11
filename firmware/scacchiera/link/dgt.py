"""The DGT e-board serial protocol, spoken when the host does (protocol.py hands this the bytes).

Loaded only when a host's first byte is a DGT command: a board played without such a host never
spends RAM on it. The public description is DGT's ``dgtbrd.h`` (in PicoChess's sources): one-byte
commands from the host; messages from the board of a header byte ``0x80 | id``, a 14-bit length
that counts the 3 header bytes (its high 7 bits, then its low 7), then data bytes below 0x80.
Squares go a8, b8, ... h8, a7, ... h1; pieces are 0 empty, 1-6 white P R N B K Q, 7-12 black.

The board senses presence, not pieces, and knows what the hands did, which a DGT board does not:
an app is told whole moves (``reported``). While the board follows the game, the pieces it reports
are the game's: nothing while a move is in the hands, then, once the move is taken, its squares'
FIELD_UPDATEs in the order hands make a move (``walk``: a captured piece off first, the king before
the rook), so that no position on the way is another move's (a castling made rook first was read
as a rook move; a takeback of a capture showed a wrong piece). While it is out of sync (a set-up,
a takeback asked for), every settled change of a square goes out as the switches settled, each
occupied square given the piece the tracked game puts there (``sensed``). Updates are on after
0x43, 0x44, 0x4B; with 0x43 or 0x4B the clocks (BWTIME) too, at each new second while one runs.
The Revelation II's LED command (0x60) lights squares as the frame's ``asked`` meaning. With a
time control set (``set clock``) the board's clock answers a DGT clock's commands (0x2B) as a DGT
3000 does (``clock_ack``: PicoChess asks its version and then shows the board's times), its lever
never moving; without one they are read and left unanswered, as by a board with no clock plugged in.

Bus mode (DGT LiveChess's): 0x4A, or a bus command, turns it on; each command is then 4 bytes
(command, the board's 14-bit address, a 7-bit sum) and each answer carries the address and a sum;
the changes go as the EEPROM's 2-byte field tags. Any single-board command turns it off again.
docs/protocols.md says what an app sees. DGT's header asks that the protocol not be used
commercially without DGT's permission: this project is GPL and sells nothing.
"""

from .. import const, elapsed
from ..tracking.tracker import OUT_OF_SYNC

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
SEND_CLK = const(0x41)
TO_BUSMODE = const(0x4A)
SET_LEDS = const(0x60)            # the Revelation II's: size 4, mode (0 off, 1 on), from, to, 0
CLOCK_MESSAGE = const(0x2B)       # a command for a DGT clock: size, then that many bytes
_MAX_SIZE = const(16)             # the longest of those (a DGT 3000's text: 12): a larger size is no command
_CUT_MS = const(40)               # a command's bytes come together: after this silence the rest never will
# The commands a host's first byte may be (protocol.py's _DGT_COMMANDS has them as bits).
COMMANDS = (RESET, SEND_CLK, SEND_BRD, SEND_UPDATE, SEND_UPDATE_BRD, RETURN_SERIALNR, RETURN_BUSADRES,
            SEND_TRADEMARK, SEND_EE_MOVES, TO_BUSMODE, SEND_UPDATE_NICE, SEND_BATTERY_STATUS, SEND_VERSION,
            RETURN_LONG_SERIALNR)

# Bus mode: commands 0x81-0x8D (+ address, sum); answers 0x83-0x8A.
BUS_SEND_CLK = const(0x81)
BUS_SEND_BRD = const(0x82)
BUS_SEND_CHANGES = const(0x83)
BUS_REPEAT_CHANGES = const(0x84)
BUS_SET_START_GAME = const(0x85)
BUS_SEND_FROM_START = const(0x86)
BUS_PING = const(0x87)
BUS_END_BUSMODE = const(0x88)
BUS_IGNORE_NEXT_PING = const(0x8A)
BUS_SEND_VERSION = const(0x8B)
BUS_SEND_ALL = const(0x8D)
MSG_BUS_BRD_DUMP = const(0x83)
MSG_BUS_BWTIME = const(0x84)
MSG_BUS_UPDATE = const(0x85)
MSG_BUS_FROM_START = const(0x86)
MSG_BUS_PING = const(0x87)
MSG_BUS_START_GAME_WRITTEN = const(0x88)
MSG_BUS_VERSION = const(0x89)
ADDRESS = const(1)                # this board's bus address (BUSADRES says it too)
EE_START_TAG = const(0x7B)
_CHANGES = const(128)             # bytes of field tags kept for the next BUS_SEND_CHANGES (64 changes)

BWTIME = const(0x8D)
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


def bus_message(kind, data):
    """A bus mode message: header, the length (from the header to the sum), our address, the data,
    and the sum of all the bytes before it, its bit 7 cleared."""
    n = len(data) + 6
    out = bytearray((kind, (n >> 7) & 0x7F, n & 0x7F, (ADDRESS >> 7) & 0x7F, ADDRESS & 0x7F))
    out += data
    out.append(sum(out) & 0x7F)
    return bytes(out)


def _bcd(n):
    return (n // 10) << 4 | n % 10


def bwtime(clocks, white_to_move, now):
    """The 7 data bytes of BWTIME: the right clock (black's), the left (white's), then the status;
    a game without a clock: 'no clock connected' (status bit 5)."""
    if not clocks.on:
        return b"\x00\x00\x00\x00\x00\x00\x20"
    out = bytearray(7)
    for i, white in ((0, False), (3, True)):
        s = clocks.left_ms(white, now) // 1000
        h = s // 3600
        out[i] = (h if h < 10 else 9) | (0x10 if s == 0 else 0)   # the flag fallen: bit 4
        out[i + 1] = _bcd(s // 60 % 60)
        out[i + 2] = _bcd(s % 60)
    running = clocks.running
    status = 1 if running else 0
    if running:
        status |= 0x10 if white_to_move else 0x08     # whose turn: left (white) or right (black)
    out[6] = status           # bit 1, the lever: never moves (no lever here; apps read a change as a press)
    return bytes(out)


def clock_ack(code):
    """BWTIME's 7 bytes as a DGT 3000 clock's acknowledgement of command ``code`` (0x2B's): the
    right clock's hours nibble 0x0A flags it, 0x10 then the command's code follow, and for the
    version query (0x09) the version, 1.0 (PicoChess's reading of dgtbrd.h's clock messages)."""
    return bytes((0x0A, 0x10, code & 0x7F, 0, 0x10 if code == 0x09 else 0, 0, 0))


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


_KINGS = (5, 11)     # DGT's codes of the white and the black king (_CODE)


def reported(app, out):
    """Fill ``out`` (64 bytes, our square order) with DGT codes of what an app is told the board
    holds: the game's position while the board follows it (pieces in the hands, a move settling, a
    piece on a wrong square: not yet news); what the switches sense while it is out of sync."""
    game = app.game
    if game.tracker.state == OUT_OF_SYNC:
        sensed(app, out)
        return
    pos = game.position
    for sq in range(64):
        out[sq] = _CODE[pos.piece_at(sq)]


def walk(shown, now, send):
    """Take ``shown`` to ``now`` (DGT codes, our square order; ``shown`` changed as it goes) one square
    at a time, as hands make a move, calling ``send(square, code)`` for each: the pieces that give
    way to another first (a capture's victim off), then the kings (FIDE 4.4: the king first in
    castling), then the other pieces lifted, then put down."""
    for sq in range(64):
        if shown[sq] and now[sq] and shown[sq] != now[sq]:
            shown[sq] = 0
            send(sq, 0)
    for king in _KINGS:
        for sq in range(64):
            if shown[sq] == king and now[sq] != king:
                shown[sq] = 0
                send(sq, 0)
        for sq in range(64):
            if now[sq] == king and shown[sq] != king:
                shown[sq] = king
                send(sq, king)
    for sq in range(64):
        if shown[sq] and shown[sq] != now[sq]:
            shown[sq] = 0
            send(sq, 0)
    for sq in range(64):
        if shown[sq] != now[sq]:
            shown[sq] = now[sq]
            send(sq, now[sq])


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

    def __init__(self, protocol, bus=False):
        self.protocol = protocol
        self.updates = False              # field updates on (SEND_UPDATE, SEND_UPDATE_BRD, SEND_UPDATE_NICE)
        self.clock_updates = False        # ...and the clocks (SEND_UPDATE, SEND_UPDATE_NICE)
        self.shown = bytearray(64)        # the pieces the host was last told, our square order
        self.now = bytearray(64)
        self.changes = Changes()
        self.cmd = bytearray(8)           # a command of more than one byte, as it comes
        self.cmd_n = 0
        self.cmd_len = 0                  # its length once known (0: not yet)
        self.cmd_at = 0                   # when its last byte came (a program cut mid-command: cut_ms)
        self.cut_ms = _CUT_MS             # longer over BLE, whose writes come a connection interval apart (ble.py)
        self.clock_s = -1                 # the seconds last sent in BWTIME (white's * 16384 + black's)
        self.bus = bus                    # bus mode: 4-byte commands, answers with address and sum
        self.tags = bytearray(_CHANGES)   # bus mode: field changes not yet asked for (EEPROM tags)
        self.tags_n = 0
        self.last = b""                   # bus mode: the last changes sent (BUS_REPEAT_CHANGES)
        self.ignore_ping = False

    def drop(self):
        """Forget the command under way (hosts.py: one its code could not handle)."""
        self.cmd_n = 0

    def starts(self, b):
        """Whether ``b`` may begin (or go on) one of this host's commands (hosts.py: another
        program's first byte is one that may not)."""
        return self.cmd_n > 0 or b in COMMANDS or b == SET_LEDS or b == CLOCK_MESSAGE or 0x81 <= b <= 0x8D

    def _send(self, kind, data, reply=True):
        self.protocol.send_bytes(message(kind, data), reply)

    def _dump(self, runner):
        reported(runner.app, self.now)
        self.shown[:] = self.now
        dump = bytearray(64)
        for sq in range(64):
            dump[dgt_square(sq)] = self.now[sq]
        return dump

    def board_dump(self, runner):
        self._send(BOARD_DUMP, self._dump(runner))

    def _clock(self, runner, now):
        app = runner.app
        return bwtime(app.game.clocks, app.game.position.turn == 0, now)

    def byte(self, runner, b):
        """One byte from the host; False if it cannot be a DGT host's at this point (a line end, a
        lowercase letter, "{": a text host), so protocol.py gives the link back. Unknown commands
        are ignored, as a DGT board does."""
        now = runner.hw.ticks_ms()
        if self.cmd_n and elapsed(now, self.cmd_at) > self.cut_ms:
            self.cmd_n = 0                # the program that began it is gone: this byte is the next one's
        self.cmd_at = now
        if self.cmd_n:
            self._more(runner, b)
            return True
        if b == 10 or b == 13 or b == 123 or 0x61 <= b < 0x80:
            return False
        if b == SET_LEDS or b == CLOCK_MESSAGE or 0x81 <= b <= 0x8D:
            self.cmd[0] = b
            self.cmd_n = 1
            self.cmd_len = 4 if b >= 0x80 else 0     # a bus command; else its size comes next
            return True
        self._bus_mode(runner, b == TO_BUSMODE)      # a single-board command ends bus mode
        if b == RESET:
            self.updates = self.clock_updates = False
        elif b == SEND_BRD:
            self.board_dump(runner)
        elif b in (SEND_UPDATE, SEND_UPDATE_BRD, SEND_UPDATE_NICE):
            self.updates = True
            self.clock_updates = b != SEND_UPDATE_BRD
            self.clock_s = -1
            reported(runner.app, self.shown)
        elif b == SEND_CLK:
            self._send(BWTIME, self._clock(runner, runner.hw.ticks_ms()))
        elif b == SEND_VERSION:
            self._send(VERSION, b"\x01\x00")
        elif b == SEND_TRADEMARK:
            self._send(TRADEMARK, _TRADEMARK)
        elif b == RETURN_SERIALNR:
            self._send(SERIALNR, b"00001")
        elif b == RETURN_LONG_SERIALNR:
            self._send(LONG_SERIALNR, b"0000000001")
        elif b == RETURN_BUSADRES:
            self._send(BUSADRES, bytes(((ADDRESS >> 7) & 0x7F, ADDRESS & 0x7F)))
        elif b == SEND_BATTERY_STATUS:
            self._send(BATTERY_STATUS, b"\x64\x00\x00\x00\x00\x00\x00\x00\x00")   # on USB power: full
        elif b == SEND_EE_MOVES:
            self._send(EE_MOVES, b"")     # no stored moves: the board's archive is the protocol's `games`
        return True

    def _more(self, runner, b):
        """The next byte of a command of more than one byte; run it once whole."""
        if self.cmd_n < len(self.cmd):
            self.cmd[self.cmd_n] = b
        self.cmd_n += 1
        if self.cmd_len == 0:
            if b > _MAX_SIZE:
                self.cmd_n = 0            # no such command: the bytes after it are not its data
                return
            self.cmd_len = 2 + b          # 0x60 and 0x2B: the size counts the bytes after it
        if self.cmd_n < self.cmd_len:
            return
        self.cmd_n = 0
        cmd = self.cmd
        if cmd[0] == SET_LEDS and self.cmd_len >= 5:
            self._leds(runner.app, cmd[2], cmd[3], cmd[4])
        elif cmd[0] == CLOCK_MESSAGE and self.cmd_len >= 4 and runner.app.game.clocks.on:
            self._send(BWTIME, clock_ack(cmd[3]))     # the board's clock answers as a DGT 3000
        elif cmd[0] >= 0x80 and (cmd[0] + cmd[1] + cmd[2]) & 0x7F == cmd[3]:
            address = cmd[1] << 7 | cmd[2]
            if address == ADDRESS or address == 0:
                self._bus_mode(runner, True)
                self._bus(runner, cmd[0], address)
        # a clock's command without a time control set: no clock is plugged in, so no answer

    @staticmethod
    def _leds(app, mode, first, last):
        """The Revelation II's LEDs: mode 1 lights squares ``first`` and ``last`` (DGT's fields: a8 = 0),
        mode 0 darkens them (``first`` 0x40: all)."""
        if mode == 0 and first == 0x40:
            app.ask(-1, False)
        elif mode < 2:
            for field in (first, last):
                if field < 64:
                    app.ask(dgt_square(field), mode == 1)

    def _bus(self, runner, cmd, address):
        if cmd == BUS_PING or cmd == BUS_IGNORE_NEXT_PING:
            if cmd == BUS_PING and address == 0 and self.ignore_ping:
                self.ignore_ping = False
                return
            self.ignore_ping = cmd == BUS_IGNORE_NEXT_PING
            self._bus_send(MSG_BUS_PING, b"")
        elif cmd == BUS_SEND_BRD:
            self._bus_send(MSG_BUS_BRD_DUMP, self._dump(runner))
        elif cmd == BUS_SEND_CHANGES or cmd == BUS_SEND_ALL:
            self.tick(runner, runner.hw.ticks_ms())    # what settled since the last look
            self.last = bus_message(MSG_BUS_UPDATE, self.tags[:self.tags_n])
            self.tags_n = 0
            self.protocol.send_bytes(self.last, True)
            if cmd == BUS_SEND_ALL:
                self._bus_send(MSG_BUS_BWTIME, self._clock(runner, runner.hw.ticks_ms()))
                self._bus_send(MSG_BUS_BRD_DUMP, self._dump(runner))
        elif cmd == BUS_REPEAT_CHANGES:
            self.protocol.send_bytes(self.last or bus_message(MSG_BUS_UPDATE, b""), True)
        elif cmd == BUS_SEND_CLK:
            self._bus_send(MSG_BUS_BWTIME, self._clock(runner, runner.hw.ticks_ms()))
        elif cmd == BUS_SEND_VERSION:
            self._bus_send(MSG_BUS_VERSION, b"\x01\x00")
        elif cmd == BUS_SET_START_GAME:
            self.tags_n = 0
            self._bus_send(MSG_BUS_START_GAME_WRITTEN, b"")
        elif cmd == BUS_SEND_FROM_START:
            # the game from its start is in the board's archive and journal, not kept as tags:
            # the position now, as tags after the start tag (what a reader rebuilds the board from)
            self._dump(runner)
            data = bytearray((EE_START_TAG,))
            for sq in range(64):
                if self.now[sq]:
                    data.append(0x40 | self.now[sq])
                    data.append(dgt_square(sq))
            self._bus_send(MSG_BUS_FROM_START, data)
        elif cmd == BUS_END_BUSMODE:
            self._bus_mode(runner, False)

    def _bus_mode(self, runner, on):
        """Into bus mode (the changes counted from the pieces now) or out of it."""
        if on and not self.bus:
            reported(runner.app, self.shown)
            self.tags_n = 0
        self.bus = on

    def _bus_send(self, kind, data):
        self.protocol.send_bytes(bus_message(kind, data), True)

    def tick(self, runner, now):
        """After the switches settled or the game moved: each square whose piece changed, as a
        FIELD_UPDATE (in bus mode kept as tags until the host asks); the clocks at each new second
        (the pieces are compared only when something changed, not at every scan)."""
        if self.bus:
            if self.changes.new(runner.app):
                self._changed(runner)
            return
        if self.clock_updates:
            clocks = runner.app.game.clocks
            if clocks.on:
                seconds = clocks.left_ms(True, now) // 1000 << 14 | clocks.left_ms(False, now) // 1000
                if seconds != self.clock_s:
                    self.clock_s = seconds
                    self._send(BWTIME, self._clock(runner, now), False)
        if self.updates and self.changes.new(runner.app):
            self._changed(runner)

    def _changed(self, runner):
        reported(runner.app, self.now)
        if self.now != self.shown:
            walk(self.shown, self.now, self._update)

    def _update(self, sq, code):
        """One square's new piece: a FIELD_UPDATE, or in bus mode a field tag kept for the host."""
        if not self.bus:
            self._send(FIELD_UPDATE, bytes((dgt_square(sq), code)), False)
        elif self.tags_n + 2 <= _CHANGES:
            self.tags[self.tags_n] = 0x40 | code
            self.tags[self.tags_n + 1] = dgt_square(sq)
            self.tags_n += 2
