"""The page's new game dialog on the server's side (boards.start_game, the action ``start``): checked whole
before anything is sent, then the opponent, the colour (by lot too), the clock and the game, on the
simulated board (its firmware answers)."""

import pytest

from host_tools.companion.boards import ActionError, SimulatedBoard


@pytest.fixture
def board():
    b = SimulatedBoard(speed=0)
    b.start()
    b.advance(500)
    yield b
    b.stop()


def options(board):
    board.advance(200)
    return board.state()["options"]


@pytest.mark.parametrize("fields, error", [
    ({"opponent": "stockfish"}, "'opponent' is one of"),
    ({"colour": "green"}, "'colour' is white, black or lot"),
    ({"clock": 5}, "'clock' is off or minutes"),
    ({"rated": "yes"}, "'rated' must be true or false"),
    ({"opponent": "engine 3", "variant": "sprint"}, "the engines play chess only"),
    ({"opponent": "computer"}, "no engine started on this computer"),
    ({"level": {"depth": 3}}, "'level' is"),
    ({"fen": 7}, "'fen' must be a non-empty string"),
    ({"variant": "shogi"}, "'variant' must be 'chess' or 'sprint' or 'chess960'"),
    ({"profile": "blitz"}, "'profile' must be 'fide' or 'casual'"),
    ({"variant": "chess960", "position": 960}, "'position' is a Chess960 start position, 0 to 959"),
    ({"variant": "chess960", "position": "5"}, "'position' is a Chess960 start position"),
])
def test_a_start_that_cannot_be_is_refused_before_a_line_is_sent(board, fields, error):
    sent = len(board.state()["protocol"])
    with pytest.raises(ActionError, match=error):
        board.act("start", fields)
    assert len(board.state()["protocol"]) == sent


def test_the_boards_engine_takes_the_other_side_with_the_clock(board):
    board.act("start", {"opponent": "engine 2", "colour": "black", "clock": "5+3"})
    o = options(board)
    assert (o["opponent"], o["engine_side"], o["clock"]) == ("engine 2", "w", "5+3")
    assert board.state()["started"] == {"opponent": "engine 2", "colour": "black", "by_lot": False}
    board.act("start", {"opponent": "person", "clock": "off"})
    o = options(board)
    assert (o["opponent"], o["clock"]) == ("person", "off")


def test_colours_by_lot_between_two_people_swap_the_names_when_black_is_drawn(board):
    board.act("players", {"white": "Anna", "black": "Bruno", "site": "", "rated": False})
    drawn = set()
    for _ in range(40):
        before = dict(board.players.given)
        board.act("start", {"opponent": "person", "colour": "lot"})
        started = board.state()["started"]
        assert started["by_lot"] and started["colour"] in ("white", "black")
        drawn.add(started["colour"])
        given = board.players.given
        # White's player drew black: the two names change sides; else they stay.
        swapped = (given["white"], given["black"]) == (before["black"], before["white"])
        assert swapped == (started["colour"] == "black") and {given["white"], given["black"]} == {"Anna", "Bruno"}
    assert drawn == {"white", "black"}, "40 draws by lot, one colour only"


def test_a_sprint_game_with_its_seed_and_rated(board):
    board.act("start", {"opponent": "person", "variant": "sprint", "seed": 9, "rated": True})
    board.advance(300)
    s = board.state()
    assert s["variant"] == "sprint" and s["sprint"]["seed"] == 9
    assert board.players.given["rated"] is True


def test_a_chess960_game_against_the_boards_engine_from_a_chosen_or_a_drawn_position(board):
    board.act("start", {"opponent": "engine 2", "colour": "white", "variant": "chess960", "position": 100})
    board.advance(300)
    s = board.state()
    assert s["variant"] == "chess960" and s["fen"].startswith("qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w")
    assert s["pieces"][:8] == list("QBBNRNKR"), "the simulated hands set the 960 back rank up"
    assert (options(board)["opponent"], options(board)["engine_side"]) == ("engine 2", "b")
    drawn = set()
    for _ in range(6):
        board.act("start", {"opponent": "person", "variant": "chess960"})
        board.advance(200)
        drawn.add(board.state()["fen"].split("/")[0])
    assert len(drawn) >= 3, "six Chess960 games drawn at random from 960 start positions: %s" % drawn
