"""The game screen: what the display says now, composed from the main loop's state like the LED frame.

``compose`` fills ``ROWS`` lines of at most ``COLS`` characters and an icon
per line (pure: the simulator, the tests and the page read the same lines).
The display part (__init__.py) imports this module for each redraw and, on
the Pico, drops it after (``drop``), with the language's words: between two
redraws the steady game holds none of this code in RAM, for an import from
flash a redraw (docs/display.md has the figures).
"""

from .. import const
from ..tracking import tracker as tr
from ..rules.squares import DROP
from . import COLS, ROWS, drop, clock_line

# -- the screen --------------------------------------------------------------------------------
#
# What the screen says now, from the main loop's state alone: 8 lines of 16 characters and their icons.
#
# The game screen, top to bottom::
#
#     W 4:59    B 5:00     both clocks (or the opponent when there is no clock)
#     White to move   o    whose turn, check, or the result (icon: turn, check, flag)
#     12... Nf6            the last move in SAN, English or Italian letters (option lang)
#     ...                  what the hands must do, in words: the pending promotion or
#                          Sprint tile, a wrong placement, out of sync ("d5: pawn missing")
#     Engine 3 thinking    the board's engine and its level; a draw offer or claim
#
# Clocks and the engine are read through the device attributes agreed for
# them (``game.clocks``: on, running, left_ms; ``runner.engine``: thinking,
# level; docs/display.md), with defaults, so the screen works without them. Strings are built here
# only when the part asks (something changed), never in a steady scan.
# Icons, drawn in the last cell of a line (icons.py has their bitmaps and names).
_NO_ICON = const(0)
_WHITE_TURN = const(1)    # a hollow disc: White to move
_BLACK_TURN = const(2)    # a filled disc: Black to move
_CHECK = const(3)         # an exclamation mark in a box
_THINKING = const(4)      # an hourglass: the board's engine is searching
_OFFER = const(5)         # "=": a draw is offered
_FLAG = const(6)          # a flag: the game is over

# The lines of en.py's and it.py's WORDS (6 to 11 and 22: hands.py's).
_SIDE = const(0)
_TO_MOVE = const(1)
_IN_CHECK = const(2)
_WINS = const(3)
_DRAW = const(4)
_NO_CLOCK = const(5)
_PROMOTE = const(12)
_TILE = const(13)
_PLACE_TILE = const(14)
_THINKING_WORDS = const(15)
_ENGINE = const(16)
_HOST = const(17)
_OFFER_WORDS = const(18)
_CLAIM = const(19)
_DIAG = const(20)
_PIECES = const(21)
_PLAY = const(27)         # the move the LEDs show the hands: the board's engine's, or the host's
_PUZZLE = const(28)       # a drill (training/drill.py): the puzzle's rating, a wrong move, the end
_WRONG = const(29)
_SOLVED = const(30)
_FAILED = const(31)
_SCORE = const(32)
_UNSAVED = const(33)
# 23 to 26: the menu's (menu.py)
_BESIDE_ICON = const(14)  # a line with an icon: the icon's cell, and a space before it


def fit(forms, *args):
    """The first of the "|"-separated forms that fits a line (the last one, cut, if none does)."""
    return fit_to(COLS, forms, args)


def fit_to(width, forms, args):
    text = ""
    for form in forms.split("|"):
        text = form % args if args and "%" in form else form
        if len(text) <= width:
            return text
    return text[:width]


def words(lang):
    """The language's WORDS, one string (en.py, it.py); ``word`` reads a line.

    Its module is imported for each screen and, on the Pico, dropped at once
    (``drop``): the steady game screen would otherwise hold a language's
    module and words, about 1 KB of heap. The price: an import from flash
    a redraw (about 15 ms on the emulated RP2040; docs/display.md)."""
    if lang == "it":
        from . import it as language
        name = "it"
    else:
        from . import en as language
        name = "en"
    text = language.WORDS
    drop(name)
    return text


def word(w, i):
    """Line ``i`` of a language's WORDS: one string made, not a list of all 28 each redraw (RAM)."""
    start = 0
    for _ in range(i):
        start = w.find("\n", start) + 1
    end = w.find("\n", start)
    return w[start:end] if end >= 0 else w[start:]


def piece_name(w, piece_type):
    return word(w, _PIECES).split("|")[piece_type & 7]


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


