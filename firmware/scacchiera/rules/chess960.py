"""Chess960 (Fischer random chess): the 960 start positions and castling from any of them.

Loaded only for a Chess960 game (variants.py), as sprint.py for Scacchi Sprint. Everything but
castling is chess (position.py). FIDE's Chess960 rules (Laws of Chess, Guidelines II): after
castling the king and the rook stand where they would in chess (king g-file and rook f-file on
the h-side, king c-file and rook d-file on the a-side), whatever their start squares; every
square between the king and its destination and between the rook and its destination must be
empty but for the two of them, and the king may not be in check, pass an attacked square or land
on one. The king may already stand on its destination, and so may the rook.

A castling is one move, written king-takes-rook: from the king's square to the castling rook's,
with KING in the promotion bits (``CASTLE``), which no other move has: so a castling whose king
does not move is still a move with two different squares. UCI writes it so (``e1h1``, as
python-chess's and Stockfish's UCI_Chess960 do), SAN as ``O-O`` or ``O-O-O``. FEN: X-FEN (a
right is K/Q/k/q when its rook is the outermost on that side of the king, else the rook's file
letter) is written; X-FEN and Shredder-FEN (file letters, ``HAha``) are read.
"""

from .position import Position, FIDE, _zkey, ZOBRIST, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_SIDE, _ZEROS_I
from .squares import WHITE, BLACK, KING, ROOK, DROP, const
from .legal import attacked

CASTLE = const(98304)              # KING << 14: a move's promotion bits holding KING, a castling (king takes rook)
_UNDO = const(18)                  # position.py's: where a history word's undo bits begin (a
                                   # private const there, so MicroPython cannot import it)
STANDARD = const(518)              # the start position of chess
# Knights' places among the five squares left after the bishops and the queen (Scharnagl's table).
_KNIGHTS = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
_FILES = "abcdefgh"


def back_rank(number):
    """The white pieces of start position ``number`` (0..959), a-file first, as piece letters
    (Scharnagl's numbering: 518 is RNBQKBNR)."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= 959:
        raise ValueError("a Chess960 start position is a number from 0 to 959, got %r" % (number,))
    rank = [""] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    empty = [f for f in range(8) if not rank[f]]
    rank[empty[queen]] = "Q"
    empty = [f for f in range(8) if not rank[f]]
    for k in _KNIGHTS[n]:
        rank[empty[k]] = "N"
    rest = [f for f in range(8) if not rank[f]]
    for f, piece in zip(rest, "RKR"):
        rank[f] = piece
    return "".join(rank)


def start_fen(number):
    """The FEN (X-FEN) of start position ``number``."""
    white = back_rank(number)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (white.lower(), white)


def castle_targets(king, rook):
    """(king's destination, rook's destination) for a castling of ``king`` with ``rook``: chess's
    g and f files, or c and d, on their rank. Squares 0..63 or 0x88 alike (the file is ``sq & 7`` in both)."""
    return king_to(king, rook), rook_to(king, rook)


def king_to(king, rook):
    """The king's destination alone (no tuple: the engine's tree allocates nothing per node)."""
    return king - (king & 7) + (6 if rook > king else 2)


def rook_to(king, rook):
    """The rook's destination alone."""
    return king - (king & 7) + (5 if rook > king else 3)


def castle_changes(king, rook):
    """The squares (0..63) whose occupancy a castling of ``king`` with ``rook`` (0..63) changes:
    the four squares, less those a piece leaves and another lands on (or a piece stays on)."""
    kto, rto = castle_targets(king, rook)
    return [sq for sq in (king, rook, kto, rto) if (sq == king or sq == rook) != (sq == kto or sq == rto)]


def move_castle(board, ksq, rsq, color):
    """King and rook of ``color``'s castling to their squares on ``board`` (0x88)."""
    kto = king_to(ksq, rsq)
    rto = rook_to(ksq, rsq)
    board[ksq] = 0
    board[rsq] = 0
    board[kto] = KING | color << 3
    board[rto] = ROOK | color << 3


def unmove_castle(board, ksq, rsq, color):
    """``move_castle`` undone: king and rook back on their squares."""
    board[king_to(ksq, rsq)] = 0
    board[rook_to(ksq, rsq)] = 0
    board[ksq] = KING | color << 3
    board[rsq] = ROOK | color << 3


