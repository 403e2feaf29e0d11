"""The USB serial protocol (docs/protocol.md): every command, every error, and fuzz.

Each test drives a board booted on FakeHardware (the real main loop, journal
and protocol) by writing bytes to its serial link, as a host would.
"""

import gc
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from firmware_support import Board, rows_of
import board_config
import scacchiera
from scacchiera.rules.squares import parse_square
from scacchiera.link import commands
from scacchiera.rules.sprint import SprintPosition
from scacchiera.rules.variants import variant_of


def snapshot(board):
    """Everything a refused command must leave alone (the journal: what the flash holds once the
    writes the hands held back are done: journal.QUIET_MS; a record a command queued shows too)."""
    game = board.game
    if board.runner.journal.dirty:
        board.runner.journal.flush()
    return (game.position.fen(), [game.position.uci(m) for m in game.position.move_stack], game.result,
            game.tracker.required, board.runner.holder is not None, board.state()["options"],
            bytes(board.hw.fs.read("current.log")))


def ask(board, line, steps=4):
    """Send one line; the one reply to it."""
    board.lines()
    board.send(line, steps)
    replies = board.replies()
    assert len(replies) == 1, replies
    return replies[0]


# -- the commands that work -----------------------------------------------------------

def test_hello_names_the_version_the_limits_and_every_command():
    board = Board()
    reply = ask(board, '{"cmd": "hello", "id": "h1"}')
    assert reply["ok"] and reply["re"] == "hello" and reply["id"] == "h1"
    assert reply["proto"] == scacchiera.VERSION == 1
    assert reply["max_line"] == 512
    assert sorted(reply["commands"]) == sorted(commands.COMMANDS)
    assert "brightness" in reply["options"]
    specs = reply["option_specs"]
    assert list(specs) == reply["options"], "one spec per option, in hello's order"
    assert specs["brightness"] == {"type": "int", "min": 1, "max": 100, "default": 100}
    assert specs["move_time_ms"]["off"] == 0 and specs["hints"] == {"type": "bool", "default": True}
    assert specs["profile"] == {"type": "choice", "choices": ["fide", "casual"], "default": "fide"}


def test_status_tells_the_game_and_the_board():
    board = Board()
    board.play("e2e4", "c7c5")
    status = ask(board, "status")
    assert status["moves"] == ["e2e4", "c7c5"] and status["turn"] == "w" and status["result"] == "*"
    assert status["fen"] == board.game.position.fen() and status["in_sync"] and status["state"] == "idle"
    assert status["game"] == 1 and 195 <= status["scan_rate"] <= 205   # one scan per 5 ms here
    assert status["options"] == {"hints": True, "takeback": True, "settle_ms": 250, "lang": "en",
                                 "profile": "fide", "brightness": 100, "move_time_ms": 0,
                                 "clock": "off", "offer_every": 5, "abandon_min": 0, "suggest": True,
                                 "opponent": "person", "engine_side": "b", "usb": "auto"}
    assert status["clock"] is None and status["offer"] is None
    assert status["material"] == {"w": 40, "b": 40}    # 8 + 2*3 + 2*3 + 2*5 + 10


def _python_chess_uci(move):
    """Our move's UCI as python-chess writes it (drops too): the reference for uci_bytes.write_moves."""
    import chess
    from scacchiera.rules import squares
    to = squares.to_square(move)
    if squares.is_drop(move):
        return chess.Move(to, to, drop=squares.drop_piece(move)).uci()
    promotion = squares.promotion(move)
    return chess.Move(squares.from_square(move), to, promotion if promotion != squares.KING else None).uci()


def _kind(pos, move):
    from scacchiera.rules import squares
    if squares.is_drop(move):
        return "drop"
    piece = pos.piece_at(squares.from_square(move)) & 7
    to = squares.to_square(move)
    if piece == squares.KING and (squares.promotion(move) == squares.KING or abs(to - squares.from_square(move)) == 2):
        return "castling"
    if squares.promotion(move):
        return "promotion"
    if piece == squares.PAWN and (to - squares.from_square(move)) % 8 and not pos.piece_at(to):
        return "en passant"
    return "move"


