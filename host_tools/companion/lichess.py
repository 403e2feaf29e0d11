"""Play on Lichess from the wooden board: the Board API (https://lichess.org/api#tag/Board) via berserk.

The board speaks only its serial protocol; this module sits between it and
Lichess. The opponent's moves go to the board with ``show`` (the LEDs light
them and the board accepts only that move); the player's moves, recognised by
the board, go to Lichess. The two games are compared whenever either changes
(``_reconcile``): the board follows the online game, never the other way round,
so whatever the link or the hands did, the board is brought back to Lichess's
game (a move taken back with ``undo``, or a new game from the online position
when the board lost its own; the LEDs guide the pieces either way).

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
is the whole game again. HTTP 429 waits ``rate_limit_wait`` (Lichess: a full
minute) before the next request; 5xx and network errors retry with a growing
wait. A 401 stops everything with a message about the token.
"""

import os
import threading
import time

import berserk
import berserk.exceptions
import chess
import chess.pgn
import platformdirs
import requests

from host_tools.companion import lichess_token
from host_tools.companion.lichess_game import LIVE, OnlineGame, decide, ended_by_move, result as _result
from host_tools.companion.lichess_link import Refused, Session
from host_tools.companion.lichess_token import TokenError
from host_tools.companion.model import REPLY_SECONDS
from host_tools.companion.players import host_date
from scacchiera.rules import outcome

API = "https://lichess.org"
# Lichess's speed of a clock: estimated duration = initial + 40 x increment (seconds) (lichess.org/faq#time-controls).
BLITZ_FROM, RAPID_FROM = 180, 480
# The Board API's documented limits (lichess-org/api, doc/specs/tags/board/api-board-seek.yaml and the Board tag):
# seeks are Rapid or Classical; direct challenges and the AI may also be Blitz. Clock 0-180 min, increment 0-180 s.
MAX_MINUTES, MAX_INCREMENT = 180, 180
AI_LEVELS = (1, 8)
PLAYABLE = ("standard", "chess960")   # Lichess variants the board plays (lila's keys)
SAVED_OPTIONS = ("takeback", "suggest", "clock", "profile")   # the board's, set for the game and restored after
MAX_UNDO = 3                # more moves than this to take back: a new game from the online position instead
END_GRACE = 5.0             # seconds Lichess has to end its game after the board ended its own (draw claims)


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


class Stop(Exception):
    """The client is stopping (or the stream was cut on purpose)."""


