"""The display's costs on the emulated RP2040: each slice of a redraw, the bus, the loop around them.

The firmware as deployed (oled.py, scacchiera/display), on MicroPython v1.28.0 for the Pico in
rp2040js. The display part works in slices, one a 10 ms tick (scacchiera/display/__init__.py):
import screen.py, read the words, compose; send a line; compose the clock's line. Timed here:

- in the raw REPL, the CPU's share alone (the panel's I2C replaced by an object that takes the
  bytes): each slice, and the whole redraw at once as before the slices;
- in the REPL, through the chip's I2C block to the SSD1306 the harness models on I2C1
  (tools/rp2040/harness.mjs: it acknowledges 0x3C, keeps the bytes, and completes each step after
  the SCL periods it lasts, read from the block's programmed counts: 2.5 us a period at 400 kHz):
  a line sent (CPU and bus), and every display tick that did work while a clock runs and after
  a move (the part's tick wrapped and timed);
- with the firmware running (not the REPL), the display on and a 3+2 clock running: scans/s
  (``status``) and lift -> legal-destination LEDs.

Lower bounds, as every emulated figure (XIP cache misses not modelled).

    python -m host_tools.pico_emu.display_bench       (also in make bench, "The display")
"""

import re
import statistics

from host_tools.pico_emu.bench import lift_to_leds, scan_rate
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing
from host_tools.pico_emu.panel import text_lines

_SETUP = """
import time, array, gc, sys, hal, oled, board_config as cfg
from scacchiera import start
T = time.ticks_us
D = time.ticks_diff
def median(f, n=20):
    q = array.array('i', [0] * n)
    for i in range(n):
        a = T(); f(); q[i] = D(T(), a)
    s = sorted(q)
    return s[n // 2], s[n - 1]
hw = hal.Hardware()
"""

# The CPU's share: the panel's bus replaced. Each slice of a composition (the screen made stale, its
# modules dropped as after a redraw), a line drawn and handed over, the clock's line, a whole redraw.
DISPLAY_COSTS = _SETUP + """
class Bus:
    def writeto(self, address, data, stop=True):
        return len(data)
hw.display = oled.Oled(Bus(), cfg)
r = start.build(hw)
r.run(400)
p = r.display
import scacchiera.display as dp
now = time.ticks_ms
q = array.array('i', [0] * 60)
for i in range(20):
    p.stale = True
    p._drawn_ms = now() - 1000
    p.lines[1] = ''
    for k in range(3):
        a = T(); p._compose_slice(r, now()); q[20 * k + i] = D(T(), a)
        if p._phase == 0:
            break
    assert k == 2 and p._phase == 0, 'a composition in 3 slices, not %d' % (k + 1)
    p.unsent = 0
for k, name in enumerate(('SLICE_SCREEN', 'SLICE_WORDS', 'SLICE_COMPOSE')):
    s = sorted(q[20 * k:20 * k + 20])
    print(name, s[10], s[19])
def one():
    p.unsent = 1
    p._send_one()
print('LINE', *median(one))
print('SCREEN', *median(lambda: hw.display.show(p.lines, p.icons, 255)))
r.set_option('clock', '3+2')
c = r.app.game.clocks
c.running = 1
c.since = now()
print('CLOCK', *median(lambda: p._clock_slice(r, now() + 1000)))
print('REDRAW', *median(lambda: p.redraw(r, now())))
print('DONE')
"""

# Through the I2C block to the modelled SSD1306 (bus time modelled). Each display tick that did
# work, timed: first 4 s of a running clock (White's, started here), then a redraw after a change.
DISPLAY_ON_BUS = _SETUP + """
print('FOUND', int(hw.display is not None))
r = start.build(hw)
r.run(400)
p = r.display
print('BUSLINE', *median(lambda: hw.display.show(p.lines, p.icons, 2)))
print('BUSSCREEN', *median(lambda: hw.display.show(p.lines, p.icons, 255), 5))
ticks = array.array('i', [0] * 64)
kinds = bytearray(64)
n = [0]
# Each kind of slice timed where the part calls it (instance attributes shadow its methods):
# 1 a line sent, 2 the clock's line composed, 3-5 a composition's slices (import the screen, the
# words, compose).
def timed(kind, f):
    def slice(*args):
        k = kind + p._phase if kind == 3 else kind
        a = T(); f(*args); d = D(T(), a)
        if n[0] < 64:
            ticks[n[0]] = d; kinds[n[0]] = k; n[0] += 1
    return slice
p._send_one = timed(1, p._send_one)
p._clock_slice = timed(2, p._clock_slice)
p._compose_slice = timed(3, p._compose_slice)
r.set_option('clock', '3+2')
c = r.app.game.clocks
c.running = 1
c.since = time.ticks_ms()
r.run(1600)
print('CLOCKTICKS', *['%d:%d' % (kinds[i], ticks[i]) for i in range(n[0])])
n[0] = 0
p.stale = True
p.lines[1] = p.lines[2] = ''
r.run(200)
print('REDRAWTICKS', *['%d:%d' % (kinds[i], ticks[i]) for i in range(n[0])])
a = time.ticks_ms(); r.run(2000); print('RATE', 2000000 // D(time.ticks_ms(), a))
print('DONE')
"""


def _ticks(out, name):
    """[(kind, us)] of the DISPLAY_ON_BUS line ``name``."""
    line = re.search(r"\b" + name + r"((?: \d+:-?\d+)*)", out).group(1).split()
    return [tuple(int(x) for x in item.split(":")) for item in line]


