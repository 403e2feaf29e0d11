"""The USB serial protocol: one JSON object per line (or a compact text form), versioned.

docs/protocol.md is the reference; in short:

- Host -> board, a command: ``{"cmd": "show", "uci": "e7e5", "id": 7}``, or as
  text, ``show e7e5``. Every command gets exactly one reply line:
  ``{"re": "show", "ok": true, "id": 7, ...}`` or
  ``{"re": "show", "ok": false, "error": "refused", "message": "..."}``.
- Board -> host, events as they happen: ``{"ev": "move", "uci": "e2e4",
  "san": "e4", ...}`` and the rest of the game's events (game/controller.py),
  plus the board's own (``boot``, ``diag``, ``storage_error``, ...).

This module is the half that is always loaded: the outgoing queue, events,
and cutting the incoming bytes into lines. Parsing and running commands is
commands.py, imported with the first line that arrives: a board played
without a computer never spends RAM on it.

Lines end with LF or CR (a terminal's Enter); blank lines are ignored; a line
longer than ``MAX_LINE`` bytes, or a half line left without its end for
``LINE_TIMEOUT_MS``, is dropped with one error. Byte 0x03 (Ctrl-C) never
gets here: MicroPython turns it into KeyboardInterrupt, which stops the
firmware into the REPL.
"""

import json

from .clock import elapsed

VERSION = 1
FIRMWARE = "scacchiera 0.1.0"
MAX_LINE = 512                 # bytes, without the line end
LINE_TIMEOUT_MS = 2000
MAX_QUEUED = 64                # lines waiting to be written; past this the oldest go


class Protocol:
    """Turns events into lines (``out``, which the runner writes) and bytes into commands.

    ``board`` is the main loop (runner.Runner); commands.py uses it.
    """

    def __init__(self, board):
        self.board = board
        self.out = []                  # lines (str, ending in "\n") waiting to be written
        self.dropped = 0               # lines lost because the host did not read them
        self.errors = 0                # lines answered with an error
        self.watch_leds = False        # send a "leds" event when the frame changes
        self.watch_occupancy = False   # ...an "occupancy" event when a square changes
        self.offer = False             # a draw offered by the host, open until the next move
        self._buf = bytearray(MAX_LINE)
        self._n = 0
        self._over = False
        self._since = 0

    def send(self, obj):
        if len(self.out) >= MAX_QUEUED:
            self.out.pop(0)
            self.dropped += 1
        self.out.append(json.dumps(obj) + "\n")

    def event(self, ev):
        """A Game listener: every event becomes a line, ``{"ev": kind, ...}``."""
        msg = dict(ev)
        msg["ev"] = msg.pop("kind")
        if msg["ev"] in ("move", "new_game", "game_over"):
            self.offer = False
        self.send(msg)

    def error(self, cmd, rid, code, message):
        self.errors += 1
        reply = {"re": cmd, "ok": False, "error": code, "message": message}
        if rid is not None:
            reply["id"] = rid
        self.send(reply)

    def feed(self, data, n, now):
        """Bytes from the serial port (the first ``n`` of ``data``)."""
        buf = self._buf
        for i in range(n):
            b = data[i]
            if b == 10 or b == 13:
                if self._over:
                    self.error(None, None, "too_long", "line over %d bytes" % MAX_LINE)
                elif self._n:
                    line = bytes(buf[:self._n])
                    self._n = 0
                    self.handle(line)
                self._n = 0
                self._over = False
            elif self._n >= MAX_LINE:
                self._over = True
            elif not self._over:
                if self._n == 0:
                    self._since = now
                buf[self._n] = b
                self._n += 1

    def tick(self, now):
        """Drop a half line that has waited too long for its end."""
        if (self._n or self._over) and elapsed(now, self._since) >= LINE_TIMEOUT_MS:
            code = "too_long" if self._over else "half_line"
            self._n = 0
            self._over = False
            self.error(None, None, code, "no line end within %d ms: dropped" % LINE_TIMEOUT_MS)

    def handle(self, line):
        """One whole line (bytes): exactly one reply, unless it is blank."""
        from . import commands
        commands.handle(self, line)