@pytest.mark.parametrize("variant", ["chess", "sprint", "chess960"])
def test_status_lists_a_long_games_every_move_as_python_chess_writes_it(variant):
    """status writes its moves as bytes (uci_bytes.write_moves, machine code on the Pico): up to 300
    random plies, each kind of move played once it is legal (castling, promotions, en passant; a
    Sprint game's drops; Chess960's king-takes-rook castling), each as python-chess writes it; the
    line is JSON, and mem_free only when asked."""
    board = Board()
    extra = {"sprint": {"seed": 4}, "chess960": {"position": 518}}.get(variant, {})
    assert ask(board, dict(extra, cmd="new", variant=variant))["ok"]
    pos = board.game.position
    assert variant_of(pos) == variant
    rng = random.Random(variant)
    played = []
    kinds = set()
    while len(played) < 300:
        legal = pos.legal_moves()
        if not legal or pos.is_game_over(claim_draw=True):
            break
        unseen = [m for m in legal if _kind(pos, m) not in kinds]     # each kind once it is legal
        move = rng.choice(unseen or legal)
        kinds.add(_kind(pos, move))
        played.append(_python_chess_uci(move))
        pos.push(move)
    status = ask(board, "status")
    assert status["moves"] == played and len(played) >= 80, len(played)
    assert kinds >= {"sprint": {"move", "drop", "promotion"}, "chess": {"move", "castling", "promotion", "en passant"},
                     "chess960": {"move", "castling", "promotion"}}[variant], kinds
    assert "mem_free" not in status
    mem = ask(board, {"cmd": "status", "mem": True})
    assert mem["moves"] == played and ("mem_free" in mem) == hasattr(gc, "mem_free")   # not on CPython


