"""The board's figures on the emulated Pico (``make bench``; ``python -m host_tools.pico_emu.bench [PLIES]``).

Emulated RP2040 at 125 MHz, its XIP cache modelled (harness.mjs: 16 KiB, two
ways, 8-byte lines, 60 cycles a miss). Each figure for the ROMFS build (make
uf2: the firmware's bytecode runs from flash) and for the stock MicroPython
with make deploy's files (the bytecode copied to RAM), from the same run; the
goals of issue 49 side by side at the end. Flash
erase and program take the datasheet's typical times (45 ms per 4 KB sector,
0.4 ms per 256 B page). The loop's own costs are timed on the chip in
MicroPython's raw REPL (LOOP_COSTS, PACED_STEPS). Goals (issue 11): >= 400
scans/s in every state, lift -> legal-destination LEDs <= 50 ms, last
placement -> ``move`` <= settle time + 60 ms, >= 120 KB heap free after 300 plies; issue 26:
``status`` <= 50 ms at any ply, never stalling the loop.
"""

import bisect
import json
import os
import random
import re
import statistics
import sys

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing
from scacchiera.rules.squares import parse_square
from scacchiera.runner import PERIOD_US

ROOT = _paths._ROOT
STEP_MS = 1
QUIET_MS = 2100       # two scan_rate windows: the last full one is quiet
BOOT_QUIET_MS = 4100  # ... and starts at least 3 s after boot


def _until(hands, done, limit_ms=2000):
    """Run in 1 ms steps until ``done()``; the emulated ms it took."""
    start = hands.emu.t_ms
    while not done():
        if hands.emu.t_ms - start > limit_ms:
            return None
        hands.wait(STEP_MS)
    return hands.emu.t_ms - start


def scan_rate(hands, ms=QUIET_MS):
    """``status``'s scan_rate after ``ms`` of quiet: its last full 1 s window holds no earlier query
    (answering ``status`` costs the loop tens of ms) and, 3 s after boot, not the boot's own work."""
    hands.wait(max(ms, BOOT_QUIET_MS - hands.emu.device_ms))
    rate = hands.status()["scan_rate"]
    hands.check_no_crash()
    return rate


# The firmware as main.py starts it (scacchiera/start.py), timed in the raw REPL with time.ticks_us: quiet steps,
# the matrix read alone, the paced loop's rate, then each move the host makes: the longest
# step (the commit), app.scan and the journal flush in it, the debounced arrival's time.
LOOP_COSTS = """
import time, array, hal
from scacchiera import start
from scacchiera.runner import CATCH_UP_US, PERIOD_US
T = time.ticks_us
D = time.ticks_diff
hw = hal.Hardware()
a = T(); r = start.build(hw); print('BUILD', D(T(), a))
r.run(400)
q = array.array('i', [0] * 500)
for i in range(500):
    a = T(); r.step(); q[i] = D(T(), a); hw.sleep_us(1500)
s = sorted(q)
print('STEP', s[250], s[450], s[499])
b = bytearray(8)
for i in range(200):
    a = T(); hw.read_rows(b); q[i] = D(T(), a)
s = sorted(q[:200])
print('ROWS', s[100], s[199])
a = time.ticks_ms(); r.run(800); print('RATE', 800000 // D(time.ticks_ms(), a))
S = array.array('i', [0] * 4)
scan0 = r.app.scan
def scan(rows, now):
    a = T(); scan0(rows, now); d = D(T(), a)
    if d > S[0]: S[0] = d
r.app.scan = scan
flush0 = r.journal.flush
def flush():
    a = T(); ok = flush0(); S[1] += D(T(), a); return ok
r.journal.flush = flush
sink0 = r.app.debouncer.sink
def sink(sq, present, now):
    if present: S[2] = now
    sink0(sq, present, now)
r.app.debouncer.sink = sink
def move():
    S[0] = S[1] = 0
    ply = r.app.game.position.ply()
    nxt = T(); most = 0; at = 0; left = 2000
    while left:
        a = T(); r.step(); d = D(T(), a)
        if d > most: most = d; at = time.ticks_ms() - d // 1000
        left -= 1
        if left > 100 and r.app.game.position.ply() != ply: left = 100   # the event's line goes out
        nxt += PERIOD_US
        w = D(nxt, T())
        if w > 0: hw.sleep_us(w)
        elif w < -CATCH_UP_US: nxt = T()   # as Runner.run paces
    print('MOVE', most, S[0], S[1], S[2], at)
print('GO')
for k in range(%d):
    move()
print('DONE')
"""


