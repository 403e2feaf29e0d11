"""Whose bytes come in on the USB serial link: a text or JSON host's, a DGT program's or a ChessLink one's.

Imported with the first byte that arrives (protocol.py's ``feed``): a board played without a
computer never spends RAM on it. Bytes that arrive at the start of a line and are DGT commands
(or a DGT bus command: its byte, its address, its sum) or ChessLink's characters (bit 7 ignored:
the parity bit) are held; if ``_SILENCE_MS`` of silence follow, they are one whole ChessLink
message with a good check (a ChessLink host: chesslink.py), DGT commands only or a bus command
with a good sum (a DGT host: dgt.py), else an ordinary text line. Any other byte after them (a
line end, a lowercase letter: every text command is lowercase) makes them an ordinary line, with
its ordinary reply. While a DGT or ChessLink host has the link no JSON goes out; a byte it never
sends at a command's start (a line end, a lowercase letter, "{") gives the link back to text and
JSON (``leave``). The option ``usb`` forces one language: ``json`` (nothing is held), ``dgt`` or
``chesslink`` (the first byte that is not text makes that host, whatever it is). docs/protocols.md.
"""

from .. import const, elapsed

# A DGT host's commands (dgt.COMMANDS, kept here so that dgt.py loads only when one comes), as bits
# above 0x40: 0x40-0x47, 0x49-0x4D, 0x55. No JSON or text command starts with one of these bytes (the
# text commands are lowercase words). DGT's bus mode commands are 0x81-0x8D, then 3 bytes.
_DGT_COMMANDS = const(0x203eff)
_SILENCE_MS = const(40)        # a DGT or ChessLink host sends a command and waits: held bytes, then silence
_HELD = const(170)             # at most this many held (ChessLink's longest message, L, is 167)
# ChessLink's bytes (parity bit 7 stripped): its command letters and upper-case hex digits.
_LINK_LETTERS = b"0123456789ABCDEFILRSTVWX"
_LINK_STARTS = b"ILRSTVWX"      # ChessLink's command letters (chesslink._LENGTHS)


def _is_dgt(b):
    return 0x40 <= b <= 0x55 and (_DGT_COMMANDS >> (b - 0x40)) & 1


def _is_bus(b):
    return 0x81 <= b <= 0x8D


def _is_text(b):
    """A byte no DGT or ChessLink host sends at a command's start: a line end, "{", a lowercase letter."""
    return b == 10 or b == 13 or b == 123 or 0x61 <= b < 0x80


def _is_link(b):
    b &= 0x7F
    for c in _LINK_LETTERS:
        if b == c:
            return True
    return False


def feed(protocol, data, n, now, start):
    """``protocol.feed``: the bytes ``data[start:n]`` to the host that has the link, or held
    while they may be a new DGT or ChessLink host's, or to framing.py as text; returns where it
    stopped."""
    usb = protocol.runner.usb
    if protocol.host is None and (usb == "dgt" or usb == "chesslink") and protocol.n == 0 and start < n \
            and not _is_text(data[start]):
        open_host(protocol, usb)       # set usb dgt|chesslink: its host, whatever its first bytes
    if protocol.host is not None:
        fixed = getattr(protocol.port, "fixed_host", False)   # an app on a BLE service: it says whose (ble.py)
        while start < n:
            b = data[start]
            if usb == "auto" and not fixed and _newcomer(protocol.host, b):
                leave(protocol, False)   # another program on the link: judged by its first message
                break
            if not host_byte(protocol, b) and not fixed:
                leave(protocol)    # never a DGT or ChessLink byte: a text or JSON host, from here
                break
            start += 1
        if protocol.host is not None:
            return start
    if usb == "auto" and (protocol.held_n or protocol.n == 0 and start < n and _holds(protocol, data[start])):
        # Held until silence says whose (expire); any other byte after them makes them text, as if
        # never held ("B..." gets its JSON reply).
        held = protocol.held
        if held is None:
            held = protocol.held = bytearray(_HELD)
        while start < n and protocol.held_n < _HELD and _holds(protocol, data[start]):
            held[protocol.held_n] = data[start]
            protocol.held_n += 1
            start += 1
        protocol.held_at = now
        if start == n and protocol.held_n < _HELD:
            return start
        k, protocol.held_n = protocol.held_n, 0
        _text(protocol, held, k, now, 0)
    return _text(protocol, data, n, now, start)


