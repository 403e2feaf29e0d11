"""What the screen says now, from the main loop's state alone: 8 lines of 16 characters and their icons.

The game screen, top to bottom::

    W 4:59    B 5:00     both clocks (or the opponent when there is no clock)
    White to move   o    whose turn, check, or the result (icon: turn, check, flag)
    12... Nf6            the last move in SAN, English or Italian letters (option lang)
    ...                  what the hands must do, in words: the pending promotion or
                         Sprint tile, a wrong placement, out of sync ("d5: pawn missing")
    Engine 3 thinking    the board's engine and its level; a draw offer or claim

Clocks and the engine are read through the attributes docs/protocol.md's
device interfaces name (``game.clocks``, ``runner.engine``), with defaults,
so the screen works on a firmware without them. Strings are built here
only when the part asks (something changed), never in a steady scan.
"""

from . import ROWS, COLS, NO_ICON, WHITE_TURN, BLACK_TURN, CHECK, THINKING, OFFER, FLAG
from ..tracking import tracker as tr
from ..rules.squares import DROP, square_name

_PIECES = {"en": ("", "pawn", "knight", "bishop", "rook", "queen", "king"),
           "it": ("", "pedone", "cavallo", "alfiere", "torre", "donna", "re")}

# Each message: the first of its forms that fits COLS characters.
_WORDS = {
    "en": {
        "side": ("White", "Black"), "to_move": ("%s to move",), "in_check": ("%s in check", "%s: check"),
        "wins": ("%s wins",), "draw": ("Draw",), "no_clock": ("no clock",),
        "missing": ("%s: %s missing", "%s %s missing", "%s: no %s"),
        "remove": ("%s: remove piece", "%s: remove"), "wrong": ("%s: wrong square",),
        "sync": ("Board differs:",), "error": ("Wrong placement:",), "more": ("+%d more",),
        "promote": ("Promote: %s", "Promote %s", "= %s"), "tile": ("Tile: %s",),
        "place_tile": ("Place a %s", "Place %s"), "thinking": ("Engine %d thinking", "Engine %d: ..."),
        "engine": ("vs engine %d",), "host": ("vs computer",), "offer": ("%s offers draw", "%s: draw?"),
        "claim": ("Draw claimable",), "diag": ("Diagnostics",),
        "checkmate": "checkmate", "stalemate": "stalemate", "insufficient_material": "no mating force",
        "fifty_moves": "50 moves", "seventyfive_moves": "75 moves", "threefold_repetition": "repetition",
        "fivefold_repetition": "5x repetition", "resignation": "resignation", "agreement": "agreement",
        "time_forfeit": "time forfeit", "abandoned": "abandoned",
    },
    "it": {
        "side": ("Bianco", "Nero"), "to_move": ("Muove il %s", "Muove %s"),
        "in_check": ("%s sotto scacco", "%s: scacco"),
        "wins": ("Vince il %s", "Vince %s"), "draw": ("Patta",), "no_clock": ("senza orologio",),
        "missing": ("%s: manca %s", "%s manca %s", "%s: %s?"),
        "remove": ("%s: togli pezzo", "%s: togli"), "wrong": ("%s: casa errata",),
        "sync": ("Scacchiera:",), "error": ("Posa errata:",), "more": ("+%d altre",),
        "promote": ("Promuove: %s", "= %s"), "tile": ("Tessera: %s", "Tess.: %s"),
        "place_tile": ("Posa %s",), "thinking": ("Motore %d pensa", "Motore %d ..."),
        "engine": ("contro motore %d", "vs motore %d"), "host": ("contro computer",),
        "offer": ("%s offre patta", "%s: patta?"), "claim": ("Patta reclamabile", "Patta: reclama"),
        "diag": ("Diagnostica",),
        "checkmate": "scacco matto", "stalemate": "stallo", "insufficient_material": "materiale insuff.",
        "fifty_moves": "50 mosse", "seventyfive_moves": "75 mosse", "threefold_repetition": "ripetizione",
        "fivefold_repetition": "5 ripetizioni", "resignation": "abbandono", "agreement": "accordo",
        "time_forfeit": "tempo scaduto", "abandoned": "partita abbandonata",
    },
}
_BESIDE_ICON = COLS - 2   # a line with an icon: the icon's cell, and a space before it
_MAX_SQUARE_LINES = 3     # squares listed one a line; the rest counted ("+2 more")


def fit(forms, *args):
    """The first form that fits a line (the last one, cut, if none does)."""
    return fit_to(COLS, forms, args)


def fit_to(width, forms, args):
    text = ""
    for form in forms:
        text = form % args if args and "%" in form else form
        if len(text) <= width:
            return text
    return text[:width]


def words(lang):
    return _WORDS.get(lang, _WORDS["en"])


def piece_name(lang, piece_type):
    return _PIECES.get(lang, _PIECES["en"])[piece_type & 7]


def clock_text(ms):
    """Time left as the clock shows it: M:SS, H:MM:SS past an hour, 0:00 at the flag."""
    s = (ms + 999) // 1000 if ms > 0 else 0
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def last_move_text(pos, lang):
    """'12. Nf3' or '12... Nf6' (Italian letters with lang 'it'); '' before the first move."""
    if not pos.ply():
        return ""
    move = pos.pop()
    try:
        san = pos.san(move, lang)
        number, black = pos.fullmove, pos.turn
    finally:
        pos.push(move)
    return ("%d... %s" if black else "%d. %s") % (number, san)


