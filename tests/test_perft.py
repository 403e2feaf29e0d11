"""Perft: node counts of the shared suite (tests/data/perft_suite.epd), and the perft command."""

import os
import subprocess
import sys

import chess
import pytest

from host_tools.perft import parse_suite_line
from scacchiera.rules import Position

SUITE = os.path.join(os.path.dirname(__file__), "data", "perft_suite.epd")
# `make test` counts up to this many nodes per entry; `make test-long` and `make perft` do the rest.
QUICK_NODES = 200000


def suite_entries():
    with open(SUITE) as f:
        for line in f:
            entry = parse_suite_line(line)
            if entry:
                fen, depths, name = entry
                for depth, nodes in sorted(depths.items()):
                    marks = [] if nodes <= QUICK_NODES else [pytest.mark.slow]
                    yield pytest.param(fen, depth, nodes, id="%s-D%d" % (name, depth), marks=marks)


@pytest.mark.parametrize("fen, depth, nodes", list(suite_entries()))
def test_suite(fen, depth, nodes):
    assert Position.from_fen(fen).perft(depth) == nodes


def test_suite_file_is_the_shared_one_and_complete():
    entries = [parse_suite_line(line) for line in open(SUITE)]
    entries = [e for e in entries if e]
    assert len(entries) == 24
    assert sum(len(depths) for _, depths, _ in entries) == 110
    shared = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "perft", "suite.epd")
    if os.path.exists(shared):  # beside a checkout in CI and on developers' machines
        assert open(shared).read() == open(SUITE).read()


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools.perft"] + list(args),
                          capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(__file__)))


def test_command_prints_the_count_last():
    out = run("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "2")
    assert out.returncode == 0
    assert out.stdout.strip().splitlines()[-1] == "2039"


def test_divide_matches_python_chess():
    fen = "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"
    out = run(fen, "2", "--divide")
    lines = out.stdout.strip().splitlines()
    board = chess.Board(fen)
    expected = {}
    for move in board.legal_moves:
        board.push(move)
        expected[move.uci()] = board.legal_moves.count()
        board.pop()
    got = dict((k, int(v)) for k, v in (line.split(": ") for line in lines[:-1]))
    assert got == expected
    assert int(lines[-1]) == sum(expected.values()) == 136


def test_suite_mode_reports_failures(tmp_path):
    path = tmp_path / "mini.epd"
    path.write_text("# comment\n" + Position.STARTING_FEN + ' ;D1 20 ;D2 401 ;id "start, one wrong"\n')
    out = run("--suite", str(path))
    assert out.returncode == 1
    assert "ok   start, one wrong" in out.stdout and "FAIL" in out.stdout and "expected 401" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "1 failures"


def test_bad_fen_is_a_clear_error():
    out = run("not a fen", "1")
    assert out.returncode == 2 and "FEN" in out.stderr
