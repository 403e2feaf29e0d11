"""The companion's model of a board, fed protocol lines by hand: what it asks, what it shows."""

import json
import threading

import pytest

from host_tools.companion import model as model_module
from host_tools.companion.model import BoardModel, check_line

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.fixture
def link():
    sent = []
    return BoardModel(lambda line: sent.append(json.loads(line) if line.startswith("{") else line)), sent


def answer(model, request, **fields):
    fields.update(re=request["cmd"], ok=True, id=request["id"])
    model.feed(json.dumps(fields))


def status(moves=(), game=1, turn="w"):
    return dict(fen=START, moves=list(moves), turn=turn, state="idle", result="*", termination=None,
                in_sync=True, show=None, options={"profile": "fide", "hints": True}, game=game)


def test_the_handshake_and_the_first_state(link):
    model, sent = link
    model.connected()
    assert [r["cmd"] for r in sent] == ["hello", "watch", "leds", "occupancy", "status"]
    assert sent[1]["leds"] is True and sent[1]["occupancy"] is True
    for r in sent[:4]:
        answer(model, r, frame={"e2": "last-move"}, squares=["e1"])
    assert not model.state()["ready"]
    answer(model, sent[4], **status(["e2e4"], turn="b"))
    pgn_request = sent[-1]
    assert pgn_request["cmd"] == "pgn"
    answer(model, pgn_request, pgn='[Event "Scacchiera"]\n\n1. e4 *\n')
    s = model.state()
    assert s["ready"] and s["san"] == ["e4"] and s["turn"] == "black" and s["leds"] == {"e2": "last-move"}
    assert s["protocol"] == []                    # its own requests and their replies stay out of the log
    assert s["pieces"][4] == "K" and s["pieces"][12] == ""     # only e1 is occupied: the rest shows empty


def test_a_game_ending_without_a_move_gets_its_pgn_again(link):
    """Resigned, drawn by agreement, a flag: the moves stay, the result changes, and so does the PGN."""
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r, frame={}, squares=[])
    answer(model, sent[4], **status(["e2e4"], turn="b"))
    answer(model, sent[-1], pgn='[Result "*"]\n\n1. e4 *\n')
    model.feed('{"ev": "game_over", "result": "1-0", "termination": "resignation"}')
    answer(model, sent[-1], **dict(status(["e2e4"], turn="b"), result="1-0", termination="resignation"))
    assert sent[-1]["cmd"] == "pgn", "the finished game's PGN is asked for"
    answer(model, sent[-1], pgn='[Result "1-0"]\n\n1. e4 1-0\n')
    assert '[Result "1-0"]' in model.state()["pgn"]


def test_an_option_set_on_the_board_reaches_the_pages_controls(link):
    """A clock set from the board's display menu: the page's Options field follows (it stayed "off")."""
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r, frame={}, squares=[])
    answer(model, sent[4], **status())
    answer(model, sent[-1], pgn='[Result "*"]\n\n*\n')
    model.feed('{"ev": "option", "name": "clock", "value": "1+0"}')
    assert sent[-1]["cmd"] == "status", "the board's state is asked again"
    answer(model, sent[-1], **dict(status(), options={"profile": "fide", "hints": True, "clock": "1+0"}))
    assert model.state()["options"]["clock"] == "1+0"


def test_events_ask_for_the_state_once_at_a_time(link):
    model, sent = link
    model.feed('{"ev": "move", "uci": "e2e4"}')
    model.feed('{"ev": "check", "square": "e8"}')
    assert [r["cmd"] for r in sent] == ["status"]          # the second waits for the first answer
    answer(model, sent[0], **status(["e2e4"]))
    assert [r["cmd"] for r in sent[1:]] == ["pgn", "status"]
    assert [line[:8] for line in model.state()["protocol"]] == ['< {"ev":', '< {"ev":']


def test_a_reply_the_board_dropped_does_not_block_for_ever(link, monkeypatch):
    model, sent = link
    model.feed('{"ev": "move", "uci": "e2e4"}')
    assert [r["cmd"] for r in sent] == ["status"]
    monkeypatch.setattr(model_module, "REPLY_SECONDS", -1)     # the reply is taken as lost
    assert not model.busy()
    model.feed('{"ev": "move", "uci": "e7e5"}')
    assert [r["cmd"] for r in sent] == ["status", "status"]


def test_a_boot_starts_over(link):
    model, sent = link
    model.feed('{"ev": "boot", "proto": 1, "firmware": "scacchiera 0.1.0", "cause": "power_on"}')
    assert [r["cmd"] for r in sent] == ["hello", "watch", "leds", "occupancy", "status"]


