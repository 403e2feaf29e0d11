"""Scacchiera: the logic of a DIY electronic chessboard, the same on the Pico and on a PC.

Nothing in this package touches hardware; the board's pins live behind the
hardware layer that ``main.py`` builds and hands in.
"""

# What the board announces of itself (the ``boot`` event, ``hello``): here, so the protocol,
# the line framing and the commands share them without importing each other.
VERSION = 1                    # the protocol's version
FIRMWARE = "scacchiera 0.1.0"
MAX_LINE = 512                 # the longest line the board reads, in bytes, without the line end

# ``const``, the one thing that differs between MicroPython and CPython here. On MicroPython
# ``X = const(3)`` is folded by the compiler (``_X``, with a leading underscore, never reaches
# the module's dict); CPython gets a function that returns its argument. Here rather than in a
# module of its own: a module costs the Pico about 400 bytes of RAM.
import sys

try:
    from micropython import const
except ImportError:  # CPython: const() is only a hint for the MicroPython compiler
    def const(value):
        return value


# A call whose frame (arguments, locals, stack) is over 11 words gets it from the heap at every
# call on MicroPython (py/objfun.c, VM_MAX_STATE_ON_STACK), freed at the return; the allocator
# looks for room from the first free block up, so on a heap the boot and the engine's load left
# in small pieces each such call walked the allocation table: 56 % of the RP2040's time while the
# engine thought (docs/firmware.md, "Frames on the heap"). With the heap locked the frame goes
# on the C stack instead. The loop locks it only around calls that allocate nothing by contract
# (tests/mpy/check_scan_no_alloc.py): a real allocation there would raise MemoryError.
try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: no heap to lock
    def heap_lock():
        pass

    def heap_unlock():
        pass


def heap_unlock_all():
    """Unlock the heap however deep it is locked. A Ctrl-C (the REPL tools send two) can land
    between a lock and its unlock: the loop then stops with the heap locked, and the REPL after it
    has no memory (its first line a MemoryError, the board stuck)."""
    while heap_unlock():
        pass


# Millisecond timestamps wrap, as MicroPython's time.ticks_ms() does. Logic never reads a clock:
# every call is handed ``now`` (ms). On the Pico that is ``time.ticks_ms()``, which wraps at 2**30;
# in the simulator and the tests it is simulated time. Differences go through ``elapsed`` so both
# work. (Here and not in a module of its own: that cost 416 bytes of the heap.)
_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)


def elapsed(now, then):
    """Milliseconds from ``then`` to ``now`` (negative if ``then`` is later), wrap-safe."""
    d = (now - then) & _TICKS_MASK
    return d - _TICKS_MASK - 1 if d >= _TICKS_HALF else d   # never 2**30: a big int on MicroPython


def forget(module):
    """Drop a module used only now and then (a reader) on MicroPython, so the collector frees its
    code until the next use; CPython keeps it, like any module."""
    if sys.implementation.name == "micropython":
        name = module.__name__
        del sys.modules[name]
        package, _, attr = name.rpartition(".")
        delattr(sys.modules[package], attr)


# Viper's names where there is no viper (CPython; the WebAssembly port, which has no native
# emitter: tools/micropython/run.mjs blanks the decorator lines it cannot compile). A function the
# RP2040 runs as machine code is written once, decorated ``@micropython.viper``: on the Pico its
# ints are machine words and ``ptr8(buf)`` / ``ptr16`` / ``ptr32`` raw pointers into a buffer
# (the compiler reads those names as casts whatever a module binds); elsewhere the same lines
# run as Python, ``ptr8(x)`` being ``x`` itself, indexed like the pointer. Such a function keeps
# to what reads the same both ways: ints within the 30-bit small-int range (viper's wrap at 32
# bits never happens), every index proved in range before the access (viper checks none), no
# Python object inside its loops; tests/test_pico_native.py runs each against its bytecode twin.
try:
    import micropython
except ImportError:  # CPython
    class micropython:  # noqa: N801 (the module's name, so the decorators read the same)
        @staticmethod
        def native(function):
            return function

        @staticmethod
        def viper(function):
            return function


def ptr8(buffer):
    """Outside viper: the buffer itself (its items are the pointer's)."""
    return buffer


ptr16 = ptr32 = ptr8
