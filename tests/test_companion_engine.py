"""Playing the computer: the engine's replies go to the simulated board with `show`, the LEDs
light them, simulated hands make them, to the end of the game. Skipped without Stockfish."""

import chess
import pytest

from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.companion.engine import find_engine, python_chess_board
from companion_support import make, step_until

ENGINE = find_engine()
pytestmark = pytest.mark.skipif(ENGINE is None, reason="no Stockfish (apt-get install stockfish; .ci/run installs it): "
                                                       "the engine tests are skipped")


@pytest.fixture
def board():
    board = SimulatedBoard(fen="r3k3/8/8/8/8/8/3Q4/4K2R w K - 0 1")
    board.play_computer(ENGINE)
    board.computer.think = 0.05
    yield board
    board.computer.stop()


def test_the_engines_levels_are_its_own(board):
    levels = board.computer.levels()
    assert levels["elo"][0] < levels["elo"][1] and levels["skill"] == [0, 20]
    low, high = levels["elo"]
    board.act("computer", {"sides": ["black"], "elo": low})
    assert board.state()["computer"]["elo"] == low and board.state()["computer"]["sides"] == ["black"]
    with pytest.raises(ActionError, match="from %d to %d" % (low, high)):
        board.act("computer", {"elo": high + 1})
    with pytest.raises(ActionError, match="white"):
        board.act("computer", {"sides": ["red"]})


def test_an_engine_game_to_the_end(board):
    board.act("computer", {"sides": ["white", "black"]})
    board.computer.start()
    plies = 0
    s = board.state()
    while s["result"] == "*":
        assert plies < 150, "no end after 150 plies"
        s = step_until(board, lambda s: s["show"] is not None or s["result"] != "*", "the engine's move")
        if s["result"] != "*":
            break
        uci = s["show"]
        # The LEDs guide the hands: the move's squares are lit.
        assert s["leds"].get(uci[:2]) == "show-from" and s["leds"].get(uci[2:4]) == "show-to", (uci, s["leds"])
        make(board, s, uci)
        s = step_until(board, lambda s, n=len(s["moves"]): len(s["moves"]) == n + 1 and s["show"] is None,
                       "the board to take %s" % uci)
        assert s["moves"][-1] == uci
        plies += 1
    assert s["result"] in ("1-0", "0-1", "1/2-1/2") and s["termination"]
    assert any(line.startswith("> ") and '"cmd":"show"' in line for line in s["protocol"])


def test_a_hint_lights_the_engines_best_move(board):
    step_until(board, lambda s: s["ready"], "the board's state")
    board.act("hint", {})
    s = step_until(board, lambda s: s["show"] is not None, "the hint")
    assert chess.Move.from_uci(s["show"]) in python_chess_board(s["fen"], []).legal_moves
    assert s["leds"][s["show"][:2]] == "show-from" and s["leds"][s["show"][2:4]] == "show-to"