def _numbers(out, name):
    return [int(x) for x in re.search(r"\b" + name + r"((?: -?\d+)+)", out).group(1).split()]


def display_costs():
    """{figure: numbers} measured on the emulated RP2040, or None (and why) without its firmware image."""
    why = missing()
    if why:
        return None, why
    hands = PicoHands()
    try:
        heap_without = hands.heap_free()       # before the timings: the REPL keeps their objects
        out = hands.repl(DISPLAY_COSTS, "DONE", limit_ms=30000)
    finally:
        hands.emu.close()
    figures = {}
    for name in ("SLICE_SCREEN", "SLICE_WORDS", "SLICE_COMPOSE", "LINE", "SCREEN", "CLOCK", "REDRAW"):
        figures[name] = _numbers(out, name)
    hands = PicoHands(display=True)
    try:
        figures["HEAP"] = [heap_without, hands.heap_free()]
        out = hands.repl(DISPLAY_ON_BUS, "DONE", limit_ms=30000)
        figures["LINES"] = text_lines(hands.emu.panel)
    finally:
        hands.emu.close()
    if "FOUND 1" not in out:
        raise RuntimeError("the emulated panel was not found at boot: " + out[-500:])
    figures["BUSLINE"] = _numbers(out, "BUSLINE")
    figures["BUSSCREEN"] = _numbers(out, "BUSSCREEN")
    figures["CLOCKTICKS"] = _ticks(out, "CLOCKTICKS")
    figures["REDRAWTICKS"] = _ticks(out, "REDRAWTICKS")
    figures["RATE"] = _numbers(out, "RATE")
    hands = PicoHands(display=True)
    try:
        hands.send("set clock 3+2")
        for step in ("lift e2", "place e4", "lift e7", "place e5"):   # White's clock runs
            hands.step(step)
            hands.wait(300)
        hands.wait(1000)
        figures["RATE_CLOCK"] = scan_rate(hands)
        lifts = [lift_to_leds(hands, sq, targets) for sq, targets in
                 (("g1", ("f3", "h3")), ("b1", ("a3", "c3")), ("d2", ("d3", "d4")), ("c2", ("c3", "c4")),
                  ("f1", ("e2", "d3")))]
        figures["LIFTS"] = [t for t in lifts if t is not None]
        hands.check_no_crash()
        figures["CLOCKLINES"] = text_lines(hands.emu.panel)
    finally:
        hands.emu.close()
    return figures, ""


_KINDS = {1: "a line sent", 2: "the clock's line composed", 3: "import screen.py", 4: "read the words",
          5: "compose"}


def _by_kind(ticks):
    out = []
    for kind in sorted(set(k for k, _ in ticks)):
        us = sorted(t for k, t in ticks if k == kind)
        out.append("%s %d x, median %d us, max %d us" % (_KINDS.get(kind, "?"), len(us), statistics.median(us), us[-1]))
    return "; ".join(out)


def main():
    figures, why = display_costs()
    if figures is None:
        print("  emulated RP2040: skipped (%s)" % why)
        return
    f = figures
    print("  emulated RP2040, CPU only (REPL, the panel's bus replaced by an object that takes the bytes):")
    print("    a redraw's slices, one a 10 ms tick: import screen.py %d us (max %d), read the words %d us"
          " (max %d), compose %d us (max %d)" % tuple(f["SLICE_SCREEN"] + f["SLICE_WORDS"] + f["SLICE_COMPOSE"]))
    print("    the clock's line composed (no import): median %d us, max %d us" % tuple(f["CLOCK"]))
    print("    a line drawn and handed over: median %d us, max %d us; all eight at once: %d us"
          % tuple(f["LINE"] + f["SCREEN"][:1]))
    print("    the whole redraw at once (every slice, the changed lines sent): median %d us, max %d us"
          % tuple(f["REDRAW"]))
    print("  emulated RP2040, the SSD1306 on I2C1 (found at boot; the bus time modelled from the I2C block's"
          " SCL counts, 400 kHz):")
    print("    a line through the I2C block (CPU and bus): median %d us, max %d us; all eight: %d us"
          % tuple(f["BUSLINE"] + f["BUSSCREEN"][:1]))
    print("    display ticks that did work, a clock running (4 s): %s" % _by_kind(f["CLOCKTICKS"]))
    print("    display ticks that did work, a redraw after a change: %s" % _by_kind(f["REDRAWTICKS"]))
    print("    scans/s of the paced loop, the clock running (REPL, Runner.run(2000) timed): %d" % f["RATE"][0])
    print("    the panel reads: %s" % " | ".join(f["LINES"]))
    print("  emulated RP2040, the firmware booted with the panel, a 3+2 clock running (White's), 2 moves made:")
    print("    scans/s, status after 3 s settled: %d" % f["RATE_CLOCK"])
    print("    lift -> legal-destination LEDs: median %.0f ms, max %.0f ms (%d lifts)"
          % (statistics.median(f["LIFTS"]), max(f["LIFTS"]), len(f["LIFTS"])))
    print("    the panel then reads: %s" % " | ".join(f["CLOCKLINES"]))
    print("  heap free after a collection, the game at its start (start.build, 40 scans, REPL):"
          " %d B without the panel, %d B with it" % tuple(f["HEAP"]))


if __name__ == "__main__":
    main()
