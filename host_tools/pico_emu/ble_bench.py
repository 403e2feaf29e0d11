"""The Pico W's board with an app connected over Bluetooth LE, on the emulated RP2040 (``make bench``;
``python -m host_tools.pico_emu.ble_bench``).

rp2040js has no model of the W's radio chip (its ``BLE().active(True)`` raises OSError(22)), so the
radio is the fake of MicroPython's ``bluetooth`` the CPython tests use (host_tools/fakehw/radio),
put in the W build's ROMFS image as ``fake_bluetooth`` and given to the firmware in place of the
real one (``sys.modules``; ble_radio.py imported again with it) from the raw REPL, which then runs the board's own loop
(scacchiera/start.py) in slices: between two slices of ``SLICE_STEPS`` scans the app (a fake
central, in the same MicroPython) takes its notifications and asks for a board dump, as a Pegasus
app polls; the loop goes on 10 slices (2.5 s) after the game's last ply, past whole_game's wait. Meanwhile the hands play a game on the reeds and the loop is measured from outside, as
bench.py measures the Pico's (``whole_game``: scans on the row pins, each lift to the next LED
frame); then the heap with the board's engine made and thinking, the app still connected.
"""

import os
import re
import shutil
import statistics
import tempfile

from host_tools import _paths, deploy
from host_tools.pico_emu.bench import long_game, whole_game
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing

ROOT = _paths._ROOT
W_UF2 = deploy.BOARDS["RPI_PICO_W"]
NUS_RX, NUS_TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e", "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
PLIES = 40
SLICE_STEPS = 100     # the loop's scans between two turns of the app (about 0.25 s)
MTU = 185             # a phone's usual ask

DEVICE = """
import sys, gc
import fake_bluetooth as fb
sys.modules['bluetooth'] = fb
sys.modules.pop('ble_radio', None)
import hal
from scacchiera import start
hw = hal.Hardware()
print('RADIO', hw.radio is not None, repr(hw.radio_why))
r = start.build(hw)
start.serve(r, 400)
APP = %(app)r
c = fb.Central()
if APP:
    c.connect()
    c.exchange_mtu(%(mtu)d)
    c.subscribe(%(tx)r)
    c.write(%(rx)r, b'\\x44')
start.serve(r, 20)
print('CONNECTED', r.ble_link.app, type(r.protocol.host).__name__)
got = 0
slices = 0
ply0 = r.app.game.position.ply()
after = 0
while after < 10 and slices < %(most)d:
    start.serve(r, %(steps)d)
    if APP:
        got += len(c.take())
        c.write(%(rx)r, b'\\x42')
    slices += 1
    if r.app.game.position.ply() >= ply0 + %(plies)d:
        after += 1
print('GAME', r.app.game.position.ply() - ply0, slices, got, c.cut, r.scan_rate)
side = 'wb'[r.app.game.position.turn]
r.set_option('engine_side', side)
r.set_option('opponent', 'engine 7')
start.serve(r, 400)
gc.collect()
print('ENGINE', type(r.engine).__name__, r.searching is not None, gc.mem_free(), r.ble_link.app)
print('DONE')
"""


def firmware_with_fake_radio(folder):
    """make firmware's build in ``folder``, with the fake ``bluetooth`` beside it as fake_bluetooth.py."""
    deploy.build(folder)
    shutil.copyfile(os.path.join(ROOT, "host_tools", "fakehw", "radio", "bluetooth.py"),
                    os.path.join(folder, "fake_bluetooth.py"))
    return folder


def measure(plies=PLIES, app=True):
    """{'radio', 'connected', 'game', 'engine', 'loop'}: what the device printed, and whole_game's
    figures; ``app``: with the app connected (else the radio advertises, nobody connects)."""
    game = long_game(plies)
    with tempfile.TemporaryDirectory(prefix="scacchiera-w-") as tmp:
        firmware = firmware_with_fake_radio(os.path.join(tmp, "firmware"))
        hands = PicoHands(uf2=W_UF2, firmware=firmware)
        try:
            loop = {}

            def play(printed):
                if "CONNECTED" in printed and not loop:
                    loop.update(whole_game(hands, game))

            code = DEVICE % {"mtu": MTU, "tx": NUS_TX, "rx": NUS_RX, "plies": plies, "steps": SLICE_STEPS,
                             "app": app, "most": 12 * plies + 40}     # (a ply by hand: under 4 slices)
            out = hands.repl(code, "DONE", limit_ms=(12 * plies + 40) * 300 + 60000, between=play)
        finally:
            hands.emu.close()
    lines = dict(re.findall(r"(RADIO|CONNECTED|GAME|ENGINE) ([^\r\n]*)", out))
    return {"radio": lines.get("RADIO"), "connected": lines.get("CONNECTED"), "game": lines.get("GAME", "").split(),
            "engine": lines.get("ENGINE", "").split(), "loop": loop}


def main(plies=PLIES):
    why = missing(W_UF2)
    if why:
        print("== The Pico W with an app over BLE: skipped (%s)" % why)
        return None
    print("== The Pico W (MicroPython v1.28.0 RPI_PICO_W_ROMFS, emulated; the radio a fake: rp2040js has no CYW43)")
    out = {}
    for app in (True, False):
        f = out[app] = measure(plies, app)
        loop, game, engine = f["loop"], f["game"], f["engine"]
        if not loop or len(game) < 5:
            print("  the game did not run: %s" % f)
            return out
        lifts = loop["lifts"]
        if app:
            print("  the HAL's radio: %s; the app has the board, as a DGT host: %s" % (f["radio"], f["connected"]))
            print("  %s plies by hand while a Pegasus app (MTU %d) asked for a board dump every %d scans: %s "
                  "notified bytes, %s cut" % (game[0], MTU, SLICE_STEPS, game[2], game[3]))
        else:
            print("  the same game, the radio advertising, no app connected:")
        print("  scans/s over the game (row pins): %.0f; the longest gap %.0f ms, %d over 30 ms (%d with a reed "
              "edge inside); lift -> the next LED frame: median %.0f ms, max %.0f ms, %d of %d over 50 ms"
              % (loop["rate"], loop["longest"], loop["over_30"], loop["over_30_edges"], statistics.median(lifts),
                 max(lifts), sum(1 for t in lifts if t > 50), len(lifts)))
        print("  heap free with the board's engine (level 7) made and thinking%s: %s B"
              % (", the app connected" if app else "", engine[2]))
    return out


if __name__ == "__main__":
    main()
