"""The USB serial protocol: one JSON object per line (or a compact text form), versioned.

docs/protocol.md is the reference; in short:

- Host -> board, a command: ``{"cmd": "show", "uci": "e7e5", "id": 7}``, or as
  text, ``show e7e5``. Every command gets exactly one reply line:
  ``{"re": "show", "ok": true, "id": 7, ...}`` or
  ``{"re": "show", "ok": false, "error": "refused", "message": "..."}``.
- Board -> host, events as they happen: ``{"ev": "move", "uci": "e2e4",
  "san": "e4", ...}`` and the rest of the game's events (game/controller.py),
  plus the board's own (``boot``, ``diag``, ``storage_error``, ...).

This module is the half that is always loaded: the outgoing queue and
events. Telling a DGT or ChessLink program from a text host is hosts.py, and
cutting the incoming bytes into lines framing.py, both imported with the
first byte that arrives; parsing and running commands is commands.py,
imported with the first line: a board played without a computer never
spends RAM on them.

Lines end with LF or CR (a terminal's Enter); framing.py has the rules for
long lines, half lines and a host that died mid-line. Byte 0x03 (Ctrl-C)
never gets here: MicroPython turns it into KeyboardInterrupt, which stops
the firmware into the REPL.

The way out does not wait for the host (hal.UsbSerial: but once for a host
that stops reading mid-packet): the runner writes what the link takes
(``write``) and keeps the rest of a line for later, so a line is never cut
and never spliced. Replies are never dropped: the runner reads commands only
while fewer than ``_BACKLOG`` lines wait (``busy``), and ``feed`` stops after
a line whose reply fills the queue, leaving the rest of the bytes unread.
Events are dropped, oldest first and counted, when more than ``_MAX_QUEUED``
lines or ``_MAX_QUEUED_BYTES`` bytes wait (a host that stopped reading).
"""

import json

from .. import const, elapsed
from ..storage.journal import hands_at_work

_MAX_QUEUED = const(64)        # lines waiting to be written; past this the oldest event goes
_MAX_QUEUED_BYTES = const(16384)  # ...or past this many bytes (RAM)
_BACKLOG = const(4)            # commands wait unread while this many lines wait to go out
_CRASH_WRITE_MS = const(200)   # how long a crash waits for the host to take its last lines

