"""Cutting the bytes from the host into lines, and the rules for lines that go wrong.

Loaded with the first byte the host sends (protocol.py). docs/protocol.md,
"Lines", is the reference:

- A line longer than ``MAX_LINE`` bytes gets one ``too_long`` error at once
  and is discarded up to its line end, however long that takes.
- A person may type slowly: a half line is dropped, with one ``half_line``
  error, only after ``LINE_GAP_MS`` without a byte (from the LAST byte).
- The board cannot see a host open the port, so a half line left by a host
  that died must be ended by the next one: Ctrl-U (``CANCEL``, a terminal's
  kill-line) discards it silently, and a ``{`` after ``RESYNC_MS`` of silence
  starts a new line (a JSON host needs nothing more).
- Every command gets its reply: ``feed`` stops after a line that leaves the
  outgoing queue busy, and the runner feeds the rest later (back-pressure).
"""

from .. import MAX_LINE, const, elapsed

LINE_GAP_MS = const(30000)     # a half line waits this long after its last byte
RESYNC_MS = const(1000)        # a "{" after this long a silence starts a new line
CANCEL = const(0x15)           # Ctrl-U


def feed(proto, data, n, now, start):
    """Feed ``data[start:n]`` to ``proto``'s half line; returns where it stopped."""
    buf = proto.line
    if buf is None:
        buf = proto.line = bytearray(MAX_LINE)
    i = start
    while i < n:
        b = data[i]
        i += 1
        if b == 10 or b == 13:
            length = proto.n
            proto.n = 0
            if length > 0:
                from . import commands       # exactly one reply, unless the line is blank
                commands.handle(proto, bytes(buf[:length]))
                if proto.busy():
                    return i
        elif b == CANCEL:
            proto.n = 0
        else:
            if b == 123 and proto.n and elapsed(now, proto.last) >= RESYNC_MS:
                half_line(proto)
            proto.last = now
            if proto.n < 0:
                continue
            if proto.n >= MAX_LINE:
                proto.n = -1
                error(proto, None, None, "too_long", "line over %d bytes: discarded up to its end" % MAX_LINE)
                if proto.busy():
                    return i
                continue
            buf[proto.n] = b
            proto.n += 1
    return i


def tick(proto, now):
    # Only a half line times out: a line being discarded (n < 0) stays discarded until its
    # line end, however long the silence, or its tail would run as a command.
    if proto.n > 0 and elapsed(now, proto.last) >= LINE_GAP_MS:
        half_line(proto)


def error(proto, cmd, rid, code, message):
    """A line's error reply (a reply: never dropped), here with the first rules that send one
    (commands.py's are the others): the part of the way out that only a host's line needs."""
    proto.errors += 1
    reply = {"re": cmd, "ok": False, "error": code, "message": message}
    if rid is not None:
        reply["id"] = rid
    proto.send(reply, True)


def half_line(proto):
    """The half line is dropped: one error, unless it was a long line already answered."""
    if proto.n > 0:
        error(proto, None, None, "half_line", "no line end within %d s of its last byte: dropped"
                    % (LINE_GAP_MS // 1000))
    proto.n = 0
