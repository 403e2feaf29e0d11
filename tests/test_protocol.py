"""The USB serial protocol (docs/protocol.md): every command, every error, and fuzz.

Each test drives a board booted on FakeHardware (the real main loop, journal
and protocol) by writing bytes to its serial link, as a host would.
"""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from firmware_support import Board, rows_of
from scacchiera import commands, protocol


def snapshot(board):
    """Everything a refused command must leave alone."""
    game = board.game
    return (game.position.fen(), [game.position.uci(m) for m in game.position.move_stack], game.result,
            game.tracker.required, board.runner.diag is not None, board.state()["options"],
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
    assert reply["proto"] == protocol.VERSION == 1
    assert reply["max_line"] == 512
    assert sorted(reply["commands"]) == sorted(commands.COMMANDS)
    assert "brightness" in reply["options"]


def test_status_tells_the_game_and_the_board():
    board = Board()
    board.play("e2e4", "c7c5")
    status = ask(board, "status")
    assert status["moves"] == ["e2e4", "c7c5"] and status["turn"] == "w" and status["result"] == "*"
    assert status["fen"] == board.game.position.fen() and status["in_sync"] and status["state"] == "idle"
    assert status["game"] == 1 and 195 <= status["scan_rate"] <= 205   # one scan per 5 ms here
    assert status["options"] == {"hints": True, "takeback": True, "settle_ms": 250, "lang": "en",
                                 "profile": "fide", "brightness": 100, "move_time_ms": 0}


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
    assert ask(board, "offer")["ok"] and ask(board, "status")["offer"] is True
    board.play("e2e4")
    assert ask(board, "status")["offer"] is False


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
    assert max(board.hw.pixels[i:i + 3]) == 22 * 50 // 100


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


# -- every kind of bad line: one error, nothing changed --------------------------------

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


def test_a_half_line_is_dropped_after_the_timeout():
    board = Board()
    board.hw.send_bytes(b'{"cmd": "undo"')
    board.wait(2100)
    assert [r["error"] for r in board.replies()] == ["half_line"]
    board.hw.send_bytes(b"status\r")              # a terminal's Enter
    board.run(4)
    assert board.replies()[0]["re"] == "status"


def test_blank_lines_and_crlf_get_no_extra_reply():
    board = Board()
    board.hw.send_bytes(b"\r\n\n   \nhello\r\n\r\n")
    board.run(4)
    assert [r["re"] for r in board.replies()] == ["hello"]


# -- valid commands in invalid states -----------------------------------------------------------

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


def check_fuzz(board, lines):
    """Feed lines; each non-blank one gets exactly one reply, and a refused one changes nothing."""
    for data in lines:
        data = data.replace(b"\n", b" ").replace(b"\r", b" ").replace(b"\x03", b" ")
        before = snapshot(board)
        board.lines()
        board.hw.send_bytes(data + b"\n")
        board.run(3 + 2 * (len(data) // 128))     # a slice (every 10 ms) reads 128 bytes
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
