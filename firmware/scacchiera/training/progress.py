"""The board's own puzzle record on the flash: a rating, and which puzzles were tried.

Offline the board chooses "the next puzzle" itself: the untried one rated
nearest the player's puzzle rating. The rating is seed 003's Elo (K = 30,
from 1000) with the puzzle as the opponent: solved is a win, failed a loss
(docs/training.md). The companion keeps each named player's own in the
ladder database; this one is the board's, for whoever trains on it.

``puzzles.rec``: b"SCP2", rating (2 bytes, little-endian), puzzles tried (2),
solved (2), then one bit per puzzle of the file (bit i of byte i >> 3: tried),
then the CRC-16 of all before it (2 bytes, little-endian: the journal's
``crc16``), so that a flipped bit is seen, not read as another rating. A
record that fails its check is kept as ``puzzles.bad`` and the board's rating
starts again at 1000 (``damaged`` says so). The first form, b"SCPR" without
the check, is still read. Written aside and renamed into place, as the journal
is: a power cut leaves the old record or the new one. A write that fails
(the flash full) raises OSError and leaves the old record.
"""

from ..storage.journal import crc16

NAME = "puzzles.rec"
BAD = "puzzles.bad"
START = 1000
K = 30
_HEAD = 10


def _read(fs):
    """The record's bytes (b"" if none); a record that fails its check is set aside: b"" and True."""
    if fs.size(NAME) <= 0:
        return b"", False
    with fs.open(NAME, "rb") as f:
        data = f.read()
    if data[:4] == b"SCPR" and len(data) >= _HEAD:
        return data, False
    n = len(data) - 2
    if data[:4] == b"SCP2" and n >= _HEAD and crc16(memoryview(data)[:n]) == data[n] | data[n + 1] << 8:
        return data[:n], False
    fs.rename(NAME, BAD)
    return b"", True


def load(fs, count):
    """(rating, tried, solved, bits, damaged) of the record, or a fresh one (``count`` puzzles' bits;
    ``damaged``: the record on the flash failed its check and was set aside)."""
    data, damaged = _read(fs)
    bits = bytearray((count + 7) >> 3)
    if not data:
        return START, 0, 0, bits, damaged
    n = min(len(bits), len(data) - _HEAD)
    bits[:n] = data[_HEAD:_HEAD + n]
    return data[4] | data[5] << 8, data[6] | data[7] << 8, data[8] | data[9] << 8, bits, False


def change(rating, opponent, score):
    """Seed 003's change: round(30 x (score - expected)), as host_tools/ladder/elo.py."""
    raw = K * (score - 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0)))
    whole = int(abs(raw) + 0.5)
    return whole if raw >= 0 else -whole


def record(fs, index, puzzle_rating, solved, count=None):
    """Puzzle ``index`` (rated ``puzzle_rating``) was solved or failed: (the new rating, its change), saved."""
    if count is None:
        count = index + 1
    rating, tried, won, bits, _damaged = load(fs, max(count, index + 1))
    if len(bits) <= index >> 3:
        bits.extend(bytearray((index >> 3) + 1 - len(bits)))
    before = rating
    rating = max(0, min(65535, rating + change(rating, puzzle_rating, 1.0 if solved else 0.0)))
    tried = min(65535, tried + 1)
    won = min(65535, won + (1 if solved else 0))
    bits[index >> 3] |= 1 << (index & 7)
    head = bytearray(b"SCP2" + bytes(6))
    head[4], head[5] = rating & 255, rating >> 8
    head[6], head[7] = tried & 255, tried >> 8
    head[8], head[9] = won & 255, won >> 8
    crc = crc16(bits, crc16(head))
    with fs.open(NAME + ".tmp", "wb") as f:
        f.write(head)
        f.write(bits)
        f.write(bytes((crc & 255, crc >> 8)))
    fs.rename(NAME + ".tmp", NAME)
    return rating, rating - before
