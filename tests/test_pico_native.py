"""The viper functions on the emulated Pico: the same answers as their bytecode twins and as CPython.

Viper's ints wrap at 32 bits and its pointers are unchecked; the WebAssembly
port cannot run them (tools/micropython/run.mjs blanks the decorators), so
this is where the machine code is tested: the firmware as built for the
Pico (mpy-cross -march=armv6m), each native module's bytecode twin beside
it (host_tools/deploy.bytecode_only, compiled by the chip), and
tests/mpy/check_native.py run in the REPL over positions with every edge
the functions meet: pieces on the rim and in the corners, promotions by
push and by capture on the a- and h-files, en passant on edge files, double
check, both castlings. CPython runs the same script; the checksums, the
engine's moves and node counts and perft must agree.
"""

import contextlib
import io
import os
import re
import runpy

import pytest

from host_tools import _paths  # noqa: F401
from host_tools.deploy import bytecode_only
from host_tools.pico_emu.emulator import missing, build_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WHY = missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="emulated Pico: %s" % WHY)

NATIVE = ("scacchiera/rules/legal", "scacchiera/engine/movegen",
          "scacchiera/engine/ordering", "scacchiera/engine/tree", "scacchiera/sensing/wiring")
EDGES = [
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                        # promotions, captures on the rim
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "k7/8/8/Pp6/8/8/8/7K w - b6 0 2",                                 # en passant from the a-file
    "7k/8/8/6pP/8/8/8/K7 w - g6 0 2",                                 # ... and from the h-file
    "4k3/8/8/8/8/5n2/8/4K2r w - - 0 1",                               # double check
    "N6N/8/8/3Q4/5k2/8/8/N3K2N w - - 0 1",                            # knights in the corners
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "8/8/8/8/8/2k5/8/R3K3 w - - 0 1",                                  # a won ending: the kings scored
]


def fens():
    with open(os.path.join(ROOT, "tests", "data", "engine_positions.txt")) as f:
        table = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    return table[:3] + EDGES


def script():
    with open(os.path.join(ROOT, "tests", "mpy", "check_native.py")) as f:
        return "FENS = %r\n" % fens() + f.read()


def lines(text, kind):
    """The script's ``kind`` lines, split (the raw REPL's "OK" may precede the first)."""
    return [found.split() for found in re.findall(r"%s ([^\r\n]*)" % kind, text)]


@pytest.fixture(scope="module")
def on_cpython(tmp_path_factory):
    out = io.StringIO()
    path = str(tmp_path_factory.mktemp("cpython") / "check_native.py")
    with open(path, "w") as f:
        f.write(script())
    with contextlib.redirect_stdout(out):
        runpy.run_path(path)
    return out.getvalue()


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    """The emulated Pico booted from the firmware as built for it, each native module's bytecode
    twin beside it (one boot for the module's tests)."""
    from host_tools.pico_emu.board import PicoHands
    firmware = build_firmware(str(tmp_path_factory.mktemp("firmware")))
    for module in NATIVE:
        assert os.path.exists(os.path.join(firmware, module + ".mpy"))
        with open(os.path.join(ROOT, "firmware", module + ".py")) as f:
            source = f.read()
        assert "@micropython.viper" in source
        with open(os.path.join(firmware, module + "_bytecode.py"), "w") as f:
            f.write(bytecode_only(source))
    hands = PicoHands(firmware=firmware)
    yield hands
    hands.emu.close()


def test_viper_functions_agree_with_bytecode_and_cpython(pico, on_cpython):
    out = pico.repl(script(), "DONE", limit_ms=240000)
    assert "Traceback" not in out, out[-2000:]
    native = lines(out, "NATIVE")
    assert [row[0] for row in native] == ["attacked", "legal_moves", "pseudo_moves", "checker", "score_moves",
                                       "take_best", "make_move", "unmake_move", "static_score", "left_in_check",
                                       "stops_check", "is_repetition", "has_pieces", "to_ranks"]
    for name, calls, bad, _checksum in native:
        assert int(calls) >= 2 * len(fens()) and bad == "0", (name, calls, bad)
    # the Pico's twins ran as bytecode and agreed; CPython's figures are the same
    assert native == lines(on_cpython, "NATIVE")
    assert lines(out, "ENGINE") == lines(on_cpython, "ENGINE")
    assert [row[0] for row in lines(out, "PERFT")] == ["2039"] == [row[0] for row in lines(on_cpython, "PERFT")]


# The matrix read as it was before hal.scan_matrix: Pin.value on the open-drain rows, machine.mem32
# for the columns (scan_matrix has no bytecode twin: outside viper its pointer is an int).
READ_BY_PINS = """
import time, machine, hal, board_config as cfg
hw = hal.Hardware()
fast = bytearray(8)
hw.read_rows(fast)
raw = bytearray(8)
for r in range(8):
    pin = hw._rows[r]
    pin.value(0)
    time.sleep_us(cfg.ROW_SETTLE_US)
    raw[r] = ~(machine.mem32[cfg.SIO_GPIO_IN] >> cfg.COL_SHIFT) & cfg.COL_MASK
    pin.value(1)
print('ROWS', ' '.join('%d' % x for x in list(fast) + list(hw._wiring.to_squares(raw, bytearray(8)))))
"""


def test_the_matrix_read_by_machine_code_is_the_pins(pico):
    """hal.scan_matrix (SIO's output enables and input register through a viper pointer) reads
    what the pins read, on the emulated board: the start position, a sparse middle game, every
    square, none."""
    start = {sq for sq in range(64) if sq < 16 or sq >= 48}
    for occupied in (start, {0, 7, 9, 27, 36, 45, 54, 56, 63}, set(range(64)), set()):
        pico.emu.set_squares(occupied)
        out = pico.repl(READ_BY_PINS, "ROWS")
        read = [int(x) for x in lines(out, "ROWS")[0]]
        expected = [sum(1 << f for f in range(8) if r * 8 + f in occupied) for r in range(8)]
        assert read[:8] == read[8:] == expected, (occupied, read)
