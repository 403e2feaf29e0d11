"""The club's rounds on a Lichess broadcast: each round's PGN pushed to its broadcast round (berserk).

Lichess's broadcasts (lila's ``modules/relay``) take a round's games as PGN pushed to
``POST /api/broadcast/round/{id}/push`` (scope ``study:write``; up to 100 games a push). Every push
here is the whole round as the feed has it now (Club.round_pgn), never a move alone: a push that
fails (429, 5xx, a cut connection) is followed by the newest round, which holds every move the
failed one had, so nothing is lost and nothing arrives out of order whatever fails. One thread
pushes, rounds in order; after a 429 it waits as Lichess asks (a minute), after a 5xx or a network
error a growing wait.

The token is kept as the Board API's is (companion/lichess_token.py: readable by its owner only,
never shown), in its own file and variable: a club's broadcast needs ``study:write``, which a
player's board token should not carry. The broadcast (created here, or the club's own, given by
its id) and its rounds' ids are kept in the club's folder, so a restarted host goes on with them.
"""

import json
import os
import threading

import berserk
import berserk.exceptions
import requests

from host_tools.companion import lichess_token
from host_tools.companion.lichess_link import Session
from host_tools.companion.lichess_token import TokenError

API = "https://lichess.org"
ENV = "LICHESS_BROADCAST_TOKEN"
FILE_NAME = "lichess-broadcast-token"
SCOPE = "study:write"
CREATE_URL = "https://lichess.org/account/oauth/token/create?scopes[]=study:write&description=Scacchiera+club"
MAX_GAMES = 100           # games in one push (the API's limit): a round with more goes in several
STATE_FILE = "broadcast.json"


def retry_after(response, longest=600.0):
    """The seconds a 429 or 5xx answer's ``Retry-After`` asks for (a number of seconds, RFC 9110;
    at most ``longest``), or None without one (an HTTP date is taken as none)."""
    value = (getattr(response, "headers", None) or {}).get("Retry-After")
    try:
        return min(max(float(value), 0.0), longest) if value is not None else None
    except ValueError:
        return None


def token_path():
    return os.path.join(os.path.dirname(lichess_token.default_path()), FILE_NAME)


