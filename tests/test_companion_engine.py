"""Playing the computer: the engine's replies go to the simulated board with `show`, the LEDs
light them, simulated hands make them, to the end of the game; hints on request (the page's button,
the board's gesture). With Stockfish (skipped without it) and with the project's own engine
(python -m host_tools.uci), always there."""

import time

import chess
import pytest

from companion_support import ScriptedBoard, make, status_reply, step_until
from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.companion.engine import LEVEL_ELO, OWN, OWN_COMMAND, engines, find_engine, python_chess_board

STOCKFISH = find_engine()
NO_STOCKFISH = pytest.mark.skipif(STOCKFISH is None, reason="no Stockfish (apt-get install stockfish; .ci/run "
                                                            "installs it): its tests are skipped")
ENGINES = [pytest.param(STOCKFISH, id="stockfish", marks=NO_STOCKFISH), pytest.param(OWN_COMMAND, id="scacchiera")]


@pytest.fixture(params=ENGINES)
def board(request):
    board = SimulatedBoard(fen="r3k3/8/8/8/8/8/3Q4/4K2R w K - 0 1")
    board.play_computer([("engine", request.param)])
    board.computer.think = 0.05
    yield board
    board.computer.stop()


@NO_STOCKFISH
def test_the_engines_levels_are_its_own():
    board = SimulatedBoard()
    board.play_computer(engines())
    levels = board.computer.levels()
    assert levels["elo"][0] < levels["elo"][1] and levels["skill"] == [0, 20]
    low, high = levels["elo"]
    board.act("computer", {"sides": ["black"], "elo": low})
    assert board.state()["computer"]["elo"] == low and board.state()["computer"]["sides"] == ["black"]
    with pytest.raises(ActionError, match="from %d to %d" % (low, high)):
        board.act("computer", {"elo": high + 1})
    with pytest.raises(ActionError, match="white"):
        board.act("computer", {"sides": ["red"]})
    # The project's own engine is offered beside it, with its own levels (1..7).
    assert board.state()["computer"]["engines"] == ["stockfish", OWN]
    board.act("computer", {"engine": OWN, "sides": ["white"], "level": 2})
    c = board.state()["computer"]
    assert c["name"] == "Scacchiera" and c["levels"] == {"elo": None, "skill": None, "level": [1, 7],
                                                         "level_elo": LEVEL_ELO}     # each level's Elo, measured
    assert c["level"] == 2 and c["elo"] is None and c["sides"] == ["white"]
    with pytest.raises(ActionError, match="no elo setting"):
        board.act("computer", {"elo": 1500})
    board.computer.stop()


def test_without_stockfish_the_projects_engine_is_offered(monkeypatch):
    monkeypatch.setattr("host_tools.companion.engine.find_engine", lambda path=None: None)
    assert engines() == [(OWN, OWN_COMMAND)]


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
    shows = [line for line in s["protocol"] if '"cmd":"show"' in line]
    assert shows and all(line.startswith("computer> ") for line in shows)     # the computer's, not the person's


def test_a_hint_lights_the_engines_best_move(board):
    # The firmware knows `suggest`: the hint is lit as a suggestion, not enforced (no `show`).
    step_until(board, lambda s: s["ready"], "the board's state")
    board.act("hint", {})
    s = step_until(board, lambda s: s["suggestion"] and s["leds"].get(s["suggestion"][:2]) == "suggest-from",
                   "the hint")
    assert chess.Move.from_uci(s["suggestion"]) in python_chess_board(s["fen"], []).legal_moves
    assert s["leds"][s["suggestion"][2:4]] == "suggest-to" and s["show"] is None
    assert any(line.startswith("computer> ") and '"cmd":"suggest"' in line for line in s["protocol"])


# -- hints on a board that knows `suggest` (docs/protocol.md), played by the test -------------------

@pytest.fixture
def scripted():
    board = ScriptedBoard(commands=("hello", "status", "show", "set", "suggest"))
    board.play_computer([(OWN, OWN_COMMAND)])
    board.computer.think = 0.05
    board.answer()
    yield board
    board.computer.stop()


def commands_sent(board, cmd):
    return [r for r in board.sent if isinstance(r, dict) and r.get("cmd") == cmd]


