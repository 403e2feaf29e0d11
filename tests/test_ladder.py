"""The household Elo ladder (issue 13, host side): seed 003's rules, the SQLite file, import, the CLI."""

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools import _paths  # noqa: F401
from host_tools.ladder import Ladder, LadderError, default_path, elo
from host_tools.ladder.__main__ import main
from host_tools.ladder.db import VERSION
from scacchiera.rules import Position
from scacchiera.rules.sprint import SprintPosition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def ladder(tmp_path):
    with Ladder(str(tmp_path / "ladder.sqlite3")) as lad:
        for name in ("Anna", "Bruno", "Carla"):
            lad.add_player(name)
        yield lad


def general(lad):
    return {r["name"]: r["elo"] for r in lad.table()}


def monthly(lad, month):
    return {r["name"]: r["elo"] for r in lad.table(month)}


def snapshot(path):
    """Everything in a ladder file, to prove a failed command changed nothing."""
    conn = sqlite3.connect(path)
    try:
        return [conn.execute("SELECT * FROM %s ORDER BY rowid" % t).fetchall()
                for t in ("players", "games", "colour_lots")]
    finally:
        conn.close()


# -- seed 003's examples ---------------------------------------------------------------------


class TestSeedExamples:
    def test_equal_ratings_winner_plus_15_loser_minus_15(self, ladder):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-01")
        assert general(ladder) == {"Anna": 1015, "Bruno": 985, "Carla": 1000}

    def test_equal_ratings_black_wins(self, ladder):
        ladder.record("Anna", "Bruno", "0-1", date="2026-11-01")
        assert general(ladder) == {"Anna": 985, "Bruno": 1015, "Carla": 1000}

    def test_2000_beats_1000_no_change(self, tmp_path):
        with Ladder(str(tmp_path / "l.db")) as lad:
            lad.add_player("Strong", 2000)
            lad.add_player("Weak", 1000)
            gid = lad.record("Strong", "Weak", "1-0", date="2026-11-01")
            g = lad.game(gid)
            assert (g["white_change"], g["black_change"]) == (0, 0)
            assert general(lad) == {"Strong": 2000, "Weak": 1000}

    def test_1000_beats_2000_plus_30_minus_30(self, tmp_path):
        with Ladder(str(tmp_path / "l.db")) as lad:
            lad.add_player("Strong", 2000)
            lad.add_player("Weak", 1000)
            lad.record("Strong", "Weak", "0-1", date="2026-11-01")
            assert general(lad) == {"Strong": 1970, "Weak": 1030}

    def test_formula(self):
        assert elo.expected(1000, 1000) == 0.5
        assert elo.change(1000, 1000, 1.0) == 15
        assert elo.change(1000, 1000, 0.0) == -15
        assert elo.change(1000, 1000, 0.5) == 0
        assert elo.change(2000, 1000, 1.0) == 0
        assert elo.change(1000, 2000, 1.0) == 30
        assert elo.change(2000, 1000, 0.0) == -30
        # 200 points apart: expected 0.7597, 30 x 0.2403 = 7.21 -> 7; a draw: 30 x -0.2597 = -7.79 -> -8.
        assert elo.change(1200, 1000, 1.0) == 7
        assert elo.change(1200, 1000, 0.5) == -8
        assert elo.change(1000, 1200, 0.5) == 8

    def test_draw_between_unequal_players(self, tmp_path):
        with Ladder(str(tmp_path / "l.db")) as lad:
            lad.add_player("Strong", 1200)
            lad.add_player("Weak", 1000)
            lad.record("Weak", "Strong", "1/2-1/2", date="2026-11-01")
            assert general(lad) == {"Strong": 1192, "Weak": 1008}

    def test_a_resignation_is_a_loss(self, ladder):
        ladder.record("Anna", "Bruno", "0-1", moves=30, resigned=True, date="2026-11-01")
        row = {r["name"]: r for r in ladder.table()}
        assert (row["Anna"]["losses"], row["Bruno"]["wins"]) == (1, 1)
        assert general(ladder)["Bruno"] == 1015


