"""The emulated board's LED read-back (host_tools/pico_emu/leds.py), without the emulator: frames the
firmware's own palette renders, decoded into meanings."""

from host_tools.pico_emu.leds import LedDecoder
from scacchiera.leds.names import NAMES
from scacchiera.leds.palette import BLINK_MS, Palette


def test_a_slow_pulse_caught_lit_is_its_meaning_at_any_brightness():
    """A player away (the slow pulse, the palette's 2) read back while lit: it failed as "e1 shows
    000915, which no meaning has at all", now and then, when the emulated scenario's check fell in
    the pulse's lit half."""
    decoder = LedDecoder()
    for cap in (decoder.caps[0], 10):               # the brightest (the scenario's), and half of it
        palette = Palette(decoder.led_of_square, decoder.order, cap)
        frame = bytearray(64)
        frame[4] = NAMES.index("away")                  # e1
        frame[12] = frame[28] = NAMES.index("last-move")
        pixels = palette.render(frame, bytearray(3 * 64), 0)       # time 0: the lit phase
        assert any(pixels[decoder.led_of_square[4] * 3:decoder.led_of_square[4] * 3 + 3])
        candidates = decoder.candidates([(0, bytes(pixels))], BLINK_MS // 2)
        assert "away" in candidates[4] and candidates[12] == {"last-move"}, (cap, candidates[4])
