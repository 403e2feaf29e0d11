"""Which game a position is: chess, or Scacchi Sprint (seed 004).

The Sprint module is imported only when a Sprint game is asked for, so a
chess board never spends RAM on it.
"""

CHESS = "chess"
SPRINT = "sprint"
VARIANTS = (CHESS, SPRINT)
from .position import PROFILES  # noqa: F401  (the rule profiles, "fide" (the default) and "casual", one list for all)


def is_sprint_text(fen):
    """A Sprint position string has the hands in brackets after the placement; a FEN never does."""
    return isinstance(fen, str) and "[" in fen.split(" ", 1)[0]


def new_position(fen=None, profile="fide", variant=None, seed=None):
    """A Position (chess) or a SprintPosition; ``variant`` None: read it from ``fen``.

    ValueError for an unknown variant, a bad FEN or Sprint string, a seed given for chess, or a
    seed given with a Sprint position string (the string carries its own decks).
    """
    if variant is None:
        variant = SPRINT if is_sprint_text(fen) else CHESS
    if variant == SPRINT:
        from .sprint import SprintPosition
        return SprintPosition(fen, profile, seed)     # ValueError for a seed and a position string both
    if variant != CHESS:
        raise ValueError("unknown variant: %r (use %s)" % (variant, " or ".join(VARIANTS)))
    if seed is not None:
        raise ValueError("a seed is for Scacchi Sprint's decks, not for chess")
    from .position import Position
    return Position(fen, profile)


def variant_of(pos):
    return CHESS if pos.variant == CHESS else SPRINT


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