# 800 paced steps timed on the chip, e.g. while a set-up blinks: a blink phase turns every
# BLINK_MS, and the step that redraws it may overrun its period (the loop then catches up).
PACED_STEPS = """
import time, array, hal
from scacchiera import start
from scacchiera.runner import CATCH_UP_US, PERIOD_US
T = time.ticks_us
D = time.ticks_diff
hw = hal.Hardware()
r = start.build(hw)
r.run(200)
q = array.array('i', [0] * 800)
nxt = T()
for i in range(800):
    a = T(); r.step(); q[i] = D(T(), a)
    nxt += PERIOD_US
    w = D(nxt, T())
    if w > 0: hw.sleep_us(w)
    elif w < -CATCH_UP_US: nxt = T()   # as Runner.run paces
s = sorted(q)
print('PACED', s[400], s[799], sum(1 for x in q if x > PERIOD_US))
"""


def paced_steps(hands):
    """(median us, max us, steps longer than the period (runner.PERIOD_US)) over 800 steps (2 s) timed on the chip."""
    out = hands.repl(PACED_STEPS, "PACED", limit_ms=15000)
    return tuple(int(w) for w in re.search(r"PACED((?: -?\d+){3})", out).group(1).split())


def loop_costs(hands, moves=(("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"))):
    """The loop's costs measured on the chip (LOOP_COSTS in the REPL), and each move's timeline:
    the edge (host), the debounced arrival, the commit step's start and length, the ``move`` line."""
    out = hands.repl(LOOP_COSTS % len(moves), "GO", limit_ms=20000)
    figures = {}
    for name, numbers in re.findall(r"(BUILD|STEP|ROWS|RATE)((?: -?\d+)+)", out):
        figures[name] = [int(w) for w in numbers.split()]   # a print may land inside an event's line
    before = hands.emu.flash_stats()
    timeline = []
    for frm, to in moves:
        hands.wait(100)
        hands.emu.set_square(parse_square(frm), 0)
        hands.wait(150)
        mark = len(hands.emu.serial)
        hands.emu.set_square(parse_square(to), 1)
        edge_t, edge_dev = hands.emu.t_ms, hands.emu.device_ms
        hands.wait(250)
        while '"ev": "move"' not in hands.emu.serial[mark:] and hands.emu.t_ms - edge_t < 2000:
            hands.wait(STEP_MS)
        to_line = hands.emu.t_ms - edge_t
        while not re.search(r"MOVE(?: -?\d+){5}", hands.emu.serial[mark:]) and hands.emu.t_ms - edge_t < 6000:
            hands.wait(20)
        most, scan, flush, arrived, at = [int(w) for w in re.search(r"MOVE((?: -?\d+){5})",
                                                                     hands.emu.serial[mark:]).group(1).split()]
        timeline.append({"step_us": most, "scan_us": scan, "flush_us": flush, "debounce_ms": arrived - edge_dev,
                         "settle_ms": at - arrived, "to_line_ms": to_line})
    after = hands.emu.flash_stats()
    figures["erases"] = after["erases"] - before["erases"]
    figures["programs"] = after["programs"] - before["programs"]
    figures["moves"] = timeline
    return figures


