"""Reading the journal back (storage/journal.py has the format and why it is safe): at boot only.

Loaded by ``Journal.load`` and dropped after it on the Pico (RAM), as the FEN reader is.
"""

import json

from ..rules.variants import new_position
from .journal import crc16, JOURNAL, START_COPIES


def decode(line):
    """The payload (str) of one record line (bytes), or None if it is torn or corrupt."""
    n = len(line)
    if n < 7 or line[n - 1] != 10 or line[n - 6] != 124:   # "\n" and "|"
        return None
    crc = 0
    for i in range(n - 5, n - 1):
        c = line[i]
        if 48 <= c <= 57:            # 0-9
            crc = crc << 4 | (c - 48)
        elif 97 <= c <= 102:         # a-f
            crc = crc << 4 | (c - 87)
        else:
            return None
    payload = line[:n - 6]
    for b in payload:
        if b < 32 or b > 126 or b == 124:     # printable, and no "|": two joined lines never pass
            return None
    if crc16(payload) != crc:
        return None
    return payload.decode()


def read_records(fs, name=JOURNAL):
    """(payloads, clean, size): the start, then the valid records up to the first bad one.

    clean: nothing was damaged (every copy of the start whole, no bad record).
    """
    size = fs.size(name)
    if size < 0:
        return [], True, -1
    with fs.open(name, "rb") as f:
        start, read, damaged = _read_start(f)
        if start is None:
            return [], False, size
        records = [start]
        while True:
            line = f.readline()
            if not line:
                break
            payload = decode(line)
            if payload is None:
                damaged = True
                break
            records.append(payload)
            read += len(line)
    return records, not damaged and read == size, size


def _read_start(f):
    """(start payload or None, bytes read, damaged): the first whole copy of the start, the others skipped.

    A journal of earlier firmware has no copies: its first record is ``G``.
    """
    read = 0
    damaged = False
    while True:
        line = f.readline()
        if not line:
            return None, read, True
        read += len(line)
        payload = decode(line)
        if payload is not None:
            break
        damaged = True
    if payload[:2] != "S ":
        return (None if damaged else payload), read, damaged
    n = len(line)
    end = START_COPIES * n
    if read % n or read > end:
        return None, read, True
    rest = f.read(end - read)
    return payload, end, damaged or rest != line * ((end - read) // n)


def declare(pos, what):
    """Apply an ``X`` record: how a game the rules did not end was ended."""
    if pos.outcome() is not None:
        return
    if what == "resign w":
        pos.resign(0)
    elif what == "resign b":
        pos.resign(1)
    elif what == "draw":
        pos.agree_draw()
    elif what == "claim":
        pos.claim_draw()
    else:
        raise ValueError("unknown declaration")


def replay(records):
    """(game number, Position or None, options, records used): the journal's game, record by record.

    Stops at the first record that does not apply (so a journal written by a
    future version, or a bug, loses its tail rather than the game).
    """
    game_id = 0
    pos = None
    options = {}
    used = 0
    for rec in records:
        kind = rec[:1]
        arg = rec[2:]
        try:
            if kind == "S":
                head, opts = arg.split(";", 1)
                number, profile, fen = head.split(" ", 2)
                options = json.loads(opts)
                if not isinstance(options, dict):
                    break
                pos = new_position(fen, profile)
                game_id = int(number)
            elif kind == "G":                      # earlier firmware: G then N
                game_id = int(arg)
            elif kind == "N":
                profile, fen = arg.split(" ", 1)
                pos = new_position(fen, profile)   # chess, or a Sprint string
            elif kind == "O":
                name, value = arg.split(" ", 1)
                options[name] = json.loads(value)
            elif pos is None:
                break
            elif kind == "M":
                pos.push(pos.parse_uci(arg))
            elif kind == "A":
                last = pos.pop()
                try:
                    pos.push(pos.parse_uci(arg))
                except ValueError:
                    pos.push(last)
                    raise
            elif kind == "U" and not arg:
                if not pos.ply():
                    break
                pos.take_back()
            elif kind == "X":
                declare(pos, arg)
            else:
                break
        except ValueError:
            break
        used += 1
    return game_id, pos, options, used
