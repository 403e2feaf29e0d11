"""Chaos fuzz: random lifts and places, thousands of steps.

Never an exception, never an illegal move committed (the game replays
move by move in python-chess), and whatever the hands did, putting the
pieces where the LEDs ask brings the board back in step with the game.
"""

import random

import chess
import pytest

from host_tools.hands import Hands


def replay_is_legal(hands):
    board = chess.Board()
    for uci in hands.moves():
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, "illegal move %s in %s" % (uci, board.fen())
        board.push(move)
    assert board.fen() == hands.app.game.position.fen()


def restore(hands):
    """Do what the LEDs ask until the board matches the game."""
    tracker = hands.app.game.tracker
    for sq in range(64):
        want = tracker.logical[sq]
        if hands.present(sq) != want:
            hands.touch(sq, want)
    hands.wait(2000)


def chaos(seed, steps):
    rng = random.Random(seed)
    hands = Hands()
    for step in range(steps):
        if not hands.app.game.tracker.diff and hands.app.game.result is None and rng.random() < 0.3:
            # A legal move now and then, so the chaos happens in a game that goes on.
            board = chess.Board(hands.app.game.position.fen())
            move = rng.choice(list(board.legal_moves))
            if board.is_capture(move) and not board.is_en_passant(move):
                hands.touch(move.to_square, 0)
                hands.wait(rng.choice([40, 100]))
            hands.touch(move.from_square, 0)
            hands.wait(rng.choice([40, 100, 200]))
            hands.touch(move.to_square, 1)
            hands.wait(rng.choice([5, 40, 100, 400]))
            continue
        sq = rng.randrange(64)
        if rng.random() < 0.7:
            # mostly plausible: touch a square near the action
            occupied = [s for s in range(64) if hands.present(s)]
            empty = [s for s in range(64) if not hands.present(s)]
            sq = rng.choice(occupied if rng.random() < 0.5 and occupied else empty or occupied)
        hands.touch(sq, 1 - hands.present(sq))
        hands.wait(rng.choice([1, 5, 20, 40, 80, 150, 300, 700]))
        if rng.random() < 0.04:
            restore(hands)
            assert hands.app.game.tracker.diff == [], "seed %d step %d" % (seed, step)
        if step % 50 == 0:
            replay_is_legal(hands)
    replay_is_legal(hands)
    restore(hands)
    assert hands.app.game.tracker.diff == []
    assert hands.state() == "idle"
    return hands


@pytest.mark.parametrize("seed", range(8))
def test_chaos(seed):
    hands = chaos(seed, 1500)
    # The chaos must not have frozen the game: moves went on being recognised.
    assert len(hands.moves()) >= 5 or hands.app.game.result is not None


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 140))
def test_chaos_long(seed):
    chaos(seed, 10000)
