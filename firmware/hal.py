"""The hardware layer: the only module that imports ``machine`` and ``neopixel`` (oled.py, the display's driver, ``framebuf``).

It turns the board's wires (board_config.py) into the small interface the main
loop uses (scacchiera/runner.py documents it): switch rows as rank bytes, a
pixel buffer to show, the time, the buttons, the watchdog, the USB serial
link and the flash filesystem. Tests and the simulator hand the loop another
object with the same methods; host_tools/fakehw also has fake ``machine``
and ``neopixel`` modules (an electrical model of the matrix) under which
this very file runs on a PC.

The matrix scan (docs/firmware.md has the timing budget): for each of the 8
rows, pull the row LOW (the row pins are open-drain outputs: LOW or
released, never driven HIGH), wait for the timer's tick, read all 30 GPIO inputs
in one load from SIO GPIO_IN (the columns are consecutive, so one shift and
mask gives the row), release the row, and wait until the columns read 1 again
(the pull-ups recharge the wiring: at most ``settle_us``, set from each column's
recovery timed at boot by ``measure_columns``), timing both
waits on the chip's microsecond timer. A closed reed reads 0. No allocation.
The loop is viper machine code that writes and reads SIO's registers through
a pointer (``scan_matrix``): MicroPython's open-drain pin is its output held
LOW with the output enable switched, so setting a row's bit in GPIO_OE_SET
pulls it LOW and GPIO_OE_CLR releases it, as ``Pin.value`` would, without
its call (692 us a scan with ``Pin.value`` and ``mem32``, docs/firmware.md
has the figure after).
"""

import sys
import time

try:
    from time import ticks_us, ticks_diff
except ImportError:                    # CPython: tests drive UsbSerial over pipes
    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

import machine
import neopixel

import board_config as cfg
from scacchiera.sensing.wiring import Wiring
from scacchiera.storage.fs import OsFS

from scacchiera import const, micropython, ptr8, ptr32

# SIO, the same on the RP2040 and the RP2350: its base, and its registers as word offsets
_SIO = const(0xD0000000)
_SIO_GPIO_IN = const(1)          # 0x004: every pad's level
_SIO_GPIO_OUT_CLR = const(6)     # 0x018: write 1s to set those outputs' levels LOW
_SIO_GPIO_OE_SET = const(9)      # 0x024: write 1s to enable those pins' outputs
_SIO_GPIO_OE_CLR = const(10)     # 0x028: write 1s to disable them
_TIMER_RP2040 = const(0x40054000)     # the microsecond timer's registers (the RP2350's TIMER0), ...
_TIMER_RP2350 = const(0x400B0000)
_TIMERAWL = const(10)            # ...and its TIMERAWL by word (0x028): the count's low 32 bits
try:
    from machine import SIO, TIMER   # the fake board's registers by word (host_tools/fakehw)
except ImportError:
    SIO = _SIO                   # the chip's: scan_matrix reads the addresses as pointers
    TIMER = None                 # the chip's, by its family (Hardware._timer)
_WDT_CTRL_RP2040 = const(0x40058000)   # the watchdog's registers: CTRL, then
_WDT_CTRL_RP2350 = const(0x400D8000)
_WDT_REASON = const(8)           # ...REASON (bit 0 TIMER: it bit; bit 1 FORCE: machine.reset())
_WDT_SCRATCH0 = const(12)        # ...SCRATCH0: kept across a reset (the SDK uses 4-7, not 0)
_CRASH_MARK = const(0x5CAC1A)    # in SCRATCH0: the firmware reset itself after a crash
_ATOMIC_CLEAR = const(0x3000)    # write 1s here to clear bits of a peripheral register
_WDT_MAX_MS = const(8388)        # the RP2040's longest watchdog timeout


