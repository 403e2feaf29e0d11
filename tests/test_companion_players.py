"""The Players panel's tags given to the board (host_tools/companion/players.py), on the simulated
board (the real firmware) in step mode: what the board's own PGN says after each change."""

import json
import time

import pytest

from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.companion.players import Players, parse_headers, time_control

ANNA = {"white": "Anna Rossi", "black": "Bruno", "site": "Casa", "rated": False}


def step(board, ms=300):
    board.act("clock", {"advance": ms})


def headers(board):
    return parse_headers(board.state()["pgn"])


def sent_tags(board):
    """The tag commands the companion has sent so far of its own (ids "c1", "c2"...: model._OWN),
    not those a person typed in the log box."""
    tags = []
    for line in board.sim.hw.sent_log:
        try:
            cmd = json.loads(line)
        except ValueError:
            continue                                  # a plain-words line: never the companion's
        if isinstance(cmd, dict) and cmd.get("cmd") == "tag" and str(cmd.get("id", "")).startswith("c"):
            tags.append(cmd)
    return tags


@pytest.fixture
def board(monkeypatch):
    b = SimulatedBoard(speed=0)
    b.sim.hw.sent_log = []
    write = b.sim.hw.send
    monkeypatch.setattr(b.sim.hw, "send", lambda line: (b.sim.hw.sent_log.append(line), write(line)))
    step(b)
    return b


def test_the_time_control_as_the_page_said_it():
    assert time_control({"clock": "5+3"}) == "300+3"
    assert time_control({"clock": "off", "move_time_ms": 30000}) == "1/30"
    assert time_control({"clock": "off", "move_time_ms": 0}) == "-"


def test_headers_are_read_unescaped():
    assert parse_headers('[Site "Casa \\"al mare\\" \\\\ 2"]\n[Round "3"]\n\n1. e4 *\n') == \
        {"Site": 'Casa "al mare" \\ 2', "Round": "3"}


def test_the_board_gets_the_names_and_keeps_them_for_each_new_game(board):
    # Before any page gives names, the companion dates the board's game (the board has no calendar).
    assert headers(board)["White"] == "?" and headers(board)["Date"] == time.strftime("%Y.%m.%d")
    board.act("players", dict(ANNA))
    step(board)
    h = headers(board)
    assert (h["White"], h["Black"], h["Site"], h["TimeControl"], h["Event"]) == \
        ("Anna Rossi", "Bruno", "Casa", "-", "Scacchiera")
    assert h["Date"] == time.strftime("%Y.%m.%d")
    # A new game on the board (the protocol's new: it starts without tags) gets them again.
    board.act("send", {"line": "new"})
    step(board, 600)
    h = headers(board)
    assert (h["White"], h["Black"], h["Site"]) == ("Anna Rossi", "Bruno", "Casa")
    # A name cleared in the panel: the board's own "?" again.
    board.act("players", dict(ANNA, black=""))
    step(board)
    assert headers(board)["Black"] == "?" and headers(board)["White"] == "Anna Rossi"


def test_the_clock_option_becomes_the_time_control(board):
    board.act("players", dict(ANNA))
    board.act("option", {"name": "clock", "value": "10+5"})
    step(board)
    assert headers(board)["TimeControl"] == "600+5"


def test_no_tags_while_diagnostics_run(board):
    board.act("send", {"line": "diag"})
    step(board)
    assert board.state()["protocol"][-1].startswith("<") and board.model.status.get("diag")
    before = len(sent_tags(board))          # the new game's Date and TimeControl, adopted at the start
    board.act("players", dict(ANNA))
    step(board)
    assert sent_tags(board)[before:] == [] and headers(board)["White"] == "?"
    board.act("send", {"line": "diag off"})
    step(board, 500)
    assert headers(board)["White"] == "Anna Rossi"


class OnlineGame:
    """What boards.py asks of lichess.Lichess: whether a game is on (the network is not needed here)."""
    on = True

    def playing(self):
        return self.on

    def describe(self):
        return None

    def stop(self):
        pass


