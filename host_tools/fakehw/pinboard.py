"""One powered board for the firmware checks (tests/mpy/check_*_game.py): the real HAL and main loop on
the fake pins (``machine``), the serial link (LoopSerial), the flash in a folder, hands that move magnets.
Runs under MicroPython and CPython alike, with host_tools/fakehw first on the path."""

import hal
import machine
from scacchiera import start  # noqa: E402  (firmware/scacchiera/start.py)
from fakehal import LoopSerial
from player import Player


class PinBoard:
    def __init__(self, root, period_us):
        self.serial = LoopSerial()
        self.hw = hal.Hardware(clock=machine.clock, serial=self.serial, root=root)
        self.runner = start.build(self.hw, period_us)
        self.hands = Player(machine.board, self.run, period_us)

    def run(self, steps):
        start.serve(self.runner, steps)

    def lines(self, kind=None):
        """The lines the board wrote since the last call, parsed (``kind``: only those events or replies)."""
        lines = self.serial.take()
        return lines if kind is None else [l for l in lines if l.get("ev") == kind or l.get("re") == kind]

    def set_up(self, squares):
        """The hands put the pieces on ``squares`` (and nowhere else); the loop runs 0.5 s."""
        for sq in range(64):
            if machine.board.closed[sq] and sq not in squares:
                machine.board.lift(sq)
        for sq in squares:
            if not machine.board.closed[sq]:
                machine.board.place(sq)
        self.run(100)