class UsbSerial:
    """The USB serial link (stdin, stdout) without waiting for the host, with ``select.poll``.

    Writing: MicroPython's USB CDC write waits, up to 500 ms, until its TX
    buffer (256 bytes) has room for each 64-byte packet of what it is given,
    while poll only says that one byte fits; a byte at a time never waits but
    costs a call a byte, a 64-byte chunk one call (docs/firmware.md has the
    emulated RP2040's figures). So ``write`` hands MicroPython ``CHUNK``
    bytes a call while poll says the link is writable, up to ``CHUNKED_MAX`` a
    loop step; a chunk that took longer than ``SLOW_US`` met a host that is not
    keeping up, and for ``CAREFUL_US`` after it ``write`` goes a byte at a time
    (at most ``WRITE_MAX`` a call). A host that stops reading with the buffer
    partly full thus costs the loop one wait of at most 500 ms, once the buffer
    is full none (poll says so); a host that keeps reading, or never opened the
    port (MicroPython does not wait then), none. On the raw byte stream
    (``sys.stdout.buffer``: no LF -> CR LF); returns how many went.
    """

    WRITE_MAX = 160        # bytes a call a byte at a time
    CHUNK = 64             # bytes a call of MicroPython's write: USB full speed's packet
    CHUNKED_MAX = 1024     # bytes a call in chunks
    SLOW_US = 2000         # a chunk that took longer waited for room...
    CAREFUL_US = 10000000  # ...then a byte at a time for this long

    def __init__(self, stdin=None, stdout=None):
        import select
        self._in = stdin if stdin is not None else sys.stdin
        out = stdout if stdout is not None else sys.stdout
        raw = getattr(self._in, "buffer", self._in)
        self._readinto = getattr(raw, "readinto", None)
        self._read = raw.read
        self._write = getattr(out, "buffer", out).write
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._opoll = select.poll()
        self._opoll.register(out, select.POLLOUT)
        # MicroPython's ipoll polls without allocating; bound once, here, not per call
        self._readable = getattr(self._poll, "ipoll", self._poll.poll)
        self._writable = getattr(self._opoll, "ipoll", self._opoll.poll)
        self._one = bytearray(1)
        self._byte = bytearray(1)
        self.careful = False           # a byte at a time: a chunk waited for room...
        self._careful_us = 0           # ...at this time

    @staticmethod
    def _ready(poll):
        for _ready in poll(0):
            return True
        return False

    def read(self, buf):
        n = 0
        while n < len(buf) and self._ready(self._readable):
            if self._readinto is not None:
                if not self._readinto(self._one):
                    break
                buf[n] = self._one[0]
            else:
                got = self._read(1)
                if not got:
                    break
                buf[n] = got[0]
            n += 1
        return n

    def write(self, data, start=0):
        """Write bytes of ``data`` from ``start`` as far as the link takes them now; the count written."""
        if self.careful and ticks_diff(ticks_us(), self._careful_us) < self.CAREFUL_US:
            return self._write_bytes(data, start)
        self.careful = False
        end = min(len(data), start + self.CHUNKED_MAX)
        view = memoryview(data)
        i = start
        while i < end and self._ready(self._writable):
            began = ticks_us()
            n = self._write(view[i:min(end, i + self.CHUNK)]) or 0
            i += n
            if ticks_diff(ticks_us(), began) > self.SLOW_US:
                self.careful = True
                self._careful_us = ticks_us()
                break
            if not n:
                break
        return i - start

    def _write_bytes(self, data, start):
        end = min(len(data), start + self.WRITE_MAX)
        one = self._byte
        i = start
        while i < end and self._ready(self._writable):
            one[0] = data[i]
            if not self._write(one):
                break
            i += 1
        return i - start


def _is_rp2350():
    """The chip's family, from MicroPython's name for the board ("Raspberry Pi Pico with RP2040")."""
    return "RP2350" in getattr(sys.implementation, "_machine", "")


def random_seed():
    """30 random bits from ``os.urandom`` (the ring oscillator on the RP2040), or the microsecond
    clock where a port has none: a small int either way."""
    try:
        import os
        b = os.urandom(4)
        return b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24
    except (ImportError, AttributeError):
        return time.ticks_us() & 0x3FFFFFFF


