"""The optional display's driver: a 128 x 64 SSD1306 on I2C, one text line (one controller page) at a time.

Part of the hardware layer: hal.find_display loads it only when a panel
answers at its I2C address at boot, so a board without one spends no RAM on it.
Drawing is MicroPython's ``framebuf`` (its 8 x 8 font); the lines and
icons come from scacchiera/display (pure logic).
"""

from scacchiera import const

_SET_COL_ADDR = const(0x21)      # SSD1306 commands: the column window, then
_SET_PAGE_ADDR = const(0x22)     # ...the page window the next data fills
# The SSD1306 set-up for a 128 x 64 module (datasheet rev 1.1, "Software Initialization"), after the
# control byte 0x00 (commands follow): display off; mux ratio 64; display offset 0; start line 0;
# segment remap and COM scan reversed (the module's glass is mounted turned); COM pins alternative;
# contrast; RAM to the display; not inverted; oscillator; horizontal addressing; charge pump on.
_OLED_SETUP = bytes((0x00, 0xAE, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xA1, 0xC8, 0xDA, 0x12,
                     0x81, 0x7F, 0xA4, 0xA6, 0xD5, 0x80, 0x20, 0x00, 0x8D, 0x14))


class Oled:
    """The optional 128 x 64 SSD1306 on I2C: framebuf draws a line, this sends it (one controller page).

    Our own few lines rather than micropython-lib's ``ssd1306``: that driver
    keeps a 1 KB framebuffer for its whole-screen ``show()`` and brings an SPI
    class we do not use, 4.8 KB of the Pico's heap in all (measured,
    docs/display.md), where the firmware's budget after a 300-ply game is
    100,000 B. A screen line is 8 pixels high, exactly one of the
    controller's 8 pages, so one 128-byte page buffer is enough: each changed
    line is drawn into it and sent (~3 ms on the bus at 400 kHz; a clock's
    tick is one line, a whole screen 25 ms). The set-up is the datasheet's
    (SSD1306 rev 1.1, "Software Initialization"), for a 128 x 64 module on
    its internal charge pump.
    """

    def __init__(self, i2c, cfg):
        import framebuf
        from scacchiera.display.icons import BITS
        self._i2c = i2c
        self._address = address = cfg.OLED_ADDRESS
        self._width = width = cfg.OLED_WIDTH
        self._page = bytearray(1 + width)          # control byte 0x40 (data follows), then one page
        self._page[0] = 0x40
        self._draw = framebuf.FrameBuffer(memoryview(self._page)[1:], width, 8, framebuf.MONO_VLSB)
        self._icons = tuple(framebuf.FrameBuffer(bytearray(bits), 8, 8, framebuf.MONO_VLSB) for bits in BITS)
        # control byte 0x00 (commands follow), then the column window and the page window (one page)
        self._window = bytearray((0x00, _SET_COL_ADDR, 0, width - 1, _SET_PAGE_ADDR, 0, 0))
        i2c.writeto(address, _OLED_SETUP)
        for page in range(cfg.OLED_HEIGHT // 8):      # the panel's RAM is random at power-up
            self._send(page)
        i2c.writeto(address, b"\x00\xaf")           # display on, once it is blank

    def _send(self, page):
        window = self._window
        window[5] = window[6] = page
        self._i2c.writeto(self._address, window)
        self._i2c.writeto(self._address, self._page)

    def show(self, lines, icons, changed):
        """Draw and send the lines whose bit is set in ``changed`` (line i = page i)."""
        draw = self._draw
        for row in range(len(lines)):
            if changed >> row & 1:
                draw.fill(0)
                draw.text(lines[row], 0, 0, 1)
                if icons[row]:
                    draw.blit(self._icons[icons[row] - 1], self._width - 8, 0)
                self._send(row)
