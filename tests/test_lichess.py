"""Online games from the wooden board: the companion's Lichess client (host_tools/companion/lichess.py)
against a fake Lichess on loopback (tests/fake_lichess.py: a real ASGI app, berserk pointed at it by its
base URL), the simulated board (the real firmware) moved by simulated hands, through the page's actions.
No real network."""

import json
import os
import random
import stat
import time

import chess
import chess.pgn
import pytest

from companion_support import make, step_until
from fake_lichess import FakeLichess, Served
from host_tools.companion import lichess_token
from host_tools.companion.boards import ActionError, SimulatedBoard
from host_tools.companion.lichess_seeks import check_clock
from host_tools.companion.lichess_api import Stop
from host_tools.ladder.ladder import Ladder

TOKEN = "lip_goodtoken123"
RATE_LIMIT_WAIT = 0.4          # Lichess asks for a full minute; the tests shorten it (and check it was waited)
SCHOLAR = "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7".split()
FOOL = "f2f3 e7e5 g2g4 d8h4".split()
PROMOTION = "e2e4 d7d5 e4d5 c7c6 d5c6 g8f6 c6b7 b8d7 b7a8q".split()
LONG = ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 "
        "b3c2 c7c5 d2d4 d8c7").split()


@pytest.fixture
def fake():
    f = FakeLichess(token=TOKEN)
    with Served(f) as served:
        f.url = served.url
        yield f


def online(fake, tmp_path, token=TOKEN, start=True):
    board = SimulatedBoard()
    board.play_lichess(token=token, base_url=fake.url, token_path=str(tmp_path / "token"),
                       ladder_path=str(tmp_path / "ladder.sqlite3"), archive_dir=str(tmp_path / "archive"),
                       rate_limit_wait=RATE_LIMIT_WAIT, stream_timeout=1.0, retry=(0.05, 0.2))
    if start:
        board.lichess.start()
    return board


@pytest.fixture
def board(fake, tmp_path):
    b = online(fake, tmp_path)
    yield b
    b.lichess.stop()


def logged_in(board):
    return step_until(board, lambda s: s["ready"] and s["lichess"]["account"] is not None, "the login")


def started(board):
    return step_until(board, lambda s: s["lichess"]["game"] is not None and s["lichess"]["game"]["phase"] == "play"
                      and s["in_sync"], "the online game on the board")


def play(board, fake, script, color, plies=None, each=None):
    """The person at the board plays ``color``'s moves of ``script``; the opponent's come lit (show) and the
    hands make them. ``each(ply)`` runs before every ply (faults). The board's state at the end."""
    game = board.lichess.game
    s = board.state()
    for ply, uci in enumerate(script[:plies]):
        if ply < game.base + len(s["moves"]):
            continue                          # already played (game.base: plies before the board's game began)
        if each is not None:
            each(ply)
        mine = (ply % 2 == 0) == (color == "white")
        if mine:
            s = step_until(board, lambda s: game.base + len(s["moves"]) == ply and s["in_sync"] and s["show"] is None
                           and s["state"] == "idle", "my turn at ply %d" % ply)
        else:
            s = step_until(board, lambda s: s["show"] == uci, "the opponent's %s lit" % uci)
            assert s["leds"].get(uci[:2]) == "show-from" and s["leds"].get(uci[2:4]) == "show-to", s["leds"]
        make(board, s, uci)
        s = step_until(board, lambda s: game.base + len(s["moves"]) == ply + 1, "the board to take %s" % uci)
        if mine:
            step_until(board, lambda s: len(fake.moves(game.id)) >= ply + 1, "Lichess to have %s" % uci)
    return s


def against_the_ai(board, fake, color, script=LONG, plies=0, level=1):
    """Log in, play Lichess's AI (it plays ``script``'s moves), then ``plies`` of them on the board."""
    logged_in(board)
    fake.next_script = script
    board.act("lichess", {"op": "ai", "level": level, "minutes": 10, "increment": 5, "color": color})
    s = started(board)
    if plies:
        s = play(board, fake, script, color, plies=plies)
    return s


def finished(board):
    return step_until(board, lambda s: s["lichess"]["game"] is None and s["lichess"]["last_game"] is not None
                      and s["result"] != "*", "the end on both sides")