class Broadcast:
    """Pushes ``club``'s rounds to a Lichess broadcast. ``act`` takes the club page's actions:
    ``token`` (save one), ``start`` (``tour``: an existing broadcast's id, else one is created,
    named after the tournament), ``stop``."""

    def __init__(self, club, base_url=API, token_file=None, environ=None, rate_limit_wait=60.0, retry=(0.5, 8.0)):
        self.club = club
        self.base_url = base_url
        self.token_file = token_file or token_path()
        self.rate_limit_wait = rate_limit_wait
        self.retry = retry
        self.lock = threading.Lock()
        self.problem = None       # what stops the pushes (no token, refused), for the page
        self.notice = None        # the last wait (429, 5xx, no answer)
        self.tour = None          # {"id", "url"}: the broadcast
        self.rounds = {}          # round number (str) -> {"id", "url"}
        self.on = False
        self.pushes = 0           # pushes Lichess took
        self._pushed = {}         # round number -> the club's round version last pushed
        self._answers = []        # Lichess's answer to the last push, game by game
        self._token = None
        self._clients = {}
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club-broadcast", daemon=True)
        try:
            self._token, _ = lichess_token.load(self.token_file, environ, env=ENV)
        except TokenError as e:
            self.problem = str(e)
        self._load()

    # -- the page's actions ----------------------------------------------------------------

    def act(self, fields):
        op = fields.get("op")
        if op == "token":
            try:
                token = lichess_token.check(fields.get("token"), SCOPE, CREATE_URL)
            except TokenError as e:
                raise ValueError(str(e))
            lichess_token.save(token, self.token_file)
            with self.lock:
                self._token, self.problem = token, None
            return {"key": "broadcast_token_saved"}
        if op == "start":
            if self._token is None:
                raise ValueError("no broadcast token: make one with the scope %s at %s" % (SCOPE, CREATE_URL))
            tour = fields.get("tour") or None
            if tour is not None and not (isinstance(tour, str) and tour.isalnum() and len(tour) == 8):
                raise ValueError("'tour' is a broadcast's 8-letter id (lichess.org/broadcast/.../ID)")
            with self.lock:
                if tour is not None and (self.tour or {}).get("id") != tour:
                    self.tour, self.rounds, self._pushed = {"id": tour, "url": None}, {}, {}
                self.on, self.problem = True, None
            self._save()
            with self.club.changed:
                self.club.changed.notify_all()
            return {"key": "broadcast_pushing"}
        if op == "stop":
            with self.lock:
                self.on = False
            self._save()
            return {"key": "broadcast_stopped"}
        raise ValueError("'op' is token, start or stop")

    def describe(self):
        with self.lock:
            return {"on": self.on, "token": self._token is not None, "problem": self.problem, "notice": self.notice,
                    "tour": self.tour, "rounds": self.rounds, "pushes": self.pushes}

    # -- the pushing thread ------------------------------------------------------------------

    def start(self):
        if not self._thread.is_alive():
            self._thread.start()

    def stop(self):
        self._stopped.set()
        with self.club.changed:
            self.club.changed.notify_all()
        if self._thread.is_alive():
            self._thread.join(5)

    def _due(self):
        """(with the club's lock) the first round whose games changed since its last push, or None."""
        if not self.on or self.problem or self.club.tournament is None:
            return None
        for number in sorted(self.club.round_versions):
            if self.club.round_versions[number] != self._pushed.get(number):
                return number
        return None

    def _run(self):
        delay = self.retry[0]
        while not self._stopped.is_set():
            with self.club.changed:
                number = self._due()
                if number is None:
                    self.club.changed.wait(1.0)
                    continue
                version = self.club.round_versions[number]
                games = self.club.round_games(number)
            try:
                self._push(number, games)
            except berserk.exceptions.ResponseError as e:
                code = e.status_code
                if code in (401, 403):
                    with self.lock:
                        self.problem = "Lichess refused the broadcast token (%d): give a token with %s" % (code, SCOPE)
                    continue
                asked = retry_after(e.response)
                if code == 404 and self._forget_round(number):
                    continue                   # the round was deleted on Lichess: made again
                if code == 429:
                    wait = self.rate_limit_wait if asked is None else asked
                    self._wait("Lichess asks to slow down (429): waiting %g s" % wait, wait)
                elif code >= 500:
                    wait = delay if asked is None else asked
                    self._wait("Lichess answered %d: trying again in %g s" % (code, wait), wait)
                    delay = min(delay * 2, self.retry[1])
                else:                      # Lichess refuses this PGN: said; the next change is pushed
                    with self.lock:
                        self.notice = "Lichess refused round %d's PGN (%d): %s" % (number, code, e.cause)
                    self._pushed[number] = version
                continue
            except (berserk.exceptions.ApiError, requests.RequestException) as e:
                self._wait("no answer from Lichess (%s): trying again in %g s" % (type(e).__name__, delay), delay)
                delay = min(delay * 2, self.retry[1])
                continue
            delay = self.retry[0]
            self._pushed[number] = version
            refused = self._refused(number, games)
            with self.lock:
                self.notice = refused
                self.pushes += 1
            self.club.on_change()              # the club page's count of pushes, and what Lichess refused

    def _wait(self, text, seconds):
        with self.lock:
            self.notice = text
        self.club.on_change()
        self._stopped.wait(seconds)

    def _client(self):
        """berserk's client for the current token (one HTTP session, kept while the token is)."""
        return self._session_client()[1]

    def _session_client(self):
        token = self._token
        if self._clients.get(token) is None:
            session = Session(token, (5.0, 20.0))
            self._clients = {token: (session, berserk.Client(session=session, base_url=self.base_url))}
        return self._clients[token]

    def _forget_round(self, number):
        """Round ``number``'s id is Lichess's no more (a 404: deleted there): forget it, so that the
        next push makes it again. False if it was not known."""
        with self.lock:
            known = self.rounds.pop(str(number), None) is not None
        if known:
            self._save()
            with self.lock:
                self.notice = "round %d was gone from the broadcast on Lichess: made again" % number
        return known

    def _refused(self, number, games):
        """What Lichess's answer to the last push said of its games: the ones it refused inside its 200
        (a game's error, per game), in words for the club page; None when it took them all."""
        errors = []
        for answer in self._answers:
            if isinstance(answer, dict) and answer.get("error"):
                tags = answer.get("tags") or {}
                errors.append("board %s (%s - %s): %s" % (tags.get("Board", "?"), tags.get("White", "?"),
                                                          tags.get("Black", "?"), answer["error"]))
        if not errors:
            return None
        return "Lichess refused %d of round %d's games: %s" % (len(errors), number, "; ".join(errors[:4]))

    def _push(self, number, games):
        """Round ``number``'s games to its broadcast round (the broadcast and the round made first
        if need be)."""
        client = self._client()
        if self.tour is None:
            made = client.broadcasts.create(name=self.club.tournament.name[:80],
                                            description="Played on Scacchiera boards", auto_leaderboard=True)
            tour = made.get("tour", made)
            with self.lock:
                self.tour = {"id": tour["id"], "url": tour.get("url")}
            self._save()
        key = str(number)
        if key not in self.rounds:
            found = self._existing_round(client, "Round %d" % number)     # made before an answer was lost
            if found is None:
                made = client.broadcasts.create_round(self.tour["id"], name="Round %d" % number)
                found = made["round"]
            with self.lock:
                self.rounds[key] = {"id": found["id"], "url": found.get("url")}
            self._save()
        session = self._session_client()[0]
        self._answers = []
        for first in range(0, len(games), MAX_GAMES):
            # (berserk's push_pgn_update drops Lichess's answer, which says game by game what it refused)
            response = session.post("%s/api/broadcast/round/%s/push" % (self.base_url, self.rounds[key]["id"]),
                                    data="\n\n".join(g.strip() for g in games[first:first + MAX_GAMES]).encode())
            if response.status_code >= 400:
                raise berserk.exceptions.ResponseError(response)
            try:
                self._answers += response.json().get("games") or []
            except (ValueError, AttributeError):
                pass                           # an answer without its games: nothing to say of them

    def _existing_round(self, client, name):
        """The broadcast's round named ``name`` if Lichess has it already (a round made there whose
        answer a cut connection lost: two "Round 3" otherwise), else None."""
        try:
            tour = client.broadcasts.get(self.tour["id"])
        except (berserk.exceptions.ApiError, requests.RequestException):
            return None                        # not known: made (a duplicate at worst)
        for rnd in (tour or {}).get("rounds") or ():
            if isinstance(rnd, dict) and rnd.get("name") == name and rnd.get("id"):
                return rnd
        return None

    # -- kept in the club's folder --------------------------------------------------------------

    def _path(self):
        return os.path.join(self.club.folder, STATE_FILE)

    def _load(self):
        try:
            with open(self._path(), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            return
        self.tour, self.rounds, self.on = data.get("tour"), data.get("rounds") or {}, bool(data.get("on"))

    def _save(self):
        with self.lock:
            text = json.dumps({"tour": self.tour, "rounds": self.rounds, "on": self.on})
        tmp = self._path() + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, self._path())