def computer_done(board, timeout=10):
    """Wait until the computer's thread has acted on everything the board's model holds now: a
    check that it did nothing is then a real one."""
    computer = board.computer
    version = board.model.version
    with computer.went_round:
        assert computer.went_round.wait_for(lambda: computer.handled >= version, timeout), \
            "the computer's thread did not go on"


def test_a_hint_goes_with_suggest_when_the_board_knows_it(scripted):
    scripted.act("hint", {})
    (sent,) = commands_sent(scripted, "suggest")
    assert chess.Move.from_uci(sent["uci"]) in chess.Board().legal_moves
    scripted.feed({"re": "suggest", "ok": True, "id": sent["id"]})
    assert not commands_sent(scripted, "show")           # a suggestion, not an enforced move
    assert scripted.state()["suggestion"] == sent["uci"]


def test_a_board_that_refuses_suggest_gets_show(scripted):
    scripted.act("hint", {})
    (sent,) = commands_sent(scripted, "suggest")
    scripted.feed({"re": None, "ok": False, "error": "unknown_command", "message": "unknown command", "id": sent["id"]})
    assert [r["uci"] for r in commands_sent(scripted, "show")] == [sent["uci"]]


def test_the_boards_gesture_gets_the_engines_move_when_it_is_the_opponent(scripted):
    scripted.computer.start()
    scripted.feed({"ev": "suggest"})                    # nobody plays the computer: not answered
    computer_done(scripted)
    assert not commands_sent(scripted, "suggest")
    scripted.act("computer", {"sides": ["black"]})
    computer_done(scripted)                             # it woke for its new side
    assert not commands_sent(scripted, "suggest")       # nor later, when the computer plays
    scripted.feed({"ev": "suggest", "uci": None})       # the gesture, asking the host
    deadline = time.monotonic() + 10
    while not commands_sent(scripted, "suggest"):
        assert time.monotonic() < deadline, "the gesture got no answer: %s" % scripted.sent[-3:]
        time.sleep(0.02)
    (sent,) = commands_sent(scripted, "suggest")
    assert chess.Move.from_uci(sent["uci"]) in chess.Board().legal_moves


def test_no_hints_in_rated_or_online_games(scripted):
    scripted.feed({"ev": "move", "uci": "e2e4"})          # the board asks for its status again
    scripted.answer(status_reply(options={"profile": "fide", "suggest": False}))
    with pytest.raises(ActionError, match="rated or online"):
        scripted.act("hint", {})
    scripted.computer.start()
    scripted.act("computer", {"sides": ["black"]})
    scripted.feed({"ev": "suggest"})
    computer_done(scripted)
    assert not commands_sent(scripted, "suggest") and not commands_sent(scripted, "show")
    assert "rated or online" in scripted.state()["computer"]["hint"]


def test_the_engine_thinks_within_its_clock():
    from host_tools.companion.engine import think_seconds
    assert think_seconds(0.3, None, True) == 0.3                       # no clock: its own time
    clock = {"control": "5+0", "white": 300000, "black": 3000, "running": "w"}
    assert think_seconds(0.3, clock, True) == 0.3                      # 5 minutes left: plenty
    assert think_seconds(0.3, clock, False) == pytest.approx(0.1)      # 3 s left: a 30th
    assert think_seconds(0.3, dict(clock, black=0), False) == 0.02     # a flag about to fall: at once
    assert think_seconds(0.3, dict(clock, control="1+2", black=3000), False) == 0.3   # the increment pays


def test_a_board_with_an_opponent_option_is_told_the_host_plays(scripted):
    """docs/protocol.md: `set opponent host` (+ engine_side) when the companion's engine plays; the
    board's own engine playing (opponent "engine N") keeps the host's quiet."""
    scripted.model.hello["option_specs"] = {"opponent": {"type": "choice"}, "engine_side": {"type": "choice"}}
    scripted.act("computer", {"sides": ["black"]})
    assert [(r["name"], r["value"]) for r in commands_sent(scripted, "set")] == [("opponent", "host"), ("engine_side", "b")]
    scripted.feed({"ev": "move", "uci": "e2e4"})
    scripted.answer(status_reply(["e2e4"], options={"profile": "fide", "opponent": "engine 3"}))
    scripted.computer.start()
    computer_done(scripted)
    assert not commands_sent(scripted, "show")
    assert "the board's own engine plays" in scripted.state()["computer"]["message"]
    scripted.feed({"ev": "move", "uci": "e7e5"})
    scripted.answer(status_reply(["e2e4", "e7e5"], options={"profile": "fide", "opponent": "host"}))
    scripted.act("computer", {"sides": []})
    assert commands_sent(scripted, "set")[-1]["value"] == "person"