def test_a_whole_game_as_white_against_the_ai_to_mate(board, fake, tmp_path):
    s = logged_in(board)
    assert s["lichess"]["account"] == {"id": "player", "username": "Player"}
    fake.next_script = SCHOLAR
    board.act("lichess", {"op": "ai", "level": 3, "minutes": 10, "increment": 5, "color": "white"})
    s = started(board)
    assert s["options"]["takeback"] is False          # no takebacks while online
    # The bridge's lines are Lichess's in the log, none the person's (their refusals its notice).
    bridge = [json.loads(line.split("> ", 1)[1])["cmd"] for line in s["protocol"] if line.startswith("lichess> ")]
    assert {"new", "set", "tag"} <= set(bridge)
    assert not [line for line in s["protocol"] if line.startswith("> ")]
    g = s["lichess"]["game"]
    assert g["color"] == "white" and g["opponent"] == "Lichess AI level 3" and g["clock"]["white"] == 600000
    with pytest.raises(ActionError, match="fair play"):
        board.act("hint", {})
    play(board, fake, SCHOLAR, "white")
    s = finished(board)
    gid = s["lichess"]["last_game"]["id"]
    assert fake.games[gid].status == "mate" and fake.moves(gid) == SCHOLAR
    assert s["moves"] == SCHOLAR and s["result"] == "1-0" and s["termination"] == "checkmate"
    assert s["options"]["takeback"] is True           # restored after the game
    pgn = open(s["lichess"]["last_game"]["pgn_file"]).read()
    assert '[White "Player"]' in pgn and '[Black "Lichess AI level 3"]' in pgn and "4. Qxf7# 1-0" in pgn
    with Ladder(str(tmp_path / "ladder.sqlite3")) as ladder:
        games = ladder.games()
    assert len(games) == 1 and games[0]["online"] and games[0]["result"] == "1-0"


def test_a_seek_as_black_the_opponent_moving_instantly_to_mate(board, fake):
    logged_in(board)
    with pytest.raises(ActionError, match="Rapid or Classical"):
        board.act("lichess", {"op": "seek", "minutes": 3, "increment": 2})     # blitz: not from a seek
    board.act("lichess", {"op": "seek", "minutes": 10, "increment": 0, "color": "black"})
    step_until(board, lambda s: s["lichess"]["seeking"] and fake.seeks, "the seek at Lichess")
    game = fake.pair_seek(script=FOOL)        # white's first move comes with the game's start
    s = started(board)
    assert s["lichess"]["game"]["color"] == "black" and s["lichess"]["seeking"] is None
    play(board, fake, FOOL, "black")
    s = finished(board)
    assert game.status == "mate" and game.winner == "black" and s["result"] == "0-1"


def test_a_promotion_then_the_opponent_resigns(board, fake):
    logged_in(board)
    fake.next_script = PROMOTION
    board.act("lichess", {"op": "challenge", "user": "mary", "minutes": 5, "increment": 3, "color": "white"})
    started(board)
    play(board, fake, PROMOTION, "white")
    gid = board.lichess.game.id
    assert fake.moves(gid)[-1] == "b7a8q"
    fake.opponent_resigns(gid)
    s = finished(board)
    assert s["result"] == "1-0" and s["termination"] == "resignation"


def test_the_opponents_promotion_then_i_resign_on_the_board(board, fake):
    logged_in(board)
    fake.next_script = PROMOTION
    board.act("lichess", {"op": "challenge", "user": "mary", "minutes": 5, "increment": 3, "color": "black"})
    started(board)
    s = play(board, fake, PROMOTION, "black")
    assert s["moves"][-1] == "b7a8q"
    board.act("send", {"line": "resign"})            # the board's resignation (triple tap on the king)
    s = finished(board)
    gid = s["lichess"]["last_game"]["id"]
    assert fake.games[gid].status == "resign" and fake.games[gid].winner == "white" and s["result"] == "1-0"


def test_i_resign_from_the_page_while_the_opponents_move_is_lit(board, fake):
    against_the_ai(board, fake, "white", plies=5)
    step_until(board, lambda s: s["show"] == LONG[5], "the AI's reply lit")
    board.act("lichess", {"op": "resign"})
    s = finished(board)
    assert s["result"] == "0-1" and s["termination"] == "resignation" and s["moves"] == LONG[:5]
    assert s["show"] is None


def test_the_opponent_offers_a_draw_and_the_board_accepts(board, fake):
    against_the_ai(board, fake, "white", plies=6)
    fake.opponent_offers_draw(board.lichess.game.id)
    step_until(board, lambda s: s["lichess"]["game"]["offer"] == "black" and board.model.status.get("offer"),
               "the offer on the page and on the board")
    board.act("send", {"line": "draw"})              # the board's draw gesture (both kings off)
    s = finished(board)
    gid = s["lichess"]["last_game"]["id"]
    assert fake.games[gid].status == "draw" and s["result"] == "1/2-1/2"


def test_i_offer_a_draw_from_the_page_and_the_opponent_accepts(board, fake):
    fake.opponent_accepts_draw = True
    against_the_ai(board, fake, "black", plies=5)
    board.act("lichess", {"op": "draw"})
    s = finished(board)
    assert s["result"] == "1/2-1/2" and s["termination"] == "agreement" and s["moves"] == LONG[:5]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_streams_cut_or_silent_at_random_points_lose_nothing(board, fake, seed):
    rng = random.Random(seed)
    color = rng.choice(["white", "black"])
    against_the_ai(board, fake, color)
    faults = set(rng.sample(range(len(LONG)), 6))

    def each(ply):
        if ply in faults:
            (fake.cut_streams if rng.random() < 0.6 else fake.stall_streams)()
    s = play(board, fake, LONG, color, each=each)
    gid = board.lichess.game.id
    assert fake.moves(gid) == LONG and s["moves"] == LONG
    assert fake.requests.count("GET /api/board/game/stream/%s" % gid) > 1    # it did read the game again
    board.act("lichess", {"op": "resign"})
    finished(board)