class Protocol:
    """Turns events into lines (``out``, which the runner writes) and bytes into commands.

    ``runner`` is the main loop (runner.Runner); commands.py uses it.
    """

    def __init__(self, runner):
        self.runner = runner
        self.out = []                  # lines (bytes, ending in LF) waiting to be written
        self.sent = 0                  # bytes of out[0] already written
        self.queued = 0                # bytes in out
        self._replies = []             # out[i] is a reply (never dropped)
        self.dropped = 0               # events lost because the host did not read them
        self.errors = 0                # lines answered with an error
        self.watch_leds = False        # send a "leds" event when the frame changes
        self.watch_occupancy = False   # ...an "occupancy" event when a square changes
        self.line = None               # the half line's bytes (framing.py: made with the first byte)
        self.n = 0                     # its length; -1: discarding a line over MAX_LINE up to its end
        self.last = 0                  # when its last byte came
        self.rx = bytearray(128)       # bytes read from the serial port
        self._rx_at = self._rx_n = 0   # bytes of rx not fed yet (the protocol was busy)
        self.seen_rows = self.seen_frame = None   # occupancy, frame last sent (made by the first watch: RAM)
        self.port = runner.hw          # the serial port: serial_read, serial_write (a simulator may give another)
        self.host = None               # a DGT or ChessLink host's link (dgt.py, chesslink.py), once it spoke
        self.held = None               # bytes that may be such a host's, waiting for silence (feed)
        self.held_n = 0
        self.held_at = 0

    # -- the way out ---------------------------------------------------------------------

    def send(self, obj, reply=False):
        """Queue one line; past the limits the oldest event goes (never a reply, never a half-written line)."""
        if self.host is not None:
            return                     # a DGT or ChessLink host reads its own protocol's messages only
        self.send_bytes((json.dumps(obj) + "\n").encode(), reply)

    def send_bytes(self, line, reply=False):
        """Queue bytes to go out whole (a JSON line, or a DGT or ChessLink message)."""
        out = self.out
        out.append(line)
        self._replies.append(reply)
        self.queued += len(line)
        while len(out) > _MAX_QUEUED or self.queued > _MAX_QUEUED_BYTES:
            i = 1 if self.sent else 0
            while i < len(out) and self._replies[i]:
                i += 1
            if i >= len(out):
                break                  # only replies left: they are bounded by _BACKLOG
            self.queued -= len(out.pop(i))
            self._replies.pop(i)
            self.dropped += 1

    def busy(self):
        """Enough lines wait to go out: read no more commands for now."""
        return len(self.out) >= _BACKLOG

    def write(self, serial_write):
        """Write what the link takes now: ``serial_write(data, start)`` returns the bytes it took."""
        out = self.out
        while out:
            line = out[0]
            n = serial_write(line, self.sent)
            if n <= 0:
                return
            self.sent += n
            if self.sent < len(line):
                return
            self.sent = 0
            self.queued -= len(line)
            out.pop(0)
            self._replies.pop(0)

    def event(self, ev):
        """A Game listener: every event becomes a line, ``{"ev": kind, ...}``."""
        msg = dict(ev)
        msg["ev"] = msg.pop("kind")
        self.send(msg)

    # -- the way in ----------------------------------------------------------------------

    def feed(self, data, n, now, start=0):
        """Bytes from the serial port (``data[start:n]``); returns where it stopped. hosts.py tells
        whose they are (text and JSON: framing.py; a DGT or ChessLink program: dgt.py, chesslink.py)."""
        from . import hosts
        return hosts.feed(self, data, n, now, start)

    def expire(self, now):
        """Drop a half line that has waited too long for its next byte (framing.py); bytes held as a
        DGT or ChessLink host's, with silence after them: whose (hosts.py)."""
        if self.held_n:
            from . import hosts
            hosts.expire(self, now)
        if self.n:
            from . import framing
            framing.tick(self, now)

    # -- the main loop's part (runner.py's hooks): the serial port's bytes in and out --------

    def boot(self, runner, now):
        pass

    def scan(self, runner, now):
        if self.out:
            self.write(self.port.serial_write)

    def tick(self, runner, now):
        # Back-pressure: commands wait while replies do. And a host's first bytes load hosts.py,
        # framing.py and commands.py, ~120 ms on the emulated Pico: they wait while hands are at work.
        # The bytes read wait in ``rx``; the usual tick reads none and asks nothing more.
        if self._rx_at >= self._rx_n:
            self._rx_at = 0
            self._rx_n = self.port.serial_read(self.rx)
        if self._rx_n and not self.busy() and (self.line is not None or self.held is not None or
                                               self.host is not None or not hands_at_work(runner.app, now)):
            self._rx_at = self.feed(self.rx, self._rx_n, now, self._rx_at)
        self.expire(now)
        if self.host is not None:
            self.host.tick(runner, now)
        stable = runner.app.debouncer.stable
        if self.watch_occupancy and runner.holder is None and stable != self.seen_rows:
            self.seen_rows[:] = stable
            from .report import occupied
            self.send({"ev": "occupancy", "squares": occupied(runner)})

    def shown(self, runner, frame, now):
        if self.watch_leds and frame != self.seen_frame:
            self.seen_frame[:] = frame
            from .report import frame_names
            self.send({"ev": "leds", "frame": frame_names(runner)})

    def crash(self, runner):
        hw = runner.hw
        start = hw.ticks_ms()
        while self.out and elapsed(hw.ticks_ms(), start) < _CRASH_WRITE_MS:
            self.write(self.port.serial_write)
            hw.sleep_us(1000)
