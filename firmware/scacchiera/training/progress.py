"""The board's own puzzle record on the flash: a rating, and which puzzles were tried.

Offline the board chooses "the next puzzle" itself: the untried one rated
nearest the player's puzzle rating. The rating is seed 003's Elo (K = 30,
from 1000) with the puzzle as the opponent: solved is a win, failed a loss
(docs/training.md). The companion keeps each named player's own in the
ladder database; this one is the board's, for whoever trains on it.

``puzzles.rec``: b"SCPR", rating (2 bytes, little-endian), puzzles tried (2),
solved (2), then one bit per puzzle of the file (bit i of byte i >> 3: tried).
Written aside and renamed into place, as the journal is: a power cut leaves
the old record or the new one.
"""

NAME = "puzzles.rec"
START = 1000
K = 30
_HEAD = 10


def load(fs, count):
    """(rating, tried, solved, bits) of the record, or a fresh one (``count`` puzzles' bits)."""
    data = b""
    if fs.size(NAME) > 0:
        with fs.open(NAME, "rb") as f:
            data = f.read()
    bits = bytearray((count + 7) >> 3)
    if len(data) < _HEAD or data[:4] != b"SCPR":
        return START, 0, 0, bits
    n = min(len(bits), len(data) - _HEAD)
    bits[:n] = data[_HEAD:_HEAD + n]
    return data[4] | data[5] << 8, data[6] | data[7] << 8, data[8] | data[9] << 8, bits


def change(rating, opponent, score):
    """Seed 003's change: round(30 x (score - expected)), as host_tools/ladder/elo.py."""
    raw = K * (score - 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0)))
    whole = int(abs(raw) + 0.5)
    return whole if raw >= 0 else -whole


def record(fs, index, puzzle_rating, solved, count=None):
    """Puzzle ``index`` (rated ``puzzle_rating``) was solved or failed: the new rating, saved."""
    if count is None:
        count = index + 1
    rating, tried, won, bits = load(fs, max(count, index + 1))
    if len(bits) <= index >> 3:
        bits.extend(bytearray((index >> 3) + 1 - len(bits)))
    rating = max(0, min(65535, rating + change(rating, puzzle_rating, 1.0 if solved else 0.0)))
    tried = min(65535, tried + 1)
    won = min(65535, won + (1 if solved else 0))
    bits[index >> 3] |= 1 << (index & 7)
    head = bytearray(b"SCPR" + bytes(6))
    head[4], head[5] = rating & 255, rating >> 8
    head[6], head[7] = tried & 255, tried >> 8
    head[8], head[9] = won & 255, won >> 8
    with fs.open(NAME + ".tmp", "wb") as f:
        f.write(head)
        f.write(bits)
    fs.rename(NAME + ".tmp", NAME)
    return rating