class TestTenMovesAndPenalty:
    # "l'avversario sommerà la vittoria se ha fatto più di 10 mosse": the winner's own moves, > 10.
    @pytest.mark.parametrize("result, moves, exchanged", [
        ("1-0", 20, False),   # White made 10
        ("1-0", 21, True),    # White made 11
        ("0-1", 21, False),   # Black made 10
        ("0-1", 22, True),    # Black made 11
        ("1-0", 0, False),
    ])
    def test_resigned_game_counts_only_after_winner_made_more_than_10_moves(self, ladder, result, moves, exchanged):
        ladder.record("Anna", "Bruno", result, moves=moves, resigned=True, date="2026-11-01")
        winner, loser = ("Anna", "Bruno") if result == "1-0" else ("Bruno", "Anna")
        expect = {winner: 1015, loser: 985} if exchanged else {winner: 1000, loser: 1000}
        assert {k: v for k, v in general(ladder).items() if k != "Carla"} == expect

    def test_abandoning_costs_20_more(self, ladder):
        ladder.record("Anna", "Bruno", "1-0", moves=40, abandoned=True, date="2026-11-01")
        assert general(ladder) == {"Anna": 1015, "Bruno": 965, "Carla": 1000}
        assert monthly(ladder, "2026-11") == {"Anna": 1015, "Bruno": 965}
        assert {r["name"]: r["penalties"] for r in ladder.table()} == {"Anna": 0, "Bruno": 20, "Carla": 0}

    def test_abandoning_early_costs_only_the_penalty(self, ladder):
        ladder.record("Anna", "Bruno", "0-1", moves=21, abandoned=True, date="2026-11-01")
        assert general(ladder) == {"Anna": 980, "Bruno": 1000, "Carla": 1000}

    def test_a_win_on_the_board_counts_however_short(self, ladder):
        ladder.record("Anna", "Bruno", "0-1", moves=4, date="2026-11-01")     # fool's mate
        assert general(ladder)["Bruno"] == 1015

    def test_cli_abandoned_flag_names_the_loser(self, tmp_path, capsys):
        db = str(tmp_path / "l.db")
        for name in ("Anna", "Bruno"):
            assert main(["--db", db, "add-player", name]) == 0
        assert main(["--db", db, "record", "Anna", "Bruno", "0-1", "--moves", "30", "--abandoned",
                     "--date", "2026-11-03"]) == 0
        assert "game 1: Anna -35 -> 965, Bruno +15 -> 1015" in capsys.readouterr().out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from(sorted(elo.RESULTS)),
                          st.integers(0, 60), st.sampled_from(["", "resigned", "abandoned"])),
                max_size=40),
       st.lists(st.integers(600, 2400), min_size=4, max_size=4))
def test_points_are_zero_sum_but_for_penalties(games, starts):
    names = ["P%d" % i for i in range(4)]
    played = [{"white": names[w], "black": names[b], "result": r, "moves": m,
               "resigned": how == "resigned" and r != "1/2-1/2", "abandoned": how == "abandoned" and r != "1/2-1/2"}
              for w, b, r, m, how in games if w != b]
    table = {}
    for g, dw, db, table in elo.replay(played, lambda name: starts[names.index(name)]):
        penalty = elo.PENALTY if g["abandoned"] else 0
        assert dw + db == -penalty
        assert abs(dw) <= 30 + penalty and abs(db) <= 30 + penalty
    total = sum(s.rating for s in table.values())
    assert total == sum(starts[names.index(n)] for n in table) - elo.PENALTY * sum(g["abandoned"] for g in played)


# -- the monthly table -----------------------------------------------------------------------


