"""A fake ``machine`` module: the Pico's pins wired to an electrical model of the board.

Put host_tools/fakehw FIRST on sys.path (before firmware/) and the firmware's
hal.py imports this instead of MicroPython's. Pins become levels in the reed
matrix of matrix.py, built from firmware/board_config.py: a row pulled LOW
pulls down the columns of its closed reeds, through the diodes, and
``mem32[SIO GPIO_IN]`` reads every pad at once. A firmware that forgets a
pull-up reads a floating 0 here, as it would misread on the board.

Module state, one board per process (``reset_board()`` starts afresh):

    board      the ReedMatrix: tests place and lift magnets, press buttons on it
    clock      the simulated clock (simclock.Clock) to hand to hal.Hardware
    watchdog   the WDT the firmware started, if any
    resets     how many times the firmware called reset() (which raises simclock.Reset)
    cause      what reset_cause() answers
    writes     (address, value) of every mem32 store (the watchdog disarm)
    registers  the watchdog's REASON and SCRATCH registers (mem32), as reboot() leaves them

Reads allocate nothing once a given set of driven pins has been solved for the
current board (the solution is cached until a reed, button or pull changes),
so the firmware's scan can run under micropython.heap_lock() here too.
Plain Python that also runs on MicroPython.
"""

import simclock
from matrix import ReedMatrix

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython
    heap_lock = heap_unlock = None

PWRON_RESET = 1
WDT_RESET = 3
FORCED_RESET = -2         # not MicroPython's: reboot() after machine.reset() (the watchdog forced)
_GPIO_IN = 0xD0000004
_WDT = 0x40058000         # the RP2040's watchdog: REASON at +8, SCRATCH0-7 at +12..+40
_NUM_GPIOS = 30

board = None
clock = None
watchdog = None
resets = 0
cause = PWRON_RESET
writes = []
registers = {}
_low = 0          # pins driven LOW (bit n = GPIO n)
_high = 0         # pins driven HIGH
_memo = {}        # _high -> {_low -> GPIO_IN word}
_memo_rev = -1
# The columns' recovery (columns.py), when the board has one: a column let go of reads 0 until
# the timer has counted its delay (or the board's clock moved on: the next scan comes later).
_rc_pins = ()                  # the column GPIOs with a delay
_after_reed = [0] * _NUM_GPIOS  # us to read 1 after a closed reed let go (from the diode's drop)
_after_self = [0] * _NUM_GPIOS  # us after the pin's own driver let go (from 0 V)
_ready = [0] * _NUM_GPIOS       # the timer count it reads 1 again at; 0: not recovering
_ready_clock = [0] * _NUM_GPIOS  # the board's clock (us) when it was let go


def reset_board(diodes=True, columns=None):
    """A new board: no magnets, nothing driven, no pulls, a clock at 0.

    ``columns``: a columns.ColumnLoads (each column's capacitance and pull-up: a column read
    too soon after a closed reed let go still reads 0), or None (they recover at once).
    """
    global board, clock, watchdog, resets, cause, writes, registers, _low, _high, _memo, _memo_rev, _rc_pins
    board = ReedMatrix(diodes=diodes, pull_ups=False)
    _rc_pins = ()
    for pin in range(_NUM_GPIOS):
        _after_reed[pin] = _after_self[pin] = _ready[pin] = _ready_clock[pin] = 0
    if columns is not None:
        delays = columns.by_pin()
        for pin, (reed, own) in delays.items():
            _after_reed[pin] = reed
            _after_self[pin] = own
        _rc_pins = tuple(sorted(delays))
    clock = simclock.Clock()
    watchdog = None
    resets = 0
    cause = PWRON_RESET
    writes = []
    registers = {}
    for i in range(9):
        registers[_WDT + 8 + 4 * i] = 0
    _low = _high = 0
    _memo = {}
    _memo_rev = -1


