"""Training on the board (issue 27): puzzles from the flash, a game replayed or guessed, openings.

The drills (firmware/scacchiera/training/) run in the firmware's main loop:
scripts of hands (tests/scenarios/firmware/training_*.txt) drive them through
the simulator (CPython), under MicroPython (the WebAssembly port) and, for a
puzzle, on the emulated Pico (test_pico_emu.py). The puzzle set
(host_tools/training/puzzles.csv, packed into firmware/puzzles.bin) is
checked here against python-chess and, where Stockfish is installed, against
Stockfish itself.
"""

import contextlib
import glob
import json
import os
import shutil
import subprocess
import sys

import chess
import chess.engine
import pytest
from hypothesis import given, settings, strategies as st

from firmware_support import Board, ROOT
from memfs import MemFS
from mpy_runner import needs_micropython, run_micropython
from host_tools.ladder import elo
from host_tools.training import make_puzzles, puzzle_file as packer
from scacchiera.training import progress
from scacchiera.training.puzzle_file import PuzzleFile, THEMES, RECORD, HEADER, uci_of, code_of

SCRIPTS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "firmware", "training_*.txt")))
PUZZLES = make_puzzles.read_csv()
STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")


def drill_events(board):
    return [line for line in board.lines() if line.get("ev") == "drill"]


def ask(board, command):
    board.send(json.dumps(command) if isinstance(command, dict) else command, 40)
    replies = board.replies()
    assert len(replies) == 1, replies
    return replies[0]


# -- the hands' scripts, on CPython and MicroPython ---------------------------------------------------

@pytest.mark.parametrize("path", SCRIPTS, ids=[os.path.basename(p)[:-4] for p in SCRIPTS])
def test_training_scripts_through_the_simulator(path):
    out = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", path, "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]


