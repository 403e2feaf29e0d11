"""The Pico W's Bluetooth LE radio: the only module that imports ``bluetooth`` (hal.py tries it: ``part``).

The board is a BLE peripheral that serves two e-boards' services at once, so an app finds the one
it knows, and advertises as one of them (the option ``ble``; docs/protocols.md):

- a DGT Pegasus: the Nordic UART Service, the app writing DGT's commands to RX and reading the
  board's messages as TX's notifications; advertised as "DGT PEGASUS";
- a Millennium eONE: Microchip's transparent-UART service, ChessLink's text the same way
  (its RX and TX characteristics only); advertised as "MILLENNIUM CHESS".

The service an app writes to first says which language it speaks (``kind``). One central at a
time: a second one is disconnected as it connects; a central that goes leaves the radio
advertising again. The IRQ handler runs between two of the loop's bytecodes (MicroPython schedules
it): it only notes what happened. The loop reads the bytes (``read``: the stack keeps writes,
appended, in a buffer of ``RX_BUFFER`` bytes until then) and sends notifications of at most the
agreed MTU less 3 bytes (``write``). scacchiera/link/ble.py decides who has the board.
"""

import bluetooth

from scacchiera import const

_IRQ_CENTRAL_CONNECT = const(1)
_IRQ_CENTRAL_DISCONNECT = const(2)
_IRQ_GATTS_WRITE = const(3)
_IRQ_MTU_EXCHANGED = const(21)

# TX is readable too, as an eONE's: python-mchess's BLE transport reads it between notifications.
_TX = bluetooth.FLAG_READ | bluetooth.FLAG_NOTIFY
_WRITE = bluetooth.FLAG_WRITE | bluetooth.FLAG_WRITE_NO_RESPONSE

# (the language, the service, its RX written by the app, its TX notified by the board, the name)
SERVICES = (
    ("dgt", "6e400001-b5a3-f393-e0a9-e50e24dcca9e", "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
     "6e400003-b5a3-f393-e0a9-e50e24dcca9e", "DGT PEGASUS"),
    ("chesslink", "49535343-fe7d-4ae5-8fa9-9fafd205e455", "49535343-8841-43f4-a8d4-ecbe34729bb3",
     "49535343-1e4d-4bd9-ba61-23c647249616", "MILLENNIUM CHESS"),
)
IDENTITIES = ("pegasus", "eone")  # the option ``ble``'s words for SERVICES' rows ("off": no radio)
MTU = const(247)                  # the largest ATT MTU the board agrees to (LE data length's 251 less L2CAP's 4)
RX_BUFFER = const(256)            # bytes an app may write between two reads (ChessLink's longest message: 167)
_ADV_INTERVAL_US = const(250000)
_NOTIFY_MAX = const(4)            # notifications a write sends at most (the rest at the next scan)
_DEFAULT_MTU = const(23)


def uuid_le(text):
    """A 128-bit UUID's bytes as advertising data carries them: little-endian."""
    raw = bytes.fromhex(text.replace("-", ""))
    return bytes(raw[i] for i in range(len(raw) - 1, -1, -1))


def advertising(identity, number=0):
    """(advertising data, scan response) for ``identity`` ("pegasus" or "eone"): the flags and the
    service's UUID, then the name (with the board's ``number``, when it has one: a club's boards)."""
    row = SERVICES[IDENTITIES.index(identity)]
    name = row[4] if not number else "%s %d" % (row[4], number)
    adv = b"\x02\x01\x06" + bytes((17, 0x07)) + uuid_le(row[1])
    resp = bytes((len(name) + 1, 0x09)) + name.encode()
    return adv, resp


def part(hw):
    """hal.py's hook for a Pico W: ``hw.radio`` (a Radio, or None) and ``hw.radio_why`` (why not: a
    damaged module; the emulator, which has no radio chip, raises OSError(22)); returns what
    start.build calls to add the radio's part to the loop (scacchiera/link/ble.py)."""
    try:
        hw.radio, hw.radio_why = Radio(), ""
    except OSError as e:
        hw.radio, hw.radio_why = None, "the radio did not start: OSError %s" % (e.args[0] if e.args else "")

    def attach(runner):
        from scacchiera.link.ble import attach
        attach(runner, hw.radio, hw.radio_why)
    return attach


