"""What the hands must fix, in words: a board error, out of sync; and the result's reason.

The screen's rarer lines: __init__.py loads this module only while the
board is in one of those states or the game is over, and on the Pico drops
it after the redraw, so the steady game screen (clocks, turn, last move)
keeps only its own code in RAM (docs/display.md has the figures).
"""

from .. import const
from ..rules.squares import square_name
from ..rules.outcome import TERMINATIONS
from .screen import fit, piece_name, word

# The lines of en.py's and it.py's WORDS (__init__.py lists them all).
_MISSING = const(6)
_REMOVE = const(7)
_WRONG = const(8)
_SYNC = const(9)
_ERROR = const(10)
_MORE = const(11)
_TERMINATION_WORDS = const(22)
_MAX_SQUARE_LINES = const(3)  # squares listed one a line; the rest counted ("+2 more")


def termination_name(w, termination):
    """The result's reason in words: the _TERMINATION_WORDS line has them in rules/outcome.py's order."""
    if termination in TERMINATIONS:
        return word(w, _TERMINATION_WORDS).split("|")[TERMINATIONS.index(termination)]
    return termination.replace("_", " ")


def _squares(game, w, out, wrong_form):
    """The squares the hands must fix, one a line: a piece missing, a piece to remove."""
    v = game.tracker.view
    switches = v.switches()
    pos = game.position
    diff = v.differences()
    shown = 0
    for sq in diff:
        if shown == _MAX_SQUARE_LINES and len(diff) > _MAX_SQUARE_LINES:
            out.append(fit(word(w, _MORE), len(diff) - shown))
            return
        name = square_name(sq)
        if switches[sq]:
            out.append(fit(word(w, wrong_form), name))
        else:
            piece = pos.piece_at(sq)
            if piece:
                out.append(fit(word(w, _MISSING), name, piece_name(w, piece)))
            else:
                out.append(fit(word(w, _REMOVE), name))
        shown += 1


def hands(game, w, out, error):
    """Out of sync (or, with ``error``, a piece on a wrong square): the words and the squares to fix."""
    out.append(fit(word(w, _ERROR if error else _SYNC)))
    _squares(game, w, out, _WRONG if error else _REMOVE)