def may_castle(board, ksq, rsq, them):
    """May the king on ``ksq`` castle with the rook on ``rsq`` (0x88) on ``board`` (whose rights
    allow it)? Every square the two cross free but for them, the king's squares not attacked. A
    function of the board alone, so the engine's tree asks it too."""
    kto = king_to(ksq, rsq)
    rto = rook_to(ksq, rsq)
    lo = min(ksq, rsq, kto, rto)
    hi = max(ksq, rsq, kto, rto)
    for s in range(lo, hi + 1):
        if board[s] and s != ksq and s != rsq:
            return False
    return _castle_is_safe(board, ksq, rsq, kto, rto, them)


def _castle_is_safe(board, ksq, rsq, kto, rto, them):
    """The king's square and the squares it crosses not attacked (the king lifted, the rook in
    place); its destination not attacked with the rook on its own (as python-chess checks)."""
    king = board[ksq]
    rook = board[rsq]
    board[ksq] = 0
    step = 1 if kto > ksq else -1
    safe = True
    s = ksq
    while s != kto:
        if attacked(board, s, them):
            safe = False
            break
        s += step
    if safe:
        board[rsq] = 0
        kept = board[rto]
        board[rto] = rook
        safe = not attacked(board, kto, them)
        board[rto] = kept
        board[rsq] = rook
    board[ksq] = king
    return safe


