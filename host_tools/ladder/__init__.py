"""The household Elo ladder of seed 003: players, games, a general and a monthly table (issue 13).

    from host_tools.ladder import Ladder
    with Ladder() as ladder:               # $SCACCHIERA_LADDER_DB or the user's data folder
        ladder.record("Anna", "Bruno", "1-0", moves=42, date="2026-11-22")
        ladder.table(month="2026-11")
        ladder.next_colours("Anna", "Bruno")

The command line is ``python -m host_tools.ladder`` (docs/ladder.md).
"""

from .db import LadderError, default_path
from .ladder import ImportReport, Ladder

__all__ = ["Ladder", "LadderError", "ImportReport", "default_path"]
