"""The board's path from a switch change to a new LED frame: time per event and per frame.

Runs on CPython and MicroPython alike. A scripted game (a real opening with
captures and castling) is played through ``App.scan`` at 5 ms per scan, with
each presence change held for the debounce time; scans that carry an event
are timed apart from quiet ones. Prints "name value unit" lines.
"""


from measure import ticks_us, ticks_diff
from scacchiera.app import App
from scacchiera.leds import frame as led_frame


GAME = ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6 d2d4 e5d4 f3d4 c6c5 d4b3 d8d1 "
        "f1d1 c8g4 f2f3 g4e6 b1c3 e6b3 a2b3 g8e7").split()
SQUARES = {}
for _f in range(8):
    for _r in range(8):
        SQUARES["abcdefgh"[_f] + "12345678"[_r]] = _r * 8 + _f


def steps_for(app, uci):
    """Lift/place steps for one move, the capture's victim first."""
    pos = app.game.position
    fr, to = SQUARES[uci[:2]], SQUARES[uci[2:4]]
    steps = []
    if pos.piece_at(to):
        steps.append((to, 0))
    steps.append((fr, 0))
    steps.append((to, 1))
    if uci in ("e1g1", "e8g8", "e1c1", "e8c8"):
        rook_from, rook_to = (fr + 3, fr + 1) if to > fr else (fr - 4, fr - 1)
        steps += [(rook_from, 0), (rook_to, 1)]
    return steps


def main():
    app = App()
    rows = bytearray([0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF])
    app.boot(rows, 0)
    now = 0
    event_us = []
    quiet_us = 0
    quiet_scans = 0
    frame_us = 0
    frames = 0
    latency = []
    for uci in GAME:
        for square, level in steps_for(app, uci):
            if level:
                rows[square >> 3] |= 1 << (square & 7)
            else:
                rows[square >> 3] &= ~(1 << (square & 7)) & 0xFF
            touched = now
            seen = False
            for _ in range(60):          # 300 ms of scans
                now += 5
                before = app.game.tracker.seq
                t0 = ticks_us()
                app.scan(rows, now)
                t1 = ticks_us()
                app.dirty = True         # time a full composition, not the cached frame
                f = app.compose()
                t2 = ticks_us()
                frame_us += ticks_diff(t2, t1)
                frames += 1
                if app.game.tracker.seq != before:
                    event_us.append(ticks_diff(t1, t0))
                else:
                    quiet_us += ticks_diff(t1, t0)
                    quiet_scans += 1
                if not seen and not level and f[square] == led_frame.LIFTED:
                    latency.append(now - touched)
                    seen = True
        for _ in range(100):
            now += 5
            app.scan(rows, now)
    moves = [app.game.position.uci(m) for m in app.game.position.move_stack]
    assert moves == GAME, moves
    print("board_events %d events" % len(event_us))
    print("board_event_avg_us %d us" % (sum(event_us) // len(event_us)))
    print("board_event_max_us %d us" % max(event_us))
    print("board_quiet_scan_avg_us %d us" % (quiet_us // quiet_scans))
    print("board_frame_avg_us %d us (composition of the frame of meanings)" % (frame_us // frames))
    print("lift_to_led_max_ms %d ms (simulated time, debounce included)" % max(latency))


main()
