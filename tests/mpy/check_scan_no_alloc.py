"""The per-scan path allocates nothing once steady: proven with micropython.heap_lock().

Steady states: all pieces in place, a piece in the hand, a wrong placement
shown as an error, out of sync. Each is reached first (events may allocate),
then 2000 scans and LED renders run with the heap locked: any allocation
raises MemoryError and fails the script.
"""

import sys

import micropython

from scacchiera.app import App

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
    print("%d passed, 0 failed" % len(results))


main()
