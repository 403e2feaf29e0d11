"""The options a player can set: one table that checks, applies, saves and reports them.

Each row: name, kind, limits, default, and who holds the value:

- ``GAME``: an attribute of the game's Options (game/controller.py), which
  passes settle_ms and takeback on to the move tracker;
- ``POSITION``: an attribute of the game's position (the rule profile);
- ``RUNNER``: an attribute of the main loop (runner.py: brightness rebuilds the palette;
  opponent and engine_side load or drop the engine, opponent.py).

Kinds: ``BOOL`` (true or false), ``INT`` (a whole number from low to high;
0 too, meaning off, when the row allows it), ``CHOICE`` (one of the words in
limits), ``CONTROL`` (a time control, "M+S" or "off": time_control.py).

The protocol's ``set`` goes through ``Runner.set_option``, which checks
here, applies, and saves the value in the journal; commands.py reports the
values in ``status`` and ``hello`` the names with each row's limits (the
companion page builds its controls from them).
"""

from .rules.variants import PROFILES
from .tracking.tracker import DEFAULT_SETTLE_MS

# Who plays against the person at the board: another person, the board's own
# engine at a level (1..7: engine/__init__.py's LEVELS, which this module does not import, as the
# engine is loaded only when one plays; tests/test_engine.py checks the two agree), or the host
# over USB (the board waits for its ``show``).
OPPONENTS = ("person",) + tuple("engine %d" % n for n in range(1, 8)) + ("host",)

BOOL = 0
INT = 1
CHOICE = 2
CONTROL = 3
GAME = 0
POSITION = 1
RUNNER = 2

# (name, kind, limits, default, holder, 0 allowed as "off")
TABLE = (
    ("hints", BOOL, None, True, GAME, False),      # "visual assistance": legal destinations of a lifted piece
    ("takeback", BOOL, None, True, GAME, False),   # restore the previous position to take a move back
    ("settle_ms", INT, (50, 2000), DEFAULT_SETTLE_MS, GAME, False),
    ("lang", CHOICE, ("en", "it"), "en", GAME, False),  # SAN letters in events
    ("profile", CHOICE, PROFILES, PROFILES[0], POSITION, False),
    ("brightness", INT, (1, 100), 100, RUNNER, False),  # percent of the power cap
    ("move_time_ms", INT, (3000, 3600000), 0, GAME, True),  # seed 003's time per move; 0: none
    ("clock", CONTROL, None, "off", GAME, True),            # seed 003's blitz: minutes+bonus seconds
    ("offer_every", INT, (1, 50), 5, GAME, True),     # a player's draw offers: one per this many moves
    ("abandon_min", INT, (1, 240), 0, GAME, True),    # the side to move away this long: the game may end
    ("suggest", BOOL, None, True, GAME, False),    # the engine's hints on request (off in rated games)
    ("opponent", CHOICE, OPPONENTS, OPPONENTS[0], RUNNER, False),  # who plays engine_side
    ("engine_side", CHOICE, ("w", "b"), "b", RUNNER, False),       # the side an engine or the host plays
    # the USB link's language: told from the host's first bytes, or forced (protocol.py, docs/protocols.md)
    ("usb", CHOICE, ("auto", "json", "dgt", "chesslink"), "auto", RUNNER, False),
)


def check(name, value):
    """The option's row if ``value`` suits it; ValueError (saying what would) if not."""
    for row in TABLE:
        if row[0] == name:
            break
    else:
        raise ValueError("unknown option: %s" % name)
    kind, limits = row[1], row[2]
    if kind == BOOL:
        if value is not True and value is not False:
            raise ValueError("%s must be true or false" % name)
    elif kind == INT:
        whole = isinstance(value, int) and not isinstance(value, bool)
        if not whole or not (limits[0] <= value <= limits[1] or row[5] and value == 0):
            raise ValueError("%s must be %sa whole number from %d to %d"
                             % (name, "0 (none) or " if row[5] else "", limits[0], limits[1]))
    elif kind == CONTROL:
        if value != "off" and value is not False:
            from .time_control import parse_control      # loaded only for a time control (RAM)
            parse_control(value)
    elif value not in limits:
        raise ValueError("%s must be %s" % (name, " or ".join(repr(c) for c in limits)))
    return row


def defaults(obj, holder):
    """Give ``obj`` the defaults of the options ``holder`` keeps."""
    for row in TABLE:
        if row[4] == holder:
            setattr(obj, row[0], row[3])
