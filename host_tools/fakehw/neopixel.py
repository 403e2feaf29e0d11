"""A fake ``neopixel`` module: a captured WS2812B strip.

Same interface as micropython-lib's NeoPixel (``buf`` holds the bytes in
the strip's order; ``write()`` sends them). ``write()`` copies ``buf`` into
``shown``, what the LEDs now display, and counts the writes. ``strips``
lists every strip made, newest last. No allocation per write.
Plain Python that also runs on MicroPython.
"""

strips = []


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.shown = bytearray(n * bpp)
        self.writes = 0
        strips.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        offset = index * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = value[i]

    def __getitem__(self, index):
        offset = index * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, value):
        for i in range(self.n):
            self[i] = value

    def write(self):
        buf = self.buf
        shown = self.shown
        if len(buf) != len(shown):
            raise ValueError("NeoPixel.buf must stay %d bytes" % len(shown))
        for i in range(len(shown)):
            shown[i] = buf[i]
        self.writes += 1
