"""The protocol's commands: parsing a line, checking every field, running it, one reply.

Loaded with the first line the host sends (protocol.py), with the two a host
sends first, ``hello`` and ``status``; the others are in actions.py, loaded
with the first of them: a host's first line waits for less. Input is never
evaluated: JSON goes through ``json.loads``, the text form is split into
words, and every field is checked against ``COMMANDS`` before anything
runs. A line that is not printable ASCII, not JSON, not a known command, has
an unknown or mistyped field, or asks for what the game refuses gets one
error reply and changes nothing. docs/protocol.md lists every command.
"""

import json

from .. import options
from .. import VERSION, FIRMWARE, MAX_LINE
from .framing import error
from .report import STATE_NAMES
from ..rules.variants import variant_of, SPRINT
from ..rules.uci_bytes import write_moves

# Each command's fields, in the text form's word order: name:kind, kind s (string),
# i (whole number), b (true/false) or v (any of those); "!" required; "*" takes the
# rest of the line in the text form.
COMMANDS = {
    "hello": "proto:i", "status": "mem:b", "new": "fen:s* profile:s variant:s seed:i position:i", "show": "uci:s!",
    "unshow": "", "undo": "", "claim": "", "offer": "side:s", "draw": "side:s", "resign": "side:s",
    "promote": "piece:s!", "set": "name:s! value:v!*", "suggest": "uci:s", "games": "", "pgn": "game:i",
    "diag": "on:b square:s", "watch": "leds:b occupancy:b", "leds": "", "occupancy": "",
    "clock": "white:i! black:i! run:s", "end": "how:s! side:s!", "decline": "side:s", "tag": "name:s! value:s*",
    "train": "mode:s! side:s puzzle:i rating:i theme:s seed:i fen:s moves:s*", "line": "moves:s!*",
}
# Commands that change the game: refused while diagnostics run, and (but
# new, unshow and undo) once the game is over.
_GAME = ("new", "show", "unshow", "undo", "claim", "offer", "draw", "resign", "promote", "suggest", "clock", "end",
         "decline", "train")
_ANY_TIME = ("new", "unshow", "train")    # not undo: once a result stands, no takeback
# Commands that leave the LED frame and the display's screen as they are (a host polling `status`
# would otherwise make the display compose its whole screen again each time): those that only read,
# and ``tag`` (the screen shows no tag). Not ``watch``: it relies on the frame drawn again at once.
_READS = ("hello", "status", "games", "pgn", "leds", "occupancy", "tag")
_WORDS = {"true": True, "on": True, "false": False, "off": False}


class ProtocolError(Exception):
    def __init__(self, code, message, rid=None, cmd=None):
        super().__init__(message)
        self.code = code
        self.rid = rid
        self.cmd = cmd


def _fields(cmd):
    return [f.split(":") for f in COMMANDS[cmd].split()]


def _typed(kind, value):
    if kind[0] == "b":
        return value is True or value is False
    if value is True or value is False:
        return kind[0] == "v"
    if kind[0] == "i":
        return isinstance(value, int)
    return isinstance(value, str) or (kind[0] == "v" and isinstance(value, int))


def _word(word):
    """A text-form word as a value: on/off/true/false, a whole number, or the word."""
    value = _WORDS.get(word.lower())
    if value is not None:
        return value
    digits = word[1:] if word[:1] == "-" else word
    return int(word) if digits.isdigit() and len(digits) < 10 else word


def _joined(text, key, rid, cmd):
    """``text`` with each UTF-16 surrogate pair (JSON's ``\\ud83d\\udc51``) as the one character
    it stands for: MicroPython's json keeps the two halves, which would be stored and sent back
    as CESU-8, not UTF-8. A half alone is no character: bad_field."""
    out = None
    i = 0
    n = len(text)
    while i < n:
        o = ord(text[i])
        if 0xD800 <= o < 0xE000:
            low = ord(text[i + 1]) if i + 1 < n else 0
            if o >= 0xDC00 or not 0xDC00 <= low < 0xE000:
                raise ProtocolError("bad_field", "%s: a lone UTF-16 surrogate (\\u%04x) is no character" % (key, o),
                                    rid, cmd)
            if out is None:
                out = [text[:i]]
            out.append(chr(0x10000 + ((o - 0xD800) << 10) + low - 0xDC00))
            i += 2
            continue
        if out is not None:
            out.append(text[i])
        i += 1
    return text if out is None else "".join(out)


