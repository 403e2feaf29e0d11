"""The board's engine on the board (issue 15): a side played by it, the host as opponent, hints.

Each test drives a board booted on FakeHardware (the real main loop with its
parts: the engine searches one slice after each scan) through the serial
protocol and the hands, as a player and a host would.
"""

import chess
import pytest

from firmware_support import Board, rows_of
from scacchiera.leds.names import meanings
from scacchiera.engine import LEVELS
from scacchiera.rules import parse_square

# Out of the book (a Giuoco Pianissimo with a3 and a6 thrown in): the engine must search.
MIDGAME = "r1bqk2r/1ppp1ppp/p1n2n2/2b1p3/2B1P3/P2P1N2/1PP2PPP/RNBQK2R w KQkq - 0 6"
BLACK_TO_MOVE = "r1bqk2r/1ppp1ppp/p1n2n2/2b1p3/2B1P3/P1NP1N2/1PP2PPP/R1BQK2R b KQkq - 1 6"


def board_at(fen):
    board = Board()
    board.send("new " + fen)
    board.hw.occupied[:] = rows_of(fen)
    board.wait(600)
    assert board.game.in_sync()
    board.lines()
    return board


def ask(board, line, steps=4):
    board.send(line, steps)
    replies = board.replies()
    assert len(replies) == 1, replies
    return replies[0]


def lift(board, square):
    board.hands.lift(parse_square(square))


def place(board, square):
    board.hands.place(parse_square(square))


def leds(board):
    return meanings(board.runner.app.compose())