def _holds(protocol, b):
    """Whether ``b``, after the bytes held so far, may still be a DGT or ChessLink host's: one of
    their command bytes, or a DGT bus command's address (two data bytes: 7 bits, not a line end)
    or its sum."""
    held, k = protocol.held, protocol.held_n
    if k >= 1 and _is_bus(held[k - 1]) or k >= 2 and _is_bus(held[k - 2]):
        return b < 0x80 and b != 10 and b != 13
    if k >= 3 and _is_bus(held[k - 3]):
        return b == (held[k - 3] + held[k - 2] + held[k - 1]) & 0x7F
    return _is_dgt(b) or _is_link(b) or _is_bus(b)


def host_byte(protocol, b):
    """One byte to the DGT or ChessLink host that has the link (its ``byte``). A message its code
    cannot handle is dropped, as that protocol drops a message it does not know: an exception from
    a host's message never reaches the main loop (which would reset the board)."""
    host = protocol.host
    try:
        return host.byte(protocol.runner, b)
    except Exception:
        protocol.errors += 1
        host.drop()
        return True


def _newcomer(host, b):
    """Whether ``b`` begins another program's message on a link a DGT or ChessLink host has: a byte
    the host never begins a command with, which the other protocol does (PicoChess's DGT ``4b 4d
    45`` after python-mchess's ChessLink, its ``V56`` after a DGT program: both went unanswered)."""
    if host.starts(b):
        return False
    if host.__class__.__name__ == "Dgt":
        c = b & 0x7F
        for letter in _LINK_STARTS:
            if c == letter:
                return True
        return False
    return _is_dgt(b) or _is_bus(b)


def leave(protocol, newline=True):
    """The DGT or ChessLink host is gone: the link is text and JSON again, the squares it lit dark.
    ``newline``: a text host comes (its first line clear of the messages before it); not for
    another DGT or ChessLink program, which would read it as a stray byte."""
    protocol.host = None
    if newline:
        protocol.send_bytes(b"\n")
    protocol.runner.app.ask(-1, False)
    protocol.runner.hw.serial_ctrl_c(True)


def _text(protocol, data, n, now, start):
    from . import framing
    return framing.feed(protocol, data, n, now, start)


def expire(protocol, now):
    """Bytes held with nothing after them for _SILENCE_MS: a ChessLink host if they are one whole
    ChessLink message with a good check (its parity bits stripped); a DGT host if DGT commands
    only, or a bus command with a good sum; else text."""
    if elapsed(now, protocol.held_at) < _SILENCE_MS:
        return
    held, k = protocol.held, protocol.held_n
    protocol.held_n = 0
    from .chesslink import valid
    if valid(held, k):
        open_host(protocol, "chesslink")
    elif all(_is_dgt(held[i]) for i in range(k)) or \
            k >= 4 and _is_bus(held[0]) and (held[0] + held[1] + held[2]) & 0x7F == held[3]:
        open_host(protocol, "dgt")
    else:
        _text(protocol, held, k, now, 0)
        return
    for i in range(k):
        host_byte(protocol, held[i])


def open_host(protocol, kind):
    """A DGT or ChessLink host has the link (its module loaded only now: RAM)."""
    if kind == "dgt":
        from .dgt import Dgt
        protocol.host = Dgt(protocol)
        protocol.runner.hw.serial_ctrl_c(False)   # its commands may hold 0x03 (a DGT clock's)
    else:
        from .chesslink import ChessLink
        protocol.host = ChessLink(protocol)
