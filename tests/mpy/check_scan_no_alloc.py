"""The per-scan path allocates nothing once steady: proven with micropython.heap_lock().

Steady states: all pieces in place, a piece in the hand, a wrong placement
shown as an error, out of sync, a chess clock running (into its last 10 s). Each is reached first (events may allocate),
then 2000 scans and LED renders run with the heap locked: any allocation
raises MemoryError and fails the script.

Then the firmware's whole main-loop step (runner.Runner.run: hal.py reading
the pins of the fake ``machine``, debounce, game, LEDs through the fake
``neopixel``, serial, buttons, watchdog, pacing) in the same way, in game
mode (idle, a piece in the hand, a blinking error, out of sync, a shown
move) and in diagnostics (the walking LED); with the board's engine
thinking (opponent.py: a search slice after each scan); with a DGT program
and then a ChessLink one holding the USB link. Needs
host_tools/fakehw first on the path.

And once more with the optional display found at boot (hal.Oled drawing with
framebuf and sending pages to the SSD1306 model on the fake I2C bus): the same steady states and the menu open, with the heap
locked; a redraw (a move, a menu press) may allocate, a steady screen may not.
"""


import micropython

from scacchiera.app import App
from scacchiera import elapsed
from scacchiera import diagnostics

START = bytes([0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF])


def steady(app, rows, now, scans=2000):
    micropython.heap_lock()
    try:
        for i in range(scans):
            now += 5
            app.scan(rows, now)
            app.palette.render(app.compose(), PIXELS, now)
    finally:
        micropython.heap_unlock()
    return now


PIXELS = bytearray(3 * 64)   # the strip's bytes (the firmware's runner renders into its own)


