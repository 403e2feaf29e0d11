"""Random games turned into what hands on a real board do, for the fuzz tests.

python-chess plays a random legal game (biased to captures, castling, en
passant and promotions); each move becomes lifts and places in a random
order a person might use, with slides over empty squares, 1-10 ms of contact
chatter on every reed, and random pauses, including replies that start
before the last move has settled.
"""

import random

import chess

from host_tools.hands import Hands

NAMES = chess.SQUARE_NAMES


class GameHands:
    """``quick``: a quick player's hands, the reply always 50-200 ms after the last piece landed
    (before the move settles: hardening issue 48, the journal saved nothing then). ``touch``: the
    pause after each lift and placement, (low, high) ms; (20, 30) are hands faster than the
    debounce (issue 48: a capture's victim off and the capturer down within 30 ms); ``tap``: the
    pause between a promotion's taps."""

    def __init__(self, rng, chatter=True, quick=False, touch=(60, 250), tap=(60, 200)):
        self.rng = rng
        self.hands = Hands(chatter=self._chatter if chatter else None)
        self.board = chess.Board()
        self.quick = quick
        self.touch = touch
        self.tap = tap
        self._owed = 0               # the pause after the last touch, waited before the next one

    def _chatter(self, square, level):
        """A reed closing or opening bounces for up to 10 ms."""
        rng = self.rng
        if rng.random() < 0.5:
            return []
        bounces = []
        t = 0
        for _ in range(rng.randint(1, 4)):
            t += rng.randint(1, 3)
            if t > 10:
                break
            bounces.append((t, 1 - level if len(bounces) % 2 == 0 else level))
        return bounces

    def pause(self):
        self._owed = self.rng.randint(*self.touch)

    def _wait(self, ms):
        """The pause owed, then ``ms``: the same waits, in the same order, as before pauses were owed."""
        if self._owed:
            self.hands.wait(self._owed)
            self._owed = 0
        self.hands.wait(ms)

    def _step(self, line):
        if self._owed:
            self.hands.wait(self._owed)
            self._owed = 0
        self.hands.step(line)

    def lift(self, sq):
        self._step("lift " + NAMES[sq])
        self.pause()

    def place(self, sq):
        self._step("place " + NAMES[sq])
        self.pause()

    def slide_over(self, move):
        """Brush some empty squares on the way, each for less than the settle time."""
        rng = self.rng
        path = chess.SquareSet(chess.between(move.from_square, move.to_square))
        empties = [sq for sq in path if not self.hands.present(sq)]
        if empties and rng.random() < 0.4:
            for sq in empties[: rng.randint(1, len(empties))]:
                self._step("place " + NAMES[sq])
                self._wait(rng.randint(40, 120))
                self._step("lift " + NAMES[sq])
                self._wait(rng.randint(40, 80))

    def play(self, move):
        b = self.board
        rng = self.rng
        fr, to = move.from_square, move.to_square
        if b.is_castling(move):
            rook_from = chess.H1 if to > fr else chess.A1
            if b.turn == chess.BLACK:
                rook_from += 56
            rook_to = (fr + to) // 2
            order = rng.choice(["king", "rook", "both", "rook-lands"])
            if order == "king":
                self.lift(fr); self.place(to); self.lift(rook_from); self.place(rook_to)
            elif order == "rook":
                self.lift(rook_from); self.place(rook_to)
                if rng.random() < 0.2:
                    self._wait(1500)  # the rook settles alone: the board must amend
                self.lift(fr); self.place(to)
            elif order == "both":
                self.lift(fr); self.lift(rook_from); self.place(to); self.place(rook_to)
            else:
                self.lift(fr); self.lift(rook_from); self.place(rook_to); self.place(to)
        elif b.is_en_passant(move):
            victim = to - 8 if b.turn == chess.WHITE else to + 8
            if rng.random() < 0.5:
                self.lift(victim); self.lift(fr); self.place(to)
            else:
                self.lift(fr); self.place(to); self.lift(victim)
        elif b.is_capture(move):
            if rng.random() < 0.5:
                self.lift(to); self.lift(fr)
            else:
                self.lift(fr); self.lift(to)
            self.place(to)
        else:
            self.lift(fr)
            self.slide_over(move)
            self.place(to)
        if move.promotion and move.promotion != chess.QUEEN:
            taps = {chess.KNIGHT: 1, chess.ROOK: 2, chess.BISHOP: 3}[move.promotion]
            for _ in range(taps):
                self._step("lift " + NAMES[to])
                self._wait(rng.randint(*self.tap))
                self._step("place " + NAMES[to])
                self._wait(rng.randint(*self.tap))
        b.push(move)
        # Sometimes the reply starts at once, before the move has settled.
        if self.quick:
            self._owed = 0           # the last piece landed: the reply starts 50-200 ms after it
            self._wait(rng.randint(50, 200))
        else:
            self._wait(rng.choice([0, 0, rng.randint(0, 150), rng.randint(300, 900)]))


def choose(rng, board):
    moves = list(board.legal_moves)
    weights = []
    for m in moves:
        w = 1.0
        if board.is_capture(m):
            w = 4.0
        if board.is_castling(m) or board.is_en_passant(m):
            w = 30.0
        if m.promotion:
            w = 8.0
        if board.piece_type_at(m.from_square) == chess.PAWN:
            w *= 2.0
        weights.append(w)
    return rng.choices(moves, weights)[0]


def play_random_game(seed, max_plies=60, chatter=True):
    """Play one game by hand; returns (GameHands, python-chess board)."""
    rng = random.Random(seed)
    gh = GameHands(rng, chatter)
    while not gh.board.is_game_over() and len(gh.board.move_stack) < max_plies:
        gh.play(choose(rng, gh.board))
    gh.hands.wait(2000)
    return gh
