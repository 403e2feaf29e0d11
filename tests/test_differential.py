"""Our rules against python-chess, ply by ply, over hundreds of seeded random games.

At every ply: the legal move set, the SAN of every legal move, the FEN and
the outcome must equal python-chess's; the draw claims are compared too.
"""

import collections
import random

import chess
import pytest

from chess_oracle import STYLES, legal_uci, outcome_of, random_game

GAMES = 320
QUICK_GAMES = 80       # in make test; the other 240 in make test-long (a whole run checks all 320)
# Counted across the run, so the test can insist that every ending occurred.
TERMINATIONS = collections.Counter()


def check_game(seed, style, claims_every=1):
    rng = random.Random(seed)
    board = position = None
    for board, position in random_game(rng, style):
        ply = len(board.move_stack)
        where = "seed %d (%s), ply %d, %s" % (seed, style, ply, board.fen())
        assert position.fen() == board.fen(), where
        ours = legal_uci(position)
        assert ours == sorted(m.uci() for m in board.legal_moves), where
        for move in position.legal_moves():
            assert position.san(move) == board.san(chess.Move.from_uci(position.uci(move))), where
        assert position.outcome() == outcome_of(board), where
        assert position.is_check() == board.is_check(), where
        if ply % claims_every == 0:
            assert position.can_claim_fifty_moves() == board.can_claim_fifty_moves(), where
            assert position.can_claim_threefold_repetition() == board.can_claim_threefold_repetition(), where
    outcome = position.outcome()
    TERMINATIONS[outcome[1] if outcome else "unfinished"] += 1
    return outcome


@pytest.mark.parametrize("seed", [s if s < QUICK_GAMES else pytest.param(s, marks=pytest.mark.slow)
                                  for s in range(GAMES)])
def test_random_game_matches_python_chess(seed):
    check_game(seed, STYLES[seed % len(STYLES)], claims_every=3)


def test_every_automatic_ending_occurs():
    """The seeded games reach each ending at least once (else the bias above is broken)."""
    seen = collections.Counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        board = None
        for board, _ in random_game(rng, STYLES[seed % len(STYLES)]):
            pass
        o = board.outcome()
        seen[o.termination.name.lower() if o else "unfinished"] += 1
    for termination in ("checkmate", "stalemate", "insufficient_material",
                        "seventyfive_moves", "fivefold_repetition"):
        assert seen[termination] > 0, dict(seen)
