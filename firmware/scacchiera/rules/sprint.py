"""Scacchi Sprint (seed 004): the drop variant, as a Position that also has hands and decks.

Each side starts with its king on e1/e8, a pawn in front of it and a pawn in
hand; the other 13 tiles (6 pawns, queen, 2 rooks, 2 bishops, 2 knights) are
its deck, shuffled from the game's seed (deck.py). At the start of every turn
the player to move draws the top tile into the hand, then either moves a
piece as in chess or places one tile from the hand (a *drop*, "N@c3").

    from scacchiera.rules.sprint import SprintPosition
    p = SprintPosition(seed=42)
    p.push(p.parse_san("P@d3"))

Model: a position is the moment a player chooses, *after* their draw.
``push(move)`` plays the move and then lets the next player draw; ``pop()``
takes back both, so push/pop stay exact. Every rule choice the seed leaves
open is written down in docs/sprint.md.

Everything is plain MicroPython: hands are a ``bytearray`` (count per side and
piece type), decks are ``bytearray`` s of tile types with a per-side count of
tiles drawn, the extra flags are one small int, and the history keeps one more
small int per ply.
"""

from .squares import (WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING,
                      DROP, PIECE_SYMBOLS, const)
from .position import Position, FIDE, castling_key, dead_material
from .legal import checks_and_pins
from . import notation
from .deck import (Rng, shuffled_deck, check_seed, DECK_SIZE, SALT_HOURGLASS)

VARIANT = "Scacchi Sprint"
QUEEN_TURN = const(8)    # the queen may be placed from the 8th turn (fullmove 8) on

# The chess part of the start; the hands, decks, flags and seed follow it.
SPRINT_BOARD_FEN = "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"

# flags: bit c = the king of side c has never moved (it may still castle once a
# rook is placed); bit 2 + 2c + colour = side c has placed a bishop on a square
# of that colour (colour 0 dark, 1 light).
_UNMOVED = const(1)
_BISHOP_BITS = const(2)

_PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN)
_HAND_ORDER = (QUEEN, ROOK, BISHOP, KNIGHT, PAWN)   # as FEN pockets are written


def _zone(lo, hi):
    return tuple(r * 16 + f for r in range(lo, hi + 1) for f in range(8))


# Where each side may place (0x88 squares): pawns ranks 2-4 / 7-5, pieces 1-4 / 8-5.
_PAWN_LO = (1, 4)
_PAWN_HI = (3, 6)
_PIECE_LO = (0, 4)
_PIECE_HI = (3, 7)
_PAWN_ZONE = (_zone(1, 3), _zone(4, 6))
_PIECE_ZONE = (_zone(0, 3), _zone(4, 7))


def _sprint_keys(n):
    keys = []
    rng = Rng(0x1D2C3B4A)
    for _ in range(n):
        keys.append(rng.next())
    return keys


# Repetition keys of what the chess hash does not see: hand counts (side and
# type, count 0..15), tiles left in each deck (0..31) and the flags (0..63).
_SZ = _sprint_keys(256 + 64 + 64)
_SZ_DECK = const(256)
_SZ_FLAGS = const(256 + 64)
_HAND_SLOTS = (1, 2, 3, 4, 5, 9, 10, 11, 12, 13)


def _hand_text(hands):
    out = []
    for c in (WHITE, BLACK):
        for t in _HAND_ORDER:
            ch = PIECE_SYMBOLS[t]
            out.append((ch.upper() if c == WHITE else ch) * hands[c << 3 | t])
    return "".join(out)