class Lichess:
    """The companion's Lichess client for one board (boards.Board). ``act`` takes the page's actions;
    ``describe`` is what the page shows."""

    def __init__(self, board, token=None, base_url=API, token_path=None, ladder_path=None, archive_dir=None,
                 rate_limit_wait=60.0, stream_timeout=20.0, retry=(0.5, 8.0)):
        self.board = board
        self.base_url = base_url
        self.token_path = token_path
        self.ladder_path = ladder_path
        self.archive_dir = archive_dir or os.path.join(platformdirs.user_data_dir("scacchiera", appauthor=False),
                                                       "lichess")
        self.rate_limit_wait = rate_limit_wait
        self.stream_timeout = stream_timeout
        self.retry = retry
        self.lock = threading.RLock()
        self._token = None
        self.account = None               # {"id", "username"}
        self.problem = None               # what stops it, for the page
        self.notice = None                # the last thing it did or waits for
        self.challenges = {}              # id -> incoming challenge, for the page
        self.outgoing = None              # our challenge waiting for an answer
        self.seeking = None               # (minutes, increment) while a seek runs
        self.game = None
        self.last_game = None
        self.waits = []                   # (reason, seconds) of every back-off (the tests read them)
        self._stopped = threading.Event()
        self._threads = []
        self._event_session = self._game_session = self._seek_session = None
        self._awaiting = None             # when a board command whose reply is not in yet was sent
        self._token_generation = 0        # a new token's streams replace the old token's
        self._following = threading.Thread()   # the game's stream thread (not started: none yet)
        self._news = board.model.subscribe("lichess")   # the board's changes wake the bridge
        if token is None:
            try:
                token, _where = lichess_token.load(token_path)
            except TokenError as e:
                self.problem = str(e)
        if token is not None:
            self._token = lichess_token.check(token)
        elif self.problem is None:
            self.problem = ("no Lichess token: set LICHESS_TOKEN or paste one on the page (scope board:play, "
                            "made at %s)" % lichess_token.CREATE_URL)

    # -- life ---------------------------------------------------------------------------------

    def start(self):
        self._spawn(self._bridge_loop, "lichess-bridge")
        if self._token is not None:
            self._spawn(self._login_and_listen, "lichess-events")

    def stop(self):
        self._stopped.set()
        for session in (self._event_session, self._game_session, self._seek_session):
            if session is not None:
                session.cut()
        self._news.wake()
        for t in self._threads:
            t.join(3)

    def _spawn(self, target, name, *args):
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()
        return t

    def playing(self):
        """Whether a Lichess game is on the board (no engine, no hints: fair play)."""
        g = self.game
        return g is not None and g.phase != "done"

    def _changed(self):
        self._news.wake()                     # the bridge compares the games again
        self.board.notify()

    def _client(self, timeout=None):
        session = Session(self._token, timeout or (5.0, self.stream_timeout), self._skipped)
        return berserk.Client(session=session, base_url=self.base_url), session

    def _skipped(self, reason):
        """A stream's line of the wrong shape was skipped (lichess_lines.py): said on the page."""
        self.notice = "Lichess sent a line the companion cannot read (%s): skipped, the game goes on" % reason
        self._changed()

    # -- requests: errors in words, 429 and 5xx waited out ------------------------------------

    def _open(self, what, fn, *args, alive=None, network_retry=True):
        """A stream (berserk's generator) opened through ``_call``: its request is made, and its
        first line read, inside the retries; then its lines as they come. A reader that opens its
        stream again itself passes ``network_retry=False``: its session may have been cut (the
        page's re-read), and a cut session would refuse every retry."""
        def first():
            lines = fn(*args)
            for line in lines:
                return line, lines
            return None, iter(())
        head, lines = self._call(what, first, alive=alive, network_retry=network_retry)
        if head is not None:
            yield head
        yield from lines

    def _call(self, what, fn, *args, network_retry=True, alive=None, **kwargs):
        """``fn(*args)`` until it answers: 429 waits rate_limit_wait, 5xx and network errors retry
        with a growing wait; 401 raises TokenError, other 4xx Refused (Lichess's words).
        ``alive()`` false: the caller was replaced (an event stream of an older token): Stop."""
        delay = self.retry[0]
        while True:
            if self._stopped.is_set() or alive is not None and not alive():
                raise Stop()
            try:
                return fn(*args, **kwargs)
            except berserk.exceptions.ResponseError as e:
                code = e.status_code
                if code == 401:
                    if alive is not None and not alive():
                        raise Stop()           # the old token's 401, after a new token replaced it
                    self._token_refused()
                    raise TokenError(self.problem)
                if code == 429:
                    self._back_off("Lichess asks to slow down (429) while %s: waiting %g s" % (what, self.rate_limit_wait),
                                   self.rate_limit_wait)
                    continue
                if code >= 500:
                    self._back_off("Lichess answered %d while %s: trying again in %g s" % (code, what, delay), delay)
                    delay = min(delay * 2, self.retry[1])
                    continue
                raise Refused(_lichess_words(e), code)
            except (berserk.exceptions.ApiError, requests.RequestException) as e:
                if not network_retry:
                    raise
                if alive is not None and not alive():
                    raise Stop()               # no "no answer" notice from a reader that gave way
                self._back_off("no answer from Lichess while %s (%s): trying again in %g s"
                               % (what, type(getattr(e, "error", e)).__name__, delay), delay)
                delay = min(delay * 2, self.retry[1])

    def _back_off(self, text, seconds):
        with self.lock:
            self.notice = text
            self.waits.append((text, seconds))
        self._changed()
        if self._stopped.wait(seconds):
            raise Stop()

    def _token_refused(self):
        with self.lock:
            self.account = None           # the page asks for a token again
            self.problem = ("Lichess refused the token (401): it is wrong, expired or revoked. Make a new one with "
                            "the scope board:play at %s" % lichess_token.CREATE_URL)
        self._changed()

    # -- logging in, the event stream -----------------------------------------------------------

    def set_token(self, token, save=True):
        """A token pasted on the page: checked with Lichess, then (``save``) written 0600 and used."""
        token = lichess_token.check(token)
        old, self._token = self._token, token
        try:
            self._login()
        except (TokenError, Refused) as e:
            self._token = old
            raise ValueError(str(e))
        if save:
            lichess_token.save(token, self.token_path)
        self._token_generation += 1       # the running streams give way to the new token's
        for session in (self._event_session, self._game_session):
            if session is not None:
                session.cut()
        self._spawn(self._listen, "lichess-events")
        g = self.game
        if g is not None and g.phase != "done" and g.status in LIVE:
            self._following = self._spawn(self._follow, "lichess-game", g)   # a game a 401 stopped: on with it

    def _login(self):
        client, _ = self._client((5.0, 10.0))
        tested = self._call("checking the token", client.oauth.test_tokens, self._token) or {}
        info = tested.get(self._token)
        if not info:
            self._token_refused()
            raise TokenError(self.problem)
        scopes = [s.strip() for s in (info.get("scopes") or "").split(",")]
        if lichess_token.SCOPE not in scopes:
            with self.lock:
                self.problem = ("the token lacks the scope board:play (it has: %s): make one with board:play at %s"
                                % (", ".join(s for s in scopes if s) or "none", lichess_token.CREATE_URL))
            self._changed()
            raise TokenError(self.problem)
        account = self._call("reading the account", client.account.get)
        with self.lock:
            self.account = {"id": account.get("id"), "username": account.get("username")}
            self.problem = None
        self._changed()

    def _login_and_listen(self):
        try:
            self._login()
        except Refused as e:                 # a 4xx other than 401 (a 404 from a wrong --lichess-url)
            with self.lock:
                self.problem = "Lichess refused the log-in (HTTP %s): %s" % (e.status, e)
            self._changed()
            return
        except (TokenError, Stop):
            return
        self._listen()

    def _alive_while_token(self):
        """A test for a stream's reader: false once a new token replaced the one it started with."""
        mine = self._token_generation
        return lambda: mine == self._token_generation

    def _listen(self):
        """The event stream, opened again whenever it ends (gameStart, challenges)."""
        delay = self.retry[0]
        alive = self._alive_while_token()
        while not self._stopped.is_set() and alive():
            client, session = self._client()
            self._event_session = session
            try:
                for event in self._open("opening the event stream", client.board.stream_incoming_events,
                                        alive=alive, network_retry=False):
                    delay = self.retry[0]
                    self._on_event(event)
            except (TokenError, Stop):
                return
            except Refused as e:
                with self.lock:
                    self.problem = "Lichess refused the event stream: %s" % e
                self._changed()
                return
            except (berserk.exceptions.ApiError, requests.RequestException, ValueError, AttributeError) as e:
                # (AttributeError: urllib3 reading a socket that cut() closed under it)
                if not alive():
                    return
                self.notice = "the event stream broke (%s): opening it again" % type(e).__name__
            if self._stopped.wait(delay):
                return
            delay = min(delay * 2, self.retry[1])

    def _on_event(self, event):
        kind = event.get("type")
        with self.lock:
            if kind == "gameStart":
                self._game_started(event.get("game") or {})
            elif kind == "gameFinish":
                pass                              # the game's own stream says how it ended
            elif kind == "challenge":
                c = event.get("challenge") or {}
                me = (self.account or {}).get("id")
                if (c.get("destUser") or {}).get("id") == me and c.get("status", "created") == "created":
                    self.challenges[c["id"]] = _challenge_summary(c)
            elif kind in ("challengeCanceled", "challengeDeclined"):
                c = event.get("challenge") or {}
                self.challenges.pop(c.get("id"), None)
                if self.outgoing == c.get("id"):
                    self.outgoing = None
                    self.notice = "%s declined the challenge" % ((c.get("destUser") or {}).get("name") or "the player") \
                        if kind == "challengeDeclined" else "the challenge was cancelled"
        self._changed()

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
        self.seeking = None
        self.outgoing = None
        self.challenges.pop(game_id, None)
        self.game = OnlineGame(game_id, info.get("color", "white"))
        self.notice = "game %s started: you play %s" % (game_id, self.game.color)
        if self.board.computer is not None:
            self.board.computer.sides = ()        # fair play: the engine stops playing
        self._following = self._spawn(self._follow, "lichess-game", self.game)

    # -- one game's stream ------------------------------------------------------------------------

    def _follow(self, g):
        """The game's stream until the game ends; every reopening starts with gameFull (the whole game)."""
        delay = self.retry[0]
        alive = self._alive_while_token()
        while not self._stopped.is_set() and g.status in LIVE and alive():
            client, session = self._client()
            self._game_session = session
            try:
                for line in self._open("opening the game", client.board.stream_game_state, g.id, alive=alive,
                                       network_retry=False):
                    delay = self.retry[0]
                    self._on_game_line(g, line)
                    if g.status not in LIVE:
                        break
            except (TokenError, Stop):
                return
            except Refused as e:
                g.message = "Lichess does not stream game %s: %s" % (g.id, e)
                self._changed()
                return
            except (berserk.exceptions.ApiError, requests.RequestException, ValueError, AttributeError) as e:
                # (AttributeError: urllib3 reading a socket that cut() closed under it: reread, stop)
                if not alive():
                    return                     # cut for a new token: its own reader goes on
                self.notice = "the game's stream broke (%s): reading the game again" % type(e).__name__
                self._changed()
            if g.status not in LIVE or self._stopped.wait(delay):
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
        self._changed()

    def reread(self):
        """Read the whole game again (the stream is reopened: gameFull): the page's button."""
        if self._game_session is not None:
            self._game_session.cut()

    def _read_full(self, g):
        """The whole game now, from a stream of its own (its first line is gameFull), then closed."""
        client, session = self._client((5.0, 10.0))
        try:
            for line in self._open("reading the game again", client.board.stream_game_state, g.id):
                self._on_game_line(g, line)
                break
        finally:
            session.cut()

    # -- the board follows the online game ---------------------------------------------------------

    def _bridge_loop(self):
        while not self._stopped.is_set():
            # Woken by the board's news and the online game's (_changed); a quarter of a second
            # at most, for what time alone moves on: the online clock, END_GRACE, a lost reply.
            self._news.wait(0.25)
            try:
                self._reconcile()
            except Stop:
                return
            except Exception as e:            # a bug must not end the game: say it and go on
                self.notice = "internal error: %s: %s" % (type(e).__name__, e)
                self._changed()
                self._stopped.wait(1)

    def _board(self, cmd):
        """A protocol command to the board, as Lichess's (``board.ask``: its reply comes to
        ``_replied``, not found by reading the log): the next comparison waits for it."""
        self._awaiting = time.monotonic()
        if not self._tell(cmd, self._replied):
            self._awaiting = None

    def _tell(self, cmd, on_reply=None):
        """A protocol command to the board, as Lichess's, a refusal said in its notice (never as the
        person's on the page); whether the board took the line."""
        try:
            self.board.ask(cmd, on_reply or self._refused, by="lichess")
            return True
        except ValueError as e:               # boards.ActionError: the board is not connected
            self.notice = "the board did not take %s: %s" % (cmd["cmd"], e)
            return False

    def _replied(self, reply):
        """The board's reply to ``_board``'s command (called with the model's lock held)."""
        self._awaiting = None
        self._refused(reply)

    def _refused(self, reply):
        if not reply.get("ok"):
            self.notice = "the board refused %s: %s" % (reply.get("re"), reply.get("message") or reply.get("error"))

    def _board_replied(self):
        """Whether the last command's reply came (or is taken as lost after REPLY_SECONDS)."""
        sent = self._awaiting
        if sent is not None and time.monotonic() - sent > REPLY_SECONDS:
            self._awaiting = None
        return self._awaiting is None

    def _reconcile(self):
        """Compare the online game with the board's (lichess_game.decide) and do the one step it says."""
        g = self.game
        if g is None or g.full is None or g.phase == "done" or not self._board_replied():
            return
        board = self.board.model.view()
        if board.status is None or board.start is None or board.busy:
            return
        s = dict(board.status)
        step = decide(g, s, g.clock_now(), board.knows("clock") is not False)
        if step is None:
            return
        kind, args = step[0], step[1:]
        if kind == "setup":
            self._setup(g, s)
        elif kind == "resync":
            self._resync(g, *args)
        elif kind == "clocks":
            (white, black, run), = args
            g.clock_sent = (g.board_game, g.clock_version)
            self._board({"cmd": "clock", "white": white, "black": black, "run": run})
        elif kind == "board_ahead":
            self._board_ahead(g, s, *args)
        elif kind in ("show", "unshow", "decline"):
            self._board(dict({"cmd": kind}, **({"uci": args[0]} if args else {})))
        elif kind == "offer_to_board":
            g.offer_told = args[0]
            self._board({"cmd": "offer"})
        elif kind == "offer_online":
            g.my_offer_sent = args[0]
            self._online("offering a draw", "draw", True)
        elif kind == "end_on_board":
            self._end_on_board(g, s)
        elif kind == "end_online":
            self._end_online(g, s)
        else:
            self._finish(g)

    def _setup(self, g, s):
        """A new game on the board for the online one: takebacks and hints off, the position set."""
        if g.before_game is None:
            options = s.get("options") or {}
            if g.saved_options is None:       # the player's own settings, once (not a resync's)
                g.saved_options = dict((name, options[name]) for name in SAVED_OPTIONS if name in options)
            for name in ("takeback", "suggest"):
                if options.get(name):
                    self._tell({"cmd": "set", "name": name, "value": False})
            g.before_game = s.get("game")
            position = g.position(g.base)
            # Lichess's rules are FIDE's. A Chess960 game always sends its FEN (X-FEN): a start position
            # of it is set up with the LEDs' guide (docs/rules.md, "Chess960").
            cmd = {"cmd": "new", "variant": "chess960" if position.chess960 else "chess", "profile": "fide"}
            if position.fen() != chess.STARTING_FEN or position.chess960:
                cmd["fen"] = position.fen()
            self._board(cmd)
            return
        # The reply to ``new`` is in, and the status asked after it: this is the board's game now
        # (its number stays when the game it replaced had no move). Its time control, and its tags
        # for the board's archive (the clocks' times follow: decide's "clocks").
        g.board_game = s.get("game")
        if (s.get("options") or {}).get("clock") != g.control():
            self._tell({"cmd": "set", "name": "clock", "value": g.control()})
        if self.board.model.knows("tag") is not False:      # an older firmware: its archive has no names
            for name, value in self.tags(g).items():    # the result: the board's own ending
                self._tell({"cmd": "tag", "name": name, "value": value})
        g.phase = "play"
        self._changed()

    def _resync(self, g, why):
        """The board's game cannot follow by taking moves back: a new game from the online position."""
        g.message = why
        g.base = len(g.moves)
        g.phase = "setup"
        g.before_game = None
        g.sent.clear()
        g.refused.clear()
        self._changed()

    def _board_ahead(self, g, s, extra, ply, could_be_mine):
        """The board has moves the online game has not: the player's move goes to Lichess; anything
        else is taken back (the LEDs guide the pieces)."""
        uci = extra[0]
        if could_be_mine and len(extra) == 1 and g.turn_at(ply) == g.color \
                and (s.get("result", "*") == "*" or ended_by_move(s)):
            refused = g.refused.get(ply)
            if refused is not None and refused[0] == uci:
                if g.need_full:
                    return                          # first read the whole game again
                del g.refused[ply]
                g.sent.pop(ply, None)
                g.message = ("Lichess refused the move %s: %s. Take it back: the LEDs show where the pieces go."
                             % (uci, refused[1]))
                self._changed()
                return self._board({"cmd": "undo"})
            if g.sent.get(ply) == uci:
                return                              # sent: the stream will show it
            g.sent[ply] = uci
            g.message = None
            try:
                self._call("sending %s" % uci, self._client((5.0, 10.0))[0].board.make_move, g.id, uci)
                self.notice = None
            except Refused as e:
                # Refused, or sent before and the answer lost: the whole game says which.
                g.refused[ply] = (uci, str(e))
                g.need_full = True
                self._read_full(g)
            except TokenError:
                g.sent.pop(ply, None)
            self._changed()
            return
        if len(extra) > MAX_UNDO or s.get("result", "*") != "*":
            return self._resync(g, "the board's game left the online game: it starts again from the online position")
        g.message = "%s is not the online game's move: take it back (the LEDs show how)" % extra[-1]
        self._changed()
        self._board({"cmd": "undo"})

    def _online(self, what, action, *args):
        """A Lichess action on the game (resign, draw), its refusal said in words."""
        g = self.game
        client = self._client((5.0, 10.0))[0]
        fn = {"draw": client.board.handle_draw_offer, "resign": client.board.resign_game,
              "abort": client.board.abort_game}[action]
        try:
            self._call(what, fn, g.id, *args)
            return True
        except Refused as e:
            g.message = "Lichess refused %s: %s" % (what, e)
            self._changed()
        except TokenError:
            pass
        return False

    def _end_online(self, g, s):
        """The board's game ended (a resignation, an agreed draw, a claim) while Lichess's goes on."""
        if g.end_sent_at is not None:
            if time.monotonic() - g.end_sent_at > END_GRACE:
                g.end_sent_at = None
                self._resync(g, "Lichess did not end the game (%s): it goes on from the online position"
                             % (s.get("termination") or "?").replace("_", " "))
            return
        g.end_sent_at = time.monotonic()
        termination = s.get("termination")
        mine = outcome.WHITE_WINS if g.color == "white" else outcome.BLACK_WINS
        if termination == outcome.resignation and s.get("result") != mine:
            self._online("resigning", "resign")
        elif termination in (outcome.agreement, outcome.threefold_repetition, outcome.fifty_moves):
            self._online("accepting or claiming the draw", "draw", True)
        # checkmate, stalemate and the automatic draws follow from a move Lichess has: it ends by itself

    def _end_on_board(self, g, s):
        """Lichess's game ended (resignation, time, agreed draw, abort): the board's too."""
        if g.status in ("aborted", "noStart"):
            return self._finish(g)
        loser = {"white": "b", "black": "w"}.get(g.winner)
        status = g.status
        if status in ("outoftime", "timeout") and self.board.model.knows("end") is False:
            status = None                     # an older firmware: a resignation or a draw, the nearest it has
        if status == "outoftime":             # the loser's flag, or a draw: the winner could not mate (FIDE 6.9)
            flagged = loser or ("w" if g.position().turn == chess.WHITE else "b")
            self._board({"cmd": "end", "how": "time", "side": flagged})
        elif status == "timeout" and loser:   # the player left and the opponent claimed the win
            self._board({"cmd": "end", "how": "abandon", "side": loser})
        elif loser:
            self._board({"cmd": "resign", "side": loser})
        elif s.get("claimable"):              # Lichess drew at 50 moves, or on a repetition claimed
            self._board({"cmd": "claim"})
        else:
            self._board({"cmd": "draw"})

    def _finish(self, g):
        """Both games over: the options back as they were, the PGN saved, the ladder told."""
        g.phase = "done"
        for name, value in (g.saved_options or {}).items():
            if value:                         # (takeback, suggest: only a True was turned off)
                self._tell({"cmd": "set", "name": name, "value": value})
        try:
            g.recorded = self._save_pgn(g)
            self._record_ladder(g)
        except (OSError, ValueError) as e:
            g.message = "the game could not be saved: %s" % e
        with self.lock:
            self.last_game = g
        self._changed()

    # -- the archive and the ladder --------------------------------------------------------------

    def tags(self, g):
        """The game's PGN tags as Lichess's own PGN has them, but for Result and Termination (the file saved
        here adds Lichess's; the board's archive has its own ending's)."""
        full = g.full or {}
        white, black = full.get("white") or {}, full.get("black") or {}
        tags = {"Event": ("Lichess %s game" % (full.get("speed") or "")).replace("  ", " "),
                "Site": "%s/%s" % (self.base_url.rstrip("/"), g.id),
                "Date": host_date(),
                "White": _player_name(white), "Black": _player_name(black)}
        for side, player in (("White", white), ("Black", black)):
            if player.get("rating"):
                tags[side + "Elo"] = str(player["rating"])
        clock = full.get("clock")
        tags["TimeControl"] = "%d+%d" % (clock["initial"] // 1000, clock["increment"] // 1000) if clock else "-"
        return tags

    def pgn(self, g):
        game = chess.pgn.Game()
        game.headers.update(self.tags(g))
        game.headers["Result"] = _result(g)
        game.headers["Termination"] = _TERMINATIONS.get(g.status, g.status)
        if g.initial.fen() != chess.STARTING_FEN or g.initial.chess960:
            game.setup(g.initial)                   # (a Chess960 board: [Variant "Chess960"] too)
        node = game
        for uci in g.moves:
            node = node.add_variation(chess.Move.from_uci(uci))
        return str(game)

    def _save_pgn(self, g):
        os.makedirs(self.archive_dir, exist_ok=True)
        path = os.path.join(self.archive_dir, "%s.pgn" % g.id)
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.pgn(g) + "\n")
        return path

    def _record_ladder(self, g):
        """The game in the household ladder as an online game (players named by their Lichess names)."""
        if self.ladder_path is None or _result(g) == "*":
            return
        from host_tools.ladder.ladder import Ladder
        from host_tools.ladder.db import LadderError
        full = g.full or {}
        names = [_player_name(full.get("white") or {}), _player_name(full.get("black") or {})]
        try:
            with Ladder(self.ladder_path) as ladder:
                ladder.add_players(names)
                ladder.record(names[0], names[1], _result(g), moves=len(g.moves),
                              resigned=g.status == "resign", abandoned=g.status == "timeout", online=True)
        except LadderError as e:
            g.message = "not recorded in the ladder: %s" % e

    # -- the page ----------------------------------------------------------------------------------

    def describe(self):
        with self.lock:
            g = self.game if self.game is not None and self.game.phase != "done" else None
            return {"account": self.account, "problem": self.problem, "notice": self.notice,
                    "token_url": lichess_token.CREATE_URL, "challenges": list(self.challenges.values()),
                    "outgoing": self.outgoing, "seeking": self.seeking,
                    "game": self._described(g), "last_game": self._described(self.last_game),
                    "ai_levels": list(AI_LEVELS)}

    def _described(self, g):
        if g is None:
            return None
        d = g.describe()
        d["url"] = "%s/%s" % (self.base_url.rstrip("/"), g.id)
        return d

    def act(self, fields):
        """One action from the page: ``op`` says which (token, seek, cancel_seek, challenge, ai, accept,
        decline, cancel_challenge, draw, decline_draw, resign, abort, reread). ValueError saying why not."""
        op = fields.get("op")
        if op == "token":
            return self.set_token(fields.get("token"), save=bool(fields.get("save", True)))
        if self._token is None or self.account is None:
            raise ValueError(self.problem or "not logged in to Lichess yet")
        if op in ("seek", "challenge", "ai", "accept") and self.playing():
            raise ValueError("a Lichess game is on the board: finish it first")
        client = self._client((5.0, 10.0))[0]
        variant = fields.get("variant", "standard")
        if op in ("seek", "challenge", "ai") and variant not in PLAYABLE:
            raise ValueError("the board plays %s on Lichess" % " and ".join(PLAYABLE))
        try:
            if op == "seek":
                minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=True)
                return self._seek(minutes, increment, bool(fields.get("rated")), _color(fields), variant)
            if op == "cancel_seek":
                if self._seek_session is not None:
                    self._seek_session.cut()
                return None
            if op == "challenge":
                user = fields.get("user")
                if not isinstance(user, str) or not user.replace("-", "").replace("_", "").isalnum() or len(user) > 30:
                    raise ValueError("the friend's Lichess name: letters, digits, - and _")
                minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=False)
                c = self._call("challenging %s" % user, client.challenges.create, user, bool(fields.get("rated")),
                               clock_limit=int(minutes * 60), clock_increment=increment, color=_color(fields),
                               variant=variant)
                with self.lock:
                    self.outgoing = (c.get("challenge") or c).get("id") if isinstance(c, dict) else None
                    self.notice = "challenge sent to %s: waiting for the answer" % user
                return None
            if op == "ai":
                level = fields.get("level")
                if isinstance(level, bool) or not isinstance(level, int) or not AI_LEVELS[0] <= level <= AI_LEVELS[1]:
                    raise ValueError("the AI's level is from %d to %d" % AI_LEVELS)
                minutes, increment = check_clock(fields.get("minutes"), fields.get("increment"), seek=False)
                self._call("challenging the AI", client.challenges.create_ai, level, clock_limit=int(minutes * 60),
                           clock_increment=increment, color=_color(fields), variant=variant)
                self.notice = "Lichess AI level %d: the game starts" % level
                return None
            if op in ("accept", "decline"):
                cid = fields.get("challenge")      # (not "id": the page's request id is sent as id)
                if cid not in self.challenges:
                    raise ValueError("no such challenge")
                if op == "accept" and not self.challenges[cid]["playable"]:
                    raise ValueError("the board plays chess and Chess960 only: decline this one")
                if op == "accept":
                    self._call("accepting the challenge", client.challenges.accept, cid)
                else:
                    self._call("declining the challenge", client.challenges.decline, cid)
                with self.lock:
                    self.challenges.pop(cid, None)
                return None
            if op == "cancel_challenge":
                if self.outgoing:
                    self._call("cancelling the challenge", client.challenges.cancel, self.outgoing)
                    self.outgoing = None
                return None
            if op in ("draw", "decline_draw", "resign", "abort", "reread"):
                g = self.game
                if g is None or g.phase == "done":
                    raise ValueError("no Lichess game is on")
                if op == "reread":
                    return self.reread()
                if op == "draw":
                    return self._online("offering or accepting a draw", "draw", True)
                if op == "decline_draw":
                    return self._online("declining the draw", "draw", False)
                return self._online("resigning" if op == "resign" else "aborting", op)
        except Refused as e:
            raise ValueError("Lichess refused: %s" % e)
        except TokenError as e:
            raise ValueError(str(e))
        raise ValueError("no such Lichess action: %r" % (op,))

    def _seek(self, minutes, increment, rated, color, variant="standard"):
        if self.seeking:
            raise ValueError("a seek is already on: cancel it first")
        self.seeking = {"minutes": minutes, "increment": increment}
        client, session = self._client()
        self._seek_session = session

        def run():
            try:
                self._call("seeking a game", client.board.seek, minutes, increment, rated=rated,
                           variant=variant, color=color or "random", network_retry=False)
            except (Refused, TokenError) as e:
                self.notice = "the seek failed: %s" % e
            except (Stop, berserk.exceptions.ApiError, requests.RequestException):
                pass                                 # cancelled (the stream was cut)
            with self.lock:
                self.seeking = None
            self._changed()
        self._spawn(run, "lichess-seek")
        self._changed()


# The Termination tag of Lichess's own PGN export for each game status (lila's PgnDump): the file saved
# here is Lichess's PGN, so it keeps Lichess's words (the board's archive has its own).
_TERMINATIONS = {"created": "Unterminated", "started": "Unterminated", "aborted": "Abandoned", "noStart": "Abandoned",
                 "timeout": "Time forfeit", "outoftime": "Time forfeit", "resign": "Normal", "draw": "Normal",
                 "stalemate": "Normal", "mate": "Normal", "variantEnd": "Normal",
                 "insufficientMaterialClaim": "Insufficient material", "cheat": "Rules infraction",
                 "unknownFinish": "Unknown"}


def _player_name(player):
    if player.get("aiLevel"):
        return "Lichess AI level %d" % player["aiLevel"]
    return player.get("name") or player.get("id") or "?"


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


def _lichess_words(e):
    cause = e.cause
    if isinstance(cause, dict):
        return str(cause.get("error") or cause.get("message") or cause)
    return "HTTP %d" % e.status_code
