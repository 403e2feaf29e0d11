"""Benchmarks: figures and ratios, printed (``make bench``). Nothing here asserts a time.

CPython: perft with push/pop at every node (no bulk counting at the leaves),
ours against python-chess in the same run. MicroPython (the WebAssembly port,
by node): the same perft, the time to list Kiwipete's legal moves, and the heap
after a 300-ply game. The emulated Pico (host_tools/pico_emu/bench.py): boot,
scan rates, LED and move latencies, heap and flash work over a 300-ply game.
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


def main():
    cpython_perft()
    cpython_board()
    micropython_figures()
    firmware_cpython()
    firmware_micropython()
    from host_tools.pico_emu import bench as pico_bench   # skipped, saying why, without a .uf2
    pico_bench.main()


if __name__ == "__main__":
    main()
