"""Every call a steady scan makes keeps its frame off the heap on MicroPython.

MicroPython gives a call whose frame (arguments, locals, value stack, exception stack) is over 11
words its frame from the heap at every call (py/objfun.c, VM_MAX_STATE_ON_STACK), and on a heap in
small pieces that allocation walks the allocation table: on the emulated Pico a steady step took
1.2 ms where the same step with its frames on the stack took 0.56 (docs/firmware.md, "Frames on
the heap"). The heap-lock tests cannot see it: under a lock the frame falls back to the C stack.

So: the functions a steady scan calls (at every step, or at every 10 ms slice) are found by
tracing the firmware's loop on CPython, in the steady states of a game (pieces in place, a piece in
the hand, a clock running, the display on), and each is compiled alone by mpy-cross, as deploy.py
compiles the build (-O3), and its frame read from the bytecode's prelude. Calls the loop makes with
the heap locked may be larger.
"""

import ast
import os
import subprocess
import sys
import tempfile
import textwrap

from firmware_support import ROOT
from host_tools import deploy
from host_tools.sim.device import FirmwareHands

FIRMWARE = os.path.join(ROOT, "firmware")
MAX_WORDS = 11                     # VM_MAX_STATE_ON_STACK: 11 machine words
EXC_WORDS = 3                      # an mp_exc_stack_t: handler, value stack pointer, saved exception
NOT_PER_SCAN = {
    ("scacchiera/sensing/debounce.py", "Debouncer._poll"),    # called with the heap locked: its frame on the C stack
    ("scacchiera/start.py", "serve"),            # the loop's entry: entered once on the Pico; the simulator enters it each step
    ("scacchiera/runner.py", "Runner.run"),                   # the same
}


class _Reader:
    """Just enough of the .mpy format (v6, py/persistentcode.c) to reach the first function's prelude."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        self.at += 1
        return self.data[self.at - 1]

    def uint(self):
        value = 0
        while True:
            b = self.byte()
            value = (value << 7) | (b & 0x7F)
            if not b & 0x80:
                return value

    def skip_obj(self):
        kind = self.byte()                                 # MP_PERSISTENT_OBJ_*
        if kind == 10:                                     # a tuple of objects
            for _ in range(self.uint()):
                self.skip_obj()
        elif 5 <= kind <= 9:                               # str and bytes (NUL-ended), int, float, complex
            size = self.uint()
            self.at += size + (kind <= 6)
        # the rest (the function table, None, False, True, Ellipsis) are their one byte


def frame_words(source):
    """The frame, in words, of the one function ``source`` defines, compiled by mpy-cross."""
    with tempfile.TemporaryDirectory() as folder:
        src, out = os.path.join(folder, "f.py"), os.path.join(folder, "f.mpy")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run([deploy.mpy_cross(), "-O3", "-o", out, src], check=True, capture_output=True)
        with open(out, "rb") as f:
            r = _Reader(f.read())
    assert r.data[0] == ord("M") and r.data[1] == 6, "not a version 6 .mpy"
    r.at = 4
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:                                      # a static qstr is only its index
            r.at += (n >> 1) + 1
    for _ in range(n_obj):
        r.skip_obj()
    kind_len = r.uint()                                    # the module's code...
    assert kind_len & 3 == 0 and kind_len >> 2 & 1, "module bytecode with children"
    r.at += kind_len >> 3
    assert r.uint() == 1, "one function"                   # ...and its one child, the function
    kind_len = r.uint()
    assert kind_len & 3 == 0, "bytecode"
    # The prelude's signature (py/bc.h, MP_BC_PRELUDE_SIG_DECODE_INTO): n_state and n_exc_stack.
    z = r.byte()
    n_state, n_exc = (z >> 3) & 0xF, (z >> 2) & 1
    n = 0
    while z & 0x80:
        z = r.byte()
        n_state |= (z & 0x30) << (2 * n)
        n_exc |= (z & 0x02) << n
        n += 1
    return n_state + 1 + EXC_WORDS * n_exc


def source_of(code):
    """The source of a traced function, alone and dedented (a method compiles as a plain function)."""
    path = code.co_filename
    with open(path) as f:
        text = f.read()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name and \
                (node.decorator_list[0].lineno if node.decorator_list else node.lineno) == code.co_firstlineno:
            return textwrap.dedent(ast.get_source_segment(text, node, padded=True))
    raise LookupError("%s:%d %s" % (path, code.co_firstlineno, code.co_qualname))


def traced(run):
    """The firmware's functions ``run()`` calls: {(path under firmware/, qualname): [code, calls]}."""
    called = {}

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(FIRMWARE + os.sep) and not code.co_name.startswith("<"):
                key = (os.path.relpath(code.co_filename, FIRMWARE), code.co_qualname)
                called.setdefault(key, [code, 0])[1] += 1
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return called


def steady_calls():
    """What the loop calls at every scan in the steady states of a game on a board with the display,
    each state reached first (reaching it may call anything), then stepped for a second of the
    board's time: {(path, qualname): code} of the functions called at least once a slice (4 steps)."""
    hands = FirmwareHands(display=True)
    hands.wait(1000)
    traces = [traced(lambda: hands.wait(1000))]                 # the pieces in place
    hands.run("lift e2\nwait 300")                              # a piece in the hand
    traces.append(traced(lambda: hands.wait(1000)))
    hands.run("place e2\nwait 600\nsend set clock 3+2\nlift e2\nplace e4\nwait 3000")
    assert hands.moves() == ["e2e4"] and hands.clock()[2] == "b"
    traces.append(traced(lambda: hands.wait(1000)))             # a clock running
    every = {}
    for calls in traces:
        steps = calls[("scacchiera/runner.py", "Runner.step")][1]
        assert steps >= 100
        every.update((key, code) for key, (code, n) in calls.items() if n * 5 >= steps)
    return every


def test_a_steady_scan_calls_no_function_whose_frame_goes_on_the_heap():
    calls = steady_calls()
    names = set(name for _, name in calls)
    for expected in ("Runner.step", "App.scan", "Debouncer.scan", "Journal.scan", "Game.tick", "Clocks.tick",
                     "Tracker.tick", "Protocol.scan"):
        assert expected in names, "the trace missed %s: %s" % (expected, sorted(names))
    over = []
    for key, code in sorted(calls.items()):
        if key in NOT_PER_SCAN:
            continue
        words = frame_words(source_of(code))
        if words > MAX_WORDS:
            over.append("%s:%s %d words" % (key[0], key[1], words))
    assert not over, "frames over %d words, each call a heap allocation: %s" % (MAX_WORDS, over)


def test_the_frame_reader_counts_arguments_locals_stack_and_try_blocks():
    small = frame_words("def f(a, b):\n    return a + b\n")
    assert small <= 4
    with_try = frame_words("def f(a, b):\n    try:\n        return a + b\n    finally:\n        g()\n")
    assert with_try >= small + EXC_WORDS
    many = frame_words("def f(a, b, c, d, e, f, g, h, i, j, k, l):\n    return a\n")
    assert many >= 13
