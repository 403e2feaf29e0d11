"""Chess clocks, draw offers and abandonment through the whole firmware: the protocol, the journal, a power cut.

The exact timing (a flag to the ms, the bonus, settle time, takebacks, an
amended castling, the offers' rationing, abandonment) is in the scenario
scripts (tests/scenarios/clock_*.txt, draw_offer_rationed.txt,
abandoned_game.txt); here, what crosses the board's edges.
"""

import pytest

from firmware_support import Board, copy_fs, MemFS
from scacchiera.time_control import parse_control
from scacchiera.rules import Position
from scacchiera.rules.material import material
from scacchiera.storage import journal as jr
from scacchiera.storage import journal_reader as jrr

from test_protocol import ask


def clocked_board(control="5+3"):
    board = Board(fs=MemFS())
    assert ask(board, "set clock %s" % control)["ok"]
    return board


def test_set_clock_reports_status_and_events():
    board = clocked_board()
    status = ask(board, "status")
    assert status["clock"] == {"control": "5+3", "white": 300000, "black": 300000, "running": None}
    assert status["options"]["clock"] == "5+3"
    board.play("e2e4")
    events = [l for l in board.lines() if l.get("ev") == "clock"]
    # White's first move is not timed but gets its bonus; black's clock started when e4 was put
    # down (the debounced change), and the event comes once the move has settled: 250 ms after e4's
    # reed closed, 220 after the debounce's 30 ms.
    assert events == [{"ev": "clock", "white": 303000, "black": 299780, "running": "b"}]
    board.wait(1000)
    clock = ask(board, "status")["clock"]
    assert clock["running"] == "b" and clock["white"] == 303000 and 298000 < clock["black"] < 299500
    assert ask(board, "set clock off")["ok"] and ask(board, "status")["clock"] is None
    assert ask(board, "status")["options"]["clock"] == "off"


@pytest.mark.parametrize("value", ["5", "5+", "+3", "0+3", "181+0", "5+61", "5+3+1", "a+b", "-5+3", 5, True])
def test_a_bad_time_control_is_refused_and_changes_nothing(value):
    board = clocked_board()
    reply = ask(board, {"cmd": "set", "name": "clock", "value": value})
    assert not reply["ok"] and reply["error"] == "refused", reply
    assert ask(board, "status")["options"]["clock"] == "5+3"


def test_parse_control():
    assert parse_control("5+3") == (300000, 3000)
    assert parse_control("90+30") == (5400000, 30000)
    assert parse_control("1+0") == (60000, 0)
    with pytest.raises(ValueError, match="M\\+S"):
        parse_control("off")


def test_hello_lists_the_clock_option_with_presets():
    board = Board()
    specs = ask(board, "hello")["option_specs"]
    assert specs["clock"]["type"] == "clock" and "5+3" in specs["clock"]["presets"]
    assert specs["offer_every"] == {"type": "int", "default": 5, "min": 1, "max": 50, "off": 0}
    assert specs["abandon_min"] == {"type": "int", "default": 0, "min": 1, "max": 240, "off": 0}


def test_a_power_cut_pauses_both_clocks_and_the_game_resumes_with_their_times():
    board = clocked_board()
    board.play("e2e4", "e7e5", "g1f3")
    clocks = board.game.clocks
    times = [clocks.after(1), clocks.after(2), clocks.after(3)]
    assert times[0] == 303000 and 300000 < times[1] < 303000 and 303000 < times[2] < 306000
    board.wait(5000)                  # black thinks 6 s: the T record at 5 s of it stands
    board.run(200)
    assert not board.runner.journal.dirty
    black = times[1] - jr.MARK_MS
    assert board.hw.fs.files[jr.JOURNAL].endswith(jr.encode("T %d" % black))
    rows = bytearray(board.hw.occupied)
    fs = copy_fs(board.hw.fs)
    # Power back with a piece knocked over (the board out of step): both clocks wait.
    rows[0] &= ~1
    again = Board(fs=fs, rows=rows)
    assert [again.game.position.uci(m) for m in again.game.position.move_stack] == ["e2e4", "e7e5", "g1f3"]
    status = ask(again, "status")
    assert status["clock"] == {"control": "5+3", "white": times[2], "black": black, "running": None}
    again.wait(3000)
    assert ask(again, "status")["clock"]["black"] == black
    # The rook back on a1: black's clock runs again from there.
    again.hw.occupied[0] |= 1
    again.wait(1000)
    clock_events = [l for l in again.lines() if l.get("ev") == "clock"]
    assert [(e["white"], e["black"], e["running"]) for e in clock_events] == [(times[2], black, "b")]
    clock = ask(again, "status")["clock"]
    assert clock["running"] == "b" and clock["white"] == times[2] and black - 1100 < clock["black"] < black - 800
    # And the times go on being saved: the next move's record carries its time.
    again.play("b8c6")
    assert again.game.clocks.after(4) > 0
    again.run(200)
    third = Board(fs=copy_fs(again.hw.fs), rows=bytearray(again.hw.occupied))
    assert third.game.clocks.after(4) == again.game.clocks.after(4)
    assert third.game.clocks.running == 1     # in step at boot: white's clock runs at once