class TestMonthly:
    def test_everyone_starts_each_month_at_1000(self, ladder):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-05")
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-20")
        ladder.record("Bruno", "Anna", "1-0", date="2026-12-01")
        assert monthly(ladder, "2026-11") == {"Anna": 1029, "Bruno": 971}   # +15, then +14 (1015 v 985)
        assert monthly(ladder, "2026-12") == {"Anna": 985, "Bruno": 1015}
        # General: 1029 v 971 -> Bruno's win is worth round(30 x 0.5832) = 17.
        assert general(ladder) == {"Anna": 1012, "Bruno": 988, "Carla": 1000}
        assert monthly(ladder, "2027-01") == {}

    def test_monthly_ignores_the_general_rating(self, tmp_path):
        # Seed 003: "un giocatore può guadagnare 1 punto nella sua Elo generale e 30 nella mensile".
        with Ladder(str(tmp_path / "l.db")) as lad:
            lad.add_player("Anna", 1600)
            lad.add_player("Bruno", 1000)
            lad.record("Anna", "Bruno", "1-0", date="2026-11-05")
            assert general(lad) == {"Anna": 1601, "Bruno": 999}
            assert monthly(lad, "2026-11") == {"Anna": 1015, "Bruno": 985}
            h = lad.history("Anna")[0]
            assert (h["change"], h["elo"], h["month_change"], h["month_elo"]) == (1, 1601, 15, 1015)

    def test_games_count_in_date_order_whatever_order_recorded(self, tmp_path):
        games = [("Anna", "Bruno", "1-0", "2026-11-03"), ("Bruno", "Carla", "1/2-1/2", "2026-11-01"),
                 ("Carla", "Anna", "0-1", "2026-11-02"), ("Anna", "Carla", "1-0", "2026-11-02")]
        tables = []
        for order in (games, sorted(games, key=lambda g: g[3])):
            with Ladder(str(tmp_path / ("%d.db" % len(tables)))) as lad:
                for name in ("Anna", "Bruno", "Carla"):
                    lad.add_player(name)
                for w, b, r, d in order:
                    lad.record(w, b, r, date=d)
                tables.append((lad.table(), lad.table("2026-11")))
        assert tables[0] == tables[1]
        assert [r["name"] for r in tables[0][0]] == ["Anna", "Bruno", "Carla"]

    def test_table_json(self, ladder, capsys):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-05")
        assert main(["--db", ladder.path, "table", "--month", "2026-11", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["month"] == "2026-11"
        assert [(r["rank"], r["name"], r["elo"], r["wins"], r["losses"]) for r in data["rows"]] == [
            (1, "Anna", 1015, 1, 0), (2, "Bruno", 985, 0, 1)]

    def test_equal_ratings_share_a_rank(self, ladder):
        assert [(r["rank"], r["name"]) for r in ladder.table()] == [(1, "Anna"), (1, "Bruno"), (1, "Carla")]


class TestHistory:
    def test_history_and_players(self, ladder, capsys):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-01")
        ladder.record("Bruno", "Anna", "0-1", moves=30, abandoned=True, date="2026-12-02")
        assert main(["--db", ladder.path, "history", "Bruno"]) == 0
        assert capsys.readouterr().out.splitlines() == [
            # 985 v 1015: round(30 x -0.4569) = -14, and 20 for abandoning; the month started at 1000 v 1000.
            "   1  2026-11-01  black  Anna         1-0                 -15 ->  985   month  -15 ->  985",
            "   2  2026-12-02  white  Anna         0-1     abandoned   -34 ->  951   month  -35 ->  965"]
        assert main(["--db", ladder.path, "players", "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == [
            {"name": "Anna", "initial_elo": 1000, "elo": 1029, "games": 2},
            {"name": "Bruno", "initial_elo": 1000, "elo": 951, "games": 2},
            {"name": "Carla", "initial_elo": 1000, "elo": 1000, "games": 0}]


# -- colours ---------------------------------------------------------------------------------


class TestColours:
    def test_first_game_by_lot_kept_then_alternating(self, ladder):
        first = ladder.next_colours("Anna", "Bruno", seed=7)
        assert first[2] == "lot" and set(first[:2]) == {"Anna", "Bruno"}
        # Asked again (either order, any seed), the lot drawn stands.
        assert ladder.next_colours("Bruno", "Anna") == first
        assert ladder.next_colours("Anna", "Bruno", seed=8) == first
        white, black, _ = first
        ladder.record(white, black, "1-0", date="2026-11-01")
        assert ladder.next_colours("Anna", "Bruno") == (black, white, "alternate")
        ladder.record(black, white, "1/2-1/2", date="2026-11-02")
        assert ladder.next_colours("Bruno", "Anna") == (white, black, "alternate")

    def test_the_lot_is_reproducible_with_a_seed_and_falls_both_ways(self, tmp_path):
        outcomes = set()
        for seed in range(8):
            answers = []
            for copy in range(2):
                with Ladder(str(tmp_path / ("%d-%d.db" % (seed, copy)))) as lad:
                    lad.add_player("Anna")
                    lad.add_player("Bruno")
                    answers.append(lad.next_colours("Anna", "Bruno", seed=seed))
            assert answers[0] == answers[1]
            outcomes.add(answers[0][0])
        assert outcomes == {"Anna", "Bruno"}

    def test_alternation_follows_the_last_game_by_date(self, ladder):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-10")
        ladder.record("Bruno", "Anna", "1-0", date="2026-11-01")     # recorded late, played earlier
        assert ladder.next_colours("Anna", "Bruno")[:2] == ("Bruno", "Anna")

    def test_cli(self, ladder, capsys):
        assert main(["--db", ladder.path, "next-colours", "Anna", "Carla", "--seed", "3"]) == 0
        line = capsys.readouterr().out.strip()
        assert line.endswith("(drawn by lot)") and line.startswith("White ")


# -- importing the board's archive -----------------------------------------------------------


def board_pgn(ucis, round_=1, tags=None, resign=None):
    """A game as the board archives it (storage/journal.py's tags, rules/pgn.py's writer)."""
    pos = Position()
    for u in ucis:
        pos.push(pos.parse_uci(u))
    if resign is not None:
        pos.resign(resign)
    given = {"Event": "Scacchiera", "Round": str(round_)}
    given.update(tags or {})
    text = pos.pgn(given)
    if "Result" in given:       # a result the rules did not reach (an abandoned game): the movetext's too
        text = text.rstrip()[:-1] + given["Result"] + "\n"
    return text


SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]          # 1-0, mate in 7 moves
LONG = ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6b8 d2d4 b8d7"
        " c3c4 c7c6 b1c3 d8c7").split()                                       # 24 moves, no capture


@pytest.fixture
def archive(tmp_path):
    folder = tmp_path / "games" / "archive"
    folder.mkdir(parents=True)
    (folder / "00001.pgn").write_text(board_pgn(SCHOLAR, 1))
    (folder / "00002.pgn").write_text(board_pgn(LONG, 2, resign=1))            # Black resigns: 1-0
    (folder / "00003.pgn").write_text(board_pgn(LONG[:5], 3))                  # unfinished: '*'
    (folder / "00010.pgn").write_text(board_pgn(LONG[:6], 10, resign=0))       # White resigns early: 0-1
    return tmp_path / "games"


class TestImport:
    def test_board_archive_imported_once(self, ladder, archive, capsys):
        report = ladder.import_pgn(str(archive), white="Anna", black="Bruno", date="2026-11-22")
        assert [os.path.basename(s) for s, _ in report.added] == ["00001.pgn", "00002.pgn", "00010.pgn"]
        assert [os.path.basename(s) for s, _ in report.skipped] == ["00003.pgn"]
        games = ladder.games()
        assert [(g["result"], g["moves"], g["resigned"], g["date"]) for g in games] == [
            ("1-0", 7, 0, "2026-11-22"), ("1-0", 24, 1, "2026-11-22"), ("0-1", 6, 1, "2026-11-22")]
        # Mate counts (+15), the resignation after 24 moves counts (+14), the early one does not.
        assert general(ladder) == {"Anna": 1029, "Bruno": 971, "Carla": 1000}
        before = snapshot(ladder.path)
        # Again, from the CLI, with the archive folder itself: nothing new.
        assert main(["--db", ladder.path, "import", str(archive / "archive"), "--white", "Anna",
                     "--black", "Bruno"]) == 0
        assert "imported 0 games, 3 already there, 1 skipped" in capsys.readouterr().out
        assert snapshot(ladder.path) == before

    def test_same_game_with_names_filled_in_later_is_the_same_game(self, ladder, tmp_path):
        f = tmp_path / "00001.pgn"
        f.write_text(board_pgn(SCHOLAR, 1))
        ladder.import_pgn(str(f), white="Anna", black="Bruno")
        f.write_text(board_pgn(SCHOLAR, 1, {"White": "Anna", "Black": "Bruno"}))
        report = ladder.import_pgn(str(f))
        assert (len(report.added), len(report.duplicates)) == (0, 1)
        # The same moves in another of the board's games are another game.
        f.write_text(board_pgn(SCHOLAR, 2, {"White": "Anna", "Black": "Bruno"}))
        assert len(ladder.import_pgn(str(f)).added) == 1

    def test_names_and_date_from_the_tags(self, ladder, tmp_path):
        f = tmp_path / "g.pgn"
        f.write_text(board_pgn(SCHOLAR, 5, {"White": "Carla", "Black": "Anna", "Date": "2026.10.31"}))
        ladder.import_pgn(str(f), white="Bruno", black="Bruno")    # tags win over the options
        g = ladder.games()[0]
        assert (g["white"], g["black"], g["date"]) == ("Carla", "Anna", "2026-10-31")
        assert monthly(ladder, "2026-10") == {"Carla": 1015, "Anna": 985}
        stored = ladder.conn.execute("SELECT pgn FROM games").fetchone()[0]
        assert "Qxf7#" in stored

    def test_a_name_with_pgn_escapes_is_its_player(self, ladder, tmp_path):
        ladder.add_player('Al "Hammer" \\ Rossi')
        f = tmp_path / "g.pgn"
        f.write_text(board_pgn(SCHOLAR, 5, {"White": 'Al "Hammer" \\ Rossi', "Black": "Anna"}))
        assert '[White "Al \\"Hammer\\" \\\\ Rossi"]' in f.read_text(), "the board escapes it"
        assert len(ladder.import_pgn(str(f)).added) == 1
        assert ladder.games()[0]["white"] == 'Al "Hammer" \\ Rossi'

    def test_a_fifo_in_the_games_folder_is_passed_over(self, ladder, archive):
        os.mkfifo(str(archive / "archive" / "00004.pgn"))
        try:
            run = subprocess.run([sys.executable, "-m", "host_tools.ladder", "--db", ladder.path, "import",
                                  str(archive), "--white", "Anna", "--black", "Bruno"],
                                 capture_output=True, text=True, cwd=ROOT, timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError("the import hung on the FIFO") from None
        assert run.returncode == 0 and "imported 3 games" in run.stdout, run.stderr

    def test_deeply_nested_variations_are_read_in_linear_time(self, ladder, tmp_path):
        import time
        from host_tools.ladder import pgnfiles
        depth = 20000
        text = '[White "Anna"]\n[Black "Bruno"]\n[Result "1-0"]\n\n1. e4 ' + "( 1. d4 " * depth + ")" * depth + \
            " 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
        t0 = time.perf_counter()
        cleaned = pgnfiles._without_variations(text)
        took = time.perf_counter() - t0
        assert " ".join(cleaned.split()).endswith("1. e4 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
        assert took < 1.0, "%.2f s for 20,000 levels (the old loop: 28 s)" % took

    def test_unknown_names_are_skipped_with_a_reason(self, ladder, archive):
        report = ladder.import_pgn(str(archive))
        assert report.added == [] and len(report.skipped) == 4
        assert any("--white and --black" in why for _s, why in report.skipped)

    def test_termination_abandoned(self, ladder, tmp_path):
        f = tmp_path / "g.pgn"
        f.write_text(board_pgn(LONG, 1, {"White": "Anna", "Black": "Bruno", "Result": "1-0",
                                         "Termination": "abandoned", "Date": "2026.11.02"}))
        ladder.import_pgn(str(f))
        assert general(ladder) == {"Anna": 1015, "Bruno": 965, "Carla": 1000}

    def test_sprint_games_are_not_rated(self, ladder, tmp_path):
        pos = SprintPosition(seed=42)
        f = tmp_path / "00001.pgn"
        f.write_text(pos.pgn({"Event": "Scacchiera", "Round": "1"}))
        report = ladder.import_pgn(str(f), white="Anna", black="Bruno")
        assert report.added == [] and "not rated" in report.skipped[0][1]

    @pytest.mark.parametrize("text, why", [
        ("hello world\n", "no PGN tags"),
        ('[Event "x"]\n[Result "1-0"]\n\n1. e4 e9 1-0\n', "'e9'"),
        ('[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n', "illegal"),
        ('[Event "x"\n\n1. e4 *\n', "bad tag line"),
        ('[Event "x"]\n[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n', "checkmate"),
        ('[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n', "the Result tag"),
        ("", "no PGN game"),
    ])
    def test_a_pgn_that_does_not_parse_is_refused_alone_and_skipped_in_a_folder(self, ladder, archive, text, why):
        bad = archive / "archive" / "00004.pgn"
        bad.write_text(text)
        before = snapshot(ladder.path)
        with pytest.raises(LadderError, match="00004.pgn") as err:
            ladder.import_pgn(str(bad), white="Anna", black="Bruno")
        assert why in str(err.value)
        assert snapshot(ladder.path) == before
        report = ladder.import_pgn(str(archive), white="Anna", black="Bruno")
        assert len(report.added) == 3                 # the folder's other games, the unfinished one skipped
        reasons = [reason for source, reason in report.skipped if source.endswith("00004.pgn")]
        assert len(reasons) == 1 and why in reasons[0], report.skipped

    def test_a_file_that_is_not_utf8_is_skipped_in_a_folder(self, ladder, archive):
        """A tag written as CESU-8 (an emoji's two surrogate halves, as MicroPython's json left them)
        made the folder import refuse every game (0 of 2)."""
        (archive / "archive" / "00004.pgn").write_bytes(
            board_pgn(SCHOLAR, 4).replace('[White "?"]', '[White "King \udc51"]').encode("utf-8", "surrogatepass"))
        report = ladder.import_pgn(str(archive), white="Anna", black="Bruno")
        assert len(report.added) == 3
        assert [s for s, r in report.skipped if s.endswith("00004.pgn") and "cannot read" in r], report.skipped

    def test_an_unknown_player_stops_the_whole_import(self, ladder, archive):
        before = snapshot(ladder.path)
        with pytest.raises(LadderError, match="unknown player 'Zoe'"):
            ladder.import_pgn(str(archive), white="Anna", black="Zoe")
        assert snapshot(ladder.path) == before

    def test_the_boards_temporary_file_is_ignored(self, ladder, archive):
        (archive / "archive" / "tmp.pgn").write_text('[Event "Scacchiera"]\n\n1. e4 e')
        assert len(ladder.import_pgn(str(archive), white="Anna", black="Bruno").added) == 3


# -- the database ----------------------------------------------------------------------------


class TestDatabase:
    def test_default_path_is_in_the_users_data_folder(self, tmp_path, monkeypatch):
        monkeypatch.delenv("SCACCHIERA_LADDER_DB", raising=False)
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        if sys.platform.startswith("linux"):
            assert default_path() == str(tmp_path / "data" / "scacchiera" / "ladder.sqlite3")
        monkeypatch.setenv("SCACCHIERA_LADDER_DB", str(tmp_path / "env.db"))
        assert default_path() == str(tmp_path / "env.db")
        assert main(["add-player", "Anna"]) == 0
        with Ladder(str(tmp_path / "env.db")) as lad:
            assert [p["name"] for p in lad.players()] == ["Anna"]

    def test_schema_version(self, ladder):
        assert ladder.conn.execute("PRAGMA user_version").fetchone()[0] == VERSION == 2

    def test_a_newer_database_is_refused_untouched(self, ladder, capsys):
        ladder.record("Anna", "Bruno", "1-0")
        ladder.conn.execute("PRAGMA user_version = %d" % (VERSION + 1))
        ladder.close()
        with open(ladder.path, "rb") as f:
            before = f.read()
        assert main(["--db", ladder.path, "record", "Anna", "Bruno", "1-0"]) == 2
        err = capsys.readouterr().err
        assert "newer version" in err and err.count("\n") == 1
        with open(ladder.path, "rb") as f:
            assert f.read() == before

    @pytest.mark.parametrize("content", [b"this is not a database" * 100, b""])
    def test_a_file_that_is_not_a_ladder(self, tmp_path, content):
        other = tmp_path / "other.db"
        if content:
            other.write_bytes(content)
        else:
            conn = sqlite3.connect(str(other))
            conn.execute("CREATE TABLE notes (x)")
            conn.commit()
            conn.close()
        before = other.read_bytes()
        with pytest.raises(LadderError):
            Ladder(str(other))
        assert other.read_bytes() == before

    def test_delete_game(self, ladder):
        gid = ladder.record("Anna", "Bruno", "1-0")
        ladder.delete_game(gid)
        assert general(ladder) == {"Anna": 1000, "Bruno": 1000, "Carla": 1000}
        with pytest.raises(LadderError):
            ladder.delete_game(gid)


def _record_many(args):
    path, worker, count = args
    with Ladder(path) as lad:
        for i in range(count):
            lad.record("Anna", "Bruno", ("1-0", "0-1", "1/2-1/2")[(worker + i) % 3], moves=40,
                       date="2026-11-%02d" % (1 + i % 28))
            lad.next_colours("Anna", "Carla", seed=worker)
    return count


def test_several_processes_recording_at_once_lose_nothing(ladder):
    workers, each = 4, 15
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        done = pool.map_async(_record_many, [(ladder.path, w, each) for w in range(workers)]).get(timeout=120)
    assert sum(done) == workers * each
    assert len(ladder.games()) == workers * each
    assert ladder.conn.execute("SELECT count(*) FROM colour_lots").fetchone()[0] == 1
    row = {r["name"]: r for r in ladder.table()}
    assert row["Anna"]["games"] == row["Bruno"]["games"] == workers * each


# -- bad input on the command line -----------------------------------------------------------


class TestBadInput:
    @pytest.mark.parametrize("argv, message", [
        (["record", "Anna", "Zoe", "1-0"], "unknown player 'Zoe'"),
        (["record", "Anna", "Bruno", "2-0"], "bad result '2-0'"),
        (["record", "Anna", "Bruno", "1-0", "--date", "2026-13-01"], "bad date"),
        (["record", "Anna", "Bruno", "1-0", "--date", "20261101"], "bad date"),
        (["record", "Anna", "Anna", "1-0"], "against themself"),
        (["record", "Anna", "Bruno", "1/2-1/2", "--moves", "30", "--abandoned"], "not drawn"),
        (["record", "Anna", "Bruno", "1-0", "--abandoned"], "number of moves"),
        (["record", "Anna", "Bruno", "1-0", "--moves", "-1"], "number of moves"),
        (["record", "Anna", "Bruno", "1-0", "--moves", "x"], "invalid int"),
        (["record", "Anna", "Bruno", "1-0", "--resigned", "--abandoned", "--moves", "30"], "not allowed"),
        (["add-player", "anna"], "already a player 'Anna'"),
        (["add-player", "?"], "needs a name"),
        (["add-player", "Dario", "--elo", "-5"], "bad rating"),
        (["table", "--month", "2026-11-01"], "bad month"),
        (["history", "Zoe"], "unknown player"),
        (["next-colours", "Anna", "Zoe"], "unknown player"),
        (["import", "/nonexistent/folder"], "no such file"),
        (["delete-game", "9" * 30], "no game has the number"),
        (["add-player", "Al\x1b[2J"], "control character"),
        (["add-player", "x" * 41], "at most 40 characters"),
        (["frobnicate"], "invalid choice"),
    ])
    def test_one_line_exit_2_nothing_changed(self, ladder, capsys, argv, message):
        ladder.record("Anna", "Bruno", "1-0", date="2026-11-01")
        before = snapshot(ladder.path)
        assert main(["--db", ladder.path] + argv) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith("ladder: error: ") and captured.err.count("\n") == 1
        assert message in captured.err
        assert snapshot(ladder.path) == before

    def test_a_damaged_database_gets_one_line(self, ladder, capsys):
        ladder.conn.execute("UPDATE players SET name = CAST(x'ff41' AS TEXT) WHERE name = 'Carla'")
        assert main(["--db", ladder.path, "table"]) in (1, 2)
        err = capsys.readouterr().err
        assert err.startswith("ladder: error: ") and err.count("\n") == 1 and "Traceback" not in err

    def test_as_a_process(self, ladder):
        run = subprocess.run([sys.executable, "-m", "host_tools.ladder", "--db", ladder.path, "record", "Anna",
                              "Zoe", "1-0"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert run.returncode == 2
        assert run.stderr == "ladder: error: unknown player 'Zoe' (add-player first)\n"
        run = subprocess.run([sys.executable, "-m", "host_tools.ladder", "--db", ladder.path, "table"],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert run.returncode == 0 and "Anna" in run.stdout


# -- end to end: games played on the simulated board -----------------------------------------


def _play(hands, moves):
    """Move the pieces by hand (a capture: the mover lifted, then the captured piece, then put down)."""
    for uci in moves:
        a, b = uci[:2], uci[2:4]
        hands.run("lift %s\nwait 100" % a)
        if hands.present(_square(b)):
            hands.run("lift %s\nwait 150" % b)
        hands.run("place %s\nwait 400" % b)


def _square(name):
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def test_games_archived_by_the_firmware_are_rated(tmp_path, ladder):
    from host_tools.sim.device import FirmwareHands, OsFS

    games = tmp_path / "games"
    for board, moves, end in (("one", SCHOLAR, None), ("two", LONG[:4], "resign b")):
        flash = games / board
        flash.mkdir(parents=True)
        hands = FirmwareHands(fs=OsFS(str(flash)))
        _play(hands, moves)
        assert hands.moves() == moves
        if end:
            hands.send(end)
        hands.send("new")            # the finished game goes to the archive
    report = ladder.import_pgn(str(games), white="Anna", black="Bruno", date="2026-11-22")
    assert len(report.added) == 2 and not report.skipped
    assert [(g["result"], g["moves"], g["resigned"]) for g in ladder.games()] == [("1-0", 7, 0), ("1-0", 4, 1)]
    # The mate counts; the resignation came before White's 11th move, so nothing changes hands.
    assert general(ladder) == {"Anna": 1015, "Bruno": 985, "Carla": 1000}


def test_board_games_lost_on_time_or_abandoned_are_rated_as_seed_003_says(tmp_path, ladder):
    """A flag fall is a plain loss (the 10-move rule is for resignations and abandonment);
    an abandoned game costs the abandoner 20 points, and its few moves give the winner nothing."""
    from host_tools.sim.device import FirmwareHands, OsFS

    games = tmp_path / "games"
    for board in ("one", "two"):
        (games / board).mkdir(parents=True)
    hands = FirmwareHands(fs=OsFS(str(games / "one")))
    hands.run("set clock 1+0")
    _play(hands, SCHOLAR[:4])            # 1. e4 e5 2. Qh5 Nc6: White to move, never does
    hands.run("wait 61000")
    assert hands.result() == ["0-1", "time_forfeit"]
    hands.send("new")
    hands = FirmwareHands(fs=OsFS(str(games / "two")))
    hands.run("set abandon_min 1")
    _play(hands, LONG[:3])               # 1. e4 e5 2. Nf3: Black to move, leaves the board
    hands.run("wait 61000\n" + "lift e1\nwait 100\nplace e1\nwait 100\n" * 3 + "wait 800")
    assert hands.result() == ["1-0", "abandoned"]
    hands.send("new")
    report = ladder.import_pgn(str(games), white="Anna", black="Bruno", date="2026-11-22")
    assert len(report.added) == 2 and not report.skipped
    assert [(g["result"], g["moves"], g["resigned"], g["abandoned"]) for g in ladder.games()] == [
        ("0-1", 4, 0, 0), ("1-0", 3, 0, 1)]
    # Bruno wins on time (+15); then abandons after White's 2nd move: -20, and no points change hands.
    assert general(ladder) == {"Anna": 985, "Bruno": 995, "Carla": 1000}


class TestPuzzles:
    def test_a_players_puzzle_rating_is_seed_003s_elo_replayed_from_the_attempts(self, ladder):
        rating = elo.START
        for puzzle, puzzle_rating, solved in (("a1b2c", 1200, True), ("00fff", 900, False), ("a1b2c", 1200, True)):
            rating += elo.change(rating, puzzle_rating, 1.0 if solved else 0.0)
            standing = ladder.record_puzzle("Anna", puzzle, puzzle_rating, solved, ms=31000, date="2026-11-27")
            assert standing["rating"] == rating
        assert standing == {"name": "Anna", "rating": rating, "attempts": 3, "solved": 2, "tried": ["00fff", "a1b2c"]}
        assert ladder.puzzles("Bruno")["rating"] == elo.START
        assert [r["name"] for r in ladder.table() if r["elo"] != elo.START] == []   # the game table is apart

    def test_a_new_name_is_added_only_when_asked_and_bad_input_changes_nothing(self, ladder):
        with pytest.raises(LadderError, match="unknown player"):
            ladder.record_puzzle("Dario", "a1b2c", 1000, True)
        assert ladder.record_puzzle("Dario", "a1b2c", 1000, True, new_player=True)["attempts"] == 1
        for args in (("Anna", "", 1000, True), ("Anna", "a1b2c", -5, True), ("Anna", "a1b2c", 1000, True, -1),
                     ("Anna", "a1b2c", True, True)):
            with pytest.raises(LadderError):
                ladder.record_puzzle(*args)
        assert ladder.puzzles("Anna")["attempts"] == 0

    def test_a_version_1_file_is_upgraded_with_its_games_kept(self, tmp_path):
        path = str(tmp_path / "old.sqlite3")
        from host_tools.ladder import db
        conn = sqlite3.connect(path, isolation_level=None)
        for statement in db._statements(db.SCHEMA):
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO players (name, initial_elo) VALUES ('Anna', 1000), ('Bruno', 1000)")
        conn.execute("INSERT INTO games (white, black, result, date) VALUES (1, 2, '1-0', '2026-11-01')")
        conn.close()
        with Ladder(path) as lad:
            assert lad.conn.execute("PRAGMA user_version").fetchone()[0] == 2
            assert [r["name"] for r in lad.table()] == ["Anna", "Bruno"] and lad.table()[0]["elo"] == 1015
            assert lad.record_puzzle("Bruno", "a1b2c", 1000, True)["rating"] == 1015


def test_a_game_recorded_by_itself_says_why_the_ladder_refused_it(tmp_path):
    """ladder.recorded: the one place the words of a refused recording are written (a board's rated
    game, an online game, a club's result, a puzzle all say them)."""
    from host_tools.ladder.ladder import recorded
    path = str(tmp_path / "ladder.sqlite3")
    answer, refused = recorded(path, lambda ladder: ladder.add_players(["Anna", "Bruno"]) or "added")
    assert (answer, refused) == ("added", None)
    answer, refused = recorded(path, lambda ladder: ladder.record("Anna", "Anna", "1-0"))
    assert answer is None and refused == "not recorded in the ladder: 'Anna' cannot play against themself"
    os.makedirs(tmp_path / "a folder")
    answer, refused = recorded(str(tmp_path / "a folder"), lambda ladder: "never")
    assert answer is None and refused.startswith("not recorded in the ladder: cannot ")