def option(runner, name, default=None):
    """An option's value by name (options.py's table), or ``default`` if the firmware has no such option."""
    from .. import options
    for row in options.TABLE:
        if row[0] == name:
            game = runner.app.game
            holders = (game.options, game.position, runner)
            holder = holders[row[4]] if row[4] < len(holders) else runner
            return getattr(holder, name, default)
    return default


def _clock_line(runner, w, now):
    clocks = getattr(runner.app.game, "clocks", None)
    if clocks is not None and getattr(clocks, "on", False):
        white = "W " + clock_text(clocks.left_ms(True, now))
        black = "B " + clock_text(clocks.left_ms(False, now))
        return white + " " * max(1, COLS - len(white) - len(black)) + black
    opponent = option(runner, "opponent", "person")
    if isinstance(opponent, str) and opponent.startswith("engine"):
        return fit(w["engine"], int(opponent[6:] or 0))
    if opponent == "host":
        return fit(w["host"])
    return fit(w["no_clock"])


def _status(game, w, icons, row):
    """Whose turn, check, or the result, on line ``row``."""
    pos = game.position
    if game.result is not None:
        result, termination = game.result
        icons[row] = FLAG
        if result == "1/2-1/2":
            return fit(w["draw"]) + " " + result
        return fit(w["wins"], w["side"][0 if result == "1-0" else 1])
    side = w["side"][pos.turn]
    if pos.is_check():
        icons[row] = CHECK
        return fit_to(_BESIDE_ICON, w["in_check"], (side,))
    icons[row] = BLACK_TURN if pos.turn else WHITE_TURN
    return fit_to(_BESIDE_ICON, w["to_move"], (side,))


def _squares(game, lang, w, out, wrong_word):
    """The squares the hands must fix, one a line: a piece missing, a piece to remove."""
    v = game.tracker.view
    switches = v.switches()
    pos = game.position
    diff = v.differences()
    shown = 0
    for sq in diff:
        if shown == _MAX_SQUARE_LINES and len(diff) > _MAX_SQUARE_LINES:
            out.append(fit(w["more"], len(diff) - shown))
            return
        name = square_name(sq)
        if switches[sq]:
            out.append(fit(w[wrong_word], name))
        else:
            piece = pos.piece_at(sq)
            out.append(fit(w["missing"], name, piece_name(lang, piece)) if piece else fit(w["remove"], name))
        shown += 1


def _hands(runner, game, lang, w, out):
    """What the hands must do now, in words."""
    v = game.tracker.view
    state = v.state()
    if state == tr.OUT_OF_SYNC:
        out.append(fit(w["sync"]))
        _squares(game, lang, w, out, "remove")
    elif state == tr.ERROR:
        out.append(fit(w["error"]))
        _squares(game, lang, w, out, "wrong")
    elif state == tr.PENDING:
        chosen = v.choice()
        if chosen >= 0:
            kind = "tile" if chosen & DROP else "promote"
            out.append(fit(w[kind], piece_name(lang, chosen >> 14)))
    elif state == tr.IDLE and game.result is None:
        drawn = game.position.drawn_tile()
        if drawn:
            out.append(fit(w["place_tile"], piece_name(lang, drawn)))


def compose(runner, now, lines, icons):
    """Fill ``lines`` (a list of ROWS strings) and ``icons`` (ROWS bytes) with the game screen now."""
    game = runner.app.game
    lang = option(runner, "lang", "en")
    w = words(lang)
    for i in range(ROWS):
        icons[i] = NO_ICON
    out = []
    if runner.diag is not None:
        out.append(fit(w["diag"]))
    else:
        out.append(_clock_line(runner, w, now))
        out.append(_status(game, w, icons, 1))
        if game.result is not None:
            out.append(w.get(game.result[1], game.result[1])[:COLS])
        out.append(last_move_text(game.position, lang))
        _hands(runner, game, lang, w, out)
        extra = []
        engine = getattr(runner, "engine", None)
        if engine is not None and getattr(engine, "thinking", False):
            extra.append((fit_to(_BESIDE_ICON, w["thinking"], (getattr(engine, "level", 0),)), THINKING))
        offer = getattr(getattr(runner, "protocol", None), "offer", None)
        if offer and game.result is None:
            by = offer if offer in ("w", "b") else "wb"[game.position.turn ^ 1]
            extra.append((fit_to(_BESIDE_ICON, w["offer"], (w["side"][by == "b"],)), OFFER))
        elif game.claimable and game.result is None:
            extra.append((fit(w["claim"]), NO_ICON))
        # The engine and the offer take the bottom lines, over whatever the hands' list left there.
        start = ROWS - len(extra)
        while len(out) < start:
            out.append("")
        del out[start:]
        for text, icon in extra:
            if icon:
                icons[len(out)] = icon
            out.append(text)
    for i in range(ROWS):
        text = out[i] if i < len(out) else ""
        if icons[i] and len(text) > _BESIDE_ICON:
            text = text[:_BESIDE_ICON]
        lines[i] = text
    return lines