def cut_and_boot(board):
    """The power cut now, and back with the board as it stands: the booted board."""
    return Board(fs=copy_fs(board.hw.fs), rows=bytearray(board.hw.occupied))


def test_a_power_cut_gives_back_at_most_mark_ms_of_the_running_clock():
    board = clocked_board("5+0")
    board.play("e2e4", "e7e5")
    clocks = board.game.clocks
    board.wait(7300 - (300000 - clocks.left_ms(True, board.game.now)))   # 7.3 s into white's turn
    truth = clocks.left_ms(True, board.game.now)
    assert 7300 <= 300000 - truth < 7310 and clocks.running == 1
    again = cut_and_boot(board)
    white = again.game.clocks.left_ms(True, again.game.now)
    assert truth <= white <= truth + jr.MARK_MS, (truth, white)
    assert white == 300000 - jr.MARK_MS       # the T record 5 s into the turn
    assert again.game.clocks.left_ms(False, again.game.now) == clocks.left_ms(False, board.game.now)
    # A cut every 3 s of white's thinking: each boot gives back less than MARK_MS.
    for _ in range(3):
        again.wait(3000)
        truth = again.game.clocks.left_ms(True, again.game.now)
        third = cut_and_boot(again)
        assert truth <= third.game.clocks.left_ms(True, third.game.now) <= truth + jr.MARK_MS
        again = third
    # The next move's record carries the mover's time: its T records no longer count.
    again.play("g1f3")
    again.run(200)
    moved = again.game.clocks.after(3)
    third = cut_and_boot(again)
    assert third.game.clocks.after(3) == moved
    assert third.game.clocks.left_ms(True, third.game.now) == moved


def test_the_time_left_survives_a_compaction():
    board = clocked_board("5+0")
    board.play("e2e4", "e7e5")
    journal = board.runner.journal
    journal.max_bytes = journal.size + 10     # each T record compacts the journal
    board.wait(11000)
    assert not journal.dirty
    records = jrr.read_records(board.hw.fs)[0]
    assert records[1:] == ["M e2e4 300000", "M e7e5 %d" % board.game.clocks.after(2),
                           "T %d" % (300000 - 2 * jr.MARK_MS)], records     # one T: rewritten
    again = cut_and_boot(board)
    assert again.game.clocks.left_ms(True, again.game.now) == 300000 - 2 * jr.MARK_MS


def test_nothing_is_written_between_moves_without_a_running_clock():
    board = Board(fs=MemFS())
    board.play("e2e4")
    board.run(10)
    size = board.runner.journal.size
    board.wait(12000)
    assert board.runner.journal.size == size
    clocked = clocked_board()
    clocked.wait(12000)               # a clock set, not running before the first move
    assert not [r for r in jrr.read_records(clocked.hw.fs)[0] if r[:1] == "T"]


@pytest.mark.parametrize("timed", [False, True])
def test_a_journal_written_before_the_time_records_still_replays(timed):
    """Moves without a time (before clocks) and with one (before T records), in both start formats."""
    moves = ["M e2e4 303000", "M e7e5 301500", "M g1f3 304000"] if timed else ["M e2e4", "M e7e5", "M g1f3"]
    options = '{"clock": "5+3"}'
    for start in (["S 4 fide %s;%s" % (Position.STARTING_FEN, options)] * 3,
                  ["G 4", "N fide " + Position.STARTING_FEN, 'O clock "5+3"']):
        fs = MemFS()
        fs.files[jr.JOURNAL] = bytearray(b"".join(jr.encode(r) for r in start + moves))
        rows = bytearray([0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF])
        board = Board(fs=fs, rows=rows)
        board.run(10)
        assert board.game.position.ply() == 3 and board.runner.journal.game_id == 4
        clocks = board.game.clocks
        if timed:
            assert (clocks.after(1), clocks.after(2), clocks.after(3)) == (303000, 301500, 304000)
            assert clocks.left_ms(False, board.game.now) == 301500      # black's, as after its move
        else:
            assert clocks.after(3) == -1 and clocks.left_ms(False, board.game.now) == 300000
        assert clocks.running == 0 and clocks.paused == 2               # out of step: waits for e4 e5 Nf3


