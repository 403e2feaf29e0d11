"""The opening book: named openings' moves, looked up by the position's key in a file beside the firmware.

``book.bin`` (made by host_tools/make_book.py from lichess's chess-openings
and the project's main lines, each move vetted by Stockfish) is a 16-byte
header, then ``count`` entries of ``ENTRY`` bytes sorted by key::

    header  b"SCBK", version (1 byte), entry size (1), count (4, little-endian), 6 bytes zero
    entry   the position's 30-bit Zobrist key (``Position.hash``, 4 bytes little-endian),
            a move (the rules module's small int, 2 bytes; no book move is a promotion or a drop)

A position with several book moves has several entries, the soundest first.
In the ROMFS partition (a board flashed with make uf2) the file is a buffer
in flash, searched in place; on a filesystem an entry is read at a time with
``readinto``. Either way a look-up is a binary search: no index, nothing of
the file kept in RAM, and the file is open only while a look-up runs.
"""

from ..rules.squares import const

NAME = "book.bin"
MAGIC = b"SCBK"
VERSION = 1
HEADER = 16
ENTRY = 6
_ENTRY = const(6)
_HEADER = const(16)


def _key_of(e, j):
    """The key of the entry at ``e[j:]``."""
    return e[j] | e[j + 1] << 8 | e[j + 2] << 16 | e[j + 3] << 24


class Book:
    """The book file, open for reading (``f``: its file object, which the caller closes)."""

    def __init__(self, f):
        self.f = f
        try:
            self.data = memoryview(f)      # a file in ROMFS: its bytes in flash, read in place
        except TypeError:
            self.data = None               # a file on a filesystem: an entry at a time
        head = f.read(_HEADER)
        if len(head) != _HEADER or head[:4] != MAGIC or head[4] != VERSION or head[5] != _ENTRY:
            raise ValueError("not a book file of version %d" % VERSION)
        self.count = head[6] | head[7] << 8 | head[8] << 16 | head[9] << 24
        if self.data is not None and len(self.data) < _HEADER + self.count * _ENTRY:
            raise ValueError("the book file is cut short")
        self._entry = bytearray(_ENTRY)

    def _entry_at(self, i):
        """(the bytes holding entry ``i``, its offset in them): the flash itself, or the entry read
        into one buffer."""
        at = _HEADER + i * _ENTRY
        if self.data is not None:
            return self.data, at
        self.f.seek(at)
        if self.f.readinto(self._entry) != _ENTRY:
            raise ValueError("the book file is cut short")
        return self._entry, 0

    def _key(self, i):
        return _key_of(*self._entry_at(i))

    def moves(self, key):
        """The book's moves for the position with Zobrist key ``key`` (a new list, soundest first)."""
        lo = 0
        hi = self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            if self._key(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        out = []
        while lo < self.count:            # each entry read once: its key, then its move
            e, j = self._entry_at(lo)
            if _key_of(e, j) != key:
                break
            out.append(e[j + 4] | e[j + 5] << 8)
            lo += 1
        return out


def book_path():
    """Where the book lies: beside the ``scacchiera`` package (the ROMFS image's root, the board's
    filesystem root beside main.py, the tree's firmware/ folder)."""
    # the folder above the package, the package, engine, this file
    parts = __file__.replace("\\", "/").rsplit("/", 3)
    return parts[0] + "/" + NAME if len(parts) == 4 else NAME


def book_moves(key):
    """The book's moves for the position with key ``key``; none where the book file is missing or
    is not one (a board flashed without it): the engine then searches from the first move."""
    try:
        f = open(book_path(), "rb")
    except OSError:
        return []
    try:
        return Book(f).moves(key)
    except ValueError:
        return []
    finally:
        f.close()