def test_429_waits_as_lichess_asks_and_5xx_is_retried(board, fake):
    against_the_ai(board, fake, "white", SCHOLAR)
    gid = board.lichess.game.id
    fake.fail(r"^POST /api/board/game/.*/move/", 429)
    fake.fail(r"^GET /api/board/game/stream/", 503, times=2)
    before = time.monotonic()
    play(board, fake, SCHOLAR, "white", plies=1)
    assert time.monotonic() - before >= RATE_LIMIT_WAIT
    assert any("429" in text and seconds == RATE_LIMIT_WAIT for text, seconds in board.lichess.api.waits)
    fake.cut_streams()                         # the stream reopens into two 503s, then goes on
    play(board, fake, SCHOLAR, "white")
    finished(board)
    assert fake.moves(gid) == SCHOLAR
    assert any("503" in text for text, _ in board.lichess.api.waits)


def test_a_move_lichess_refuses_is_said_and_taken_back(board, fake):
    against_the_ai(board, fake, "white", SCHOLAR)
    fake.refuse.add("e2e4")
    s = step_until(board, lambda s: s["in_sync"] and s["state"] == "idle", "my turn")
    make(board, s, "e2e4")
    s = step_until(board, lambda s: s["lichess"]["game"]["message"] and "refused" in s["lichess"]["game"]["message"]
                   and s["moves"] == [] and not s["in_sync"], "the refusal, and the move taken back")
    assert "e2e4" in s["lichess"]["game"]["message"] and "Move e2e4 refused" in s["lichess"]["game"]["message"]
    # The LEDs guide the pawn back: e4 to empty, e2 to fill.
    assert s["leds"].get("e4") and s["leds"].get("e2")
    board.act("lift", {"square": "e4"})
    board.act("place", {"square": "e2"})
    play(board, fake, SCHOLAR, "white")       # then the game goes on (the move is taken this time)
    s = finished(board)
    assert s["moves"] == SCHOLAR


def test_a_wrong_token_is_said_in_words_and_never_shown(fake, tmp_path):
    board = online(fake, tmp_path, token="lip_wrongtoken999")
    try:
        s = step_until(board, lambda s: s["lichess"]["problem"], "the refusal")
        assert "401" in s["lichess"]["problem"] and "board:play" in s["lichess"]["problem"]
        assert "lip_wrongtoken999" not in str(s)
        with pytest.raises(ActionError, match="401"):
            board.act("lichess", {"op": "ai", "level": 1, "minutes": 10, "increment": 0})
    finally:
        board.lichess.stop()


def test_a_token_without_board_play_is_refused(fake, tmp_path):
    fake.tokens["lip_readonly1234"] = "challenge:read"
    board = online(fake, tmp_path, token="lip_readonly1234")
    try:
        s = step_until(board, lambda s: s["lichess"]["problem"], "the refusal")
        assert "lacks the scope board:play" in s["lichess"]["problem"] and "challenge:read" in s["lichess"]["problem"]
    finally:
        board.lichess.stop()


def test_a_401_mid_session_stops_with_a_clear_message(board, fake):
    logged_in(board)
    fake.fail(r"^GET /api/stream/event", 401)
    fake.cut_streams()
    s = step_until(board, lambda s: s["lichess"]["problem"] and "401" in s["lichess"]["problem"], "the 401")
    assert TOKEN not in str(s)


def test_no_token_then_one_pasted_on_the_page_is_saved_0600(fake, tmp_path, monkeypatch):
    monkeypatch.delenv("LICHESS_TOKEN", raising=False)
    board = online(fake, tmp_path, token=None)
    try:
        s = step_until(board, lambda s: s["lichess"]["problem"], "the missing token")
        assert "no Lichess token" in s["lichess"]["problem"]
        with pytest.raises(ActionError, match="not a Lichess token"):
            board.act("lichess", {"op": "token", "token": "has spaces in it"})
        with pytest.raises(ActionError, match="401"):
            board.act("lichess", {"op": "token", "token": "lip_wrongtoken999"})
        assert not os.path.exists(tmp_path / "token")
        board.act("lichess", {"op": "token", "token": TOKEN})
        logged_in(board)
        path = tmp_path / "token"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and path.read_text().strip() == TOKEN
        assert lichess_token.load(str(path), environ={}) == (TOKEN, str(path))
        assert lichess_token.load(str(path), environ={"LICHESS_TOKEN": "lip_fromenv12345"})[0] == "lip_fromenv12345"
    finally:
        board.lichess.stop()


