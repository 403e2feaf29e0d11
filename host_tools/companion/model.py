"""What the page shows, built only from the board's protocol lines (docs/protocol.md).

The same code follows the simulated board and a real one: on (re)connection
it sends ``hello``, ``watch leds on occupancy on``, ``leds``, ``occupancy`` and
``status``; after every
game event it asks for ``status`` again (and for ``pgn`` when the moves
changed), one request at a time. SAN in both languages and Scacchi Sprint's
hands are worked out by replaying the moves with scacchiera's own rules
(host tools never re-implement a rule).
"""

import collections
import json
import threading
import time
from concurrent.futures import Future

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera import MAX_LINE   # the protocol's longest line (bytes, without the line end)
from scacchiera.leds.names import NAMES as LED_NAMES
from scacchiera.leds.palette import default_colours
from scacchiera.rules.variants import CHESS, VARIANTS, variant_of

from host_tools.companion import game_view
from host_tools.companion.players import parse_headers

LOG_LINES = 200
EVENT_COUNT = 50
# Events after which the game's state is asked for again.
_REFRESH = ("move", "takeback", "new_game", "resume", "game_over", "out_of_sync", "in_sync", "error",
            "promotion", "claim", "check", "time_out", "boot", "storage_repaired", "leds", "offer",
            "offer_declined", "engine_move", "option",       # option: one set on the board itself (its display's menu)
            "ble")                                           # a phone's app let the board go (or took it)
# The board's own troubles and news, said on the page until the game moves on (a crash is followed
# by a boot).
_TROUBLE = ("crash", "storage_error", "storage_repaired", "offer_refused", "offer_declined",
            "ble", "busy", "radio")      # a Pico W's: a phone's app over Bluetooth LE (docs/protocols.md)
_OWN = "c"                # the prefix of the ids of the companion's own requests
_TRACKED = "h"            # the prefix of the ids of the commands its callers send (``ask``)
REPLY_SECONDS = 3         # a request unanswered this long is taken as lost (a dropped line): asked again
# Who may send a board a command (``BoardModel.ask``): the person at the page, and the host's other
# players. Each one's lines are logged as its own and each one alone hears its answers.
PERSON = "person"
CALLERS = (PERSON, "computer", "lichess", "club")


def check_line(line):
    """A line the person typed, ready to send; ValueError with the reason if it cannot go.

    No control byte reaches the board: Ctrl-U would start a fresh line on it (``ok\x15resign``
    resigns) and Ctrl-C would stop its firmware. Other letters go as JSON's ``\\u`` escapes: a
    line on the wire is printable ASCII (docs/protocol.md).
    """
    if not isinstance(line, str):
        raise ValueError("the line must be text")
    if "\n" in line or "\r" in line:
        raise ValueError("one line at a time: the text has a line break")
    bad = [c for c in line if ord(c) < 32 or 127 <= ord(c) < 160]
    if bad:
        raise ValueError("the line has a control character (%s): the board takes none" % ", ".join(
            "U+%04X" % ord(c) for c in sorted(set(bad))))
    line = line.strip()
    if not line:
        raise ValueError("nothing to send: the line is blank")
    if not line.isascii():
        try:
            line = json.dumps(json.loads(line), separators=(",", ":"))   # other letters as \u escapes
        except ValueError:
            raise ValueError("the board's text commands are ASCII: for other letters send JSON, e.g. "
                             '{"cmd": "tag", "name": "White", "value": "Nicolò"}') from None
    size = len(line.encode("utf-8"))
    if size > MAX_LINE:
        raise ValueError("a line is at most %d bytes; this one has %d" % (MAX_LINE, size))
    return line


COLOURS = default_colours()     # the firmware's palette, {meaning: (r, g, b, blink)}


def led_square(meaning):
    """How the page draws a square's LED: its meaning, colour and blinking (the firmware's palette)."""
    if not meaning:
        return {"meaning": "", "rgb": [0, 0, 0], "blink": False}
    r, g, b, blink = COLOURS.get(LED_NAMES.index(meaning), (0, 0, 0, False))
    return {"meaning": meaning, "rgb": [r, g, b], "blink": blink}


# Every LED meaning with its colour and blinking, in the firmware's order: the page's legend.
PALETTE_LIST = [dict(led_square(name), meaning=name) for name in LED_NAMES[1:]]


