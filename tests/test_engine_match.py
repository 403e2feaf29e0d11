"""The match harness: Elo from results, the level ladder, and a short match against Stockfish.

The match against Stockfish is marked slow (`make test-long`); long runs are `make engine-match`.
"""

import math

import pytest

from host_tools.engine_match import _game_line, elo_estimate, find_stockfish, ladder, match, score_difference, tally


def test_elo_estimate_from_results():
    r, low, high, note = elo_estimate([(1400, 1.0), (1400, 0.0), (1400, 0.5), (1400, 0.5)])
    assert abs(r - 1400) < 1 and low < 1400 < high and not note
    assert elo_estimate([(1400, 0.0)] * 4)[3].startswith("all games lost")
    assert elo_estimate([(1400, 1.0)] * 4)[3].startswith("all games won")


def test_score_difference_in_elo():
    # 0.76 is +200 Elo; 76 wins and 24 losses: standard error sqrt(.76 * .24 / 99) = 0.0429
    elo, low, high, se = score_difference([1.0] * 76 + [0.0] * 24)
    assert abs(elo - 200) < 1
    assert 65 < 200 - low < 80 and 85 < high - 200 < 100    # the logistic stretches the far side
    assert abs(se - 0.0429 * 400 / (2.302585 * 0.76 * 0.24)) < 1
    assert score_difference([0.5] * 10)[:2] == (0.0, 0.0)           # all drawn: no spread
    elo, low, high, se = score_difference([1.0] * 9 + [0.5])
    assert elo > 400 and low is not None and high is None and se is not None
    assert score_difference([1.0] * 4) == (None, None, None, None)  # all won: no finite figure


def test_a_run_in_two_logs_is_tallied_as_one(tmp_path):
    scores = [1.0, 0.5, 0.0, 0.0, 1.0, 0.5, 0.5]
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text("commit abc: levels 7 ...\n" + "".join(
        _game_line("level 7 vs SF 1800", g, scores[g], 80) + "\n" for g in range(3)))
    second.write_text("commit def: levels 7 ...\n" + "".join(
        _game_line("level 7 vs SF 1800", g, scores[g], 80) + "\n" for g in range(3, 7)))
    lines = []
    summary = tally([str(first), str(second)], out=lines.append)
    assert lines[0] == "level 7 vs SF 1800: 3.5 / 7 (2 wins, 3 draws, 2 losses)"
    assert summary[7] == elo_estimate([(1800, s) for s in scores]) and lines[1].startswith("level 7: Elo 1800")
    with pytest.raises(ValueError, match="told twice"):
        tally([str(first), str(first)])
    gap = tmp_path / "c.log"         # the second log without its first game (game 4)
    gap.write_text(second.read_text().replace(_game_line("level 7 vs SF 1800", 3, 0.0, 80) + "\n", ""))
    with pytest.raises(ValueError, match=r"games \[4\] are missing"):
        tally([str(first), str(gap)])


def test_a_short_ladder_replays_its_games():
    lines = []
    scale = ladder([2, 1], 2, anchor=1000, out=lines.append)
    games = [line for line in lines if " game " in line]
    assert [line.split(":")[0] for line in games] == [
        "level 2 vs 1 game 1 (white, e2e4 e7e5 g1f3 b8c6)", "level 2 vs 1 game 2 (black, e2e4 e7e5 g1f3 b8c6)"]
    # the step's line after the games (then, if level 2 won or lost both, a line saying the scale stops)
    assert lines[len(games)].startswith("step 1-2: level 2 scores ") and lines[-1].startswith("scale (anchored")
    # level 1 one step below, its error the step's (none when both were drawn); no finite step
    # (both won or both lost): level 1 left off the scale
    scores = [{"win": 1.0, "draw": 0.5, "loss": 0.0}[line.split(": ")[1].split()[0]] for line in games]
    step, _, _, se = score_difference(scores)
    assert scale[2] == (1000, 0.0)
    if step is None:
        assert 1 not in scale
    else:
        assert scale[1] == pytest.approx((1000 - step, 1.96 * se))
    again = []
    ladder([1, 2], 1, out=again.append, first=1)    # game 2 alone: the same game
    assert again[0] == games[1]


def test_the_ladder_chains_each_step_down_from_the_anchor(monkeypatch):
    """Level 2 against 1 scores 1, 1, 0.5, 0; level 3 against 2 scores 1, 0.5, 0.5, 0.5 (the
    stronger level's points): each level sits its step below the next, the errors adding up."""
    from host_tools import engine_match

    class Board:
        def ply(self):
            return 40
    results = iter([1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 0.5, 0.5])
    monkeypatch.setattr(engine_match, "_play", lambda white, black, opening, first: (next(results), Board()))
    scale = ladder([1, 2, 3], 4, anchor=1500, out=lambda line: None)
    d2, _, _, se2 = score_difference([1.0, 1.0, 0.5, 0.0])
    d3, _, _, se3 = score_difference([1.0, 0.5, 0.5, 0.5])
    assert scale[3] == (1500, 0.0)
    assert scale[2] == pytest.approx((1500 - d3, 1.96 * se3))
    assert scale[1] == pytest.approx((1500 - d3 - d2, 1.96 * math.sqrt(se2 ** 2 + se3 ** 2)))
    assert 0 < d2 and 0 < d3 and scale[1][0] < scale[2][0] < 1500


@pytest.mark.slow
@pytest.mark.skipif(find_stockfish() is None,
                    reason="needs Debian's stockfish (apt-get install stockfish; .ci/run installs it)")
def test_a_short_match_against_stockfish(tmp_path):
    lines = []
    summary = match([6], [1350], 2, 2000, 50, None, out=lines.append, folder=str(tmp_path))
    assert len([line for line in lines if " game " in line]) == 2
    assert 6 in summary and summary[6] is not None
    print("\n".join(lines))
    # the games and the lines kept, the commit in their names and tags; two at once, the same record
    log, = tmp_path.glob("*-levels6-sf1350.log")
    assert log.read_text().splitlines()[1:] == lines[1:]
    games = log.with_suffix(".pgn").read_text().count("[Event \"engine_match ")
    assert games == 2
    again = []
    match([6], [1350], 2, 2000, 50, None, out=again.append, jobs=2)
    assert [line.split(":")[0] for line in again if " game " in line] == [
        "level 6 vs SF 1350 game 1 (white, e2e4 e7e5 g1f3 b8c6)", "level 6 vs SF 1350 game 2 (black, e2e4 e7e5 g1f3 b8c6)"]
