"""The LED meanings by name: what the serial protocol, the simulator and the tests read.

Apart from leds/frame.py so that the strings load with the first question about
the LEDs (link/report.py's ``frame_names``) or a tool that wants them: a board played
without a computer keeps none of them in RAM.
"""

from ..rules.squares import square_name

NAMES = ("", "last-move", "check", "claim", "lifted", "legal", "legal-capture", "show-from",
         "show-to", "error", "fix", "to-empty", "to-fill", "promote-queen", "promote-knight",
         "promote-rook", "promote-bishop", "winner", "loser", "draw", "drop-target",
         "drop-pawn", "drop-knight", "drop-bishop", "drop-rook", "drop-queen", "time-low", "offer",
         "away", "suggest-from", "suggest-to", "asked")


def meanings(frame):
    """{square name: meaning name} of the lit squares (for JSON and tests)."""
    return dict((square_name(sq), NAMES[frame[sq]]) for sq in range(64) if frame[sq])
