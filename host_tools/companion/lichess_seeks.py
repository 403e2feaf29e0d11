"""Finding a game on Lichess for the board: a seek, a challenge to a friend or to Lichess's AI, the
challenges that come in. The client (lichess.py) passes the page's actions (``act``) and its event
stream's challenge events (``on_event``) here, and says when a game starts (``game_started``)."""

import threading

import berserk.exceptions
import requests

from host_tools.companion.lichess_api import Stop
from host_tools.companion.lichess_link import Refused
from host_tools.companion.lichess_token import TokenError

# Lichess's speed of a clock: estimated duration = initial + 40 x increment (seconds) (lichess.org/faq#time-controls).
BLITZ_FROM, RAPID_FROM = 180, 480
# The Board API's documented limits (lichess-org/api, doc/specs/tags/board/api-board-seek.yaml and the Board tag):
# seeks are Rapid or Classical; direct challenges and the AI may also be Blitz. Clock 0-180 min, increment 0-180 s.
MAX_MINUTES, MAX_INCREMENT = 180, 180
AI_LEVELS = (1, 8)
PLAYABLE = ("standard", "chess960")   # Lichess variants the board plays (lila's keys)
ACTIONS = ("seek", "cancel_seek", "challenge", "ai", "accept", "decline", "cancel_challenge")


def speed_of(minutes, increment):
    seconds = minutes * 60 + 40 * increment
    return "classical" if seconds >= 1500 else "rapid" if seconds >= RAPID_FROM else \
        "blitz" if seconds >= BLITZ_FROM else "bullet"


