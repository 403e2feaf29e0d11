"""Hands scripts on the emulated Pico: the simulator's script format, run against MicroPython on an RP2040.

``PicoHands`` is host_tools.hands.Hands with the emulator as the board: ``lift``
and ``place`` open and close reeds of the electrical matrix, ``wait`` lets
emulated time pass, ``press`` holds a button, ``send`` writes a line on the USB
serial link. Two more steps: ``power-cut`` (the cable pulled: the chip stops,
the flash keeps what it had) and ``boot`` (power on), and one for tests,
``fault flash-stuck`` (the flash never leaves busy, until a reset).

Expectations read the board as a person or a host would: ``expect leds`` and
``expect dark`` decode the WS2812 chain (pico_emu/leds.py) and take no time;
``expect moves``, ``fen``, ``result`` and ``state`` ask the board with the
protocol's ``status`` command, which costs the emulated time the firmware
takes to answer (tens of ms).
"""

import json

from host_tools.hands import Hands, ScriptError, SCAN_MS
from host_tools.pico_emu.emulator import Emulator, EmulatorError
from host_tools.pico_emu.leds import LedDecoder, DARK
from scacchiera.leds.palette import BLINK_MS
from scacchiera.rules.squares import parse_square, square_name
from scacchiera.rules.variants import new_position, variant_of, CHESS, CHESS960, SPRINT

BUTTON_MS = 150          # as the simulator's press
SEND_MS = 20
QUERY_STEP_MS = 10
QUERY_LIMIT_MS = 3000
BOOT_MS = 3000           # the longest a boot may take before the board must have said `boot`
ID_PREFIX = "emu:"       # replies to the harness's own queries are left out of ``protocol``


