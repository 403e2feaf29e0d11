"""Benchmarks: figures and ratios, printed (``make bench``). Nothing here asserts a time.

CPython: perft with push/pop at every node (no bulk counting at the leaves),
ours against python-chess in the same run. MicroPython (the WebAssembly port,
by node): the same perft, the time to list Kiwipete's legal moves, and the heap
after a 300-ply game.
"""

import os
import subprocess
import sys
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


def firmware_micropython():
    import tempfile
    from host_tools import deploy
    from host_tools.fakehw.matrix import board_config   # firmware/board_config.py, found from a checkout
    from scacchiera.runner import PERIOD_US
    print("== MicroPython: the firmware's scan, its budget on the RP2040, the heap after a 300-ply game")
    runner = os.path.join(ROOT, "tools", "micropython", "run.mjs")
    out = subprocess.run(["node", runner, "--path", FAKEHW, "--path", os.path.join(ROOT, "firmware"),
                          "--path", os.path.join(ROOT, "tests", "mpy"),
                          os.path.join(ROOT, "tests", "mpy", "bench_firmware.py")], capture_output=True, text=True)
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)
    fig = _figures(out.stdout)
    if "hal_read_rows_us" in fig and "loop_step_us" in fig:
        settle = 8 * board_config.ROW_SETTLE_US
        work = RP2040_PER_WASM * (fig["hal_read_rows_us"] + fig["loop_step_us"])
        scan = settle + work
        print("  budget on the RP2040: 8 rows x %d us settle = %d us, + %.1f x (%.1f + %.1f) us of Python = %.0f us"
              % (board_config.ROW_SETTLE_US, settle, RP2040_PER_WASM, fig["hal_read_rows_us"], fig["loop_step_us"],
                 scan))
        print("  scan_rate_max %.0f scans/s; paced at one scan per %d us: %d scans/s (target >= 200)"
              % (1e6 / scan, PERIOD_US, 1000000 // PERIOD_US))
        print("  an LED frame (64 x 24 bits x 1.25 us = 1920 us) is written only when the pixels change")
    with tempfile.TemporaryDirectory() as tmp:
        build = os.path.join(tmp, "build")
        deploy.build(build)
        out = subprocess.run(["node", runner, "--path", FAKEHW, "--path", os.path.join(ROOT, "tests", "mpy"),
                              "--data", build,
                              os.path.join(ROOT, "tests", "mpy", "firmware_heap.py"), "300", "100000", build],
                             capture_output=True, text=True)
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)


# -- the engine (issue 15): nodes/s, heap, the RP2040's node budget per move -----------------

ENGINE_RP2040_PER_WASM = 4   # search is perft-like work: the RP2040 ~4x slower than the wasm port (estimate)
ENGINE_SECONDS_PER_MOVE = 10


def _children_cpu():
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def engine_figures():
    """Nodes/s of the engine's search on CPython and MicroPython (wasm), its heap, and the
    estimated RP2040 budget per move (wasm nodes/s / 4 x 10 s, until the emulated Pico measures it)."""
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
        deploy.build(build)     # the .mpy files the Pico loads: their heap is the one that counts
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
    pico = wasm / ENGINE_RP2040_PER_WASM
    print("  MicroPython (wasm): %d nodes per CPU second; wall clock %s nodes/s (heap locked), %s nodes/s "
          "stepped one node at a time" % (wasm, figures["nodes/s"], figures["nodes/s in 1-node slices"]))
    used = {}
    with tempfile.TemporaryDirectory() as tmp:
        build = os.path.join(tmp, "build")
        deploy.build(build)
        for mode in ("rules", "modules", "engine"):
            out = subprocess.run(["node", runner, "--data", build,
                                  os.path.join(ROOT, "tests", "mpy", "engine_heap.py"), mode, build],
                                 capture_output=True, text=True)
            used[mode] = int(out.stdout.split("heap in use: ")[1].split()[0]) if "heap in use: " in out.stdout else 0
    print("  heap beyond the rules' (.mpy, after a real collection): %d bytes = modules %d + an Engine %d"
          % (used["engine"] - used["rules"], used["modules"] - used["rules"], used["engine"] - used["modules"]))
    print("  RP2040 (estimate: wasm / %d): %.0f nodes/s, %d nodes in %d s per move"
          % (ENGINE_RP2040_PER_WASM, pico, pico * ENGINE_SECONDS_PER_MOVE, ENGINE_SECONDS_PER_MOVE))


def main():
    cpython_perft()
    cpython_board()
    micropython_figures()
    firmware_cpython()
    firmware_micropython()
    engine_figures()


if __name__ == "__main__":
    main()
