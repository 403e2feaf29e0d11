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

Lines end with LF or CR (a terminal's Enter); blank lines are ignored. The
framing rules (docs/protocol.md, "Lines"): a line longer than ``MAX_LINE``
bytes gets one ``too_long`` error and is discarded up to its line end, however
long that takes; a half line is dropped with one ``half_line`` error after
``LINE_GAP_MS`` without a byte (a person may type slowly); Ctrl-U (``CANCEL``)
discards a half line silently, and a ``{`` after ``RESYNC_MS`` of silence
starts a new line, so a half line left by a host that died never glues onto
the next host's first line. Byte 0x03 (Ctrl-C) never gets here: MicroPython
turns it into KeyboardInterrupt, which stops the firmware into the REPL.

The way out never waits for the host: the runner writes what the link takes
(``write``) and keeps the rest of a line for later, so a line is never cut
and never spliced. Replies are never dropped: the runner reads commands only
while fewer than ``BACKLOG`` lines wait (``busy``), and ``feed`` stops after
a line whose reply fills the queue, leaving the rest of the bytes unread.
Events are dropped, oldest first and counted, when more than ``MAX_QUEUED``
lines or ``MAX_QUEUED_BYTES`` bytes wait (a host that stopped reading).
"""

import json

from .clock import elapsed

VERSION = 1
FIRMWARE = "scacchiera 0.1.0"
MAX_LINE = 512                 # bytes, without the line end
LINE_GAP_MS = 30000            # a half line waits this long after its last byte
RESYNC_MS = 1000               # a "{" after this long a silence starts a new line
CANCEL = 0x15                  # Ctrl-U, a terminal's kill-line: forget the half line
MAX_QUEUED = 64                # lines waiting to be written; past this the oldest event goes
MAX_QUEUED_BYTES = 16384       # ...or past this many bytes (RAM)
BACKLOG = 4                    # commands wait unread while this many lines wait to go out


class Protocol:
    """Turns events into lines (``out``, which the runner writes) and bytes into commands.

    ``board`` is the main loop (runner.Runner); commands.py uses it.
    """

    def __init__(self, board):
        self.board = board
        self.out = []                  # lines (bytes, ending in LF) waiting to be written
        self.sent = 0                  # bytes of out[0] already written
        self.queued = 0                # bytes in out
        self._replies = []             # out[i] is a reply (never dropped)
        self.dropped = 0               # events lost because the host did not read them
        self.errors = 0                # lines answered with an error
        self.watch_leds = False        # send a "leds" event when the frame changes
        self.watch_occupancy = False   # ...an "occupancy" event when a square changes
        self.offer = False             # a draw offered by the host, open until the next move
        self._buf = bytearray(MAX_LINE)
        self._n = 0                    # bytes of the half line
        self._over = False             # discarding a line over MAX_LINE, up to its end
        self._last = 0                 # when the last byte of the half line came

    # -- the way out ---------------------------------------------------------------------

    def send(self, obj, reply=False):
        """Queue one line; past the limits the oldest event goes (never a reply, never a half-written line)."""
        line = (json.dumps(obj) + "\n").encode()
        out = self.out
        out.append(line)
        self._replies.append(reply)
        self.queued += len(line)
        while len(out) > MAX_QUEUED or self.queued > MAX_QUEUED_BYTES:
            i = 1 if self.sent else 0
            while i < len(out) and self._replies[i]:
                i += 1
            if i >= len(out):
                break                  # only replies left: they are bounded by BACKLOG
            self.queued -= len(out.pop(i))
            self._replies.pop(i)
            self.dropped += 1

    def busy(self):
        """Enough lines wait to go out: read no more commands for now."""
        return len(self.out) >= BACKLOG

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
        if msg["ev"] in ("move", "new_game", "game_over"):
            self.offer = False
        self.send(msg)

    def error(self, cmd, rid, code, message):
        self.errors += 1
        reply = {"re": cmd, "ok": False, "error": code, "message": message}
        if rid is not None:
            reply["id"] = rid
        self.send(reply, True)

    # -- the way in ----------------------------------------------------------------------

    def feed(self, data, n, now, start=0):
        """Bytes from the serial port (``data[start:n]``); returns where it stopped.

        It stops after a line that leaves the queue ``busy``: the caller
        feeds the rest once the replies have gone out.
        """
        buf = self._buf
        i = start
        while i < n:
            b = data[i]
            i += 1
            if b == 10 or b == 13:
                over = self._over
                length = self._n
                self._n = 0
                self._over = False
                if length and not over:
                    self.handle(bytes(buf[:length]))
                    if self.busy():
                        return i
                continue
            if b == CANCEL:
                self._n = 0
                self._over = False
                continue
            if b == 123 and (self._n or self._over) and elapsed(now, self._last) >= RESYNC_MS:
                self._half_line()
            self._last = now
            if self._over:
                continue
            if self._n >= MAX_LINE:
                self._over = True
                self._n = 0
                self.error(None, None, "too_long", "line over %d bytes: discarded up to its end" % MAX_LINE)
                if self.busy():
                    return i
                continue
            buf[self._n] = b
            self._n += 1
        return i

    def tick(self, now):
        """Drop a half line whose next byte has not come for LINE_GAP_MS (a discarded long one silently)."""
        if (self._n or self._over) and elapsed(now, self._last) >= LINE_GAP_MS:
            self._half_line()

    def _half_line(self):
        if self._n:
            self.error(None, None, "half_line", "no line end within %d s of the last byte: dropped"
                       % (LINE_GAP_MS // 1000))
        self._n = 0
        self._over = False

    def handle(self, line):
        """One whole line (bytes): exactly one reply, unless it is blank."""
        from . import commands
        commands.handle(self, line)
