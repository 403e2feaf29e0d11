"""The display's CPU cost on the emulated RP2040: compose a screen, draw its lines (raw REPL).

The firmware as deployed (oled.py, scacchiera/display), on MicroPython v1.28.0 for the Pico in
rp2040js. First with the panel's I2C replaced by a Python object that takes the bytes and does
nothing (the CPU's share alone); then through the chip's I2C block to the SSD1306 the harness
models on the bus (tools/rp2040/harness.mjs: the panel found at boot by hal.find_display, its
bytes decoded by host_tools/pico_emu/panel.py). rp2040js does not model the bus timing (a byte
completes at once), so the bus time is added from the bytes sent (computed at 400 kHz,
docs/display.md), never measured here. Lower bounds, as every emulated figure (XIP cache misses
not modelled).

    python -m host_tools.pico_emu.display_bench       (also in make bench, "The display")
"""

import re

from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing
from host_tools.pico_emu.panel import text_lines

# 40 redraws of the runner r's display part p (line 1 made stale each time), timed: median and max.
_REDRAWS = """
r = main.build(hw)
r.run(400)
p = r.display
q = array.array('i', [0] * 40)
for i in range(40):
    p.lines[1] = ''
    a = T(); p.redraw(r, time.ticks_ms()); q[i] = D(T(), a)
s = sorted(q)
print('%s', s[20], s[39])
"""

DISPLAY_COSTS = """
import time, array, main, hal, oled, board_config as cfg
T = time.ticks_us
D = time.ticks_diff
class Bus:
    def writeto(self, address, data, stop=True):
        return len(data)
hw = hal.Hardware()
hw.display = oled.Oled(Bus(), cfg)
""" + _REDRAWS % "REDRAW" + """
for i in range(40):
    a = T(); hw.display.show(p.lines, p.icons, 1); q[i] = D(T(), a)
s = sorted(q)
print('LINE', s[20])
for i in range(40):
    a = T(); hw.display.show(p.lines, p.icons, 255); q[i] = D(T(), a)
s = sorted(q)
print('SCREEN', s[20])
for i in range(40):
    a = T(); r.step(); q[i] = D(T(), a)
s = sorted(q)
print('QUIET', s[20], s[39])
print('DONE')
"""

# The same redraws with the display hal.find_display found on the emulated I2C bus at boot.
DISPLAY_ON_BUS = """
import time, array, main, hal
T = time.ticks_us
D = time.ticks_diff
hw = hal.Hardware()
print('FOUND', int(hw.display is not None))
""" + _REDRAWS % "BUSREDRAW" + """
print('DONE')
"""


def display_costs():
    """{figure: us} measured on the emulated RP2040, or None (and why) without its firmware image."""
    why = missing()
    if why:
        return None, why
    hands = PicoHands()
    try:
        heap_without = hands.heap_free()       # before the timings: the REPL keeps their objects
        out = hands.repl(DISPLAY_COSTS, "DONE", limit_ms=20000)
    finally:
        hands.emu.close()
    figures = {}
    for name in ("REDRAW", "LINE", "SCREEN", "QUIET"):
        figures[name] = [int(x) for x in re.search(name + r"((?: -?\d+)+)", out).group(1).split()]
    hands = PicoHands(display=True)
    try:
        figures["HEAP"] = [heap_without, hands.heap_free()]
        out = hands.repl(DISPLAY_ON_BUS, "DONE", limit_ms=20000)
        figures["LINES"] = text_lines(hands.emu.panel)
    finally:
        hands.emu.close()
    if "FOUND 1" not in out:
        raise RuntimeError("the emulated panel was not found at boot: " + out[-500:])
    figures["BUSREDRAW"] = [int(x) for x in re.search(r"BUSREDRAW((?: -?\d+)+)", out).group(1).split()]
    return figures, ""


def main():
    figures, why = display_costs()
    if figures is None:
        print("  emulated RP2040: skipped (%s)" % why)
        return
    print("  emulated RP2040, CPU only (the panel's bus replaced; add 3.1 ms a line of I2C, computed):")
    print("    a redraw (compose, compare, draw and hand over one line): median %d us, max %d us" % tuple(figures["REDRAW"]))
    print("    drawing one line: %d us; all eight: %d us" % (figures["LINE"][0], figures["SCREEN"][0]))
    print("    a quiet Runner.step with the display on: median %d us, max %d us" % tuple(figures["QUIET"]))
    print("  emulated RP2040, the SSD1306 modelled on the I2C bus (found at boot; bus timing not modelled):")
    print("    a redraw through the I2C block: median %d us, max %d us" % tuple(figures["BUSREDRAW"]))
    print("    the panel reads: %s" % " | ".join(figures["LINES"]))
    print("    heap free after a collection, the game at its start (main.build, 40 scans, REPL):"
          " %d B without the panel, %d B with it" % tuple(figures["HEAP"]))


if __name__ == "__main__":
    main()
