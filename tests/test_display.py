"""The optional display and its menu (scacchiera/display/): the screen of every state, the menu by buttons.

The simulated board runs the whole firmware loop with a FakeDisplay in the
panel's place, so these screens are what the Pico would draw; the menu is
driven by the hands' ``press`` steps, as a player's fingers would.
"""

import json
import os
import subprocess
import sys

import pytest

from host_tools import _paths  # noqa: F401
from mpy_runner import needs_micropython, run_micropython
from host_tools.sim.device import SimBoard, FirmwareHands
from scacchiera.display import screen
from scacchiera.display import COLS, ROWS, clock_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def play(board, *moves, wait=600):
    for mv in moves:
        board.lift(mv[:2])
        if len(mv) > 4:
            board.wait(50)
        board.place(mv[2:4])
        board.wait(wait)


def lines(board):
    return list(board.hw.display.lines)


def icons(board):
    return board.display_state()["display_icons"]


class FakeClocks:
    """The clocks helper's device interface (docs: INTERFACES): on, running, left_ms(white, now)."""

    def __init__(self, white, black, running):
        self.on = True
        self.since = 0               # when the running clock started (the journal marks its time from it)
        self.low = False             # the last 10 s (leds/frame.py pulses the king then)
        self.running = running
        self.white, self.black = white, black

    def left_ms(self, white, now):
        return self.white if white else self.black


class FakeEngine:
    def __init__(self, level):
        self.thinking = True
        self.level = level