def _clock_line(runner, w, now):
    clocks = runner.app.game.clocks
    if clocks.on:
        return clock_line(clocks, now)
    opponent = runner.opponent
    if opponent.startswith("engine"):
        return fit(word(w, _ENGINE), int(opponent[6:] or 0))
    if opponent == "host":
        return fit(word(w, _HOST))
    return fit(word(w, _NO_CLOCK))


def _status(game, w, icons, row):
    """Whose turn, check, or the result, on line ``row``."""
    pos = game.position
    if game.result is not None:
        result, termination = game.result
        icons[row] = _FLAG
        if result == "1/2-1/2":
            return fit(word(w, _DRAW)) + " " + result
        return fit(word(w, _WINS), word(w, _SIDE).split("|")[0 if result == "1-0" else 1])
    side = word(w, _SIDE).split("|")[pos.turn]
    if pos.is_check():
        icons[row] = _CHECK
        return fit_to(_BESIDE_ICON, word(w, _IN_CHECK), (side,))
    icons[row] = _BLACK_TURN if pos.turn else _WHITE_TURN
    return fit_to(_BESIDE_ICON, word(w, _TO_MOVE), (side,))


def _hands(game, w, out):
    """What the hands must do now, in words (hands.py for the rarer states, loaded only then)."""
    v = game.tracker.view
    state = v.state()
    if state == tr.OUT_OF_SYNC or state == tr.ERROR:
        from .hands import hands
        hands(game, w, out, state == tr.ERROR)
        drop("hands")
    elif state == tr.PENDING:
        chosen = v.choice()
        if chosen >= 0:
            out.append(fit(word(w, _TILE if chosen & DROP else _PROMOTE), piece_name(w, chosen >> 14)))
    elif state == tr.IDLE and game.result is None:
        drawn = game.position.drawn_tile()
        if drawn:
            out.append(fit(word(w, _PLACE_TILE), piece_name(w, drawn)))


def _drill_line(drill, game, w):
    """A drill's line (training/drill.py): the puzzle's rating, a wrong move taken back, then how it
    ended, shown until the next move."""
    pos = game.position
    if drill.position is not pos:
        return ""
    if drill.over:
        if pos.ply() != drill.start + drill.seen:
            return ""
        if drill.puzzle is not None:
            return fit(word(w, _FAILED if drill.failed else _SOLVED))
    elif drill.wrong:
        return fit(word(w, _WRONG))
    elif drill.puzzle is not None:
        return fit(word(w, _PUZZLE), drill.puzzle[2])
    return fit(word(w, _SCORE), drill.right, drill.moves)


def compose(runner, now, lines, icons, w=None):
    """Fill ``lines`` (a list of ROWS strings) and ``icons`` (ROWS bytes) with the game screen now
    (``w``: the language's words, if already read)."""
    game = runner.app.game
    lang = game.options.lang
    if w is None:
        w = words(lang)
    for i in range(ROWS):
        icons[i] = _NO_ICON
    out = []
    if runner.holder is not None:
        out.append(fit(word(w, _DIAG)))
    else:
        out.append(_clock_line(runner, w, now))
        out.append(_status(game, w, icons, 1))
        if game.result is not None:
            from .hands import termination_name
            out.append(termination_name(w, game.result[1])[:COLS])
            drop("hands")
        out.append(last_move_text(game.position, lang))
        _hands(game, w, out)
        extra = []
        engine = getattr(runner, "engine", None)
        if engine is not None and getattr(engine, "thinking", False):
            level = getattr(engine, "level", 0)
            extra.append((fit_to(_BESIDE_ICON, word(w, _THINKING_WORDS), (level,)), _THINKING))
        elif game.tracker.required >= 0 and game.result is None:
            extra.append((fit(word(w, _PLAY), game.position.san(game.tracker.required, lang)), _NO_ICON))
        drill = getattr(runner, "drill", None)
        if drill is not None:
            text = _drill_line(drill, game, w)
            if text:
                extra.append((text, _NO_ICON))
                if drill.over and not drill.saved:
                    extra.append((fit(word(w, _UNSAVED)), _NO_ICON))   # the flash full (storage_error)
        offer = getattr(game, "offer", -1)          # the colour offering a draw (game/offers.py), or -1
        if offer >= 0 and game.result is None:
            side = word(w, _SIDE).split("|")[offer]
            extra.append((fit_to(_BESIDE_ICON, word(w, _OFFER_WORDS), (side,)), _OFFER))
        elif game.claimable and game.result is None:
            extra.append((fit(word(w, _CLAIM)), _NO_ICON))
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
