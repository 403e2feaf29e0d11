"""Viper's names for the places that have no viper: CPython and the WebAssembly port.

A function the RP2040 should run as machine code is written once, decorated
``@micropython.viper``; on the Pico the compiler (mpy-cross -march=armv6m, or
the chip's own) turns it into Thumb code whose ints are machine words and
whose ``ptr8(buf)`` / ``ptr16`` / ``ptr32`` are raw pointers into a buffer.
Elsewhere the same lines must run as plain Python, with the same results:

- CPython has no ``micropython`` module: ``micropython`` here is an object
  whose ``native`` and ``viper`` return the function unchanged.
- The WebAssembly port has the module but no native emitter: its compiler
  refuses the decorators (tools/micropython/run.mjs blanks those lines when
  it copies the sources in, so the port runs the function as bytecode).
- The casts: inside a viper function the compiler reads ``ptr8(x)`` as a
  cast whatever the module defines; as plain Python, ``ptr8(x)`` is ``x``
  itself, indexed like the pointer (a bytearray, an array). ``int(x)`` and
  ``uint(x)`` of a value already a small int are the value.

A viper function here keeps to what reads the same both ways: ints that
never leave the 30-bit small-int range (so viper's 32-bit wrap never
happens), indexes proved in range before the access (viper checks nothing),
no Python objects inside its loops.
"""

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