def follow(board, uci, limit_ms=3000):
    """The hands play ``uci``; run until the board has taken it (a capture settles longer)."""
    ply = board.game.position.ply()
    board.play(uci)
    for _ in range(limit_ms // 50):
        if board.game.position.ply() != ply:
            return
        board.wait(50)
    raise AssertionError("the board did not take %s" % uci)


def wait_for_engine(board, limit_ms=120000):
    """Run until the engine has shown its move; the lines sent meanwhile."""
    lines = []
    for _ in range(limit_ms // 50):
        board.wait(50)
        lines += board.lines()
        if board.game.tracker.required >= 0 or board.game.result is not None:
            board.wait(50)                      # the event's line goes out at the next scan
            return lines + board.lines()
    raise AssertionError("the engine did not answer")


def test_the_engine_plays_black_to_the_end_of_the_game():
    fen = "3qk2r/8/8/8/8/8/7P/K7 w k - 0 1"
    board = board_at(fen)
    assert ask(board, "set opponent engine 6")["value"] == "engine 6"
    assert board.runner.engine.level == 6 and not board.runner.engine.thinking
    status = ask(board, "status")
    assert status["options"]["opponent"] == "engine 6" and status["options"]["engine_side"] == "b"
    oracle = chess.Board(fen)
    while not oracle.is_game_over():
        move = min(oracle.legal_moves, key=lambda m: m.uci())     # the hands: a dull but legal player
        follow(board, move.uci())
        oracle.push(move)
        if oracle.is_game_over():
            break
        lines = wait_for_engine(board)
        assert {"ev": "thinking", "level": 6} in lines
        shown = [l["uci"] for l in lines if l.get("ev") == "engine_move"]
        assert len(shown) == 1
        assert leds(board)[shown[0][:2]] == "show-from" and leds(board)[shown[0][2:4]] == "show-to"
        follow(board, shown[0])                                     # the hands follow the LEDs
        reply = chess.Move.from_uci(shown[0])
        assert reply in oracle.legal_moves
        oracle.push(reply)
        assert board.game.position.fen() == oracle.fen()
    assert oracle.is_checkmate() and oracle.turn == chess.WHITE, oracle.fen()
    assert board.game.result == ("0-1", "checkmate")
    assert len(oracle.move_stack) < 40


def test_while_it_thinks_the_board_scans_guides_a_lifted_piece_and_takes_no_move_for_it():
    board = board_at(MIDGAME)
    ask(board, "set opponent engine 6")
    follow(board, "e1g1")
    board.run(4)
    engine = board.runner.engine
    assert engine.thinking
    scans = board.runner.scans
    lift(board, "f6")                      # a black knight in the hand: its moves lit
    board.wait(100)
    assert engine.thinking, "the search is sliced: still going"
    assert board.runner.scans - scans >= 20     # 5 ms scans went on meanwhile
    lit = leds(board)
    assert lit["f6"] == "lifted" and lit["e4"] == "legal-capture" and lit["g4"] == "legal"
    place(board, "g4")                     # black's move, but the engine's turn: not taken
    board.wait(800)
    assert board.game.position.ply() == 1 and leds(board).get("g4") == "error"
    lift(board, "g4")
    place(board, "f6")
    lines = wait_for_engine(board)
    uci = [l["uci"] for l in lines if l.get("ev") == "engine_move"][0]
    assert not engine.thinking
    other = next(m for m in chess.Board(board.game.position.fen()).legal_moves if m.uci() != uci)
    board.play(other.uci())                     # not the engine's move: refused
    assert board.game.position.ply() == 1
    lift(board, other.uci()[2:4])
    place(board, other.uci()[:2])
    board.wait(800)
    follow(board, uci)
    assert board.game.position.ply() == 2


def test_the_engine_plays_white_and_stops_a_search_the_hands_made_stale():
    board = board_at(MIDGAME)
    ask(board, "set engine_side w")
    ask(board, "set opponent engine 2")
    board.run(4)
    assert board.runner.engine.thinking
    ask(board, "new " + BLACK_TO_MOVE)          # the position changes under the search
    board.wait(100)
    board.hw.occupied[:] = rows_of(BLACK_TO_MOVE)
    board.wait(3000)
    assert not board.runner.engine.thinking, "the stale search was stopped"
    assert board.game.tracker.required < 0, "black's turn: the hands'"
    assert not any(l.get("ev") == "engine_move" for l in board.lines())
    follow(board, "d7d6")
    lines = wait_for_engine(board)
    assert any(l.get("ev") == "engine_move" for l in lines)


def test_a_search_that_allocates_under_the_heap_lock_starts_again_unlocked_with_the_same_move():
    """On MicroPython the slices run with the heap locked (opponent._slice): a search that allocated
    there would raise MemoryError mid-node. The part starts the same search again without the lock,
    so the board still answers, with the move the same budget gives."""
    expected = wait_for_engine(_engine_plays_white())
    moves = [l["uci"] for l in expected if l.get("ev") == "engine_move"]
    board = _engine_plays_white()
    part = board.runner.engine
    engine = part.engine
    real_step = engine.step
    calls = []

    def step_that_fails_once(budget, clock=None, until=0):
        calls.append(budget)
        if len(calls) == 3:                     # mid-search, as an allocation under the lock would
            raise MemoryError("memory allocation failed, heap is locked")
        return real_step(budget, clock, until)

    engine.step = step_that_fails_once
    lines = wait_for_engine(board)
    assert not part.locked, "the rest of the search runs unlocked"
    assert [l["uci"] for l in lines if l.get("ev") == "engine_move"] == moves
    assert not any(l.get("ev") == "crash" for l in lines)


def test_a_slice_runs_until_the_next_scan_is_due_and_the_loop_then_scans_every_2_5_ms():
    """The engine has the time between a step's end and the next scan (runner.due_us), less
    opponent.NODE_US; a clock that stands still through a node (the simulator's) gives it one node a scan."""
    from scacchiera.opponent import NODE_US
    from scacchiera.runner import PERIOD_US, SEARCH_PERIOD_US
    board = _engine_plays_white()
    runner = board.runner
    part = runner.engine
    engine = part.engine
    nodes = engine.nodes
    board.run(10)
    # the simulator's clock stands still in a step: the slice ends at the fourth move made, about the
    # board's nodes a scan (one more when an iteration ends in it: the root is entered again)
    assert 40 <= engine.nodes - nodes <= 50, engine.nodes - nodes

    class Clock:
        """Microseconds that pass by 90 at each reading (a node reads it once)."""
        def __init__(self, us):
            self.us = us
            self.read = []

        def __call__(self):
            self.us = (self.us + 90) & 0x3FFFFFFF
            self.read.append(self.us)
            return self.us

    now = 0x3FFFFFFF - 1000              # the slice's end is past the ticks' wrap
    clock = part.clock = Clock(now)
    runner.due_us = (now + 2500) & 0x3FFFFFFF
    nodes = engine.nodes
    part.scan(runner, board.hw.ticks_ms())
    until = (runner.due_us - NODE_US) & 0x3FFFFFFF
    searched = engine.nodes - nodes
    # one reading as the slice begins, then one after each move made (2,500 - NODE_US us at 90 a
    # reading: 28 readings at NODE_US 50); the last the first at or past until. A node a move made,
    # and a few entered again with no reading: the root when an iteration ends, a move searched again
    # when its reduced or null-window search beat alpha (this position's slice has two or three of them)
    reads = -(-(2500 - NODE_US) // 90)
    assert len(clock.read) == reads and reads - 1 <= searched <= reads + 3, (searched, clock.read)
    assert (clock.read[-1] - until) & 0x3FFFFFFF < 90 and (until - clock.read[-2]) & 0x3FFFFFFF <= 90
    assert runner.searching and engine.nodes < LEVELS[2][2]

    part.clock = board.hw.ticks_us
    runner.period_us = PERIOD_US         # the board's own pace (these tests' boards scan every 5 ms)
    start = board.hw.ticks_ms()
    board.run(40)                        # searching: a scan every 2.5 ms
    assert board.hw.ticks_ms() - start == 40 * SEARCH_PERIOD_US // 1000
    wait_for_engine(board)
    start = board.hw.ticks_ms()
    board.run(40)                        # the search over: every 2 ms again
    assert board.hw.ticks_ms() - start == 40 * PERIOD_US // 1000


def _engine_plays_white():
    board = board_at(MIDGAME)
    ask(board, "set engine_side w")
    ask(board, "set opponent engine 2")
    board.run(2)
    assert board.runner.engine.thinking and board.runner.engine.locked
    return board


def test_person_again_drops_the_engine_and_the_hands_play_both_sides():
    board = board_at(MIDGAME)
    ask(board, "set opponent engine 3")
    follow(board, "e1g1")
    wait_for_engine(board)
    assert board.game.tracker.required >= 0
    ask(board, "set opponent person")               # its move shown is not asked for any more
    assert board.game.tracker.required < 0
    board.send("undo")
    board.hw.occupied[:] = rows_of(MIDGAME)
    board.wait(600)
    assert board.runner.engine is None
    follow(board, "e1g1")
    follow(board, "d7d6")
    assert board.game.position.ply() == 2


def test_person_again_while_the_engines_move_is_shown_runs_its_clock_again():
    """The engine's move announced stops its clock (docs/rules.md, "Chess clocks"); "set opponent
    person" withdraws the move (the game's ``unshow_move``), and the clock of the side to move runs
    again: before, it stayed stopped with no one to move for it."""
    from scacchiera.game.clocks import BLACK_RUNS, STOPPED
    board = board_at(MIDGAME)
    ask(board, "set clock 5+0")
    ask(board, "set opponent engine 3")
    follow(board, "e1g1")
    assert board.game.tracker.hold                  # the engine's turn: the hands' moves wait
    wait_for_engine(board)
    clocks = board.game.clocks
    assert board.game.tracker.required >= 0 and not board.game.tracker.hold
    assert (clocks.running, clocks.held) == (STOPPED, BLACK_RUNS)
    ask(board, "set opponent person")
    assert board.game.tracker.required < 0 and not board.game.tracker.hold
    assert (clocks.running, clocks.held) == (BLACK_RUNS, STOPPED)
    follow(board, "d7d6")                           # a person's move for Black, timed as one
    assert board.game.position.ply() == 2 and clocks.running != BLACK_RUNS


def test_the_host_as_opponent_the_board_waits_for_its_show():
    board = Board()
    ask(board, "set opponent host")
    assert board.runner.engine is None
    board.play("e2e4")
    board.play("e7e5")                          # not taken: the host plays black
    assert board.game.position.ply() == 1
    lift(board, "e5")
    place(board, "e7")
    board.wait(800)
    assert ask(board, "show c7c5")["ok"]
    board.play("c7c5")
    assert board.game.position.ply() == 2


def test_a_level_out_of_range_or_a_bad_word_is_refused_and_changes_nothing():
    board = Board()
    for line in ("set opponent engine 8", "set opponent engine", "set opponent robot", "set engine_side x"):
        reply = ask(board, line)
        assert not reply["ok"] and reply["error"] == "refused", reply
    assert board.runner.opponent == "person" and board.runner.engine is None


def test_the_opponent_is_saved_and_comes_back_after_a_power_cut():
    board = Board()
    ask(board, "set opponent engine 4")
    ask(board, "set engine_side w")
    again = Board(fs=board.hw.fs)
    assert again.runner.opponent == "engine 4" and again.runner.engine.level == 4
    assert again.runner.engine_side == "w"


# -- hints ----------------------------------------------------------------------------------

def test_suggest_lights_the_engines_best_move_without_enforcing_it():
    board = board_at(MIDGAME)
    reply = ask(board, "suggest")
    assert reply["ok"] and reply["thinking"]
    events = []
    for _ in range(2400):
        board.wait(50)
        events += [l for l in board.lines() if l.get("ev") == "suggest"]
        if events:
            break
    uci = events[0]["uci"]
    assert chess.Move.from_uci(uci) in chess.Board(MIDGAME).legal_moves
    lit = leds(board)
    assert lit[uci[:2]] == "suggest-from" and lit[uci[2:4]] == "suggest-to"
    other = next(m.uci() for m in chess.Board(MIDGAME).legal_moves if m.uci()[:2] != uci[:2])
    follow(board, other)                        # a hint, not an order
    assert "suggest-from" not in leds(board).values()


def test_the_hosts_suggestion_is_shown_the_same_way_and_off_means_off():
    board = Board()
    assert ask(board, "suggest g1f3")["uci"] == "g1f3"
    assert [l for l in board.lines() if l.get("ev") == "suggest"] == []   # taken by ask()
    assert leds(board)["g1"] == "suggest-from"
    assert not ask(board, "suggest e2e5")["ok"]
    ask(board, "set suggest off")
    assert "suggest-from" not in leds(board).values()
    for line in ("suggest", "suggest e2e4"):
        reply = ask(board, line)
        assert not reply["ok"] and "off" in reply["message"]


def test_a_single_tap_on_ones_king_asks_the_engine_for_a_hint():
    board = board_at(MIDGAME)
    lift(board, "e1")
    board.wait(200)
    place(board, "e1")
    suggested = []
    for _ in range(2400):
        board.wait(50)
        suggested += [l for l in board.lines() if l.get("ev") in ("suggest_asked", "suggest")]
        if any(l["ev"] == "suggest" for l in suggested):
            break
    assert [l["ev"] for l in suggested] == ["suggest_asked", "suggest"]
    assert board.game.position.ply() == 0


def test_a_stronger_level_never_searches_less_or_deeper_with_more_noise():
    for weaker, stronger in zip(LEVELS[1:], LEVELS[2:]):
        assert weaker[0] <= stronger[0] and weaker[1] >= stronger[1] and weaker[2] < stronger[2]


def tap(board, square, times):
    for _ in range(times):
        lift(board, square)
        board.wait(150)
        place(board, square)
        board.wait(150)
    board.wait(1000)


def test_taps_on_a_rook_before_the_first_move_choose_who_plays_its_side():
    board = Board()
    board.wait(600)
    tap(board, "h8", 5)                         # 5 taps: the engine, level 3, plays black
    assert (board.runner.opponent, board.runner.engine_side) == ("engine 3", "b")
    assert board.runner.engine.level == 3
    tap(board, "a1", 1)                         # one tap: a piece adjusted, nothing
    assert board.runner.opponent == "engine 3"
    tap(board, "a1", 8)                         # 8 taps: level 6 plays white (and moves at once)
    assert (board.runner.opponent, board.runner.engine_side) == ("engine 6", "w")
    lines = wait_for_engine(board)
    assert any(l.get("ev") == "engine_move" for l in lines)
    board.send("unshow")
    tap(board, "h1", 2)                         # 2 taps: a person again
    assert board.runner.opponent == "person" and board.runner.engine is None


def test_rook_taps_after_the_first_move_change_nothing():
    board = Board()
    follow(board, "e2e4")
    tap(board, "a8", 4)
    assert board.runner.opponent == "person"


def test_a_hands_script_in_the_simulator_plays_the_engine_to_its_mate():
    """tests/scenarios/firmware/engine_mates.txt through ``python -m host_tools.sim --script``."""
    import json
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script",
                          os.path.join(root, "tests", "scenarios", "firmware", "engine_mates.txt"), "--json"],
                         capture_output=True, text=True, cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["moves"] == ["f2f3", "b8c6", "g2g4", "e7e6", "a2a3", "d8h4"]
    assert (result["result"], result["termination"]) == ("0-1", "checkmate")
    assert '{"uci": "d8h4", "ev": "engine_move"}' in result["protocol"]


@pytest.mark.parametrize("how", ["the host's undo", "the undo button"])
def test_a_takeback_against_the_engine_goes_back_to_the_players_turn_and_play_goes_on(how):
    """Taking back the engine's reply alone handed it the move again ("Black to move"); both plies go."""
    board = Board()
    ask(board, "set opponent engine 1")
    follow(board, "e2e4")
    shown = [l["uci"] for l in wait_for_engine(board) if l.get("ev") == "engine_move"]
    follow(board, shown[0])
    assert board.game.position.ply() == 2
    if how == "the undo button":
        board.hw.press("undo")
        board.wait(100)
        board.hw.press("undo", False)
        board.wait(100)
    else:
        assert ask(board, "undo")["ply"] == 0
    assert board.game.position.ply() == 0 and board.game.position.turn == 0, "White, the player, to move"
    board.hw.set_squares(list(range(16)) + list(range(48, 64)))      # the hands put both moves back
    board.wait(600)
    assert board.game.in_sync()
    follow(board, "d2d4")
    shown = [l["uci"] for l in wait_for_engine(board) if l.get("ev") == "engine_move"]
    assert len(shown) == 1, "the engine answers the new move"
    follow(board, shown[0])
    assert board.game.position.ply() == 2


def test_a_takeback_against_the_hosts_computer_goes_back_to_the_players_turn():
    board = Board()
    ask(board, "set opponent host")
    follow(board, "e2e4")
    assert ask(board, "show e7e5")["ok"]
    follow(board, "e7e5")
    assert ask(board, "undo")["ply"] == 0
    assert board.game.position.turn == 0


def test_the_boards_engine_is_refused_in_a_sprint_game_with_words():
    board = Board()
    assert ask(board, {"cmd": "new", "variant": "sprint", "seed": 3})["ok"]
    reply = ask(board, "set opponent engine 3")
    assert reply["error"] == "refused" and "chess only" in reply["message"]
    assert board.runner.opponent == "person" and board.runner.engine is None


# -- draw offers: the engine answers the person's (issue 48) ----------------------------------

LOST_FOR_BLACK = "k7/8/8/8/8/8/3QQ3/4K3 w - - 0 1"     # two queens up for White, the person


def _offer_after(board, uci, how):
    """The person plays ``uci`` and offers a draw: the host's ``offer`` or two taps on their king.
    The lines the board sent meanwhile."""
    follow(board, uci)
    board.lines()
    if how == "host":
        board.send("offer w")
        return board.lines()
    king = board.game.position.king_square(0)
    for _ in range(2):
        board.hands.lift(king)
        board.wait(60)
        board.hands.place(king)
        board.wait(60)
    board.wait(800)                               # the taps' gesture is complete after 700 ms
    return board.lines()


def _engine_answers(fen, uci, how):
    """The board's engine (level 6: its search outlasts the taps' gesture, as on the board) plays
    Black from ``fen``; the person plays ``uci`` and offers a draw (``how``); the board and what it
    sent until the engine had answered."""
    board = board_at(fen)
    ask(board, "set opponent engine 6")
    lines = _offer_after(board, uci, how)
    return board, lines + wait_for_engine(board)


@pytest.mark.parametrize("how", ["host", "taps"])
def test_the_engine_takes_a_draw_when_it_stands_worse(how):
    board, lines = _engine_answers(LOST_FOR_BLACK, "d2d3", how)
    assert {"ev": "offer", "by": "w"} in lines
    assert board.game.result == ("1/2-1/2", "agreement"), lines
    assert not any(l.get("ev") == "engine_move" for l in lines), "it took the draw instead of moving"


@pytest.mark.parametrize("how", ["host", "taps"])
def test_the_engine_declines_a_draw_in_a_level_position_and_plays_on(how):
    board, lines = _engine_answers(MIDGAME, "e1g1", how)
    assert {"ev": "offer_declined", "by": "b"} in lines, lines
    assert board.game.result is None and board.game.offer == -1
    assert [l["ev"] for l in lines if l.get("ev") in ("offer_declined", "engine_move")] == \
        ["offer_declined", "engine_move"], "its answer comes with its move"
    assert "offer" not in leds(board).values()


def test_against_the_engine_the_person_cannot_accept_their_own_offer_nor_agree_alone():
    board = board_at(MIDGAME)
    ask(board, "set opponent engine 4")
    reply = ask(board, "draw")
    assert reply["error"] == "refused" and "offer one, it answers" in reply["message"]
    follow(board, "e1g1")
    assert ask(board, "offer w")["ok"]
    for line in ("draw", "draw w", "decline", "decline w"):
        reply = ask(board, line)
        assert reply["error"] == "refused" and "White offered this draw" in reply["message"], (line, reply)
    assert board.game.result is None


def test_both_kings_off_against_the_engine_offer_the_draw_it_answers():
    board = board_at(LOST_FOR_BLACK)
    ask(board, "set opponent engine 6")          # its search outlasts the gesture, as on the board
    follow(board, "d2d3")
    for square in ("e1", "a8"):
        lift(board, square)
    board.wait(1200)
    lines = board.lines()
    assert {"ev": "offer", "by": "w"} in lines
    assert board.game.result is None, "not a draw by agreement with one player's hands"
    for square in ("e1", "a8"):
        place(board, square)
    lines = wait_for_engine(board)
    assert board.game.result == ("1/2-1/2", "agreement"), lines
