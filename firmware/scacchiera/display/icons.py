"""The screen's icons as 8 x 8 bitmaps, for hal.Oled (the simulator and the page use their names).

A byte a column, bit 0 at the top: framebuf's MONO_VLSB, the SSD1306's own
layout. In the order of the icon numbers in __init__.py (1 first).
"""

NAMES = ("", "white-turn", "black-turn", "check", "thinking", "offer", "flag")
BITS = (
    b"\x00\x3c\x42\x42\x42\x42\x3c\x00",   # white-turn: a hollow disc
    b"\x00\x3c\x7e\x7e\x7e\x7e\x3c\x00",   # black-turn: a filled disc
    b"\xff\x81\x81\xdd\xdd\x81\x81\xff",   # check: an exclamation mark in a box
    b"\x81\xc3\xa5\x99\x99\xa5\xc3\x81",   # thinking: an hourglass
    b"\x00\x24\x24\x24\x24\x24\x24\x00",   # offer: "="
    b"\x00\xff\x0f\x0f\x0f\x0f\x0f\x00",   # flag: the game is over
)
