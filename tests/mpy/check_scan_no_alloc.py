"""The per-scan path allocates nothing once steady: proven with micropython.heap_lock().

Steady states: all pieces in place, a piece in the hand, a wrong placement
shown as an error, out of sync. Each is reached first (events may allocate),
then 2000 scans and LED renders run with the heap locked: any allocation
raises MemoryError and fails the script.

Then the firmware's whole main-loop step (runner.Runner.run: hal.py reading
the pins of the fake ``machine``, debounce, game, LEDs through the fake
``neopixel``, serial, buttons, watchdog, pacing) in the same way, in game
mode (idle, a piece in the hand, a blinking error, out of sync, a shown
move) and in diagnostics (the walking LED). Needs host_tools/fakehw first
on the path.
"""


import micropython

from scacchiera.app import App
from scacchiera import diagnostics

START = bytes([0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF])


def steady(app, rows, now, scans=2000):
    micropython.heap_lock()
    try:
        for i in range(scans):
            now += 5
            app.scan(rows, now)
            app.render(now)
    finally:
        micropython.heap_unlock()
    return now


def settle(app, rows, now, ms=600):
    for _ in range(ms // 5):
        now += 5
        app.scan(rows, now)
        app.render(now)
    return now


def main():
    app = App()
    rows = bytearray(START)
    app.boot(rows, 0)
    now = settle(app, rows, 0)
    results = []
    now = steady(app, rows, now)
    results.append("idle")
    rows[1] &= ~(1 << 4) & 0xFF          # e2 lifted, held in the hand
    now = settle(app, rows, now)
    now = steady(app, rows, now)
    results.append("lifted")
    rows[5] |= 1 << 4                    # ...and put on e6: an error
    now = settle(app, rows, now)
    assert app.game.tracker.state == 3, app.game.tracker.state
    now = steady(app, rows, now)
    results.append("error")
    app.game.new_game("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    now = settle(app, rows, now)
    now = steady(app, rows, now)
    results.append("sync")
    for name in results:
        print("ok   no allocation while %s" % name)
    return len(results)


def loop_steady(runner, steps=2000):
    """Run the loop with the heap locked; returns how many times the LED strip was written."""
    import neopixel
    writes = neopixel.strips[-1].writes
    micropython.heap_lock()
    try:
        runner.run(steps)
    finally:
        micropython.heap_unlock()
    return neopixel.strips[-1].writes - writes


def loop_main():
    import hal
    import machine
    import main as firmware
    from fakehal import LoopSerial

    machine.reset_board()
    for sq in list(range(16)) + list(range(48, 64)):
        machine.board.place(sq)
    hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/no-alloc-games")
    runner = firmware.build(hw, 5000)
    hw.start_watchdog(8000)
    tracker = runner.app.game.tracker
    results = []

    def settle(ms=800):
        runner.run(ms // 5)
        hw.serial.sent = []

    settle()
    loop_steady(runner)
    results.append("idle")
    machine.board.lift(12)                       # e2 in the hand: hints lit
    settle()
    loop_steady(runner)
    results.append("a piece lifted")
    machine.board.place(44)                      # ...put on e6: a blinking error
    settle()
    assert tracker.state == 3, tracker.state
    assert loop_steady(runner) >= 30, "blinking writes the strip"
    results.append("a blinking error")
    machine.board.lift(44)
    machine.board.place(12)
    settle()
    runner.protocol.feed(b"show e2e4\n", 10, machine.clock.ticks_ms())
    settle()
    assert tracker.required >= 0
    assert loop_steady(runner) >= 30
    results.append("a shown move blinking")
    machine.board.lift(0)                        # a1's rook gone during a visit to diagnostics:
    runner.run(2)
    diagnostics.start(runner, hw.ticks_ms())     # ...out of sync when the game looks again
    diagnostics.stop(runner, hw.ticks_ms())
    settle()
    assert tracker.state == 4, tracker.state
    assert loop_steady(runner) >= 30
    results.append("out of sync")
    diagnostics.start(runner, hw.ticks_ms())
    settle(1200)
    # The report (once a second) builds a message; in between, nothing may allocate.
    diag = diagnostics.running(runner)
    last = diag.reported
    while diag.reported == last:
        runner.run(1)
    hw.serial.sent = []
    assert loop_steady(runner, 180) >= 4, "the walking LED moves"
    results.append("diagnostics, the walking LED")
    assert machine.watchdog.feeds > 5 * 2000 + 180
    for name in results:
        print("ok   no allocation in the main loop step: %s" % name)
    return len(results)


print("%d passed, 0 failed" % (main() + loop_main()))