def test_lines_that_are_not_json_are_shown_as_they_came(link):
    model, _ = link
    model.feed("Traceback (most recent call last):")
    assert model.state()["protocol"] == ["< Traceback (most recent call last):"]


@pytest.mark.parametrize("line, error", [
    ("", "blank"), ("   ", "blank"), ("x" * 513, "at most 512 bytes; this one has 513"),
    ("status\nresign", "line break"), (5, "must be text"),
    ("ok\x15resign", "control character \\(U\\+0015\\)"), ("\x03", "control character \\(U\\+0003\\)"),
    ("status\x1b[2J", "U\\+001B"), ("status\x00", "U\\+0000"), ("status\x7f", "U\\+007F"),
    ("status\x85", "U\\+0085"), ("status\tx", "U\\+0009"), ("tag White Nicolò", "for other letters send JSON"),
])
def test_lines_that_cannot_go(line, error):
    with pytest.raises(ValueError, match=error):
        check_line(line)


def test_other_letters_go_as_json_escapes():
    raw = []
    model = BoardModel(raw.append)
    model.user_line('{"cmd": "tag", "name": "White", "value": "Nicolò"}')
    assert raw == ['{"cmd":"tag","name":"White","value":"Nicol\\u00f2"}']


def test_lines_up_to_512_bytes_go_and_are_echoed(link):
    model, sent = link
    model.user_line("  " + "x" * 512 + " ")
    assert sent == ["x" * 512] and model.state()["protocol"] == ["> " + "x" * 512]


def test_the_positions_of_the_game_and_the_palette_for_the_page(link):
    """The page's move list shows earlier positions (``fens``: python-chess agrees) and its legend
    the firmware's palette (every meaning but "none", in leds/names.py's order)."""
    chess = pytest.importorskip("chess")
    from scacchiera.leds.names import NAMES
    from scacchiera.leds.palette import default_colours
    model, sent = link
    model.connected()
    moves = ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]
    answer(model, sent[4], **status(moves))
    answer(model, sent[-1], pgn='[Event "Scacchiera"]\n\n*\n')
    s = model.state()
    board = chess.Board()
    want = [board.fen()]
    for uci in moves:
        board.push_uci(uci)
        want.append(board.fen())
    assert s["fens"] == want
    assert [p["meaning"] for p in s["palette"]] == list(NAMES[1:])
    for p in s["palette"]:
        r, g, b, blink = default_colours()[NAMES.index(p["meaning"])]
        assert p["rgb"] == [r, g, b] and p["blink"] == blink


def test_clocks_material_and_offers_from_status_and_events(link):
    """docs/protocol.md's clock fields: status.clock (None: off), clock events between two statuses."""
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r)
    assert model.state()["clock"] is None and model.state()["material"] is None
    clock = {"control": "5+3", "white": 300000, "black": 300000, "running": None}
    answer(model, sent[4], **dict(status(), clock=clock, material={"w": 39, "b": 39}, offer=None))
    s = model.state()
    assert s["clock"] == clock and s["material"] == {"w": 39, "b": 39} and s["offer"] is None
    events = s["clock_events"]
    asked = len(sent)
    model.feed(json.dumps({"ev": "clock", "white": 299000, "black": 300000, "running": "b"}))
    s = model.state()
    assert s["clock"] == {"control": "5+3", "white": 299000, "black": 300000, "running": "b"}
    assert s["clock_events"] == events + 1
    assert len(sent) == asked                    # the event says it all: no status asked for
    model.feed(json.dumps({"ev": "offer", "by": "w"}))
    assert sent[-1]["cmd"] == "status"           # who offers: status.offer
    answer(model, sent[-1], **dict(status(), clock=None, offer="w"))
    assert model.state()["clock"] is None and model.state()["offer"] == "w"


def test_suggestions_and_the_boards_request_for_one(link):
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r, commands={"hello": {}, "suggest": {}})
    answer(model, sent[4], **status(["e2e4"], turn="b"))
    assert model.knows("suggest") is True and model.knows("fly") is False
    computer = model.subscribe("computer")
    model.feed(json.dumps({"ev": "suggest", "uci": "e7e5"}))        # the board's own engine
    assert model.state()["suggestion"] == "e7e5"
    model.feed(json.dumps({"ev": "suggest", "uci": None}))          # a gesture asking the host
    assert computer.wait(0) == [{"ev": "suggest", "uci": "e7e5"}, {"ev": "suggest", "uci": None}]
    model.feed(json.dumps({"ev": "move", "uci": "e7e5"}))
    answer(model, sent[-1], **status(["e2e4", "e7e5"]))
    assert model.state()["suggestion"] is None                      # that position is gone
    replies = []
    model.ask({"cmd": "suggest", "uci": "g1f3"}, "computer", replies.append)
    assert model.log[-1] == 'computer> {"cmd":"suggest","uci":"g1f3","id":"%s"}' % sent[-1]["id"]
    model.feed(json.dumps({"re": "suggest", "ok": True, "id": sent[-1]["id"]}))
    assert replies == [{"re": "suggest", "ok": True, "id": sent[-1]["id"]}]