@needs_micropython
def test_training_scripts_under_micropython():
    out = run_micropython("tests/mpy/check_training.py", *SCRIPTS, paths=("host_tools/fakehw", "firmware", "."),
                          data=("tests/scenarios/firmware", "firmware/puzzles.bin"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "%d passed, 0 failed" % len(SCRIPTS)


# -- the protocol: what a bad request gets --------------------------------------------------------

@pytest.mark.parametrize("command, message", [
    ({"cmd": "train", "mode": "fly"}, "mode is one of"),
    ({"cmd": "train", "mode": "guess", "side": "x", "moves": "e2e4"}, "side is w or b"),
    ({"cmd": "train", "mode": "guess"}, "no moves to guess"),
    ({"cmd": "train", "mode": "replay", "moves": "e2e4 e7e5 e1e2 e8e9"}, "not a move"),
    ({"cmd": "train", "mode": "replay", "moves": "e2e4 e7e5 e4e5"}, "ply 3 of the line (e4e5) is not legal"),
    ({"cmd": "train", "mode": "replay", "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "moves": "e2e4"}, "king"),
    ({"cmd": "train", "mode": "puzzle", "puzzle": 100000}, "no puzzle 100000"),
    ({"cmd": "train", "mode": "puzzle", "theme": "zugzwangish"}, "theme is one of"),
    ({"cmd": "train", "mode": "stop"}, "no drill is running"),
])
def test_a_bad_request_is_refused_and_changes_nothing(command, message):
    board = Board()
    board.play("e2e4")
    board.wait(600)
    board.lines()
    reply = ask(board, command)
    assert reply["ok"] is False and message in reply["message"], reply
    assert [board.game.position.uci(m) for m in board.game.position.move_stack] == ["e2e4"]
    assert board.runner.drill is None and board.game.in_sync()


def test_a_line_too_long_for_a_game_is_refused():
    board = Board()
    words = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 20)      # 80 plies a line: the eighth passes 600
    for _ in range(7):
        assert ask(board, {"cmd": "line", "moves": words})["ok"] is True
    reply = ask(board, {"cmd": "line", "moves": words})
    assert reply["ok"] is False and "at most 600 plies" in reply["message"]


def test_a_long_game_arrives_in_lines_and_is_replayed():
    """A game longer than one protocol line (512 bytes): ``line`` commands, then ``train``."""
    board = Board()
    moves = ("g1f3 g8f6 f3g1 f6g8 " * 30).split()          # 120 plies: 600 bytes of UCI
    for i in range(0, len(moves), 60):
        assert ask(board, {"cmd": "line", "moves": " ".join(moves[i:i + 60])})["plies"] == i + 60
    reply = ask(board, {"cmd": "train", "mode": "replay"})
    assert reply["ok"] is True and reply["plies"] == 120
    for uci in moves[:6]:
        board.wait(100)
        assert board.game.tracker.required == board.game.position.parse_uci(uci)
        board.play(uci)
        board.wait(600)
    assert board.game.position.ply() == 6
    assert ask(board, {"cmd": "train", "mode": "replay", "moves": "e2e4"})["plies"] == 1   # the old line is gone


def test_a_drills_game_says_what_it_was_in_its_pgn():
    board = Board()
    ask(board, {"cmd": "train", "mode": "puzzle", "puzzle": 0})
    assert board.runner.journal.tags == {"Event": "Puzzle " + PUZZLES[0][0]}
    ask(board, {"cmd": "train", "mode": "guess", "side": "b", "moves": "e2e4 e7e5"})
    assert board.runner.journal.tags == {"Event": "Guess the move"}
    assert '[Event "Guess the move"]' in ask(board, "pgn")["pgn"]


def test_a_new_game_stops_the_drill():
    board = Board()
    ask(board, {"cmd": "train", "mode": "guess", "side": "b", "moves": "e2e4 e7e5"})
    board.wait(100)
    board.lines()
    board.send("new", 40)
    board.wait(100)
    assert [(e["state"], e["mode"]) for e in drill_events(board)] == [("stopped", "guess")]
    assert board.runner.drill is None and board.game.tracker.required < 0


# -- the puzzle file --------------------------------------------------------------------------------

def test_the_set_has_at_least_500_puzzles_from_mate_in_one_to_four_move_lines():
    assert len(PUZZLES) >= 500
    solver_moves = [len(p[2]) // 2 for p in PUZZLES]
    assert min(solver_moves) == 1 and max(solver_moves) == 4
    themes = set(t for p in PUZZLES for t in p[4])
    assert {"mateIn1", "mateIn2", "mateIn3", "advantage", "crushing", "fork"} <= themes <= set(THEMES)
    assert [p[3] for p in PUZZLES] == sorted(p[3] for p in PUZZLES)
    assert len(set(p[0] for p in PUZZLES)) == len(PUZZLES)


def test_every_puzzle_is_legal_and_its_mates_mate():
    for pid, fen, moves, rating, themes in PUZZLES:
        board = chess.Board(fen)
        for uci in moves:
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves, (pid, uci)
            board.push(move)
        assert board.is_checkmate() == ("mate" in themes), pid
        assert ("mateIn%d" % (len(moves) // 2) in themes) == board.is_checkmate(), pid
        assert 600 <= rating <= 2000, pid


class InFlash(bytes):
    """The puzzle file as a board flashed with make uf2 has it: a ROMFS file, a buffer in flash."""

    def read(self, n):
        return self[:n]


def _open(how):
    """The puzzle file read from a filesystem ("file"), or in place as in ROMFS ("in-place")."""
    if how == "file":
        return open(packer.BIN_PATH, "rb")
    with open(packer.BIN_PATH, "rb") as f:
        return contextlib.nullcontext(InFlash(f.read()))


@pytest.mark.parametrize("how", ["file", "in-place"])
def test_the_packed_file_is_the_csv_and_reads_back_as_it(how):
    assert packer.main(["--check"]) == 0, "run: python -m host_tools.training.puzzle_file"
    size = os.path.getsize(packer.BIN_PATH)
    with _open(how) as f:
        puzzles = PuzzleFile(f)
        assert (puzzles.data is None) == (how == "file")
        assert size == HEADER + RECORD * len(PUZZLES) == HEADER + RECORD * puzzles.count
        for i, (pid, fen, moves, rating, themes) in enumerate(PUZZLES):
            puzzles.read(i)
            board = chess.Board(fen)
            assert puzzles.fen().split()[:4] == board.fen().split()[:4], pid
            assert [uci_of(c) for c in _codes(puzzles.codes())] == moves, pid
            assert (puzzles.puzzle_id, puzzles.rating, puzzles.theme_names()) == (pid, rating, sorted(
                themes, key=THEMES.index)), pid


def _codes(data):
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def test_move_codes_round_trip_and_refuse_what_is_no_move():
    for uci in ("a1h8", "h8a1", "e7e8q", "b2a1n", "e1g1"):
        assert uci_of(code_of(uci)) == uci
    for bad in ("e2", "e2e9", "i2e4", "e7e8k", "e7e8x", "e2e4e4"):
        with pytest.raises(ValueError):
            code_of(bad)


@pytest.mark.parametrize("how", ["file", "in-place"])
def test_choosing_takes_the_nearest_untried_and_the_theme(how):
    with _open(how) as f:
        puzzles = PuzzleFile(f)
        ratings = [p[3] for p in PUZZLES]
        target = ratings[len(ratings) // 2] + 1
        i = puzzles.choose(target)
        assert abs(ratings[i] - target) == min(abs(r - target) for r in ratings)
        tried = bytearray((puzzles.count + 7) // 8)
        tried[i >> 3] |= 1 << (i & 7)
        j = puzzles.choose(target, skip=tried)
        assert j != i and abs(ratings[j] - target) == min(abs(r - target) for k, r in enumerate(ratings) if k != i)
        fork = THEMES.index("fork")
        k = puzzles.choose(1500, fork)
        assert "fork" in PUZZLES[k][4]
        assert abs(ratings[k] - 1500) == min(abs(p[3] - 1500) for p in PUZZLES if "fork" in p[4])


@pytest.mark.parametrize("how", ["file", "in-place"])
def test_a_puzzle_file_cut_short_says_so(how, tmp_path):
    with open(packer.BIN_PATH, "rb") as f:
        data = f.read()[:-10]              # the last record loses its last 10 bytes
    if how == "file":
        path = tmp_path / "puzzles.bin"
        path.write_bytes(data)
        source = open(path, "rb")
    else:
        source = contextlib.nullcontext(InFlash(data))
    with source as f:
        puzzles = PuzzleFile(f)
        puzzles.read(puzzles.count - 2)
        with pytest.raises(ValueError, match="cut short"):
            puzzles.read(puzzles.count - 1)


def _nearest_by_walk(ratings, themes, rating, theme, tried):
    """choose's answer by reading every record, as it did before its binary search."""
    for tried_too in (False, True):
        best, best_gap = -1, 0
        for i, r in enumerate(ratings):
            if (not tried_too and i in tried) or (theme >= 0 and theme not in themes[i]):
                continue
            if best < 0 or abs(r - rating) < best_gap:
                best, best_gap = i, abs(r - rating)
        if best >= 0:
            return best
    return -1


@settings(max_examples=300, deadline=None)
@given(rating=st.integers(0, 3500), theme=st.integers(-1, len(THEMES) - 1), tried=st.sets(st.integers(0, 593)),
       near=st.booleans())
def test_choosing_by_binary_search_gives_what_reading_every_record_gives(rating, theme, tried, near):
    ratings = [p[3] for p in PUZZLES]
    themes = [set(THEMES.index(t) for t in p[4]) for p in PUZZLES]
    if near:             # the ratings the set holds, and equal ratings, where the first of equals counts
        rating = ratings[rating % len(ratings)]
        tried |= {i for i, r in enumerate(ratings) if r == rating and i % 2}
    with _open("in-place") as f:
        puzzles = PuzzleFile(f)
        skip = bytearray((puzzles.count + 7) // 8)
        for i in tried:
            if i < puzzles.count:
                skip[i >> 3] |= 1 << (i & 7)
        expected = _nearest_by_walk(ratings, themes, rating, theme, {i for i in tried if i < puzzles.count})
        assert puzzles.choose(rating, theme, skip) == expected


def test_the_boards_rating_is_seed_003s_elo_and_survives_in_its_file():
    fs = MemFS()
    assert progress.load(fs, 10)[:3] == (1000, 0, 0)
    rating = 1000
    for index, puzzle_rating, solved in ((3, 1200, True), (5, 800, False), (9, 1000, True)):
        change = elo.change(rating, puzzle_rating, 1.0 if solved else 0.0)
        rating += change
        assert progress.record(fs, index, puzzle_rating, solved, 10) == (rating, change)
    got, tried, won, bits, damaged = progress.load(fs, 10)
    assert not damaged
    assert (got, tried, won) == (rating, 3, 2)
    assert [i for i in range(10) if bits[i >> 3] >> (i & 7) & 1] == [3, 5, 9]


def solve(board, full_at_the_end=False):
    """Set the puzzle up as the LEDs ask, then make every move the drill asks for (the other side's
    shown, the solver's right); ``full_at_the_end``: the flash fills before the last one."""
    board.set_up()
    board.wait(300)
    for _ in range(20):
        drill = board.runner.drill
        if drill is None or drill.over or drill.want < 0:
            return
        uci = board.game.position.uci(drill.want)
        if full_at_the_end and 2 * (board.game.position.ply() - drill.start + 1) >= len(drill.line):
            board.runner.hw.fs.full = True
        board.play(uci)
        board.wait(600)


def test_a_full_flash_when_a_puzzle_is_solved_is_said_and_the_board_goes_on():
    """The OSError writing puzzles.rec crashed the board (a reset on the Pico). Said on the link,
    and on the board's display."""
    from fakehal import FakeDisplay
    board = Board(fs=MemFS(), display=FakeDisplay())
    assert ask(board, {"cmd": "train", "mode": "puzzle", "puzzle": 213})["ok"]
    board.lines()
    solve(board, full_at_the_end=True)
    lines = board.lines()
    done = [l for l in lines if l.get("ev") == "drill" and l.get("state") == "done"]
    assert done and done[0]["solved"] is True and done[0]["saved"] is False and "rating" not in done[0], lines
    errors = [l for l in lines if l.get("ev") == "storage_error"]
    assert errors and "puzzle record was not saved" in errors[0]["message"], lines
    assert board.hw.resets == 0 and not [l for l in lines if l.get("ev") == "crash"]
    assert board.runner.hw.fs.size(progress.NAME) < 0            # nothing half written
    board.wait(1000)
    assert "Solved" in board.hw.display.lines and "Record not saved" in board.hw.display.lines, board.hw.display.lines
    board.runner.hw.fs.full = False
    assert ask(board, "status")["ok"]


def test_a_flipped_bit_in_the_puzzle_record_is_seen_not_read_as_a_rating():
    fs = MemFS()
    progress.record(fs, 3, 1200, True, 10)
    rating = progress.load(fs, 10)[0]
    data = fs.files[progress.NAME]
    for bit in range(8 * len(data)):
        data[bit >> 3] ^= 1 << (bit & 7)
        got = progress.load(fs, 10)
        if got[4]:                                      # seen: set aside, a fresh record
            assert got[:3] == (1000, 0, 0) and fs.size(progress.BAD) > 0
            fs.rename(progress.BAD, progress.NAME)
        else:
            assert False, "bit %d flipped read as %r (rating %d)" % (bit, got[:3], rating)
        data = fs.files[progress.NAME]
        data[bit >> 3] ^= 1 << (bit & 7)
    assert progress.load(fs, 10)[:3] == (rating, 1, 1)


def test_a_board_without_the_puzzle_file_says_so(tmp_path):
    board = Board()
    board.hw.data_dir = str(tmp_path)
    reply = ask(board, {"cmd": "train", "mode": "puzzle"})
    assert reply["ok"] is False and "no puzzle file on this board" in reply["message"]


# -- the set against Stockfish ------------------------------------------------------------------------

@pytest.mark.skipif(STOCKFISH is None, reason="no Stockfish (apt-get install stockfish; .ci/run installs it)")
def test_stockfish_still_finds_each_solver_move_the_only_good_one():
    """Every 20th puzzle, checked as the generator checked it (make_puzzles.check_line: at its depth,
    each solver move is Stockfish's only good move, a mate or 2 pawns better than the second best,
    the engine's table cleared before each search so that the answer is the position's alone)."""
    sf = make_puzzles._open(STOCKFISH, 64)
    try:
        failed = [p[0] for p in PUZZLES[::20] if not make_puzzles.check_line(p[1], p[2], sf)]
    finally:
        sf.quit()
    assert failed == []
