"""The board's link to an app over Bluetooth LE (a Pico W): the same protocol, another transport.

An app on a phone connects to the radio (ble_radio.py, made by hal.py) as to a DGT Pegasus or a
Millennium eONE, and speaks DGT's commands or ChessLink's messages, which dgt.py and chesslink.py
answer as they answer a program on the USB link: ``BleLink`` is the protocol's port (its
``serial_read`` and ``serial_write``), and hands the link to the radio while an app has the board.

One host at a time. An app that connects while a program on the USB link has the board (a DGT or
ChessLink host, or any bytes within ``_USB_HOLDS_MS``) is disconnected, and the USB host is told
(``{"ev": "ble", "refused": ...}``, when it reads JSON). An app that has the board keeps it until it
goes: bytes from the USB link meanwhile are read and dropped, and a text or JSON host gets one
``{"ev": "busy", "holder": "ble"}`` line every ``_BUSY_EVERY_MS`` it keeps sending (a DGT or
ChessLink program: silence, as from a board switched off). When the app goes (out of range, the
app closed) the link is the USB's again and the radio advertises; an app that comes back asks for
the board afresh, as after a cable pulled.

The options ``ble`` (what the radio advertises as: "pegasus", "eone", or "off") and ``ble_number``
(the board's number in its name: "DGT PEGASUS 7"; 0, none) exist on a board with a radio only:
this module adds their rows. docs/protocols.md.
"""

from .. import const, elapsed, options
from .hosts import open_host, leave, _is_text

_USB_HOLDS_MS = const(10000)   # a USB host that sent bytes this recently has the board
_BUSY_EVERY_MS = const(2000)   # a refused USB host is told at most this often
_BLE_CUT_MS = const(1000)      # a DGT command's bytes may come in several writes, a connection interval apart
OPTIONS = (
    ("ble", options.CHOICE, ("pegasus", "eone", "off"), "pegasus", options.RUNNER, False),
    ("ble_number", options.INT, (1, 999), 0, options.RUNNER, True),
)


def attach(runner, radio, why=""):
    """The radio's part, first in the loop's parts (it gives the link before the protocol reads); for
    a radio that did not start (``radio`` None), a part that says ``why`` once, after ``boot``.
    The options' rows join options.TABLE for the process's life: one board's (tests put it back)."""
    if radio is None:
        from .notice import Notice
        runner.parts.append(Notice({"ev": "radio", "error": why}))   # a USB board, told why once, after boot
        return None
    if OPTIONS[0] not in options.TABLE:
        options.TABLE = options.TABLE + OPTIONS
    for row in OPTIONS:
        setattr(runner, row[0], row[3])
    link = BleLink(runner, radio)
    runner.parts.insert(0, link)
    runner.ble_link = link
    return link


class BleLink:
    def __init__(self, runner, radio):
        self.runner = runner
        self.radio = radio
        self.usb = runner.hw
        self.app = False              # an app on the radio has the board
        self.fixed_host = False       # ...and its service says its language: hosts.py never gives the link to text
        self.usb_at = None            # when the USB link's last bytes came
        self.told_at = None           # when a USB host was last told that an app has the board
        self.scratch = bytearray(64)  # the USB's bytes read and dropped while an app has the board
        self.identity = self.number = None   # what the radio was told to advertise (the options)
        runner.protocol.port = self

    # -- the protocol's port --------------------------------------------------------------------

    def serial_read(self, buf):
        now = self.usb.ticks_ms()
        if self.app:
            n = self.usb.serial_read(self.scratch)
            if n:
                self._busy(now, self.scratch[0])
            return self.radio.read(buf)
        n = self.usb.serial_read(buf)
        if n:
            self.usb_at = now
        return n

    def serial_write(self, data, start):
        if self.app:
            return self.radio.write(data, start)
        return self.usb.serial_write(data, start)

    def _busy(self, now, first):
        if _is_text(first) and (self.told_at is None or elapsed(now, self.told_at) >= _BUSY_EVERY_MS):
            self.told_at = now
            self.usb.serial_write(b'{"ev": "busy", "holder": "ble"}\n', 0)

    # -- the loop's hooks -----------------------------------------------------------------------

    def boot(self, runner, now):
        pass

    def scan(self, runner, now):
        pass

    def tick(self, runner, now):
        radio = self.radio
        if runner.ble != self.identity or runner.ble_number != self.number:
            self.identity, self.number = runner.ble, runner.ble_number
            radio.advertise(None if runner.ble == "off" else runner.ble, runner.ble_number)
        if self.app:
            if radio.conn is None:
                self._give_back(runner)
            elif runner.protocol.host is None:
                self._open(runner.protocol, radio.kind)   # a byte it could not take let it go: the service says whose
        elif radio.conn is not None and radio.kind is not None:
            protocol = runner.protocol
            if protocol.host is not None or self.usb_at is not None and elapsed(now, self.usb_at) < _USB_HOLDS_MS:
                protocol.send({"ev": "ble", "refused": radio.kind, "why": "the USB host has the board"})
                radio.refused += 1
                radio.disconnect()
            else:
                self._take(runner, radio.kind)

    def _take(self, runner, kind):
        """The app has the board: the USB host told, the lines it has not read dropped."""
        protocol = runner.protocol
        protocol.send({"ev": "ble", "holder": kind})
        _flush(protocol, self.usb.serial_write)
        self.app = self.fixed_host = True
        self.told_at = None
        self._open(protocol, kind)

    def _open(self, protocol, kind):
        open_host(protocol, kind)
        if kind == "dgt":
            protocol.host.cut_ms = _BLE_CUT_MS
            self.usb.serial_ctrl_c(True)  # DGT's bytes come over the radio: the USB keeps its Ctrl-C

    def _give_back(self, runner):
        """The app went: the link is the USB's again (the radio advertises already)."""
        protocol = runner.protocol
        _drop_queue(protocol)
        self.app = self.fixed_host = False
        if protocol.host is not None:
            leave(protocol, False)
        protocol.send({"ev": "ble", "holder": None})

    def shown(self, runner, frame, now):
        pass

    def crash(self, runner):
        pass

    def state(self):
        """The radio's part of ``status``."""
        radio = self.radio
        return {"advertising": radio.identity if radio.conn is None else None, "app": radio.kind,
                "holder": "ble" if self.app else "usb", "mtu": radio.mtu,
                "connections": radio.connections, "refused": radio.refused}


def _flush(protocol, write):
    """Write what the USB link takes now of the lines waiting, then drop the rest, a half line ended."""
    protocol.write(write)
    if protocol.sent:
        write(b"\n", 0)
    _drop_queue(protocol)
    protocol.n = protocol.held_n = 0     # a half line, bytes held: the USB host's


def _drop_queue(protocol):
    """Lines and bytes of the host that had the link: gone with it."""
    del protocol.out[:]
    del protocol._replies[:]
    protocol.sent = protocol.queued = 0
    protocol._rx_at = protocol._rx_n = 0