def find_display(Pin=None):
    """(the OLED, "") if one answers at its I2C address at boot, else (None, why): the firmware runs without it.

    The probe is one byte, 0x00 (a command stream with no command: harmless
    to an SSD1306), written by the I2C block: an absent panel does not
    acknowledge its address and the write fails at once. Not ``scan()``: it
    tries 112 addresses with zero-length writes, and on the emulated Pico
    (rp2040js, docs/emulator.md) it held the boot past the 3 s the tests allow;
    one known address is all the board needs.
    """
    Pin = Pin or machine.Pin
    try:
        i2c = machine.I2C(cfg.OLED_I2C, sda=Pin(cfg.OLED_SDA), scl=Pin(cfg.OLED_SCL), freq=cfg.OLED_I2C_HZ)
    except (ValueError, OSError) as e:
        return None, "I2C: %r" % e
    try:
        i2c.writeto(cfg.OLED_ADDRESS, b"\x00")
    except OSError:
        return None, "no display at 0x%02x" % cfg.OLED_ADDRESS
    try:
        from oled import Oled        # its driver, loaded only for a panel that answered
        return Oled(i2c, cfg), ""
    except (OSError, ImportError) as e:   # the panel stopped answering; CPython has no framebuf
        return None, "display: %r" % e


@micropython.viper
def scan_matrix(params, raw):
    """``params``: (sio, timer, row_pins, pull, settle, shift, mask), one tuple bound once
    (Hardware._reader): each row pulled LOW in turn, the timer's count waited past ``pull`` us (0: its next tick,
    under 1 us), the columns read into ``raw[r]`` (bit c set: column c's reed closed: GPIO_IN
    shifted right by ``shift``, its zeros masked by ``mask``), the row released; then the
    columns are given back their level before the next row. A column a closed reed pulled LOW
    charges back through its pull-up (tau ~5 us): the next row must not read it still LOW. So
    GPIO_IN is polled until every column reads 1, for at most ``settle`` us (a column held LOW
    with no row pulled is a wiring fault: the scan goes on): the wait is what the wiring needs,
    not a fixed time a row. The waits read the microsecond timer (``timer``: its registers;
    TIMERAWL, a 32-bit count, the difference of two reads wrapping as machine words do).
    ``sio``: SIO's base address (or the fake board's registers); ``row_pins``: 8 GPIO numbers
    (< 30: every bit a small int); ``raw``: 8 bytes, written at r < 8."""
    regs = ptr32(params[0])
    clock = ptr32(params[1])
    pins = ptr8(params[2])
    pull = int(params[3])
    settle = int(params[4])
    shift = int(params[5])
    mask = int(params[6])
    out = ptr8(raw)
    r = 0
    while r < 8:
        bit = 1 << pins[r]
        regs[_SIO_GPIO_OE_SET] = bit
        start = clock[_TIMERAWL]
        while clock[_TIMERAWL] - start <= pull:
            pass
        out[r] = (~(regs[_SIO_GPIO_IN] >> shift)) & mask
        regs[_SIO_GPIO_OE_CLR] = bit
        start = clock[_TIMERAWL]
        while (~(regs[_SIO_GPIO_IN] >> shift)) & mask:
            if clock[_TIMERAWL] - start > settle:
                break
        r += 1


@micropython.viper
def column_recovery(params, bit: int, limit: int) -> int:
    """How long (us) the column on GPIO ``bit`` (its mask) takes to read 1 again after being held LOW:
    its own driver pulls it LOW for 2 us (the wiring's capacitance discharged), lets go, and the
    timer counts until GPIO_IN shows it HIGH, or past ``limit``. Every row is released meanwhile,
    so nothing else drives the column. ``params``: (sio, timer), as scan_matrix's."""
    regs = ptr32(params[0])
    clock = ptr32(params[1])
    regs[_SIO_GPIO_OUT_CLR] = bit
    regs[_SIO_GPIO_OE_SET] = bit
    start = clock[_TIMERAWL]
    while clock[_TIMERAWL] - start <= 2:
        pass
    regs[_SIO_GPIO_OE_CLR] = bit
    start = clock[_TIMERAWL]
    elapsed = 0
    while not (regs[_SIO_GPIO_IN] & bit):
        elapsed = clock[_TIMERAWL] - start
        if elapsed > limit:
            break
    return elapsed


