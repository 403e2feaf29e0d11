"""Hands scripts that need the whole firmware (its serial protocol): the training drills, on MicroPython.

The firmware's main loop (start.build, runner.py) on the fake hardware (host_tools/fakehw, a MemFS
flash), driven by host_tools/hands.py's scripts as the simulator drives it (host_tools/sim/device.py's
FirmwareHands, which needs threads and a pty: not here). Runs under MicroPython and CPython alike.

Usage: check_training.py SCRIPT... ; prints one line per script, "N passed, N failed" last.
"""

import sys

from scacchiera import start  # noqa: E402  (firmware/scacchiera/start.py)
from fakehal import FakeHardware
from memfs import MemFS
from host_tools.hands import Hands, check_scripts


class Board(Hands):
    def __init__(self):
        self.hw = FakeHardware(fs=MemFS())
        self.hw.set_squares(list(range(16)) + list(range(48, 64)))
        self.runner = start.build(self.hw)
        events = []
        self.runner.app.listeners.append(events.append)
        self._start(self.runner.app, bytearray(self.hw.occupied), self.hw.ticks_ms(), None, events)

    def scan(self, end):
        self.hw.occupied[:] = self.rows
        start.serve(self.runner, 1)
        self.now = self.hw.ticks_ms()
        sent = self.hw.serial.sent
        if sent:
            for line in sent:
                self.protocol.append(line.rstrip("\n"))
            del sent[:]

    def send(self, line):
        self.hw.send(line)
        self.wait(20)


check_scripts(sys.argv[1:], Board)
