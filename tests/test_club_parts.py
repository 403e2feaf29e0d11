"""The club's parts on their own (host_tools/club: records.py, files.py, board_rows.py): no boards,
no threads, no server; test_club.py plays whole club nights through them."""

import os

from host_tools.club import feed
from host_tools.club.board_rows import BoardRows
from host_tools.club.files import ClubFiles
from host_tools.club.records import Records, key, pairing_tags
from host_tools.club.tournament import Tournament

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def tournament():
    t = Tournament("Club night", [(n, 1500 - 10 * i) for i, n in enumerate(NAMES)], "round-robin", boards=2,
                   clock="5+3", site="Circolo")
    return t, t.pair_next()


def status(game, moves, result="*", clock=None):
    return {"game": game, "moves": moves.split(), "result": result, "clock": clock}


def test_a_pairings_record_follows_its_board_once_the_boards_game_carries_its_tags():
    t, rnd = tournament()
    g = rnd["games"][0]
    tags = pairing_tags(t, rnd, g)
    records = Records()
    start = (4, None, False, None, False)      # the board's game 4, from the usual start
    # The board still plays another game (its tags are not the pairing's): nothing bound.
    assert records.follow(t, g["board"], status(4, "e2e4"), {"Event": "?"}, start) == (set(), None, None)
    assert key(rnd, g) not in records.bound
    what, said, finished = records.follow(t, g["board"], status(4, "e2e4 e7e5"), tags, start)
    assert what == {"records", rnd["number"]} and said is None and finished is None
    assert records.bound[key(rnd, g)] == 4 and records.records[key(rnd, g)]["moves"] == ["e2e4", "e7e5"]
    # The board's game ends: the pairing's result, to be rated.
    what, said, finished = records.follow(t, g["board"], status(4, "e2e4 e7e5", result="1-0"), tags, start)
    assert "tournament" in what and finished == (rnd, g) and g["result"] == "1-0"
    # Another game on the board with the same number (it came back fresh): unbound, and said.
    what, said, finished = records.follow(t, g["board"], status(4, ""), dict(tags, White="Someone"), start)
    assert key(rnd, g) not in records.bound and finished is None
    assert said == {"key": "club_another_game", "board": g["board"], "plies": 0, "recorded": 2}, said


def test_a_game_sent_again_goes_on_where_its_record_stood():
    t, rnd = tournament()
    g = rnd["games"][1]
    records = Records()
    records.follow(t, g["board"], status(2, "d2d4 d7d5"), pairing_tags(t, rnd, g), (2, None, False, None, False))
    fen = records.start_again(rnd, g)
    assert fen == feed.position_after({"fen": None, "moves": ["d2d4", "d7d5"]})
    assert records.records[key(rnd, g)]["prefix"] == ["d2d4", "d7d5"] and key(rnd, g) not in records.bound
    # On its new board the game goes on: the feed has the moves before and after.
    records.follow(t, g["board"], status(9, "g1f3"), pairing_tags(t, rnd, g), (9, fen, False, None, False))
    assert records.records[key(rnd, g)]["moves"] == ["d2d4", "d7d5", "g1f3"]
    assert records.start_again(dict(rnd), {"white": 99, "black": 98, "board": 1}) is None


def test_the_feed_has_each_round_game_with_the_clubs_headers_cached_by_version():
    t, rnd = tournament()
    records = Records()
    g = rnd["games"][0]
    records.follow(t, g["board"], status(1, "e2e4", clock={"white": 299000}), pairing_tags(t, rnd, g),
                   (1, None, False, None, False))
    games = records.round_games(t, rnd["number"], 1)
    assert len(games) == 2 and '[Board "1"]' in games[0] and "[%clk 0:04:59]" in games[0]
    assert records.round_games(t, rnd["number"], 1) is games          # the same version: the same texts
    assert records.round_games(t, rnd["number"], 2) is not games


def test_a_casual_games_feed_names_the_boards_players():
    records = Records()
    assert records.follow_casual(3, status(7, "e2e4"), {"White": "Anna"}, (7, None, False, None, False),
                                 {"white": "", "black": "Bruno"})
    assert not records.follow_casual(3, status(7, "e2e4"), {"White": "Anna"}, (7, None, False, None, False),
                                     {"white": "", "black": "Bruno"})
    (text,) = records.casual_games()
    assert '[White "Anna"]' in text and '[Black "Bruno"]' in text and '[Board "3"]' in text


def test_the_clubs_files_round_trip_and_a_new_folder_is_empty(tmp_path):
    files = ClubFiles(str(tmp_path / "club"))
    assert files.load() == (None, {}, {})
    t, rnd = tournament()
    records = {"1:1-4": feed.new_record()}
    texts = files.texts({"tournament", "records", 1}, t, records, {"1:1-4": 5}, lambda n: "round %d" % n)
    assert sorted(os.path.basename(p) for p, _ in texts) == ["crosstable.txt", "records.json", "round-1.pgn",
                                                             "standings.txt", "tournament.json"]
    from host_tools.club.files import write
    for path, text in texts:
        write(path, text)
    loaded, loaded_records, bound = files.load()
    assert loaded.name == "Club night" and loaded_records == records and bound == {"1:1-4": 5}
    assert not [p for p in os.listdir(files.folder) if p.endswith(".tmp")]


def test_the_club_pages_last_move_is_san_with_its_move_number():
    rows = BoardRows()
    start = (1, None, False, None, False)
    assert rows.last_san(0, start, ["e2e4", "e7e5", "g1f3"]) == "2. Nf3"
    assert rows.last_san(0, start, ["e2e4", "e7e5"]) == "1… e5"
    assert rows.last_san(1, (1, None, True, 5, False), ["P@d3"]) == "P@d3"          # Sprint: its UCI
    assert rows.last_san(2, start, []) is None
