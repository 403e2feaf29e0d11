"""The WS2812 chain read back into the LED frame's meanings.

The firmware turns a frame of meanings into colours (scacchiera/leds/palette.py)
scaled down to the power cap (board_config.LED_MAX_LEVEL times the brightness
option), and blinks some of them: dark during odd 250 ms phases of its clock.
Several meanings share a colour and differ only in blinking (lifted and
promote-queen), or share both and differ only in context (check and loser).

So the strip tells, for each square, a set of *candidate* meanings:

- from the last frame alone: lit, the steady and blinking meanings of that
  colour; dark, dark or any blinking meaning;
- if a phase (250 ms) passed with no new frame, nothing blinks (the firmware
  redraws at every phase boundary when a pixel would change): steady, exactly;
- if the last three frames alternate A, B, A a phase apart, only lit/dark
  toggling between them, the toggling squares blink and the rest are steady.

``resolve`` settles check/loser and claim/draw with the game's result, and
promote-*/drop-* with the variant. Colours no meaning has are an error.
"""

from host_tools import _paths  # noqa: F401

import board_config as cfg
from scacchiera.leds.names import NAMES as LED_NAMES
from scacchiera.leds.palette import Palette, BLINK_MS
from scacchiera.rules.squares import square_name

# The firmware redraws within one slow tick (10 ms) of a phase boundary, plus a flash write it may be
# in the middle of: a boundary this far in the past with no new frame means nothing blinks.
REDRAW_MS = 100
DARK = ""


def _look(palette, meaning):
    """(the three strip bytes, whether it blinks) of a meaning, as ``Palette.render`` writes it:
    it renders a one-meaning frame in the steady phase (time 0) and reads the first square. A slow
    pulse (the palette's 2: a claimable draw, a player away, an offer) blinks too: the table is
    looked up with True or False, and a key of 2 was never found (a pulse caught lit failed)."""
    frame = bytearray(64)
    frame[0] = meaning
    buf = palette.render(frame, bytearray(3 * 64), 0)
    i = palette.led_of_square[0] * 3
    return bytes(buf[i:i + 3]), bool(palette.rgb(meaning)[3])


class LedDecoder:
    def __init__(self, led_of_square=None, order=cfg.LED_COLOR_ORDER, max_level=cfg.LED_MAX_LEVEL):
        self.led_of_square = led_of_square or bytes(cfg.square_to_led(sq) for sq in range(64))
        self.order = order
        self.caps = sorted(set(max(1, max_level * b // 100) for b in range(1, 101)), reverse=True)
        self._tables = {}

    def table(self, cap):
        """{(pixel bytes, blinks): [meaning names]} at power cap ``cap``."""
        if cap not in self._tables:
            palette = Palette(self.led_of_square, self.order, cap)
            looks = {}
            for meaning in range(1, len(LED_NAMES)):
                looks.setdefault(_look(palette, meaning), []).append(LED_NAMES[meaning])
            self._tables[cap] = looks
        return self._tables[cap]

    def cap_of(self, pixels):
        """The highest cap at which every lit pixel is a palette colour (the brightness option in use)."""
        lit = set(bytes(pixels[i:i + 3]) for i in range(0, len(pixels), 3)) - {bytes(3)}
        for cap in self.caps:
            colours = set(colour for colour, _blink in self.table(cap))
            if lit <= colours:
                return cap
        raise ValueError("LED colours no meaning has at any brightness: %s" % sorted(c.hex() for c in lit))

    def candidates(self, frames, now_ms):
        """For each square (a1=0), the set of meanings the strip is consistent with (DARK: unlit).

        ``frames``: [(device_ms, pixels)] the firmware wrote since it started; ``now_ms``: its clock now.
        """
        if not frames:
            return [{DARK} for _sq in range(64)]
        t_frame, pixels = frames[-1]
        table = self.table(self.cap_of(pixels))
        blinking = set(name for (colour, blink), names in table.items() if blink for name in names)
        if now_ms - t_frame >= BLINK_MS + REDRAW_MS:
            toggled = set()                    # a phase boundary passed with no frame: nothing blinks
        elif self._alternating(frames):
            toggled = set(sq for sq in range(64) if self._px(frames[-2][1], sq) != self._px(pixels, sq))
        else:
            toggled = None                     # not known yet
        out = []
        for sq in range(64):
            colour = self._px(pixels, sq)
            if toggled is not None and sq in toggled:
                colour = colour if colour != bytes(3) else self._px(frames[-2][1], sq)
                got = set(table.get((colour, True), ()))
            elif toggled is not None:
                got = set(table.get((colour, False), ())) if colour != bytes(3) else {DARK}
            elif colour == bytes(3):
                got = {DARK} | blinking
            else:
                got = set(table.get((colour, False), ())) | set(table.get((colour, True), ()))
            if not got:
                raise ValueError("%s shows %s, which no meaning has %s" % (
                    square_name(sq), colour.hex(), "steadily" if toggled is not None else "at all"))
            out.append(got)
        return out

    def _px(self, pixels, sq):
        i = self.led_of_square[sq] * 3
        return bytes(pixels[i:i + 3])

    @staticmethod
    def _alternating(frames):
        """The last three frames are one state blinking: A, B, A, one phase (250 ms) apart, and B
        differs from A only by lit squares going dark or dark ones lighting."""
        if len(frames) < 3:
            return False
        (t0, a), (t1, b), (t2, c) = frames[-3:]
        if a != c or abs(t1 - t0 - BLINK_MS) > REDRAW_MS or abs(t2 - t1 - BLINK_MS) > REDRAW_MS:
            return False
        for i in range(0, len(a), 3):
            x, y = a[i:i + 3], b[i:i + 3]
            if x != y and any(x) and any(y):
                return False
        return True

    @staticmethod
    def certain(candidates):
        return all(len(c) == 1 for c in candidates)

    @staticmethod
    def resolve(candidates, game_over=False, sprint=False):
        """{square name: meaning} of the lit squares; a square still ambiguous gets 'a|b'."""
        out = {}
        for sq, names in enumerate(candidates):
            names = set(names)
            if len(names) > 1:
                names -= {"check", "claim"} if game_over else {"loser", "draw"}
            if len(names) > 1:
                names = set(n for n in names if n.startswith("drop-") == sprint) or names
            if names != {DARK}:
                out[square_name(sq)] = "|".join(sorted(names))
        return out
