"""The board's PGN archive (``make pgn``: games/archive/NNNNN.pgn) read for the ladder.

Each game is parsed and replayed with python-chess. What the ladder needs
comes from its headers and moves: White, Black, Result, Date, the number of
moves, and how it ended. The board writes '?' for the players and the date
and no Termination tag (docs/ladder.md says what the import does then). A
game that does not parse is an error for the whole import; an unfinished
game ('*') or a Scacchi Sprint game is skipped with a reason.
"""

import datetime
import hashlib
import io
import os
import re

import chess
import chess.pgn

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera.rules import outcome

from .db import LadderError

_ARCHIVE_NAME = re.compile(r"^(\d+)\.pgn$")
_TEMP = "tmp.pgn"       # storage/archive.py's half-written file: never a finished game
UNKNOWN_NAMES = ("", "?", "-")   # what PGN writes for a player it does not know


class PgnGame:
    """One game read from a file: the fields the ladder stores, or ``skip`` (why it is not rated)."""

    def __init__(self, source, text):
        self.source = source
        self.pgn = text
        self.white = self.black = None
        self.result = None
        self.date = None
        self.moves = 0
        self.resigned = self.abandoned = False
        self.skip = None
        self.hash = None


def files(path):
    """The .pgn files under ``path`` (a file, or a folder searched recursively), in the board's order.
    Regular files only: a FIFO or a device named .pgn would block the import for ever."""
    if os.path.isfile(path):
        return [path]
    if os.path.exists(path) and not os.path.isdir(path):
        raise LadderError("not a regular file or a folder: %s" % path)
    if not os.path.isdir(path):
        raise LadderError("no such file or folder: %s" % path)
    found = []
    for folder, _dirs, names in os.walk(path):
        for name in names:
            full = os.path.join(folder, name)
            if name.lower().endswith(".pgn") and name != _TEMP and os.path.isfile(full):
                found.append(full)
    return sorted(found, key=_board_order)


def _board_order(path):
    """Folder, then the board's game number (00009 before 00010), then the name."""
    folder, name = os.path.split(path)
    m = _ARCHIVE_NAME.match(name)
    return (folder, 0 if m else 1, int(m.group(1)) if m else 0, name)


def read(path):
    """The games in one file; LadderError if it cannot be read or a game does not parse."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise LadderError("cannot read %s: %s" % (path, e)) from None
    return parse(text, path)


def parse(text, source):
    """The games of a PGN text (``source`` names it in messages); LadderError if a game does not parse."""
    stream = io.StringIO(text)
    games = []
    while True:
        start = stream.tell()
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        games.append(_game(source, text[start:stream.tell()].strip() + "\n", game))
    if not games:
        raise LadderError("%s: no PGN game in it" % source)
    return games


def _game(path, text, game):
    g = PgnGame(path, text)
    headers = game.headers
    variant = headers.get("Variant", "")
    if variant and variant.lower() not in ("standard", "chess", "from position"):
        g.skip = "a %s game, not chess: not rated" % variant
        return g
    problem = _strict_problem(text, game)
    if problem:
        raise LadderError("%s: the PGN does not parse: %s" % (path, problem))
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    g.moves = len(board.move_stack)
    g.result = headers.get("Result", "*")
    if g.result == outcome.ONGOING:
        g.skip = "unfinished (*): not rated"
        return g
    if g.result not in (outcome.WHITE_WINS, outcome.BLACK_WINS, outcome.DRAW):
        raise LadderError("%s: the PGN does not parse: Result %r" % (path, g.result))
    mate = board.is_checkmate()
    if mate and g.result != (outcome.BLACK_WINS if board.turn == chess.WHITE else outcome.WHITE_WINS):
        raise LadderError("%s: Result %s but the last move is checkmate the other way" % (path, g.result))
    termination = headers.get("Termination", "").strip().lower()
    if g.result != outcome.DRAW and not mate:
        if termination == outcome.pgn_termination(outcome.abandoned):
            g.abandoned = True
        elif termination in ("", outcome.PGN_NORMAL, outcome.resignation, "resigned"):   # (the last two: other programs' words)
            g.resigned = True          # the board ends a game decisively only by mate or resignation
    g.white = _name(headers.get("White"))
    g.black = _name(headers.get("Black"))
    g.date = _date(headers.get("Date", ""))
    g.hash = _identity(game)
    return g


_TAG = re.compile(r'^\s*\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*$')
_SKIPPED = re.compile(r"\{[^}]*\}|;[^\n]*|\$\d+|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[!?]+")
_PARENS = re.compile(r"[()]")
_ESCAPE = re.compile(r"\\(.)")


def _strict_problem(text, game):
    """Why ``text`` is not a whole PGN game, or None.

    python-chess reads leniently (a word it does not know is passed over,
    'hello' is a game with no moves): here every tag line must be a tag, at
    least one tag must be there, and every word of the movetext must have
    been read as a move.
    """
    if game.errors:
        return str(game.errors[0])
    lines = text.splitlines()
    tags = 0
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("[")):
        line = lines.pop(0)
        if line.strip():
            if not _TAG.match(line):
                return "bad tag line %r" % line.strip()[:40]
            tags += 1
    if not tags:
        return "no PGN tags"
    ending = "\n".join(lines).split()[-1:]
    if ending and ending[0] in ("1-0", "0-1", "1/2-1/2", "*") and ending[0] != game.headers.get("Result", "*"):
        return "the Result tag says %s, the moves end with %s" % (game.headers.get("Result", "*"), ending[0])
    words = _without_variations(_SKIPPED.sub(" ", "\n".join(lines))).split()
    if len(words) != len(list(game.mainline_moves())):
        unread = [w for w in words if w.rstrip("+#") not in _sans(game)]
        return "cannot read %r as a move" % (unread[0] if unread else words[-1])[:40]
    return None


def _without_variations(movetext):
    """The movetext without its (variations), however deeply nested: one pass (the text's comments
    are gone already). Stripping the innermost level again and again took 28 s on 20,000 levels."""
    out = []
    depth = start = 0
    for m in _PARENS.finditer(movetext):
        if m.group() == "(":
            if depth == 0:
                out.append(movetext[start:m.start()])
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                out.append(" ")
                start = m.end()
    if depth == 0:
        out.append(movetext[start:])
    return "".join(out)


def _sans(game):
    board = game.board()
    out = set()
    for move in game.mainline_moves():
        out.add(board.san(move).rstrip("+#"))
        board.push(move)
    return out


def _name(value):
    value = unescape((value or "").strip())
    return None if value in UNKNOWN_NAMES else value


def unescape(value):
    """A PGN tag's value as written: \\" and \\\\ read back (python-chess keeps the escapes)."""
    return _ESCAPE.sub(r"\1", value)


def _date(value):
    """'2026.11.22' -> '2026-11-22'; None when any part is unknown ('????.??.??')."""
    try:
        return datetime.datetime.strptime(value.strip(), "%Y.%m.%d").date().isoformat()
    except ValueError:
        return None


def _identity(game):
    """A hash of the game itself: its tags (but the players, which an import may fill in) and moves."""
    tags = sorted((k, v) for k, v in game.headers.items() if k not in ("White", "Black"))
    text = "\n".join("%s=%s" % kv for kv in tags) + "\n" + " ".join(m.uci() for m in game.mainline_moves())
    return hashlib.sha256(text.encode()).hexdigest()