class Radio:
    """The BLE peripheral. OSError from the constructor: no radio (a Pico, or a chip that does not
    answer: the emulated Pico W's raises OSError(22))."""

    def __init__(self, ble=None):
        ble = ble if ble is not None else bluetooth.BLE()
        ble.active(True)
        ble.config(mtu=MTU)
        self.ble = ble
        defs = []
        for row in SERVICES:
            defs.append((bluetooth.UUID(row[1]), ((bluetooth.UUID(row[2]), _WRITE),
                                                  (bluetooth.UUID(row[3]), _TX))))
        handles = ble.gatts_register_services(defs)
        self.rx = tuple(h[0] for h in handles)          # by SERVICES' row
        self.tx = tuple(h[1] for h in handles)
        for h in self.rx:
            ble.gatts_set_buffer(h, RX_BUFFER, True)    # writes appended until read: none lost between reads
        self.conn = None           # the connected central's handle
        self.kind = None           # the language of the service it wrote to first ("dgt", "chesslink")
        self.mtu = _DEFAULT_MTU
        self.written = 0           # bits by SERVICES' row: RX values written since the last read
        self.connections = 0       # centrals that connected (and were kept)
        self.refused = 0           # ...and that were let go (another app, or the USB host, had the board)
        self.identity = None       # what it advertises as, or None
        self.number = 0
        self._chunk = b""          # bytes read from the stack, not handed on yet...
        self._at = 0               # ...from here
        ble.irq(self._irq)

    # -- what the IRQ handler notes ------------------------------------------------------

    def _irq(self, event, data):
        if event == _IRQ_CENTRAL_CONNECT:
            if self.conn is not None:
                self.refused += 1
                self.ble.gap_disconnect(data[0])       # one app at a time
                return
            self.conn, self.kind, self.mtu, self.written = data[0], None, _DEFAULT_MTU, 0
            self.connections += 1
            for h in self.rx:
                self.ble.gatts_write(h, b"")           # what a refused app wrote is not this one's
        elif event == _IRQ_CENTRAL_DISCONNECT:
            if data[0] == self.conn:
                self.conn = self.kind = None
                self._chunk, self._at = b"", 0
                self._advertise()
        elif event == _IRQ_GATTS_WRITE:
            if data[0] == self.conn:
                for i in range(len(self.rx)):
                    if self.rx[i] == data[1]:
                        self.written |= 1 << i
                        if self.kind is None:
                            self.kind = SERVICES[i][0]
        elif event == _IRQ_MTU_EXCHANGED:
            if data[0] == self.conn:
                self.mtu = data[1]

    # -- advertising ----------------------------------------------------------------------

    def advertise(self, identity, number=0):
        """Advertise as ``identity`` (IDENTITIES), or stop (None) and let a connected app go."""
        self.identity, self.number = identity, number
        if identity is None and self.conn is not None:
            self.ble.gap_disconnect(self.conn)
        self._advertise()

    def _advertise(self):
        if self.identity is None:
            self.ble.gap_advertise(None)
        elif self.conn is None:
            adv, resp = advertising(self.identity, self.number)
            self.ble.gap_advertise(_ADV_INTERVAL_US, adv, resp_data=resp)

    def disconnect(self):
        """Let the connected app go (the USB host has the board); advertising starts again."""
        if self.conn is not None:
            self.ble.gap_disconnect(self.conn)

    # -- the bytes --------------------------------------------------------------------------

    def read(self, buf):
        """Copy bytes the app wrote (its language's service only) into ``buf``; the count."""
        if self._at >= len(self._chunk):
            if self.kind is None or not self.written:
                return 0
            i = 0 if self.kind == SERVICES[0][0] else 1
            self.written &= ~(1 << i)
            self._chunk, self._at = self.ble.gatts_read(self.rx[i]), 0
        n = min(len(buf), len(self._chunk) - self._at)
        chunk, at = self._chunk, self._at
        for j in range(n):
            buf[j] = chunk[at + j]
        self._at = at + n
        return n

    def write(self, data, start):
        """Notify ``data[start:]`` on the language's TX, at most MTU - 3 bytes a notification and
        _NOTIFY_MAX of them; the count sent (0 when the stack's queue is full, or no app listens)."""
        if self.conn is None or self.kind is None:
            return 0
        tx = self.tx[0 if self.kind == SERVICES[0][0] else 1]
        room = self.mtu - 3
        view = memoryview(data)
        i = start
        for _ in range(_NOTIFY_MAX):
            if i >= len(data):
                break
            end = min(len(data), i + room)
            try:
                self.ble.gatts_notify(self.conn, tx, view[i:end])
            except OSError:
                break              # its buffers are full: the rest at the next scan
            i = end
        return i - start