def parse(line):
    """(cmd, args, id) of one line (bytes); None for a blank one; ProtocolError if it is no command."""
    for b in line:
        if (b < 32 and b != 9) or b > 126:
            raise ProtocolError("bad_bytes", "lines are printable ASCII (\\u escapes in JSON)")
    text = line.decode().strip()
    if not text:
        return None
    if text[0] == "{":
        try:
            obj = json.loads(text)
        except (ValueError, RuntimeError):      # RuntimeError: CPython's nesting limit
            obj = None
        if not isinstance(obj, dict):
            raise ProtocolError("bad_json", "not a JSON object")
    else:
        words = text.split()
        obj = {"cmd": words[0].lower()}
        rest = words[1:] if obj["cmd"] in COMMANDS else []
        fields = _fields(obj["cmd"]) if rest else []
        if len(rest) > len(fields) and not any(f[1].endswith("*") for f in fields):
            raise ProtocolError("bad_field", "too many words", None, obj["cmd"])
        for i in range(len(rest)):
            name, kind = fields[i]
            if kind.endswith("*") and (kind[0] == "s" or len(rest) > i + 1):
                obj[name] = " ".join(rest[i:])   # e.g. set opponent engine 3
                break
            obj[name] = rest[i] if kind[0] == "s" else _word(rest[i])
    rid = obj.pop("id", None)
    if rid is not None and not (isinstance(rid, str) and len(rid) <= 32 or
                                _typed("i", rid) and -1000000000 < rid < 1000000000):
        raise ProtocolError("bad_field", "id: a whole number or a string of up to 32 characters")
    cmd = obj.pop("cmd", None)
    if not isinstance(cmd, str) or cmd not in COMMANDS:
        raise ProtocolError("unknown_command", "unknown command (send hello for the list)", rid)
    fields = _fields(cmd)
    escaped = b"\\u" in line            # a JSON escape: a surrogate may be in a string
    for key in obj:
        for name, kind in fields:
            if name == key:
                if not _typed(kind, obj[key]):
                    raise ProtocolError("bad_field", "%s has the wrong type" % name, rid, cmd)
                if escaped and isinstance(obj[key], str):
                    obj[key] = _joined(obj[key], key, rid, cmd)
                break
        else:
            raise ProtocolError("bad_field", "no field %s" % json.dumps(key[:32]), rid, cmd)
    for name, kind in fields:
        if "!" in kind and name not in obj:
            raise ProtocolError("bad_field", "%s is missing" % name, rid, cmd)
    return cmd, obj, rid


def handle(proto, line):
    """Parse and run one line; exactly one reply (none for a blank line)."""
    cmd = rid = None
    try:
        parsed = parse(line)
        if parsed is None:
            return
        cmd, args, rid = parsed
        runner = proto.runner
        game = runner.app.game
        if cmd in _GAME:
            if runner.holder is not None:
                raise ProtocolError("invalid_state", "diagnostics on (send: diag off)")
            if game.result is not None and cmd not in _ANY_TIME:
                raise ProtocolError("invalid_state", "the game is over")
        run = _RUN.get(cmd)
        if run is None:
            from . import actions      # loaded with the first command that is not hello or status
            run = actions.RUN[cmd]
        reply = run(proto, runner, game, args)
    except ProtocolError as e:
        error(proto, e.cmd or cmd, e.rid if e.rid is not None else rid, e.code, str(e))
        return
    except ValueError as e:          # the game refused: a bad FEN, an illegal move, a bad option
        error(proto, cmd, rid, "refused", str(e))
        return
    except Exception as e:           # a bug must not take the board down: say so, go on
        error(proto, cmd, rid, "internal", "%s: %s" % (type(e).__name__, e))
        return
    reply["re"] = cmd
    reply["ok"] = True
    if rid is not None:
        reply["id"] = rid
    if cmd not in _READS:
        runner.app.dirty = True
    if cmd != "status":
        proto.send(reply, True)
    elif proto.host is None:           # as send: a DGT or ChessLink host reads its own protocol only
        proto.send_bytes(_with_moves(reply, game.position), True)


# -- the commands: (protocol, runner, game, args) -> the reply's fields ------------------

