"""Hands fuzz: random legal games played by simulated hands are reconstructed exactly."""

import collections

import pytest

from hands_fuzz import play_random_game

GAMES = 500
SEEN = collections.Counter()


def check(seed, max_plies):
    gh = play_random_game(seed, max_plies)
    game = gh.hands.app.game
    expected = [m.uci() for m in gh.board.move_stack]
    assert gh.hands.moves() == expected, "seed %d" % seed
    assert game.position.fen() == gh.board.fen(), "seed %d" % seed
    assert gh.hands.state() == "idle", "seed %d: %s" % (seed, gh.hands.state())
    return gh.board


@pytest.mark.parametrize("block", range(GAMES // 25))
def test_random_games_by_hand(block):
    for seed in range(block * 25, block * 25 + 25):
        check(seed, 60)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(40))
def test_long_random_games_by_hand(block):
    for seed in range(10000 + block * 25, 10000 + block * 25 + 25):
        check(seed, 400)
