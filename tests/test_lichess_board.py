"""The board's side of an online game (docs/lichess.md, docs/protocol.md): the host's clocks (``clock``), its
endings (``end``), a draw offer declined (``decline``), the game's PGN tags (``tag``) journalled into the
archive, on the real firmware under CPython and MicroPython (tests/mpy/check_online_game.py)."""

import os
import shutil
import subprocess
import sys

import pytest

from firmware_support import FAKEHW, ROOT
from mpy_runner import run_micropython

CHECKS = 10          # under MicroPython one more: no allocation with the host's clock running


def test_an_online_games_commands_under_cpython(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FAKEHW, os.path.join(ROOT, "firmware")]))
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "mpy", "check_online_game.py"),
                          str(tmp_path / "flash")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % CHECKS


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_an_online_games_commands_under_micropython():
    out = run_micropython("tests/mpy/check_online_game.py", "/tmp/flash", paths=("host_tools/fakehw", "firmware"),
                          data=())
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % (CHECKS + 1)
