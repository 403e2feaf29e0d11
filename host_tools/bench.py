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


def main():
    cpython_perft()
    cpython_board()
    micropython_figures()


if __name__ == "__main__":
    main()
