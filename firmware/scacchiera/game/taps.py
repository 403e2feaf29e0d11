"""What a gesture of taps asks, once it is complete (docs/gestures.md).

Taps on your own king: on your turn one asks for a hint, two claim a draw,
three resign; on the opponent's turn two offer a draw and three end a game
the opponent abandoned (offers.py). Taps on a rook before the first move
choose who plays its side. Loaded when a gesture is complete and dropped
after it on the Pico (RAM: a board played without gestures never holds it).
"""

from .. import const
from ..rules.squares import ROOK

SUGGEST_TAPS = 1        # single tap on one's king on one's turn: ask for a suggestion (option suggest)
CLAIM_TAPS = 2          # double tap: claim a draw (on the opponent's turn: offer one)
RESIGN_TAPS = 3         # triple tap: resign (on the opponent's turn: end the game they abandoned)
# Before the first move, taps on a rook choose who plays its side: 2 a person, 3..9 the
# board's engine at level 1..7 (a single tap is a piece adjusted: nothing).
PERSON_TAPS = 2
_TOP_LEVEL = const(7)   # the engine's strongest level (engine/__init__.py's MAX_LEVEL: tests/test_engine.py)


def tapped(game, taps, now):
    """``taps`` taps on ``game.tap_square``: on a king, on the tapper's turn a hint, a claim or a
    resignation, on the opponent's an offer or the end of an abandoned game; on a rook before the
    first move, who plays that side."""
    pos = game.position
    piece = pos.piece_at(game.tap_square)
    color = piece >> 3
    if piece & 7 == ROOK:
        if taps >= PERSON_TAPS and not pos.ply():
            level = min(taps - PERSON_TAPS, _TOP_LEVEL)
            game.emit("opponent_asked", opponent="engine %d" % level if level else "person", side="wb"[color])
    elif color == pos.turn:
        if taps == SUGGEST_TAPS:
            if game.options.suggest:
                game.emit("suggest_asked")
        elif taps == CLAIM_TAPS:
            game.claim(now)
        elif taps == RESIGN_TAPS:
            game.resign(color, now)
    elif taps == CLAIM_TAPS or taps == RESIGN_TAPS:
        from . import offers         # loaded when first used (RAM)
        offers.tapped(game, color, taps == CLAIM_TAPS)