def print_loop_costs(hands):
    f = loop_costs(hands)
    step, rows = f["STEP"], f["ROWS"]
    print("  quiet Runner.step (REPL, ticks_us, 500 steps): median %d us, 90th percentile %d us, max %d us"
          % tuple(step))
    print("  hw.read_rows alone (200 reads): median %d us, max %d us" % tuple(rows))
    print("  scans/s of the paced loop, settled, no serial traffic (REPL, Runner.run(800) timed): %d"
          % f["RATE"][0])
    print("  boot's own work (start.build: journal load, compare, first frame): %.0f ms" % (f["BUILD"][0] / 1000))
    moves = f["moves"]
    print("  the step that commits a move: %s ms (app.scan in it %s ms, journal flush %s ms)"
          % tuple("/".join("%.1f" % (m[k] / 1000) for m in moves) for k in ("step_us", "scan_us", "flush_us")))
    print("  flash over those %d moves: %d sector erases, %d page programs (modelled busy: 45 ms an erase, "
          "0.4 ms a page)" % (len(moves), f["erases"], f["programs"]))
    print("  placement -> move line: %s ms = debounce %s + settle wait %s + commit step, then USB"
          % tuple("/".join("%.0f" % m[k] for m in moves) for k in ("to_line_ms", "debounce_ms", "settle_ms")))


def lift_to_leds(hands, square, targets):
    """ms from a piece leaving ``square`` (its reed's edge) to the strip showing its legal destinations
    ``targets``; None if it never does."""
    start = hands.emu.t_ms
    hands.step("lift " + square)         # (then waits a scan: hands.SCAN_MS)
    shown = _until(hands, lambda: all("legal" in hands.candidates()[parse_square(sq)] for sq in targets))
    t = None if shown is None else hands.emu.t_ms - start
    hands.step("place " + square)
    hands.wait(1200)
    return t


def placement_to_move(hands, frm, to):
    """ms from the last placement of a move to its ``move`` event on the serial link."""
    hands.step("lift " + frm)
    hands.wait(80)
    seen = len(hands.events)
    hands.touch(parse_square(to), 1)
    return _until(hands, lambda: any(ev.get("ev") == "move" for ev in hands.events[seen:]))


class QuickPlayer:
    """python-chess moves made by hand on the emulated board, briskly (80 ms between touches)."""

    def __init__(self, hands):
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        from hands_fuzz import GameHands
        self.player = GameHands(random.Random(11), chatter=False)
        self.player.hands = hands
        self.player.pause = lambda lo=0, hi=0: hands.wait(80)

    def play(self, move):
        self.player.play(move)


def whole_game(hands, game):
    """Play ``game`` with QuickPlayer's hands and measure the loop from outside, as a rig on the
    pins would: scans (row 0 pulled LOW), the gaps between them (those with a reed edge in them:
    the hands changed the board while the loop was not looking), and from each lift's edge the
    next LED frame on the strip."""
    player = QuickPlayer(hands)
    edges = []
    step = hands.step

    def timed(line, number=0):
        edges.append((hands.emu.t_ms, line))   # the reed's edge: step() then waits a scan (hands.SCAN_MS)
        return step(line, number)
    hands.step = timed
    scans, t0 = hands.emu.scan_stats(), hands.emu.t_ms
    try:
        for move in game:
            player.play(move)
        hands.wait(1500)
    finally:
        hands.step = step
    end, t1 = hands.emu.scan_stats(), hands.emu.t_ms
    gaps = [g for g in end["gaps"] if g[0] > t0]
    long_gaps = [g for g in gaps if g[1] > 30]
    frames = [f[0] for f in hands.emu.frames if f[0] > t0]
    lifts = []
    for t, line in edges:
        if line.startswith("lift"):
            i = bisect.bisect_right(frames, t)
            if i < len(frames):
                lifts.append(frames[i] - t)
    return {"seconds": (t1 - t0) / 1000, "rate": (end["count"] - scans["count"]) * 1000 / (t1 - t0),
            "longest": max([g[1] for g in gaps] or [0]), "over_30": len(long_gaps),
            "over_30_edges": sum(1 for g in long_gaps if any(g[0] - g[1] <= t <= g[0] for t, _l in edges)),
            "lifts": lifts}