class SprintPosition(Position):
    """A Scacchi Sprint position with its history.

    ``SprintPosition(seed=42)`` is the start of the game with seed 42;
    ``SprintPosition(text)`` (or ``from_fen(text)``) reads a Sprint position
    string as written by ``fen()`` (docs/sprint.md). ``profile`` as for
    Position: ``"fide"`` or ``"casual"``.
    """

    variant = VARIANT

    def __init__(self, fen=None, profile=FIDE, seed=None):
        self.hands = bytearray(16)          # hands[color << 3 | type]
        self.decks = [bytearray(0), bytearray(0)]
        self.drawn = [0, 0]                 # tiles already drawn from each deck
        self.flags = 0
        self.seed = 0
        self._sundo = []                    # per ply: old flags | drew << 8
        self._start_drew = 0
        if fen is None:
            self.seed = check_seed(0 if seed is None else seed)
            self.decks = [shuffled_deck(self.seed, WHITE), shuffled_deck(self.seed, BLACK)]
            self.hands[PAWN] = 1
            self.hands[8 | PAWN] = 1
            self.flags = _UNMOVED | _UNMOVED << 1
            self._start_drew = self._draw(WHITE)
            Position.__init__(self, SPRINT_BOARD_FEN, profile)
            self._from_seed = True
        else:
            if seed is not None:
                raise ValueError("give a seed or a position string, not both")
            chess_fen = self._set_sprint_fields(fen)
            Position.__init__(self, chess_fen, profile)
            self._check_material()
            self._from_seed = False
            # A seeded deck that gave one tile per turn so far (the seed's start, a resumed game)
            # gave its last at the start of this turn: taps and LEDs offer that tile first.
            c = self.turn
            self._start_drew = 1 if self._seeded[c] and self.drawn[c] == self.fullmove else 0

    def standard_start(self):
        """The standard start of this game's seed (PGN writes a FEN tag if the game began elsewhere).
        (Not a STARTING_FEN property: position.py's ``__getattr__`` says why.)"""
        if self._from_seed:
            return self.start_fen
        return SprintPosition(seed=self.seed).fen()

    # -- the position string ------------------------------------------

    def fen(self):
        """The Sprint position string: FEN with hands, deck counts, flags and seed (docs/sprint.md)."""
        chess_fen = notation.fen(self)
        i = chess_fen.find(" ")
        decks = []
        for c in (WHITE, BLACK):
            deck = self.decks[c]
            decks.append(str(len(deck) - self.drawn[c]) if self._seeded[c] else
                         self._tiles_text(deck[self.drawn[c]:], c))
        return "%s[%s]%s %s %s %d" % (chess_fen[:i], _hand_text(self.hands), chess_fen[i:],
                                      "/".join(decks), self._flags_text(), self.seed)

    @staticmethod
    def _tiles_text(tiles, c):
        if not tiles:
            return "0"
        s = "".join(PIECE_SYMBOLS[t] for t in tiles)
        return s.upper() if c == WHITE else s

    def _flags_text(self):
        f = self.flags
        out = ""
        for c in (WHITE, BLACK):
            s = ""
            if f & _UNMOVED << c:
                s += "K"
            if f & 2 << _BISHOP_BITS + 2 * c:
                s += "L"
            if f & 1 << _BISHOP_BITS + 2 * c:
                s += "D"
            out += s if c == WHITE else s.lower()
        return out or "-"

    def _set_sprint_fields(self, text):
        """Read hands, decks, flags and seed; return the chess FEN part (6 fields)."""
        if not isinstance(text, str):
            raise ValueError("a Sprint position must be a string")
        fields = text.split()
        if len(fields) != 9:
            raise ValueError("a Sprint position needs 9 fields (FEN with [hands], decks, flags, seed), "
                             "got %d: %r" % (len(fields), text))
        placement = fields[0]
        i = placement.find("[")
        if i < 0 or placement[-1] != "]":
            raise ValueError("Sprint position: the hands go in brackets after the placement, e.g. [NPp]")
        hands = self.hands
        for ch in placement[i + 1:-1]:
            t = PIECE_SYMBOLS.find(ch.lower())
            if t < 1 or t == KING:
                raise ValueError("Sprint position: hands hold only p, n, b, r, q tiles, got %r" % (ch,))
            hands[(WHITE if ch.isupper() else BLACK) << 3 | t] += 1
        seed_text = fields[8]
        if not seed_text.isdigit() or len(seed_text) > 10:
            raise ValueError("Sprint position: the seed must be a number, got %r" % (seed_text,))
        self.seed = check_seed(int(seed_text))
        parts = fields[6].split("/")
        if len(parts) != 2:
            raise ValueError("Sprint position: decks are written white/black, got %r" % (fields[6],))
        self._seeded = [True, True]
        for c in (WHITE, BLACK):
            part = parts[c]
            if part.isdigit():
                n = int(part)
                if n > DECK_SIZE:
                    raise ValueError("Sprint position: a seeded deck has at most %d tiles, got %d"
                                     % (DECK_SIZE, n))
                self.decks[c] = shuffled_deck(self.seed, c)
                self.drawn[c] = DECK_SIZE - n
            else:
                if len(part) > 15:
                    raise ValueError("Sprint position: a deck has at most 15 tiles, got %d" % len(part))
                tiles = bytearray(len(part))
                for k, ch in enumerate(part):
                    t = PIECE_SYMBOLS.find(ch.lower())
                    if t < 1 or t == KING or ch.isupper() != (c == WHITE):
                        raise ValueError("Sprint position: %s deck tiles are %s, got %r"
                                         % (("white", "black")[c],
                                            ("P N B R Q", "p n b r q")[c], ch))
                    tiles[k] = t
                self.decks[c] = tiles
                self.drawn[c] = 0
                self._seeded[c] = False
        flags = 0
        if fields[7] != "-":
            for ch in fields[7]:
                k = "KLDkld".find(ch)
                if k < 0:
                    raise ValueError("Sprint position: flags are K, L, D (white) and k, l, d (black), "
                                     "or -, got %r" % (ch,))
                c = k // 3
                bit = _UNMOVED << c if k % 3 == 0 else \
                    (2 if k % 3 == 1 else 1) << _BISHOP_BITS + 2 * c
                if flags & bit:
                    raise ValueError("Sprint position: flag %r repeats" % (ch,))
                flags |= bit
        self.flags = flags
        return placement[:i] + " " + " ".join(fields[1:6])

    def _check_material(self):
        board = self.board
        for c in (WHITE, BLACK):
            name = ("white", "black")[c]
            pawns = self.hands[c << 3 | PAWN]
            tiles = 0
            for t in _PIECE_TYPES:
                tiles += self.hands[c << 3 | t]
            for t in self.decks[c][self.drawn[c]:]:
                tiles += 1
                if t == PAWN:
                    pawns += 1
            for sq in range(64):
                p = self.piece_at(sq)
                if p and p >> 3 == c and p & 7 != KING:
                    tiles += 1
                    if p & 7 == PAWN:
                        pawns += 1
            if pawns > 8:
                raise ValueError("Sprint position: %s has more than 8 pawns on the board, in hand and deck" % name)
            if tiles > 15:
                raise ValueError("Sprint position: %s has more than 15 tiles besides the king" % name)
            home = 0x04 if c == WHITE else 0x74
            if self.flags & _UNMOVED << c and board[home] != KING | c << 3:
                raise ValueError("Sprint position: flag %s (king never moved) but no %s king on %s"
                                 % ("Kk"[c], name, "e1e8"[2 * c:2 * c + 2]))
            if self.castling & 3 << 2 * c and not self.flags & _UNMOVED << c:
                raise ValueError("Sprint position: %s castling right without flag %s (king never moved)"
                                 % (name, "Kk"[c]))

    # -- state --------------------------------------------------------

    _seeded = (True, True)

    def _draw(self, c):
        """The top tile of ``c``'s deck goes to the hand; 1 if a tile was drawn."""
        d = self.drawn[c]
        deck = self.decks[c]
        if d < len(deck):
            self.hands[c << 3 | deck[d]] += 1
            self.drawn[c] = d + 1
            return 1
        return 0

    def _sprint_key(self):
        h = _SZ[_SZ_FLAGS + self.flags]
        hands = self.hands
        for i in _HAND_SLOTS:
            n = hands[i]
            if n:
                h ^= _SZ[i << 4 | n]
        return h ^ _SZ[_SZ_DECK + len(self.decks[0]) - self.drawn[0]] \
            ^ _SZ[_SZ_DECK + 32 + len(self.decks[1]) - self.drawn[1]]

    def _rehash(self):
        Position._rehash(self)
        self.hash ^= self._sprint_key()

    def _reset_history(self):
        Position._reset_history(self)
        self._sundo = []

    def hand(self, color):
        """The tiles ``color`` holds: {piece type: count}, only types it has."""
        out = {}
        for t in _PIECE_TYPES:
            n = self.hands[color << 3 | t]
            if n:
                out[t] = n
        return out

    def hand_count(self, color, piece_type):
        return self.hands[color << 3 | piece_type]

    def deck_left(self, color):
        """How many tiles are still in ``color``'s deck."""
        return len(self.decks[color]) - self.drawn[color]

    def drawn_tile(self):
        """The tile the side to move drew at the start of this turn (0: none, or not known)."""
        c = self.turn
        if self._sundo:
            drew = self._sundo[-1] >> 8
        else:
            drew = self._start_drew
        return self.decks[c][self.drawn[c] - 1] if drew else 0

    def bishop_colours_left(self, color):
        """Square colours ``color`` may still place a bishop on: bit 0 dark, bit 1 light."""
        return 3 & ~(self.flags >> _BISHOP_BITS + 2 * color)

    def king_unmoved(self, color):
        return bool(self.flags & _UNMOVED << color)

    def drop_types_at(self, square, moves=None):
        """Piece types the side to move may legally place on ``square`` (0..63).

        For the board: a tile appearing on an empty square is a drop of one of
        these; more than one means the player must say which.
        """
        if moves is None:
            moves = self.legal_moves()
        sq = square + (square & 0x38)
        return [(m >> 14) & 7 for m in moves if m & DROP and (m >> 7) & 127 == sq]

    # -- move generation ----------------------------------------------

    def count_moves(self):
        """The chess moves and the drops, counted in a list (the machine code counts no drop)."""
        return len(self.legal_moves())

    def generate(self, out):
        """Append the legal moves: the chess moves, then the drops."""
        Position.generate(self, out)
        us = self.turn
        hands = self.hands
        base = us << 3
        if not (hands[base | PAWN] or hands[base | KNIGHT] or hands[base | BISHOP]
                or hands[base | ROOK] or hands[base | QUEEN]):
            return out
        board = self.board
        marks = bytearray(128)      # what the walk from the king finds (rules/legal.py)
        checks = checks_and_pins(board, marks, self.kings[us], us)
        block = None
        if checks:
            # In check: a tile can only block, on an empty square between the king and its one
            # checker (marked 1), from the king outwards.
            if checks > 1:
                return out
            k = self.kings[us]
            block = sorted((sq for sq in range(120) if marks[sq] == 1 and not board[sq]),
                           key=lambda sq: abs(sq - k))
            if not block:
                return out
        append = out.append
        for t in _PIECE_TYPES:
            if not hands[base | t]:
                continue
            if t == QUEEN and self.fullmove < QUEEN_TURN:
                continue
            colours = 3
            if t == BISHOP:
                colours = 3 & ~(self.flags >> _BISHOP_BITS + 2 * us)
                if not colours:
                    continue
            code = DROP | t << 14
            if t == PAWN:
                lo, hi, zone = _PAWN_LO[us], _PAWN_HI[us], _PAWN_ZONE[us]
            else:
                lo, hi, zone = _PIECE_LO[us], _PIECE_HI[us], _PIECE_ZONE[us]
            if block is None:
                for sq in zone:
                    if not board[sq] and (colours == 3 or colours >> ((sq + (sq >> 4)) & 1) & 1):
                        append(code | sq << 7)
            else:
                for sq in block:
                    r = sq >> 4
                    if lo <= r <= hi and (colours == 3 or colours >> ((sq + (sq >> 4)) & 1) & 1):
                        append(code | sq << 7)
        return out

    # -- making and unmaking moves ------------------------------------

    def push(self, move):
        """Play a move (assumed legal), then the next player draws."""
        us = self.turn
        flags = self.flags
        castling = self.castling
        old_key = self._sprint_key()
        Position.push(self, move)
        h = self.hash
        if move & DROP:
            t = (move >> 14) & 7
            to = (move >> 7) & 127
            self.hands[us << 3 | t] -= 1
            self._reset_clock()        # a placement is irreversible, like a pawn move
            if t == BISHOP:
                self.flags = flags | 1 << (_BISHOP_BITS + 2 * us + ((to + (to >> 4)) & 1))
            elif t == ROOK and flags & _UNMOVED << us:
                home = 0x00 if us == WHITE else 0x70
                if to == home + 7:
                    new = castling | 1 << 2 * us
                elif to == home:
                    new = castling | 2 << 2 * us
                else:
                    new = castling
                if new != castling:
                    h ^= castling_key(castling) ^ castling_key(new)
                    self.castling = new
        elif flags & _UNMOVED << us and move & 127 == (0x04 if us == WHITE else 0x74):
            self.flags = flags & ~(_UNMOVED << us)
        drew = self._draw(us ^ 1)
        self._sundo.append(flags | drew << 8)
        h ^= old_key ^ self._sprint_key()
        self.hash = h
        self._keys[self._n] = h

    def pop(self):
        """Take back the last move (and the draw that followed it); return the move."""
        u = self._sundo.pop()
        c = self.turn
        if u >> 8:
            d = self.drawn[c] - 1
            self.drawn[c] = d
            self.hands[c << 3 | self.decks[c][d]] -= 1
        move = Position.pop(self)
        self.flags = u & 255
        if move & DROP:
            self.hands[self.turn << 3 | (move >> 14) & 7] += 1
        return move

    # -- game end -----------------------------------------------------

    def is_insufficient_material(self):
        """Dead by material: what is on the board, in hand and still in the deck can never mate.

        The chess patterns (the profile decides which) applied to all the
        material each side has or will draw. A bishop still to come counts on
        the colour it must take (the other one, once one bishop was placed) or,
        if its side placed none yet, on either colour.
        """
        found = self._board_minors()
        if found is None:
            return False
        minors, colours = found
        free = 0        # bishops still to come whose colour is the player's choice
        hands = self.hands
        for c in (WHITE, BLACK):
            base = c << 3
            if hands[base | PAWN] or hands[base | ROOK] or hands[base | QUEEN]:
                return False
            knights = hands[base | KNIGHT]
            bishops = hands[base | BISHOP]
            deck = self.decks[c]
            for i in range(self.drawn[c], len(deck)):
                t = deck[i]
                if t == KNIGHT:
                    knights += 1
                elif t == BISHOP:
                    bishops += 1
                else:
                    return False
            minors[c] += "N" * knights
            if bishops:
                can = 3 & ~(self.flags >> _BISHOP_BITS + 2 * c)
                if can == 3:
                    if bishops == 1:
                        free += 1
                    else:
                        colours = 3
                    minors[c] += "BB" if bishops > 1 else "B"
                elif can:
                    colours |= can
                    minors[c] += "B"
        return dead_material(minors[0], minors[1], colours, free, self.profile)

    def _snapshot(self):
        return (bytes(self.board), self.turn, self.castling, self.ep,
                bytes(self.hands), self.drawn[0], self.drawn[1], self.flags)

    def _is_repetition(self, times):
        """As Position's, comparing hands, decks and flags too."""
        if self.repetitions() < times:
            return False
        now = self._snapshot()
        taken = []
        count = 1
        for _ in range(min(self.halfmove, self._n)):
            taken.append(self.pop())
            if self._snapshot() == now:
                count += 1
        while taken:
            self.push(taken.pop())
        return count >= times

    # -- PGN ------------------------------------------------------------

    def pgn(self, tags=None):
        """PGN with ``[Variant "Scacchi Sprint"]`` and ``[Seed "..."]`` (and FEN if not the seed's start)."""
        given = {"Variant": VARIANT, "Seed": str(self.seed)}
        if tags:
            for key in tags:
                given[key] = tags[key]
        from .pgn import pgn
        return pgn(self, given)


