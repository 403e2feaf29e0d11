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


def reset_board(diodes=True):
    """A new board: no magnets, nothing driven, no pulls, a clock at 0."""
    global board, clock, watchdog, resets, cause, writes, registers, _low, _high, _memo, _memo_rev
    board = ReedMatrix(diodes=diodes, pull_ups=False)
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
        board.pull(pin, None)


def _word():
    if board.revision == _memo_rev:
        by_low = _memo.get(_high)
        if by_low is not None:
            word = by_low.get(_low)
            if word is not None:
                return word
    depth = _unlock()
    try:
        return _solve()
    finally:
        _relock(depth)


def _solve():
    """The GPIO_IN word for the pins driven now, solved on the board and cached."""
    global _memo_rev
    if board.revision != _memo_rev:
        _memo.clear()
        _memo_rev = board.revision
    by_low = _memo.get(_high)
    if by_low is None:
        by_low = _memo[_high] = {}
    for pin in range(_NUM_GPIOS):
        bit = 1 << pin
        if _low & bit:
            board.drive(pin, 0)
        elif _high & bit:
            board.drive(pin, 1)
        else:
            board.release(pin)
    word = by_low[_low] = board.gpio_in()
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
        global _low, _high
        bit = 1 << self.id
        _low &= ~bit
        _high &= ~bit
        if self._mode == Pin.OUT:
            if self._out:
                _high |= bit
            else:
                _low |= bit
        elif self._mode == Pin.OPEN_DRAIN and not self._out:
            _low |= bit

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
    GPIO_OE_SET (9) and GPIO_OE_CLR (10). MicroPython's open-drain pin holds its output LOW and
    switches the output enable: an enabled open-drain pin pulls LOW, a disabled one floats."""

    def __getitem__(self, word):
        if word == 1:
            return _word()
        raise ValueError("fake SIO: no register at word %d" % word)

    def __setitem__(self, word, bits):
        global _low
        if word == 9:
            _low |= bits
        elif word == 10:
            _low &= ~bits
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