def reply_time(hands, cmd):
    """``cmd`` sent -> its reply read back whole (emulated ms), and the longest gap between two
    scans meanwhile (scans counted on the row pins; gaps of 10 ms or less are not listed: 10)."""
    t0 = hands.emu.t_ms
    seen = len(hands.protocol)
    hands.emu.send(json.dumps({"cmd": cmd}) + "\n")
    ms = _until(hands, lambda: any('"re": "%s"' % cmd in line for line in hands.protocol[seen:]), 5000)
    gaps = [g[1] for g in hands.emu.scan_stats()["gaps"] if g[0] > t0]
    return ms, max(gaps + [10])


def print_reply_times(hands, when):
    """Each command twice: the first command since boot also imports commands.py."""
    for cmd in ("status", "hello"):
        for which in ("", " again"):
            print("  %s -> its reply, %s%s: %.0f ms; the longest gap between scans meanwhile %.0f ms"
                  % (cmd, when, which, *reply_time(hands, cmd)))


def long_game(plies, seed=1):
    """A random legal game of ``plies`` plies that is not over before (python-chess)."""
    import chess
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from hands_fuzz import choose
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        while len(board.move_stack) < plies and not board.is_game_over():
            board.push(choose(rng, board))
        if len(board.move_stack) == plies and not board.is_game_over():
            return list(board.move_stack)


def print_puzzle_costs(hands):
    """Puzzles from the flash (training/): ``train`` to its reply, the first time (the modules
    imported) and again; the board's own choice (a binary search over the ratings, read in place in
    ROMFS); by theme, which reads the themes of the nearest records too."""
    def train(command):
        before = len(hands.protocol)
        hands.emu.send(json.dumps(dict(command, cmd="train")) + "\n")
        return _until(hands, lambda: any('"re": "train"' in line for line in hands.protocol[before:]), 5000)
    size = os.path.getsize(os.path.join(ROOT, "firmware", "puzzles.bin"))
    first = train({"mode": "puzzle", "puzzle": 0})
    again = train({"mode": "puzzle", "puzzle": 1})
    chosen = train({"mode": "puzzle"})
    themed = train({"mode": "puzzle", "theme": "backRankMate"})
    print("  puzzles (firmware/puzzles.bin, %d B): train -> reply %.0f ms the first time (training/ imported), "
          "%.0f ms again; the board's own choice (a binary search over the ratings) %.0f ms; by theme %.0f ms"
          % (size, first, again, chosen, themed))


def print_puzzle_heap(hands):
    """Heap free on a fresh board, then with a puzzle's drill running (REPL, the game at its start)."""
    plain = hands.heap_free()
    drill = hands.heap_free(then="from scacchiera.training import start\n"
                                 "start(r, {'mode': 'puzzle', 'puzzle': 0})\nr.run(40)\n")
    print("  heap free, the game at its start: %d B; with a puzzle's drill running: %d B (training/ loaded)"
          % (plain, drill))


def first_replies(board):
    """(boot ms, first status ms, first hello ms): a fresh board each, the command sent as soon as the
    board has said ``boot`` (what a host does when it opens the port of a board just plugged in)."""
    out = []
    for cmd in ("status", "hello"):
        hands = PicoHands(**board)
        try:
            boot = hands.emu.t_ms - 50         # PicoHands waits 50 ms after the boot event
            out.append(reply_time(hands, cmd)[0])
        finally:
            hands.emu.close()
    return (boot,) + tuple(out)


