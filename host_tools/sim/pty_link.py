"""The simulated board's USB serial link on a pseudo-terminal (``--pty``), for other programs.

A program that opens a serial port (pyserial, PicoChess, python-mchess, a terminal) opens the
printed ``/dev/pts/N`` and talks to the simulated firmware as to a board on USB: JSON and text
lines (docs/protocol.md), a DGT host or a ChessLink host (docs/protocols.md), while the hands play on
the page. The page keeps its own link to the firmware: a second instance of the firmware's
``Protocol`` is the pty's, so the page goes on showing the game while a DGT program holds the pty
(a real board has one USB link; the simulator gives its page a second so both can watch). The
firmware's loop reads and writes the pty without waiting (the master end is non-blocking): a
program that stops reading makes the board queue and then drop events, as on USB.
"""

import os
import tty

from scacchiera.link.protocol import Protocol


class PtyPort:
    """The master end of a pseudo-terminal as the firmware's serial port (serial_read, serial_write).
    The slave end stays open here, so the device exists until ``close``, whoever opens it."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    def serial_read(self, buf):
        try:
            data = os.read(self.master, len(buf))
        except (BlockingIOError, OSError):      # nothing waiting
            return 0
        buf[:len(data)] = data
        return len(data)

    def serial_write(self, data, start=0):
        try:
            return os.write(self.master, data[start:])
        except (BlockingIOError, OSError):      # the program stopped reading: the pty's buffer is full
            return 0

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def attach(runner, port):
    """A second serial link on ``runner`` (the firmware's main loop) through ``port``: a Protocol of
    its own, hearing the game's events and run as one of the loop's parts."""
    link = Protocol(runner)
    link.port = port
    runner.app.listeners.append(link.event)
    runner.parts.append(link)
    return link
