"""What a line of Lichess's streams must look like before the companion acts on it.

Lichess's ndjson streams (the event stream, a game's stream) are read as they come; a line of
another shape (``[1,2,3]``, ``null``, a clock of ``1e300`` or ``"abc"``, an event with no id) once
stopped the online game with no word on the page. ``event`` and ``game_line`` check a parsed line
against the shapes of Lichess's API description (lichess-org/api: board/api-stream-event.yaml,
board/api-board-game-stream-gameId.yaml) as far as the companion reads it, and raise ``BadLine``
saying what is wrong; the reader (``checked_lines``, before berserk converts the line, where
those shapes raised) skips that line, logs it and goes on. ``lines`` reads a stream's lines in
linear time with a cap on their length (a 10 MB line took requests' ``iter_lines`` 62 s).
"""

import json
import logging
import re

import chess

MAX_LINE = 65536          # bytes: Lichess's longest lines (a gameFull of a long game) are a few KB
MAX_CLOCK_MS = 2 ** 31    # Lichess sends 2147483647 ms for a game without a clock
_ID = re.compile(r"^[A-Za-z0-9]{1,32}$")
_LOG = logging.getLogger("scacchiera.lichess")


class BadLine(ValueError):
    """A stream's line the companion cannot read: its words say what is wrong (never its content)."""


def lines(response, max_line=MAX_LINE):
    """A streamed response's lines (bytes, without the line end), read in linear time; a line over
    ``max_line`` bytes is dropped to its end and logged (replaces requests' ``iter_lines``, which
    copies the whole pending line for each chunk)."""
    buffer = bytearray()
    dropping = False
    for chunk in response.iter_content(chunk_size=512):   # (as requests' iter_lines reads: each HTTP chunk as it comes)
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if not dropping:
                buffer += chunk[start:end]
                yield bytes(buffer).rstrip(b"\r")
            buffer.clear()
            dropping = False
            start = end + 1
        if not dropping:
            buffer += chunk[start:]
            if len(buffer) > max_line:
                _LOG.warning("a line from Lichess over %d bytes was skipped", max_line)
                buffer.clear()
                dropping = True
    if buffer and not dropping:
        yield bytes(buffer)


def checked_lines(response, check, skipped, max_line=MAX_LINE):
    """``lines`` whose JSON passes ``check`` (``event``, ``game_line``; None: any JSON): berserk
    decodes and converts them. A line that is not JSON or fails its check is skipped, logged and
    told to ``skipped(reason)``; keep-alive newlines pass."""
    for line in lines(response, max_line):
        if not line.strip():
            yield line
            continue
        try:
            data = json.loads(line.decode("utf-8"))
            if check is not None:
                check(data)
        except BadLine as e:
            reason = str(e)
        except ValueError:
            reason = "a line that is not JSON"
        else:
            yield line
            continue
        _LOG.warning("a line from Lichess was skipped: %s (%d bytes)", reason, len(line))
        skipped(reason)


def check_for(path):
    """The check of the stream at URL ``path``: a game's stream, the event stream, else none."""
    if "/api/board/game/stream/" in path:
        return game_line
    if path.endswith("/api/stream/event"):
        return event
    return None


def event(line):
    """An event stream's line, checked: the dict, or BadLine."""
    _dict(line, "an event")
    kind = line.get("type")
    if kind in ("gameStart", "gameFinish"):
        game = _dict(line.get("game"), "its game")
        if not _is_id(game.get("gameId") or game.get("id")):
            raise BadLine("a %s event without a game id" % kind)
        _optional_dict(game.get("variant"), "its variant")
    elif kind in ("challenge", "challengeCanceled", "challengeDeclined"):
        challenge = _dict(line.get("challenge"), "its challenge")
        if not _is_id(challenge.get("id")):
            raise BadLine("a %s event without a challenge id" % kind)
        for key in ("destUser", "challenger", "variant", "timeControl"):
            _optional_dict(challenge.get(key), key)
    return line


def game_line(line):
    """A game stream's line, checked: the dict, or BadLine."""
    _dict(line, "a game's line")
    kind = line.get("type")
    if kind == "gameFull":
        state(_dict(line.get("state"), "its state"))
        for key in ("variant", "white", "black", "clock"):
            _optional_dict(line.get(key), key)
        fen = line.get("initialFen", "startpos")
        chess960 = (line.get("variant") or {}).get("key") == "chess960"
        try:
            if fen != "startpos":
                chess.Board(fen, chess960=chess960)
        except (TypeError, ValueError):
            raise BadLine("its initial position is not a FEN") from None
        clock = line.get("clock") or {}
        for key in ("initial", "increment"):
            _ms(clock.get(key), "the clock's " + key)
    elif kind == "gameState":
        state(line)
    elif kind == "opponentGone":
        if not isinstance(line.get("gone"), bool):
            raise BadLine("opponentGone without gone true or false")
    return line


def state(st):
    """A gameState's fields (also gameFull's ``state``): BadLine if one is of another shape."""
    moves = st.get("moves", "")
    if not isinstance(moves, str) or len(moves) > MAX_LINE:
        raise BadLine("its moves are not a text of UCI moves")
    if not isinstance(st.get("status", ""), str):
        raise BadLine("its status is not a word")
    if st.get("winner") not in (None, "white", "black"):
        raise BadLine("its winner is neither white nor black")
    for key in ("wtime", "btime", "winc", "binc"):
        _ms(st.get(key), key)
    for key in ("wdraw", "bdraw"):
        if st.get(key) not in (None, True, False):
            raise BadLine("%s is not true or false" % key)
    return st


def _ms(value, what):
    """A time in ms: a whole number from 0 to 2**31 (or none)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or \
            not 0 <= value <= MAX_CLOCK_MS or int(value) != value:
        raise BadLine("%s is not a time in ms" % what)


def _dict(value, what):
    if not isinstance(value, dict):
        raise BadLine("%s is not an object" % what)
    return value


def _optional_dict(value, what):
    if value is not None and not isinstance(value, dict):
        raise BadLine("%s is not an object" % what)


def _is_id(value):
    return isinstance(value, str) and _ID.match(value) is not None