def auto_move(pos, rng=None):
    """The move the system plays when the hourglass runs out (seed 003), or None if there is none.

    Seed 003: "il sistema muoverà un pezzo per il giocatore", so a piece on
    the board is moved: a uniformly chosen legal board move, or a placement
    only if no board move is legal. The legal moves are sorted (as ints) and
    the choice is ``moves[rng.below(len(moves))]`` with, by default,
    ``Rng(seed, SALT_HOURGLASS, ply + 1)``: the same game, seed and ply
    always give the same move, on CPython and MicroPython alike.
    """
    moves = pos.legal_moves()
    if not moves:
        return None
    board_moves = [m for m in moves if not m & DROP]
    pool = board_moves or moves
    pool.sort()
    if rng is None:
        rng = Rng(pos.seed, SALT_HOURGLASS, pos.ply() + 1)
    return pool[rng.below(len(pool))]


def read_pgn(text, lang="en"):
    """Replay a Sprint PGN (as ``pgn()`` writes it): the SprintPosition at its end.

    Reads the Seed and FEN tags, skips comments, move numbers, NAGs and the
    result, and plays every SAN move; ValueError names the first problem.
    """
    seed = 0
    start = None
    variant = None
    moves = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            i = line.find(" ")
            key = line[1:i] if i > 0 else line[1:-1]
            value = line[i + 1:-1].strip() if i > 0 else ""
            if len(value) < 2 or value[0] != '"' or value[-1] != '"':
                raise ValueError("malformed PGN tag: %r" % (line,))
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            if key == "Seed":
                if not value.isdigit():
                    raise ValueError("PGN Seed tag must be a number, got %r" % (value,))
                seed = int(value)
            elif key == "FEN":
                start = value
            elif key == "Variant":
                variant = value
        elif line:
            moves.append(line)
    if variant is None or variant.lower() != VARIANT.lower():
        raise ValueError("not a Scacchi Sprint PGN (Variant tag: %r)" % (variant,))
    pos = SprintPosition(start) if start else SprintPosition(seed=seed)
    body = " ".join(moves)
    while "{" in body:
        i = body.find("{")
        j = body.find("}", i)
        if j < 0:
            raise ValueError("PGN comment not closed")
        body = body[:i] + " " + body[j + 1:]
    for tok in body.split():
        if tok in ("1-0", "0-1", "1/2-1/2", "*") or tok[0] == "$":
            continue
        k = 0
        while k < len(tok) and tok[k].isdigit():
            k += 1
        if k and tok[k:k + 1] == ".":
            tok = tok[k:].lstrip(".")
            if not tok:
                continue
        pos.push_san(tok, lang)
    return pos
