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
    head = engine_sprt.commit_name(tree=True)
    with open(pgns[0]) as f:
        games = [chess.pgn.read_game(f) for _ in range(4)]
    assert [g.headers["Round"] for g in games] == ["1", "2", "3", "4"]
    assert all(head in (g.headers["White"], g.headers["Black"]) for g in games)
    assert [m.uci() for m in list(games[0].mainline_moves())[:4]] == engine_sprt.OPENINGS[0].split()
    log = logs[0].read_text().splitlines()
    assert log == lines and log[0].startswith("%s (candidate" % head) and "pair 2" in log[-1]


def test_two_pairs_at_once_are_counted_in_order_and_a_stopped_test_is_continued(tmp_path):
    lines = []
    test = engine_sprt.run("HEAD", nodes=20, max_pairs=2, folder=str(tmp_path), out=lines.append, jobs=2)
    assert test.pairs == [1.0, 1.0]
    [log] = tmp_path.glob("*.log")
    [pgn] = tmp_path.glob("*.pgn")
    with open(pgn) as f:
        first_run = [str(chess.pgn.read_game(f)) for _ in range(4)]
    # Continued to three pairs: the first two counted from the log, the third played and appended
    more = []
    test = engine_sprt.run("HEAD", nodes=20, max_pairs=3, folder=str(tmp_path), out=more.append, resume=str(log))
    assert test.pairs == [1.0, 1.0, 1.0]
    assert more[0].startswith("resumed at pair 3 by ") and more[1].startswith("pair 3 (%s)" % engine_sprt.OPENINGS[2])
    assert log.read_text().splitlines() == lines + more
    with open(pgn) as f:
        games = [chess.pgn.read_game(f) for _ in range(7)]
    assert games[6] is None and [str(g) for g in games[:4]] == first_run
    assert [g.headers["Round"] for g in games[:6]] == ["1", "2", "3", "4", "5", "6"]
    # The third pair as a run of three from the start plays it: the same games
    again = tmp_path / "again"
    engine_sprt.run("HEAD", nodes=20, max_pairs=3, folder=str(again), out=lambda line: None)
    [pgn_again] = again.glob("*.pgn")
    with open(pgn_again) as f:
        third = [chess.pgn.read_game(f) for _ in range(6)][4:]
    assert [list(g.mainline_moves()) for g in third] == [list(g.mainline_moves()) for g in games[4:6]]


def test_a_test_is_continued_only_with_its_base_level_nodes_and_engine(tmp_path):
    log = tmp_path / "t.log"
    head = engine_sprt.commit_name("HEAD")
    header = "%s (candidate, /x) against %s (base), level 7 at 20 nodes a move\n" % (head, head)
    for text, why in ((header.replace("at 20", "at 30"), "nodes"), (header.replace("level 7", "level 6"), "level"),
                      (header.replace("move", "move, engine files 0123456789ab"), "not the working tree's"),
                      (header.replace("%s (candidate" % head, "%s+ (candidate" % head), "not the working tree's"),
                      ("pair 1 (e2e4): 1.0 / 2 | x\n", "not an SPRT log"),
                      (header + "pair 2 (e2e4): 1.0 / 2 | x\n", "pair 2 follows pair 0")):
        log.write_text(text)
        with pytest.raises(ValueError, match=why):
            engine_sprt.run("HEAD", nodes=20, max_pairs=3, out=lambda line: None, resume=str(log))
    log.write_text(header.replace("against %s" % head, "against %s" % engine_sprt.commit_name("HEAD~1")))
    with pytest.raises(ValueError, match="tests"):
        engine_sprt.run("HEAD", nodes=20, max_pairs=3, out=lambda line: None, resume=str(log))


def test_an_unknown_base_is_refused_before_any_game(tmp_path):
    with pytest.raises(Exception):
        engine_sprt.run("no-such-commit", nodes=20, max_pairs=1, folder=str(tmp_path), out=lambda line: None)
    assert not list(tmp_path.glob("*.pgn"))