class TestGameScreen:
    def test_start(self):
        b = SimBoard()
        b.wait(300)
        assert lines(b)[:3] == ["no clock", "White to move", ""]
        assert icons(b)[1] == "white-turn"
        assert all(len(line) <= COLS for line in lines(b)) and len(lines(b)) == ROWS

    def test_last_move_in_english_and_italian(self):
        b = SimBoard()
        play(b, "e2e4", "e7e5", "g1f3")
        assert lines(b)[1:3] == ["Black to move", "2. Nf3"]
        assert icons(b)[1] == "black-turn"
        b.send("set lang it")
        b.wait(300)
        assert lines(b)[1:3] == ["Muove il Nero", "2. Cf3"]
        play(b, "b8c6")
        assert lines(b)[2] == "2... Cc6"

    def test_check_and_mate(self):
        b = SimBoard("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        play(b, "a1a8")
        assert lines(b)[1:3] == ["Black in check", "1. Ra8+"]
        assert icons(b)[1] == "check"
        b = SimBoard("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        play(b, "a1a8")
        assert lines(b)[1:4] == ["White wins", "checkmate", "1. Ra8#"]
        assert icons(b)[1] == "flag"

    def test_resignation_and_draw_results(self):
        b = SimBoard()
        b.send("resign")
        b.wait(300)
        assert lines(b)[1:3] == ["Black wins", "resignation"]
        b = SimBoard()
        b.send("draw")
        b.wait(300)
        assert lines(b)[1:3] == ["Draw 1/2-1/2", "agreement"]
        b = SimBoard("4k3/8/8/8/8/8/8/4K2B w - - 0 1")    # king and bishop against king: dead at once
        b.wait(300)
        assert lines(b)[1:3] == ["Draw 1/2-1/2", "no mating force"]

    def test_pending_promotion(self):
        b = SimBoard("8/P6k/8/8/8/8/8/K7 w - - 0 1")
        b.lift("a7")
        b.place("a8")
        b.wait(350)       # the board still 250 ms, the screen composed, then sent a line a tick (4 lines)
        assert b.app.game.tracker.state == 2, "settling the promotion"
        assert lines(b)[3] == "Promote: queen"
        b.send("promote n")
        b.wait(250)
        assert lines(b)[3] == "Promote: knight"

    def test_wrong_placement_in_words(self):
        b = SimBoard()
        b.lift("g1")
        b.place("g4")
        b.wait(600)
        assert lines(b)[3:6] == ["Wrong placement:", "g1: no knight", "g4: wrong square"]
        b.send("set lang it")
        b.wait(300)
        assert lines(b)[3:6] == ["Posa errata:", "g1 manca cavallo", "g4: casa errata"]

    def test_out_of_sync_in_words(self):
        b = SimBoard()
        b.send("new rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
        b.wait(300)
        assert lines(b)[3:6] == ["Board differs:", "d2: remove piece", "d4: pawn missing"]
        b.send("new 4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        b.wait(300)
        assert lines(b)[3:5] == ["Board differs:", "b1: remove piece"]
        assert lines(b)[7] == "+26 more", "29 squares to clear, 3 listed"

    def test_sprint_tile_to_place(self):
        b = SimBoard(variant="sprint", seed=7)
        b.wait(300)
        drawn = b.app.game.position.drawn_tile()
        if drawn:
            assert lines(b)[3] == "Place a " + screen.piece_name(screen.words("en"), drawn)
        else:
            assert lines(b)[3] == ""

    def test_clocks_engine_and_offer(self):
        b = SimBoard()
        b.app.game.clocks = FakeClocks(299000, 3600000, 1)
        b.runner.engine = FakeEngine(3)
        b.send("offer")
        b.wait(300)
        assert lines(b)[0] == "W 4:59 B 1:00:00"
        assert lines(b)[6:8] == ["Engine 3: ...", "Black: draw?"], "the forms that fit beside the icon"
        assert icons(b)[6:8] == ["thinking", "offer"]
        before = b.hw.display.shows
        b.app.game.clocks.white = 298000          # a second passes on White's clock
        b.wait(300)
        assert lines(b)[0] == "W 4:58 B 1:00:00" and b.hw.display.shows == before + 1

    def test_clock_text(self):
        assert [clock_text(ms) for ms in (0, -5, 1, 59999, 60000, 3599000, 3600000)] == \
            ["0:00", "0:00", "0:01", "1:00", "1:00", "59:59", "1:00:00"]

    def test_status_reports_the_display(self):
        b = SimBoard()
        b.wait(300)
        b.send("status")
        status = json.loads(b.protocol[-1])
        assert status["display"] == lines(b)

    def test_the_fake_hardware_has_the_buttons_of_board_config(self):
        import board_config
        from fakehal import FakeHardware
        assert list(FakeHardware.button_names) == [name for name, _pin in board_config.BUTTONS]

    def test_without_a_panel_nothing_changes(self):
        hands = FirmwareHands(display=False)
        assert hands.runner.display is None and hands.runner.menu is None
        hands.send("status")
        assert "display" not in json.loads(hands.protocol[-1])


class TestRedraws:
    def test_quiet_board_draws_nothing_and_a_move_redraws_few_lines(self):
        b = SimBoard()
        b.wait(500)
        shows, pages = b.hw.display.shows, b.hw.display.pages
        b.wait(3000)
        assert b.hw.display.shows == shows, "nothing changed: no redraw"
        play(b, "e2e4")
        assert b.hw.display.pages - pages == 2, "the turn and the last move: two of the panel's pages"

    def test_a_host_that_only_reads_makes_no_redraw(self):
        """A host polling status (the companion does after each event) must not make the display compose
        its whole screen again: on the RP2040 that is ~37 ms of slices and ~7 KB of garbage each time."""
        b = SimBoard()
        b.wait(500)
        part = b.runner.display
        composed = []
        compose = part._compose_slice

        def counting(runner, now):
            composed.append(now)
            compose(runner, now)
        part._compose_slice = counting
        for line in ("hello", "status", "games", "pgn", "leds", "occupancy", "status"):
            b.send(line)
            b.wait(300)
        assert composed == [], "reads made the display compose again"
        b.send("set lang it")
        b.wait(600)
        assert composed, "a setting that changes the screen is composed"


class TestMenu:
    def test_open_step_close(self):
        b = SimBoard()
        b.press("menu")
        b.wait(300)
        assert lines(b)[0] == "Menu  ok: change" and lines(b)[1] == "> New game"
        for _ in range(6):
            b.press("menu")
        b.wait(300)
        assert lines(b)[2] == "  Puzzle" and lines(b)[7] == "> Light 100%"
        b.press("menu")                 # the eighth item: the lines scroll up by one
        b.wait(300)
        assert lines(b)[1] == "  Puzzle" and lines(b)[7] == "> Lang en"
        b.press("menu")
        b.wait(300)
        assert lines(b)[1] == "  Clock off" and lines(b)[7] == "> USB auto"
        b.press("menu")                 # past the last line: closed
        b.wait(300)
        assert lines(b)[1] == "White to move"

    def test_settings_through_the_options(self):
        b = SimBoard()
        for _ in range(7):
            b.press("menu")             # Light
        b.press("ok")
        b.wait(300)
        assert lines(b)[7] == "> Light 75%" and b.runner.brightness == 75
        assert {"ev": "option", "name": "brightness", "value": 75} in [json.loads(x) for x in b.protocol]
        b.press("menu")
        b.press("ok")                   # lang it
        b.wait(300)
        assert b.app.game.options.lang == "it" and lines(b)[0] == "Menu  ok: cambia"
        b.press("undo")                 # closes the menu, takes nothing back
        b.wait(300)
        assert lines(b)[1] == "Muove Bianco"
        b.press("menu")
        for _ in range(5):
            b.press("menu")             # Aid: visual assistance (option hints)
        b.press("ok")
        assert b.app.game.options.hints is False

    def test_missing_options_say_so(self):
        b = SimBoard()
        for _ in range(3):
            b.press("menu")
        b.press("ok")                   # the clock: not on this firmware (yet): nothing happens
        b.wait(300)
        if "clock" not in b.snapshot()["options"]:
            assert lines(b)[3] == "> Clock n/a"

    def test_new_game_needs_two_presses(self):
        b = SimBoard()
        play(b, "e2e4")
        b.press("menu")
        b.press("ok")
        b.wait(300)
        assert lines(b)[0] == "ok again: new" and b.app.game.position.ply() == 1
        b.press("ok")
        b.wait(300)
        assert b.app.game.position.ply() == 0 and lines(b)[1] == "White to move"
        assert not b.app.game.in_sync(), "the e-pawn must go back: the screen says where"
        assert lines(b)[3:6] == ["Board differs:", "e2: pawn missing", "e4: remove piece"]

    def test_menu_closes_when_left_alone(self):
        b = SimBoard()
        b.press("menu")
        b.wait(21000)
        assert lines(b)[1] == "White to move"

    def test_diag_button_still_works(self):
        b = SimBoard()
        b.press("diag")
        b.wait(300)
        assert b.runner.holder is not None and lines(b)[0] == "Diagnostics"
        b.press("diag")
        assert b.runner.holder is None

    def test_menu_script_through_the_command(self, tmp_path):
        script = tmp_path / "menu.txt"
        script.write_text("lift e2\nplace e4\nwait 400\n" + "press menu\n" * 8 + "press ok\nwait 300\n")
        out = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", str(script), "--json"],
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["display"][0] == "Menu  ok: cambia" and result["display"][7] == "> Lingua it"
        assert result["san"] == ["e4"]


class TestLanguages:
    def test_every_language_has_every_line_and_the_same_choices(self):
        en, it = screen.words("en").split("\n"), screen.words("it").split("\n")
        assert [screen.word(screen.words("it"), i) for i in range(34)] == it
        assert len(en) == len(it) == 34
        for i in (0, 21, 22, 25, 26):      # the sides, the pieces, the terminations, the menu's items and values
            assert len(en[i].split("|")) == len(it[i].split("|")), en[i]
        for line_en, line_it in zip(en, it):
            assert line_en.count("%") == 0 or line_en.split("|")[0].count("%") == line_it.split("|")[0].count("%")


@needs_micropython
def test_bench_figures_of_a_redraw():
    out = run_micropython("tests/mpy/bench_display.py", paths=("host_tools/fakehw", "firmware", "tests/mpy"))
    assert out.returncode == 0, out.stderr[-2000:]
    figures = dict(line.split()[:2] for line in out.stdout.strip().splitlines())
    # one line: a 7-byte window and a 129-byte page, (2 + 9 * (1 + n)) bits each, at 400 kHz
    line_bits = (2 + 9 * 8) + (2 + 9 * 130)
    assert int(figures["display_bus_one_line_us"]) == line_bits * 1000000 // 400000 == 3115
    assert int(figures["display_bus_full_screen_us"]) == 8 * line_bits * 1000000 // 400000 == 24920


class TestRealClocksAndEngine:
    """The screen fed by the firmware's own clocks (game/clocks.py) and engine (opponent.py), not fakes."""

    def test_both_clocks_count_down_and_the_running_side(self):
        b = SimBoard()
        b.send("set clock 3+2")
        b.wait(400)
        assert lines(b)[:2] == ["W 3:00    B 3:00", "White to move"], "nothing runs before the first move"
        play(b, "e2e4")
        clocks = b.app.game.clocks
        assert clocks.running == 2, "Black's clock runs"
        started = clocks.since                      # when Black's clock started: the move's commit
        assert lines(b)[:3] == ["W 3:02    B 3:00", "Black to move", "1. e4"], "White's 2 s bonus"
        pages = b.hw.display.pages
        for second in range(1, 6):
            b.wait(started + second * 1000 + 30 - b.hw.ticks_ms())     # 30 ms past Black's second
            assert lines(b)[0] == "W 3:02    B 2:%02d" % (60 - second), second
            assert lines(b)[1] == "Black to move"
        assert b.hw.display.pages - pages == 5, "a ticking clock sends one line (one panel page) a second"
        play(b, "e7e5")
        assert clocks.running == 1
        started = clocks.since
        black = clocks.left_ms(False, b.hw.ticks_ms())
        assert lines(b)[1:3] == ["White to move", "1... e5"]
        for second in (1, 2, 3):
            b.wait(started + second * 1000 + 30 - b.hw.ticks_ms())
            assert lines(b)[0] == "W %s    B %s" % (clock_text(182000 - second * 1000), clock_text(black))
        assert clocks.left_ms(False, b.hw.ticks_ms()) == black, "Black's clock stopped"

    def test_the_flag_falls_on_the_screen(self):
        b = SimBoard()
        b.send("set clock 1+0")
        b.wait(400)
        play(b, "e2e4")
        b.wait(59000)
        assert lines(b)[0] == "W 1:00    B 0:01"
        b.wait(2000)
        assert b.app.game.result == ("1-0", "time_forfeit")
        assert lines(b)[:3] == ["W 1:00    B 0:00", "White wins", "time forfeit"]
        assert icons(b)[1] == "flag"

    def test_the_engine_thinks_at_its_level_then_its_move_is_shown_and_played(self):
        midgame = "r1bqk2r/1ppp1ppp/p1n2n2/2b1p3/2B1P3/P2P1N2/1PP2PPP/RNBQK2R w KQkq - 0 6"   # out of its book
        b = SimBoard(midgame)
        b.send("set opponent engine 4")
        b.wait(400)
        assert lines(b)[:2] == ["vs engine 4", "White to move"]
        play(b, "b1c3", wait=0)
        thinking_seen = False
        engine = b.runner.engine
        for _ in range(300):                        # at most 3 s: level 4 searches 600 nodes, about 4 a scan
            b.wait(10)
            if engine.thinking and lines(b)[7] == "Engine 4: ..." and icons(b)[7] == "thinking":
                thinking_seen = True
            if b.app.game.tracker.required >= 0 and lines(b)[7].startswith("Play"):
                break
        assert thinking_seen, "the screen said the engine thinks, and at which level, while it searched"
        assert not engine.thinking
        required = b.app.game.tracker.required
        san = b.app.game.position.san(required)
        assert lines(b)[7] == "Play: " + san and icons(b)[7] == ""
        uci = b.app.game.position.uci(required)
        assert [ev["uci"] for ev in b.events if ev.get("kind") == "engine_move"] == [uci]
        play(b, uci)                                 # the hands make the engine's move
        if san.startswith("O-O"):                    # ...and a castling's rook after its king
            play(b, {"g8": "h8f8", "c8": "a8d8"}[uci[2:4]])
        assert lines(b)[1:3] == ["White to move", "6... " + san]
        assert lines(b)[7] == ""
        b.send("set lang it")
        b.wait(300)
        assert lines(b)[0] == "contro motore 4"
