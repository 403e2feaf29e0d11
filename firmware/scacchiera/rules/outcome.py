"""How a game ends: one vocabulary for the firmware and the host tools.

python-chess says it with ``Outcome(termination, winner)`` and its
``Termination`` enum; MicroPython has no enum, so here a termination is one
of the strings below and an outcome the pair ``(result, termination)`` that
``Position.outcome()`` returns. The strings are what the serial protocol,
the journal, the simulator's JSON and the page carry, so they never change:
python-chess's Termination names in lower case for the ends the rules give,
and four the rules alone do not (a player's, the clock's, the arbiter's).
Each is named by its own word (``outcome.checkmate == "checkmate"``): on the
Pico a name is an interned string in RAM, and a name that is its value costs
one, not two.

Every module that names a termination takes it from here
(``from ..rules import outcome``; tests/test_rules_outcome.py fails on one
typed elsewhere); the words a player reads are the display's (display/en.py,
it.py), one a termination in ``TERMINATIONS``' order.
"""

# By the rules (Position.outcome), in python-chess's order.
checkmate = "checkmate"
stalemate = "stalemate"
insufficient_material = "insufficient_material"   # and every other dead position (rules/material.py)
seventyfive_moves = "seventyfive_moves"
fivefold_repetition = "fivefold_repetition"
fifty_moves = "fifty_moves"                       # claimed (FIDE), or by itself under seed 003's profile
threefold_repetition = "threefold_repetition"     # claimed
# Declared: the rules alone would play on.
resignation = "resignation"
agreement = "agreement"
time_forfeit = "time_forfeit"                     # a flag fell (a loss, or a draw: FIDE 6.9)
abandoned = "abandoned"                           # the side to move left the board (seed 003)

TERMINATIONS = (checkmate, stalemate, insufficient_material, fifty_moves, seventyfive_moves,
                threefold_repetition, fivefold_repetition, resignation, agreement, time_forfeit,
                abandoned)
# The ends a position's moves show by themselves: a replay of the moves ends there too. The others
# (claims included) the journal records.
BY_THE_MOVES = (checkmate, stalemate, insufficient_material, seventyfive_moves, fivefold_repetition)

# Results, as PGN writes them.
WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAW = "1/2-1/2"
ONGOING = "*"

PGN_NORMAL = "normal"


def lost_by(color):
    """The result when ``color`` (0 White, 1 Black) loses."""
    return WHITE_WINS if color else BLACK_WINS


def pgn_termination(termination):
    """The PGN standard's Termination tag (8.1.1.8) for ``termination``: the moves' own ends and a
    player's are "normal", which a game's PGN leaves out."""
    if termination == time_forfeit:
        return "time forfeit"
    if termination == abandoned:
        return abandoned
    return PGN_NORMAL
