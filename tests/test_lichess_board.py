"""The board's side of an online game (docs/lichess.md, docs/protocol.md): the host's clocks (``clock``), its
endings (``end``), a draw offer declined (``decline``), the game's PGN tags (``tag``) journalled into the
archive, on the real firmware under CPython and MicroPython (tests/mpy/check_online_game.py)."""

import re

import pytest

from firmware_support import run_on_the_pins
from mpy_runner import HEAP_LAYOUTS, needs_micropython, run_micropython

CHECKS = 10          # under MicroPython one more: no allocation with the host's clock running


def test_an_online_games_commands_under_cpython(tmp_path):
    out = run_on_the_pins("check_online_game.py", tmp_path / "flash")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % CHECKS


@needs_micropython
def test_an_online_games_commands_under_micropython():
    out = run_micropython("tests/mpy/check_online_game.py", "/tmp/flash", paths=("host_tools/fakehw", "firmware"),
                          data=())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % (CHECKS + 1)


@needs_micropython
def test_an_online_games_eight_tags_cost_under_600_bytes_of_heap():
    """The tags stay in RAM for the game (the journal's copy, for the archive): the eight the companion
    gives a Lichess game, against the same firmware without them (tests/mpy/tags_heap.py). Each the least
    over four layouts of the heap (``pad=N``), as tests/test_firmware.py's heap tests: the port's collector
    is conservative, and one layout read 2,016 B where the others read under 600."""
    used = {}
    for mode in ("-", "tags"):
        for pad in HEAP_LAYOUTS:
            out = run_micropython("tests/mpy/tags_heap.py", mode, pad,
                                  paths=("host_tools/fakehw", "firmware", "tests/mpy"), data=())
            assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
            figure = int(re.search(r"heap_after (\d+) bytes", out.stdout).group(1))
            used[mode] = min(used.get(mode, figure), figure)
    assert 0 < used["tags"] - used["-"] <= 600, used