def test_the_boards_refusals_of_the_persons_lines_are_kept_for_the_page(link):
    """A refused command sent for the person (an option's value, a typed line) is the page's news
    until the next line or move; refusals of the companion's own requests, and of commands whose
    sender reads the answer (a suggest the board does not know: show follows), are not."""
    model, sent = link
    model.connected()
    for r in sent[:5]:
        answer(model, r)
    assert model.state()["refusal"] is None
    model.user_line('{"cmd":"set","name":"clock","value":"abc"}')
    model.feed(json.dumps({"re": "set", "ok": False, "error": "refused", "message": "clock must be off or M+S"}))
    s = model.state()
    assert s["refusal"] == {"re": "set", "error": "refused", "message": "clock must be off or M+S"}
    assert s["refusals"] == 1
    model.user_line("status")                     # the next line: the old refusal is no longer news
    assert model.state()["refusal"] is None
    model.user_line("fly")
    model.feed(json.dumps({"re": None, "ok": False, "error": "unknown_command", "message": "unknown command"}))
    assert model.state()["refusal"]["re"] is None and model.state()["refusals"] == 2
    model.feed(json.dumps({"ev": "move", "uci": "e2e4"}))
    assert model.state()["refusal"] is None
    # The companion's own request refused: not the person's news.
    model.feed(json.dumps({"re": "status", "ok": False, "id": sent[-1]["id"], "error": "internal"}))
    # A command whose caller reads the answer, refused: its caller handles it.
    replies = []
    model.ask({"cmd": "suggest", "uci": "g1f3"}, on_reply=replies.append)
    model.feed(json.dumps({"re": "suggest", "ok": False, "id": sent[-1]["id"], "error": "unknown_command"}))
    assert replies and model.state()["refusal"] is None and model.state()["refusals"] == 2
    # The person's button (no reader): the page's news, as a typed line's.
    model.ask({"cmd": "resign", "side": "w"})
    model.feed(json.dumps({"re": "resign", "ok": False, "id": sent[-1]["id"], "error": "invalid_state"}))
    assert model.state()["refusal"]["re"] == "resign" and model.state()["refusals"] == 3


@pytest.mark.parametrize("seed, placed, drawn, refused", [
    (5, "P@d3", "q", "q"),          # a queen before turn 8: the rules refused it, the board took a pawn
    (8, "P@d3", "n", ""),           # a knight was allowed on d3: the pawn was the player's tap
])
def test_sprint_says_which_placements_the_rules_refused(link, seed, placed, drawn, refused):
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r)
    answer(model, sent[4], **status([placed], turn="b"))
    answer(model, sent[-1], pgn='[Variant "Scacchi Sprint"]\n[Seed "%d"]\n\n*\n' % seed)   # moves: status's
    s = model.state()
    assert s["sprint"]["drawn_before"] == [drawn] and s["sprint"]["refused"] == [refused]


def test_sprint_says_which_tiles_the_rules_allow_where_one_waits_to_be_chosen(link):
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r)
    answer(model, sent[4], **status())
    answer(model, sent[-1], pgn='[Variant "Scacchi Sprint"]\n[Seed "5"]\n\n*\n')   # White holds Q and P
    model.feed(json.dumps({"ev": "leds", "frame": {"d3": "drop-pawn", "d1": "drop-target"}}))
    assert model.state()["sprint"]["allowed"] == {"d3": "p"}          # no queen before turn 8
    model.feed(json.dumps({"ev": "leds", "frame": {"d3": "drop-pawn", "z9": "drop-pawn"}}))
    assert model.state()["sprint"]["allowed"] == {"d3": "p"}          # not a square: left out


def test_the_boards_troubles_stay_until_the_game_moves_on(link):
    """A crash is followed by the board's boot (and a Pico's USB port goes with it: the host
    reconnects): the page still says it, until a move."""
    model, sent = link
    crash = {"ev": "crash", "error": "ZeroDivisionError('x')"}
    model.feed(json.dumps(crash))
    model.feed(json.dumps({"ev": "boot", "proto": 1, "firmware": "scacchiera 0.1.0", "cause": "reset"}))
    model.feed(json.dumps({"ev": "resume", "fen": START, "ply": 0, "result": "*"}))
    assert model.state()["trouble"] == crash
    model.reset()                                  # the serial port came back
    assert model.state()["trouble"] == crash
    model.feed(json.dumps({"ev": "move", "uci": "e2e4"}))
    assert model.state()["trouble"] is None
    refused = {"ev": "offer_refused", "by": "w", "message": "one draw offer every 5 moves: the next after 3 more"}
    model.feed(json.dumps(refused))
    model.feed(json.dumps({"ev": "leds", "frame": {}}))
    assert model.state()["trouble"] == refused