def settle(app, rows, now, ms=600):
    for _ in range(ms // 5):
        now += 5
        app.scan(rows, now)
        app.palette.render(app.compose(), PIXELS, now)
    return now


def main():
    app = App()
    rows = bytearray(START)
    app.boot(rows, 0)
    now = settle(app, rows, 0)
    results = []
    micropython.heap_lock()              # a time difference either way, across the wrap too
    try:
        assert elapsed(5, 10) == -5 and elapsed(3, 0x3FFFFFFE) == 5 and elapsed(0x3FFFFFFE, 3) == -5
    finally:
        micropython.heap_unlock()
    results.append("a negative time difference")
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
    clock_app(results)
    for name in results:
        print("ok   no allocation while %s" % name)
    return len(results)


def clock_app(results):
    """A clock running (black's, after 1. e4), then into its last 10 s (the king pulses)."""
    app = App()
    app.game.set_option("clock", "1+2")
    rows = bytearray(START)
    app.boot(rows, 0)
    now = settle(app, rows, 0)
    rows[1] &= ~(1 << 4) & 0xFF          # e2e4
    now = settle(app, rows, now, 100)
    rows[3] |= 1 << 4
    now = settle(app, rows, now)
    clocks = app.game.clocks
    assert clocks.running == 2 and app.game.position.ply() == 1, (clocks.running, app.game.position.ply())
    now = steady(app, rows, now)
    results.append("a clock runs")
    now += clocks.left_ms(False, now) - 12000       # 12 s left for black: 10 s of scans cross into the last 10
    now = steady(app, rows, now)
    assert clocks.low and app.game.result is None and 0 < clocks.left_ms(False, now) < 10000
    results.append("a clock runs into its last 10 s")
    now = settle(app, rows, now, 2100)
    assert app.game.result == ("1-0", "time_forfeit"), app.game.result


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


def diagnostics_just_reported(runner, hw, settle):
    """Diagnostics on and settled, just past a report: the report (once a second) builds a
    message; in between, nothing may allocate."""
    diagnostics.start(runner, hw.ticks_ms())
    settle(1200)
    diag = diagnostics.running(runner)
    last = diag.reported
    while diag.reported == last:
        runner.run(1)
    hw.serial.sent = []


def loop_main():
    import hal
    import machine
    from scacchiera import start as firmware
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
    diagnostics_just_reported(runner, hw, settle)
    assert loop_steady(runner, 180) >= 4, "the walking LED moves"
    results.append("diagnostics, the walking LED")
    assert runner.scans > 5 * 2000 + 180, runner.scans     # every step ran
    # ...and fed the watchdog at each 10 ms tick (a step every 2 ms)
    assert machine.watchdog.feeds >= (5 * 2000 + 180) // 5, machine.watchdog.feeds
    for name in results:
        print("ok   no allocation in the main loop step: %s" % name)
    return len(results)


def loop_engine():
    """The engine plays white out of its book: 300 steps, each with a slice of its search, locked."""
    import hal
    import machine
    from scacchiera import start as firmware
    from fakehal import LoopSerial
    from scacchiera.rules import Position

    fen = "r1bqk2r/1ppp1ppp/p1n2n2/2b1p3/2B1P3/P2P1N2/1PP2PPP/RNBQK2R w KQkq - 0 6"
    machine.reset_board()
    position = Position(fen)
    for sq in range(64):
        if position.piece_at(sq):
            machine.board.place(sq)
    hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/no-alloc-engine")
    runner = firmware.build(hw, 5000)
    runner.app.game.new_game(fen)
    runner.run(200)                    # in sync
    runner.set_option("engine_side", "w")
    runner.set_option("opponent", "engine 6")
    runner.run(4)                      # the search started (its event sent)
    hw.serial.sent = []
    engine = runner.engine
    assert engine.thinking, "the engine searches"
    nodes = engine.engine.nodes
    loop_steady(runner, 300)           # a node after each scan
    assert engine.thinking and engine.engine.nodes >= nodes + 300, (nodes, engine.engine.nodes)
    print("ok   no allocation in the main loop step: the engine thinking (%d nodes)" % (engine.engine.nodes - nodes))
    return 1


def loop_clock():
    """A clock running in the main loop: the journal saves its time every MARK_MS (a record,
    which may allocate); between two, nothing may."""
    import hal
    import machine
    from scacchiera import start as firmware
    from fakehal import LoopSerial
    from scacchiera.storage import journal as jr

    machine.reset_board()
    for sq in list(range(16)) + list(range(48, 64)):
        machine.board.place(sq)
    hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/no-alloc-clock")
    runner = firmware.build(hw, 5000)
    runner.set_option("clock", "5+0")
    runner.run(200)
    machine.board.lift(12)                       # e2e4: black's clock runs
    runner.run(40)
    machine.board.place(28)
    runner.run(200)
    journal = runner.journal
    assert runner.app.game.clocks.running == 2 and not journal.dirty
    size = journal.size
    while journal.size == size:                  # up to the first T record (5 s of black's time)
        runner.run(1)
    assert not journal.dirty
    hw.serial.sent = []
    size = journal.size
    loop_steady(runner, jr.MARK_MS // 5 - 20)    # just short of the next one
    assert journal.size == size and not journal.dirty
    runner.run(40)
    assert journal.size > size, "the next T record is written"
    print("ok   no allocation in the main loop step: a clock running between two T records")
    return 1


def loop_hosts():
    """A DGT program connected (field updates on, squares it lit), then a ChessLink one (reports
    on): the steady loop allocates nothing, a piece in the hand or a move told."""
    import hal
    import machine
    from scacchiera import start as firmware
    from fakehal import LoopSerial

    machine.reset_board()
    for sq in list(range(16)) + list(range(48, 64)):
        machine.board.place(sq)
    serial = LoopSerial()
    serial.raw = bytearray()
    hw = hal.Hardware(clock=machine.clock, serial=serial, root="/tmp/no-alloc-hosts")
    runner = firmware.build(hw, 5000)
    runner.run(200)
    serial.send_bytes(b"\x44")                      # SEND_UPDATE_BRD, then silence: a DGT host
    runner.run(20)
    serial.send_bytes(bytes((0x60, 4, 1, 12, 28, 0)))   # the Revelation II's LEDs: e7, e5
    runner.run(20)
    assert runner.protocol.host is not None and runner.app.asked is not None
    serial.raw = bytearray()
    loop_steady(runner)
    machine.board.lift(12)                          # e2 in the hand: nothing told yet, steady
    runner.run(100)
    assert not serial.raw, "a piece in the hand is not news (whole moves)"
    loop_steady(runner)
    machine.board.place(28)                         # e4: the move's field updates, then steady
    runner.run(100)
    sent = len(serial.raw)
    assert sent, "the move's field updates went out"
    loop_steady(runner)
    assert len(serial.raw) == sent
    print("ok   no allocation in the main loop step: a DGT program connected (updates, lit squares)")
    serial.send_bytes(b"\n")                        # a text host for a moment, then ChessLink's S
    runner.run(20)
    serial.send_bytes(bytes(b if bin(b).count("1") % 2 else b | 0x80 for b in b"S53"))
    runner.run(20)
    assert type(runner.protocol.host).__name__ == "ChessLink", runner.protocol.host
    loop_steady(runner)
    machine.board.lift(28)
    runner.run(100)
    loop_steady(runner)
    print("ok   no allocation in the main loop step: a ChessLink program connected (reports on)")
    return 2


def display_main():
    """The optional display found at boot: steady screens, the menu open, diagnostics, locked."""
    import hal
    import machine
    from scacchiera import start as firmware
    from fakehal import LoopSerial
    from ssd1306_model import Ssd1306Model

    machine.reset_board()
    panel = Ssd1306Model()
    machine.i2c_devices[0x3C] = panel
    for sq in list(range(16)) + list(range(48, 64)):
        machine.board.place(sq)
    hw = hal.Hardware(clock=machine.clock, serial=LoopSerial(), root="/tmp/no-alloc-display")
    assert hw.display is not None, hw.display_why
    runner = firmware.build(hw, 5000)
    hw.start_watchdog(8000)
    part = runner.display
    results = []

    def settle(ms=800):
        runner.run(ms // 5)
        hw.serial.sent = []

    def locked(steps=2000):
        micropython.heap_lock()
        try:
            runner.run(steps)
        finally:
            micropython.heap_unlock()

    settle()
    assert part.lines[1] == "White to move", part.lines
    lit = sum(1 for b in panel.ram[128:256] if b)
    assert lit > 40, "the panel's page 1 shows the turn line (%d columns lit)" % lit
    draws = part.draws
    locked()
    assert part.draws == draws, "a steady screen is not redrawn"
    results.append("idle")
    machine.board.lift(12)              # e2e4: the screen shows the move, then stays
    settle(300)
    machine.board.place(28)
    settle(1500)
    assert part.lines[2] == "1. e4", part.lines
    locked()
    results.append("after a move")
    machine.board.lift(12)
    settle()
    locked()
    results.append("a piece lifted")
    machine.board.place(44)
    settle()
    locked()
    assert part.lines[3] == "Wrong placement:", part.lines
    results.append("a blinking error")
    machine.board.lift(44)
    machine.board.place(12)
    settle()
    machine.board.press("menu")
    settle(100)
    machine.board.press("menu", False)
    settle()
    assert part.lines[0] == "Menu  ok: change", part.lines
    locked(1000)
    results.append("the menu open")
    diagnostics_just_reported(runner, hw, settle)
    locked(180)
    assert part.lines[0] == "Diagnostics", part.lines
    results.append("diagnostics")
    for name in results:
        print("ok   no allocation with the display on: %s" % name)
    return len(results)


print("%d passed, 0 failed" % (main() + loop_main() + loop_engine() + loop_clock() + loop_hosts() + display_main()))
