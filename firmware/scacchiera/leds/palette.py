"""How each LED meaning looks: a colour, steady or blinking, at the board's brightness cap.

Separate from the frame so a maker can restyle the board (colour-blind
friendly, dimmer, club mode) without touching what the board means.
Colours are written straight into the strip's byte buffer in its channel
order, with no allocation per frame.
"""

from array import array

from .. import const, micropython, ptr8, ptr32
from . import frame as f

# How a meaning shows in time: steady, blinking (BLINK_MS on, BLINK_MS off) or
# pulsing slowly (twice as long each), for an offer the player may take up.
STEADY = False
BLINK = True
SLOW = const(2)


def default_colours():
    """The board's own colours, {meaning: (red, green, blue, blinks)}, full scale 0..255 (scaled
    down to the cap): a new dict each call, so that once a palette has built its table the board
    keeps no dict of them.

    A claimable draw pulses its king slowly; a drawn game shows both kings steady. What a
    player may take up or must mind pulses too: a draw offered, an absent opponent, the last 10 s.
    """
    return {
        f.LAST_MOVE: (40, 40, 120, False),
        f.CHECK: (255, 0, 0, False),
        f.CLAIM: (255, 160, 0, SLOW),
        f.LIFTED: (255, 255, 255, False),
        f.LEGAL: (0, 200, 0, False),
        f.LEGAL_CAPTURE: (255, 120, 0, False),
        f.SHOW_FROM: (0, 160, 255, False),
        f.SHOW_TO: (0, 160, 255, True),
        f.ERROR: (255, 0, 0, True),
        f.FIX: (255, 255, 0, False),
        f.TO_EMPTY: (255, 0, 160, True),
        f.TO_FILL: (255, 255, 0, True),
        f.PROMOTE_QUEEN: (255, 255, 255, True),
        f.PROMOTE_KNIGHT: (0, 200, 0, True),
        f.PROMOTE_ROOK: (0, 0, 255, True),
        f.PROMOTE_BISHOP: (200, 0, 200, True),
        f.WINNER: (0, 255, 0, False),
        f.LOSER: (255, 0, 0, False),
        f.DRAW: (255, 160, 0, False),
        f.DROP_TARGET: (0, 90, 90, False),
        f.DROP_PAWN: (255, 255, 255, True),
        f.DROP_KNIGHT: (0, 200, 0, True),
        f.DROP_BISHOP: (200, 0, 200, True),
        f.DROP_ROOK: (0, 0, 255, True),
        f.DROP_QUEEN: (255, 160, 0, True),
        f.TIME_LOW: (255, 0, 80, SLOW),
        f.OFFER: (255, 255, 255, SLOW),
        f.AWAY: (120, 0, 255, SLOW),
        f.SUGGEST_FROM: (0, 255, 170, False),     # mint: a hint, never enforced
        f.SUGGEST_TO: (0, 255, 170, SLOW),
        f.ASKED: (170, 110, 255, False),          # lavender: what a DGT or ChessLink program lights
    }


BLINK_MS = 250


class Palette:
    """Turns a frame of meanings into LED bytes.

    ``led_of_square``: LED chain index of each square (from board_config);
    ``order``: the strip's channel order, e.g. "GRB"; ``cap``: the highest
    channel value allowed (the power budget's cap).
    """

    def __init__(self, led_of_square, order="GRB", cap=255, colours=None):
        self.led_of_square = bytes(led_of_square)
        self.offsets = tuple("RGB".index(c) for c in order)  # buffer slot i holds channel offsets[i]
        self.colours = colours          # None: default_colours(), built when rgb() first needs them
        colours = colours or default_colours()
        # One small int a meaning: its three strip bytes (capped, in the strip's order)
        # at bits 18, 10 and 2, how it blinks (0 steady, 1 BLINK, 2 SLOW) in bits 0-1.
        # A tuple and a bytes object a meaning would take 1.2 KB more RAM; an array, read by
        # the machine code of _render through a pointer.
        entries = []
        o = self.offsets
        for meaning in range(f.COUNT):
            r, g, b, blink = colours.get(meaning, (0, 0, 0, False))
            rgb = (r * cap // 255, g * cap // 255, b * cap // 255)
            entries.append(rgb[o[0]] << 18 | rgb[o[1]] << 10 | rgb[o[2]] << 2 | blink)
        self.table = array("i", entries)

    def render(self, frame, buf, now):
        """Write ``frame`` (64 meanings) into ``buf`` (3 bytes per LED) for time ``now``."""
        dark = (now // BLINK_MS) & 1
        slow_dark = (now // (2 * BLINK_MS)) & 1   # changes only when ``dark`` does: one redraw rule
        leds = self.led_of_square
        _render(frame, buf, self.table, leds, min(64, len(frame), len(leds)), len(self.table), len(buf),
                dark, slow_dark)
        return buf

    def rgb(self, meaning):
        """(r, g, b, blink) of a meaning at full scale (for the simulator's display)."""
        if self.colours is None:
            self.colours = default_colours()
        return self.colours.get(meaning, (0, 0, 0, False))


@micropython.viper
def _render(frame, buf, table, leds, count: int, meanings: int, size: int, dark: int, slow_dark: int):
    """Palette.render's loop, machine code on the Pico (as bytecode it took about 2 ms of every
    redraw). Indexes: ``frame`` and ``leds`` at a square below ``count``, which is at most their
    lengths; ``table`` at a meaning below ``meanings``, its length (a byte the table does not hold
    shows dark, as meaning 0); ``buf`` at an LED's three bytes, left alone if they pass ``size``."""
    meaning_of = ptr8(frame)
    out = ptr8(buf)
    entries = ptr32(table)
    led_of = ptr8(leds)
    sq = 0
    while sq < count:
        m = meaning_of[sq]
        if m >= meanings:
            m = 0
        entry = entries[m]
        i = led_of[sq] * 3
        if i + 3 <= size:
            blink = entry & 3
            if blink == SLOW:
                blink = slow_dark
            elif blink != 0:
                blink = dark
            if blink != 0:
                out[i] = 0
                out[i + 1] = 0
                out[i + 2] = 0
            else:
                out[i] = entry >> 18
                out[i + 1] = (entry >> 10) & 255
                out[i + 2] = (entry >> 2) & 255
        sq += 1
