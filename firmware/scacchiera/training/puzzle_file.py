"""The puzzles on the flash: a file of fixed-size records, read one record at a time.

``puzzles.bin`` (made by host_tools/training/puzzle_file.py from the
project's CSV) is a 16-byte header, then ``count`` records of ``RECORD``
bytes, sorted by rating::

    header  b"SCPZ", version (1 byte), record size (1), count (2, little-endian), 8 bytes zero
    record  0..31   the board: square a1..h8, 4 bits each (low nibble first): 0 empty, else
                    colour << 3 | piece type (1 pawn .. 6 king), as Position.piece_at
            32      bit 0: Black to move; bits 1..4: castling K Q k q
            33      en passant file + 1 (0: none)
            34..35  rating (little-endian)
            36..37  themes: bit i set for THEMES[i]
            38      plies in the line (2..MAX_PLIES): the opponent's move first, then the solver's
            39..41  the puzzle's id: the CSV's 5 hex digits as a number (little-endian)
            42..57  the line: 2 bytes a move, from | to << 6 | promotion << 12 (squares 0..63)

The halfmove clock and move number are not kept (a puzzle starts at 0 1).
In the ROMFS partition (a board flashed with make uf2) the file is a buffer
in flash: its fields are read in place, with no copy and no file read. On a
filesystem, a record is read with ``readinto`` into one buffer: choosing a
puzzle reads at most ``count`` records' 2-byte fields, never the whole file
into RAM.
"""

from ..rules.squares import FILE_NAMES, RANK_NAMES, PIECE_SYMBOLS, const

MAGIC = b"SCPZ"
VERSION = 1
HEADER = 16
RECORD = 58
MAX_PLIES = 8
NAME = "puzzles.bin"
THEMES = ("mate", "mateIn1", "mateIn2", "mateIn3", "mateIn4", "advantage", "crushing", "oneMove", "short",
          "long", "sacrifice", "fork", "promotion", "enPassant", "quietMove", "backRankMate")
_RATING = const(34)
_THEMES = const(36)
_PLIES = const(38)
_ID = const(39)
_LINE = const(42)


