"""A stand-in for micropython-lib's ``ssd1306`` driver (0.1.0), for tests under MicroPython only.

The Pico gets the real driver from ``make deploy`` (mpremote ``mip``,
pinned in host_tools/deploy.py); its code is not in this repository. This
module has the part of its interface hal.Oled uses: ``SSD1306_I2C(width,
height, i2c, addr)`` is a ``framebuf.FrameBuffer`` over ``buffer`` (MONO_VLSB),
``write_cmd(byte)`` sends one command (control byte 0x80) and
``write_data(buf)`` data (control byte 0x40) with ``writevto``, as the
driver does, so the bytes reaching ssd1306_model.Ssd1306Model are the ones
the real driver would send. Needs ``framebuf``: on CPython the import
fails and hal finds no display, as on a board without one.
"""

import framebuf

# What any driver must send for the panel to show its RAM (the real one sends its full set-up):
# display off, horizontal addressing, the charge pump on, display on.
_INIT = (0xAE, 0x20, 0x00, 0x8D, 0x14, 0xAF)


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.i2c = i2c
        self.addr = addr
        self._cmd = bytearray(2)
        self._data = [b"\x40", None]
        for b in _INIT:
            self.write_cmd(b)
        self.show()

    def write_cmd(self, cmd):
        self._cmd[0] = 0x80
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def write_data(self, buf):
        self._data[1] = buf
        self.i2c.writevto(self.addr, self._data)

    def contrast(self, value):
        self.write_cmd(0x81)
        self.write_cmd(value)

    def show(self):
        for b in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(b)
        self.write_data(self.buffer)