def test_a_token_pasted_on_the_page_is_never_written_through_a_planted_link(fake, tmp_path, monkeypatch):
    """Saving the token followed a symbolic link planted at its path (another user's trap, or one to
    a file the owner cares about): it wrote the token there. Now it refuses, with words."""
    monkeypatch.delenv("LICHESS_TOKEN", raising=False)
    victim = tmp_path / "bashrc"
    victim.write_text("# mine\n")
    os.symlink(victim, tmp_path / "token")
    board = online(fake, tmp_path, token=None)
    try:
        step_until(board, lambda s: s["lichess"]["problem"], "the missing token")
        with pytest.raises(ActionError, match="symbolic link"):
            board.act("lichess", {"op": "token", "token": TOKEN})
        assert victim.read_text() == "# mine\n" and os.path.islink(tmp_path / "token")
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        board.lichess.stop()


def test_a_token_file_others_can_read_is_made_private_and_said(tmp_path, caplog):
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    os.chmod(path, 0o644)
    with caplog.at_level("WARNING"):
        assert lichess_token.load(str(path), environ={}) == (TOKEN, str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert "readable by others (644): now 0600" in caplog.text and TOKEN not in caplog.text


def test_a_token_pasted_while_logged_in_replaces_the_event_stream_for_good(board, fake):
    """The old token's reader stops: it neither reopens its stream (each time knocking the new one out)
    nor leaves "no answer from Lichess" on the page."""
    logged_in(board)
    step_until(board, lambda s: fake.event_listeners, "the event stream open")
    fresh = "lip_freshtoken456"
    fake.tokens[fresh] = "board:play"
    mark = len(fake.requests)
    board.act("lichess", {"op": "token", "token": fresh})
    time.sleep(2.0)                          # the retries are 0.05-0.2 s here: ten of them at least
    opened = [r for r in fake.requests[mark:] if r == "GET /api/stream/event"]
    assert len(opened) == 1, "one stream, the new token's: %r" % fake.requests[mark:]
    s = logged_in(board)
    assert "no answer" not in (s["lichess"]["notice"] or "")
    cid = fake.send_challenge("mary")
    step_until(board, lambda s: cid in [c["id"] for c in s["lichess"]["challenges"]], "a challenge on the new stream")


@pytest.mark.parametrize("status", [404, 403, 500])
def test_a_log_in_refused_at_start_up_is_said(fake, tmp_path, status):
    fake.fail("token/test", status, 1000)
    board = online(fake, tmp_path)
    try:
        s = step_until(board, lambda s: s["lichess"]["problem"] or "answered 500" in (s["lichess"]["notice"] or ""),
                       "a word about the refused log-in")
        said = s["lichess"]["problem"] or s["lichess"]["notice"]
        assert str(status) in said and s["lichess"]["account"] is None, said
    finally:
        board.lichess.stop()


def test_incoming_challenges_accepted_or_declined(board, fake):
    logged_in(board)
    odd = fake.send_challenge("bob", variant="crazyhouse")
    cid = fake.send_challenge("mary")
    s = step_until(board, lambda s: len(s["lichess"]["challenges"]) == 2, "the challenges on the page")
    with pytest.raises(ActionError, match="chess and Chess960 only"):
        board.act("lichess", {"op": "accept", "challenge": odd})
    board.act("lichess", {"op": "decline", "challenge": odd})
    board.act("lichess", {"op": "accept", "challenge": cid})
    s = started(board)
    assert s["lichess"]["game"]["color"] == "black" and s["lichess"]["game"]["opponent"] == "Mary"
    assert s["lichess"]["challenges"] == []


def test_the_board_api_speeds():
    assert check_clock(10, 0, seek=True) == (10, 0)           # rapid
    assert check_clock(30, 20, seek=True) == (30, 20)         # classical
    with pytest.raises(ValueError, match="Rapid or Classical"):
        check_clock(5, 3, seek=True)                           # blitz: challenges and the AI only
    assert check_clock(5, 3, seek=False) == (5, 3)
    with pytest.raises(ValueError, match="bullet"):
        check_clock(1, 0, seek=False)
    with pytest.raises(ValueError, match="0 to 180"):
        check_clock(181, 0, seek=False)


def test_a_takeback_on_the_board_is_guided_back_to_the_online_game(board, fake):
    against_the_ai(board, fake, "white", plies=4)
    board.act("send", {"line": "undo"})              # a takeback behind the client's back
    s = step_until(board, lambda s: not s["in_sync"], "the knight to go back to b8")
    board.act("lift", {"square": "c6"})
    board.act("place", {"square": "b8"})
    s = step_until(board, lambda s: s["show"] == LONG[3] and s["in_sync"], "the missing move lit again")
    make(board, s, LONG[3])
    s = step_until(board, lambda s: s["moves"] == LONG[:4] and s["in_sync"], "the board back with the online game")
    play(board, fake, LONG[:6], "white")
    assert fake.moves(board.lichess.game.id) == LONG[:6]
    board.act("lichess", {"op": "resign"})
    finished(board)


def test_a_repetition_claimed_on_the_board_draws_online(board, fake):
    repeat = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()
    against_the_ai(board, fake, "white", repeat, plies=len(repeat))
    s = step_until(board, lambda s: s["in_sync"] and s["state"] == "idle", "the knights home again")
    board.act("send", {"line": "claim"})              # the board's claim (double tap on the king)
    s = finished(board)
    gid = s["lichess"]["last_game"]["id"]
    assert s["termination"] == "threefold_repetition" and fake.games[gid].status == "draw"
    assert s["lichess"]["last_game"]["status"] == "draw"


def test_a_seek_cancelled_from_the_page_ends_at_lichess(board, fake):
    logged_in(board)
    board.act("lichess", {"op": "seek", "minutes": 15, "increment": 10})
    step_until(board, lambda s: s["lichess"]["seeking"] and fake.seeks, "the seek at Lichess")
    board.act("lichess", {"op": "cancel_seek"})
    step_until(board, lambda s: s["lichess"]["seeking"] is None and not fake.seeks, "the seek gone on both sides")


def test_the_event_stream_silent_as_the_game_starts_loses_nothing(board, fake):
    logged_in(board)
    fake.next_script = SCHOLAR
    step_until(board, lambda s: fake.event_listeners, "the event stream open")
    fake.stall_streams()                     # asleep: the gameStart will not arrive on this stream
    board.act("lichess", {"op": "ai", "level": 2, "minutes": 10, "increment": 5, "color": "white"})
    started(board)                           # the stream opened again sends the games going on
    assert fake.requests.count("GET /api/stream/event") >= 2
    play(board, fake, SCHOLAR, "white")
    assert finished(board)["result"] == "1-0"


def test_a_401_mid_game_then_a_good_token_pasted_goes_on_with_the_game(board, fake):
    against_the_ai(board, fake, "white", SCHOLAR, plies=2)
    fake.fail(r"^GET /api/(stream/event|board/game/stream/)", 401, times=2)
    fake.cut_streams()
    # Both streams refused (not one, the other still to reopen: its 401 would then be the pasted token's).
    s = step_until(board, lambda s: s["lichess"]["problem"] and "401" in s["lichess"]["problem"]
                   and s["lichess"]["account"] is None and fake.faults_served(),
                   "the 401 said on both streams, and the token asked for again")
    board.act("lichess", {"op": "token", "token": TOKEN})
    play(board, fake, SCHOLAR, "white")
    assert finished(board)["result"] == "1-0"


def test_the_game_read_again_and_again_from_the_page_goes_on(board, fake):
    """The page's "re-read the game" cuts the game's stream wherever its reading is: it opens again
    (gameFull) each time, and the game goes on to its end."""
    against_the_ai(board, fake, "white", SCHOLAR, plies=2)
    for _ in range(20):
        board.act("lichess", {"op": "reread"})
        time.sleep(0.01)
    play(board, fake, SCHOLAR, "white")
    assert finished(board)["result"] == "1-0"
    assert fake.requests.count("GET /api/board/game/stream/%s" % board.state()["lichess"]["last_game"]["id"]) > 2


def test_the_old_tokens_401_after_a_new_token_was_pasted_does_not_log_out(board, fake):
    """A reader's request sent with the old token, its 401 come after the new token was pasted: the
    reader gives way (Stop), and the new token's log-in stands."""
    logged_in(board)
    client = board.lichess.api.client()[0]

    def token_pasted_while_the_request_was_on_its_way():
        board.act("lichess", {"op": "token", "token": TOKEN})
        fake.fail(r"^GET /api/account", 401)
        return client.account.get()
    with pytest.raises(Stop):
        board.lichess.api.call("reading the account", token_pasted_while_the_request_was_on_its_way,
                               alive=board.lichess.api.alive_while_token())
    assert fake.faults_served()
    s = board.state()
    assert s["lichess"]["account"] == {"id": "player", "username": "Player"} and s["lichess"]["problem"] is None


def test_a_new_game_started_on_the_board_mid_game_goes_back_to_the_online_position(board, fake):
    against_the_ai(board, fake, "white", plies=4)
    online = chess.Board()
    for uci in LONG[:4]:
        online.push_uci(uci)
    board.act("send", {"line": "new"})               # someone starts a new game on the board
    s = step_until(board, lambda s: "another game" in (s["lichess"]["game"]["message"] or "") and s["in_sync"]
                   and s["fen"] == online.fen(), "the board back at the online position")
    assert s["options"]["takeback"] is False
    play(board, fake, LONG[:8], "white")
    assert fake.moves(board.lichess.game.id) == LONG[:8]
    board.act("lichess", {"op": "resign"})
    s = finished(board)
    assert s["options"]["takeback"] is True           # the player's own setting, not the resync's


# -- the board's clocks, its archive, its draw offers (docs/lichess.md) --------------------------------

def board_archive(board):
    """The board's own archive (its journal's copy of each finished game): [PGN], oldest first."""
    with board.sim.lock:
        archive = board.sim.runner.journal.archive()
        return [archive.read(number) for number, _ in archive.games()]


def archived_online(board, fake, gid):
    """The board's archived PGN of the online game ``gid`` (its Site tag names it) once it has a result."""
    site = '[Site "%s/%s"]' % (fake.url, gid)
    found = []

    def done(s):
        found[:] = [p for p in board_archive(board) if site in p and '[Result "*"]' not in p]
        return found
    step_until(board, done, "the online game in the board's archive")
    return found[-1]


def assert_tags(pgn, result, white="Player", black="Lichess AI level 1", control="600+5"):
    for tag in ('[White "%s"]' % white, '[Black "%s"]' % black, '[Result "%s"]' % result,
                '[TimeControl "%s"]' % control, '[Event "Lichess '):
        assert tag in pgn, (tag, pgn)


def board_clock(board):
    """The board's status.clock (the firmware's own, asked now) and its display's lines."""
    board.act("send", {"line": "status"})
    with board.sim.lock:
        clocks = board.sim.runner.app.game.clocks
        now = board.sim.now
        return ({"white": clocks.left_ms(True, now), "black": clocks.left_ms(False, now),
                 "running": "-wb"[clocks.running], "host": clocks.host},
                list(board.sim.hw.display.lines) if board.sim.hw.display is not None else None)


def test_the_boards_clocks_and_display_follow_the_streams_times(board, fake):
    s = against_the_ai(board, fake, "white", plies=4)
    gid = board.lichess.game.id
    assert s["options"]["clock"] == "10+5"                     # the game's control on the board
    fake.clock_to(gid, 183000, 176000)                         # a gameState with these times: white to move
    s = step_until(board, lambda s: s["clock"] and s["clock"]["black"] == 176000 and s["state"] == "idle",
                   "Lichess's times on the board")
    clock, _ = board_clock(board)
    assert clock["host"] and clock["running"] == "w" and clock["black"] == 176000
    assert 181000 < clock["white"] <= 183000, clock            # counting down since the gameState
    assert board.model.status["clock"]["host"] is True
    s = step_until(board, lambda s: any("B 2:56" in line for line in s["display"]), "the times on the display", 10)
    line = [line for line in s["display"] if "B 2:56" in line][0]
    assert line.split()[:2] in (["W", "3:03"], ["W", "3:02"], ["W", "3:01"]), s["display"]
    # The player's move and the AI's instant reply: the board has Lichess's times after them.
    play(board, fake, LONG, "white", plies=6)
    game = fake.games[gid]
    s = step_until(board, lambda s: s["clock"]["black"] == game.btime and s["in_sync"], "the times after the reply")
    clock, lines = board_clock(board)
    assert clock["running"] == "w" and clock["black"] == game.btime and game.wtime - 2000 < clock["white"] <= game.wtime
    board.act("lichess", {"op": "resign"})
    finished(board)


def test_the_boards_flag_waits_for_lichess_which_ends_the_game_on_time(board, fake):
    against_the_ai(board, fake, "white", plies=4)
    gid = board.lichess.game.id
    fake.clock_to(gid, 300, 590000)                            # white has 0.3 s
    step_until(board, lambda s: s["clock"]["black"] == 590000, "the times on the board")
    for _ in range(100):                                       # 1 s of the board's time: its flag falls
        board.advance(10)
    clock, lines = board_clock(board)
    s = board.state()
    assert clock["white"] == 0 and clock["running"] == "-" and s["result"] == "*", (clock, s["result"])
    assert any(line.split()[:2] == ["W", "0:00"] for line in lines), lines
    assert s["lichess"]["game"]["phase"] == "play"             # the online game goes on: Lichess decides
    fake.time_out(gid)
    s = finished(board)
    assert s["result"] == "0-1" and s["termination"] == "time_forfeit"
    assert s["lichess"]["last_game"]["status"] == "outoftime"
    pgn = archived_online(board, fake, gid)
    assert_tags(pgn, "0-1") and '[Termination "time forfeit"]' in pgn and "3. Bb5 0-1" in pgn.replace("\n", " ")
    assert s["options"]["clock"] == "off" and s["options"]["profile"] == "fide"    # the player's own again


def test_the_board_archives_the_online_game_with_lichess_names_and_result(board, fake):
    s = logged_in(board)
    fake.next_script = SCHOLAR
    board.act("lichess", {"op": "ai", "level": 3, "minutes": 5, "increment": 3, "color": "white"})
    started(board)
    play(board, fake, SCHOLAR, "white")
    s = finished(board)
    gid = s["lichess"]["last_game"]["id"]
    pgn = archived_online(board, fake, gid)
    assert_tags(pgn, "1-0", black="Lichess AI level 3", control="300+3")
    assert '[Site "%s/%s"]' % (fake.url, gid) in pgn and "4. Qxf7# 1-0" in pgn and "Termination" not in pgn
    board.act("send", {"line": "pgn"})                 # the game on the board: the same names
    step_until(board, lambda s: '"re": "pgn"' in s["protocol"][-1] or '"re":"pgn"' in s["protocol"][-1], "pgn")
    assert '[White \\"Player\\"]' in board.state()["protocol"][-1]


@pytest.mark.parametrize("how", ["resign", "draw", "abandon"])
def test_the_boards_archived_result_is_lichesss(board, fake, how):
    against_the_ai(board, fake, "black", plies=5)
    gid = board.lichess.game.id
    if how == "resign":
        board.act("send", {"line": "resign"})           # the board's resignation (triple tap on the king)
        result, termination, status = "1-0", "resignation", "resign"
    elif how == "draw":
        fake.opponent_offers_draw(gid)
        step_until(board, lambda s: s["offer"] == "w", "the AI's offer on the board")
        board.act("send", {"line": "draw"})             # the board's draw gesture (both kings off)
        result, termination, status = "1/2-1/2", "agreement", "draw"
    else:
        fake.opponent_claims_victory(gid)               # the player left; the opponent claimed the win
        result, termination, status = "1-0", "abandoned", "timeout"
    s = finished(board)
    assert (s["result"], s["termination"]) == (result, termination)
    assert fake.games[gid].status == status and s["lichess"]["last_game"]["status"] == status
    pgn = archived_online(board, fake, gid)
    assert_tags(pgn, result, white="Lichess AI level 1", black="Player")
    assert ('[Termination "abandoned"]' in pgn) == (how == "abandon")


@pytest.mark.parametrize("how, words", [("resign", "Normal"), ("abandon", "Time forfeit"), ("flag", "Time forfeit")])
def test_the_saved_lichess_pgn_keeps_lichesss_termination_words(board, fake, tmp_path, how, words):
    against_the_ai(board, fake, "black", plies=5)
    gid = board.lichess.game.id
    if how == "resign":
        board.act("send", {"line": "resign"})
    elif how == "abandon":
        fake.opponent_claims_victory(gid)
    else:
        fake.time_out(gid)
    finished(board)
    path = tmp_path / "archive" / ("%s.pgn" % gid)
    step_until(board, lambda s: path.exists(), "Lichess's PGN saved")
    game = chess.pgn.read_game(open(path, encoding="utf-8"))
    assert game.headers["Termination"] == words


def double_tap(board, square):
    """Two taps on a piece (lifted and put back twice): the board's gesture."""
    for _ in range(2):
        board.act("lift", {"square": square})
        board.advance(100)
        board.act("place", {"square": square})
        board.advance(100)


@pytest.mark.parametrize("answer", ["accepts", "declines"])
def test_a_draw_offered_on_the_board_goes_to_lichess_and_the_answer_comes_back(board, fake, answer):
    against_the_ai(board, fake, "white", plies=6)
    gid = board.lichess.game.id
    fake.games[gid].script = LONG[:7]                   # the AI thinks over its reply to my next move
    play(board, fake, LONG, "white", plies=7)
    s = step_until(board, lambda s: len(s["moves"]) == 7 and s["state"] == "idle", "my 4th move made")
    double_tap(board, "e1")                             # two taps on my king on the opponent's turn: an offer
    step_until(board, lambda s: fake.games[gid].wdraw, "my offer at Lichess")
    assert board.state()["offer"] == "w" and board.state()["leds"].get("e1") == "offer"
    if answer == "accepts":
        fake.opponent_accepts_draw_offer(gid)
        s = finished(board)
        assert s["result"] == "1/2-1/2" and s["termination"] == "agreement"
        assert_tags(archived_online(board, fake, gid), "1/2-1/2")
        return
    fake.opponent_declines_draw(gid)
    s = step_until(board, lambda s: s["offer"] is None and s["lichess"]["game"]["offer"] is None,
                   "the offer off the board")
    assert s["leds"].get("e1") != "offer" and s["result"] == "*"
    fake.games[gid].script = list(LONG)
    fake._opponent_plays(fake.games[gid])
    play(board, fake, LONG, "white", plies=10)          # the game goes on
    board.act("lichess", {"op": "resign"})
    finished(board)


def test_the_opponents_threefold_claim_ends_the_boards_game_as_a_repetition(board, fake):
    repeat = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split()
    against_the_ai(board, fake, "white", repeat, plies=len(repeat))
    gid = board.lichess.game.id
    step_until(board, lambda s: s["in_sync"] and s["state"] == "idle", "the knights home again")
    fake.opponent_claims_draw(gid)
    s = finished(board)
    assert s["termination"] == "threefold_repetition" and s["result"] == "1/2-1/2"
    assert '[Result "1/2-1/2"]' in archived_online(board, fake, gid)


def test_a_clock_of_seconds_is_whole_minutes_on_the_board_with_lichesss_times(board, fake):
    logged_in(board)
    fake.next_script = LONG
    board.act("lichess", {"op": "ai", "level": 1, "minutes": 0.5, "increment": 5, "color": "white"})   # 30 s + 5
    s = started(board)
    s = step_until(board, lambda s: s["clock"] and s["clock"].get("white") == 30000, "Lichess's 30 s on the board")
    assert s["options"]["clock"] == "1+5" and s["clock"]["black"] == 30000 and s["clock"]["running"] is None
    board.act("lichess", {"op": "abort"})
    step_until(board, lambda s: s["lichess"]["game"] is None, "the game aborted")


def test_the_boards_time_control_for_lichesss_clocks():
    from host_tools.companion.lichess_game import OnlineGame
    g = OnlineGame("x", "white")
    for clock, control in (({"initial": 15000, "increment": 0}, "1+0"), ({"initial": 600000, "increment": 5000}, "10+5"),
                           ({"initial": 90000, "increment": 2000}, "2+2"), ({"initial": 0, "increment": 5000}, "1+5"),
                           ({"initial": 10800000, "increment": 180000}, "180+60"), (None, "off")):
        g.full = {"clock": clock}
        assert g.control() == control, clock


# -- lines of the wrong shape from Lichess (issue 48) -----------------------------------------------

BAD_GAME_LINES = ['[1,2,3]', 'null', '42', '{"type": "gameState", "moves": "e2e4", "wtime": 1e300}',
                  '{"type": "gameState", "wtime": "abc"}', '{"type": "gameState", "btime": [1]}',
                  '{"type": "gameState", "wtime": null, "btime": {"a": 1}}', '{"type": "gameFull", "state": 7}',
                  '{"type": "gameState", "winner": 3}', 'not json at all', '{"type": "opponentGone", "gone": "x"}']
BAD_EVENTS = ['{"type": "challenge", "challenge": {"status": "created"}}',
              '{"type": "challenge", "challenge": {"id": ["x"], "status": "created"}}',
              '{"type": "gameStart", "game": {}}', '{"type": "gameStart", "game": "abc"}', '[]', 'null']


def test_lines_of_the_wrong_shape_are_skipped_said_and_the_game_goes_on(board, fake):
    """A game-stream line [1,2,3], null or 42, a clock of 1e300, "abc" or [1]: the opponent's moves
    stopped reaching the board with no word on the page; an event without an id killed the event
    listener. Each is skipped (said on the page), and the game, its clocks and the challenges go on."""
    against_the_ai(board, fake, "white", plies=2)
    gid = board.lichess.game.id
    for line in BAD_GAME_LINES:
        fake.send_raw(line + "\n", gid)
    for line in BAD_EVENTS:
        fake.send_raw(line + "\n")
    s = step_until(board, lambda s: "skipped" in (s["lichess"]["notice"] or ""), "the skip said")
    assert "cannot read" in s["lichess"]["notice"]
    fake.clock_to(gid, 500000, 400000)                     # the stream is read on: a good line after the bad
    step_until(board, lambda s: s["lichess"]["game"]["clock"]["black"] == 400000, "the clock after the bad lines")
    s = play(board, fake, LONG, "white", plies=6)          # the opponent's moves reach the board
    assert s["moves"] == LONG[:6] and fake.moves(gid) == LONG[:6]
    fake.send_challenge(from_user="mary")                  # the event stream is alive too
    step_until(board, lambda s: s["lichess"]["challenges"], "the challenge after the bad events")


def test_a_ten_megabyte_line_is_dropped_without_stalling_the_game(board, fake):
    """A 10 MB line stalled the online game for 62 s (requests' iter_lines copies the pending line at
    each chunk: 1 MB 2 s, 4 MB 11 s). Lines are capped (64 KiB) and read in linear time."""
    against_the_ai(board, fake, "white", plies=2)
    gid = board.lichess.game.id
    fake.send_raw('{"type": "chatLine", "text": "' + "x" * 10_000_000 + '"}\n', gid)
    fake.clock_to(gid, 500000, 400000)
    started_at = time.monotonic()
    step_until(board, lambda s: s["lichess"]["game"]["clock"]["black"] == 400000, "the clock after the long line")
    read_in = time.monotonic() - started_at
    s = play(board, fake, LONG, "white", plies=4)
    assert s["moves"] == LONG[:4]
    print("a 10 MB line and the next one read in %.2f s" % read_in)


def test_an_online_game_stops_the_computer_and_keeps_its_level(board, fake):
    """Fair play: the computer opponent stands aside when a Lichess game starts (through its own
    method, not by Lichess writing its sides), its engine and level kept for the next game."""
    from host_tools.companion.engine import OWN, OWN_COMMAND
    board.play_computer([(OWN, OWN_COMMAND)])
    try:
        board.act("computer", {"sides": ["black"], "level": 2})
        against_the_ai(board, fake, "white")
        c = board.state()["computer"]
        assert c["sides"] == [] and c["level"] == 2 and c["engine"] == OWN
    finally:
        board.computer.stop()