class Subscription:
    """One subscriber's news from a board (the computer, the Lichess bridge): the board's events
    since it last looked, in order, and whether anything changed since. It has its own lock: a
    subscriber waits here, never on the board's, and reads the board through ``BoardModel.view``."""

    def __init__(self, name, most=EVENT_COUNT):
        self.name = name
        self._cond = threading.Condition(threading.Lock())
        self._events = collections.deque(maxlen=most)
        self._news = False

    def publish(self, event=None):
        """The board changed (``event``: one of its ``ev`` lines); or, with none, a wake-up: the
        subscriber's own (its settings changed, it is stopping)."""
        with self._cond:
            if event is not None:
                self._events.append(event)
            self._news = True
            self._cond.notify_all()

    wake = publish

    def wait(self, timeout=None):
        """The events since the last wait (none for a change of state or a wake-up), once there
        is news, or after ``timeout`` seconds (None: until there is)."""
        with self._cond:
            self._cond.wait_for(lambda: self._news, timeout)
            events = list(self._events)
            self._events.clear()
            self._news = False
        return events


class BoardView(collections.namedtuple("BoardView",
                                        "version session hello status start headers clock heard busy refused")):
    """The board at one moment, as a subscriber reads it (``BoardModel.view``): its hello, its
    game's status, start and tags, its clock, when it was last heard, whether the host's own
    requests still wait, and ``refused``: {caller: (n, refusal)}, the newest refusal of each
    caller's commands sent without an on_reply (n counts them). The dicts are the model's,
    never changed in place: read, not written."""

    __slots__ = ()

    def knows(self, cmd):
        """Whether the board's firmware has the command ``cmd`` (hello's list); None before hello."""
        commands = (self.hello or {}).get("commands")
        return None if commands is None else cmd in commands


