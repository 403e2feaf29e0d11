"""The viper functions on the emulated Pico: the same answers as their bytecode twins and as CPython.

Viper's ints wrap at 32 bits and its pointers are unchecked; the WebAssembly
port cannot run them (tools/micropython/run.mjs blanks the decorators), so
this is where the machine code is tested: the firmware as built for the
Pico (mpy-cross -march=armv6m), each native module's bytecode twin beside
it (host_tools/deploy.bytecode_only, compiled by mpy-cross without -march:
compiling seven twins on the chip needed more RAM than the REPL has beside
the stopped firmware, and failed or not by where its heap stood), and
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
import subprocess

import pytest

from host_tools import _paths  # noqa: F401
from host_tools.deploy import bytecode_only, mpy_cross
from host_tools.pico_emu.emulator import missing, build_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WHY = missing()
pytestmark = [pytest.mark.emulator, pytest.mark.skipif(WHY is not None, reason="emulated Pico: %s" % WHY)]

NATIVE = ("scacchiera/rules/legal", "scacchiera/engine/movegen",
          "scacchiera/engine/ordering", "scacchiera/engine/tree", "scacchiera/engine/search", "scacchiera/sensing/wiring",
          "scacchiera/rules/uci_bytes", "scacchiera/rules/occupancy", "scacchiera/leds/palette")
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
        twin = module + "_bytecode"
        made = subprocess.run([mpy_cross(), "-O3", "-s", twin + ".py", "-o", os.path.join(firmware, twin + ".mpy"), "-"],
                              input=bytecode_only(source), capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
    hands = PicoHands(firmware=firmware)
    yield hands
    hands.emu.close()


def test_viper_functions_agree_with_bytecode_and_cpython(pico, on_cpython):
    out = pico.repl(script(), "DONE", limit_ms=240000)
    assert "Traceback" not in out, out[-2000:]
    native = lines(out, "NATIVE")
    assert [row[0] for row in native] == ["attacked", "legal_moves", "pseudo_moves", "checker", "score_moves",
                                       "make_move", "unmake_move", "static_score", "left_in_check",
                                       "stops_check", "is_repetition", "has_pieces", "to_ranks", "write_moves", "tt_put", "tt_find",
                                       "fill_occupancy", "render"]
    for name, calls, bad, _checksum in native:
        assert int(calls) >= 2 * len(fens()) and bad == "0", (name, calls, bad)
    # the Pico's twins ran as bytecode and agreed; CPython's figures are the same
    assert native == lines(on_cpython, "NATIVE")
    assert lines(out, "ENGINE") == lines(on_cpython, "ENGINE")
    # the search's loop: machine code and bytecode, whole and sliced, one answer, CPython's
    searches = lines(out, "SEARCH")
    assert len(searches) == 8 and searches == lines(on_cpython, "SEARCH"), searches
    assert len({tuple(row[2:]) for row in searches[:4]}) == 1 and len({tuple(row[2:]) for row in searches[4:]}) == 1
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


def _numbers_read(rise_us, squares, script, marker):
    """The numbers ``script`` prints after ``marker``, on an emulated board whose columns rise
    ``rise_us`` after being let go, with magnets on ``squares``."""
    from host_tools.pico_emu.board import PicoHands
    pico = PicoHands(column_rise_us=rise_us)
    try:
        pico.emu.set_squares(squares)
        pico.wait(100)
        return [int(x) for x in lines(pico.repl(script, marker), marker)[0]]
    finally:
        pico.emu.close()


# A scan with no wait at all, beside hal.read_rows, and how long read_rows takes (the median of 21).
SCAN_WITHOUT_WAITS = """
import time, hal, board_config as cfg
hw = hal.Hardware()
rows = bytearray(8)
times = []
for _ in range(21):
    a = time.ticks_us(); hw.read_rows(rows); times.append(time.ticks_diff(time.ticks_us(), a))
took = sorted(times)[10]
raw = bytearray(8)
hal.scan_matrix((hal.SIO, hw._timer, hw._row_pins, -1, -1, cfg.COL_SHIFT, cfg.COL_MASK), raw)
print('ROWS', took, ' '.join('%d' % x for x in list(rows) + list(raw)))
"""


def test_the_matrix_read_waits_for_the_columns_to_rise_and_no_longer_than_its_bound():
    """A column a closed reed pulled LOW rises back through its pull-up once the row lets go: the
    emulated board holds it LOW column_rise_us longer. With the typical wiring's 5 us, hal.read_rows
    reads a piece in every row (a1, b2, ... h8) within 150 us. With 15 us (at 5 a turn of the row
    loop is about as long, and a scan with no wait would not show it), a scan with no wait reads
    ghosts (each row also the columns before it); hal.read_rows waits and reads the squares. A column that never rises (a wiring fault) makes
    the rows after it read it, and the read still ends: each row waits ROW_SETTLE_US at most."""
    import board_config as cfg
    from host_tools.pico_emu.emulator import COLUMN_RISE_US
    diagonal = {r * 9 for r in range(8)}
    expected = [1 << r for r in range(8)]
    for rise_us in (COLUMN_RISE_US, 15, 10 ** 7):
        took, *read = _numbers_read(rise_us, diagonal, SCAN_WITHOUT_WAITS, "ROWS")
        rows, raw = read[:8], read[8:]
        if rise_us == COLUMN_RISE_US:
            assert rows == expected, rows
            assert took <= 150, took          # issue 26's goal, a piece in every row to wait for
        elif rise_us == 15:
            assert rows == expected, rows
            assert all(raw[r] & 3 << (r - 1) == 3 << (r - 1) for r in range(1, 8)), raw   # the ghosts
        else:
            assert all(rows[r] & expected[r] for r in range(8)), rows
            assert took <= 8 * (cfg.ROW_PULL_US + cfg.ROW_SETTLE_US) + 150, took



# The columns timed at boot (hal.measure_columns), then a read at rev 1's fixed 20 us and one at that wait.
READ_AT_20_AND_MEASURED = """
import hal
hw = hal.Hardware()
measured = hw.settle_us
hw.set_settle(20)
fixed = bytes(hw.read_rows(bytearray(8)))
hw.set_settle(measured)
right = bytes(hw.read_rows(bytearray(8)))
print('COLS', measured, ' '.join('%d' % x for x in fixed + right), max(hw.columns['recovery_us']))
"""


def test_the_wait_measured_at_boot_reads_slow_columns_right_on_the_emulated_pico():
    """The emulated board's columns rise as the electrical model says rev 1's do (host_tools/fakehw/
    columns.py: the routed copper, the ribbons, the Pico's pull-up at its worst): a fixed 20 us wait
    reads each piece once more one row further on; the wait hal.py measures at boot does not."""
    from host_tools.fakehw.columns import ColumnLoads
    rise_us = max(ColumnLoads(pull_up_ohms=None).recovery_us(c) for c in range(8))
    assert rise_us > 20
    pieces = {0, 27, 45}                                        # a1, d4, f6
    measured, *read = _numbers_read(rise_us, pieces, READ_AT_20_AND_MEASURED, "COLS")
    fixed, right, slowest = read[:8], read[8:16], read[16]
    expected = [sum(1 << f for f in range(8) if r * 8 + f in pieces) for r in range(8)]
    ghosts = [sum(1 << f for f in range(8) if r * 8 + f in pieces or (r - 1) * 8 + f in pieces) for r in range(8)]
    assert fixed == ghosts, fixed
    assert right == expected, right
    assert slowest >= rise_us and measured >= 2 * rise_us, (measured, slowest)
