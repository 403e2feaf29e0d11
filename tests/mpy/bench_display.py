"""The display's costs: composing a screen, drawing its lines, and the I2C bus time (MicroPython).

hal.find_display finds the SSD1306 model on the fake I2C bus and loads
oled.Oled; the firmware's loop runs on hal.Hardware (fake machine). Times
are the WebAssembly port's (ticks_us; the RP2040 is slower: bench.py says
by how much); the bus time is computed from the bits the model received
(start, address, 9 bits a byte, stop) at the firmware's 400 kHz, not
measured on a chip: a lower bound (no clock stretching, no gaps between
bytes). Prints one line per figure.
"""

import time

import hal
import machine
from scacchiera import start as firmware
from fakehal import LoopSerial
from ssd1306_model import Ssd1306Model
import board_config as cfg

machine.reset_board()
panel = Ssd1306Model()
machine.i2c_devices[cfg.OLED_ADDRESS] = panel
for sq in list(range(16)) + list(range(48, 64)):
    machine.board.place(sq)
hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/bench-display")
runner = firmware.build(hw, 5000)
part = runner.display
runner.run(200)
oled = hw.display
hz = cfg.OLED_I2C_HZ


def bus(fn, *args):
    bits = panel.bits
    fn(*args)
    return (panel.bits - bits) * 1000000 // hz


class NullBus:
    """The CPU's share alone: the transfers go nowhere (on the Pico the I2C block clocks the bytes out)."""

    def writeto(self, addr, buf, stop=True):
        return len(buf)


lines = list(part.lines)
icons = bytearray(part.icons)
model_bus = oled._i2c
oled._i2c = NullBus()
n = 500
t0 = time.ticks_us()
for _ in range(n):
    oled.show(lines, icons, 1 << 0)
one_us = time.ticks_diff(time.ticks_us(), t0) / n
t0 = time.ticks_us()
for _ in range(n):
    oled.show(lines, icons, 0xFF)
all_us = time.ticks_diff(time.ticks_us(), t0) / n
oled._i2c = model_bus
one_bus = bus(oled.show, lines, icons, 1)
all_bus = bus(oled.show, lines, icons, 0xFF)
oled._i2c = NullBus()
t0 = time.ticks_us()
for _ in range(n):
    part.stale = True
    part.lines[0] = ""               # one line differs: composed, compared, that line drawn
    part.redraw(runner, machine.clock.ticks_ms())
redraw_us = time.ticks_diff(time.ticks_us(), t0) / n
print("display_draw_one_line_us %.0f (framebuf fill, text, icon; the transfer's CPU side)" % one_us)
print("display_draw_full_screen_us %.0f" % all_us)
print("display_bus_one_line_us %d (computed: 2 transfers, 136 bytes at %d Hz)" % (one_bus, hz))
print("display_bus_full_screen_us %d (computed at %d Hz)" % (all_bus, hz))
print("display_redraw_us %.0f (compose the screen, compare, draw one line)" % redraw_us)
print("display_refresh_max_hz %d (REFRESH_MS)" % (1000 // 200))
