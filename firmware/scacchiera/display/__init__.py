"""The optional display: what a small screen says, composed from the game's state like the LED frame.

``screen.py`` turns the main loop's state into ``ROWS`` lines of at most
``COLS`` characters and one icon per line (pure: the simulator, the tests
and the page read the same lines); ``menu.py`` is the buttons' menu;
``part.py`` is the main-loop part that redraws the panel when its screen
changed. A 128 x 64 SSD1306 with framebuf's 8 x 8 font holds 16 characters
on 8 lines, and each line is one of the controller's 8 pages (hal.py
writes only the pages that changed). Loaded only when a display is found
at boot (main.py): a board without one spends no RAM on it.
"""

ROWS = 8
COLS = 16

# Icons, drawn in the last cell of a line (hal.py has their 8 x 8 bitmaps; NAMES for the JSON).
NO_ICON = 0
WHITE_TURN = 1      # a hollow disc: White to move
BLACK_TURN = 2      # a filled disc: Black to move
CHECK = 3           # an exclamation mark in a box
THINKING = 4        # an hourglass: the board's engine is searching
OFFER = 5           # a handshake's "=": a draw is offered
FLAG = 6            # a flag: the game is over
ICON_NAMES = ("", "white-turn", "black-turn", "check", "thinking", "offer", "flag")

# Their 8 x 8 bitmaps, a byte a column, bit 0 at the top (framebuf's MONO_VLSB, the SSD1306's own layout).
ICON_BITS = (
    b"\x00\x3c\x42\x42\x42\x42\x3c\x00",   # white-turn
    b"\x00\x3c\x7e\x7e\x7e\x7e\x3c\x00",   # black-turn
    b"\xff\x81\x81\xdd\xdd\x81\x81\xff",   # check
    b"\x81\xc3\xa5\x99\x99\xa5\xc3\x81",   # thinking
    b"\x00\x24\x24\x24\x24\x24\x24\x00",   # offer
    b"\x00\xff\x0f\x0f\x0f\x0f\x0f\x00",   # flag
)
