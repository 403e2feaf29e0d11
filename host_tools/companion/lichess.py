"""Play on Lichess from the wooden board: the Board API (https://lichess.org/api#tag/Board) via berserk.

The board speaks only its serial protocol; the client sits between it and
Lichess. The opponent's moves go to the board with ``show`` (the LEDs light
them and the board accepts only that move); the player's moves, recognised by
the board, go to Lichess. By duty:

  lichess.py          the client: the account, its event stream (challenges, seeks, a game's start),
                      the game's stream, the page's actions
  lichess_api.py      the requests: retries, back-offs, the token's end, Lichess's refusals in words
  lichess_bridge.py   the board follows the online game (lichess_game.decide: the pure rule)
  lichess_records.py  a game over kept: Lichess's PGN saved, the household ladder told

Endpoints used (all under the base URL, lichess.org by default):
  GET  /api/account                         who the token belongs to
  POST /api/token/test                      the token's scopes (board:play needed)
  GET  /api/stream/event                    ndjson: gameStart, gameFinish, challenge, challengeCanceled, challengeDeclined
  POST /api/board/seek                      a real-time seek (the stream stays open while it waits)
  POST /api/challenge/{username}            challenge a friend
  POST /api/challenge/ai                    play Lichess's AI (level 1-8)
  POST /api/challenge/{id}/accept|decline   an incoming challenge
  POST /api/challenge/{id}/cancel           our own challenge
  GET  /api/board/game/stream/{id}          ndjson: gameFull first, then gameState, chatLine, opponentGone
  POST /api/board/game/{id}/move/{uci}      the player's move
  POST /api/board/game/{id}/draw/{yes|no}   offer / accept (yes) or decline (no) a draw; also claims a repetition
  POST /api/board/game/{id}/resign          resign
  POST /api/board/game/{id}/abort           abort (before both have moved)

Faults: a stream that ends or stays silent longer than ``stream_timeout``
(Lichess sends a keep-alive newline every few seconds: silence means the link
died, e.g. the computer slept) is opened again, and its first line, gameFull,
is the whole game again; the requests' faults are lichess_api.py's.
"""

import os
import threading

import berserk.exceptions
import chess
import platformdirs
import requests

from host_tools.companion import lichess_records, lichess_token
from host_tools.companion.lichess_api import LichessApi, Stop
from host_tools.companion.lichess_bridge import Bridge
from host_tools.companion.lichess_game import LIVE, OnlineGame
from host_tools.companion.lichess_link import Refused
from host_tools.companion.lichess_seeks import ACTIONS as FINDING, PLAYABLE, Matchmaking
from host_tools.companion.lichess_token import TokenError

API = "https://lichess.org"