class Hardware:
    """The Pico, wired as board_config.py says."""

    def __init__(self, clock=None, serial=None, root="/games"):
        self.clock = clock if clock is not None else time
        # The clock's own functions, not methods: read at every scan (ticks_ms, sleep_us) and after
        # each node of the engine's search (ticks_us), with no call of ours around them and no bound
        # method made at each call
        self.ticks_ms = self.clock.ticks_ms
        self.ticks_us = self.clock.ticks_us
        self.sleep_us = self.clock.sleep_us
        Pin = machine.Pin
        # Rows: open-drain, released (high impedance) until scanned; no pull (the columns have them).
        self._rows = tuple(Pin(p, Pin.OPEN_DRAIN, pull=None, value=1) for p in cfg.ROW_PINS)
        self._cols = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in cfg.COL_PINS)
        self._buttons = tuple(Pin(p, Pin.IN, Pin.PULL_UP) for _name, p in cfg.BUTTONS)
        self.button_names = tuple(name for name, _p in cfg.BUTTONS)
        self._strip = neopixel.NeoPixel(Pin(cfg.LED_PIN, Pin.OUT), cfg.LED_COUNT)
        self._mem = machine.mem32
        self._row_pins = bytes(cfg.ROW_PINS)
        self._timer = TIMER if TIMER is not None else (_TIMER_RP2350 if _is_rp2350() else _TIMER_RP2040)
        self._raw = bytearray(8)
        self._wiring = Wiring(cfg.rc_to_square)
        self._straight = self._wiring.straight
        self.measure_columns()     # sets settle_us, read_rows and columns (status and diag report it)
        self._wdt = None
        self.fs = OsFS(root)
        self.serial = serial if serial is not None else UsbSerial()
        self.serial_read = self.serial.read       # read(buf) -> count; write(data, start) -> count written
        self.serial_write = self.serial.write
        self.display, self.display_why = find_display(Pin)   # the optional OLED (an Oled), or None and why
        self.parts = (self._news,)       # start.build calls them with the runner, before its boot
        try:
            from ble_radio import part   # a Pico W's radio: a Pico's MicroPython has no bluetooth (ImportError)
            self.parts += (part(self),)
        except ImportError:
            pass

    def _news(self, runner):
        """The wiring's problems found at boot, said after ``boot`` (scacchiera/link/notice.py)."""
        columns = self.columns
        if columns["problems"]:
            from scacchiera.link.notice import Notice
            runner.parts.append(Notice({"ev": "wiring", "problems": columns["problems"],
                                        "settle_us": columns["settle_us"]}))

    # -- the switch matrix ---------------------------------------------------------

    def measure_columns(self):
        """Time each column from LOW back to 1 and set the scan's longest wait after a row from the
        slowest (sensing/columns.py): the wiring's own figure, not a guess. At boot and when
        diagnostics start; returns the report (``self.columns``)."""
        from scacchiera.sensing import columns
        params = (SIO, self._timer)
        times = [column_recovery(params, 1 << pin, columns.LIMIT_US) for pin in cfg.COL_PINS]
        self.columns = columns.report(times, cfg.COL_PINS, cfg.ROW_SETTLE_US)
        self.set_settle(self.columns["settle_us"])
        return self.columns

    def set_settle(self, us):
        """The scan waits at most ``us`` after each row for its columns to read 1 again."""
        self.settle_us = us
        self.read_rows = self._reader()

    def _reader(self):
        """``read_rows(out)``, the scan of the matrix: ``out`` gets 8 rank bytes, bit f of byte r set
        if square r*8+f is occupied. Wired as the logic counts (row r is rank r, column c file c:
        board_config's default), the scan writes the ranks straight; wired any other way, through
        the wiring's table (a call more: 10-40 us on the RP2040). A closure with every argument of
        the scan bound: a call looks up no name (the eleven lookups of a method were 30-75 us a scan
        on the RP2040, as MicroPython's lookup cache hit or missed)."""
        # At most 4 names closed over: a closure's call with more allocates (py/objclosure.c).
        scan, raw = scan_matrix, self._raw
        params = (SIO, self._timer, self._row_pins, cfg.ROW_PULL_US, self.settle_us, cfg.COL_SHIFT, cfg.COL_MASK)
        if self._straight:
            def read_rows(out):
                scan(params, out)
                return out
        else:
            to_squares = self._wiring.to_squares

            def read_rows(out):
                scan(params, raw)
                to_squares(raw, out)
                return out
        return read_rows

    def buttons(self):
        mask = 0
        pins = self._buttons
        for i in range(len(pins)):
            if not pins[i].value():
                mask |= 1 << i
        return mask

    # -- the LEDs ---------------------------------------------------------------------

    def write_pixels(self, buf):
        """Send ``buf`` (3 bytes per LED, chain order, the strip's channel order) down the chain.

        micropython-lib's NeoPixel keeps its bytes in ``.buf`` and sends them
        with ``machine.bitstream``; handing it our buffer avoids a copy.
        """
        strip = self._strip
        strip.buf = buf
        strip.write()

    # -- time (ticks_ms, ticks_us, sleep_us: the clock's own, bound in __init__) ------------

    def random_seed(self):
        """A fresh 30-bit number (a Scacchi Sprint game's decks): the RP2040's ring oscillator."""
        return random_seed()

    def open_data(self, name):
        """A data file shipped with the firmware: in the ROMFS partition (make uf2; a buffer in
        flash, read in place), or at the filesystem's root beside main.py (make deploy, stock MicroPython)."""
        try:
            return open("/rom/" + name, "rb")
        except OSError:
            return open("/" + name, "rb")

    # -- serial (serial_read, serial_write: the link's own, bound in __init__) -----------------

    def serial_ctrl_c(self, on):
        try:
            from micropython import kbd_intr
        except ImportError:            # CPython, under host_tools/fakehw: no Ctrl-C to turn off
            return
        kbd_intr(3 if on else -1)

    # -- watchdog and reset ----------------------------------------------------------------

    def start_watchdog(self, ms):
        if self._wdt is None:
            self._wdt = machine.WDT(timeout=min(ms, _WDT_MAX_MS))

    def feed_watchdog(self):
        if self._wdt is not None:
            self._wdt.feed()

    def stop_watchdog(self):
        """Disarm the watchdog (MicroPython has no call for it: clear CTRL.ENABLE, bit 30).

        Only after Ctrl-C on the serial link: the REPL, mpremote and
        ``make deploy`` must not be cut off by a reset a few seconds later.
        """
        if self._wdt is None:
            return
        self._mem[self._watchdog_base() + _ATOMIC_CLEAR] = 1 << 30
        self._wdt = None

    @staticmethod
    def _watchdog_base():
        return _WDT_CTRL_RP2350 if _is_rp2350() else _WDT_CTRL_RP2040

    def reset(self):
        """Reset after a crash: marked, so that the next boot says ``watchdog`` like a hang."""
        self._mem[self._watchdog_base() + _WDT_SCRATCH0] = _CRASH_MARK
        machine.reset()

    def reset_cause(self):
        """Why the chip started: ``power_on``, ``watchdog`` (the loop hung or crashed) or ``reset``.

        MicroPython's ``machine.reset_cause()`` says WDT_RESET for any reset the
        watchdog made, and ``machine.reset()`` (``make deploy``, ``mpremote
        reset``) is one: a forced watchdog reset. The REASON register tells
        the two apart; SCRATCH0 marks the firmware's own reset after a crash.
        """
        base = self._watchdog_base()
        mem = self._mem
        reason = mem[base + _WDT_REASON] & 3
        crashed = mem[base + _WDT_SCRATCH0] == _CRASH_MARK
        if crashed:
            mem[base + _WDT_SCRATCH0] = 0      # used once
        if reason & 1 or (reason & 2 and crashed):
            return "watchdog"
        if reason & 2:
            return "reset"
        return "power_on"
