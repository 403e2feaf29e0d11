"""The simulated hands' whole moves (host_tools/sim/device.py): a move made as a person's hands make
it, the squares a lifted piece may go to, a lit square filled with the piece it asks for, and the
moves the board lights for the other side (the page's taps and the computer's moves use them)."""

import pytest

from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.sim.device import SimError


@pytest.fixture
def board():
    b = SimulatedBoard(speed=0)
    b.advance(300)
    return b


def settle(board, ms=800):
    """Simulated time passes in steps, the board and the companion answering each other meanwhile."""
    for _ in range(ms // 50):
        board.advance(50)
    return board.state()


def test_whole_moves_capture_en_passant_castle_and_promote_as_hands_do(board):
    for uci in "e2e4 d7d5 e4d5 g8f6 g1f3 c7c5 d5c6 c8g4 f1e2 e7e6 e1g1 d8c7 c6b7 f8d6 b7a8".split():
        board.act("move", {"uci": uci})                 # b7a8: a pawn tapped onto the last rank, a queen
        board.advance(30)
    s = settle(board, 2000)                             # a promotion waits for taps choosing its piece
    assert s["san"][-9:] == ["dxc6", "Bg4", "Be2", "e6", "O-O", "Qc7", "cxb7", "Bd6", "bxa8=Q"], s["san"]
    assert s["in_sync"] and s["hand"] == "" and s["hand_from"] is None
    assert sorted(s["tray"]) == ["p", "p", "p", "r"]            # the pieces taken, each off the board
    assert "Q" not in s["spares"] and "P" in s["spares"]          # the new queen from the spares, the pawn to them
    assert s["pieces"][6] == "K" and s["pieces"][5] == "R" and s["pieces"][56] == "Q"
    with pytest.raises(ActionError, match="not a legal move here"):
        board.act("move", {"uci": "a8a1"})


def test_the_squares_a_lifted_piece_may_go_to_come_from_the_rules_and_only_in_step(board):
    board.act("lift", {"square": "g1"})
    assert board.state()["dests"] == ["f3", "h3"] and board.state()["hand_from"] == "g1"
    board.act("place", {"square": "g1"})
    board.act("lift", {"square": "e7"})                 # Black's piece on White's turn: no squares
    assert board.state()["dests"] == []
    board.act("place", {"square": "e5"})                # a piece where no move puts it
    settle(board)
    board.act("lift", {"square": "g1"})                 # the board is not in step: the lights lead
    assert board.state()["dests"] == []


def test_a_lit_square_is_filled_with_the_piece_it_asks_for(board):
    for uci in ("e2e4", "d7d5", "e4d5"):
        board.act("move", {"uci": uci})
        board.advance(30)
    settle(board)
    board.act("game", {"op": "undo"})
    s = settle(board, 300)
    assert s["leds"] == {"e4": "to-fill"}               # d5 stays occupied: the board senses presence
    board.act("fill", {"square": "e4"})                 # the white pawn from d5, where it no longer belongs
    assert settle(board, 300)["leds"] == {"d5": "to-fill"}
    board.act("fill", {"square": "d5"})                 # the black pawn from the tray
    s = settle(board)
    assert s["in_sync"] and s["moves"] == ["e2e4", "d7d5"] and s["tray"] == []
    with pytest.raises(ActionError, match="no piece for e5"):
        board.act("fill", {"square": "e5"})


def test_the_hands_make_the_computers_lit_move_and_never_the_persons():
    board = SimulatedBoard(speed=0, hands_play_computer=True)
    board.advance(300)
    board.act("option", {"name": "opponent", "value": "host"})
    board.act("option", {"name": "engine_side", "value": "b"})
    board.act("send", {"line": "show e2e4"})           # White's move shown: the person's, not made
    settle(board, 1000)
    assert board.sim.others_move() is None and board.state()["moves"] == []
    board.act("send", {"line": "unshow"})
    board.act("move", {"uci": "e2e4"})
    settle(board)
    board.act("send", {"line": "show c7c5"})           # the computer's (Black): made OTHERS_MS after it is lit
    s = settle(board, 1500)
    assert s["moves"] == ["e2e4", "c7c5"] and s["in_sync"]
    board.act("hands", {"computer": False})
    board.act("move", {"uci": "g1f3"})
    settle(board)
    board.act("send", {"line": "show b8c6"})
    assert settle(board, 1500)["moves"] == ["e2e4", "c7c5", "g1f3"]    # the person's hands make it now
    with pytest.raises(ActionError, match="true or false"):
        board.act("hands", {"computer": "yes"})


def test_a_move_the_rules_refuse_is_said(board):
    with pytest.raises(SimError):
        board.sim.play("e2e5")