def test_new_with_a_fen_guides_the_set_up():
    board = Board()
    reply = ask(board, {"cmd": "new", "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"})
    assert reply["ok"] and reply["fen"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    board.send("status")
    status = [l for l in board.lines() if l.get("re") == "status"]
    assert status and status[0]["in_sync"] is False
    assert board.game.tracker.state == 4
    board.hw.occupied[:] = rows_of("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    board.wait(100)
    assert [l["ev"] for l in board.lines() if "ev" in l] == ["in_sync"]
    board.play("e2e4")
    assert board.game.position.ply() == 1


def test_new_with_no_fields_is_a_rematch_of_the_same_variant_and_profile():
    board = Board()
    reply = ask(board, {"cmd": "new", "variant": "sprint", "seed": 5, "profile": "casual"})
    assert reply["ok"] and board.game.position.variant != "chess"
    board.lines()
    board.send("new", 6)
    lines = board.lines()
    assert [l["variant"] for l in lines if l.get("ev") == "new_game"] == ["sprint"]
    assert [l["ok"] for l in lines if l.get("re") == "new"] == [True]
    assert ask(board, "status")["options"]["profile"] == "casual"
    board.send({"cmd": "new", "variant": "chess"}, 6)
    lines = board.lines()
    assert [l["variant"] for l in lines if l.get("ev") == "new_game"] == ["chess"]
    assert board.game.position.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    board.send("new", 6)
    assert [l["variant"] for l in board.lines() if l.get("ev") == "new_game"] == ["chess"]
    assert ask(board, "status")["options"]["profile"] == "casual", "the profile stays until a new one is given"


def test_new_chess960_by_start_position_number():
    board = Board()
    reply = ask(board, {"cmd": "new", "variant": "chess960", "position": 0})
    assert reply["ok"] and reply["fen"] == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert board.game.position.variant == "chess960"
    assert ask(board, "new variant:chess960 position:960")["ok"] is False
    assert ask(board, "new variant:chess position:3")["ok"] is False
    assert board.game.position.fen().startswith("bbqnnrkr/"), "a refused new changes nothing"


def test_a_sprint_game_without_a_seed_draws_one_that_status_reports_and_a_power_cut_keeps():
    from memfs import MemFS
    fs = MemFS("littlefs")
    board = Board(fs=fs)
    seeds = []
    for _ in range(4):
        assert ask(board, {"cmd": "new", "variant": "sprint"})["ok"]
        seeds.append(ask(board, "status")["seed"])
        assert board.game.position.seed == seeds[-1]
    assert len(set(seeds)) == 4, "each game its own deal: %r" % seeds
    assert ask(board, "new")["ok"]                      # a rematch (no fields): a new deal too
    seed = ask(board, "status")["seed"]
    assert seed not in seeds
    decks = [list(d) for d in board.game.position.decks]
    fs.reboot()
    resumed = Board(fs=fs, rows=bytes(board.hw.occupied))
    assert ask(resumed, "status")["seed"] == seed, "the journal keeps the drawn seed"
    assert [list(d) for d in resumed.game.position.decks] == decks
    assert ask(resumed, {"cmd": "new", "variant": "sprint", "seed": seed})["ok"]
    assert [list(d) for d in resumed.game.position.decks] == decks, "the seed replays the deal"
    assert "seed" not in ask(resumed, {"cmd": "new", "variant": "chess"}) and "seed" not in ask(resumed, "status")


def test_show_lights_a_move_and_only_it_is_accepted_then_unshow():
    board = Board()
    reply = ask(board, '{"cmd": "show", "uci": "d2d4"}')
    assert reply == {"re": "show", "ok": True, "uci": "d2d4", "san": "d4"}
    assert ask(board, "leds")["frame"] == {"d2": "show-from", "d4": "show-to"}
    assert ask(board, "status")["show"] == "d2d4"
    board.play("e2e4")
    assert board.game.position.ply() == 0, "a move other than the shown one is not taken"
    board.hw.lift(28)
    board.hw.place(12)
    board.wait(300)
    assert ask(board, "unshow")["ok"] and ask(board, "status")["show"] is None
    board.play("e2e4")
    assert board.game.position.ply() == 1


def test_undo_takes_back_and_the_leds_guide_the_pieces():
    board = Board()
    board.play("e2e4")
    reply = ask(board, "undo")
    assert reply["ok"] and reply["ply"] == 0
    assert ask(board, "leds")["frame"] == {"e2": "to-fill", "e4": "to-empty"}
    assert ask(board, "undo")["error"] == "invalid_state"


def test_claim_is_refused_until_a_draw_can_be_claimed():
    board = Board()
    assert ask(board, "claim")["error"] == "refused"
    board.play("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
    reply = ask(board, "claim")
    assert reply["ok"] and reply["result"] == "1/2-1/2" and reply["termination"] == "threefold_repetition"


@pytest.mark.parametrize("line,result", [("resign", "0-1"), ("resign b", "1-0"), ("draw", "1/2-1/2")])
def test_resign_and_draw_end_the_game(line, result):
    board = Board()
    reply = ask(board, line)
    assert reply["ok"] and reply["result"] == result
    assert board.game.result[0] == result
    board.wait(300)
    pgn = board.runner.journal.archive().read(1)
    assert '[Result "%s"]' % result in pgn


def test_offer_stays_open_until_the_next_move():
    board = Board()
    assert ask(board, "offer")["ok"] and ask(board, "status")["offer"] == "b"   # who has just moved
    board.play("e2e4")
    assert ask(board, "status")["offer"] is None
    board.send("offer w")
    lines = board.lines()
    assert {"ev": "offer", "by": "w"} in lines and {"re": "offer", "ok": True, "side": "w"} in lines
    assert ask(board, "status")["offer"] == "w"
    board.play("e7e5")
    assert ask(board, "status")["offer"] is None
    # Rationed: one offer every offer_every (5) moves of the same player.
    reply = ask(board, "offer w")
    assert not reply["ok"] and reply["error"] == "refused" and "every 5 moves" in reply["message"]
    assert ask(board, "set offer_every 0")["ok"] and ask(board, "offer w")["ok"]


def test_promote_chooses_the_piece_a_pending_promotion_becomes():
    board = Board()
    fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
    board.send({"cmd": "new", "fen": fen})
    board.hw.occupied[:] = rows_of(fen)
    board.wait(100)
    board.hands.lift(52)
    board.hands.place(60)
    assert ask(board, {"cmd": "promote", "piece": "k"})["error"] == "refused"
    assert ask(board, "promote n")["piece"] == "n"
    board.wait(1800)
    assert board.game.position.uci(board.game.position.move_stack[-1]) == "e7e8n"


def test_options_are_checked_applied_and_saved():
    board = Board()
    assert ask(board, "set hints off")["value"] is False
    assert ask(board, {"cmd": "set", "name": "lang", "value": "it"})["ok"]
    assert ask(board, {"cmd": "set", "name": "settle_ms", "value": 400})["ok"]
    assert ask(board, "set brightness 50")["ok"]
    assert ask(board, "set brightness 0")["error"] == "refused"
    assert ask(board, {"cmd": "set", "name": "settle_ms", "value": True})["error"] == "refused"
    assert ask(board, {"cmd": "set", "name": "colour", "value": 1})["error"] == "refused"
    board.lines()
    board.play("g1f3")
    assert [l["san"] for l in board.lines() if l.get("ev") == "move"] == ["Cf3"], "SAN in Italian"
    again = Board(fs=board.hw.fs, rows=bytes(board.hw.occupied))
    assert again.state()["options"] == (False, True, 400, "it", "fide", 50)
    # Brightness scales the palette under the power cap.
    board.hands.lift(3)
    board.wait(50)
    i = board.runner.led_of_square[3] * 3
    assert max(board.hw.pixels[i:i + 3]) == board_config.LED_MAX_LEVEL * 50 // 100


def test_games_and_pgn_list_and_fetch_the_archive():
    board = Board()
    board.play("f2f3", "e7e5", "g2g4", "d8h4")
    board.wait(300)
    games = ask(board, "games")["games"]
    assert games == [{"game": 1, "bytes": games[0]["bytes"]}] and games[0]["bytes"] > 100
    pgn = ask(board, "pgn 1")["pgn"]
    assert pgn.rstrip().endswith("2. g4 Qh4# 0-1")
    assert ask(board, "pgn 7")["error"] == "not_found"
    assert ask(board, "pgn")["pgn"] == pgn, "pgn without a number: the game on the board"


def test_watch_streams_occupancy_and_led_frames():
    board = Board()
    assert ask(board, "watch on on") == {"re": "watch", "ok": True, "leds": True, "occupancy": True}
    board.hw.lift(12)
    board.wait(100)
    lines = board.lines()
    occupancy = [l for l in lines if l.get("ev") == "occupancy"]
    leds = [l for l in lines if l.get("ev") == "leds"]
    assert occupancy and "e2" not in occupancy[-1]["squares"] and "e1" in occupancy[-1]["squares"]
    assert leds and leds[-1]["frame"] == {"e2": "lifted", "e3": "legal", "e4": "legal"}
    assert "e2" not in ask(board, "occupancy")["squares"]


def test_diag_from_the_protocol_pauses_the_game_and_reports():
    board = Board()
    assert ask(board, "diag") == {"re": "diag", "ok": True, "on": True}
    assert ask(board, "show e2e4")["error"] == "invalid_state"
    board.hw.lift(12)
    board.wait(1100)
    reports = [l for l in board.lines() if l.get("ev") == "diag"]
    report = reports[-1]
    assert report["map"][6] == "2 ####.###" and report["map"][5] == "3 ........"
    assert "e4" in report["dead"] and "e1" in report["stuck"]
    assert "e2" not in report["dead"] + report["stuck"], "seen closed, then open"
    assert board.game.position.ply() == 0
    assert ask(board, "diag off")["on"] is False
    board.wait(50)
    assert board.game.tracker.state == 4, "the game looks again: e2 is missing"


def test_diag_bench_test_tells_one_reed_live_and_lights_it_green_or_red():
    """``diag on e4``: the bench test of one reed. Each change of its reed is told at once
    (``ev: reed``, with how often it changed: a reed that chatters as the magnet nears shows it),
    and its LED is green while closed, red while open."""
    board = Board()
    board.lines()
    board.send("diag on e4", 4)
    board.wait(50)
    lines = board.lines()
    assert [l for l in lines if "re" in l] == [{"re": "diag", "ok": True, "on": True, "square": "e4"}]
    assert [l for l in lines if l.get("ev") == "reed"] == [{"ev": "reed", "square": "e4", "closed": False, "changes": 0}]
    led = board_config.square_to_led(28) * 3

    def colour():
        pixels = board.hw.pixels
        return [pixels[led + "GRB".index(c)] for c in "RGB"]    # the strip's bytes are GRB
    assert colour()[0] > 0 and colour()[1] == 0, colour()            # red: open
    board.hw.place(28)                                              # the magnet comes down...
    board.wait(20)
    board.hw.lift(28)                                               # ...a bounce...
    board.wait(20)
    board.hw.place(28)                                              # ...and closed
    board.wait(50)
    told = [l for l in board.lines() if l.get("ev") == "reed"]
    assert [(l["closed"], l["changes"]) for l in told] == [(True, 1), (False, 2), (True, 3)], told
    assert colour()[1] > 0 and colour()[0] == 0, colour()            # green: closed
    assert ask(board, '{"cmd": "diag", "square": "z9"}')["error"] == "bad_field"
    assert ask(board, "diag off")["on"] is False


# -- every kind of bad line: one error, nothing changed --------------------------------

SPRINT_START = SprintPosition(seed=2).fen()

BAD_LINES = [
    ('{"cmd": "shwo"}', "unknown_command"),
    ("fly to the moon", "unknown_command"),
    ('{"cmd": 7}', "unknown_command"),
    ('{"uci": "e2e4"}', "unknown_command"),
    ("[1, 2, 3]", "unknown_command"),
    ('{"cmd": "show"', "bad_json"),
    ('{"cmd": "show", "uci": "e2e4",}', "bad_json"),
    ('{"cmd": "show", "uci": "e2e4"} trailing', "bad_json"),
    ("{" * 300, "bad_json"),
    ('{"cmd": "show"}', "bad_field"),
    ('{"cmd": "show", "uci": 5}', "bad_field"),
    ('{"cmd": "show", "uci": "e2e4", "extra": 1}', "bad_field"),
    ('{"cmd": "pgn", "game": "1"}', "bad_field"),
    ('{"cmd": "pgn", "game": 1.5}', "bad_field"),
    ('{"cmd": "diag", "on": 1}', "bad_field"),
    ('{"cmd": "status", "id": [1]}', "bad_field"),
    ('{"cmd": "status", "id": "%s"}' % ("x" * 40), "bad_field"),
    ("undo now please", "bad_field"),
    ("show e2e5", "refused"),
    ("show e2e4e5", "refused"),
    ('{"cmd": "new", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}', "refused"),
    ('{"cmd": "new", "profile": "blitz"}', "refused"),
    ('{"cmd": "new", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "seed": 3}', "refused"),
    ('{"cmd": "new", "variant": "sprint", "fen": "%s", "seed": 3}' % SPRINT_START, "refused"),
    ("resign x", "bad_field"),
    ("promote k", "refused"),
    ('{"cmd": "set", "name": "hints", "value": "yes"}', "refused"),
    ("pgn 99999", "not_found"),
    ("claim", "refused"),
    ("undo", "invalid_state"),
    ("caf\xc3\xa9", "bad_bytes"),
    ("status\x07", "bad_bytes"),
]


@pytest.mark.parametrize("line,code", BAD_LINES, ids=[repr(l[:30]) for l, _c in BAD_LINES])
def test_a_bad_line_gets_one_error_and_changes_nothing(line, code):
    board = Board()
    before = snapshot(board)
    board.lines()
    board.hw.send_bytes(line.encode("latin-1") + b"\n")
    board.run(10)                 # 128 bytes are read every 10 ms
    replies = board.replies()
    assert len(replies) == 1, replies
    assert replies[0]["ok"] is False and replies[0]["error"] == code, replies[0]
    assert replies[0]["message"]
    assert snapshot(board) == before


def test_an_error_echoes_the_request_id_and_names_the_command():
    board = Board()
    reply = ask(board, '{"cmd": "show", "uci": "a1a8", "id": 42}')
    assert reply["id"] == 42 and reply["error"] == "refused" and reply["re"] == "show"
    reply = ask(board, '{"cmd": "show", "uci": 5, "id": "q"}')
    assert (reply["re"], reply["id"], reply["error"]) == ("show", "q", "bad_field")
    assert ask(board, "undo now")["re"] == "undo"
    assert ask(board, '{"cmd": "nope", "id": 3}')["re"] is None


def test_a_line_over_512_bytes_gets_one_error_then_the_link_works():
    board = Board()
    before = snapshot(board)
    board.hw.send_bytes(b'{"cmd": "status", "pad": "' + b"x" * 5000 + b'"}\n')
    board.run(100)
    replies = board.replies()
    assert [r["error"] for r in replies] == ["too_long"]
    assert snapshot(board) == before
    assert ask(board, "status")["ok"]
    board.hw.send_bytes(b"s" * 512 + b"\n")       # exactly at the limit: a line (an unknown command)
    board.run(10)
    assert [r["error"] for r in board.replies()] == ["unknown_command"]


def test_a_long_line_is_discarded_to_its_end_however_slow_and_nothing_of_it_runs():
    board = Board()
    board.hw.send_bytes(b"x" * 600)
    board.wait(2100)
    board.hw.send_bytes(b" resign\n")
    board.wait(100)
    assert [r["error"] for r in board.replies()] == ["too_long"]
    assert board.game.result is None, "the tail of a discarded line is not a command"
    assert ask(board, "status")["result"] == "*"


@pytest.mark.parametrize("silence_ms", [31000, 4 * 29000, 120000])
def test_a_discarded_line_stays_discarded_after_any_silence(silence_ms):
    """600 x, then 31 s or more of silence, then " resign": the tail is still the discarded line's."""
    board = Board()
    board.hw.send_bytes(b"x" * 600)
    board.wait(silence_ms)
    board.hw.send_bytes(b" resign\n")
    board.wait(100)
    assert [r["error"] for r in board.replies()] == ["too_long"]
    assert board.game.result is None, "the tail of a discarded line is not a command"
    assert ask(board, "status")["result"] == "*"


def test_a_one_mib_line_gets_exactly_one_error():
    board = Board()
    chunk = b"y" * 4096
    for _ in range(256):                          # 1 MiB, arriving over about 80 s of simulated time
        board.hw.send_bytes(chunk)
        board.run(64)
    board.hw.send_bytes(b"\nstatus\n")
    board.run(10)
    replies = board.replies()
    assert [r.get("error") for r in replies] == ["too_long", None] and replies[1]["re"] == "status"


def test_a_half_line_is_dropped_after_30_s_without_a_byte():
    board = Board()
    board.hw.send_bytes(b'{"cmd": "undo"')
    board.wait(29000)
    assert board.replies() == [], "29 s of silence: still waiting for the line's end"
    board.wait(1100)
    assert [r["error"] for r in board.replies()] == ["half_line"]
    board.hw.send_bytes(b"status\r")              # a terminal's Enter
    board.run(4)
    assert board.replies()[0]["re"] == "status"


def test_a_person_typing_one_character_a_second_is_understood():
    board = Board()
    board.play("e2e4")
    for ch in b"set hints off":
        board.hw.send_bytes(bytes([ch]))
        board.wait(1000)
    board.wait(5000)                              # a pause before Enter
    board.hw.send_bytes(b"\r")
    board.run(4)
    replies = board.replies()
    assert [(r["re"], r["ok"]) for r in replies] == [("set", True)], replies
    assert board.game.options.hints is False


@pytest.mark.parametrize("dead_host_left", [b'{"cmd": "resign"', b"resign", b"x" * 600])
def test_a_half_line_of_a_host_that_died_never_glues_onto_the_next_hosts_first_line(dead_host_left):
    """The next host's JSON line (a "{" after a silence) or Ctrl-U starts afresh; nothing of the old line runs."""
    for first in (b'{"cmd": "status", "id": 1}\n', b"\x15status\n"):
        board = Board()
        board.hw.send_bytes(dead_host_left)
        board.wait(1500)                          # the host died; a new one opens the port
        board.lines()
        board.hw.send_bytes(first)
        board.run(6)
        replies = board.replies()
        assert [r["re"] for r in replies if r["ok"]] == ["status"], (first, replies)
        assert [r["error"] for r in replies if not r["ok"]] == (["half_line"] if first[:1] == b"{" and
                                                                len(dead_host_left) <= 512 else []), replies
        assert board.game.result is None


def test_blank_lines_and_crlf_get_no_extra_reply():
    board = Board()
    board.hw.send_bytes(b"\r\n\n   \nhello\r\n\r\n")
    board.run(4)
    assert [r["re"] for r in board.replies()] == ["hello"]


# -- bursts and a host that stops reading: every reply, whole lines ------------------------------

def run_until_quiet(board, limit=20000):
    """Run until the board has read every byte sent and 50 ms pass without a new line."""
    serial = board.hw.serial
    for _ in range(limit):
        before = len(serial.sent)
        board.run(10)
        if len(serial.sent) == before and not board.runner.protocol.out and not serial._rx[serial._pos:]:
            return
    raise AssertionError("the board never went quiet")


def test_32_commands_in_one_burst_get_32_replies():
    board = Board(squares=())                     # no pieces: every new also says out_of_sync
    board.lines()
    board.hw.send_bytes(b"new\n" * 32)            # 128 bytes: one read of the loop
    run_until_quiet(board)
    lines = board.lines()
    assert [l["re"] for l in lines if "re" in l] == ["new"] * 32 and all(l["ok"] for l in lines if "re" in l)
    assert [l["ev"] for l in lines if "ev" in l] == ["new_game", "out_of_sync"] * 32
    board.hw.send_bytes(b"".join(b'{"cmd": "status", "id": %d}\n' % i for i in range(32)))
    run_until_quiet(board)
    replies = board.replies()
    assert [r["id"] for r in replies] == list(range(32)) and all(r["ok"] for r in replies)
    assert replies[-1]["dropped_lines"] == 0


def test_1000_new_in_one_burst_get_1000_replies_and_nothing_is_dropped():
    board = Board(squares=())
    board.lines()
    board.hw.send_bytes(b"new\n" * 1000)
    run_until_quiet(board)
    lines = board.lines()
    assert [l["re"] for l in lines if "re" in l] == ["new"] * 1000
    assert all(l["ok"] for l in lines if "re" in l)
    assert [l["ev"] for l in lines if "ev" in l] == ["new_game", "out_of_sync"] * 1000
    assert ask(board, "status")["dropped_lines"] == 0


def some_game(plies, seed=3):
    """The moves of a repeatable random game (quiet moves, so no game ends early)."""
    from scacchiera.rules import Position
    rng = random.Random(seed)
    pos = Position()
    moves = []
    while len(moves) < plies:
        choices = sorted(pos.uci(m) for m in pos.legal_moves() if not (m >> 14) & 7)
        move = pos.parse_uci(rng.choice(choices))
        pos.push(move)
        if pos.outcome() is not None:
            pos.pop()
            continue
        moves.append(pos.uci(move))
    return moves


def test_a_host_that_stops_reading_gets_whole_lines_and_a_true_count_of_the_dropped_events():
    boards = []
    for pause in (False, True):
        board = Board()
        ask(board, "watch on on")                 # many events: LED frames and occupancy
        if pause:
            board.hw.serial.paused = True
        board.play(*some_game(40))
        status_line = b'{"cmd": "status", "id": "s"}\n'
        board.hw.send_bytes(status_line)
        board.wait(500)
        rate = board.runner.scan_rate
        if pause:
            assert len(board.hw.serial._tx) == board.hw.serial.tx_size, "the TX buffer filled"
            assert board.runner.protocol.out, "the rest waits in the queue"
            board.hw.serial.resume()
        run_until_quiet(board)
        boards.append((board, board.lines(), rate))
    (_b, everything, rate_read), (board, got, rate_paused) = boards
    assert 195 <= rate_paused <= 205 and rate_paused == rate_read, "the loop kept its scan rate"
    # Every line arrived whole (take() parsed each as JSON), in order, nothing spliced or doubled:
    # the paused host's lines are the reading host's, less some events, never a reply.
    status = [l for l in got if l.get("re") == "status"]
    assert len(status) == 1 and status[0]["id"] == "s"
    events = [l for l in everything if "ev" in l]
    kept = [l for l in got if "ev" in l]
    it = iter(events)
    assert all(any(e == k for e in it) for k in kept), "a subsequence of what a reading host got"
    dropped = len(events) - len(kept)
    assert dropped > 0 and status[0]["dropped_lines"] == dropped
    assert ask(board, "status")["dropped_lines"] == dropped


# -- valid commands in invalid states -----------------------------------------------------------

@pytest.mark.parametrize("line, result", [("resign", "0-1"), ("end time w", "0-1"), ("end abandon w", "0-1"),
                                          ("draw", "1/2-1/2")])
def test_a_move_still_settling_when_the_host_ends_the_game_is_never_played(line, result):
    """The host (Lichess's opponent resigned, a flag fell there) ends the game 80 ms after a piece
    landed, before the move settled: the board keeps the plies it had, and archives the result."""
    import chess.pgn
    import io
    board = Board()
    board.play("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6")
    ask(board, "hello")           # the host has spoken (a first line waits while hands are at work: below)
    if line == "draw":
        board.send("offer")
    board.hands.lift(parse_square("d2"))
    board.hands.place(parse_square("d3"))     # 80 ms: still settling
    board.lines()
    reply = ask(board, line)
    assert reply["ok"], reply
    board.wait(1000)
    assert board.game.result[0] == result
    assert board.game.position.ply() == 6, "no ply after the end"
    assert [l for l in board.lines() if l.get("ev") == "move"] == []
    archive = board.runner.journal.archive()
    game = chess.pgn.read_game(io.StringIO(archive.read(archive.last_id())))
    assert game.headers["Result"] == result and len(list(game.mainline_moves())) == 6
    status = ask(board, "status")
    assert status["ply"] == 6 and status["result"] == result


def test_a_hosts_first_line_waits_while_hands_are_at_work():
    """A host's first bytes load hosts.py, framing.py and commands.py (~120 ms on the emulated Pico):
    they wait while the board is not as the game says and a reed changed within journal.QUIET_MS,
    so the loading never brings two of the hands' changes at once. A host that has spoken is
    answered at once, hands or not."""
    from scacchiera.storage.journal import QUIET_MS
    board = Board()
    board.hands.lift(parse_square("e2"))
    board.lines()
    board.send("status")
    assert board.replies() == [], "not while a piece is off its square, just lifted"
    board.wait(QUIET_MS)
    [reply] = board.replies("status")
    assert reply["ok"] and reply["state"] == "lifted"
    board.hands.place(parse_square("e4"))
    assert ask(board, "status")["state"] == "pending", "answered at once: the host has spoken"
    board.wait(1000)
    assert board.game.position.ply() == 1


@pytest.mark.parametrize("line", ["show e7e5", "claim", "offer", "draw", "resign", "promote q"])
def test_game_commands_are_refused_once_the_game_is_over(line):
    board = Board()
    board.play("f2f3", "e7e5", "g2g4", "d8h4")
    before = snapshot(board)
    reply = ask(board, line)
    assert reply["error"] == "invalid_state"
    assert snapshot(board) == before


# -- fuzz -----------------------------------------------------------------------------------------

VALID = ["hello", "status", "new", "show e2e4", "show g8f6", "unshow", "undo", "claim", "offer", "draw",
         "resign", "resign w", "promote q", "set hints on", "set brightness 30", "games", "pgn", "pgn 1",
         "diag", "diag off", "watch on off", "leds", "occupancy",
         '{"cmd": "new", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}']


def mutate(rng, line):
    data = bytearray(line.encode())
    for _ in range(rng.randint(1, 4)):
        what = rng.random()
        i = rng.randrange(len(data) + 1)
        if what < 0.3 and data:
            data[min(i, len(data) - 1)] = rng.randrange(256)
        elif what < 0.5:
            data[i:i] = bytes([rng.randrange(256)])
        elif what < 0.7 and data:
            del data[min(i, len(data) - 1)]
        elif what < 0.85:
            data = data[:i]
        else:
            data[i:i] = rng.choice([b"{", b"}", b'"', b"\\", b"[", b"]", b",", b":", b"\\u0000", b" 9e999"])
    return bytes(data)


def is_dgt_bus_command(data):
    """A DGT bus command (docs/protocols.md), with the line end as its sum: 0x81-0x8D, a 7-bit
    address in two bytes, (their sum & 0x7F) == 10. The one line a text host's garbage may share with
    a DGT program's first command: the board gives it to a DGT host, not to the text protocol."""
    return len(data) == 3 and 0x81 <= data[0] <= 0x8D and data[1] < 0x80 and data[2] < 0x80 \
        and sum(data) & 0x7F == 10


def check_fuzz(board, lines):
    """Feed lines; each non-blank one gets exactly one reply, and a refused one changes nothing."""
    for data in lines:
        for framing in (b"\n", b"\r", b"\x03", b"\x15"):     # line ends, Ctrl-C, Ctrl-U
            data = data.replace(framing, b" ")
        before = snapshot(board)
        board.lines()
        board.hw.send_bytes(data + b"\n")
        board.run(3 + 2 * (len(data) // 128))     # a slice (every 10 ms) reads 128 bytes
        if is_dgt_bus_command(data):
            board.wait(100)                           # DGT's silence after a command: its host
            assert type(board.runner.protocol.host).__name__ == "Dgt" and not board.replies(), data
            board.send("x", 6)                        # a text byte: the link is text's again
            assert board.runner.protocol.host is None and len(board.replies()) == 1
            assert snapshot(board)[:5] == before[:5], data
            continue
        replies = board.replies()
        if not data.strip(b" \t") or len(data) > 512:     # blank (spaces and tabs only) or too long
            assert len(replies) == (1 if len(data) > 512 else 0), (data, replies)
            continue
        assert len(replies) == 1, (data, replies)
        reply = replies[0]
        assert reply["ok"] in (True, False)
        assert reply.get("error") != "internal", (data, reply)
        if not reply["ok"]:
            assert snapshot(board) == before, (data, reply)


def test_fuzz_mutated_commands():
    rng = random.Random(4)
    board = Board()
    lines = [mutate(rng, rng.choice(VALID)) for _ in range(3000)]
    check_fuzz(board, lines)


def test_fuzz_valid_commands_in_any_order_with_hands_moving():
    rng = random.Random(7)
    board = Board()
    for i in range(2000):
        line = rng.choice(VALID)
        check_fuzz(board, [line.encode()])
        if rng.random() < 0.3:
            sq = rng.randrange(64)
            (board.hw.lift if board.hw.present(sq) else board.hw.place)(sq)
            board.wait(rng.choice([10, 60, 300]))


_FUZZ_BOARD = []


def fuzz_board():
    """One board for every example (booting one per example would dominate the run)."""
    if not _FUZZ_BOARD:
        _FUZZ_BOARD.append(Board())
    return _FUZZ_BOARD[0]


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=700))
def test_fuzz_random_bytes(data):
    check_fuzz(fuzz_board(), [data])


@pytest.mark.slow
def test_fuzz_long():
    rng = random.Random(11)
    board = Board()
    lines = []
    for _ in range(200000):
        if rng.random() < 0.5:
            lines.append(mutate(rng, rng.choice(VALID)))
        else:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80))))
    check_fuzz(board, lines)