def test_no_tags_during_a_lichess_game_nor_over_its_own(board):
    board.lichess = OnlineGame()
    before = len(sent_tags(board))
    board.act("players", dict(ANNA))
    step(board)
    assert sent_tags(board)[before:] == []
    # Lichess's tags (lichess.py sends them), then its game ends: the Players panel leaves them alone.
    for name, value in (("Event", "Lichess blitz game"), ("White", "alice"), ("Site", "https://lichess.org/x")):
        board.act("send", {"line": json.dumps({"cmd": "tag", "name": name, "value": value})})
    board.lichess.on = False
    board.act("players", dict(ANNA, white="Anna"))
    step(board)
    assert sent_tags(board)[before:] == []
    assert headers(board)["White"] == "alice" and headers(board)["Site"] == "https://lichess.org/x"


def test_a_tag_the_board_refuses_is_not_sent_again_and_again(board):
    board.act("players", dict(ANNA))
    step(board)
    board.model.host_wants = lambda status, h: [{"cmd": "tag", "name": "Result", "value": "1-0"}]
    for _ in range(5):
        board.model.keep()
        step(board)
    assert len([t for t in sent_tags(board) if t["name"] == "Result"]) == 1
    assert board.model.status is not None             # the board still answers: no loop of refusals
    # A name changed and changed back is sent each time (only the same command twice is held back).
    board.model.host_wants = board._host_wants
    for white in ("Bea", "Anna Rossi"):
        board.act("players", dict(ANNA, white=white))
        step(board)
        assert headers(board)["White"] == white


def test_a_rated_game_turns_hints_off_then_back_on(board):
    assert board.state()["options"]["suggest"] is True
    board.act("players", dict(ANNA, rated=True))
    step(board)
    assert board.state()["options"]["suggest"] is False and headers(board)["Event"] == "Scacchiera rated"
    board.act("players", dict(ANNA))
    step(board)
    assert board.state()["options"]["suggest"] is True and headers(board)["Event"] == "Scacchiera"


@pytest.mark.parametrize("fields, error", [
    ({"white": 3}, "'white' must be text"),
    ({"black": "x" * 61}, "'black' is at most 60 characters"),
    ({"site": "a|b"}, "'site' cannot have a '|'"),
    ({"rated": "yes"}, "'rated' must be true or false"),
])
def test_the_panels_fields_are_checked(board, fields, error):
    before = board.players.given
    with pytest.raises(ActionError, match=error.replace("|", "\\|")):
        board.act("players", fields)
    assert board.players.given == before


def test_players_start_unknown():
    assert Players().commands({"options": {}}, {}) == []


def test_a_restarted_companion_takes_the_players_from_the_boards_game():
    """The board's game is the one source: a companion with no panel adopts its tags (not its "?")."""
    players = Players()
    players.adopt({"White": "Anna", "Black": "?", "Site": "Casa", "Event": "Scacchiera rated"})
    assert players.given == {"white": "Anna", "black": "", "site": "Casa", "rated": True}
    players.adopt({"White": "Bea"})                  # a panel it has is never replaced
    assert players.given["white"] == "Anna"


def test_a_lone_surrogate_in_a_name_is_refused_and_an_emoji_kept(board):
    """A name with a UTF-16 half alone (typed in the panel: "a\\ud800b") crashed the simulator's
    firmware (UnicodeEncodeError writing the journal) and the page answered 500 until restart. The
    board refuses that tag (bad_field); the game and the other names go on; an emoji is a name."""
    try:
        board.act("players", dict(ANNA, white="a\ud800b"))
    except ActionError:
        pass                               # the panel may refuse it itself: either way, not a crash
    step(board)
    board.act("players", dict(ANNA, white="King \U0001f451"))
    step(board)
    assert headers(board)["White"] == "King \U0001f451"
    assert board.sim.hw.resets == 0
    assert not [line for line in board.sim.protocol if '"ev": "crash"' in line]
    board.sim.lift("e2")
    step(board, 100)
    board.sim.place("e4")
    step(board, 600)
    assert board.state()["moves"] == ["e2e4"]
