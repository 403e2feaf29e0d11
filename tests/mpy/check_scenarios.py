"""Scenario scripts under MicroPython: the same hands, debounce, tracker, game and LED frame.

Usage: check_scenarios.py SCRIPT... ; prints one line per script, "N passed, N failed" last.
"""

import sys

from host_tools.hands import Hands, script_setup

passed = failed = 0
for path in sys.argv[1:]:
    with open(path) as f:
        text = f.read()
    try:
        Hands(**script_setup(text)).run(text)
        passed += 1
        print("ok   " + path)
    except Exception as e:  # report and go on: every script gets its line
        failed += 1
        print("FAIL %s: %r" % (path, e))
print("%d passed, %d failed" % (passed, failed))
if failed:
    sys.exit(1)