def board_figures(label, board, plies, full=True):
    """Every figure for one board (``board``: PicoHands' arguments); returns the goals' figures."""
    from host_tools.pico_emu import engine_bench
    print("-- %s" % label)
    goals = {}
    goals["boot"], goals["status"], goals["hello"] = first_replies(board)
    print("  boot to ready (the boot event): %.0f ms; the first command then: status %.0f ms, hello %.0f ms "
          "(a fresh board each)" % (goals["boot"], goals["status"], goals["hello"]))
    goals["engine_heap"] = engine_bench.measure(2000, 1, board)["free"]
    print("  heap free with the engine made (REPL, no game loop running): %s B" % goals["engine_heap"])
    hands = PicoHands(**board)
    try:
        print("  scans/s idle, status after 3 s settled (its window: no query, not the boot): %d"
              % scan_rate(hands))
        settle = hands.status()["options"]["settle_ms"]
        hands.wait(500)
        print_reply_times(hands, "at ply 0")
        lifts = [lift_to_leds(hands, sq, targets) for sq, targets in
                 (("g1", ("f3", "h3")), ("b1", ("a3", "c3")), ("e2", ("e3", "e4")), ("d2", ("d3", "d4")),
                  ("c2", ("c3", "c4")))]
        known = [t for t in lifts if t is not None]
        print("  lift -> legal-destination LEDs: median %.0f ms, max %.0f ms (%d lifts)"
              % (statistics.median(known), max(known), len(known)))
        hands.step("lift e2")
        print("  scans/s with a piece lifted: %d" % scan_rate(hands))
        hands.step("place e2")
        hands.wait(800)
        moves = [placement_to_move(hands, a, b) for a, b in (("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"))]
        known = [t for t in moves if t is not None]
        goals["placement"] = max(known)
        print("  last placement -> move event: median %.0f ms, max %.0f ms (settle time %d ms; goals: issue 11's "
              "<= %d, issue 26's <= %d)" % (statistics.median(known), max(known), settle, settle + 60, settle + 30))
    finally:
        hands.emu.close()
    if full:
        hands = PicoHands(**board)
        try:
            hands.query({"cmd": "new", "variant": "sprint", "seed": 1})
            hands.wait(600)
            rate = scan_rate(hands)
            frame = hands.led_meanings()
            print("  scans/s while the set-up blinks (Sprint after a chess game's 32 pieces: %d squares to-empty, "
                  "%d to-fill): %d" % (sum(1 for m in frame.values() if m == "to-empty"),
                                      sum(1 for m in frame.values() if m == "to-fill"), rate))
            print("  steps while the set-up blinks (REPL, 800 paced steps, 2 s): median %d us, max %d us, "
                  "%d longer than the %.1f ms period" % (paced_steps(hands) + (PERIOD_US / 1000,)))
        finally:
            hands.emu.close()
        for section in (print_loop_costs, print_puzzle_costs, print_puzzle_heap):
            hands = PicoHands(**board)           # each on a board of its own, booted afresh
            try:
                section(hands)
            finally:
                hands.emu.close()
    hands = PicoHands(**board)
    try:
        game = long_game(plies)
        before = hands.emu.flash_stats()
        xip_before = hands.emu.xip_stats()
        loop = whole_game(hands, game)
        after = hands.emu.flash_stats()
        xip = hands.emu.xip_stats()
        print_reply_times(hands, "at ply %d" % plies)
        state = hands.snapshot(heap=True)
        ok = state["moves"] == [m.uci() for m in game]
        goals.update(rate=loop["rate"], lift=max(loop["lifts"]))
        print("  %d-ply game: %s; heap free after a collection: %d B (the game resumed from flash, REPL)"
              % (plies, "every ply recognised" if ok else "MOVES DIFFER (%d of %d)" % (len(state["moves"]), plies),
                 state["heap_free"]))
        print("  ...scans counted on the row pins over the game (%.0f s): %.0f scans/s; the longest gap %.0f ms; "
              "%d gaps over 30 ms, %d of them with a reed edge in them (hands at work)"
              % (loop["seconds"], loop["rate"], loop["longest"], loop["over_30"], loop["over_30_edges"]))
        lifts = loop["lifts"]
        print("  ...lift (the reed's edge) -> the next LED frame: median %.0f ms, max %.0f ms, %d of %d over 50 ms"
              % (statistics.median(lifts), max(lifts), sum(1 for t in lifts if t > 50), len(lifts)))
        misses = xip["misses"] - xip_before["misses"]
        reads = misses + xip["hits"] - xip_before["hits"]
        print("  ...XIP cache over the game: %d misses in %d reads of the flash (%.2f %%), %.1f %% of the chip's "
              "time stalled" % (misses, reads, 100.0 * misses / max(reads, 1),
                                 100.0 * misses * xip["miss_cycles"] * 8e-6 / max(loop["seconds"] * 1000, 1)))
        if full:
            for host in ("dgt", "chesslink"):
                print("  ...with a %s program holding the link (its module loaded, updates on): %d B free"
                      % ("DGT" if host == "dgt" else "ChessLink", hands.heap_free(host)))
        print("  flash per move: %.1f sector erases, %.1f page programs, %.1f ms busy"
              % ((after["erases"] - before["erases"]) / plies, (after["programs"] - before["programs"]) / plies,
                 (after["busy_ns"] - before["busy_ns"]) / 1e6 / plies))
        print("  emulated %.1f s" % (hands.emu.t_ms / 1000))
    finally:
        hands.emu.close()
    goals["game_heap"] = heap_after_game_with_display(board, plies)
    print("  heap free after the %d-ply game with the display on (its panel drawn, REPL): %d B"
          % (plies, goals["game_heap"]))
    return goals


