"""lichess_game.decide, the rule that keeps the board on the online game, as a table: an online game
(what Lichess's stream said) and the board's status, and the one step it takes. No threads, no network."""

import pytest

from host_tools.companion.lichess_game import OnlineGame, decide

TIMES = (299000, 300000, "w")


def online(moves="", color="white", status="started", phase="play", board_game=7, **fields):
    g = OnlineGame("abcd1234", color)
    g.full = {"id": "abcd1234"}
    g.moves = moves.split()
    g.status = status
    g.phase = phase
    g.board_game = board_game
    for name, value in fields.items():
        setattr(g, name, value)
    return g


def board(moves="", game=7, result="*", show=None, offer=None, clock=None, **fields):
    return dict(fields, game=game, moves=moves.split(), result=result, show=show, offer=offer, clock=clock)


MATE = "f2f3 e7e5 g2g4 d8h4"        # the fool's mate: Lichess ends it with its last move

CASES = [
    # (what it shows, the online game, the board, the step)
    ("a new game is set up first", online(phase="setup"), board(), ("setup",)),
    ("the board started another game", online("e2e4"), board("e2e4", game=8),
     ("resync", "the board started another game: it goes back to the online game")),
    ("Lichess's clocks onto the board's", online("e2e4 e7e5"), board("e2e4 e7e5", clock={"host": False}),
     ("clocks", TIMES)),
    ("the board's clocks are the host's already", online("e2e4 e7e5", clock_sent=(7, 0)),
     board("e2e4 e7e5", clock={"host": True}), None),
    ("the player's move, to Lichess", online(""), board("e2e4"), ("board_ahead", ["e2e4"], 0, True)),
    ("a move the online game does not have, with its own next", online("e2e4 e7e5"), board("e2e4 c7c5"),
     ("board_ahead", ["c7c5"], 1, False)),
    ("the opponent's move, lit", online("e2e4 e7e5"), board("e2e4"), ("show", "e7e5")),
    ("already lit: nothing", online("e2e4 e7e5"), board("e2e4", show="e7e5"), None),
    ("the board's game ended short of the online moves", online("e2e4 e7e5"), board("e2e4", result="1-0"),
     ("resync", "the board's game ended before the online game's moves were made")),
    ("a lit move the online game no longer needs", online("e2e4"), board("e2e4", show="e7e5"), ("unshow",)),
    ("the opponent offers a draw", online("e2e4 e7e5", offer="black"), board("e2e4 e7e5"), ("offer_to_board", 2)),
    ("its offer already told", online("e2e4 e7e5", offer="black", offer_told=2), board("e2e4 e7e5", offer="b"), None),
    ("the player offered on the board", online("e2e4 e7e5"), board("e2e4 e7e5", offer="w"), ("offer_online", 2)),
    ("the player's offer declined online", online("e2e4 e7e5", my_offer_sent=2, my_offer_seen=2),
     board("e2e4 e7e5", offer="w"), ("decline",)),
    ("Lichess ended the game (a resignation)", online("e2e4", status="resign", winner="white"), board("e2e4"),
     ("end_on_board",)),
    ("the board ended the game (a resignation on the board)", online("e2e4"),
     board("e2e4", result="0-1", termination="resignation"), ("end_online",)),
    ("both ended: recorded", online(MATE, status="mate", winner="black"), board(MATE, result="0-1"), ("finish",)),
    ("a mate Lichess ended with its last move: still lit for the hands",
     online(MATE, color="white", status="mate", winner="black"), board("f2f3 e7e5 g2g4"), ("show", "d8h4")),
    ("a base: the board's game began at ply 2 of the online one", online("e2e4 e7e5 g1f3", base=2),
     board(""), ("show", "g1f3")),
]


@pytest.mark.parametrize("words, game, status, step", CASES, ids=[c[0] for c in CASES])
def test_decide(words, game, status, step):
    assert decide(game, status, TIMES) == step


def test_no_clock_command_for_a_board_without_one():
    g = online("e2e4 e7e5")
    assert decide(g, board("e2e4 e7e5", clock={"host": False}), TIMES, knows_clock=False) is None
    assert decide(g, board("e2e4 e7e5", clock={"host": False}), None) is None      # Lichess gave no times
