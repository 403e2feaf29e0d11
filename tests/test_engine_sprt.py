"""The engine's SPRT runner (host_tools/engine_sprt.py): a base commit checked out with git archive,
both engines over UCI at fixed nodes, the games and the test's lines kept under data/."""

import shutil

import chess.pgn
import pytest

from host_tools import engine_sprt

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed: the SPRT runner needs it")


def test_the_engine_against_itself_gives_even_pairs_and_keeps_its_games(tmp_path):
    lines = []
    test = engine_sprt.run("HEAD", nodes=20, max_pairs=2, folder=str(tmp_path), out=lines.append)
    # The same engine both sides, the same seed each game: each pair's two games mirror each other.
    assert test.pairs == [1.0, 1.0] and test.state is None
    pgns = list(tmp_path.glob("*.pgn"))
    logs = list(tmp_path.glob("*.log"))
    assert len(pgns) == 1 and len(logs) == 1
    head = engine_sprt.commit_name()
    with open(pgns[0]) as f:
        games = [chess.pgn.read_game(f) for _ in range(4)]
    assert [g.headers["Round"] for g in games] == ["1", "2", "3", "4"]
    assert all(head in (g.headers["White"], g.headers["Black"]) for g in games)
    assert [m.uci() for m in list(games[0].mainline_moves())[:4]] == engine_sprt.OPENINGS[0].split()
    log = logs[0].read_text().splitlines()
    assert log == lines and log[0].startswith("%s (candidate" % head) and "pair 2" in log[-1]


def test_an_unknown_base_is_refused_before_any_game(tmp_path):
    with pytest.raises(Exception):
        engine_sprt.run("no-such-commit", nodes=20, max_pairs=1, folder=str(tmp_path), out=lambda line: None)
    assert not list(tmp_path.glob("*.pgn"))