def test_the_one_garbage_line_a_dgt_bus_command_shares_goes_to_a_dgt_host():
    """0x89 0x00 0x01 then a line end is DGT's bus reset to address 1, its sum 0x0A: a DGT host gets it;
    the next text byte gives the link back. The same bytes with 8-bit 'address' bytes are text."""
    board = Board()
    check_fuzz(board, [bytes([0x89, 0x00, 0x01]), b"\x8c\xc4\xba", b"\x00\x00\x00", b"status"])


def test_nobody_accepts_their_own_draw_offer():
    """Two people: the host's draw accepts the offer for the other side, never for the offerer. Against
    the host's computer (opponent host) the person's draw or decline is refused on their own offer,
    and only the computer's (side given) answers it."""
    board = Board()
    board.play("e2e4")
    assert ask(board, "offer w")["ok"]
    for line in ("draw w", "decline w"):
        reply = ask(board, line)
        assert reply["error"] == "refused" and reply["message"].startswith("White offered this draw"), reply
    assert ask(board, "draw")["result"] == "1/2-1/2"          # Black's: the other side's

    board = Board()
    assert ask(board, "set opponent host")["ok"]             # the host's computer plays Black
    assert ask(board, "draw")["error"] == "refused"          # no offer: one person cannot agree alone
    board.play("e2e4")
    assert ask(board, "offer w")["ok"]
    assert ask(board, "draw")["error"] == "refused" and ask(board, "decline")["error"] == "refused"
    board.send("decline b")
    assert {"ev": "offer_declined", "by": "b"} in board.lines()
    assert ask(board, "status")["offer"] is None
    assert ask(board, "show e7e5")["ok"]                     # the computer's move, made by the hands
    board.play("e7e5", "g1f3")
    assert board.game.position.ply() == 3
    assert ask(board, "set offer_every 0")["ok"] and ask(board, "offer w")["ok"]
    reply = ask(board, "draw b")                             # the computer accepts
    assert reply["ok"] and reply["result"] == "1/2-1/2" and reply["termination"] == "agreement"