def reboot(reason=WDT_RESET):
    """The chip restarts with the same board (magnets stay where they are): pins float again.

    ``reason``: WDT_RESET (the watchdog bit), FORCED_RESET (after machine.reset()) or
    PWRON_RESET (power cut: the scratch registers are lost too).
    """
    global watchdog, cause, _low, _high
    watchdog = None
    cause = PWRON_RESET if reason == PWRON_RESET else WDT_RESET
    if reason == PWRON_RESET:
        for addr in registers:
            registers[addr] = 0
    registers[_WDT + 8] = {WDT_RESET: 1, FORCED_RESET: 2}.get(reason, 0)
    _low = _high = 0
    for pin in range(_NUM_GPIOS):
        _ready[pin] = 0
    for pin in range(_NUM_GPIOS):
        board.pull(pin, None)


def _word():
    """What GPIO_IN reads now: the pads' levels, with the columns still recovering read as 0."""
    word = _static(_high, _low)
    if _rc_pins:
        now = TIMER.count
        for pin in _rc_pins:
            ready = _ready[pin]
            if ready and (word >> pin) & 1:
                if _ready_clock[pin] == clock._us and 0 < ((ready - now) & 0x3FFFFFFF) < 0x20000000:
                    word &= ~(1 << pin)
                else:
                    _ready[pin] = 0
    return word


def _static(high, low):
    """The levels once everything has settled, for these pins driven HIGH and LOW (cached)."""
    if board.revision == _memo_rev:
        by_low = _memo.get(high)
        if by_low is not None:
            word = by_low.get(low)
            if word is not None:
                return word
    depth = _unlock()
    try:
        return _solve(high, low)
    finally:
        _relock(depth)


def _driven(high, low):
    """The pins driven change to ``high`` and ``low``: a column that falls starts no delay, one that
    rises (a closed reed's row let go, or its own driver) reads 0 for its recovery first."""
    global _high, _low
    if _rc_pins:
        before = _static(_high, _low)
        after = _static(high, low)
        now = TIMER.count
        for pin in _rc_pins:
            bit = 1 << pin
            if not after & bit:
                _ready[pin] = 0
            elif not before & bit:
                delay = _after_self[pin] if _low & bit else _after_reed[pin]
                if delay:
                    _ready[pin] = ((now + delay) & 0x3FFFFFFF) or 1
                    _ready_clock[pin] = clock._us
    _high = high
    _low = low


def _solve(high, low):
    """The GPIO_IN word for these pins driven, solved on the board and cached."""
    global _memo_rev
    if board.revision != _memo_rev:
        _memo.clear()
        _memo_rev = board.revision
    by_low = _memo.get(high)
    if by_low is None:
        by_low = _memo[high] = {}
    for pin in range(_NUM_GPIOS):
        bit = 1 << pin
        if low & bit:
            board.drive(pin, 0)
        elif high & bit:
            board.drive(pin, 1)
        else:
            board.release(pin)
    word = by_low[low] = board.gpio_in()
    return word


def _unlock():
    """Unlock the heap whatever its depth (the firmware locks it around reading the switches:
    scacchiera/__init__.py); returns that depth for _relock. Solving the pads is this fake board's
    physics, not the firmware's work: the Pico's pads need no memory."""
    if heap_unlock is None:
        return 0
    depth = heap_unlock() + 1
    heap_lock()
    for _ in range(depth):
        heap_unlock()
    return depth


def _relock(depth):
    for _ in range(depth):
        heap_lock()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if not isinstance(id, int) or not 0 <= id < _NUM_GPIOS:
            raise ValueError("invalid pin")
        self.id = id
        self._mode = Pin.IN
        self._out = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self._mode = mode
        if pull != -1:
            board.pull(self.id, None if pull is None else (1 if pull == Pin.PULL_UP else 0))
        if value is not None:
            self._out = 1 if value else 0
        self._apply()

    def _apply(self):
        bit = 1 << self.id
        low = _low & ~bit
        high = _high & ~bit
        if self._mode == Pin.OUT:
            if self._out:
                high |= bit
            else:
                low |= bit
        elif self._mode == Pin.OPEN_DRAIN and not self._out:
            low |= bit
        _driven(high, low)

    def value(self, v=None):
        if v is None:
            return (_word() >> self.id) & 1
        self._out = 1 if v else 0
        self._apply()

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off


