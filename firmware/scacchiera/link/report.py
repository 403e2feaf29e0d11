"""The board as the host sees it, by name: the tracker's state, the occupied squares and the LED frame.

Used by the commands (``occupancy``, ``leds``) and by the main loop's watch events;
loaded with the first of them, so a board played without a computer never spends RAM on it.
"""

from ..rules.squares import square_name
from ..tracking.tracker import STATE_NAMES   # noqa: F401  (the tracker's states by name, for the host)


def frame_names(runner):
    """The LED frame as {square: meaning} (the game's, also while diagnostics run); the names load
    with the first such question, not with the first command."""
    from ..leds.names import meanings
    return meanings(runner.app.compose())


def occupied(runner):
    """Occupied squares' names, as the game sees them (debounced), or the raw switches in diagnostics."""
    rows = runner.rows if runner.holder is not None else runner.app.debouncer.stable
    return [square_name(sq) for sq in range(64) if (rows[sq >> 3] >> (sq & 7)) & 1]
