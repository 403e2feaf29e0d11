"""The page's "Train" dialog: a puzzle for a named player, a game replayed or guessed, an opening.

The drills run on the board (firmware/scacchiera/training/); this turns the
page's fields into the protocol's ``line`` and ``train`` commands and keeps
each player's puzzle record in the household ladder:

- **puzzle**: for a named player, the companion chooses (the puzzle of the
  set rated nearest the player's puzzle rating that they have not tried,
  with the theme asked for) and sends its index; the board's own choice
  (its own record) when no player is named. When the board says the puzzle
  is done, the attempt goes into the ladder (Ladder.record_puzzle).
- **replay**, **guess**, **opening**: a PGN (pasted, uploaded, or a game
  of the board's archive) read by python-chess: its main line from its
  start position, in ``line`` commands of at most ``CHUNK`` plies (a
  protocol line is at most 512 bytes), then ``train``. An opening with no
  PGN trains the board's own book.
"""

import io
import random

import chess
import chess.pgn

from host_tools.training.puzzle_csv import read_csv

MODES = ("puzzle", "replay", "guess", "opening")
CHUNK = 80                 # plies a line command: 80 x 5 characters and the JSON around them < 512
MAX_PGN = 15000            # characters of PGN: a page's message is at most 16 KB (server.MAX_MESSAGE)


class TrainingError(ValueError):
    pass


_puzzles = None


def puzzles():
    """The project's puzzle set, in the board's file order (the CSV's): read once."""
    global _puzzles
    if _puzzles is None:
        _puzzles = read_csv()
    return _puzzles


def choose_puzzle(rating, tried=(), theme=None):
    """The index of the puzzle rated nearest ``rating`` with ``theme``, not in ``tried`` (ids) if
    any such is left; TrainingError if no puzzle has the theme."""
    candidates = [(i, p) for i, p in enumerate(puzzles()) if theme is None or theme in p[4]]
    if not candidates:
        raise TrainingError("no puzzle has the theme %s" % theme)
    fresh = [(i, p) for i, p in candidates if p[0] not in tried] or candidates
    return min(fresh, key=lambda ip: (abs(ip[1][3] - rating), ip[0]))[0]


def pgn_line(text, number=0):
    """(start FEN or None, [uci...]) of game ``number`` of a PGN text, its main line."""
    if not isinstance(text, str) or not text.strip():
        raise TrainingError("no PGN given")
    if len(text) > MAX_PGN:
        raise TrainingError("a PGN of at most %d characters" % MAX_PGN)
    stream = io.StringIO(text)
    game = None
    for _ in range(number + 1):
        game = chess.pgn.read_game(stream)
        if game is None:
            raise TrainingError("the PGN has no game %d" % (number + 1))
    if game.errors:
        raise TrainingError("the PGN cannot be read: %s" % game.errors[0])
    if game.board().chess960 or game.headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
        raise TrainingError("drills are for standard chess (this game is %s)" % game.headers.get("Variant"))
    moves = [m.uci() for m in game.mainline_moves()]
    if not moves:
        raise TrainingError("the game has no moves")
    fen = game.headers.get("FEN") if game.headers.get("SetUp") == "1" else None
    return fen, moves


def pgn_games(text):
    """How many games a PGN text holds (an opening's lines: one is drawn each time)."""
    stream = io.StringIO(text)
    count = 0
    while chess.pgn.read_headers(stream) is not None:
        count += 1
    return count


def commands(fields, ladder_path=None):
    """(the protocol commands that start the drill, the player whose puzzle it is or None)."""
    mode = fields.get("mode")
    if mode == "stop":
        return [{"cmd": "train", "mode": "stop"}], None
    if mode not in MODES:
        raise TrainingError("'mode' is one of %s or stop" % ", ".join(MODES))
    side = fields.get("side", "w")
    if side not in ("w", "b"):
        raise TrainingError("'side' is w or b")
    if mode == "puzzle":
        return _puzzle(fields, ladder_path)
    pgn = fields.get("pgn")
    train = {"cmd": "train", "mode": mode}
    if mode != "replay":
        train["side"] = side
    if mode == "opening" and not pgn:
        train["seed"] = random.randrange(1 << 16)
        return [train], None
    number = fields.get("game", 0)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise TrainingError("'game' is a game's number in the PGN, from 0")
    if mode == "opening":
        number = random.randrange(pgn_games(pgn) or 1)      # one of the user's lines
    fen, moves = pgn_line(pgn, number)
    if fen is not None:
        train["fen"] = fen
    out = [{"cmd": "line", "moves": " ".join(moves[i:i + CHUNK])} for i in range(0, len(moves), CHUNK)]
    return out + [train], None


def _puzzle(fields, ladder_path):
    theme = fields.get("theme") or None
    rating = fields.get("rating")
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int)):
        raise TrainingError("'rating' is a whole number")
    player = (fields.get("player") or "").strip() or None
    train = {"cmd": "train", "mode": "puzzle"}
    if player is None:
        for key, value in (("theme", theme), ("rating", rating)):
            if value is not None:
                train[key] = value
        return [train], None
    standing = player_standing(ladder_path, player)
    train["puzzle"] = choose_puzzle(standing["rating"] if rating is None else rating, standing["tried"], theme)
    return [train], player


def player_standing(ladder_path, name):
    """A player's puzzle standing in the ladder (a fresh one for a name it does not have)."""
    fresh = {"name": name, "rating": 1000, "attempts": 0, "solved": 0, "tried": []}
    if ladder_path is None:
        return fresh
    from host_tools.ladder.ladder import Ladder
    from host_tools.ladder.db import LadderError
    try:
        with Ladder(ladder_path) as ladder:
            return ladder.puzzles(name)
    except LadderError:
        return fresh


def record(ladder_path, player, event):
    """A puzzle's ``drill`` event (state done) into the ladder for ``player``: what to tell the page."""
    if ladder_path is None:
        return "not recorded: no ladder"
    from host_tools.ladder.ladder import recorded
    before = player_standing(ladder_path, player)["rating"]
    if "puzzle" not in event or "puzzle_rating" not in event or "solved" not in event:
        return "not recorded: the board's drill event lacks the puzzle's number, rating or outcome"
    after, refused = recorded(ladder_path, lambda ladder: ladder.record_puzzle(
        player, event["puzzle"], event["puzzle_rating"], event["solved"], event.get("ms"), new_player=True))
    if refused:
        return refused
    return "%s: puzzle rating %d (%+d)" % (player, after["rating"], after["rating"] - before)