def _hello(p, runner, game, a):
    return {"proto": VERSION, "firmware": FIRMWARE, "max_line": MAX_LINE, "commands": COMMANDS,
            "options": [row[0] for row in options.TABLE], "option_specs": option_specs()}


def _status(p, runner, game, a):
    pos = game.position
    t = game.tracker
    j = runner.journal
    status = {
        "fen": pos.fen(), "ply": pos.ply(),     # "moves": _with_moves, in handle
        "turn": "wb"[pos.turn], "state": STATE_NAMES[t.state],
        "result": game.result[0] if game.result else "*",
        "termination": game.result[1] if game.result else None,
        "in_sync": game.in_sync(), "show": pos.uci(t.required) if t.required >= 0 else None,
        "claimable": list(game.claimable), "offer": "wb"[game.offer] if game.offer >= 0 else None,
        "clock": clock_fields(game), "material": _material(pos), "diag": runner.holder is not None,
        "options": option_values(runner),
        "game": j.game_id, "scan_rate": runner.scan_rate, "journal_bytes": j.size,
        "storage_errors": j.errors, "dropped_lines": p.dropped,
    }
    if variant_of(pos) == SPRINT:
        status["seed"] = pos.seed              # a Sprint game's decks: new with this seed deals them again
    if runner.display is not None:
        status["display"] = list(runner.display.lines)
    columns = getattr(runner.hw, "columns", None)
    if columns is not None:
        status["columns"] = columns            # the wiring's recovery times and the scan's wait (hal.py)
    link = getattr(runner, "ble_link", None)
    if link is not None:
        status["ble"] = link.state()           # a Pico W's radio: what it advertises, who has the board
    elif getattr(runner.hw, "radio_why", ""):
        status["ble"] = {"error": runner.hw.radio_why}
    if a.get("mem"):                   # asked for only: gc.mem_free walks the heap (docs/protocol.md)
        try:
            import gc
            status["mem_free"] = gc.mem_free()
        except (ImportError, AttributeError):
            pass
    return status


def _with_moves(status, pos):
    """status's line, its ``moves`` written last, as bytes (rules/uci_bytes.py)."""
    words = pos.move_words()
    head = json.dumps(status).encode()
    n = len(head) - 1                  # its closing "}" goes after the moves
    line = bytearray(n + 12 + 10 * len(words) + 3)
    line[:n] = memoryview(head)[:n]
    line[n:n + 12] = b', "moves": ['
    n = write_moves(words, len(words), line, n + 12)
    line[n:n + 3] = b"]}\n"
    return line[:n + 3]


def clock_fields(game):
    """The clocks as status and clock report them, or None without a time control."""
    clocks = game.clocks
    if not clocks.on:
        return None
    now = game.now
    running = clocks.running
    clock = {"control": clocks.control, "white": clocks.left_ms(True, now), "black": clocks.left_ms(False, now),
             "running": "wb"[running - 1] if running else None}
    if clocks.host:                         # an online game: the host's clock decides
        clock["host"] = True
    return clock


def _material(pos):
    from ..rules.material import material
    sums = material(pos)
    return {"w": sums[0], "b": sums[1]}


# Time controls a host may offer as presets (any M+S is accepted): seed 003's blitz, rapid, classical.
CLOCK_PRESETS = ("3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "20+5", "30+0", "90+30")


# -- the options, as status and hello report them (options.py has the table) -----------

def option_values(runner):
    """Every option's value now, {name: value} (the protocol's status)."""
    game = runner.app.game
    holders = (game.options, game.position, runner)
    return {row[0]: getattr(holders[row[4]], row[0]) for row in options.TABLE}


def option_specs():
    """Every option's kind and limits, {name: {...}}, for a host to build its controls."""
    out = {}
    for name, kind, limits, default, holder, off in options.TABLE:
        d = {"type": ("bool", "int", "choice", "clock")[kind], "default": default}
        if kind == options.INT:
            d["min"], d["max"] = limits
            if off:
                d["off"] = 0
        elif kind == options.CHOICE:
            d["choices"] = list(limits)
        elif kind == options.CONTROL:
            d["presets"] = list(CLOCK_PRESETS)
        out[name] = d
    return out


_RUN = {"hello": _hello, "status": _status}      # the rest: actions.RUN
