"""lichess_records: an online game kept, as Lichess's own PGN export has it (read back by python-chess)
and in the household ladder. No network."""

import io

import chess
import chess.pgn

from host_tools.companion import lichess_records
from host_tools.companion.lichess_game import OnlineGame
from host_tools.ladder.ladder import Ladder

FULL = {"id": "abcd1234", "speed": "rapid", "clock": {"initial": 600000, "increment": 5000},
        "white": {"id": "player", "name": "Player", "rating": 1612}, "black": {"aiLevel": 3}}


def finished(moves, status, winner, fen=None):
    g = OnlineGame("abcd1234", "white")
    g.full = FULL
    if fen:
        g.initial = chess.Board(fen)
    g.moves = moves.split()
    g.status, g.winner = status, winner
    return g


def test_the_saved_pgn_is_lichesss_export_of_the_game(tmp_path):
    g = finished("f2f3 e7e5 g2g4 d8h4", "mate", "black")
    path = lichess_records.save_pgn(g, str(tmp_path / "lichess"), "https://lichess.example/")
    game = chess.pgn.read_game(io.StringIO(open(path, encoding="utf-8").read()))
    assert not game.errors and path.endswith("abcd1234.pgn")
    h = game.headers
    assert (h["White"], h["Black"], h["WhiteElo"], h["Result"]) == ("Player", "Lichess AI level 3", "1612", "0-1")
    assert (h["Event"], h["Site"], h["TimeControl"], h["Termination"]) == (
        "Lichess rapid game", "https://lichess.example/abcd1234", "600+5", "Normal")
    assert "BlackElo" not in h
    assert [m.uci() for m in game.mainline_moves()] == g.moves and game.end().board().is_checkmate()


def test_a_game_from_a_position_and_lichesss_own_termination_words():
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    g = finished("e2e4", "outoftime", "black", fen)
    game = chess.pgn.read_game(io.StringIO(lichess_records.pgn(g, "https://lichess.org")))
    assert game.headers["FEN"] == fen and game.headers["Termination"] == "Time forfeit"
    assert game.headers["Result"] == "0-1"


def test_the_ladder_gets_the_finished_game_once_as_an_online_one(tmp_path):
    path = str(tmp_path / "ladder.sqlite3")
    lichess_records.record_ladder(finished("e2e4 e7e5", "resign", "white"), path)
    lichess_records.record_ladder(finished("e2e4", "started", None), path)       # not over: not recorded
    with Ladder(path) as ladder:
        games = ladder.games()
    assert len(games) == 1 and games[0]["online"] and games[0]["result"] == "1-0" and games[0]["resigned"]