def test_a_takeback_against_the_computer_and_it_plays_on(board):
    """The player takes back (the page's undo: the protocol's undo): both plies go, the player moves
    again, and the computer answers (it once saw the position it had answered and never moved)."""
    board.act("computer", {"sides": ["black"]})
    board.computer.start()
    s = step_until(board, lambda s: s["ready"], "the board")
    make(board, s, "d2d4")
    s = step_until(board, lambda s: s["show"] is not None, "the computer's reply")
    reply = s["show"]
    make(board, s, reply)
    step_until(board, lambda s: len(s["moves"]) == 2, "the reply on the board")
    board.act("send", {"line": "undo"})
    s = step_until(board, lambda s: s["moves"] == [] and s["turn"] == "white", "both plies taken back")
    for frm, to in ((reply[2:4], reply[:2]), ("d4", "d2")):           # the hands put the pieces back
        board.act("lift", {"square": frm})
        board.advance(60)
        board.act("place", {"square": to})
        board.advance(600)
    s = step_until(board, lambda s: s["in_sync"] and s["moves"] == [], "the pieces back")
    make(board, s, "d2d4")
    s = step_until(board, lambda s: s["show"] is not None, "the computer's reply after the takeback")
    assert s["moves"] == ["d2d4"]


# -- draw offers against the computer (issue 48) ------------------------------------------------

def _refused(board, op):
    """The page's ``op`` (Accept: draw, Decline: decline) for the person; the state once the board
    has refused it."""
    board.act("game", {"op": op})
    return step_until(board, lambda s: any('"re": "%s"' % op in line and '"refused"' in line for line in s["protocol"]),
                      "the board's refusal of %s" % op)


def test_the_person_cannot_take_their_own_offer_and_the_computer_a_queen_down_takes_it(board):
    """The fixture's position: White (the person) a queen up. The person offers from the page; their
    own Accept and Decline are refused by the board; the computer (Black) answers: it accepts."""
    step_until(board, lambda s: s["ready"] and s["in_sync"], "the board")
    board.act("computer", {"sides": ["black"]})       # the board told: set opponent host, engine_side b
    s = step_until(board, lambda s: s["options"]["opponent"] == "host", "the board told who plays")
    make(board, s, "d2d3")
    step_until(board, lambda s: s["moves"] == ["d2d3"], "the person's move")
    board.act("game", {"op": "offer", "side": "w"})
    step_until(board, lambda s: s["offer"] == "w", "the offer")
    for op in ("draw", "decline"):
        s = _refused(board, op)
        assert s["result"] == "*" and s["offer"] == "w"
    board.computer.start()
    s = step_until(board, lambda s: s["result"] != "*", "the computer's answer")
    assert (s["result"], s["termination"]) == ("1/2-1/2", "agreement")
    assert any('"cmd":"draw","side":"b"' in line for line in s["protocol"])


def test_the_computer_a_queen_up_declines_the_offer_and_plays_on(board):
    board.act("computer", {"sides": ["white"]})
    board.computer.start()
    s = step_until(board, lambda s: s["show"] is not None, "the computer's move")
    make(board, s, s["show"])
    s = step_until(board, lambda s: len(s["moves"]) == 1 and s["show"] is None and s["in_sync"], "its move made")
    reply = next(m.uci() for m in python_chess_board(s["fen"], []).legal_moves if m.uci().startswith("e8"))
    make(board, s, reply)                               # the person (Black) moves and offers a draw
    step_until(board, lambda s: len(s["moves"]) == 2, "the person's move")
    board.act("game", {"op": "offer", "side": "b"})
    s = step_until(board, lambda s: any('"ev": "offer_declined"' in line for line in s["protocol"]), "the answer")
    assert s["result"] == "*" and any('"cmd":"decline","side":"w"' in line for line in s["protocol"])
    s = step_until(board, lambda s: s["show"] is not None, "the computer's next move")
    assert s["offer"] is None and s["result"] == "*"
