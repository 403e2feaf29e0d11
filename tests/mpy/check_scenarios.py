"""Scenario scripts under MicroPython: the same hands, debounce, tracker, game and LED frame.

Usage: check_scenarios.py SCRIPT... ; prints one line per script, "N passed, N failed" last.
"""

import sys

from host_tools.hands import Hands, check_scripts

check_scripts(sys.argv[1:], Hands)
