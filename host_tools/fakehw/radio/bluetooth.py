"""A fake of MicroPython's ``bluetooth`` module: the peripheral side's API, and a central to drive it.

The firmware's radio (firmware/ble_radio.py) imports ``bluetooth``; with host_tools/fakehw/radio on
the path (a Pico W: the rest of fakehw is a Pico without one) it gets this module, on CPython and
under MicroPython alike. What it keeps of MicroPython's
documented API (docs.micropython.org, library/bluetooth.html):

- ``BLE()`` is one object per process (``active``, ``config``, ``irq``);
- ``gatts_register_services`` takes ``((uuid, ((uuid, flags), ...)), ...)`` and returns each
  service's tuple of value handles, numbered as a GATT server numbers them (a service's declaration,
  then per characteristic its declaration and its value, and a CCCD after a value that notifies);
- a central's write stores the value (replaced, or appended after ``gatts_set_buffer(h, n, True)``
  until ``gatts_read``, cut at the buffer's size) and raises ``_IRQ_GATTS_WRITE`` with
  ``(conn_handle, value_handle)``; the handler runs as MicroPython schedules it, between two
  bytecodes of the main loop: here, when the test's central acts, between two of the loop's steps;
- ``gatts_notify(conn, handle, data)`` sends at most the connection's ATT MTU less 3 bytes (the
  rest is cut off, as the stack does; ``Central.cut`` counts it), whether or not the central
  subscribed (its OS passes the app only those it subscribed to); a central that stops taking them
  (``Central.stalled``) fills the controller's ``QUEUE`` and gatts_notify raises OSError(12);
- the IRQ codes and the FLAG_ constants are the documented numbers; a central that connects gets
  handle 64 upwards, and ``_IRQ_MTU_EXCHANGED`` tells the MTU it agreed (23 until then).

``radio_fails``: a module-level switch for the path where the radio chip does not answer (the
emulated Pico W's ``active(True)`` raises ``OSError(22)``).
"""

FLAG_BROADCAST = 0x0001
FLAG_READ = 0x0002
FLAG_WRITE_NO_RESPONSE = 0x0004
FLAG_WRITE = 0x0008
FLAG_NOTIFY = 0x0010
FLAG_INDICATE = 0x0020

_IRQ_CENTRAL_CONNECT = 1
_IRQ_CENTRAL_DISCONNECT = 2
_IRQ_GATTS_WRITE = 3
_IRQ_MTU_EXCHANGED = 21

DEFAULT_MTU = 23      # ATT's: 20 bytes a notification until the central asks for more
QUEUE = 8             # notifications the controller holds for a central that stopped taking them
radio_fails = False   # active(True) raises OSError(22), as on the emulated Pico W (no radio chip)

_the_ble = None


class UUID:
    """A 16-bit UUID (an int) or a 128-bit one (its text with dashes); equal by value."""

    def __init__(self, value):
        if isinstance(value, UUID):
            value = value.value
        if isinstance(value, int):
            if not 0 <= value <= 0xFFFF:
                raise ValueError("invalid UUID")
        else:
            value = value.lower()
            if len(value.replace("-", "")) != 32:
                raise ValueError("invalid UUID")
        self.value = value

    def __eq__(self, other):
        return isinstance(other, UUID) and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "UUID(%r)" % (self.value,)


def BLE():
    global _the_ble
    if _the_ble is None:
        _the_ble = _BLE()
    return _the_ble


def reset():
    """A fresh radio (a test's new board): the handles, the central and the advertising gone."""
    global _the_ble, radio_fails
    _the_ble = None
    radio_fails = False


