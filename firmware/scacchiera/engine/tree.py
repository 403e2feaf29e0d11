"""The search's own copy of a position: pseudo-legal moves into a buffer, make and unmake.

The rules module's ``Position.generate`` is exact but builds a dict of pins
and a set of blocking squares, and ``push`` grows three history lists: right
for a game, an allocation per node for a search. The tree keeps its own
state on a private Position (Chess960's castling takes one), writes moves
into one preallocated list (engine/movegen.py, machine code on the Pico),
and undoes from preallocated per-ply stacks: nothing is allocated once a
search has started. A pseudo-legal move that leaves the king
attacked is unmade at once; the root's moves are checked against
``Position.legal_moves()`` by the engine.

Moves and pieces are the rules module's small ints (rules/squares.py); the
Zobrist keys and castling masks are the rules module's too, so the tree's
hash is the game's repetition key. A Chess960 position brings its castling
rooks and masks, and rules/chess960.py's castling (king takes rook, KING in
the promotion bits: see its docstring).
"""

from array import array

from .. import const
from ..rules.squares import WHITE, PAWN, BISHOP, ROOK, QUEEN, KING
from ..rules.position import Position, ZOBRIST, ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_SIDE, CASTLE_KEEP
from ..rules.attacks import attacked
from .evaluate import MIDDLE, END, PHASE, PHASE_FULL
from .movegen import pseudo_moves, checker

MAX_PLY = const(48)
_CASTLE = const(98304)       # rules/chess960.py's CASTLE: KING in a move's promotion bits
MOVE_SPACE = const(800)      # moves of every ply on the current line
ROOM = const(230)           # more than any position's moves (218)

_SQUARES = tuple(r * 16 + f for r in range(8) for f in range(8))


def shorts(n):
    """n zeros as 16-bit ints: half a list's RAM on MicroPython."""
    return array("h", bytes(2 * n))


def ints(n):
    """n zeros as 32-bit ints (moves, keys: small ints up to 30 bits)."""
    return array("i", bytes(4 * n))


def _line_steps():
    """For each 0x88 difference b - a + 119: the step from a towards b if they share a line, + 18 (0: none)."""
    steps = bytearray(239)
    for d in (16, -16, 1, -1, 15, 17, -15, -17):
        for n in range(1, 8):
            steps[d * n + 119] = d + 18
    return steps


_LINE = _line_steps()


