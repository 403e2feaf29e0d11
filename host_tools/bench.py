"""Benchmarks: figures and ratios, printed (``make bench``). Nothing here asserts a time.

CPython: perft with push/pop at every node (no bulk counting at the leaves),
ours against python-chess in the same run. MicroPython (the WebAssembly port,
by node): the same perft, the time to list Kiwipete's legal moves, and the heap
after boot and after 300- and 1000-ply games (bytes a ply). CPython also counts
the journal's flash operations per move. The emulated Pico (host_tools/pico_emu/bench.py): boot,
scan rates, LED and move latencies, heap and flash work over a 300-ply game; the engine's speed
(host_tools/pico_emu/engine_bench.py); perft and the legal moves (host_tools/pico_emu/rules_bench.py);
the Pico W with an app over Bluetooth LE (host_tools/pico_emu/ble_bench.py).
"""

import os
import subprocess
import sys
import tempfile
import time

from host_tools import _paths  # noqa: F401
from scacchiera.rules import Position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = Position.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def perft_ours(p, depth):
    if depth == 0:
        return 1
    n = 0
    for m in p.legal_moves():
        p.push(m)
        n += perft_ours(p, depth - 1)
        p.pop()
    return n


def perft_python_chess(board, depth):
    if depth == 0:
        return 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += perft_python_chess(board, depth - 1)
        board.pop()
    return n


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def cpython_perft():
    import chess
    print("== CPython %s: perft, push/pop at every node" % sys.version.split()[0])
    for name, fen, depth in (("start", START, 4), ("kiwipete", KIWIPETE, 3)):
        n1, t1 = timed(perft_ours, Position.from_fen(fen), depth)
        n2, t2 = timed(perft_python_chess, chess.Board(fen), depth)
        assert n1 == n2, (name, n1, n2)
        print("%-9s d%d %8d nodes  ours %8.0f n/s  python-chess %8.0f n/s  ratio %.2fx"
              % (name, depth, n1, n1 / t1, n2 / t2, t2 / t1))


def micropython(script, *args):
    runner = os.path.join(ROOT, "tools", "micropython", "run.mjs")
    cmd = ["node", runner, "--path", os.path.join(ROOT, "firmware"), "--path", os.path.join(ROOT, "tests", "mpy"),
           os.path.join(ROOT, "tests", "mpy", script)] + [str(a) for a in args]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        print("  (failed: %s)" % (out.stderr.strip().splitlines() or ["?"])[-1])
    return out.stdout


def cpython_board():
    print("== CPython: the board's path, switch change -> LED frame")
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "mpy", "bench_board.py")],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")))
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)


def micropython_figures():
    print("== MicroPython (WebAssembly port, node; ticks have 1 ms resolution): the RP2040 is ~2.5x slower still")
    for script, args in (("bench_rules.py", ()), ("rules_heap.py", (300, 40 * 1024)), ("bench_board.py", ())):
        for line in micropython(script, *args).splitlines():
            print("  " + line)


# -- the firmware's main loop (hal.py, runner.py): per-scan cost, scan budget, heap ------------

HEAP_LIMIT = 100000       # bytes: the firmware's heap after boot and a long game, after a collection
# ``pad=N`` arguments of the heap scripts (tests/mpy/firmware_heap.py, tags_heap.py): N bytes held before
# the firmware loads, so its blocks land elsewhere. This port's collector is conservative: a heap figure
# is the least live heap over these layouts (the tests' as the bench's).
HEAP_LAYOUTS = ("pad=0", "pad=512", "pad=1024", "pad=2048")
HEAP_PER_PLY = 12         # bytes: what a ply may add to it
RP2040_PER_WASM = 2.5      # the RP2040 runs MicroPython about 2.5x slower than the WebAssembly port here
FAKEHW = os.path.join(ROOT, "host_tools", "fakehw")


