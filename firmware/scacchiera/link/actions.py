"""The protocol's commands that act: on the game, the options, the archive, the board's LEDs.

Loaded with the first such command (commands.py runs hello and status
itself, and checks every line's fields before a command here runs). Each
takes (protocol, runner, game, args) and returns its reply's fields.
"""

from .commands import ProtocolError, clock_fields
from .report import frame_names, occupied
from ..rules.squares import parse_square, square_name
from ..storage.journal import printable


def _result(game):
    return {"result": game.result[0], "termination": game.result[1]}


def _new(p, runner, game, a):
    game.new_game(a.get("fen"), a.get("profile"), variant=a.get("variant"), seed=a.get("seed"),
                  number=a.get("position"))
    return {"fen": game.position.fen()}


def _show(p, runner, game, a):
    move = game.show_move(a["uci"])
    return {"uci": game.position.uci(move), "san": game.position.san(move, game.options.lang)}


def _unshow(p, runner, game, a):
    game.unshow_move()
    return {}


def _undo(p, runner, game, a):
    if not game.take_back_turn():
        raise ProtocolError("invalid_state", "no move to take back")
    return {"fen": game.position.fen(), "ply": game.position.ply()}


def _claim(p, runner, game, a):
    if game.claim() is None:
        raise ProtocolError("refused", "no draw can be claimed now")
    return _result(game)


def _offer(p, runner, game, a):
    side = a.get("side", "wb"[game.position.turn ^ 1])    # by default the side that has just moved
    if side not in ("w", "b"):
        raise ProtocolError("bad_field", "side is w or b")
    from ..game.offers import offer_draw
    offer_draw(game, 0 if side == "w" else 1)
    return {"side": side}


def _draw(p, runner, game, a):
    from ..game import offers
    offers.accept(game, _side(a))
    return _result(game)


def _side(a):
    """The optional ``side`` of draw and decline: 0, 1, or -1 (the person; the hands' side)."""
    side = a.get("side")
    if side is None:
        return -1
    if side not in ("w", "b"):
        raise ProtocolError("bad_field", "side is w or b")
    return 0 if side == "w" else 1


def _resign(p, runner, game, a):
    side = a.get("side", "wb"[game.position.turn])
    if side not in ("w", "b"):
        raise ProtocolError("bad_field", "side is w or b")
    game.resign(0 if side == "w" else 1)
    return _result(game)


def _promote(p, runner, game, a):
    game.choose_promotion(a["piece"])
    return {"piece": a["piece"].lower()}


def _set(p, runner, game, a):
    runner.set_option(a["name"], a["value"])
    return {"name": a["name"], "value": a["value"]}


def _suggest(p, runner, game, a):
    from ..opponent import suggest
    suggest(runner, a.get("uci"))
    return {"uci": a["uci"]} if "uci" in a else {"thinking": True}


def _set_clocks(p, runner, game, a):
    clocks = game.clocks
    if not clocks.on:
        raise ProtocolError("invalid_state", "no time control (send: set clock M+S)")
    white, black, run = a["white"], a["black"], a.get("run")
    if not (0 <= white < 1000000000 and 0 <= black < 1000000000):
        raise ProtocolError("bad_field", "white and black are ms left, 0 to 999999999")
    if run is not None and run not in ("-", "w", "b"):
        raise ProtocolError("bad_field", "run is w, b or - (no clock runs)")
    clocks.follow(white, black, clocks.running if run is None else ("-", "w", "b").index(run), game.now)
    clocks.report(game, game.now)
    return clock_fields(game)


def _end(p, runner, game, a):
    how, side = a["how"], a["side"]
    if how not in ("time", "abandon") or side not in ("w", "b"):
        raise ProtocolError("bad_field", "end time w|b (that flag fell) or end abandon w|b (that side left)")
    pos = game.position
    if how == "time":
        from ..rules.material import flag_fall
        flag_fall(pos, 0 if side == "w" else 1)
    else:
        pos.abandon(0 if side == "w" else 1)
    game.end_declared(game.now)
    return _result(game)


