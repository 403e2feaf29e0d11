"""What the simulated hands hold and how they move: a piece by its letter (the board itself never
knows which piece stands where, only that one does), the pace of a capture, and the error a
request the hands cannot do gets."""

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera.rules.squares import PIECE_SYMBOLS

CAPTURE_GAP_MS = 120  # a captured piece off the board, then the capturing one lands (past the 30 ms debounce)


class SimError(ValueError):
    """A request the simulated hands cannot do (the message says why)."""


def piece_letter(code):
    """The letter of the rules' piece ``code``: upper case for White (K, Q, R, B, N, P), lower for Black."""
    letter = PIECE_SYMBOLS[code & 7]
    return letter.upper() if code >> 3 == 0 else letter
