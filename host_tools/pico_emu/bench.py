"""The board's figures on the emulated Pico (``make bench``; ``python -m host_tools.pico_emu.bench [PLIES]``).

Emulated RP2040 at 125 MHz with zero-wait-state flash: XIP cache misses are
not modelled, so every time here is a lower bound of the real chip's. Flash
erase and program take the datasheet's typical times (45 ms per 4 KB sector,
0.4 ms per 256 B page). Goals (issue 11): >= 400 scans/s in every state,
lift -> legal-destination LEDs <= 50 ms, last placement -> ``move`` <= settle
time + 60 ms, >= 120 KB heap free after 300 plies.
"""

import os
import random
import statistics
import sys

from host_tools import _paths  # noqa: F401
from host_tools.pico_emu.board import PicoHands
from host_tools.pico_emu.emulator import missing
from scacchiera.rules.squares import parse_square

ROOT = _paths._ROOT
STEP_MS = 1


def _until(hands, done, limit_ms=2000):
    """Run in 1 ms steps until ``done()``; the emulated ms it took."""
    start = hands.emu.t_ms
    while not done():
        if hands.emu.t_ms - start > limit_ms:
            return None
        hands.wait(STEP_MS)
    return hands.emu.t_ms - start


def scan_rate(hands, ms=1300):
    hands.wait(ms)
    return hands.status()["scan_rate"]


def lift_to_leds(hands, square, targets):
    """ms from a piece leaving ``square`` to the strip showing its legal destinations ``targets``."""
    hands.step("lift " + square)
    t = _until(hands, lambda: all("legal" in hands.candidates()[parse_square(sq)] for sq in targets))
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


def main(plies=300):
    why = missing()
    if why:
        print("== Emulated Pico: skipped (%s)" % why)
        return
    print("== Emulated Pico: MicroPython v1.28.0 (RPI_PICO) in rp2040js, the firmware as deployed")
    print("   (XIP flash cache misses are not modelled: times are lower bounds of the real chip's)")
    hands = PicoHands()
    try:
        boots = [ev for ev in hands.events if ev.get("ev") == "boot"]
        print("  boot to ready (the boot event): %.0f ms" % hands.emu.t_ms if boots else "  no boot event")
        print("  scans/s idle: %d" % scan_rate(hands))
        settle = hands.status()["options"]["settle_ms"]
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
        print("  last placement -> move event: median %.0f ms, max %.0f ms (settle time %d ms; goal <= %d)"
              % (statistics.median(known), max(known), settle, settle + 60))
    finally:
        hands.emu.close()
    hands = PicoHands()
    try:
        hands.query({"cmd": "new", "variant": "sprint", "seed": 1})
        hands.wait(600)
        rate = scan_rate(hands)
        frame = hands.led_meanings()
        print("  scans/s while the set-up blinks (Sprint after a chess game's 32 pieces: %d squares to-empty, "
              "%d to-fill): %d" % (sum(1 for m in frame.values() if m == "to-empty"),
                                  sum(1 for m in frame.values() if m == "to-fill"), rate))
    finally:
        hands.emu.close()
    hands = PicoHands()
    try:
        game = long_game(plies)
        player = QuickPlayer(hands)
        before = hands.emu.flash_stats()
        for move in game:
            player.play(move)
        hands.wait(1500)
        after = hands.emu.flash_stats()
        state = hands.snapshot(heap=True)
        ok = state["moves"] == [m.uci() for m in game]
        print("  %d-ply game: %s; heap free after a collection: %d B (the game resumed from flash, REPL)"
              % (plies, "every ply recognised" if ok else "MOVES DIFFER (%d of %d)" % (len(state["moves"]), plies),
                 state["heap_free"]))
        print("  flash per move: %.1f sector erases, %.1f page programs, %.1f ms busy"
              % ((after["erases"] - before["erases"]) / plies, (after["programs"] - before["programs"]) / plies,
                 (after["busy_ns"] - before["busy_ns"]) / 1e6 / plies))
        print("  emulated %.1f s" % (hands.emu.t_ms / 1000))
    finally:
        hands.emu.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