class Chess960Position(Position):
    """A Chess960 position. ``Chess960Position(number=N)`` is start position N (0..959; the default
    518 is chess's own start), ``Chess960Position(fen)`` reads X-FEN or Shredder-FEN."""

    variant = "chess960"

    def __init__(self, fen=None, profile=FIDE, number=None):
        self.rooks = bytearray(4)             # each right's rook (0x88): white h-side, a-side; black h-side, a-side
        self.castle_keep = bytearray(b"\x0f" * 128)
        if fen is not None and number is not None:
            raise ValueError("a Chess960 game starts from a FEN or a start position number, not both")
        Position.__init__(self, start_fen(STANDARD if number is None else number) if fen is None else fen, profile)

    @classmethod
    def from_fen(cls, fen, profile=FIDE, chess960=True):
        return Position.from_fen(fen, profile, True)

    # -- FEN's castling field ---------------------------------------------

    def read_castling(self, text, board):
        """X-FEN (KQkq: the outermost rook on that side of the king) or Shredder-FEN (the rook's file
        letter: A-H for white, a-h for black); sets the rooks and the rights each square keeps."""
        keep = self.castle_keep
        for i in range(128):
            keep[i] = 15
        rights = 0
        if text == "-":
            return 0
        for ch in text:
            color = WHITE if ch.isupper() else BLACK
            home = 0 if color == WHITE else 0x70
            king = -1
            for f in range(8):
                if board[home + f] == KING | color << 3:
                    king = home + f
            if king < 0:
                raise ValueError("FEN castling right %r without a king on its first rank" % (ch,))
            rook = ROOK | color << 3
            c = ch.upper()
            if c == "K" or c == "Q":
                files = range(7, king - home, -1) if c == "K" else range(0, king - home)
                sq = -1
                for f in files:
                    if board[home + f] == rook:
                        sq = home + f
                        break
            elif "A" <= c <= "H":
                sq = home + ord(c) - ord("A")
                if board[sq] != rook:
                    sq = -1
            else:
                raise ValueError("FEN castling field has %r (use KQkq, file letters or -)" % (ch,))
            if sq < 0:
                raise ValueError("FEN castling right %r without its rook on the first rank" % (ch,))
            bit = 2 * color + (0 if sq > king else 1)
            if rights & (1 << bit):
                raise ValueError("FEN castling field gives %s two rooks on one side" % ("white", "black")[color])
            rights |= 1 << bit
            self.rooks[bit] = sq
            keep[sq] &= 15 ^ (1 << bit)
            keep[king] &= 15 ^ (3 << 2 * color)
        return rights

    def fen(self):
        """The FEN, its castling field in X-FEN."""
        fields = Position.fen(self).split(" ")
        fields[2] = self.castling_text()
        return " ".join(fields)

    def castling_text(self):
        """X-FEN: K/Q/k/q for a right whose rook is the outermost on its side, else its file."""
        out = ""
        for bit in range(4):
            if not self.castling & (1 << bit):
                continue
            color = bit >> 1
            sq = self.rooks[bit]
            home = sq & 0x70
            step = 1 if bit & 1 == 0 else -1
            outer = True
            s = sq + step
            while s & 0x70 == home and 0 <= s - home < 8:
                if self.board[s] == ROOK | color << 3:
                    outer = False
                s += step
            letter = ("K" if bit & 1 == 0 else "Q") if outer else _FILES[sq & 7].upper()
            out += letter if color == WHITE else letter.lower()
        return out or "-"

    def shredder_fen(self):
        """The FEN with Shredder's castling field: every right as its rook's file letter."""
        fields = Position.fen(self).split(" ")
        letters = "".join((_FILES[self.rooks[b] & 7].upper() if b < 2 else _FILES[self.rooks[b] & 7])
                          for b in range(4) if self.castling & (1 << b))
        fields[2] = letters or "-"
        return " ".join(fields)

    # -- castling ---------------------------------------------------------

    def _castles(self, append, ksq, us, them):
        for side in (0, 1):
            bit = 2 * us + side
            if self.castling & (1 << bit) and may_castle(self.board, ksq, self.rooks[bit], them):
                append(ksq | self.rooks[bit] << 7 | CASTLE)

    def push(self, move):
        if move >> 14 & 7 != KING or move & DROP:
            Position.push(self, move)
            return
        us = self.turn
        board = self.board
        ksq = move & 127
        rsq = (move >> 7) & 127
        kto, rto = castle_targets(ksq, rsq)
        n = self._n
        if n == len(self._plies):
            self._plies.extend(_ZEROS_I)
            self._keys.extend(_ZEROS_I)
        ep = self.ep
        castling = self.castling
        self._plies[n] = move | (castling << 4 | ((ep & 7) + 1 if ep >= 0 else 0) << 8) << _UNDO
        self._n = n + 1
        h = self.hash ^ ZOBRIST_SIDE
        if ep >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (ep & 7)]
        king = KING | us << 3
        rook = ROOK | us << 3
        move_castle(board, ksq, rsq, us)
        h ^= _zkey(king, ksq) ^ _zkey(king, kto) ^ _zkey(rook, rsq) ^ _zkey(rook, rto)
        self.kings[us] = kto
        new = castling & (15 ^ (3 << 2 * us))
        h ^= ZOBRIST[ZOBRIST_CASTLING + castling] ^ ZOBRIST[ZOBRIST_CASTLING + new]
        self.castling = new
        self.halfmove += 1
        self.turn = us ^ 1
        if us == BLACK:
            self.fullmove += 1
        self.ep = -1
        self.hash = h
        self._keys[n + 1] = h

    def pop(self):
        n = self._n - 1
        if n < 0 or self._plies[n] >> 14 & 7 != KING or self._plies[n] & DROP:
            return Position.pop(self)
        u = self._plies[n]
        move = u & 0x3FFFF
        u >>= _UNDO
        self._n = n
        self.hash = self._keys[n]
        us = self.turn ^ 1
        self.turn = us
        if us == BLACK:
            self.fullmove -= 1
        self.castling = (u >> 4) & 15
        ep = (u >> 8) & 15
        self.ep = ep - 1 + (0x50 if us == WHITE else 0x20) if ep else -1
        self.halfmove -= 1
        ksq = move & 127
        unmove_castle(self.board, ksq, (move >> 7) & 127, us)
        self.kings[us] = ksq
        return move

    # -- notation ---------------------------------------------------------

    def pgn(self, tags=None):
        """PGN with ``[Variant "Chess960"]`` and the start position's FEN (X-FEN), as python-chess
        and Lichess read a Chess960 game."""
        given = {"Variant": "Chess960", "SetUp": "1", "FEN": self.start_fen}
        given.update(tags or {})
        return Position.pgn(self, given)

    def parse_uci(self, text):
        """As in chess; a castling written king takes rook (``e1h1``), or, when no ordinary move has
        that name, as the king's two squares in chess (``e1g1``)."""
        try:
            return Position.parse_uci(self, text)
        except ValueError:
            if not isinstance(text, str) or len(text) != 4:
                raise
            for m in self.legal_moves():
                if m >> 14 & 7 == KING and not m & DROP:
                    king = m & 127
                    kto = king_to(king, (m >> 7) & 127)
                    name = Position.uci(self, m)
                    if text == name or kto != king and text == name[:2] + _FILES[kto & 7] + name[1]:
                        return m
            raise