class _BLE:
    def __init__(self):
        self._active = False
        self._irq = None
        self._config = {"gap_name": b"MPY BTSTACK", "mtu": 256, "rxbuf": 64}
        self.values = {}          # value handle -> bytearray
        self._caps = {}           # value handle -> (max length, append)
        self.flags = {}           # value handle -> FLAG_ bits
        self.uuids = {}           # value handle -> UUID
        self.advertising = None   # (interval_us, adv_data, resp_data, connectable) while advertising
        self.adverts = 0          # gap_advertise calls that started advertising
        self.centrals = {}        # connection handle -> the connected Central

    def active(self, on=None):
        if on is None:
            return self._active
        if on and radio_fails:
            raise OSError(22)
        self._active = bool(on)
        if not on:
            self.advertising = None
        return self._active

    def config(self, *names, **values):
        if names:
            return self._config[names[0]]
        for key in values:
            if key not in ("gap_name", "mtu", "rxbuf", "bond", "mitm", "io", "le_secure", "addr_mode"):
                raise ValueError("unknown config param")
            self._config[key] = values[key]

    def irq(self, handler):
        self._irq = handler

    def _need_active(self):
        if not self._active:
            raise OSError(19)     # ENODEV: MicroPython's answer while the stack is off

    def gap_advertise(self, interval_us, adv_data=None, resp_data=None, connectable=True):
        self._need_active()
        if adv_data is not None and len(adv_data) > 31 or resp_data is not None and len(resp_data) > 31:
            raise ValueError("advertising data over 31 bytes")
        if interval_us is None:
            self.advertising = None
        else:
            self.advertising = (interval_us, bytes(adv_data or b""), bytes(resp_data or b""), connectable)
            self.adverts += 1

    def gap_disconnect(self, conn_handle):
        self._need_active()
        central = self.centrals.get(conn_handle)
        if central is None:
            return False
        self._drop(central)
        return True

    def gatts_register_services(self, services):
        self._need_active()
        handle = 1
        out = []
        self.values, self._caps, self.flags, self.uuids = {}, {}, {}, {}
        for uuid, chars in services:
            handle += 1               # the service's declaration
            handles = []
            for char_uuid, flags in chars:
                value = handle + 1    # its declaration, then its value
                self.values[value] = bytearray()
                self._caps[value] = (20, False)
                self.flags[value] = flags
                self.uuids[value] = char_uuid
                handles.append(value)
                handle = value + (2 if flags & (FLAG_NOTIFY | FLAG_INDICATE) else 1)
            out.append(tuple(handles))
        return tuple(out)

    def gatts_set_buffer(self, value_handle, size, append=False):
        self._need_active()
        self._caps[value_handle] = (size, append)

    def gatts_read(self, value_handle):
        self._need_active()
        value = bytes(self.values[value_handle])
        if self._caps[value_handle][1]:
            self.values[value_handle] = bytearray()   # append mode: cleared by the read
        return value

    def gatts_write(self, value_handle, data, send_update=False):
        self._need_active()
        self.values[value_handle] = bytearray(data)

    def gatts_notify(self, conn_handle, value_handle, data=None):
        self._need_active()
        central = self.centrals.get(conn_handle)
        if central is None:
            raise OSError(128)        # no such connection
        if central.stalled:
            if central.queued >= QUEUE:
                raise OSError(12)     # ENOMEM: the controller's buffers are full
            central.queued += 1
        if data is None:
            data = self.values[value_handle]
        room = central.mtu - 3
        if len(data) > room:
            central.cut += len(data) - room
        if value_handle in central.subscribed:
            central.inbox.append((value_handle, bytes(data[:room])))

    def _event(self, code, data):
        if self._irq is not None:
            self._irq(code, data)

    def _drop(self, central):
        del self.centrals[central.handle]
        central.handle = None
        self._event(_IRQ_CENTRAL_DISCONNECT, (central.handle_was, 0, central.addr))


class Central:
    """A phone or a computer as the BLE central: it connects to the board's radio, asks for an MTU,
    subscribes to a characteristic's notifications, writes, and reads what came (``take``).
    ``handle_of(uuid)`` finds a characteristic's value handle by its UUID, as service discovery does."""

    _next_handle = 64

    def __init__(self, addr=b"\x02\x00\x00\x00\x00\x01"):
        self.addr = addr
        self.handle = None
        self.handle_was = None
        self.mtu = DEFAULT_MTU
        self.subscribed = set()
        self.inbox = []           # (value handle, bytes) notifications not taken yet
        self.cut = 0              # bytes of notifications cut off at the MTU
        self.stalled = False      # it stopped acknowledging: notifications queue in the controller
        self.queued = 0           # ...this many so far (they arrive, in order, when it resumes)

    @property
    def ble(self):
        return BLE()

    def connect(self):
        """Connect, if the board advertises connectably (OSError if not)."""
        ble = self.ble
        if ble.advertising is None or not ble.advertising[3]:
            raise OSError("the board is not advertising")
        ble.advertising = None    # a connection ends the advertising
        Central._next_handle += 1
        self.handle = self.handle_was = Central._next_handle
        self.mtu = DEFAULT_MTU
        self.subscribed = set()
        self.inbox = []
        ble.centrals[self.handle] = self
        ble._event(_IRQ_CENTRAL_CONNECT, (self.handle, 0, self.addr))

    def exchange_mtu(self, mtu):
        """The central asks for ``mtu``; they agree on the smaller of it and the board's."""
        ble = self.ble
        self.mtu = min(mtu, ble.config("mtu"))
        ble._event(_IRQ_MTU_EXCHANGED, (self.handle, self.mtu))

    def handle_of(self, uuid):
        uuid = UUID(uuid)
        for handle, known in self.ble.uuids.items():
            if known == uuid:
                return handle
        raise KeyError(uuid)

    def subscribe(self, uuid):
        """Write the CCCD of ``uuid``'s characteristic: its notifications on."""
        handle = self.handle_of(uuid)
        assert self.ble.flags[handle] & FLAG_NOTIFY, "that characteristic does not notify"
        self.subscribed.add(handle)

    def write(self, uuid, data):
        """One ATT write of ``data`` (at most the MTU less 3 bytes, as ATT allows) to ``uuid``'s value."""
        ble = self.ble
        assert self.handle is not None and ble.centrals.get(self.handle) is self, "not connected"
        assert len(data) <= self.mtu - 3, "an ATT write carries at most MTU - 3 bytes"
        handle = self.handle_of(uuid)
        assert ble.flags[handle] & (FLAG_WRITE | FLAG_WRITE_NO_RESPONSE), "that characteristic is not writable"
        size, append = ble._caps[handle]
        value = ble.values[handle] if append else bytearray()
        value += bytes(data)[:max(0, size - len(value))]
        ble.values[handle] = value
        ble._event(_IRQ_GATTS_WRITE, (self.handle, handle))

    def take(self):
        """The bytes of the notifications that came since the last take, in order, joined."""
        out = b"".join(data for _handle, data in self.inbox)
        self.inbox = []
        return out

    def disconnect(self):
        """The central goes (out of range, the app closed)."""
        ble = self.ble
        if ble.centrals.get(self.handle) is self:
            ble._drop(self)
