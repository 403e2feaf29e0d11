"""What differs between MicroPython and CPython, in one place: ``const``.

On MicroPython ``X = const(3)`` is folded by the compiler (and ``_X``, with a
leading underscore, never reaches the module's dict); CPython gets a function
that returns its argument. Import it from here: ``from .compat import const``.
"""

try:
    from micropython import const
except ImportError:  # CPython: const() is only a hint for the MicroPython compiler
    def const(value):
        return value