def _decline(p, runner, game, a):
    if game.offer < 0:
        raise ProtocolError("invalid_state", "no draw offer to decline")
    from ..game import offers
    offers.decline(game, _side(a))
    return {}


def _tag(p, runner, game, a):
    name, value = a["name"], a.get("value", "")
    tags = runner.journal.tags or {}
    if not 0 < len(name) <= 20 or not _ascii_letter(name[0]) or name in ("Result", "SetUp", "FEN") or \
            not all(_ascii_letter(c) or "0" <= c <= "9" or c == "_" for c in name):
        raise ProtocolError("bad_field", "a tag's name: up to 20 ASCII letters, digits, _ (not Result, SetUp, FEN)")
    if len(value) > 80 or "|" in value or not printable(value):
        raise ProtocolError("bad_field", "a tag's value: up to 80 characters, no | and no control character")
    if value and name not in tags and len(tags) >= 12:
        raise ProtocolError("refused", "12 tags at most")
    runner.journal.tag(name, value)
    return {"name": name, "value": value}


def _train(p, runner, game, a):
    from ..training import start          # loaded only for a drill (RAM)
    return start(runner, a)


def _line(p, runner, game, a):
    from ..training import add_line
    return {"plies": add_line(runner, a["moves"])}


def _ascii_letter(c):
    # Not str.isalpha: CPython's is true for any Unicode letter (a PGN tag name is ASCII).
    return "A" <= c <= "Z" or "a" <= c <= "z"


def _games(p, runner, game, a):
    return {"games": [{"game": i, "bytes": n} for i, n in runner.journal.archive().games()]}


def _pgn(p, runner, game, a):
    number = a.get("game", -1)
    if number < 0:
        from ..storage.archive import pgn
        return {"game": runner.journal.game_id, "pgn": pgn(runner.journal, game.position)}
    try:
        return {"game": number, "pgn": runner.journal.archive().read(number)}
    except (OSError, ValueError):
        raise ProtocolError("not_found", "no archived game %d (send games)" % number)


def _diag(p, runner, game, a):
    from .. import diagnostics
    now = runner.hw.ticks_ms()
    square = a.get("square")
    if square is not None:
        try:
            square = parse_square(square)
        except ValueError:
            raise ProtocolError("bad_field", "square: a square's name, e.g. e4")
    if a.get("on", True):
        diagnostics.start(runner, now)
        if square is not None:
            diagnostics.running(runner).watch(square)
    else:
        diagnostics.stop(runner, now)
    runner.app.dirty = True
    running = diagnostics.running(runner)
    out = {"on": running is not None}
    if running is not None and running.watched >= 0:
        out["square"] = square_name(running.watched)
    return out


def _watch(p, runner, game, a):
    p.watch_leds = a.get("leds", p.watch_leds)
    p.watch_occupancy = a.get("occupancy", p.watch_occupancy)
    if p.seen_rows is None:
        p.seen_rows, p.seen_frame = bytearray(8), bytearray(64)   # made by the first watch (RAM)
    return {"leds": p.watch_leds, "occupancy": p.watch_occupancy}


def _leds(p, runner, game, a):
    return {"frame": frame_names(runner)}


def _occupancy(p, runner, game, a):
    return {"squares": occupied(runner)}


RUN = {"new": _new, "show": _show, "unshow": _unshow, "undo": _undo, "claim": _claim, "offer": _offer,
       "draw": _draw, "resign": _resign, "promote": _promote, "set": _set, "suggest": _suggest, "games": _games,
       "pgn": _pgn, "diag": _diag, "watch": _watch, "leds": _leds, "occupancy": _occupancy, "clock": _set_clocks,
       "end": _end, "decline": _decline, "tag": _tag, "train": _train, "line": _line}