class PuzzleFile:
    """The puzzle file, open for reading; ``record`` holds the last record read."""

    def __init__(self, f):
        self.f = f
        try:
            self.data = memoryview(f)      # a file in ROMFS: its bytes in flash, read in place
        except TypeError:
            self.data = None               # a file on a filesystem: read a field at a time
        head = f.read(HEADER)
        if len(head) != HEADER or head[:4] != MAGIC or head[4] != VERSION or head[5] != RECORD:
            raise ValueError("not a puzzle file of version %d" % VERSION)
        self.count = head[6] | head[7] << 8
        self.record = bytearray(RECORD)
        self.index = -1
        self._two = bytearray(2)

    def close(self):
        self.f.close()

    def read(self, index):
        """Load record ``index`` (0..count-1) into ``record``."""
        if not 0 <= index < self.count:
            raise ValueError("no puzzle %d (there are %d)" % (index, self.count))
        at = HEADER + index * RECORD
        if self.data is None:
            self.f.seek(at)
            got = self.f.readinto(self.record)
        else:
            got = len(self.data) - at
            if got >= RECORD:
                self.record[:] = self.data[at:at + RECORD]
        if got < RECORD:
            raise ValueError("the puzzle file is cut short")
        self.index = index
        return self.record

    def _field(self, index, offset):
        """A 2-byte field of record ``index``, read alone."""
        at = HEADER + index * RECORD + offset
        data = self.data
        if data is not None:
            return data[at] | data[at + 1] << 8
        self.f.seek(at)
        self.f.readinto(self._two)
        return self._two[0] | self._two[1] << 8

    def rating_of(self, index):
        return self._field(index, _RATING)

    def themes_of(self, index):
        return self._field(index, _THEMES)

    def choose(self, rating, theme=-1, skip=None):
        """The puzzle rated nearest ``rating`` (the first of equals), with THEMES[theme] if
        ``theme`` >= 0, not one whose bit is set in ``skip`` (a bytearray, bit i = puzzle i) if
        every such one has not been tried; -1 if none has the theme. The records are sorted by
        rating: a binary search, then outwards from there while a nearer one may be found."""
        lo, hi = 0, self.count
        while lo < hi:                        # the first record rated ``rating`` or more
            mid = (lo + hi) >> 1
            if self.rating_of(mid) < rating:
                lo = mid + 1
            else:
                hi = mid
        for tried_too in (False, True):
            best = -1
            best_gap = 0
            i = lo - 1
            while i >= 0:                     # below: the gap grows as i falls; equals go on (a lower i)
                gap = rating - self.rating_of(i)
                if best >= 0 and gap > best_gap:
                    break
                if self._eligible(i, theme, skip, tried_too):
                    best, best_gap = i, gap
                i -= 1
            i = lo
            while i < self.count:             # above: only a smaller gap wins (an equal one has a higher i)
                gap = self.rating_of(i) - rating
                if best >= 0 and gap >= best_gap:
                    break
                if self._eligible(i, theme, skip, tried_too):
                    best, best_gap = i, gap
                    break
                i += 1
            if best >= 0:
                return best
        return -1

    def _eligible(self, i, theme, skip, tried_too):
        if not tried_too and skip is not None and skip[i >> 3] >> (i & 7) & 1:
            return False
        return theme < 0 or self.themes_of(i) >> theme & 1

    # -- the record read last -------------------------------------------------------------

    @property
    def rating(self):
        r = self.record
        return r[_RATING] | r[_RATING + 1] << 8

    @property
    def themes(self):
        r = self.record
        return r[_THEMES] | r[_THEMES + 1] << 8

    @property
    def puzzle_id(self):
        r = self.record
        return "%05x" % (r[_ID] | r[_ID + 1] << 8 | r[_ID + 2] << 16)

    def theme_names(self):
        bits = self.themes
        return [THEMES[i] for i in range(len(THEMES)) if bits >> i & 1]

    def fen(self):
        """The position before the line's first move, as FEN."""
        r = self.record
        ranks = []
        for rank in range(7, -1, -1):
            text = ""
            empty = 0
            for file in range(8):
                sq = rank * 8 + file
                piece = r[sq >> 1] >> (4 * (sq & 1)) & 15
                if not piece:
                    empty += 1
                    continue
                if empty:
                    text += str(empty)
                    empty = 0
                symbol = PIECE_SYMBOLS[piece & 7]
                text += symbol if piece >> 3 else symbol.upper()
            ranks.append(text + (str(empty) if empty else ""))
        flags = r[32]
        castling = "".join("KQkq"[i] for i in range(4) if flags >> (i + 1) & 1) or "-"
        ep = "-"
        if r[33]:
            ep = FILE_NAMES[r[33] - 1] + ("6" if flags & 1 == 0 else "3")
        return "/".join(ranks) + (" b " if flags & 1 else " w ") + castling + " " + ep + " 0 1"

    def codes(self):
        """The line's moves, packed as in the file (2 bytes a ply, the opponent's first)."""
        r = self.record
        return bytearray(r[_LINE:_LINE + 2 * r[_PLIES]])


def uci_of(code):
    """A move packed as from | to << 6 | promotion << 12 (squares 0..63), as UCI text."""
    fr = code & 63
    to = code >> 6 & 63
    promo = code >> 12 & 7
    text = FILE_NAMES[fr & 7] + RANK_NAMES[fr >> 3] + FILE_NAMES[to & 7] + RANK_NAMES[to >> 3]
    return text + PIECE_SYMBOLS[promo] if promo else text


def code_of(uci):
    """UCI text as from | to << 6 | promotion << 12; ValueError if it is no move's text."""
    if len(uci) not in (4, 5):
        raise ValueError("not a move: %r" % (uci,))
    squares = []
    for i in (0, 2):
        f = FILE_NAMES.find(uci[i])
        r = RANK_NAMES.find(uci[i + 1])
        if f < 0 or r < 0:
            raise ValueError("not a move: %r" % (uci,))
        squares.append(r * 8 + f)
    promo = 0
    if len(uci) == 5:
        promo = PIECE_SYMBOLS.find(uci[4])
        if promo < 2 or promo > 5:
            raise ValueError("not a promotion: %r" % (uci,))
    return squares[0] | squares[1] << 6 | promo << 12
