"""Scenario scripts (tests/scenarios/*.txt): lift/place/wait steps with the expected moves and LEDs.

Each runs against the real application object (debounce, tracker, game,
LED frame) in simulated time; generated scenarios below cover every order
of the two-handed moves, for both colours.
"""

import glob
import os

import pytest

from host_tools.hands import Hands, ScriptError, script_setup

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = sorted(glob.glob(os.path.join(HERE, "scenarios", "*.txt")))


def run_script(path):
    text = open(path).read()
    hands = Hands(**script_setup(text))
    hands.run(text)
    return hands


@pytest.mark.parametrize("path", SCRIPTS, ids=[os.path.basename(p)[:-4] for p in SCRIPTS])
def test_scenario(path):
    run_script(path)


def test_a_bad_step_names_its_line():
    hands = Hands()
    with pytest.raises(ScriptError, match="line 2: unknown step 'jump'"):
        hands.run("lift e2\njump e4\n")
    with pytest.raises(ScriptError, match="line 1: not a square"):
        Hands().run("lift e9\n")
    with pytest.raises(ScriptError, match="already empty"):
        Hands().run("lift e4\n")
