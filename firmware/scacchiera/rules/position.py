"""The position: a 0x88 mailbox, a legal move generator, push/pop, game end.

Written for the RP2040 first: the board is one ``bytearray``, moves and
squares are small ints, and the history is arrays of small ints, about 8
bytes a ply (no object per ply): one word per move (``array('I')``: the
move's 18 bits and, above them, what it took away: captured piece, castling
rights, en passant file), the repetition key of every position, and the
halfmove clock before a move only where the move reset it (elsewhere it is
the clock after, less one).
MicroPython's arrays have no ``pop``, so they grow by ``_GROW`` plies at a
time and a count says how much of them is the game.
Nothing here allocates per square or per move except the list of moves the
caller asks for.

Legality: pins and checks are found once per position by walking the eight
rays from the king; a pinned piece moves only along its pin, a king only to
unattacked squares, and in check only moves that capture or block the
checker survive. En passant, the one move that can uncover the king along a
rank, is checked by making it on the board.
"""

from array import array

from .squares import (WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING,
                      DROP, const)
from . import notation
from . import outcome
from .legal import attacked, checks_and_pins, legal_moves

# The 64 real squares of the 0x88 board, a1 first.
_SQUARES = bytes(r * 16 + f for r in range(8) for f in range(8))   # bytes: 190 B less RAM than a tuple

_GROW = const(32)      # plies the history arrays grow by
_ZEROS_I = array("I", [0] * _GROW)
_MARKS = bytearray(128)   # what the walk from the king finds (rules/legal.py), one buffer for every call
_COUNT_ONLY = const(0x40000)   # rules/legal.py's legal_moves: count the moves, append none
_MOVE = const(0x3FFFF)   # a move's bits in a history word; what it took away is above them
_UNDO = const(18)

_WK = const(1)
_WQ = const(2)
_BK = const(4)
_BQ = const(8)
# Castling rights that survive a move from or to each square (0x88 index). Public, as the
# Zobrist keys below: the engine's own board (engine/tree.py) makes moves with them too.
CASTLE_KEEP = bytearray(b"\x0f" * 128)
for _sq, _keep in ((0x04, 12), (0x00, 13), (0x07, 14), (0x74, 3), (0x70, 7), (0x77, 11)):
    CASTLE_KEEP[_sq] = _keep


def _zobrist_keys(n):
    """n pseudo-random 30-bit keys (small ints on MicroPython), the same every boot.

    An array of 32-bit ints (the RAM of a list of small ints): the engine's
    make (engine/tree.py, machine code on the Pico) reads it through a pointer.
    """
    keys = array("i", bytes(4 * n))
    x = 0x2545F491
    for i in range(n):
        # xorshift on 30 bits: shifts and masks only, so no big ints appear.
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        keys[i] = x
    return keys


# Piece p (1..6 white, 9..14 black: 12 kinds) on square s (0..63) has key
# ZOBRIST[(p - 1 - 2 * (p >> 3)) << 6 | s]: 768 keys, no slot wasted (RAM).
ZOBRIST = _zobrist_keys(12 * 64 + 16 + 8 + 1)
ZOBRIST_CASTLING = 12 * 64              # + castling rights (0..15)
ZOBRIST_EP = ZOBRIST_CASTLING + 16      # + en passant file
ZOBRIST_SIDE = ZOBRIST[ZOBRIST_EP + 8]  # black to move


def castling_key(rights):
    """The repetition key's part for castling rights ``rights`` (0..15): a variant that grants
    rights (Scacchi Sprint, placing a rook) swaps the old one for the new."""
    return ZOBRIST[ZOBRIST_CASTLING + rights]


FIDE = "fide"
CASUAL = "casual"
PROFILES = (FIDE, CASUAL)


def _zkey(piece, sq):
    return ZOBRIST[(piece - 1 - ((piece >> 3) << 1)) << 6 | (sq + (sq & 7)) >> 1]