class Tree:
    """Board, side, castling, en passant, clocks, hash and score, with make/unmake."""

    def __init__(self):
        self.pos = Position()
        self.board = self.pos.board
        self.kings = self.pos.kings
        self.moves = ints(MOVE_SPACE)
        self.ply = 0
        self.turn = WHITE
        self.castling = 0
        self.ep = -1
        self.halfmove = 0
        self.hash = 0
        self.mg = 0
        self.eg = 0
        self.phase = 0
        self.special = 0      # the last move made was a king move or an en passant capture
        self.keep = CASTLE_KEEP   # the castling rights each square keeps when a piece leaves or is taken
        self.rooks = None     # Chess960: each right's rook (0x88), as Chess960Position.rooks
        # Chess960: rules/chess960.py's castling functions, loaded with a Chess960 position
        self._may_castle = self._move_castle = self._unmove_castle = self._king_to = self._rook_to = None
        n = MAX_PLY + 1
        self.u_move = ints(n)
        self.u_cap = bytearray(n)
        self.u_state = ints(n)   # castling | (ep + 1) << 4 | halfmove << 12
        self.u_hash = ints(n)
        self.u_mg = shorts(n)
        self.u_eg = shorts(n)
        self.u_phase = shorts(n)
        self.keys = ints(n)      # the hash at every ply of the line

    def load(self, position):
        """Copy ``position`` (a rules Position) in; the tree never touches it again."""
        board = self.board
        src = position.board
        mg = eg = phase = 0
        for sq in range(128):
            p = src[sq]
            board[sq] = p
            if p and not sq & 0x88:
                i = p << 6 | (sq + (sq & 7)) >> 1
                mg += MIDDLE[i]
                eg += END[i]
                phase += PHASE[p & 7]
        self.kings[0] = position.kings[0]
        self.kings[1] = position.kings[1]
        self.turn = position.turn
        self.castling = position.castling
        if position.variant == "chess960":
            from ..rules.chess960 import may_castle, move_castle, unmove_castle, king_to, rook_to
            self._may_castle = may_castle
            self._move_castle = move_castle
            self._unmove_castle = unmove_castle
            self._king_to = king_to
            self._rook_to = rook_to
            self.rooks = bytes(position.rooks)
            self.keep = bytes(position.castle_keep)
        else:
            self.rooks = None
            self.keep = CASTLE_KEEP
        self.ep = position.ep
        self.halfmove = position.halfmove
        self.hash = position.hash
        self.mg = mg
        self.eg = eg
        self.phase = phase
        self.ply = 0
        self.keys[0] = position.hash

    def evaluate(self):
        """Static score from the side to move's view, in centipawns."""
        ph = self.phase
        if ph > PHASE_FULL:
            ph = PHASE_FULL
        s = (self.mg * ph + self.eg * (PHASE_FULL - ph)) // PHASE_FULL
        if ph <= 6 and (s > 250 or s < -250):
            # a won ending: drive the lone king to the edge, bring the other king close
            # (the piece-square tables alone let a rook or queen up wander for 100 plies)
            w = self.kings[0]
            b = self.kings[1]
            loser = b if s > 0 else w
            f = loser & 7
            r = loser >> 4
            edge = (f if f > 3 else 7 - f) + (r if r > 3 else 7 - r)
            df = (w & 7) - (b & 7)
            dr = (w >> 4) - (b >> 4)
            near = 14 - (df if df > 0 else -df) - (dr if dr > 0 else -dr)
            bonus = 10 * edge + 4 * near
            s += bonus if s > 0 else -bonus
        return -s if self.turn else s

    def in_check(self):
        us = self.turn
        return attacked(self.board, self.kings[us], us ^ 1)

    def checker(self):
        """The square of the piece giving check: -1 if none, -2 if two (only the king may move).

        Like the attack test, but it names the attacker, so the search can skip
        the moves that neither take it nor block it (engine/movegen.py).
        """
        return checker(self.board, self.kings[self.turn], self.turn)

    def stops_check(self, move, checker):
        """Can ``move`` (not a king move) answer a check by the piece on ``checker``: take it or block?"""
        to = (move >> 7) & 127
        if to == checker or to == self.ep:
            return True
        k = self.kings[self.turn]
        step = _LINE[checker - k + 119]
        if not step or _LINE[to - k + 119] != step:
            return False
        a = to - k
        b = checker - k
        return (a if a > 0 else -a) < (b if b > 0 else -b)

    def left_in_check(self, was_in_check):
        """After make: is the side that just moved in check (the move was illegal)?

        Unless the mover was in check, moved its king or took en passant, only a
        piece leaving the line between its king and an enemy slider can expose
        the king: one ray walk instead of a full attack test.
        """
        them = self.turn
        us = them ^ 1
        k = self.kings[us]
        move = self.u_move[self.ply - 1]
        fr = move & 127
        if was_in_check or self.special:
            return attacked(self.board, k, them)
        step = _LINE[fr - k + 119]
        if not step:
            return False
        step -= 18
        board = self.board
        s = k + step
        while not s & 0x88:
            x = board[s]
            if x:
                if x >> 3 != them:
                    return False
                t = x & 7
                if t == QUEEN:
                    return True
                if step == 16 or step == -16 or step == 1 or step == -1:
                    return t == ROOK
                return t == BISHOP
            s += step
        return False

    def generate(self, n, quiet):
        """Write pseudo-legal moves from ``moves[n]`` on; returns the new end.

        Captures and queen promotions always; the other moves if ``quiet``.
        """
        moves = self.moves
        if n + ROOM > MOVE_SPACE:
            return n
        us = self.turn
        n = pseudo_moves(self.board, moves, n, us | (2 if quiet else 0) | (self.ep + 1) << 2)
        if quiet and self.castling:
            rights = self.castling >> (2 * us)
            k = self.kings[us]
            them = us ^ 1
            if self.rooks is not None:
                for side in (0, 1):
                    rook = self.rooks[2 * us + side]
                    if rights & (1 << side) and self._may_castle(self.pos, k, rook, them):
                        moves[n] = k | rook << 7 | _CASTLE
                        n += 1
                return n
            board = self.board
            if rights & 1 and not board[k + 1] and not board[k + 2] and not attacked(board, k, them) \
                    and not attacked(board, k + 1, them):
                moves[n] = k | (k + 2) << 7
                n += 1
            if rights & 2 and not board[k - 1] and not board[k - 2] and not board[k - 3] \
                    and not attacked(board, k, them) and not attacked(board, k - 1, them):
                moves[n] = k | (k - 2) << 7
                n += 1
        return n

    def make(self, move):
        """Play a pseudo-legal move (the caller checks left_in_check and unmakes)."""
        ply = self.ply
        board = self.board
        us = self.turn
        fr = move & 127
        to = (move >> 7) & 127
        piece = board[fr]
        cap = board[to]
        ep = self.ep
        castling = self.castling
        self.u_move[ply] = move
        self.u_cap[ply] = cap
        self.u_state[ply] = castling | (ep + 1) << 4 | self.halfmove << 12
        h = self.hash
        self.u_hash[ply] = h
        mg = self.mg
        eg = self.eg
        self.u_mg[ply] = mg
        self.u_eg[ply] = eg
        self.u_phase[ply] = self.phase
        h ^= ZOBRIST_SIDE
        if ep >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (ep & 7)]
        if cap and cap >> 3 == us:
            self._castle(fr, to, us, h, mg, eg)     # Chess960: the king "takes" its own rook
            return
        f64 = (fr + (fr & 7)) >> 1
        t64 = (to + (to & 7)) >> 1
        i = piece << 6
        mg += MIDDLE[i | t64] - MIDDLE[i | f64]
        eg += END[i | t64] - END[i | f64]
        z = (piece - 1 - ((piece >> 3) << 1)) << 6
        h ^= ZOBRIST[z | f64] ^ ZOBRIST[z | t64]
        half = self.halfmove + 1
        if cap:
            i = cap << 6 | t64
            mg -= MIDDLE[i]
            eg -= END[i]
            self.phase -= PHASE[cap & 7]
            h ^= ZOBRIST[(cap - 1 - ((cap >> 3) << 1)) << 6 | t64]
            half = 0
        board[fr] = 0
        board[to] = piece
        new_ep = -1
        t = piece & 7
        self.special = t == KING
        if t == PAWN:
            half = 0
            step = to - fr
            if to == ep:
                self.special = True
                c = to - 16 if us == WHITE else to + 16
                x = board[c]
                c64 = (c + (c & 7)) >> 1
                i = x << 6 | c64
                mg -= MIDDLE[i]
                eg -= END[i]
                h ^= ZOBRIST[(x - 1 - ((x >> 3) << 1)) << 6 | c64]
                board[c] = 0
            elif step == 32 or step == -32:
                # en passant only if an enemy pawn stands beside (the rules module
                # also asks for legality; the hash differs only in that rare case)
                enemy = PAWN | (us ^ 1) << 3
                if (not (to + 1) & 0x88 and board[to + 1] == enemy) or \
                        (not (to - 1) & 0x88 and board[to - 1] == enemy):
                    new_ep = fr + (step >> 1)
                    h ^= ZOBRIST[ZOBRIST_EP + (new_ep & 7)]
            elif move >> 14 & 7:
                promoted = (move >> 14) & 7 | us << 3
                board[to] = promoted
                i = piece << 6 | t64
                j = promoted << 6 | t64
                mg += MIDDLE[j] - MIDDLE[i]
                eg += END[j] - END[i]
                self.phase += PHASE[promoted & 7]
                h ^= ZOBRIST[z | t64] ^ ZOBRIST[(promoted - 1 - ((promoted >> 3) << 1)) << 6 | t64]
        elif t == KING:
            self.kings[us] = to
            if to - fr == 2 or fr - to == 2:
                rook = ROOK | us << 3
                if to > fr:
                    rfr = fr + 3
                    rto = fr + 1
                else:
                    rfr = fr - 4
                    rto = fr - 1
                board[rfr] = 0
                board[rto] = rook
                a = (rfr + (rfr & 7)) >> 1
                b = (rto + (rto & 7)) >> 1
                i = rook << 6
                mg += MIDDLE[i | b] - MIDDLE[i | a]
                eg += END[i | b] - END[i | a]
                z = (rook - 1 - ((rook >> 3) << 1)) << 6
                h ^= ZOBRIST[z | a] ^ ZOBRIST[z | b]
        if castling:
            keep = self.keep
            castling &= keep[fr] & keep[to]
            if castling != self.castling:
                h ^= ZOBRIST[ZOBRIST_CASTLING + self.castling] ^ ZOBRIST[ZOBRIST_CASTLING + castling]
                self.castling = castling
        self.ep = new_ep
        self.halfmove = half
        self.turn = us ^ 1
        self.hash = h
        self.mg = mg
        self.eg = eg
        ply += 1
        self.ply = ply
        self.keys[ply] = h

    def _castle(self, ksq, rsq, us, h, mg, eg):
        """make's end for a Chess960 castling (its undo state saved, ``h`` the hash with the side
        and en passant done): king and rook to their chess squares, the mover's rights gone."""
        kto = self._king_to(ksq, rsq)
        self._move_castle(self.board, ksq, rsq, us)
        castling = self.castling
        new = castling & (15 ^ (3 << 2 * us))
        self.hash = h ^ ZOBRIST[ZOBRIST_CASTLING + castling] ^ ZOBRIST[ZOBRIST_CASTLING + new]
        self.mg = mg
        self.eg = eg
        self._shift(KING | us << 3, ksq, kto)
        self._shift(ROOK | us << 3, rsq, self._rook_to(ksq, rsq))
        self.kings[us] = kto
        self.castling = new
        self.special = True
        self.ep = -1
        self.halfmove += 1
        self.turn = us ^ 1
        self.ply += 1
        self.keys[self.ply] = self.hash

    def _shift(self, piece, a, b):
        """The score and hash of ``piece`` moved from ``a`` to ``b`` (0x88)."""
        a = (a + (a & 7)) >> 1
        b = (b + (b & 7)) >> 1
        i = piece << 6
        self.mg += MIDDLE[i | b] - MIDDLE[i | a]
        self.eg += END[i | b] - END[i | a]
        z = (piece - 1 - ((piece >> 3) << 1)) << 6
        self.hash ^= ZOBRIST[z | a] ^ ZOBRIST[z | b]

    def make_null(self):
        """Pass the move (null-move pruning): side, en passant and hash change, nothing moves."""
        ply = self.ply
        self.u_move[ply] = 0
        self.u_state[ply] = self.castling | (self.ep + 1) << 4 | self.halfmove << 12
        h = self.hash
        self.u_hash[ply] = h
        h ^= ZOBRIST_SIDE
        if self.ep >= 0:
            h ^= ZOBRIST[ZOBRIST_EP + (self.ep & 7)]
        self.ep = -1
        self.halfmove = 0     # no repetition reaches back across a pass
        self.turn ^= 1
        self.hash = h
        ply += 1
        self.ply = ply
        self.keys[ply] = h

    def unmake_null(self):
        ply = self.ply - 1
        self.ply = ply
        self.turn ^= 1
        state = self.u_state[ply]
        self.ep = ((state >> 4) & 255) - 1
        self.halfmove = state >> 12
        self.hash = self.u_hash[ply]

    def has_pieces(self):
        """Has the side to move two pieces besides king and pawns? With fewer, zugzwang is
        common enough that passing (null-move pruning) is no safe guess."""
        board = self.board
        c = self.turn << 3
        n = 0
        for sq in _SQUARES:
            p = board[sq]
            if p and p & 8 == c:
                t = p & 7
                if t != PAWN and t != KING:
                    n += 1
                    if n == 2:
                        return True
        return False

    def unmake(self):
        ply = self.ply - 1
        self.ply = ply
        board = self.board
        move = self.u_move[ply]
        us = self.turn ^ 1
        self.turn = us
        fr = move & 127
        to = (move >> 7) & 127
        state = self.u_state[ply]
        self.castling = state & 15
        ep = ((state >> 4) & 255) - 1
        self.ep = ep
        self.halfmove = state >> 12
        self.hash = self.u_hash[ply]
        self.mg = self.u_mg[ply]
        self.eg = self.u_eg[ply]
        self.phase = self.u_phase[ply]
        piece = board[to]
        if move >> 14 & 7:
            if move >> 14 & 7 == KING:          # a Chess960 castling
                self._unmove_castle(board, fr, to, us)
                self.kings[us] = fr
                return
            piece = PAWN | us << 3
        board[fr] = piece
        board[to] = self.u_cap[ply]
        t = piece & 7
        if t == PAWN:
            if to == ep:
                board[to - 16 if us == WHITE else to + 16] = PAWN | (us ^ 1) << 3
        elif t == KING:
            self.kings[us] = fr
            if to - fr == 2 or fr - to == 2:
                if to > fr:
                    board[fr + 1] = 0
                    board[fr + 3] = ROOK | us << 3
                else:
                    board[fr - 1] = 0
                    board[fr - 4] = ROOK | us << 3

    def is_repetition(self, history):
        """Has the current position stood before, on this line or in the game (``history``: its keys)?"""
        ply = self.ply
        h = self.hash
        keys = self.keys
        d = 2
        n = len(history)
        half = self.halfmove
        while d <= half:
            if d <= ply:
                if keys[ply - d] == h:
                    return True
            else:
                i = n - 1 - (d - ply)
                if i < 0:
                    return False
                if history[i] == h:
                    return True
            d += 2
        return False