class Lichess:
    """The companion's Lichess client for one board (boards.Board): the account, its event stream
    (challenges, seeks, a game's start) and the game's stream. Its requests are ``api``'s
    (lichess_api.py); the board follows the game through ``bridge`` (lichess_bridge.py); a game
    over is kept by lichess_records.py. ``act`` takes the page's actions; ``describe`` is what
    the page shows."""

    def __init__(self, board, token=None, base_url=API, token_path=None, ladder_path=None, archive_dir=None,
                 rate_limit_wait=60.0, stream_timeout=20.0, retry=(0.5, 8.0)):
        self.board = board
        self.base_url = base_url
        self.token_path = token_path
        self.ladder_path = ladder_path
        self.archive_dir = archive_dir or os.path.join(platformdirs.user_data_dir("scacchiera", appauthor=False),
                                                       "lichess")
        self.retry = retry                # backoff of the streams' reopening: first and longest wait (s)
        self.lock = threading.RLock()
        self.stopped = threading.Event()
        self.api = LichessApi(None, base_url, rate_limit_wait, stream_timeout, retry, self.stopped,
                              self._waiting, self._token_refused, self._skipped)
        self.account = None               # {"id", "username"}
        self.problem = None               # what stops it, for the page
        self.notice = None                # the last thing it did or waits for
        self.game = None
        self.last_game = None
        self.bridge = Bridge(board, self)
        self.matchmaking = Matchmaking(self)
        self._threads = []
        self._event_session = self._game_session = None
        if token is None:
            try:
                token, _where = lichess_token.load(token_path)
            except TokenError as e:
                self.problem = str(e)
        if token is not None:
            self.api.token = lichess_token.check(token)
        elif self.problem is None:
            self.problem = ("no Lichess token: set LICHESS_TOKEN or paste one on the page (scope board:play, "
                            "made at %s)" % lichess_token.CREATE_URL)

    # -- life ---------------------------------------------------------------------------------

    def start(self):
        self.spawn(self.bridge.run, "lichess-bridge")
        if self.api.token is not None:
            self.spawn(self._login_and_listen, "lichess-events")

    def stop(self):
        self.stopped.set()
        for session in (self._event_session, self._game_session):
            if session is not None:
                session.cut()
        self.matchmaking.stop()
        self.bridge.wake()
        for t in self._threads:
            t.join(3)

    def spawn(self, target, name, *args):
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()
        return t

    def playing(self):
        """Whether a Lichess game is on the board (no engine, no hints: fair play)."""
        g = self.game
        return g is not None and g.phase != "done"

    def changed(self):
        """Something the page shows changed: the bridge compares the games again, the page is told."""
        self.bridge.wake()
        self.board.notify()

    def _skipped(self, reason):
        """A stream's line of the wrong shape was skipped (lichess_lines.py): said on the page."""
        self.say("Lichess sent a line the companion cannot read (%s): skipped, the game goes on" % reason)

    def _waiting(self, text, seconds):
        self.say(text)                        # a back-off (lichess_api.py): 429, 5xx, no answer

    def _token_refused(self, problem):
        with self.lock:
            self.account = None               # the page asks for a token again
            self.problem = problem
        self.changed()

    # -- logging in, the event stream -----------------------------------------------------------

    def set_token(self, token, save=True):
        """A token pasted on the page: checked with Lichess, then (``save``) written 0600 and used."""
        token = lichess_token.check(token)
        old, self.api.token = self.api.token, token
        try:
            self._login()
        except (TokenError, Refused) as e:
            self.api.token = old
            raise ValueError(str(e))
        if save:
            lichess_token.save(token, self.token_path)
        self.api.renew()                  # the running streams give way to the new token's
        for session in (self._event_session, self._game_session):
            if session is not None:
                session.cut()
        self.spawn(self._listen, "lichess-events")
        g = self.game
        if g is not None and g.phase != "done" and g.status in LIVE:
            self.spawn(self._follow, "lichess-game", g)   # a game a 401 stopped: on with it

    def _login(self):
        try:
            account = self.api.login()
        except TokenError as e:
            with self.lock:
                self.problem = str(e)
            self.changed()
            raise
        with self.lock:
            self.account = account
            self.problem = None
        self.changed()

    def _login_and_listen(self):
        try:
            self._login()
        except Refused as e:                 # a 4xx other than 401 (a 404 from a wrong --lichess-url)
            with self.lock:
                self.problem = "Lichess refused the log-in (HTTP %s): %s" % (e.status, e)
            self.changed()
            return
        except (TokenError, Stop):
            return
        self._listen()

    def _listen(self):
        """The event stream, opened again whenever it ends (gameStart, challenges)."""
        delay = self.retry[0]
        alive = self.api.alive_while_token()
        while not self.stopped.is_set() and alive():
            client, session = self.api.client()
            self._event_session = session
            try:
                for event in self.api.open("opening the event stream", client.board.stream_incoming_events,
                                           alive=alive, network_retry=False):
                    delay = self.retry[0]
                    self._on_event(event)
            except (TokenError, Stop):
                return
            except Refused as e:
                with self.lock:
                    self.problem = "Lichess refused the event stream: %s" % e
                self.changed()
                return
            except (berserk.exceptions.ApiError, requests.RequestException, ValueError, AttributeError) as e:
                # (AttributeError: urllib3 reading a socket that cut() closed under it)
                if not alive():
                    return
                self.notice = "the event stream broke (%s): opening it again" % type(e).__name__
            if self.stopped.wait(delay):
                return
            delay = min(delay * 2, self.retry[1])

    def _on_event(self, event):
        kind = event.get("type")
        with self.lock:
            if kind == "gameStart":
                self._game_started(event.get("game") or {})
            elif kind == "gameFinish":
                pass                              # the game's own stream says how it ended
            elif kind in ("challenge", "challengeCanceled", "challengeDeclined"):
                self.matchmaking.on_event(kind, event.get("challenge") or {}, (self.account or {}).get("id"))
        self.changed()

    def _game_started(self, info):
        game_id = info.get("gameId") or info.get("id")
        if not game_id:
            return
        if (info.get("variant") or {}).get("key", "standard") not in PLAYABLE:
            self.notice = "game %s is not chess or Chess960: the board plays those only" % game_id
            return
        if self.game is not None and self.game.phase != "done":
            if self.game.id != game_id:
                self.notice = "another Lichess game started (%s): finish this one on the board first" % game_id
            return
        self.matchmaking.game_started(game_id)
        self.game = OnlineGame(game_id, info.get("color", "white"))
        self.notice = "game %s started: you play %s" % (game_id, self.game.color)
        if self.board.computer is not None:
            self.board.computer.stand_aside()         # fair play: the engine stops playing
        self.spawn(self._follow, "lichess-game", self.game)

    # -- one game's stream ------------------------------------------------------------------------

    def _follow(self, g):
        """The game's stream until the game ends; every reopening starts with gameFull (the whole game)."""
        delay = self.retry[0]
        alive = self.api.alive_while_token()
        while not self.stopped.is_set() and g.status in LIVE and alive():
            client, session = self.api.client()
            self._game_session = session
            try:
                for line in self.api.open("opening the game", client.board.stream_game_state, g.id, alive=alive,
                                          network_retry=False):
                    delay = self.retry[0]
                    self._on_game_line(g, line)
                    if g.status not in LIVE:
                        break
            except (TokenError, Stop):
                return
            except Refused as e:
                g.message = "Lichess does not stream game %s: %s" % (g.id, e)
                self.changed()
                return
            except (berserk.exceptions.ApiError, requests.RequestException, ValueError, AttributeError) as e:
                # (AttributeError: urllib3 reading a socket that cut() closed under it: reread, stop)
                if not alive():
                    return                     # cut for a new token: its own reader goes on
                self.notice = "the game's stream broke (%s): reading the game again" % type(e).__name__
                self.changed()
            if g.status not in LIVE or self.stopped.wait(delay):
                break
            delay = min(delay * 2, self.retry[1])

    def _on_game_line(self, g, line):
        kind = line.get("type")
        with self.lock:
            if kind == "gameFull":
                g.full = line
                fen = line.get("initialFen") or "startpos"
                chess960 = (line.get("variant") or {}).get("key") == "chess960"
                g.initial = chess.Board(chess960=chess960) if fen == "startpos" else chess.Board(fen, chess960=chess960)
                g.set_state(line.get("state") or {})
                g.need_full = False
            elif kind == "gameState":
                g.set_state(line)
            elif kind == "opponentGone":
                g.message = "your opponent left the game" if line.get("gone") else None
        self.changed()

    def reread(self):
        """Read the whole game again (the stream is reopened: gameFull): the page's button."""
        if self._game_session is not None:
            self._game_session.cut()

    def read_full(self, g):
        """The whole game now, from a stream of its own (its first line is gameFull), then closed."""
        client, session = self.api.client((5.0, 10.0))
        try:
            for line in self.api.open("reading the game again", client.board.stream_game_state, g.id):
                self._on_game_line(g, line)
                break
        finally:
            session.cut()

    # -- what the bridge asks of the online game (lichess_bridge.py) ----------------------------

    def say(self, text):
        """The page's news of this client."""
        self.notice = text
        self.changed()

    def act_online(self, what, action, *args):
        """A Lichess action on the game (resign, draw), its refusal said in words."""
        g = self.game
        client = self.api.client((5.0, 10.0))[0]
        fn = {"draw": client.board.handle_draw_offer, "resign": client.board.resign_game,
              "abort": client.board.abort_game}[action]
        try:
            self.api.call(what, fn, g.id, *args)
            return True
        except Refused as e:
            g.message = "Lichess refused %s: %s" % (what, e)
            self.changed()
        except TokenError:
            pass
        return False

    def send_move(self, g, uci):
        """The player's move to Lichess (Refused, TokenError as Lichess answers)."""
        self.api.call("sending %s" % uci, self.api.client((5.0, 10.0))[0].board.make_move, g.id, uci)

    def game_over(self, g):
        """Both games over (the bridge put the board's options back): the PGN saved, the ladder told."""
        try:
            g.recorded = lichess_records.save_pgn(g, self.archive_dir, self.base_url)
            lichess_records.record_ladder(g, self.ladder_path)
        except (OSError, ValueError) as e:
            g.message = "the game could not be saved: %s" % e
        with self.lock:
            self.last_game = g
        self.changed()

    # -- the page ----------------------------------------------------------------------------------

    def describe(self):
        with self.lock:
            g = self.game if self.game is not None and self.game.phase != "done" else None
            return dict(self.matchmaking.describe(), account=self.account, problem=self.problem, notice=self.notice,
                        token_url=lichess_token.CREATE_URL, game=self._described(g),
                        last_game=self._described(self.last_game))

    def _described(self, g):
        if g is None:
            return None
        d = g.describe()
        d["url"] = "%s/%s" % (self.base_url.rstrip("/"), g.id)
        return d

    def act(self, fields):
        """One action from the page: ``op`` says which (``token``; finding a game: lichess_seeks's
        ACTIONS; the game: GAME_ACTIONS). ValueError saying why not (Lichess's refusal in its words)."""
        op = fields.get("op")
        if op == "token":
            return self.set_token(fields.get("token"), save=bool(fields.get("save", True)))
        if op not in FINDING and op not in GAME_ACTIONS:
            raise ValueError("no such Lichess action: %r" % (op,))
        if self.api.token is None or self.account is None:
            raise ValueError(self.problem or "not logged in to Lichess yet")
        if op in ("seek", "challenge", "ai", "accept") and self.playing():
            raise ValueError("a Lichess game is on the board: finish it first")
        if op in GAME_ACTIONS and not self.playing():
            raise ValueError("no Lichess game is on")
        try:
            if op in FINDING:
                return self.matchmaking.act(fields)
            if op == "reread":
                return self.reread()
            what, action, args = GAME_ACTIONS[op]
            return self.act_online(what, action, *args)
        except Refused as e:
            raise ValueError("Lichess refused: %s" % e)
        except TokenError as e:
            raise ValueError(str(e))


# What the player does to the online game from the page: (what, Lichess's action, its arguments).
GAME_ACTIONS = {"draw": ("offering or accepting a draw", "draw", (True,)),
                "decline_draw": ("declining the draw", "draw", (False,)),
                "resign": ("resigning", "resign", ()), "abort": ("aborting", "abort", ()), "reread": None}