def test_journal_replays_time_records():
    start = "S 1 fide %s;{}" % Position.STARTING_FEN
    times = []
    _gid, pos, _opts, used = jrr.replay([start, "M e2e4 303000", "T 295000", "T 290000"], times)
    assert used == 4 and times == [303000, 290000]
    times = []
    jrr.replay([start, "M e2e4 303000", "T 295000", "M e7e5 296000"], times)
    assert times == [303000, 296000]          # a move: the T before it no longer counts
    times = []
    jrr.replay([start, "M e2e4 303000", "M e7e5 301000", "T 290000", "U"], times)
    assert times == [303000]                  # taken back: white's clock runs again from its move
    times = []
    _gid, pos, _opts, used = jrr.replay([start, "M e2e4 303000", "T 29x", "M e7e5 301000"], times)
    assert used == 2 and times == [303000]    # a bad time: the journal stops there


def test_a_time_forfeit_is_saved_and_archived_with_its_termination():
    board = clocked_board("1+0")
    board.play("f2f3", "e7e5", "g2g4")
    board.wait(61000)                 # black never moves
    assert board.game.result == ("1-0", "time_forfeit")
    board.run(400)
    again = Board(fs=copy_fs(board.hw.fs), rows=bytearray(board.hw.occupied))
    assert again.game.result == ("1-0", "time_forfeit")
    pgn = again.runner.journal.archive().read(1)
    assert '[Termination "time forfeit"]' in pgn and '[Result "1-0"]' in pgn


def test_journal_replays_declarations_of_flags_and_abandonment():
    for record, result in (("X time w", ("0-1", "time_forfeit")), ("X time b", ("1-0", "time_forfeit")),
                           ("X abandon b", ("1-0", "abandoned")), ("X abandon w", ("0-1", "abandoned"))):
        start = "S 1 fide %s;{}" % Position.STARTING_FEN
        _gid, pos, _opts, used = jrr.replay([start, "M e2e4 303000", "M e7e5", record])
        assert used == 4 and pos.outcome() == result
    # FIDE 6.9: the flag of the side with material falls against a lone king: a draw.
    start = "S 1 fide 4k3/8/8/8/8/8/p7/4K3 w - - 0 1;{}"
    times = []
    _gid, pos, _opts, used = jrr.replay([start, "M e1d1 60000", "X time b"], times)
    assert used == 3 and pos.outcome() == ("1/2-1/2", "time_forfeit") and times == [60000]
    _gid, pos, _opts, used = jrr.replay([start.replace("fide", "casual"), "M e1d1", "X time b"])
    assert pos.outcome() == ("1-0", "time_forfeit")


def test_journal_times_follow_takebacks_amendments_and_a_new_time_control():
    start = "S 1 fide %s;{}" % Position.STARTING_FEN
    times = []
    jrr.replay([start, "M e2e4 303000", "M e7e5 301000", "U", "M c7c5 299000", "M g1f3 302000",
               "U", "A f2f4 301500"], times)
    assert times == [303000, 299000]
    times = []
    jrr.replay([start, "M e2e4 303000", 'O clock "10+0"', "M e7e5 599000"], times)
    assert times == [-1, 599000]
    _gid, _pos, _opts, used = jrr.replay([start, "M e2e4 3x3"])
    assert used == 1                  # a bad time: the record does not apply


def test_status_material_follows_captures():
    board = Board()
    board.play("e2e4", "d7d5", "e4d5")
    assert ask(board, "status")["material"] == {"w": 40, "b": 39}
    assert material(Position("4k3/8/8/8/8/8/8/QRBNK3 w - - 0 1")) == [21, 0]


