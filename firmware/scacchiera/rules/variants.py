"""Which game a position is: chess, Scacchi Sprint (seed 004) or Chess960.

The Sprint and Chess960 modules are imported only when such a game is asked
for, so a chess board never spends RAM on them.
"""

CHESS = "chess"
SPRINT = "sprint"
CHESS960 = "chess960"
VARIANTS = (CHESS, SPRINT, CHESS960)
from .position import PROFILES  # noqa: F401  (the rule profiles, "fide" (the default) and "casual", one list for all)


def is_sprint_text(fen):
    """A Sprint position string has the hands in brackets after the placement; a FEN never does."""
    return isinstance(fen, str) and "[" in fen.split(" ", 1)[0]


def new_position(fen=None, profile="fide", variant=None, seed=None, number=None):
    """A Position (chess), a SprintPosition or a Chess960Position; ``variant`` None: read it from
    ``fen`` (chess or Sprint). ``number``: Chess960's start position (0..959; 518 is chess's).

    ValueError for an unknown variant, a bad FEN or Sprint string, a seed given for chess, a
    seed given with a Sprint position string (the string carries its own decks), a number for
    another variant or with a FEN.
    """
    if number is not None and variant != CHESS960:
        raise ValueError("a start position number is for Chess960")
    if variant is None:
        variant = SPRINT if is_sprint_text(fen) else CHESS
    if variant == SPRINT:
        from .sprint import SprintPosition
        return SprintPosition(fen, profile, seed)     # ValueError for a seed and a position string both
    if variant not in (CHESS, CHESS960):
        raise ValueError("unknown variant: %r (use %s)" % (variant, ", ".join(VARIANTS)))
    if seed is not None:
        raise ValueError("a seed is for Scacchi Sprint's decks, not for %s" % variant)
    if variant == CHESS960:
        from .chess960 import Chess960Position
        return Chess960Position(fen, profile, number)
    from .position import Position
    return Position(fen, profile)


def variant_of(pos):
    """CHESS, SPRINT or CHESS960 (a SprintPosition's own ``variant`` is its full name)."""
    return pos.variant if pos.variant == CHESS or pos.variant == CHESS960 else SPRINT


def time_out_move(pos):
    """The move the board plays for a player whose time ran out (seed 003), or None.

    Seed 003: "il sistema muoverà un pezzo per il giocatore". Chess: a uniform
    choice from the sorted legal moves, fixed by the ply, so a replay agrees.
    Scacchi Sprint: sprint.auto_move (a board move before a placement).
    """
    if variant_of(pos) == SPRINT:
        from .sprint import auto_move
        return auto_move(pos)
    moves = sorted(pos.legal_moves())
    return moves[(pos.ply() * 7919 + 13) % len(moves)] if moves else None