class PicoHands(Hands):
    def __init__(self, fen=None, profile="fide", variant=None, seed=None, emulator=None, **kwargs):
        pos = new_position(fen, profile, variant, seed)
        squares = [sq for sq in range(64) if pos.piece_at(sq)]
        self.emu = emulator or Emulator(squares=squares, **kwargs)
        self.emu.set_squares(squares)
        self.decoder = LedDecoder()
        self.sprint = variant_of(pos) == SPRINT
        self.chess960 = variant_of(pos) == CHESS960
        self._queries = 0
        self._seen = 0               # serial lines already sorted into events/protocol
        self.boot_lines = []
        rows = self._rows_of([1 if sq in squares else 0 for sq in range(64)])
        self._start(None, rows, 0, None, [])
        self.wait_for_boot()
        if fen is not None or profile != "fide" or variant_of(pos) != CHESS:
            # Set up as the simulator does: a Sprint game from its seed is the seed's start, whose
            # first tile is known to be just drawn (the first in the tap cycle); its position string
            # would be a set-up that does not say which tile was drawn last.
            command = {"cmd": "new", "profile": profile}
            if variant_of(pos) != CHESS:
                command["variant"] = variant_of(pos)
            if fen is not None:
                command["fen"] = pos.fen()
            elif self.sprint:
                command["seed"] = pos.seed
            reply = self.query(command)
            if not reply.get("ok"):
                raise ScriptError("the board refused the set-up: %s" % reply.get("message"))

    # -- time and the serial link -------------------------------------------------------

    def wait(self, ms):
        end = self.now + ms
        if end > self.now:
            self.emu.run(end - self.now)
        self.now = end
        self._collect()

    def _collect(self):
        """Sort new serial lines: the board's events and replies (``protocol``), not the harness's queries."""
        lines = self.emu.lines()
        for line in lines[self._seen:]:
            if isinstance(line, dict):
                if str(line.get("id", "")).startswith(ID_PREFIX):
                    continue
                if "ev" in line:
                    self.events.append(line)
            self.protocol.append(line if isinstance(line, str) else json.dumps(line, sort_keys=True))
        self._seen = len(lines)

    def crashes(self):
        """The board's ``crash`` events and its boots after the first: a figure taken across one
        measured a board starting again, not its loop (a bench raises, ``check_no_crash``)."""
        boots = [ev for ev in self.events if ev.get("ev") == "boot"]
        return [ev for ev in self.events if ev.get("ev") == "crash"] + boots[1:]

    def check_no_crash(self):
        crashes = self.crashes()
        if crashes:
            raise EmulatorError("the board crashed or reset: %s" % crashes)

    def wait_for_boot(self):
        """Run until the firmware says ``boot`` (and its LEDs are drawn)."""
        start = len(self.emu.lines())
        for _ in range(BOOT_MS // QUERY_STEP_MS):
            self.wait(QUERY_STEP_MS)
            for line in self.emu.lines()[start:]:
                if isinstance(line, dict) and line.get("ev") == "boot":
                    self.wait(50)
                    return line
        raise EmulatorError("no boot event within %d ms; the board said: %s" % (
            BOOT_MS, self.emu.serial[-2000:]))

    def query(self, command):
        """Send a command (a dict) with the harness's id and run until its reply; returns the reply."""
        self._queries += 1
        rid = "%s%d" % (ID_PREFIX, self._queries)
        command = dict(command, id=rid)
        self.emu.send(json.dumps(command) + "\n")
        for _ in range(QUERY_LIMIT_MS // QUERY_STEP_MS):
            self.wait(QUERY_STEP_MS)
            for line in reversed(self.emu.lines()):
                if isinstance(line, dict) and line.get("id") == rid:
                    return line
        raise EmulatorError("no reply to %s within %d ms" % (command["cmd"], QUERY_LIMIT_MS))

    def status(self, mem=False):
        return self.query({"cmd": "status", "mem": True} if mem else {"cmd": "status"})

    # -- the hands -----------------------------------------------------------------------

    def touch(self, square, level):
        self._set(square, level)
        self.emu.set_square(square, level)

    def press(self, name):
        try:
            self.emu.button(name, True)
        except EmulatorError as e:
            raise ScriptError(str(e))
        self.wait(BUTTON_MS)
        self.emu.button(name, False)
        self.wait(20)

    def send(self, line):
        self.emu.send(line + "\n")
        self.wait(SEND_MS)

    def step(self, line, number=0):
        words = line.split("#", 1)[0].split()
        if words and words[0] == "power-cut":
            self.emu.power_cut()
        elif words and words[0] == "boot":
            self.emu.boot()
            self.wait_for_boot()
        elif words and words[0] == "fault":
            self.emu.fault(words[1] if len(words) > 1 else None)
        else:
            Hands.step(self, line, number)

    # -- what the board shows -------------------------------------------------------------

    def candidates(self):
        return self.decoder.candidates(self.emu.frames_since_boot(), self.emu.device_ms)

    def led_meanings(self, game_over=False, settle_ms=3 * BLINK_MS + 150):
        """{square: meaning} decoded from the strip; runs up to ``settle_ms`` more until every square is certain."""
        waited = 0
        while True:
            cands = self.candidates()
            if self.decoder.certain(cands) or waited >= settle_ms:
                return self.decoder.resolve(cands, game_over, self.sprint)
            self.wait(50)
            waited += 50

    def moves(self):
        return self.status()["moves"]

    def state(self):
        return self.status()["state"]

    def result(self):
        st = self.status()
        return [st["result"]] + ([st["termination"]] if st["termination"] else [])

    def fen(self):
        return self.status()["fen"]

    def set_option(self, name, value):
        value = ("on" if value else "off") if value is True or value is False else value
        self.send("set %s %s" % (name, value))

    def offer(self):
        return self.status()["offer"] or "-"

    def clock(self):
        clock = self.status()["clock"]
        if clock is None:
            return ["0", "0", "-"]
        return [str(clock["white"]), str(clock["black"]), clock["running"] or "-"]

    def expect_leds(self, items, dark):
        """Each square's meaning must be one the strip is consistent with (leds.py decodes it).

        A square expected lit that shows dark gets up to one blink phase more: a blinking meaning
        that appears during its dark half changes no pixel (the firmware writes no frame) until its
        lit half, so the frames show it up to BLINK_MS late whatever the firmware's speed."""
        wanted = [(item, "=", DARK) if dark else item.partition("=") for item in items]
        waited = 0
        while True:
            cands = self.candidates()
            late = [name for name, _, meaning in wanted
                    if meaning not in cands[parse_square(name)] and cands[parse_square(name)] == {DARK}]
            if not late or waited >= BLINK_MS:
                break
            self.wait(50)
            waited += 50
        for name, _, meaning in wanted:
            got = cands[parse_square(name)]
            assert meaning in got, "led %s: the strip shows %s, not %s" % (
                name, "/".join(sorted(m or "dark" for m in got)), meaning or "dark")

    def snapshot(self, heap=False):
        """The simulator's --json object (fen, moves, san, result, termination, in_sync, leds, protocol)
        plus emulated_ms, scan_rate, heap_free (with ``heap``: Ctrl-C, then a collection in the REPL)."""
        st = self.status(mem=True)
        sans = []
        replay = new_position(self._start_fen(), st["options"]["profile"],
                              CHESS960 if self.chess960 else None)
        for uci in st["moves"]:
            move = replay.parse_uci(uci)
            sans.append(replay.san(move, "en"))
            replay.push(move)
        over = st["result"] != "*"
        out = {
            "fen": st["fen"], "moves": st["moves"], "san": sans, "result": st["result"],
            "termination": st["termination"], "in_sync": st["in_sync"],
            "leds": self.led_meanings(over),
            "protocol": self.protocol[-200:],
            "scan_rate": st["scan_rate"], "mem_free_running": st.get("mem_free"),
        }
        if heap:
            out["heap_free"] = self.heap_free()
        out["emulated_ms"] = round(self.emu.t_ms)
        return out

    def _start_fen(self):
        """The position the game's moves start from: the last new_game event's (None: the standard start)."""
        for ev in reversed(self.events):
            if ev.get("ev") == "new_game":
                return ev.get("fen")
        return None

    def heap_free(self, host=None, then=""):
        """Free heap after gc.collect() with the game loaded: the REPL rebuilds the firmware from the
        flash (start.build: the saved game resumed), runs it briefly and collects. ``host`` "dgt" or
        "chesslink": with such a program holding the link too (its module loaded, updates on, a dump
        or a status sent); ``then``: code run after that (``r`` is the runner)."""
        connect = ""
        if host is not None:
            first = "0x44, 0x42" if host == "dgt" else "0x53, 0x35, 0x33"      # updates + dump; S and its check
            connect = ("from scacchiera.link.hosts import open_host\nopen_host(r.protocol, %r)\n"
                       "for b in (%s,): r.protocol.host.byte(r, b)\n"
                       "r.run(40)\nhw = r.hw\nhw.serial_ctrl_c(True)\n" % (host, first))
        code = ("import gc, hal\nfrom scacchiera import start\nr = start.build(hal.Hardware())\nr.run(40)\n"
                "import scacchiera.link.commands\n" + connect + then + "gc.collect()\nprint('HEAP', gc.mem_free())\n")
        out = self.repl(code, "HEAP ")
        return int(out.rsplit("HEAP ", 1)[1].split()[0])

    def repl(self, code, until, limit_ms=QUERY_LIMIT_MS, between=None):
        """Stop the firmware (Ctrl-C: the loop's objects die with it) and run ``code`` in MicroPython's
        raw REPL (Ctrl-A), until the board has printed a line holding ``until``; returns what it printed.
        ``between(printed)``, if given, is called every ``QUERY_STEP_MS`` meanwhile (hands at work)."""
        self.emu.send(b"\x03\x03")
        self.wait(300)
        self.emu.send(b"\x01")
        self.wait(100)
        mark = len(self.emu.serial)
        self.emu.send(code.encode() + b"\x04")
        start = self.emu.t_ms
        while self.emu.t_ms - start <= limit_ms:
            self.wait(QUERY_STEP_MS)
            out = self.emu.serial[mark:]
            tail = out.rsplit(until, 1)
            if len(tail) == 2 and "\n" in tail[1]:
                return out
            if "Traceback" in out and out.rstrip().endswith(">"):
                break
            if between is not None:
                between(out)
        raise EmulatorError("the REPL did not print %r: %s" % (until, self.emu.serial[-800:]))


def occupied_names(emu):
    return [square_name(sq) for sq in sorted(emu.occupied)]
