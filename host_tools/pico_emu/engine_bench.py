"""The engine's search speed on the emulated RP2040 (``make bench``; ``python -m host_tools.pico_emu.engine_bench``).

The firmware as deployed (the ROMFS build), MicroPython v1.28.0 at 125 MHz in
rp2040js with its XIP cache modelled: Ctrl-C stops the board's loop and the raw
REPL searches the positions of tests/data/engine_positions.txt at level 6
(book off), timing each with ``time.ticks_ms``, and times slices of ``step(n)``.
Then the board's own loop while the top level thinks (``on_the_board``: scans/s,
a lift lit, nodes/s in the loop) and its replies from fourteen middle games
(``replies``). The replies set the top level's node budget (scacchiera/engine
LEVELS: what 10 s allow in the slowest), and with it the match harness's
RP2040_NODES (host_tools/engine_match.py).
"""

import os
import re
import sys

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing
from scacchiera.engine import LEVELS, MAX_LEVEL
from scacchiera.runner import SEARCH_PERIOD_US

ROOT = _paths._ROOT
NODES = 1000          # per position: a few seconds of the chip's time
# Out of the book (a Giuoco Pianissimo with a3 and a6 thrown in: the larger book of 3 Dec 2026 held the
# Pianissimo itself, and the figures since are this position's), white to move: the engine searches at once.
MIDGAME = "r1bqk2r/1ppp1ppp/p1n2n2/2b1p3/2B1P3/P2P1N2/1PP2PPP/RNBQK2R w KQkq - 0 6"

SEARCH = """
import time, gc
from scacchiera.rules import Position
from scacchiera.engine import Engine
T = time.ticks_ms
D = time.ticks_diff
U = time.ticks_us
from scacchiera.engine.book import book_moves
k = Position().hash
a = U()
for i in range(20):
    b = book_moves(k)
print('BOOK', D(U(), a) // 20, len(b))
e = Engine(level=6)
e.use_book = False
gc.collect()
print('FREE', gc.mem_free())
for fen in %r:
    p = Position(fen)
    a = T()
    e.start(p, max_nodes=%d)
    while not e.step(100000):
        pass
    print('SEARCH', e.nodes, D(T(), a), e.depth)
p = Position(%r)
for n in (1, 2, 4, 8):
    e.start(p, max_nodes=4000)
    worst = 0
    total = 0
    k = 0
    while k < 40 and not e.step(n):
        a = U()
        done = e.step(n)
        d = D(U(), a)
        total += d
        k += 1
        if d > worst:
            worst = d
        if done:
            break
    print('SLICE', n, total // max(k, 1), worst)
print('DONE')
"""


def positions(name="engine_positions.txt"):
    with open(os.path.join(ROOT, "tests", "data", name)) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def measure(nodes=NODES, count=None, board=None):
    """{'searches': [(nodes, ms, depth)], 'slices': [(n, mean us, max us)], 'free': bytes, 'book': (us a
    look-up of the start position, its moves)}; ``board``:
    PicoHands' arguments (another MicroPython, say)."""
    fens = positions()[:count] if count else positions()
    hands = PicoHands(**(board or {}))
    try:
        code = SEARCH % (fens, nodes, fens[5 if len(fens) > 5 else 0])
        out = hands.repl(code, "DONE", limit_ms=(len(fens) * nodes + 20000) * 2)
    finally:
        hands.emu.close()
    searches = [tuple(int(w) for w in m) for m in re.findall(r"SEARCH (\d+) (\d+) (\d+)", out)]
    slices = [tuple(int(w) for w in m) for m in re.findall(r"SLICE (\d+) (\d+) (\d+)", out)]
    free = re.search(r"FREE (\d+)", out)
    book = re.search(r"BOOK (\d+) (\d+)", out)
    return {"searches": searches, "slices": slices, "free": int(free.group(1)) if free else None,
            "book": (int(book.group(1)), int(book.group(2))) if book else None}


