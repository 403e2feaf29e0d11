"""Hands that play chess moves on a fake board while the real main loop runs.

``board`` is anything with ``place(square)`` and ``lift(square)`` (the fake
``machine`` module's ReedMatrix, or a FakeHardware); ``run(steps)`` runs the
firmware's loop for that many scans (for example
``lambda n: start.serve(runner, n)``). Time passes only inside ``run``, on
the simulated clock. Plain Python that also runs on MicroPython.
"""

from scacchiera.rules.squares import KING, QUEEN, from_square, to_square, promotion
from scacchiera.rules.occupancy import capture_square
from scacchiera.tracking.tracker import PROMOTION_CYCLE


class Player:
    def __init__(self, board, run, period_us, step_ms=80, settle_ms=450):
        self.board = board
        self.run = run
        self.period_us = period_us
        self.step_ms = step_ms
        self.settle_ms = settle_ms

    def wait(self, ms):
        self.run(max(1, ms * 1000 // self.period_us))

    def lift(self, square):
        self.board.lift(square)
        self.wait(self.step_ms)

    def place(self, square):
        self.board.place(square)
        self.wait(self.step_ms)

    def play(self, pos, move, settle=True):
        """The hands make ``move`` of ``pos`` (the game's position before it): mover first."""
        fr = from_square(move)
        to = to_square(move)
        piece = pos.piece_at(fr)
        promo = promotion(move)
        if promo == KING:            # Chess960: king takes rook; FIDE's order (king, rook, rook, king)
            from scacchiera.rules.chess960 import castle_targets
            kto, rto = castle_targets(fr, to)
            self.lift(fr)
            self.lift(to)
            self.place(rto)
            self.place(kto)
            promo = 0
        elif piece & 7 == KING and (to - fr == 2 or fr - to == 2):
            rook_from, rook_to = (fr + 3, fr + 1) if to > fr else (fr - 4, fr - 1)
            self.lift(fr)
            self.place(to)
            self.lift(rook_from)
            self.place(rook_to)
        else:
            victim = capture_square(pos, move)
            self.lift(fr)
            if victim >= 0:
                self.lift(victim)
            self.place(to)
            if promo and promo != QUEEN:
                for _ in range(PROMOTION_CYCLE.index(promo)):
                    self.lift(to)
                    self.place(to)
        if settle:
            self.wait(self.settle_ms if not promo else max(self.settle_ms, 1700))

    def play_uci(self, game, uci, settle=True):
        pos = game.position
        self.play(pos, pos.parse_uci(uci), settle)
