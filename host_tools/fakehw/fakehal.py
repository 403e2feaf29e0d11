"""A hardware layer made of plain data, for tests and the simulator.

``FakeHardware`` has the interface the firmware's main loop uses
(firmware/scacchiera/runner.py documents it) without any pins: the switches
are 8 rank bytes the hands set, the strip is a byte buffer, the clock is
simulated (simclock.Clock), the serial link is a ``LoopSerial``, the flash
is a MemFS. Tests that want the pins themselves run hal.py on the fake
``machine`` module instead. Plain Python that also runs on MicroPython.
"""

import json

from simclock import Clock, Reset



def _data_dir():
    """The firmware's data files (open_data): firmware/ beside host_tools/ in the tree; relative to the
    repository's root (where the tests run) when this module's path does not say."""
    parts = globals().get("__file__", "").replace("\\", "/").rsplit("/", 3)
    return parts[0] + "/firmware" if len(parts) == 4 else "firmware"


class LoopSerial:
    """The USB serial link seen from both ends: the host sends lines, the board writes lines.

    hal.Hardware takes it as ``serial`` (instead of USB stdin/stdout).
    Reading an empty queue allocates nothing. ``sent`` holds the lines the
    host has read. A host may stop reading (``paused``): the board's writes
    then fill a TX buffer of ``tx_size`` bytes, as MicroPython's USB CDC
    buffer does, and take no more; ``resume`` reads it all.
    """

    def __init__(self, tx_size=256):
        self.sent = []                    # lines the host read (str, ending in LF), not yet taken
        self.paused = False               # the host keeps the port open but reads nothing
        self.tx_size = tx_size
        self._tx = b""                    # written, not read by the host yet (a half line when reading)
        self._rx = bytearray()
        self._pos = 0
        self.raw = None                   # a bytearray: every byte the board writes from then on (DGT's)

    def read(self, buf):
        rx = self._rx
        pos = self._pos
        n = len(rx) - pos
        if n <= 0:
            return 0
        if n > len(buf):
            n = len(buf)
        for i in range(n):
            buf[i] = rx[pos + i]
        self._pos = pos + n
        if self._pos >= len(rx):
            self._rx = bytearray()
            self._pos = 0
        return n

    def write(self, data, start=0):
        """The board writes ``data[start:]`` (bytes): returns how many bytes the link took."""
        n = len(data) - start
        if self.paused:
            n = max(0, min(n, self.tx_size - len(self._tx)))
        self._tx += data[start:start + n]
        if self.raw is not None:
            self.raw += data[start:start + n]
        if not self.paused:
            self.resume()
        return n

    def resume(self):
        """The host reads every whole line waiting (a binary protocol's host reads ``raw``)."""
        self.paused = False
        if self.raw is not None:
            self._tx = b""
            return
        lines = self._tx.split(b"\n")
        self._tx = lines.pop()
        for line in lines:
            self.sent.append(line.decode() + "\n")

    def send_bytes(self, data):
        self._rx = self._rx[self._pos:] + bytearray(data)
        self._pos = 0

    def unread(self):
        """The bytes the host sent that the board has not read yet."""
        return len(self._rx) - self._pos

    def send(self, line):
        """A line from the host (a dict is sent as JSON)."""
        if not isinstance(line, str):
            line = json.dumps(line)
        self.send_bytes((line + "\n").encode())

    def take(self):
        """The lines the board wrote since the last take, parsed."""
        lines = [json.loads(text) for text in self.sent if text.strip()]   # (a blank line: after a DGT host)
        self.sent = []
        return lines


class FakeDisplay:
    """The optional 128 x 64 panel (hal.Oled's interface): the lines and icons it shows, as data."""

    def __init__(self, rows=8):
        self.lines = [""] * rows
        self.icons = bytearray(rows)
        self.shows = 0                    # show() calls
        self.pages = 0                    # lines (controller pages) sent

    def show(self, lines, icons, changed):
        for i in range(len(self.lines)):
            if changed >> i & 1:
                self.lines[i] = lines[i]
                self.icons[i] = icons[i]
                self.pages += 1
        self.shows += 1


class FakeHardware:
    button_names = ("diag", "undo", "menu", "ok")   # board_config.BUTTONS

    def __init__(self, fs=None, clock=None, leds=64, display=None):
        self.clock = clock if clock is not None else Clock()
        if fs is None:
            from memfs import MemFS
            fs = MemFS()
        self.fs = fs
        self.serial = LoopSerial()
        self.occupied = bytearray(8)      # rank bytes: bit f of byte r = square r*8+f holds a magnet
        self.held = 0                     # buttons held (bit i = button_names[i])
        self.pixels = bytearray(3 * leds)  # what the strip shows
        self.pixel_writes = 0
        self.scans = 0
        self.watchdog_ms = 0
        self.feeds = 0
        self.resets = 0
        self.cause = "power_on"
        self.display = display            # a FakeDisplay, or None: no panel found at boot
        self.ctrl_c = True                # byte 0x03 would stop the firmware (serial_ctrl_c)
        self.data_dir = _data_dir()       # where open_data finds the firmware's data files

    # -- the interface the firmware uses -------------------------------------------------

    def read_rows(self, out):
        occupied = self.occupied
        for r in range(8):
            out[r] = occupied[r]
        self.scans += 1
        return out

    def write_pixels(self, buf):
        pixels = self.pixels
        for i in range(len(pixels)):
            pixels[i] = buf[i]
        self.pixel_writes += 1

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def open_data(self, name):
        """A data file shipped with the firmware: firmware/``name`` in the tree (``data_dir``)."""
        return open(self.data_dir + "/" + name, "rb")

    def random_seed(self):
        """A fresh Sprint seed, as the Pico draws one (hal.random_seed): the host's randomness."""
        import os
        return int.from_bytes(os.urandom(4), "little") & 0x3FFFFFFF

    def ticks_us(self):
        return self.clock.ticks_us()

    def sleep_us(self, us):
        self.clock.sleep_us(us)

    def buttons(self):
        return self.held

    def serial_read(self, buf):
        return self.serial.read(buf)

    def serial_write(self, data, start=0):
        return self.serial.write(data, start)

    def serial_ctrl_c(self, on):
        self.ctrl_c = on

    def start_watchdog(self, ms):
        self.watchdog_ms = ms

    def feed_watchdog(self):
        self.feeds += 1

    def stop_watchdog(self):
        self.watchdog_ms = 0

    def reset(self):
        self.resets += 1
        raise Reset()

    def reset_cause(self):
        return self.cause

    # -- the hands and the host ------------------------------------------------------------

    def present(self, square):
        return (self.occupied[square >> 3] >> (square & 7)) & 1

    def place(self, square):
        self.occupied[square >> 3] |= 1 << (square & 7)

    def lift(self, square):
        self.occupied[square >> 3] &= ~(1 << (square & 7)) & 0xFF

    def set_squares(self, squares):
        for r in range(8):
            self.occupied[r] = 0
        for sq in squares:
            self.place(sq)

    def press(self, name, down=True):
        bit = 1 << self.button_names.index(name)
        self.held = self.held | bit if down else self.held & ~bit

    def send(self, line):
        self.serial.send(line)

    def send_bytes(self, data):
        self.serial.send_bytes(data)

    def take(self):
        return self.serial.take()