def heap_after_game_with_display(board, plies):
    """Heap free after a collection once the ``plies``-ply game is played with the optional display
    on (the worst case for the heap: its code and frame buffer loaded), the game resumed (REPL)."""
    hands = PicoHands(display=True, **board)
    try:
        game = long_game(plies)
        whole_game(hands, game)
        state = hands.snapshot(heap=True)
        if state["moves"] != [m.uci() for m in game]:
            raise RuntimeError("the game with the display on: moves differ")
        return state["heap_free"]
    finally:
        hands.emu.close()


# Issue 49's goals, on the ROMFS build with the XIP cache modelled: (key, goal, what, at least?).
GOALS = (("engine_heap", 140 * 1024, "heap free with the engine made, B", True),
         ("game_heap", 165 * 1024, "heap free after the 300-ply game with the display, B", True),
         ("boot", 500, "boot to ready, ms", False),
         ("status", 50, "a host's first status after boot, ms", False),
         ("hello", 30, "a host's first hello after boot, ms", False),
         ("rate", 450, "scans/s over the 300-ply game", True),
         ("lift", 50, "the slowest lift -> LEDs over the game, ms", False),
         ("placement", 270, "the slowest placement -> move, ms", False))


def main(plies=300):
    why = missing()
    if why:
        print("== Emulated Pico: skipped (%s)" % why)
        return
    from host_tools.pico_emu.emulator import find_stock_uf2, WHERE_STOCK_UF2
    print("== Emulated Pico: MicroPython v1.28.0 in rp2040js, the XIP cache's misses counted (60 cycles each)")
    romfs = board_figures("the ROMFS build (make uf2: one file, the bytecode in flash)", {}, plies)
    stock_uf2 = find_stock_uf2()
    if stock_uf2 is None:
        print("-- the stock build: skipped (supply %s)" % WHERE_STOCK_UF2)
        return
    stock = board_figures("the stock build (make deploy STOCK=1: the files on littlefs, the bytecode in RAM)",
                          {"uf2": stock_uf2}, plies, full=False)
    print("-- issue 49's goals: the ROMFS build | the stock build, both with the cache's misses")
    for key, goal, what, at_least in GOALS:
        met = romfs[key] >= goal if at_least else romfs[key] <= goal
        print("  %-52s %s %-6s %8.0f | %8.0f  %s" % (what, ">=" if at_least else "<=", goal, romfs[key], stock[key],
                                                   "met" if met else "MISSED"))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