def test_board_offer_shown_then_accepted_by_the_host():
    board = Board()
    board.play("e2e4")
    board.lines()
    for _ in range(2):                # two taps on white's own king during black's turn
        board.hands.lift(4)
        board.hands.place(4)
    board.wait(900)
    assert {"ev": "offer", "by": "w"} in board.lines()
    assert ask(board, "status")["offer"] == "w"
    assert "offer" in ask(board, "leds")["frame"].values()
    assert ask(board, "draw")["termination"] == "agreement"


def test_clocks_run_in_scacchi_sprint_beside_its_hourglass():
    from host_tools.hands import Hands

    hands = Hands(variant="sprint", seed=4)
    hands.run("set clock 1+0\n"
              "place c3\nwait 100\nlift c3\nwait 150\nplace c3\nwait 150\nwait 1600\n"   # 1. P@c3
              "place b5\nwait 100\nwait 300\n")                                           # 2. P@b5
    assert hands.moves() == ["P@c3", "P@b5"]
    clocks = hands.app.game.clocks
    # The first placement is not timed; black's took from c3's last placement (put back after the
    # tap, debounced at t = 295) to b5's (t = 2050), though P@c3 settled only at t = 1795.
    assert clocks.after(1) == 60000 and clocks.after(2) == 60000 - (2050 - 295)
    assert clocks.running == 1 and hands.clock()[2] == "w"


def test_has_insufficient_material_is_python_chess():
    """FIDE 6.9's test for a flag fall, compared with python-chess on random sparse positions."""
    import random

    import chess
    from scacchiera.rules.material import has_insufficient_material

    rng = random.Random(13)
    compared = 0
    while compared < 3000:
        board = chess.Board(None)
        squares = rng.sample(range(64), 6)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:2 + rng.randint(0, 4)]:
            piece = chess.Piece(rng.choice([1, 2, 2, 3, 3, 3, 4, 5]), rng.choice([True, False]))
            if piece.piece_type != chess.PAWN or chess.square_rank(sq) not in (0, 7):
                board.set_piece_at(sq, piece)
        board.turn = rng.choice([True, False])
        if not board.is_valid():
            continue
        pos = Position(board.fen())
        for color in (chess.WHITE, chess.BLACK):
            assert has_insufficient_material(pos, 0 if color else 1) == board.has_insufficient_material(color), \
                (board.fen(), color)
            compared += 1


def test_a_sprint_flag_is_a_loss_while_tiles_remain():
    from scacchiera.rules.material import flag_fall
    from scacchiera.rules.sprint import SprintPosition

    pos = SprintPosition(seed=4)        # kings only on the board, every tile still to come
    flag_fall(pos, 1)
    assert pos.outcome() == ("1-0", "time_forfeit")


def test_the_computers_clock_stops_when_it_announces_its_move():
    """The host's computer plays Black: its clock stops at its ``show`` (the move is decided there),
    nobody's runs while the hands make it, and White's starts when it is made, with Black's bonus."""
    board = clocked_board()
    assert ask(board, "set opponent host")["ok"] and ask(board, "set engine_side b")["ok"]
    board.play("e2e4")
    board.wait(2000)                                 # the computer thinks for 2 s
    shown = ask(board, "show e7e5")
    assert shown["ok"], shown
    clock = ask(board, "status")["clock"]
    held = clock["black"]
    assert clock["running"] is None and 297000 <= held <= 298000, clock
    board.wait(5000)                                 # the hands take 5 s to make it: not the computer's time
    assert ask(board, "status")["clock"]["black"] == held
    board.play("e7e5")
    clock = ask(board, "status")["clock"]
    # White's clock started when e5 was put down (the settle time since), not at the announcement.
    assert clock["running"] == "w" and clock["black"] == held + 3000 and 302000 <= clock["white"] < 303000, clock


def test_a_withdrawn_announcement_runs_the_computers_clock_again_and_a_persons_show_stops_nothing():
    board = clocked_board()
    assert ask(board, "set opponent host")["ok"] and ask(board, "set engine_side b")["ok"]
    board.play("e2e4")
    assert ask(board, "show e7e5")["ok"]
    assert ask(board, "status")["clock"]["running"] is None
    assert ask(board, "unshow")["ok"]
    assert ask(board, "status")["clock"]["running"] == "b"
    # Between two people a shown move (a hint from an older host) is nobody's announcement.
    people = clocked_board()
    people.play("e2e4")
    assert ask(people, "show e7e5")["ok"]
    assert ask(people, "status")["clock"]["running"] == "b"