class Position:
    """A chess position with its move history.

    ``profile`` is ``"fide"`` (the default) or ``"casual"``: the online room
    of seed 003, which also calls more endings dead and applies the 50-move
    rule without a claim.
    """

    STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    variant = "chess"
    castle_keep = CASTLE_KEEP      # the castling rights a move from or to each square keeps (Chess960: its own)

    def __init__(self, fen=None, profile=FIDE):
        if profile not in PROFILES:
            raise ValueError("unknown rule profile: %r" % (profile,))
        self.profile = profile
        self.board = bytearray(128)
        self.turn = WHITE
        self.castling = 0
        self.ep = -1          # en passant target (0x88), only if a legal capture exists
        self.halfmove = 0
        self.fullmove = 1
        self.kings = [0, 0]
        self.hash = 0
        self._declared = None  # (ply, result, termination): resignation or agreement
        notation.set_fen(self, self.STARTING_FEN if fen is None else fen)

    @classmethod
    def from_fen(cls, fen, profile=FIDE, chess960=False):
        """The position of ``fen``; with ``chess960`` a Chess960 one (rules/chess960.py: X-FEN or
        Shredder-FEN castling)."""
        if not isinstance(fen, str):
            raise ValueError("FEN must be a string")
        if chess960:
            from .chess960 import Chess960Position
            return Chess960Position(fen, profile)
        return cls(fen, profile)

    # -- notation (see notation.py) -------------------------------------

    def fen(self):
        return notation.fen(self)

    def uci(self, move):
        return notation.uci(move)

    def parse_uci(self, text):
        return notation.parse_uci(self, text)

    def san(self, move, lang="en", legal=None, mark=True):
        return notation.san(self, move, lang, legal, mark)

    def parse_san(self, text, lang="en"):
        from .pgn import parse_san
        return parse_san(self, text, lang)

    def push_san(self, text, lang="en"):
        move = self.parse_san(text, lang)
        self.push(move)
        return move

    def pgn(self, tags=None):
        from .pgn import pgn
        return pgn(self, tags)

    # -- state ------------------------------------------------------------

    def _reset_history(self):
        """Called by set_fen once the board is set: the position is the game's start."""
        self.start_fen = self.fen()
        self._n = 0                     # plies played: the first _n entries of the arrays below
        self._plies = array("I")        # move | (captured | castling << 4 | (ep file + 1) << 8) << _UNDO
        self._keys = array("I", (self.hash,))   # the repetition key of every position, the start's first
        self._clocks = array("I")       # the halfmove clock before each move that reset it...
        self._nclocks = 0               # ...the first _nclocks entries
        self._declared = None

    def piece_at(self, square):
        """Piece code on a square 0..63 (0 if empty)."""
        return self.board[square + (square & 0x38)]

    def king_square(self, color):
        """Square 0..63 of ``color``'s king."""
        k = self.kings[color]
        return (k + (k & 7)) >> 1

    def occupancy(self, rows=None):
        """Occupied squares as 8 bytes, one per rank (bit f = file f): the switch matrix's view."""
        if rows is None:
            rows = bytearray(8)
        board = self.board
        for r in range(8):
            bits = 0
            base = r * 16
            for f in range(8):
                if board[base + f]:
                    bits |= 1 << f
            rows[r] = bits
        return rows

    def standard_start(self):
        """The FEN of the variant's standard start (PGN writes a FEN tag for a game begun elsewhere)."""
        return self.STARTING_FEN

    def __getattr__(self, name):
        """``move_stack``: the moves played, first to last (a new list). Not a property: on
        MicroPython a class with one looks in the class before every attribute stored (35 against
        8 us a store on the emulated Pico), and push and pop store a dozen (docs/engine.md, the rules' perft)."""
        if name != "move_stack":
            raise AttributeError(name)
        plies = self._plies
        return [plies[i] & _MOVE for i in range(self._n)]

    def move_words(self):
        """The history's words, first to last, copied at once (array("I")): each move is in a word's
        low 18 bits (rules/uci_bytes.py's write_moves reads them). At ply 300 on the emulated Pico
        0.3 ms, where move_stack takes 2.7."""
        return self._plies[:self._n]

    def peek(self):
        """The last move played; IndexError if none."""
        if not self._n:
            raise IndexError("no move played")
        return self._plies[self._n - 1] & _MOVE

    def ply(self):
        return self._n

    def drawn_tile(self):
        """The tile the side to move has just drawn: none in chess (Scacchi Sprint has them)."""
        return 0

    def is_check(self):
        return self._attacked(self.kings[self.turn], self.turn ^ 1)

    # -- attacks ----------------------------------------------------------

    def _attacked(self, sq, by):
        """Is 0x88 square sq attacked by side ``by``? (rules/legal.py, machine code on the Pico)"""
        return attacked(self.board, sq, by)

    def _ep_is_legal(self, fr, to):
        """Would the en passant capture fr -> to leave the mover's king safe?"""
        board = self.board
        us = self.turn
        cap = to - 16 if us == WHITE else to + 16
        pawn = board[fr]
        taken = board[cap]
        board[fr] = 0
        board[cap] = 0
        board[to] = pawn
        safe = not self._attacked(self.kings[us], us ^ 1)
        board[to] = 0
        board[cap] = taken
        board[fr] = pawn
        return safe

    def _capturable_ep(self, ep):
        """``ep`` if the side to move can legally capture en passant there, else -1.

        Only such a square counts: it is what FEN shows and what repetition compares.
        """
        us = self.turn
        pawn = PAWN | us << 3
        behind = ep - 16 if us == WHITE else ep + 16
        for fr in (behind - 1, behind + 1):
            if not fr & 0x88 and self.board[fr] == pawn and self._ep_is_legal(fr, ep):
                return ep
        return -1

    def _rehash(self):
        """The repetition key of the position, computed from scratch."""
        h = ZOBRIST[ZOBRIST_CASTLING + self.castling]
        if self.turn == BLACK:
            h ^= ZOBRIST_SIDE
        if self.ep >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (self.ep & 7)]
        for sq in _SQUARES:
            if self.board[sq]:
                h ^= _zkey(self.board[sq], sq)
        self.hash = h

    # -- move generation --------------------------------------------------

    def legal_moves(self):
        """Every legal move of the side to move, as a new list of ints."""
        return self.generate([])

    def generate(self, out):
        """Append the legal moves to ``out`` (the caller may reuse one list): rules/legal.py."""
        self._generate(out.append, 0)
        return out

    def count_moves(self):
        """How many legal moves the side to move has (perft's last ply), counted by the machine
        code with no list made of them, but of the castlings."""
        castlings = []
        return self._generate(castlings.append, _COUNT_ONLY) + len(castlings)

    def _generate(self, append, count_only):
        """rules/legal.py's walk from the king, then its moves; returns their count (castlings
        aside). The walk marks one buffer for every call, ``_MARKS``: a new one took 200 us on the
        emulated Pico, most of a move list's time."""
        us = self.turn
        k = self.kings[us]
        checks = checks_and_pins(self.board, _MARKS, k, us)
        return legal_moves(self.board, _MARKS, append, self, k | us << 7 | (self.ep + 1) << 8
                           | (1 if self.castling else 0) << 15 | checks << 16 | count_only)

    def _castles(self, append, ksq, us, them):
        """Append the side to move's castlings (not in check, some right left): the king two
        squares towards its rook, the squares between them empty and the king's path safe."""
        board = self.board
        rights = self.castling >> (2 * us)
        if rights & 1 and not board[ksq + 1] and not board[ksq + 2] \
                and not attacked(board, ksq + 1, them) and not attacked(board, ksq + 2, them):
            append(ksq | (ksq + 2) << 7)
        if rights & 2 and not board[ksq - 1] and not board[ksq - 2] and not board[ksq - 3] \
                and not attacked(board, ksq - 1, them) and not attacked(board, ksq - 2, them):
            append(ksq | (ksq - 2) << 7)

    def is_legal(self, move):
        return move in self.legal_moves()

    # -- making and unmaking moves ----------------------------------------

    def push(self, move):
        """Play a move (assumed legal: use parse_uci/parse_san or legal_moves())."""
        board = self.board
        us = self.turn
        fr = move & 127
        to = (move >> 7) & 127
        ep = self.ep
        castling = self.castling
        captured = board[to]
        halfmove = self.halfmove
        n = self._n
        if n == len(self._plies):
            self._plies.extend(_ZEROS_I)
            self._keys.extend(_ZEROS_I)
        self._plies[n] = move | (captured | castling << 4 | ((ep & 7) + 1 if ep >= 0 else 0) << 8) << _UNDO
        self._n = n + 1
        h = self.hash ^ ZOBRIST_SIDE
        if ep >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (ep & 7)]
        self.halfmove = halfmove + 1
        new_ep = -1
        if move & DROP:
            piece = (move >> 14) & 7 | us << 3
            board[to] = piece
            h ^= _zkey(piece, to)
            if piece & 7 == PAWN:
                self.halfmove = 0
        else:
            piece = board[fr]
            if captured:
                h ^= _zkey(captured, to)
                self.halfmove = 0
            board[fr] = 0
            board[to] = piece
            h ^= _zkey(piece, fr) ^ _zkey(piece, to)
            t = piece & 7
            if t == PAWN:
                self.halfmove = 0
                step = to - fr
                if to == ep:
                    cap = to - 16 if us == WHITE else to + 16
                    h ^= _zkey(board[cap], cap)
                    board[cap] = 0
                elif step == 32 or step == -32:
                    new_ep = fr + step // 2
                elif move >> 14 & 7:
                    promoted = (move >> 14) & 7 | us << 3
                    board[to] = promoted
                    h ^= _zkey(piece, to) ^ _zkey(promoted, to)
            elif t == KING:
                self.kings[us] = to
                if to - fr == 2 or fr - to == 2:
                    rook = ROOK | us << 3
                    rfr, rto = (fr + 3, fr + 1) if to > fr else (fr - 4, fr - 1)
                    board[rfr] = 0
                    board[rto] = rook
                    h ^= _zkey(rook, rfr) ^ _zkey(rook, rto)
            if castling:
                keep = self.castle_keep
                castling &= keep[fr] & keep[to]
                if castling != self.castling:
                    h ^= ZOBRIST[ZOBRIST_CASTLING + self.castling] ^ ZOBRIST[ZOBRIST_CASTLING + castling]
                    self.castling = castling
        self.turn = us ^ 1
        if us == BLACK:
            self.fullmove += 1
        self.ep = -1
        if new_ep >= 0:
            self.ep = new_ep = self._capturable_ep(new_ep)
            if new_ep >= 0:
                h ^= ZOBRIST[ZOBRIST_EP + (new_ep & 7)]
        self.hash = h
        self._keys[n + 1] = h
        if not self.halfmove:
            self._save_clock(halfmove)

    def _save_clock(self, halfmove):
        c = self._nclocks
        if c == len(self._clocks):
            self._clocks.extend(_ZEROS_I)
        self._clocks[c] = halfmove
        self._nclocks = c + 1

    def _reset_clock(self):
        """After ``push``: the move just played resets the halfmove clock (a variant's rule)."""
        if self.halfmove:
            self._save_clock(self.halfmove - 1)
            self.halfmove = 0

    def pop(self):
        """Take back the last move and return it."""
        n = self._n - 1
        if n < 0:
            raise IndexError("no move to take back")
        self._n = n
        u = self._plies[n]
        move = u & _MOVE
        u >>= _UNDO
        self.hash = self._keys[n]
        board = self.board
        us = self.turn ^ 1
        self.turn = us
        if us == BLACK:
            self.fullmove -= 1
        fr = move & 127
        to = (move >> 7) & 127
        self.castling = (u >> 4) & 15
        ep = (u >> 8) & 15
        ep = ep - 1 + (0x50 if us == WHITE else 0x20) if ep else -1
        self.ep = ep
        h = self.halfmove
        if h:
            self.halfmove = h - 1
        else:
            self._nclocks -= 1
            self.halfmove = self._clocks[self._nclocks]
        if move & DROP:
            board[to] = 0
            return move
        piece = board[to]
        if move >> 14 & 7:
            piece = PAWN | us << 3
        board[fr] = piece
        board[to] = u & 15
        t = piece & 7
        if t == PAWN:
            if to == ep:
                board[to - 16 if us == WHITE else to + 16] = PAWN | (us ^ 1) << 3
        elif t == KING:
            self.kings[us] = fr
            if to - fr == 2 or fr - to == 2:
                rfr, rto = (fr + 3, fr + 1) if to > fr else (fr - 4, fr - 1)
                board[rto] = 0
                board[rfr] = ROOK | us << 3
        return move

    def take_back(self):
        """Take back the last move as the players do: a result declared after it goes too.

        (``pop`` is the mechanism and leaves a declared result alone, so that
        walking back through the game and forward again changes nothing.)
        """
        move = self.pop()
        if self._declared is not None and self._declared[0] > self._n:
            self._declared = None
        return move

    def perft(self, depth):
        """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
        if depth < 1:
            return 1
        if depth == 1:
            return self.count_moves()
        n = 0
        for m in self.legal_moves():
            self.push(m)
            n += self.perft(depth - 1)
            self.pop()
        return n

    # -- game end ---------------------------------------------------------

    def is_checkmate(self):
        return self.is_check() and not self.legal_moves()

    def is_stalemate(self):
        return not self.is_check() and not self.legal_moves()

    def is_insufficient_material(self):
        """A dead position by material alone (the profile decides which ones)."""
        found = self._board_minors()
        return found is not None and dead_material(found[0][0], found[0][1], found[1], 0, self.profile)

    def _board_minors(self):
        """(["NB", "B"], bishop square colours) of the board's minor pieces, or None if a pawn,
        rook or queen stands anywhere. Colours: bit 0 dark squares, bit 1 light."""
        board = self.board
        minors = ["", ""]
        colours = 0
        for sq in _SQUARES:
            p = board[sq]
            t = p & 7
            if not p or t == KING:
                continue
            if t != KNIGHT and t != BISHOP:
                return None
            minors[p >> 3] += "N" if t == KNIGHT else "B"
            if t == BISHOP:
                colours |= 1 << ((sq + (sq >> 4)) & 1)
        return minors, colours

    def recent_keys(self):
        """The repetition keys of the positions since the last pawn move or capture, oldest
        first, the current one last (a new list): what a search needs to see repetitions."""
        n = self._n
        keys = self._keys
        return [keys[i] for i in range(max(0, n - self.halfmove), n + 1)]

    def repetitions(self):
        """How many times the current position has stood since the last pawn move or capture."""
        keys = self._keys
        i = self._n
        key = keys[i]
        count = 0
        low = max(0, i - self.halfmove)
        while i >= low:
            if keys[i] == key:
                count += 1
            i -= 2
        return count

    def _is_repetition(self, times):
        """The current position has stood ``times`` times (verified square by square)."""
        if self.repetitions() < times:
            return False
        # Keys are 30-bit hashes: confirm by walking back and comparing the real positions, those
        # with the same key only (the same position has the same key), and no further back than
        # the occurrence that makes ``times`` (each ply back is a pop and a push: docs/engine.md).
        keys = self._keys
        key = keys[self._n]
        now = (bytes(self.board), self.turn, self.castling, self.ep)
        taken = []
        count = 1
        for _ in range(min(self.halfmove, self._n)):
            taken.append(self.pop())
            if keys[self._n] == key and (bytes(self.board), self.turn, self.castling, self.ep) == now:
                count += 1
                if count >= times:
                    break
        while taken:
            self.push(taken.pop())
        return count >= times

    def can_claim_fifty_moves(self):
        if self.halfmove >= 100 and self.legal_moves():
            return True
        if self.halfmove >= 99:
            for m in self.legal_moves():
                self.push(m)
                ok = self.halfmove >= 100 and self.legal_moves()
                self.pop()
                if ok:
                    return True
        return False

    def can_claim_threefold_repetition(self):
        """Threefold now, or after a move the player announces (FIDE 9.2)."""
        if self._is_repetition(3):
            return True
        # After a move the position can stand a third time only if it stood twice before, with
        # the other side to move, since the last pawn move or capture (an irreversible move starts
        # afresh); without such a key no move need be tried (a push and a pop each: ~26 ms for
        # all on the RP2040).
        keys = self._keys
        low = max(0, self._n - self.halfmove)
        i = self._n - 1
        seen = set()
        while i >= low and keys[i] not in seen:
            seen.add(keys[i])
            i -= 2
        if i < low:
            return False
        for m in self.legal_moves():
            self.push(m)
            ok = self._is_repetition(3)
            self.pop()
            if ok:
                return True
        return False

    def claim_draw(self):
        """Claim a draw (50 moves or threefold); if granted it ends the game. Returns the outcome or None."""
        if self.can_claim_fifty_moves():
            self._declared = (self._n, outcome.DRAW, outcome.fifty_moves)
        elif self.can_claim_threefold_repetition():
            self._declared = (self._n, outcome.DRAW, outcome.threefold_repetition)
        else:
            return None
        return self.outcome()

    def resign(self, color):
        """``color`` resigns the game in the current position."""
        self._declared = (self._n, outcome.lost_by(color), outcome.resignation)

    def agree_draw(self):
        self._declared = (self._n, outcome.DRAW, outcome.agreement)

    def abandon(self, color):
        """``color``, to move, left the board: the game is lost for it (seed 003)."""
        self._declared = (self._n, outcome.lost_by(color), outcome.abandoned)

    def declare(self, result, termination):
        """End the game here as the rules alone would not: ``termination`` one of rules/outcome.py's
        (a flag fallen: rules/material.py's flag_fall says which result)."""
        self._declared = (self._n, result, termination)

    def outcome(self, claim_draw=False, moves=None):
        """None while the game goes on, else ``(result, termination)``.

        ``moves``: the legal moves, if the caller has them (saves generating them again).

        Checked in python-chess's order: checkmate (so mate on the 75th move
        is mate), dead position, stalemate, the automatic draws, then the
        claims if ``claim_draw``.
        """
        declared = self._declared
        if declared and declared[0] == self._n:
            return declared[1], declared[2]
        if moves is None:
            moves = self.legal_moves()
        if not moves and self.is_check():
            return outcome.lost_by(self.turn), outcome.checkmate
        if self.is_insufficient_material():
            return outcome.DRAW, outcome.insufficient_material
        if not moves:
            return outcome.DRAW, outcome.stalemate
        if self.profile == CASUAL and self.halfmove >= 100:
            return outcome.DRAW, outcome.fifty_moves
        if self.halfmove >= 150:
            return outcome.DRAW, outcome.seventyfive_moves
        if self._is_repetition(5):
            return outcome.DRAW, outcome.fivefold_repetition
        if claim_draw:
            if self.can_claim_fifty_moves():
                return outcome.DRAW, outcome.fifty_moves
            if self.can_claim_threefold_repetition():
                return outcome.DRAW, outcome.threefold_repetition
        return None

    def is_game_over(self, claim_draw=False):
        return self.outcome(claim_draw) is not None


# Seed 003's room also calls these minor-piece endings drawn (sorted letters, white/black).
_CASUAL_DEAD = ("N/N", "B/N", "N/B", "B/B", "NN/", "/NN")


def dead_material(white, black, colours, free, profile):
    """Can nobody ever mate with these minor pieces? ``white``/``black``: their letters ("NB");
    ``colours``: the bishops' square colours (bit 0 dark, bit 1 light); ``free``: bishops
    whose colour is still open (Scacchi Sprint's tiles to come).

    FIDE: bare kings, a lone minor piece against a bare king, or bishops all on
    one colour; the casual profile (seed 003) adds the pairs in _CASUAL_DEAD.
    """
    if not white and not black:
        return True
    if "N" not in white + black and (len(white) + len(black) <= 1 or (not free and colours != 3)):
        return True
    if (white == "N" and not black) or (black == "N" and not white):
        return True
    if profile == CASUAL:
        return "".join(sorted(white)) + "/" + "".join(sorted(black)) in _CASUAL_DEAD
    return False
