"""The board's engine as a UCI engine: for chess GUIs, python-chess and the companion page.

    python -m host_tools.uci

Commands: uci, isready, ucinewgame, setoption (Level 1..7, Seed, OwnBook),
position startpos|fen ... [moves ...], go [movetime|nodes|depth|wtime btime
winc binc movestogo|infinite], stop, quit. The search runs a slice at a
time (``Engine.step``) in a worker thread, so ``stop`` and ``isready``
answer while it thinks; positions and moves go through the rules module,
so an illegal move in ``position`` is reported and ignored.
"""

import sys
import threading
import time

from host_tools import _paths  # noqa: F401
from scacchiera.engine import Engine, MIN_LEVEL, MAX_LEVEL, DEFAULT_LEVEL
from scacchiera.rules import Position

NAME = "Scacchiera"
SLICE_NODES = 2000


def budget_ms(mine, inc, moves_to_go):
    """Time for one move from the clock: a share of what is left plus most of the increment."""
    share = mine / (moves_to_go if moves_to_go else 30)
    return max(10, min(int(share + 0.8 * inc), mine // 2 if mine > 40 else 10))


class UciEngine:
    def __init__(self, out=sys.stdout):
        self.out = out
        self.engine = Engine(DEFAULT_LEVEL, lines=True)   # the whole principal variation for the GUI
        self.position = Position()
        self.worker = None
        self.stop_flag = threading.Event()
        self.lock = threading.Lock()

    def send(self, text):
        with self.lock:
            self.out.write(text + "\n")
            self.out.flush()

    # -- commands -----------------------------------------------------------

    def handle(self, line):
        """Act on one line; False on quit."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "uci":
            self.send("id name %s" % NAME)
            self.send("id author Scacchiera project")
            self.send("option name Level type spin default %d min %d max %d" % (DEFAULT_LEVEL, MIN_LEVEL, MAX_LEVEL))
            self.send("option name Seed type spin default 0 min 0 max 65535")
            self.send("option name OwnBook type check default true")
            self.send("uciok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "ucinewgame":
            self.wait()
            self.position = Position()
        elif cmd == "setoption":
            self.wait()
            self.setoption(args)
        elif cmd == "position":
            self.wait()
            self.set_position(args)
        elif cmd == "go":
            self.wait()
            self.go(args)
        elif cmd == "stop":
            self.stop_flag.set()
            self.wait()
        elif cmd == "quit":
            self.stop_flag.set()
            self.wait()
            return False
        else:
            self.send("info string unknown command: %s" % cmd)
        return True

    def setoption(self, args):
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            self.send("info string setoption needs: name <id> value <x>")
            return
        name, value = text[5:].split(" value ", 1)
        name = name.strip().lower()
        try:
            if name in ("level", "skill level"):
                self.engine.set_level(int(value))
            elif name == "seed":
                self.engine.seed = int(value) & 0xFFFF
            elif name == "ownbook":
                self.engine.use_book = value.strip().lower() == "true"
            else:
                self.send("info string unknown option: %s" % name)
        except ValueError as exc:
            self.send("info string %s" % exc)

    def set_position(self, args):
        if args[:1] == ["startpos"]:
            fen, rest = None, args[1:]
        elif args[:1] == ["fen"]:
            cut = args.index("moves") if "moves" in args else len(args)
            fen, rest = " ".join(args[1:cut]), args[cut:]
        else:
            self.send("info string position needs startpos or fen")
            return
        try:
            pos = Position(fen)
        except ValueError as exc:
            self.send("info string bad FEN: %s" % exc)
            return
        for text in rest[1:] if rest[:1] == ["moves"] else []:
            try:
                pos.push(pos.parse_uci(text))
            except ValueError as exc:
                self.send("info string bad move %s: %s" % (text, exc))
                break
        self.position = pos

    def go(self, args):
        opts = {}
        infinite = "infinite" in args
        i = 0
        while i < len(args):
            if args[i] in ("movetime", "nodes", "depth", "wtime", "btime", "winc", "binc", "movestogo") \
                    and i + 1 < len(args):
                try:
                    opts[args[i]] = int(args[i + 1])
                except ValueError:
                    pass
                i += 2
            else:
                i += 1
        max_nodes = opts.get("nodes")
        max_depth = opts.get("depth")
        max_ms = opts.get("movetime")
        white = self.position.turn == 0
        clock = opts.get("wtime" if white else "btime")
        if max_ms is None and clock is not None:
            max_ms = budget_ms(clock, opts.get("winc" if white else "binc", 0), opts.get("movestogo"))
        if infinite:
            max_nodes, max_ms = None, 10 ** 9
        elif max_nodes is None and max_ms is None and max_depth is not None:
            max_ms = 10 ** 9
        self.stop_flag.clear()
        position = self.position
        try:
            self.engine.start(position, max_nodes, max_ms, max_depth)
        except ValueError as exc:
            self.send("info string %s" % exc)
            self.send("bestmove 0000")
            return
        self.worker = threading.Thread(target=self.think, args=(position, infinite), daemon=True)
        self.worker.start()

    def think(self, position, infinite):
        engine = self.engine
        t0 = time.monotonic()
        shown = 0
        while True:
            finished = engine.step(SLICE_NODES)
            if engine.depth > shown and not engine.from_book:
                shown = engine.depth
                self.info(position, t0)
            if finished:
                break
            if self.stop_flag.is_set():
                engine.stop()
                break
        if infinite:   # UCI: no bestmove before stop
            self.stop_flag.wait()
        if engine.depth != shown or engine.from_book:
            self.info(position, t0)
        move = engine.result
        self.send("bestmove %s" % (position.uci(move) if move else "0000"))

    def info(self, position, t0):
        engine = self.engine
        if engine.from_book:
            self.send("info string book move")
            return
        ms = int((time.monotonic() - t0) * 1000)
        score = engine.score or 0
        if score > 30000:
            text = "mate %d" % ((31000 - score + 1) // 2)
        elif score < -30000:
            text = "mate -%d" % ((31000 + score) // 2)
        else:
            text = "cp %d" % score
        line = engine.principal_variation(position)     # the whole line, for a GUI to show
        pv = " pv " + " ".join(position.uci(m) for m in line) if line else ""
        self.send("info depth %d score %s nodes %d time %d nps %d%s"
                  % (engine.depth, text, engine.nodes, ms, engine.nodes * 1000 // max(ms, 1), pv))

    def wait(self):
        if self.worker is not None:
            self.worker.join()
            self.worker = None


def main():
    uci = UciEngine()
    for line in sys.stdin:
        if not uci.handle(line.strip()):
            break
    uci.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