class _Mem32:
    def __getitem__(self, addr):
        if addr == _GPIO_IN:
            return _word()
        if addr in registers:
            return registers[addr]
        raise ValueError("fake mem32: no register at 0x%08x" % addr)

    def __setitem__(self, addr, value):
        writes.append((addr, value))
        if addr in registers and addr != _WDT + 8:     # REASON is read-only
            registers[addr] = value & 0xFFFFFFFF


mem32 = _Mem32()


class _Sio:
    """SIO's registers by word, as hal.scan_matrix's pointer reads and writes them: GPIO_IN (1),
    GPIO_OUT_CLR (6), GPIO_OE_SET (9) and GPIO_OE_CLR (10). MicroPython's open-drain pin holds its output LOW and
    switches the output enable: an enabled open-drain pin pulls LOW, a disabled one floats."""

    def __getitem__(self, word):
        if word == 1:
            return _word()
        raise ValueError("fake SIO: no register at word %d" % word)

    def __setitem__(self, word, bits):
        if word == 9:
            _driven(_high, _low | bits)
        elif word == 10:
            _driven(_high, _low & ~bits)
        elif word == 6:
            pass      # GPIO_OUT_CLR: the output levels LOW, which an enabled pin here always is
        else:
            raise ValueError("fake SIO: no register at word %d" % word)


SIO = _Sio()


class _Timer:
    """The microsecond timer's registers by word, as hal.scan_matrix reads TIMERAWL (10): a count
    that goes up by one at each read, so the scan's busy waits end (the board's own time is
    ``clock``'s, which only sleeps advance)."""

    def __init__(self):
        self.count = 0

    def __getitem__(self, word):
        if word != 10:
            raise ValueError("fake TIMER: no register at word %d" % word)
        self.count = (self.count + 1) & 0x3FFFFFFF
        return self.count


TIMER = _Timer()


class WDT:
    MAX_MS = 8388

    def __init__(self, id=0, timeout=5000):
        global watchdog
        if not 1 <= timeout <= WDT.MAX_MS:
            raise ValueError("timeout out of range")
        self.timeout = timeout
        self.feeds = 0
        self.fed_ms = clock.ticks_ms()
        watchdog = self

    def feed(self):
        self.feeds += 1
        self.fed_ms = clock.ticks_ms()

    def starved(self):
        """Would the real watchdog have reset the chip by now?"""
        return clock.ticks_diff(clock.ticks_ms(), self.fed_ms) > self.timeout


def reset():
    global resets
    resets += 1
    raise simclock.Reset()


def reset_cause():
    return cause


def freq():
    return 125000000


def unique_id():
    return b"\xe6\x61\x00\x00\x00\x00\x00\x01"


def idle():
    pass


reset_board()


# -- I2C: the optional display's bus ------------------------------------------------------

i2c_devices = {}          # address -> a device model with write(data) (ssd1306_model.Ssd1306Model)


class I2C:
    """machine.I2C with the devices of ``i2c_devices`` on the bus (none: the scan finds nothing)."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        if id not in (0, 1):
            raise ValueError("bad I2C id")
        self.id = id
        self.freq = freq

    def scan(self):
        return sorted(i2c_devices)

    def _device(self, addr):
        device = i2c_devices.get(addr)
        if device is None:
            raise OSError(5)            # EIO: no acknowledge, as on the Pico
        return device

    def writeto(self, addr, buf, stop=True):
        self._device(addr).write(buf, self.freq)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = bytearray()
        for buf in vector:
            data.extend(buf)
        self._device(addr).write(data, self.freq)
        return len(data)