def check_clock(minutes, increment, seek):
    """(minutes, increment) checked against what the Board API allows; ValueError saying why not."""
    for value, name, top in ((minutes, "minutes", MAX_MINUTES), (increment, "increment", MAX_INCREMENT)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
            raise ValueError("%s is a number from 0 to %d" % (name, top))
    if increment != int(increment):
        raise ValueError("the increment is whole seconds")
    speed = speed_of(minutes, increment)
    if seek and speed not in ("rapid", "classical"):
        raise ValueError("a seek from a board must be Rapid or Classical (%g+%d is %s): minutes x 60 + 40 x increment "
                         "at least 480 s" % (minutes, increment, speed))
    if not seek and speed == "bullet":
        raise ValueError("the Board API plays Blitz and slower (%g+%d is bullet)" % (minutes, increment))
    return minutes, int(increment)


class Matchmaking:
    """The seeks and challenges of ``online`` (lichess.Lichess: its requests, its news, its threads)."""

    def __init__(self, online):
        self.online = online
        self.api = online.api
        self.lock = threading.Lock()
        self.challenges = {}              # id -> incoming challenge, for the page
        self.outgoing = None              # our challenge waiting for an answer
        self.seeking = None               # (minutes, increment) while a seek runs
        self._seek_session = None

    def describe(self):
        with self.lock:
            return {"challenges": list(self.challenges.values()), "outgoing": self.outgoing, "seeking": self.seeking,
                    "ai_levels": list(AI_LEVELS)}

    def stop(self):
        if self._seek_session is not None:
            self._seek_session.cut()

    def on_event(self, kind, c, me):
        """A challenge event of the event stream (``c`` its challenge; ``me`` the account's id)."""
        with self.lock:
            if kind == "challenge":
                if (c.get("destUser") or {}).get("id") == me and c.get("status", "created") == "created":
                    self.challenges[c["id"]] = _challenge_summary(c)
                return
            self.challenges.pop(c.get("id"), None)        # challengeCanceled, challengeDeclined
            if self.outgoing == c.get("id"):
                self.outgoing = None
                self.online.notice = ("%s declined the challenge" % ((c.get("destUser") or {}).get("name") or "the player")
                                      if kind == "challengeDeclined" else "the challenge was cancelled")

    def game_started(self, game_id):
        with self.lock:
            self.seeking = None
            self.outgoing = None
            self.challenges.pop(game_id, None)

    def act(self, fields):
        """One of the page's ACTIONS (``op``). ValueError saying why not; Refused, TokenError as
        Lichess answers."""
        op = fields["op"]
        variant = fields.get("variant", "standard")
        if op in ("seek", "challenge", "ai") and variant not in PLAYABLE:
            raise ValueError("the board plays %s on Lichess" % " and ".join(PLAYABLE))
        challenges = self.api.client((5.0, 10.0))[0].challenges
        if op == "seek":
            minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=True)
            self._seek(minutes, increment, bool(fields.get("rated")), _color(fields), variant)
        elif op == "cancel_seek":
            self.stop()
        elif op == "challenge":
            user = fields.get("user")
            if not isinstance(user, str) or not user.replace("-", "").replace("_", "").isalnum() or len(user) > 30:
                raise ValueError("the friend's Lichess name: letters, digits, - and _")
            minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=False)
            c = self.api.call("challenging %s" % user, challenges.create, user, bool(fields.get("rated")),
                              clock_limit=int(minutes * 60), clock_increment=increment, color=_color(fields),
                              variant=variant)
            with self.lock:
                self.outgoing = (c.get("challenge") or c).get("id") if isinstance(c, dict) else None
            self.online.notice = "challenge sent to %s: waiting for the answer" % user
        elif op == "ai":
            level = fields.get("level")
            if isinstance(level, bool) or not isinstance(level, int) or not AI_LEVELS[0] <= level <= AI_LEVELS[1]:
                raise ValueError("the AI's level is from %d to %d" % AI_LEVELS)
            minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=False)
            self.api.call("challenging the AI", challenges.create_ai, level, clock_limit=int(minutes * 60),
                          clock_increment=increment, color=_color(fields), variant=variant)
            self.online.notice = "Lichess AI level %d: the game starts" % level
        elif op in ("accept", "decline"):
            self._answer(op, fields.get("challenge"), challenges)   # (not "id": the page's request id)
        elif self.outgoing:                   # cancel_challenge
            self.api.call("cancelling the challenge", challenges.cancel, self.outgoing)
            self.outgoing = None

    def _answer(self, op, cid, challenges):
        if cid not in self.challenges:
            raise ValueError("no such challenge")
        if op == "accept":
            if not self.challenges[cid]["playable"]:
                raise ValueError("the board plays chess and Chess960 only: decline this one")
            self.api.call("accepting the challenge", challenges.accept, cid)
        else:
            self.api.call("declining the challenge", challenges.decline, cid)
        with self.lock:
            self.challenges.pop(cid, None)

    def _seek(self, minutes, increment, rated, color, variant="standard"):
        """A seek runs in a thread of its own: Lichess's answer comes when a game is found (the event
        stream's gameStart) or the seek is cancelled (its stream cut)."""
        if self.seeking:
            raise ValueError("a seek is already on: cancel it first")
        self.seeking = {"minutes": minutes, "increment": increment}
        client, session = self.api.client()
        self._seek_session = session

        def run():
            try:
                self.api.call("seeking a game", client.board.seek, minutes, increment, rated=rated,
                              variant=variant, color=color or "random", network_retry=False)
            except (Refused, TokenError) as e:
                self.online.notice = "the seek failed: %s" % e
            except (Stop, berserk.exceptions.ApiError, requests.RequestException):
                pass                                 # cancelled (the stream was cut)
            with self.lock:
                self.seeking = None
            self.online.changed()
        self.online.spawn(run, "lichess-seek")
        self.online.changed()


def _color(fields):
    color = fields.get("color") or "random"
    if color not in ("white", "black", "random"):
        raise ValueError("'color' is white, black or random")
    return None if color == "random" else color


def _challenge_summary(c):
    tc = c.get("timeControl") or {}
    return {"id": c.get("id"), "from": (c.get("challenger") or {}).get("name") or (c.get("challenger") or {}).get("id"),
            "rating": (c.get("challenger") or {}).get("rating"), "rated": bool(c.get("rated")),
            "speed": c.get("speed"), "clock": tc.get("show") or tc.get("type"),
            "variant": (c.get("variant") or {}).get("key", "standard"),
            "playable": (c.get("variant") or {}).get("key", "standard") in PLAYABLE, "color": c.get("color")}
