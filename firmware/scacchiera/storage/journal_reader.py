"""Reading the game journal back (storage/journal.py has the format): records, checked, replayed,
and the boot around it (resume the game with its options, or set a damaged journal aside).

Needed only at boot: the journal imports it then, and on the Pico drops it
after (RAM: about 650 B less in the heap for the game), as
rules/notation.py does with the FEN reader.
"""

import json

from ..rules.variants import new_position
from .journal import BAD, JOURNAL, START_COPIES, TEMP, crc16


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
        if b < 32 or b == 127 or b == 124:    # no control byte, no "|": two joined lines never pass
            return None
    if crc16(payload) != crc:
        return None
    try:
        return payload.decode()               # UTF-8: a tag's value may hold Nicolò
    except UnicodeError:
        return None


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
    elif what in ("time w", "time b"):
        from ..rules.material import flag_fall
        flag_fall(pos, 0 if what[-1] == "w" else 1)
    elif what in ("abandon w", "abandon b"):
        pos.abandon(0 if what[-1] == "w" else 1)
    else:
        raise ValueError("unknown declaration")


def replay(records, times=None, tags=None):
    """(game number, Position or None, options, records used): the journal's game, record by record.

    Stops at the first record that does not apply (so a journal written by a
    future version, or a bug, loses its tail rather than the game). ``times``,
    a list, gets each ply's clock time (-1: none; game/clocks.py), then the
    side to move's time left if a ``T`` record follows the last move; ``tags``, a dict,
    the game's PGN tags.
    """
    if times is None:
        times = []
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
                if fen[:9] == "chess960 ":
                    pos = new_position(fen[9:], profile, "chess960")
                else:
                    pos = new_position(fen, profile)
                game_id = int(number)
                if tags is not None:
                    tags.clear()
            elif kind == "G":                      # earlier firmware: G then N
                game_id = int(arg)
            elif kind == "N":
                profile, fen = arg.split(" ", 1)
                pos = new_position(fen, profile)   # chess, or a Sprint string
            elif kind == "O":
                name, value = arg.split(" ", 1)
                options[name] = json.loads(value)
                if name == "clock":
                    for i in range(len(times)):
                        times[i] = -1          # a new time control: earlier times are not its
            elif pos is None:
                break
            elif kind == "M":
                uci, ms = _timed(arg)
                pos.push(pos.parse_uci(uci))
                del times[pos.ply() - 1:]
                times.append(ms)
            elif kind == "A":
                uci, ms = _timed(arg)
                last = pos.pop()
                try:
                    pos.push(pos.parse_uci(uci))
                except ValueError:
                    pos.push(last)
                    raise
                del times[pos.ply() - 1:]
                times.append(ms)
            elif kind == "U" and not arg:
                if not pos.ply():
                    break
                pos.take_back()
                del times[pos.ply():]
            elif kind == "T":
                if not arg.isdigit():
                    break
                del times[pos.ply():]          # the last T after the last move counts
                times.append(int(arg))
            elif kind == "X":
                declare(pos, arg)
            elif kind == "P":
                name, _, value = arg.partition(" ")
                if tags is not None:
                    tags.pop(name, None)
                    if value:
                        tags[name] = value
            else:
                break
        except ValueError:
            break
        used += 1
    return game_id, pos, options, used


def _timed(arg):
    """(uci, ms) of a move record's argument: the move, and its clock time if it has one (else -1)."""
    uci, _, ms = arg.partition(" ")
    if ms and not ms.isdigit():
        raise ValueError("bad clock time")
    return uci, int(ms) if ms else -1


def boot(journal, runner):
    """Resume the saved game into ``runner``'s (or start one if the journal is damaged), with its options."""
    game = runner.app.game
    restored = False
    try:
        pos = load(journal)
        if pos is not None:
            game.restore(pos)
            restored = True
    except Exception as e:   # flash trouble, or a journal this firmware cannot read
        quarantine(journal)
        runner.protocol.send({"ev": "storage_error", "message": "saved game set aside: %r" % e})
        game.new_game()
        restored = False
    journal.attach(game, restored)
    for name in journal.options:
        try:
            runner.set_option(name, journal.options[name], False)
        except ValueError:
            pass
    if restored and game.result is None and game.clocks.on:
        resume_clocks(game.clocks, journal.times, game.position)
    journal.times = None
    if journal.repaired:
        runner.protocol.send({"ev": "storage_repaired", "game": journal.game_id,
                              "ply": game.position.ply(), "kept": BAD})


def resume_clocks(clocks, times, pos):
    """The clocks as the journal left them, paused till the board is in step: the times after
    each move, and the side to move's as its last ``T`` record says (else as after its last move)."""
    ply = pos.ply()
    white = pos.turn == 0
    clocks.restore(times[:ply], white)
    if len(times) > ply and times[ply] >= 0:
        if white:
            clocks.white = times[ply]
        else:
            clocks.black = times[ply]


def load(journal):
    """The saved game as a Position (None if there is none); notes what a power cut left to repair."""
    fs = journal.fs
    if fs.size(TEMP) >= 0:
        if fs.size(JOURNAL) < 0:
            fs.rename(TEMP, JOURNAL)     # cut between remove and rename: the new journal is whole
        else:
            fs.remove(TEMP)              # cut before the rename: the old journal stands
    records, clean, size = read_records(fs)
    journal.times = []
    tags = {}
    game_id, pos, options, used = replay(records, journal.times, tags)
    journal.tags = tags or None
    journal.size = size
    journal.game_id = game_id
    journal.options = options
    journal.repaired = size >= 0 and (not clean or used < len(records))
    if pos is None or game_id <= 0 or journal.repaired:
        journal._rewrite = True
        journal._keep_bad = size > 0
        journal.dirty = True
    return pos


def quarantine(journal):
    """Set the journal aside (it made the boot fail) and start afresh."""
    try:
        if journal.fs.size(BAD) >= 0:
            journal.fs.remove(BAD)
        journal.fs.rename(JOURNAL, BAD)
    except OSError:
        pass
    journal.size = -1
    journal.options = {}
    journal._rewrite = True
    journal.dirty = True
