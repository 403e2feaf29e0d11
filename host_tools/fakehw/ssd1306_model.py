"""An SSD1306 on the fake I2C bus: what the controller does with the bytes it receives.

Enough of the datasheet for what a driver sends: the control byte (0x80 one
command, 0x00 commands, 0x40 data), the column and page windows (0x21,
0x22) with horizontal addressing, the other commands' argument counts, and
the 128 x 8 pages of display RAM (a byte a column of 8 pixels, bit 0 at the
top). It also counts the bits on the wire, so a test can say how long a
redraw holds the bus at the I2C clock the firmware asked for: computed from
the bytes, not measured on a chip. Plain Python that also runs on MicroPython.
"""

# Commands followed by argument bytes (datasheet section 9); all others stand alone.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
         0xD9: 1, 0xDA: 1, 0xDB: 1}


class Ssd1306Model:
    def __init__(self, width=128, height=64):
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.contrast = 0
        self.col0, self.col1 = 0, width - 1
        self.page0, self.page1 = 0, self.pages - 1
        self.col, self.page = 0, 0
        self._cmd = []               # a command waiting for its arguments
        self.transfers = 0
        self.bits = 0                # on the wire: start, address, each byte + ack, stop
        self.data_bytes = 0

    def write(self, data, freq=400000):
        self.transfers += 1
        self.bits += 2 + 9 * (1 + len(data))
        if not data:
            return
        control = data[0]
        if control & 0x40:
            for b in data[1:]:
                self._data(b)
        else:
            for b in data[1:]:
                self._command(b)

    def time_us(self, freq=400000):
        """The bus time of everything received so far, at ``freq`` Hz (computed from the bits)."""
        return self.bits * 1000000 // freq

    def _command(self, b):
        cmd = self._cmd
        cmd.append(b)
        if len(cmd) <= _ARGS.get(cmd[0], 0):
            return
        op = cmd[0]
        if op == 0x21:
            self.col0, self.col1 = cmd[1], cmd[2]
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = cmd[1], cmd[2]
            self.page = self.page0
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        self._cmd = []

    def _data(self, b):
        self.data_bytes += 1
        self.ram[self.page * self.width + self.col] = b
        if self.col < self.col1:
            self.col += 1
            return
        self.col = self.col0
        self.page = self.page + 1 if self.page < self.page1 else self.page0

    def pixel(self, x, y):
        return (self.ram[(y >> 3) * self.width + x] >> (y & 7)) & 1

    def rows(self):
        """The panel as text, '#' a lit pixel: a test's picture of the screen."""
        return ["".join("#" if self.pixel(x, y) else "." for x in range(self.width))
                for y in range(self.pages * 8)]