def test_a_phone_that_takes_the_board_over_bluetooth_is_said_until_it_lets_go(link):
    """A Pico W's: the app has the board (the page's lines get one busy answer), then lets go: the
    page says so and asks the board's state again."""
    model, sent = link
    model.connected()
    for r in sent[:4]:
        answer(model, r)
    answer(model, sent[4], **status())
    answered = len(sent)
    taken = {"ev": "ble", "holder": "dgt"}
    model.feed(json.dumps(taken))
    assert model.state()["trouble"] == taken
    busy = {"ev": "busy", "holder": "ble"}
    model.feed(json.dumps(busy))
    assert model.state()["trouble"] == busy
    for r in sent[answered:]:
        answer(model, r, **(status() if r["cmd"] == "status" else {}))
    asked = len(sent)
    gone = {"ev": "ble", "holder": None}
    model.feed(json.dumps(gone))
    assert model.state()["trouble"] == gone
    assert [r["cmd"] for r in sent[asked:]][:1] == ["status"], sent[asked:]


def test_each_caller_has_its_own_conversation_with_the_board(link):
    """One board, four callers (docs/architecture.md, "One conversation per board"): each one's
    lines are logged as its own, each one alone gets its answers (a Future, or its on_reply), and
    another caller's refusal never shows on the page as the person's."""
    model, sent = link
    model.connected()
    for r in sent[:5]:
        answer(model, r)
    lichess = model.subscribe("lichess")
    lichess.wait(0)
    asked = {}
    for by in ("person", "computer", "lichess", "club"):
        asked[by] = (model.ask({"cmd": "set", "name": "clock", "value": "x"}, by), sent[-1]["id"])
    assert [line.split(" ", 1)[0] for line in model.log[-4:]] == [">", "computer>", "lichess>", "club>"]
    for by in ("club", "lichess", "computer"):
        future, rid = asked[by]
        model.feed(json.dumps({"re": "set", "ok": False, "error": "bad_field", "message": by, "id": rid}))
        assert future.result(0)["message"] == by                    # that caller's answer, and only its
        assert model.state()["refusal"] is None                     # not the person's news
    assert not asked["person"][0].done()
    model.feed(json.dumps({"re": "set", "ok": False, "error": "bad_field", "message": "person",
                           "id": asked["person"][1]}))
    assert asked["person"][0].result(0)["message"] == "person"
    assert model.state()["refusal"]["message"] == "person"
    assert lichess.wait(0) == []                                    # changes, no events: news all the same
    with pytest.raises(ValueError, match="callers"):
        model.ask({"cmd": "status"}, "stranger")


def test_a_board_gone_answers_nothing_its_callers_wait_for(link):
    model, sent = link
    future = model.ask({"cmd": "games"}, "club")
    model.reset()                                 # a new connection: the board restarted
    assert future.cancelled()
    model.feed(json.dumps({"re": "games", "ok": True, "id": sent[-1]["id"], "games": []}))
    assert future.cancelled()


def test_a_subscriber_waits_on_its_own_news_not_on_the_boards_lock(link):
    """The subscriber's events in order, each once; ``view`` a consistent moment of the board; a
    subscriber holding nothing of the model's while it waits (the model's lock free meanwhile)."""
    model, sent = link
    news = model.subscribe("computer")
    assert news.wait(0) == []                    # nothing yet: the wait times out
    model.connected()
    for r in sent[:5]:
        answer(model, r, commands={"hello": {}, "clock": {}})
    model.feed(json.dumps({"ev": "move", "uci": "e2e4"}))
    model.feed(json.dumps({"ev": "leds", "frame": {}}))          # a frame: a change, not an event
    model.feed(json.dumps({"ev": "takeback", "uci": "e2e4"}))
    assert [e["ev"] for e in news.wait(0)] == ["move", "takeback"]
    assert news.wait(0) == []
    woke = []
    waiter = threading.Thread(target=lambda: woke.append(news.wait(10)))
    waiter.start()
    with model.lock:                             # the board's lock held: the subscriber's wake still comes
        news.wake()
        waiter.join(10)
    assert woke == [[]]
    view = model.view()
    assert view.knows("clock") is True and view.knows("fly") is False
    assert view.status is model.status and view.version == model.version and view.busy is model.busy()
