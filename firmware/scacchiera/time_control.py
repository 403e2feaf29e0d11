"""A time control, "M+S" (minutes a player, seconds of bonus a move): checked and read.

Its own module so that the options (options.py, which checks a ``clock`` value) and the clocks
(game/clocks.py, which run one) share it without the options importing the game above them; loaded
only when a time control is given (RAM).
"""

from . import const

MAX_MINUTES = const(180)
MAX_BONUS_S = const(60)


def parse_control(value):
    """(base ms, bonus ms) of a time control "M+S" (minutes a player, seconds a move)."""
    if isinstance(value, str):
        parts = value.split("+")
        if len(parts) == 2 and 0 < len(parts[0]) < 4 and 0 < len(parts[1]) < 3 \
                and parts[0].isdigit() and parts[1].isdigit():
            minutes, bonus = int(parts[0]), int(parts[1])
            if 1 <= minutes <= MAX_MINUTES and bonus <= MAX_BONUS_S:
                return minutes * 60000, bonus * 1000
    raise ValueError("clock must be off or M+S: 1 to %d minutes a player, 0 to %d seconds of bonus a move (e.g. 5+3)"
                     % (MAX_MINUTES, MAX_BONUS_S))