def _figures(text):
    figures = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            try:
                figures[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return figures


def firmware_cpython():
    print("== CPython: the firmware's scan (hal.py on the fake machine, runner.step on FakeHardware)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([FAKEHW, os.path.join(ROOT, "firmware")]))
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "mpy", "bench_firmware.py")],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)


def _firmware_heap(runner, build, plies, *mode):
    """tests/mpy/firmware_heap.py run on the deployed ``build``: the CompletedProcess. Its limit is set
    out of reach: the bench judges the figures itself (the least over HEAP_LAYOUTS)."""
    return subprocess.run(["node", runner, "--path", FAKEHW, "--path", os.path.join(ROOT, "tests", "mpy"),
                           "--data", build, os.path.join(ROOT, "tests", "mpy", "firmware_heap.py"),
                           str(plies), str(10 * HEAP_LIMIT), build] + list(mode), capture_output=True, text=True)


def firmware_micropython():
    import tempfile
    from host_tools import deploy
    from host_tools.fakehw.matrix import board_config   # firmware/board_config.py, found from a checkout
    from scacchiera.runner import PERIOD_US
    print("== MicroPython: the firmware's scan, its budget on the RP2040, the heap after 0, 300 and 1000 plies")
    runner = os.path.join(ROOT, "tools", "micropython", "run.mjs")
    out = subprocess.run(["node", runner, "--path", FAKEHW, "--path", os.path.join(ROOT, "firmware"),
                          "--path", os.path.join(ROOT, "tests", "mpy"),
                          os.path.join(ROOT, "tests", "mpy", "bench_firmware.py")], capture_output=True, text=True)
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)
    fig = _figures(out.stdout)
    if "hal_read_rows_us" in fig and "loop_step_us" in fig:
        settle = 8 * (board_config.ROW_PULL_US + board_config.ROW_SETTLE_US)
        work = RP2040_PER_WASM * (fig["hal_read_rows_us"] + fig["loop_step_us"])
        scan = settle + work
        print("  budget on the RP2040: 8 rows x (%d + at most %d) us of waits = %d us at most, + %.1f x (%.1f + %.1f) "
              "us of Python = %.0f us" % (board_config.ROW_PULL_US, board_config.ROW_SETTLE_US, settle,
                                          RP2040_PER_WASM, fig["hal_read_rows_us"], fig["loop_step_us"], scan))
        print("  scan_rate_max %.0f scans/s; paced at one scan per %d us: %d scans/s (target >= 200)"
              % (1e6 / scan, PERIOD_US, 1000000 // PERIOD_US))
        print("  an LED frame (64 x 24 bits x 1.25 us = 1920 us) is written only when the pixels change")
    heap = {}
    with tempfile.TemporaryDirectory() as tmp:
        build = os.path.join(tmp, "build")
        deploy.build(build, march=None)
        for plies in (0, 300, 1000):
            layouts = []
            for pad in HEAP_LAYOUTS:
                out = _firmware_heap(runner, build, plies, pad)
                if plies == 300 and not layouts:   # the first layout's run, its own verdict left out
                    for line in (out.stdout + out.stderr).splitlines():
                        if not line.startswith(("heap ok", "heap over limit")):
                            print("  " + line)
                if out.returncode and "heap_after_game" not in out.stdout:
                    print("  (%d plies, %s failed: %s)" % (plies, pad, (out.stderr.strip().splitlines() or ["?"])[-1]))
                layouts.append(_figures(out.stdout).get("heap_after_game"))
            heap[plies] = None if None in layouts else min(layouts)
            if plies == 300 and heap[plies] is not None:
                print("  heap after the 300 plies over %d layouts of the heap (%s): %s bytes, the least %d"
                      % (len(layouts), ", ".join(HEAP_LAYOUTS), ", ".join("%d" % u for u in layouts), heap[plies]))
        # The same game with the board's engine playing black (level 6): its part, modules and tables.
        with_engine = _figures(_firmware_heap(runner, build, 60, "6").stdout)
        plain = _firmware_heap(runner, build, int(with_engine.get("plies", 0)))
        if with_engine.get("heap_after_game") and _figures(plain.stdout).get("heap_after_game"):
            print("  heap after a game against the board's engine (level 6, %d plies): %d bytes, %d more than "
                  "the same length hands-only (goal: engine and game <= 60 KB more)"
                  % (with_engine["plies"], with_engine["heap_after_game"],
                     with_engine["heap_after_game"] - _figures(plain.stdout)["heap_after_game"]))
    if None not in heap.values():
        per_ply = (heap[1000] - heap[0]) / 1000
        print("  the least over the layouts: heap after boot %d, 300 plies %d, 1000 plies %d bytes: "
              "%.1f bytes a ply (goal <= %d); "
              "1000 plies %s %d" % (heap[0], heap[300], heap[1000], per_ply, HEAP_PER_PLY,
                                    "<=" if heap[1000] <= HEAP_LIMIT else "OVER", HEAP_LIMIT))


# -- the journal's flash work per move (littlefs-relevant operations, counted on the fake flash) ----

def journal_flash_work(plies=40):
    """Per move of a game played by hands on FakeHardware: file opens, closes, renames, removes and
    bytes written to the flash. On the Pico every append that does not start a 4 KB block makes
    littlefs copy the file's last block into a fresh (erased) one; a rename or close is a metadata
    commit."""
    import sys as _sys
    _sys.path.append(FAKEHW)
    from scacchiera import start as firmware_main
    from fakehal import FakeHardware
    from memfs import MemFS
    from player import Player
    from scacchiera.runner import PERIOD_US

    class Counting(MemFS):
        def __init__(self):
            super().__init__("littlefs")
            self.counts = {"open": 0, "open_append": 0, "rename": 0, "remove": 0, "bytes": 0}

        def open(self, name, mode="rb"):
            f = super().open(name, mode)
            if "r" not in mode:
                self.counts["open_append" if "a" in mode else "open"] += 1
                write = f.write

                def counted(data):
                    self.counts["bytes"] += len(data)
                    return write(data)
                f.write = counted
            return f

        def rename(self, old, new):
            self.counts["rename"] += 1
            super().rename(old, new)

        def remove(self, name):
            self.counts["remove"] += 1
            super().remove(name)

    print("== CPython: the journal's flash work per move (a %d-ply game by hands, fake flash)" % plies)
    fs = Counting()
    hw = FakeHardware(fs=fs)
    hw.set_squares(list(range(16)) + list(range(48, 64)))
    runner = firmware_main.build(hw, PERIOD_US)
    hands = Player(hw, lambda n: firmware_main.serve(runner, n), PERIOD_US)
    for key in fs.counts:
        fs.counts[key] = 0
    game = runner.app.game
    seed = 12345
    while game.position.ply() < plies:
        moves = sorted(game.position.legal_moves())
        seed = (seed * 1103 + 12345) & 0xFFFF
        move = moves[seed % len(moves)]
        game.position.push(move)
        over = game.position.outcome() is not None
        game.position.pop()
        if not over:
            hands.play(game.position, move)
    hands.wait(1000)
    c = fs.counts
    print("  per move: %.2f rewrites (open 'wb'), %.2f appends (open 'ab'), %.2f renames, %.2f removes, "
          "%.1f bytes written" % (c["open"] / plies, c["open_append"] / plies, c["rename"] / plies,
                                  c["remove"] / plies, c["bytes"] / plies))


def companion_latency(rounds=40, engine_rounds=8):
    """Switch change -> page updated: a reed opens or closes on the simulated board, and a page's
    WebSocket gets the state with the new LED (the real uvicorn server on loopback). Then, for each
    engine offered (Stockfish when found, the project's own): the engine's reply -> its move lit
    (show-from in the firmware's LED frame) in the page's state."""
    import asyncio
    import json
    import threading
    import websockets
    from host_tools.companion.boards import SimulatedBoard
    from host_tools.companion.server import bind, make_server
    from host_tools.serving import in_thread
    from host_tools.companion.engine import engines
    from scacchiera.sensing.debounce import DEFAULT_DELAY_MS

    board = SimulatedBoard()
    board.play_computer(engines())
    board.computer.think = 0.05
    sock = bind(0)
    server = make_server(board, sock)

    seen_at = {}                      # when the board's model first had the new LED (before the WebSocket)
    notify = board.on_change

    def on_change():
        seen_at.setdefault(board.model.frame.get("g1") == "lifted", time.perf_counter())
        notify()
    board.on_change = on_change

    async def measure():
        times = []
        board_part = []
        url = "ws://127.0.0.1:%d/ws" % sock.getsockname()[1]
        async with websockets.connect(url) as ws:
            async def until(lit):
                while True:
                    msg = json.loads(await ws.recv())
                    if "state" in msg and (msg["state"]["leds"].get("g1") == "lifted") == lit:
                        return
            await until(False)
            for i in range(rounds):
                lift = i % 2 == 0
                seen_at.clear()
                start = time.perf_counter()
                board.act("lift" if lift else "place", {"square": "g1"})      # the reed, by the hands
                await until(lift)
                times.append((time.perf_counter() - start) * 1000)
                board_part.append((seen_at.get(lift, start) - start) * 1000)
            shown = {}
            for ident in board.computer.describe()["engines"]:
                board.act("computer", {"engine": ident, "sides": []})
                shown[board.computer.name] = got = []
                for i in range(engine_rounds):
                    board.act("new", {})
                    before = board.computer.replied_at
                    board.act("computer", {"sides": ["white"]})
                    while True:
                        msg = json.loads(await ws.recv())
                        if "state" in msg and "show-from" in msg["state"]["leds"].values() \
                                and board.computer.replied_at != before:
                            break
                    got.append((time.perf_counter() - board.computer.replied_at) * 1000)
                    board.act("computer", {"sides": []})
                got.sort()
        return sorted(times), sorted(board_part), shown

    with in_thread(server, [sock]):
        times, board_part, shown = asyncio.run(measure())
    print("== companion: switch change -> page updated (simulated board, WebSocket, %d changes; load average"
          " %.1f on %d cores)" % (rounds, os.getloadavg()[0], os.cpu_count()))
    print("median %.1f ms  p90 %.1f ms  max %.1f ms  (target <= 50 ms)"
          % (times[len(times) // 2], times[int(len(times) * 0.9)], times[-1]))
    print("  of which the simulated board (firmware: %d ms debounce, its LED cadence): median %.1f ms;"
          " the server and WebSocket: the rest" % (DEFAULT_DELAY_MS, board_part[len(board_part) // 2]))
    for name, got in shown.items():
        print("engine reply -> its move lit on the board's LEDs, seen by the page: median %.1f ms  max %.1f ms"
              " (%d replies, %s)" % (got[len(got) // 2], got[-1], len(got), name))
    if len(shown) < 2:
        print("  (no Stockfish: apt-get install stockfish to measure it too)")
    board.computer.stop()


def page_first_load(rounds=5):
    """The page's first load on loopback, in headless Chromium at a phone's size (390 x 844): from
    navigation to the board drawn with the board's state (the simulated board's pieces on it),
    a fresh browser context each time (no cache). Skipped, saying so, without Chromium or Playwright."""
    import shutil
    import threading
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    print("== companion: the page's first load (loopback, headless Chromium, 390 x 844, no cache)")
    if chromium is None or sync_playwright is None:
        print("  skipped: needs Chromium (apt-get install chromium) and Playwright (make deps)")
        return
    from host_tools.companion.boards import SimulatedBoard
    from host_tools.companion.server import bind, make_server
    from host_tools.serving import in_thread
    board = SimulatedBoard()
    sock = bind(0)
    times = []
    with in_thread(make_server(board, sock), [sock]) as port:
        url = "http://127.0.0.1:%d/" % port
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            for _ in range(rounds + 1):               # the first warms Chromium itself up: not counted
                context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
                page = context.new_page()
                start = time.perf_counter()
                page.goto(url)
                page.wait_for_selector(".sq[data-square='e1'] .piece[data-piece='K']")
                times.append((time.perf_counter() - start) * 1000)
                context.close()
            browser.close()
    times = sorted(times[1:])
    print("median %.0f ms  max %.0f ms over %d loads  (target <= 1000 ms)" % (times[len(times) // 2], times[-1], len(times)))


# -- the engine (issue 15): nodes/s, heap, the RP2040's node budget per move -----------------



def _children_cpu():
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def engine_figures():
    """Nodes/s of the engine's search on CPython and MicroPython (wasm) and its heap; the RP2040's
    rate is measured on the emulated Pico (host_tools/pico_emu/engine_bench.py)."""
    import time
    from scacchiera.engine import Engine
    from scacchiera.rules import Position
    positions = os.path.join(ROOT, "tests", "data", "engine_positions.txt")
    with open(positions) as f:
        fens = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    print("== Engine: search speed (%d positions of tests/data/engine_positions.txt)" % len(fens))
    engine = Engine()
    engine.use_book = False
    nodes = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for fen in fens:
        engine.best_move(Position(fen), max_nodes=5000)
        nodes += engine.nodes
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print("  CPython: %d nodes, %.0f nodes/s (%.0f per CPU second)" % (nodes, nodes / wall, nodes / cpu))
    import tempfile
    from host_tools import deploy
    runner = os.path.join(ROOT, "tools", "micropython", "run.mjs")
    with tempfile.TemporaryDirectory() as tmp:
        build = os.path.join(tmp, "build")
        deploy.build(build, march=None)     # the .mpy files the Pico loads (as bytecode: no native emitter here)
        cpu = []
        for script, args in (("engine_heap.py", ("rules", build)), ("check_engine.py", (positions, "3000", build))):
            c0 = _children_cpu()
            out = subprocess.run(["node", runner, "--path", os.path.join(ROOT, "tests", "mpy"),
                                  "--data", os.path.join(ROOT, "tests", "data"), "--data", build,
                                  os.path.join(ROOT, "tests", "mpy", script)] + list(args),
                                 capture_output=True, text=True)
            cpu.append(_children_cpu() - c0)
    if out.returncode:
        print("  MicroPython failed: %s" % (out.stderr.strip().splitlines() or ["?"])[-1])
        return
    figures = dict(line.split(": ") for line in out.stdout.splitlines() if ": " in line)
    # CPU seconds of the search alone: the run less a run that only starts MicroPython and imports the rules
    wasm = int(int(figures["nodes searched"]) / max(cpu[1] - cpu[0], 1e-3))
    print("  MicroPython (wasm): %d nodes per CPU second; wall clock %s nodes/s (heap locked), %s nodes/s "
          "stepped one node at a time" % (wasm, figures["nodes/s"], figures["nodes/s in 1-node slices"]))
    used = {}
    with tempfile.TemporaryDirectory() as tmp:
        build = os.path.join(tmp, "build")
        deploy.build(build, march=None)
        for mode in ("rules", "modules", "engine"):
            out = subprocess.run(["node", runner, "--data", build,
                                  os.path.join(ROOT, "tests", "mpy", "engine_heap.py"), mode, build],
                                 capture_output=True, text=True)
            used[mode] = int(out.stdout.split("heap in use: ")[1].split()[0]) if "heap in use: " in out.stdout else 0
    print("  heap beyond the rules' (.mpy, after a real collection): %d bytes = modules %d + an Engine %d"
          % (used["engine"] - used["rules"], used["modules"] - used["rules"], used["engine"] - used["modules"]))


def lichess_latency():
    """A game against the fake Lichess of the tests (loopback, berserk): the board's move recognised ->
    at Lichess; the opponent's reply at Lichess -> lit on the board (``show`` in the board's status)."""
    import statistics
    import sys as _sys
    _sys.path.append(os.path.join(ROOT, "tests"))
    from companion_support import make, step_until
    from fake_lichess import FakeLichess, Served
    from host_tools.companion.boards import SimulatedBoard
    script = ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 "
              "b3c2 c7c5 d2d4 d8c7").split()
    fake = FakeLichess(token="lip_benchtoken123")
    fake.next_script = script
    sent, shown = [], []
    with Served(fake) as served, tempfile.TemporaryDirectory() as tmp:
        board = SimulatedBoard()
        board.play_lichess(token="lip_benchtoken123", base_url=served.url, token_path=os.path.join(tmp, "t"),
                           ladder_path=None, archive_dir=tmp)
        board.lichess.start()
        try:
            step_until(board, lambda s: s["lichess"]["account"], "the login")
            board.act("lichess", {"op": "ai", "level": 1, "minutes": 10, "increment": 0, "color": "white"})
            step_until(board, lambda s: s["lichess"]["game"] and s["lichess"]["game"]["phase"] == "play", "the game")
            gid = board.lichess.game.id
            for ply in range(0, len(script), 2):
                s = step_until(board, lambda s: len(s["moves"]) == ply and s["in_sync"] and s["show"] is None
                               and s["state"] == "idle", "the player's turn")
                make(board, s, script[ply])
                step_until(board, lambda s: len(s["moves"]) == ply + 1, "the board's move")
                start = time.perf_counter()
                while len(fake.moves(gid)) < ply + 1:
                    board.advance(1)
                sent.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                while board.model.view().status.get("show") != script[ply + 1]:
                    board.advance(1)
                shown.append((time.perf_counter() - start) * 1000)
                make(board, board.state(), script[ply + 1])
                step_until(board, lambda s: len(s["moves"]) == ply + 2, "the opponent's move made")
        finally:
            board.lichess.stop()
    print("== lichess: a game against the fake Lichess on loopback (berserk, %d moves each way)" % len(sent))
    for name, xs in (("board's move recognised -> at Lichess", sent), ("opponent's move at Lichess -> lit", shown)):
        xs.sort()
        print("  %s: median %.1f ms, p90 %.1f ms, max %.1f ms"
              % (name, statistics.median(xs), xs[max(0, int(len(xs) * 0.9) - 1)], xs[-1]))


def display_figures():
    """The optional display: a redraw's CPU time (WebAssembly port) and its I2C time (computed)."""
    print("== The display (MicroPython WebAssembly port; the bus time computed from the bytes at 400 kHz, "
          "not measured)")
    runner = os.path.join(ROOT, "tools", "micropython", "run.mjs")
    cmd = ["node", runner] + sum((["--path", os.path.join(ROOT, p)] for p in ("host_tools/fakehw", "firmware",
                                                                              "tests/mpy")), []) + \
        [os.path.join(ROOT, "tests", "mpy", "bench_display.py")]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        print("  (failed: %s)" % (out.stderr.strip().splitlines() or ["?"])[-1])
    for line in out.stdout.strip().splitlines():
        print("  " + line)
    from host_tools.pico_emu import display_bench   # skipped, saying why, without a .uf2
    display_bench.main()


def main():
    companion_latency()
    page_first_load()
    lichess_latency()
    from host_tools.club import bench as club_bench    # many boards on one host: the live feed, the broadcast
    club_bench.main()
    journal_flash_work()
    cpython_perft()
    cpython_board()
    micropython_figures()
    firmware_cpython()
    firmware_micropython()
    engine_figures()
    display_figures()
    from host_tools.pico_emu import bench as pico_bench   # skipped, saying why, without a .uf2
    pico_bench.main()
    from host_tools.pico_emu import engine_bench      # the engine's nodes/s on the emulated RP2040
    engine_bench.main()
    from host_tools.pico_emu import rules_bench       # perft and the legal moves on the emulated RP2040
    rules_bench.main()
    from host_tools.pico_emu import ble_bench         # the Pico W with an app on Bluetooth LE (a fake radio)
    ble_bench.main()


if __name__ == "__main__":
    main()