def on_the_board(level=MAX_LEVEL):
    """The board's own loop while its engine thinks: {'scan_rate', 'lift_ms', 'move_ms', 'uci',
    'search_ms', 'loop_nodes_per_s'}.

    The engine plays white from MIDGAME at ``level``, twice. Left alone: the
    emulated ms from ``set opponent`` to the ``engine_move`` event (the
    engine's modules loaded in it: ``move_ms``) and from the ``thinking`` event
    to it (the search: ``search_ms``, and the nodes/s of the loop's slices, the
    level's node budget over that). Then while it thinks again: ``status``'s
    scan rate (a quiet second) and a white knight lifted until its destinations
    light (their queries and lights cost the search time: not the first run).
    """
    from host_tools.pico_emu.bench import scan_rate, lift_to_leds
    alone = _engine_move(level)

    def measure_loop(hands, thinking):
        rate = scan_rate(hands) if thinking() else None
        return rate, lift_to_leds(hands, "b1", ("c3", "d2")) if rate and thinking() else None

    rate, lift = _engine_move(level, measure_loop)["meanwhile"]
    search_ms = alone["search_ms"]
    return {"scan_rate": rate, "lift_ms": lift, "move_ms": alone["move_ms"], "uci": alone["uci"],
            "search_ms": search_ms, "loop_nodes_per_s": LEVELS[level][2] * 1000 // search_ms if search_ms else None}


def replies(level=None, fens=None):
    """The board's engine answering from each of ``fens`` (default: tests/data/middlegames.txt, the
    side to move's engine) at ``level`` (the top), in its own loop, one board booted once: [(fen, uci,
    ms from ``thinking`` to ``engine_move``)]. The first holds the engine's load; the budget is the
    level's, so the time is the loop's rate."""
    from host_tools.pico_emu.bench import BOOT_QUIET_MS, QUIET_MS
    fens = fens or positions("middlegames.txt")
    hands = PicoHands()
    out = []
    try:
        hands.wait(max(0, BOOT_QUIET_MS - QUIET_MS - hands.emu.device_ms))
        for fen in fens:
            hands.query({"cmd": "set", "name": "opponent", "value": "person"})
            hands.query({"cmd": "new", "fen": fen})
            answer = _answer(hands, level or MAX_LEVEL, fen.split()[1])
            out.append((fen, answer["uci"], answer["search_ms"]))
    finally:
        hands.emu.close()
    return out


def _engine_move(level, meanwhile=None):
    """A fresh board, the boot's work done; white's engine asked to move at ``level`` (_answer)."""
    from host_tools.pico_emu.bench import BOOT_QUIET_MS, QUIET_MS
    hands = PicoHands(fen=MIDGAME)
    try:
        hands.wait(max(0, BOOT_QUIET_MS - QUIET_MS - hands.emu.device_ms))
        return _answer(hands, level, "w", meanwhile)
    finally:
        hands.emu.close()


def _answer(hands, level, side, meanwhile=None):
    """The board's engine asked to play ``side`` ("w" / "b") at ``level``: the ms to its move, to it
    from ``thinking``, and what ``meanwhile(hands, thinking)`` returned, called once it thinks
    (``thinking()``: no move yet)."""
    hands.query({"cmd": "set", "name": "engine_side", "value": side})
    mark = len(hands.events)
    start = hands.emu.t_ms

    def seen(kind):
        return [ev for ev in hands.events[mark:] if ev.get("ev") == kind]

    hands.query({"cmd": "set", "name": "opponent", "value": "engine %d" % level})
    while not seen("thinking") and hands.emu.t_ms - start < 60000:
        hands.wait(5)
    thinking_at = hands.emu.t_ms
    found = meanwhile(hands, lambda: not seen("engine_move")) if meanwhile else None
    while not seen("engine_move") and hands.emu.t_ms - start < 60000:
        hands.wait(5)
    hands.check_no_crash()
    moved = seen("engine_move")
    return {"move_ms": hands.emu.t_ms - start if moved else None, "uci": moved[0]["uci"] if moved else None,
            "search_ms": hands.emu.t_ms - thinking_at if moved else None, "meanwhile": found}


def _ms(x):
    return "none" if x is None else "%.0f" % x


def main(nodes=NODES):
    why = missing()
    if why:
        print("== Engine on the emulated Pico: skipped (%s)" % why)
        return None
    f = measure(nodes)
    total_nodes = sum(s[0] for s in f["searches"])
    total_ms = sum(s[1] for s in f["searches"])
    rate = total_nodes * 1000 // max(total_ms, 1)
    print("== Engine on the emulated Pico (MicroPython v1.28.0, 125 MHz, the ROMFS build, the XIP cache's misses counted)")
    print("  search at level 6, book off, %d positions x %d nodes: %d nodes in %d ms: %d nodes/s"
          % (len(f["searches"]), nodes, total_nodes, total_ms, rate))
    print("  per position (nodes/s): %s" % ", ".join("%d" % (n * 1000 // max(ms, 1)) for n, ms, d in f["searches"]))
    print("  10 s per move at that rate: %d nodes" % (rate * 10))
    for n, mean, worst in f["slices"]:
        print("  a slice of step(%d): mean %d us, max %d us" % (n, mean, worst))
    print("  heap free with the engine made (no game loop running): %s B" % f["free"])
    if f["book"]:
        print("  a book look-up (the start position, %d moves; book.bin read in place in ROMFS): %d us"
              % (f["book"][1], f["book"][0]))
    b = on_the_board(MAX_LEVEL)
    print("  on the board, level %d thinking (the time between scans, a scan every %d us): %s scans/s (status, a "
          "quiet second); lift -> legal-destination LEDs %s ms; its move (%s) after %s ms (set opponent -> "
          "engine_move, the engine's modules loaded in it), the search %s ms (thinking -> engine_move): %s nodes/s "
          "in the loop" % (MAX_LEVEL, SEARCH_PERIOD_US, b["scan_rate"], _ms(b["lift_ms"]), b["uci"], _ms(b["move_ms"]),
                           _ms(b["search_ms"]), b["loop_nodes_per_s"]))
    answers = replies()
    times = [ms for _fen, _uci, ms in answers if ms is not None]
    print("  level %d's replies (%d nodes) from %d positions, one board: %s ms (the first holds the engine's load); "
          "max %d ms, %d over 10 s" % (MAX_LEVEL, LEVELS[MAX_LEVEL][2], len(answers),
                                       ", ".join("%d" % ms for ms in times), max(times), sum(ms > 10000 for ms in times)))
    return rate


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else NODES)