class BoardModel:
    """One board's conversation with the host: what it said, what the page shows, who asked it what.
    ``send(text)`` writes one line to the board (no line end).

    Thread-safe: lines from the board (``feed``) and commands from its callers (``ask``) may come
    from different threads. ``version`` moves on every visible change, and every change and event
    is published to each subscriber (``subscribe``), which reads the board through ``view``.
    """

    def __init__(self, send):
        self._send = send
        self.lock = threading.RLock()
        self.version = 0
        self._subscribers = []
        self.log = []             # "< line" from the board, "> line" sent by the person, "computer> line"...
        self.events = []
        self._next_id = 0
        self.session = 0          # counts the resets: a new connection, a restarted simulator
        # The board's latest trouble (a crash, its storage, a draw offer refused) until the game moves
        # on: kept across a reset, since a crash restarts the board (and a Pico's USB port with it).
        self.trouble = None
        # The commands the host wants the board's game to have had (its PGN tags: players.py):
        # function(status, headers) -> [command dicts], asked after each status and pgn.
        self.host_wants = None
        self.on_drill = None      # function(event): a training drill's event (boards.py: a puzzle's record)
        self.heard = None         # time.monotonic() of the board's last line (a club's page: a board gone quiet)
        self._answers = {}
        self._refused_by = {}     # caller -> (n, refusal): BoardView.refused
        self.reset()

    def reset(self):
        """Forget the board (a new connection or a restarted simulator): nothing known until it answers."""
        with self.lock:
            self.session += 1
            self.hello = None
            self.status = None
            self.frame = {}
            self.occupancy = None
            self.pgn = ""
            self.start = None      # (game number, start FEN, Sprint?, seed, Chess960?): from the game's PGN
            self.headers = None    # the game's PGN tags, {name: value}
            self._kept = {}        # (game, command, tag name) -> the last such command sent by host_wants
            self.pgn_key = None    # (game number, moves, result) of the last PGN asked for
            self.replay = None     # the game replayed with scacchiera's rules (None: not known yet)
            self._waiting = {}     # id -> (command, when sent), the companion's requests in flight
            for _by, _on_reply, future in self._answers.values():
                future.cancel()    # a board gone or restarted answers nothing sent before
            self._answers = {}     # id -> (caller, on_reply, Future): the commands sent by ``ask``
            self.clock = None      # status.clock, kept up to date by clock events (None: no clock)
            self.clock_events = 0  # clock events seen (the page restarts its ticking on each)
            self.suggestion = None     # (moves, UCI): the move lit as a suggestion in that position
            self._again = set()    # commands to ask again once their reply comes
            self.refusal = None    # the board's newest refusal of a line sent for the person (the page says it)
            self.refusals = 0      # refusals seen (the page shows each new one once)
            self.drill = None      # the board's newest drill event (training: a puzzle, a replay...)
            self.drills = 0        # drill events seen (each one numbered: n)
            self._changed()

    def connected(self):
        """The link is up: shake hands and ask for everything."""
        with self.lock:
            self._request("hello", proto=1)
            self._request("watch", leds=True, occupancy=True)
            self._request("leds")
            self._request("occupancy")
            self._request("status")

    def subscribe(self, name):
        """A Subscription to this board's changes and events, for ``name`` (a caller of CALLERS)."""
        subscription = Subscription(name)
        with self.lock:
            self._subscribers.append(subscription)
        return subscription

    def view(self):
        """The board now, for a subscriber (BoardView): one consistent moment, read without its lock."""
        with self.lock:
            self._forget_lost()
            return BoardView(self.version, self.session, self.hello, self.status, self.start, self.headers,
                             self.clock, self.heard, bool(self._waiting), dict(self._refused_by))

    def _changed(self):
        self.version += 1
        for subscription in self._subscribers:
            subscription.publish()

    def _request(self, cmd, **fields):
        self._forget_lost()
        if any(c == cmd for c, _ in self._waiting.values()):
            self._again.add(cmd)          # one at a time: ask again when the answer comes
            return
        self._ask(cmd, fields)

    def _ask(self, cmd, fields):
        """Send one of the companion's own requests (its reply stays out of the log)."""
        self._next_id += 1
        rid = "%s%d" % (_OWN, self._next_id)
        self._waiting[rid] = (cmd, time.monotonic())
        fields["cmd"] = cmd
        fields["id"] = rid
        self._send(json.dumps(fields, separators=(",", ":")))

    def _forget_lost(self):
        """Requests the board never answered (its queue dropped the reply) stop blocking new ones."""
        now = time.monotonic()
        for rid, (cmd, sent) in list(self._waiting.items()):
            if now - sent > REPLY_SECONDS:
                del self._waiting[rid]

    def ping(self):
        """Ask the board for its ``status``, as a sign of life (the club asks a board it has not heard from)."""
        with self.lock:
            self._request("status")

    def busy(self):
        """Whether requests of the companion's own still wait for their answer."""
        with self.lock:
            self._forget_lost()
            return bool(self._waiting)

    def user_line(self, line):
        """A line the person typed (checked by ``check_line``), sent and echoed in the log."""
        self._send_for(PERSON, check_line(line))

    def _send_for(self, by, line):
        with self.lock:
            self._send(line)              # ActionError if the board is not there: nothing logged
            self._log(("> " if by == PERSON else "%s> " % by) + line)
            if by == PERSON:
                self.refusal = None       # a new line: the last refusal was about an older one
            self._changed()

    def ask(self, fields, by=PERSON, on_reply=None):
        """Send the command ``fields`` on behalf of ``by`` (CALLERS): logged as that caller's, its
        reply that caller's alone. Returns a Future of the reply (cancelled if the board goes away
        or restarts first); ``on_reply(reply)``, if given, is called when it comes, with the model's
        lock held. A refusal shows on the page only for the person, and only when nobody reads
        the reply: another caller says its own (the computer's message, Lichess's notice)."""
        if by not in CALLERS:
            raise ValueError("%r is not one of the board's callers (%s)" % (by, ", ".join(CALLERS)))
        future = Future()
        with self.lock:
            self._next_id += 1
            rid = "%s%d" % (_TRACKED, self._next_id)
            line = check_line(json.dumps(dict(fields, id=rid), separators=(",", ":")))
            self._send_for(by, line)      # ActionError if the board is not there: nothing waits
            self._answers[rid] = (by, on_reply, future)
        return future

    def knows(self, cmd):
        """Whether the board's firmware has the command ``cmd`` (hello's list); None before hello."""
        return self.view().knows(cmd)

    def suggested(self, uci):
        """The host lit ``uci`` as a suggestion in the current position (the page draws it)."""
        with self.lock:
            self.suggestion = (tuple((self.status or {}).get("moves") or ()), uci)
            self._changed()

    def _log(self, text):
        self.log.append(text)
        if len(self.log) > LOG_LINES:
            del self.log[:len(self.log) - LOG_LINES]

    # -- lines from the board ---------------------------------------------------------

    def feed(self, text):
        """One line from the board."""
        text = text.strip()
        if not text:
            return
        with self.lock:
            self.heard = time.monotonic()
            try:
                msg = json.loads(text)
            except ValueError:
                msg = None
            if not isinstance(msg, dict):
                self._log("< " + text)         # the REPL, a traceback: shown as it came
                self._changed()
                return
            rid = msg.get("id")
            own = self._own(rid)
            if msg.get("re") == "tag" and msg.get("ok"):
                self.pgn_key = self.headers = None     # the game's tags changed: its PGN is asked again
            if rid in self._waiting:
                self._reply(self._waiting.pop(rid)[0], msg)
            said = own                         # whether a refusal is its caller's to say, not the page's
            if "re" in msg and rid in self._answers:
                by, on_reply, future = self._answers.pop(rid)
                if on_reply is not None:
                    on_reply(msg)              # its caller reads the answer (a refused suggest: show)
                future.set_result(msg)
                said = by != PERSON or on_reply is not None
                if on_reply is None and by != PERSON and msg.get("ok") is False:
                    n = self._refused_by.get(by, (0, None))[0] + 1
                    self._refused_by[by] = (n, {"re": msg.get("re"), "error": msg.get("error"),
                                                "message": msg.get("message")})
            if "re" in msg and not said and msg.get("ok") is False:
                self.refusal = {"re": msg.get("re"), "error": msg.get("error"), "message": msg.get("message")}
                self.refusals += 1
            if not own and msg.get("ev") not in ("leds", "occupancy"):
                self._log("< " + text)
            if "ev" in msg:
                self._event(msg)
            elif not own and msg.get("ok") and msg.get("re") in ("new", "undo", "set", "show", "unshow", "claim",
                                                                 "draw", "resign", "promote", "offer", "diag",
                                                                 "clock", "end", "decline", "tag"):
                self._request("status")        # the person's command changed the game
            self._changed()

    def _own(self, rid):
        """Whether ``rid`` is the id of one of the companion's requests (its replies stay out of the log)."""
        return (isinstance(rid, str) and rid[:1] == _OWN and rid[1:].isdigit()
                and int(rid[1:]) <= self._next_id)

    def _event(self, ev):
        kind = ev["ev"]
        if kind == "leds":
            self.frame = ev.get("frame") or {}
        elif kind == "occupancy":
            self.occupancy = ev.get("squares") or []
        else:
            self.events.append(ev)
            if len(self.events) > EVENT_COUNT:
                del self.events[0]
            for subscription in self._subscribers:
                subscription.publish(ev)       # (a gesture's suggest without a move: the computer's)
            if kind == "new_game":             # its number may be the old one's: its tags are not
                self.pgn_key = self.headers = None
                self._kept.clear()
                self.drill = None              # a drill's news is its game's (a new drill's start follows)
            if kind in ("move", "takeback", "new_game"):
                self.refusal = None            # the game moved on: an old refusal is no longer news
                self.trouble = None
            elif kind in _TROUBLE:
                self.trouble = ev
        if kind == "drill":
            self.drills += 1
            self.drill = dict(ev, n=self.drills, san=self._drill_san(ev.get("uci")))
            if self.on_drill is not None:
                self.on_drill(ev)
        if kind == "clock":
            self.clock = dict(self.clock or {}, **{k: ev.get(k) for k in ("white", "black", "running")})
            self.clock_events += 1
        elif kind == "suggest" and ev.get("uci"):
            self.suggestion = (tuple((self.status or {}).get("moves") or ()), ev["uci"])
        if kind == "boot":
            self._waiting.clear()
            self._again.clear()
            self.connected()                   # the board restarted: its watch is off again
        elif kind in _REFRESH:
            self._request("status")

    def _reply(self, cmd, msg):
        again = cmd in self._again
        self._again.discard(cmd)
        if msg.get("ok"):
            if cmd == "hello":
                self.hello = msg
            elif cmd == "leds":
                self.frame = msg.get("frame") or {}
            elif cmd == "occupancy":
                self.occupancy = msg.get("squares") or []
            elif cmd == "status":
                self.status = msg
                self.clock = msg.get("clock")
                self._follow_game()
                self.keep()
            elif cmd == "pgn":
                self.pgn = msg.get("pgn") or ""
                self._start_from_pgn()
                self.keep()
            elif cmd in ("tag", "set"):
                self._request("status")        # and the PGN after it (a tag: feed forgot the old one)
        if again:
            self._request(cmd)

    def _follow_game(self):
        """A new status: replay its moves now if the game's start is known, and ask for the PGN."""
        s = self.status
        # The result too: a game that ends without a move (resigned, agreed drawn, a flag) has a new PGN.
        key = (s.get("game"), tuple(s.get("moves") or ()), s.get("result"))
        if self.start is not None and self.start[0] == key[0]:
            self._replay()
        if self.pgn_key != key:
            self.pgn_key = key
            self._request("pgn")

    def keep(self):
        """Send what ``host_wants`` asks of the board's current game, each command once (a refused
        one is not sent again until the host wants something else): its tags, its suggest option."""
        with self.lock:
            s = self.status
            if (self.host_wants is None or s is None or self.headers is None or self.start is None
                    or self.start[0] != s.get("game")):
                return                         # the PGN read is not this game's (yet)
            for fields in self.host_wants(s, self.headers):
                key = (s.get("game"), fields["cmd"], fields.get("name"))
                if self._kept.get(key) != fields:
                    self._kept[key] = fields
                    self._ask(fields["cmd"], dict(fields))

    def _start_from_pgn(self):
        """The game's start, from its PGN's headers: a FEN, or Scacchi Sprint's seed, or the standard start."""
        self.headers = headers = parse_headers(self.pgn)
        seed = headers.get("Seed", "")
        sprint = headers.get("Variant") == "Scacchi Sprint" and "FEN" not in headers
        self.start = ((self.status or {}).get("game"), headers.get("FEN"), sprint,
                      int(seed) if seed.isdigit() else None, headers.get("Variant") == "Chess960")
        self._replay()

    def _replay(self):
        """The game replayed with the rules (for SAN in both languages and Sprint's hands)."""
        self.replay = game_view.replay(self.start, self._profile(), (self.status or {}).get("moves") or ())

    def _drill_san(self, uci):
        if self.start is None:
            return None
        return game_view.drill_san(self.start, self._profile(), (self.status or {}).get("moves") or (), uci)

    def _profile(self):
        return ((self.status or {}).get("options") or {}).get("profile", "fide")

    # -- what the page gets ---------------------------------------------------------------

    def state(self):
        with self.lock:
            s = self.status or {}
            pos = self.replay
            moves = game_view.move_lists(self.start, self._profile(), pos, self.frame)
            fen = s.get("fen") or ""
            played = tuple(s.get("moves") or ())
            suggestion = self.suggestion[1] if self.suggestion and self.suggestion[0] == played else None
            squares = []
            for sq in range(64):
                name = "abcdefgh"[sq & 7] + str((sq >> 3) + 1)
                squares.append(led_square(self.frame.get(name, "")))
            return {
                "ready": self.status is not None and self.start is not None,
                "firmware": (self.hello or {}).get("firmware"),
                "session": self.session,   # moves on with each new connection or restarted simulator
                "variant": variant_of(pos) if pos is not None else CHESS,
                "variants": list(VARIANTS),
                "sprint": moves["sprint"],
                "fen": fen,
                "moves": list(s.get("moves") or ()),
                "san": moves["san"],
                "san_it": moves["san_it"],
                "fens": moves["fens"],     # the position before the first move and after each one
                "result": s.get("result", "*"),
                "termination": s.get("termination"),
                "in_sync": s.get("in_sync", True),
                "state": s.get("state", "idle"),
                "turn": "black" if s.get("turn") == "b" else "white",
                "show": s.get("show"),
                "suggestion": suggestion,
                "clock": self.clock,       # INTERFACES: control, white, black (ms), running; None: no clock
                "clock_events": self.clock_events,
                "material": s.get("material"),
                "offer": s.get("offer"),
                "refusal": self.refusal,   # the board's newest refusal of a line sent for the person
                "refusals": self.refusals,
                "trouble": self.trouble,   # the board's latest crash, storage trouble or refused offer
                "drill": self.drill,       # the board's newest drill event (training/: start, right, wrong, done)
                "options": s.get("options") or {},
                "option_specs": (self.hello or {}).get("option_specs") or {},
                "leds": dict(self.frame),
                "led_squares": squares,
                "palette": PALETTE_LIST,
                "occupancy": self.occupancy,
                "pieces": game_view.pieces(self.replay, self.occupancy),
                "pgn": self.pgn,
                "events": list(self.events),
                "protocol": list(self.log),
                "version": self.version,
            }
