"""A fake Lichess on loopback for the companion's tests: a real ASGI app (Starlette, served by uvicorn)
with exactly the endpoints host_tools/companion/lichess.py uses, written from Lichess's published API
description (the OpenAPI files of the lichess-org/api repository, doc/specs/tags/...):

  GET  /api/account                          account/api-account.yaml: {id, username}
  POST /api/token/test                       oauth/api-token-test.yaml: body "tok1,tok2" -> {tok: {userId, scopes, expires} | null}
  GET  /api/stream/event                     board/api-stream-event.yaml: ndjson; current challenges and games first,
                                             then gameStart/gameFinish/challenge/challengeCanceled/challengeDeclined;
                                             an empty line every `keepalive` seconds
  POST /api/board/seek                       board/api-board-seek.yaml: form time (min), increment (s), rated, color,
                                             variant; ndjson of empty lines until paired, then the server closes it
  POST /api/challenge/{username}             challenges/api-challenge-username.yaml: clock.limit (s), clock.increment
  POST /api/challenge/ai                     challenges/api-challenge-ai.yaml: level 1-8, variant (standard or
                                             chess960: its start position is ``next_chess960``, as seeks'
                                             and friends' chess960 games)
  POST /api/challenge/{id}/accept|decline|cancel
  GET  /api/board/game/stream/{id}           board/api-board-game-stream-gameId.yaml: gameFull first, then gameState
                                             (moves in UCI, wtime/btime/winc/binc in ms, status, winner, wdraw/bdraw);
                                             closed when the game ends
  POST /api/board/game/{id}/move/{move}      board/api-board-game-gameId-move-move.yaml: 400 {"error"} if refused
  POST /api/board/game/{id}/draw/{accept}    board/api-board-game-gameId-draw-accept.yaml: yes offers or accepts, no declines;
                                             as lila's Drawer.yes (lichess-org/lila, modules/round/src/main/Drawer.scala),
                                             a yes in a position that stands for the third time draws at once
  POST /api/board/game/{id}/resign|abort

Auth: ``Authorization: Bearer TOKEN``; an unknown token gets 401 {"error": "No such token"}, a token
without board:play 403 {"error": "Missing scope"}. Faults for the tests: ``fail(pattern, status, times)``
answers the next matching requests with that status (429, 500, 401...); ``cut_streams()`` breaks every
open stream mid-chunk (the client sees a broken connection); ``stall_streams()`` makes them go silent
(no keep-alive: a computer asleep). The opponent plays the moves of ``game.script`` the instant it is
its turn (the opponent moving instantly).

The endings follow Lichess (scalachess): mate, stalemate, insufficient material, the fivefold
repetition and the fifty-move rule (Board.autoDraw: halfmove clock >= 100) end the game by themselves;
a threefold repetition is a draw only when claimed (draw/yes). The tests drive the rest: a flag
(``time_out``: status outoftime, or a draw when the winner could not mate), the opponent claiming the
win after the player left (``opponent_claims_victory``: status timeout), the opponent declining or
accepting the player's offer, the clocks changing by themselves (``clock_to``: as after the opponent
gave time, which Lichess sends as a gameState).
"""

import asyncio
import itertools
import json
import re
import threading
import time
from urllib.parse import parse_qs

import chess
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from host_tools.serving import in_thread

_CLOSE = object()
_CUT = object()


class Raw:
    """A stream's text as a test writes it (any bytes of a line, its newline included)."""

    def __init__(self, text):
        self.text = text


class _Listener:
    def __init__(self):
        self.queue = asyncio.Queue()
        self.stalled = False


class FakeGame:
    def __init__(self, game_id, white, black, minutes, increment, rated=False, speed="rapid", script=None,
                 chess960=None):
        self.id = game_id
        self.white, self.black = white, black        # {"id", "name"} or {"aiLevel": n}
        # chess960: the start position's number (lila: variant chess960, initialFen its X-FEN, castling
        # moves king takes rook in the move list)
        self.board = chess.Board() if chess960 is None else chess.Board.from_chess960_pos(chess960)
        self.variant = {"key": "standard", "name": "Standard", "short": "Std"} if chess960 is None else \
            {"key": "chess960", "name": "Chess960", "short": "960"}
        self.initial_ms = int(minutes * 60000)
        self.increment_ms = int(increment * 1000)
        self.wtime = self.btime = self.initial_ms
        self.status = "started"
        self.winner = None
        self.wdraw = self.bdraw = False
        self.rated = rated
        self.speed = speed
        self.script = list(script or [])
        self.listeners = []
        self.last_move_at = time.monotonic()
        self.created = int(time.time() * 1000)

    def color_of(self, user):
        if self.white.get("id") == user:
            return "white"
        if self.black.get("id") == user:
            return "black"
        return None

    def state(self):
        line = {"type": "gameState", "moves": " ".join(m.uci() for m in self.board.move_stack),
                "wtime": self.wtime, "btime": self.btime, "winc": self.increment_ms, "binc": self.increment_ms,
                "status": self.status}
        if self.winner:
            line["winner"] = self.winner
        if self.wdraw:
            line["wdraw"] = True
        if self.bdraw:
            line["bdraw"] = True
        return line

    def full(self):
        state = self.state()
        del state["type"]
        return {"type": "gameFull", "id": self.id, "variant": self.variant,
                "clock": {"initial": self.initial_ms, "increment": self.increment_ms}, "speed": self.speed,
                "perf": {"name": self.speed.title()}, "rated": self.rated, "createdAt": self.created,
                "white": self.white, "black": self.black, "state": state,
                "initialFen": self.board.root().fen() if self.board.chess960 else "startpos"}

    def info(self, user):
        color = self.color_of(user)
        other = self.black if color == "white" else self.white
        return {"fullId": self.id + "abcd", "gameId": self.id, "id": self.id, "fen": self.board.fen(), "color": color,
                "lastMove": self.board.peek().uci() if self.board.move_stack else "", "source": "lobby",
                "status": {"id": 20, "name": self.status}, "variant": self.variant,
                "speed": self.speed, "perf": self.speed, "rated": self.rated, "hasMoved": bool(self.board.move_stack),
                "opponent": {"id": other.get("id"), "username": other.get("name") or "A.I.", "rating": 1500},
                "isMyTurn": (self.board.turn == chess.WHITE) == (color == "white"), "secondsLeft": self.initial_ms // 1000,
                "compat": {"bot": False, "board": True}}


class FakeLichess:
    """The fake server's state and its controls (thread-safe: the tests call them from their thread)."""

    def __init__(self, user="Player", token="lip_goodtoken123", scopes="board:play", keepalive=0.2):
        self.user = user.lower()
        self.username = user
        self.tokens = {token: scopes}
        self.keepalive = keepalive
        self.lock = threading.RLock()
        self.games = {}
        self.challenges = {}
        self.seeks = []                 # [{"params", "listener"}]
        self.event_listeners = []
        self.requests = []              # "METHOD /path" of every request, in order
        self.faults = []                # [pattern, status, times]
        self.refuse = set()             # UCI moves the server refuses (400)
        self.opponent_accepts_draw = False
        self.friends_accept = True
        self.next_script = None         # the opponent's script for the next game created
        self.next_chess960 = 100        # the start position Lichess "draws" for a Chess960 game asked for
        self._ids = itertools.count(1)
        self.loop = None
        self.app = self._app()

    # -- controls for the tests ---------------------------------------------------------------

    def fail(self, pattern, status, times=1):
        """The next ``times`` requests whose "METHOD /path" matches ``pattern`` get ``status``."""
        with self.lock:
            self.faults.append([re.compile(pattern), status, times])

    def faults_served(self):
        """Whether every fault asked for with ``fail`` has been served."""
        with self.lock:
            return all(fault[2] == 0 for fault in self.faults)

    def cut_streams(self):
        """Break every open stream mid-way (no final chunk: a dropped connection)."""
        with self.lock:
            listeners = self.event_listeners + [l for g in self.games.values() for l in g.listeners]
        for listener in listeners:
            self._put(listener, _CUT)

    def stall_streams(self):
        """Every open stream goes silent, keep-alives too (the computer slept): the client must notice."""
        with self.lock:
            for listener in self.event_listeners + [l for g in self.games.values() for l in g.listeners]:
                listener.stalled = True

    def pair_seek(self, opponent="mary", script=None):
        """Someone accepts the open seek: the game starts (gameStart on the event stream)."""
        with self.lock:
            seek = self.seeks.pop(0)
            color = seek["params"].get("color", "random")
            me = {"id": self.user, "name": self.username, "rating": 1500}
            them = {"id": opponent, "name": opponent.title(), "rating": 1600}
            white, black = (them, me) if color == "black" else (me, them)
            game = self._new_game(white, black, float(seek["params"]["time"]), int(seek["params"]["increment"]),
                                  rated=seek["params"].get("rated") == "true", script=script,
                                  chess960=self._chess960(seek["params"]))
        self._put(seek["listener"], _CLOSE)
        return game

    def _chess960(self, params):
        """A Chess960 game's start position, as Lichess draws one (``next_chess960``, which the tests
        set), or None for the standard variant."""
        return self.next_chess960 if params.get("variant") == "chess960" else None

    def send_challenge(self, from_user="mary", variant="standard", minutes=10, increment=5, chess960=None):
        """A challenge to the user; ``chess960``: the start position's number of a chess960 one."""
        with self.lock:
            cid = "ch%d" % next(self._ids)
            c = {"id": cid, "url": "https://lichess.org/" + cid, "status": "created",
                 "challenger": {"id": from_user, "name": from_user.title(), "rating": 1600},
                 "destUser": {"id": self.user, "name": self.username, "rating": 1500},
                 "variant": {"key": variant, "name": variant.title()}, "rated": False, "speed": "rapid",
                 "timeControl": {"type": "clock", "limit": minutes * 60, "increment": increment,
                                 "show": "%d+%d" % (minutes, increment)},
                 "color": "random", "finalColor": "white", "perf": {"name": "Rapid"}, "direction": "in"}
            if variant == "chess960":
                c["chess960"] = 518 if chess960 is None else chess960     # (the fake's own: not sent)
            self.challenges[cid] = c
        self._event({"type": "challenge", "challenge": dict((k, v) for k, v in c.items() if k != "chess960")})
        return cid

    def send_raw(self, text, game_id=None):
        """``text`` as it is (a line of any shape, or part of one) on a game's stream, or with no
        ``game_id`` on the event stream."""
        if game_id is None:
            self._event(Raw(text))
            return
        with self.lock:
            listeners = list(self.games[game_id].listeners)
        for listener in listeners:
            self._put(listener, Raw(text))

    def opponent_offers_draw(self, game_id):
        with self.lock:
            g = self.games[game_id]
            if g.color_of(self.user) == "white":
                g.bdraw = True
            else:
                g.wdraw = True
        self._publish(g)

    def opponent_resigns(self, game_id):
        with self.lock:
            g = self.games[game_id]
            g.status, g.winner = "resign", g.color_of(self.user)
        self._publish(g)

    def opponent_declines_draw(self, game_id):
        """The opponent says no to the player's offer (their draw/no): the offer goes from the state."""
        with self.lock:
            g = self.games[game_id]
            g.wdraw = g.bdraw = False
        self._publish(g)

    def opponent_accepts_draw_offer(self, game_id):
        """The opponent says yes to the player's standing offer."""
        with self.lock:
            g = self.games[game_id]
            assert g.wdraw or g.bdraw, "no offer to accept"
            g.status, g.winner = "draw", None
        self._publish(g)

    def opponent_claims_draw(self, game_id):
        """The opponent's draw/yes with the position standing for the third time: drawn (Drawer.yes)."""
        with self.lock:
            g = self.games[game_id]
            assert g.board.is_repetition(3), "no threefold repetition to claim"
            g.status, g.winner = "draw", None
        self._publish(g)

    def clock_to(self, game_id, wtime, btime):
        """Both clocks now hold these ms (the running one counts on from here)."""
        with self.lock:
            g = self.games[game_id]
            g.wtime, g.btime = wtime, btime
            g.last_move_at = time.monotonic()
        self._publish(g)

    def time_out(self, game_id):
        """The flag of the side to move falls: it loses, or draws if the other side cannot mate."""
        with self.lock:
            g = self.games[game_id]
            loser = g.board.turn
            if loser == chess.WHITE:
                g.wtime = 0
            else:
                g.btime = 0
            g.status = "outoftime"
            g.winner = None if g.board.has_insufficient_material(not loser) else ("black" if loser else "white")
        self._publish(g)

    def opponent_claims_victory(self, game_id):
        """The player left the game and the opponent claimed the win (status timeout)."""
        with self.lock:
            g = self.games[game_id]
            g.status = "timeout"
            g.winner = "black" if g.color_of(self.user) == "white" else "white"
        self._publish(g)

    def moves(self, game_id):
        with self.lock:
            return [m.uci() for m in self.games[game_id].board.move_stack]

    # -- the game's logic ---------------------------------------------------------------------

    def _new_game(self, white, black, minutes, increment, rated=False, script=None, gid=None, chess960=None):
        gid = gid or "g%07d" % next(self._ids)        # an accepted challenge's game keeps its id
        speed = "classical" if minutes * 60 + 40 * increment >= 1500 else "rapid" \
            if minutes * 60 + 40 * increment >= 480 else "blitz"
        script = script if script is not None else self.next_script
        g = FakeGame(gid, white, black, minutes, increment, rated, speed, script, chess960)
        self.games[gid] = g
        self._event({"type": "gameStart", "game": g.info(self.user)})
        self._opponent_plays(g)
        return g

    def _apply(self, g, move):
        mover_white = g.board.turn == chess.WHITE
        now = time.monotonic()
        if len(g.board.move_stack) >= 2:
            spent = int((now - g.last_move_at) * 1000)
            if mover_white:
                g.wtime = g.wtime - spent + g.increment_ms
            else:
                g.btime = g.btime - spent + g.increment_ms
        g.last_move_at = now
        g.board.push(move)
        g.wdraw = g.bdraw = False
        outcome = g.board.outcome()                 # the automatic endings (Lichess ends these itself)
        if outcome is None and g.board.halfmove_clock >= 100:
            outcome = chess.Outcome(chess.Termination.FIFTY_MOVES, None)
        if outcome is not None:
            g.status = {chess.Termination.CHECKMATE: "mate", chess.Termination.STALEMATE: "stalemate"}.get(
                outcome.termination, "draw")
            g.winner = None if outcome.winner is None else ("white" if outcome.winner else "black")

    def _opponent_plays(self, g):
        """The opponent's scripted moves, at once, while it is its turn."""
        me = g.color_of(self.user)
        while g.status == "started" and (g.board.turn == chess.WHITE) != (me == "white"):
            ply = len(g.board.move_stack)
            if ply >= len(g.script):
                break
            self._apply(g, chess.Move.from_uci(g.script[ply]))
        self._publish(g)

    # -- plumbing: listeners fed from any thread -------------------------------------------------

    def _put(self, listener, item):
        if self.loop is not None:
            self.loop.call_soon_threadsafe(listener.queue.put_nowait, item)

    def _event(self, line):
        with self.lock:
            listeners = list(self.event_listeners)
        for listener in listeners:
            self._put(listener, line)

    def _publish(self, g):
        with self.lock:
            line = g.state()
            listeners = list(g.listeners)
            over = g.status != "started"
        for listener in listeners:
            self._put(listener, line)
            if over:
                self._put(listener, _CLOSE)
        if over:
            self._event({"type": "gameFinish", "game": g.info(self.user)})

    async def _lines(self, listener, first, on_close):
        try:
            for line in first:
                yield json.dumps(line) + "\n"
            while True:
                try:
                    item = await asyncio.wait_for(listener.queue.get(), self.keepalive)
                except asyncio.TimeoutError:
                    if not listener.stalled:
                        yield "\n"                  # Lichess's keep-alive
                    continue
                if item is _CLOSE:
                    return
                if item is _CUT:
                    raise ConnectionAbortedError("stream cut by the test")
                if not listener.stalled:
                    yield item.text if isinstance(item, Raw) else json.dumps(item) + "\n"
        finally:
            on_close()

    def _stream(self, listener, first, on_close):
        return StreamingResponse(self._lines(listener, first, on_close), media_type="application/x-ndjson")

    # -- the endpoints ---------------------------------------------------------------------------

    def _app(self):
        def guarded(handler, scope="board:play"):
            async def endpoint(request):
                key = "%s %s" % (request.method, request.url.path)
                with self.lock:
                    self.requests.append(key)
                    for fault in self.faults:
                        if fault[2] > 0 and fault[0].search(key):
                            fault[2] -= 1
                            return JSONResponse({"error": "fault %d injected by the test" % fault[1]},
                                                status_code=fault[1])
                auth = request.headers.get("authorization", "")
                token = auth[len("Bearer "):] if auth.startswith("Bearer ") else None
                if scope is not None:
                    if token not in self.tokens:
                        return JSONResponse({"error": "No such token"}, status_code=401)
                    if scope not in self.tokens[token].split(","):
                        return JSONResponse({"error": "Missing scope"}, status_code=403)
                return await handler(request)
            return endpoint

        async def form(request):
            body = (await request.body()).decode()
            if request.headers.get("content-type", "").startswith("application/json"):
                data = json.loads(body or "{}")
                return dict((k, v) for k, v in data.items() if v is not None)
            return dict((k, v[0]) for k, v in parse_qs(body).items())

        async def account(request):
            return JSONResponse({"id": self.user, "username": self.username})

        async def token_test(request):
            tokens = (await request.body()).decode().split(",")
            return JSONResponse(dict((t, {"userId": self.user, "scopes": self.tokens[t], "expires": None}
                                      if t in self.tokens else None) for t in tokens))

        async def events(request):
            listener = _Listener()
            with self.lock:
                first = [{"type": "challenge", "challenge": c} for c in self.challenges.values()]
                first += [{"type": "gameStart", "game": g.info(self.user)} for g in self.games.values()
                          if g.status == "started"]
                self.event_listeners.append(listener)
            return self._stream(listener, first, lambda: self._drop(self.event_listeners, listener))

        async def seek(request):
            params = await form(request)
            try:
                minutes, increment = float(params["time"]), int(params["increment"])
            except (KeyError, ValueError):
                return JSONResponse({"error": "time and increment are required"}, status_code=400)
            if minutes * 60 + 40 * increment < 480:
                return JSONResponse({"error": "Board API seeks are Rapid or Classical"}, status_code=400)
            listener = _Listener()
            with self.lock:
                self.seeks.append({"params": params, "listener": listener})
            return self._stream(listener, [], lambda: self._drop_seek(listener))

        async def challenge_user(request):
            username = request.path_params["username"]
            params = await form(request)
            variant = params.get("variant", "standard")
            if variant not in ("standard", "chess960"):
                return JSONResponse({"error": "variant"}, status_code=400)
            with self.lock:
                cid = "ch%d" % next(self._ids)
                c = {"id": cid, "status": "created", "challenger": {"id": self.user, "name": self.username},
                     "destUser": {"id": username.lower(), "name": username}, "variant": {"key": variant},
                     "rated": str(params.get("rated")).lower() == "true", "direction": "out"}
                if self.friends_accept:
                    limit, inc = int(params.get("clock.limit", 600)), int(params.get("clock.increment", 0))
                    me = {"id": self.user, "name": self.username}
                    them = {"id": username.lower(), "name": username}
                    white, black = (them, me) if params.get("color") == "black" else (me, them)
                    self._new_game(white, black, limit / 60, inc, chess960=self._chess960(params))
                else:
                    self.challenges[cid] = c
            return JSONResponse(c)

        async def challenge_ai(request):
            params = await form(request)
            level = int(params.get("level", 1))
            if not 1 <= level <= 8:
                return JSONResponse({"error": "level 1-8"}, status_code=400)
            with self.lock:
                me = {"id": self.user, "name": self.username}
                ai = {"aiLevel": level}
                white, black = (ai, me) if params.get("color") == "black" else (me, ai)
                g = self._new_game(white, black, int(params.get("clock.limit", 600)) / 60,
                                   int(params.get("clock.increment", 0)), chess960=self._chess960(params))
            return JSONResponse({"id": g.id, "variant": g.variant, "speed": g.speed, "rated": False,
                                 "fen": g.board.fen(), "turns": 0, "source": "ai", "status": {"id": 20, "name": "started"}})

        async def challenge_action(request):
            cid, action = request.path_params["cid"], request.path_params["action"]
            with self.lock:
                c = self.challenges.pop(cid, None)
                if c is None:
                    return JSONResponse({"error": "Challenge not found"}, status_code=404)
                if action == "accept":
                    them = {"id": c["challenger"]["id"], "name": c["challenger"]["name"]}
                    me = {"id": self.user, "name": self.username}
                    self._new_game(them, me, c["timeControl"]["limit"] / 60, c["timeControl"]["increment"], gid=cid,
                                   chess960=c.get("chess960"))
                else:
                    self._event({"type": "challengeDeclined" if action == "decline" else "challengeCanceled",
                                 "challenge": c})
            return JSONResponse({"ok": True})

        def game_of(request, started=False):
            """The user's game named in the path (``started``: and still being played), else None."""
            g = self.games.get(request.path_params["gid"])
            if g is None or g.color_of(self.user) is None or started and g.status != "started":
                return None
            return g

        def no_game():
            return JSONResponse({"error": "No such game"}, status_code=404)

        async def game_stream(request):
            with self.lock:
                g = game_of(request)
                if g is None:
                    return no_game()
                listener = _Listener()
                if g.status == "started":
                    g.listeners.append(listener)
                else:
                    self._put(listener, _CLOSE)
                first = [g.full()]
            return self._stream(listener, first, lambda: self._drop(g.listeners, listener))

        async def move(request):
            with self.lock:
                g = game_of(request)
                if g is None:
                    return no_game()
                uci = request.path_params["move"]
                me = g.color_of(self.user)
                if g.status != "started" or (g.board.turn == chess.WHITE) != (me == "white"):
                    return JSONResponse({"error": "Not your turn, or game already over"}, status_code=400)
                try:
                    mv = g.board.parse_uci(uci)
                except ValueError:
                    return JSONResponse({"error": "Illegal move %s" % uci}, status_code=400)
                if uci in self.refuse:
                    self.refuse.discard(uci)
                    return JSONResponse({"error": "Move %s refused" % uci}, status_code=400)
                self._apply(g, mv)
                self._publish(g)
                self._opponent_plays(g)
            return JSONResponse({"ok": True})

        async def draw(request):
            with self.lock:
                g = game_of(request, started=True)
                if g is None:
                    return no_game()
                me = g.color_of(self.user)
                theirs = g.bdraw if me == "white" else g.wdraw
                if request.path_params["accept"] == "yes":
                    if g.board.is_repetition(3) or theirs or self.opponent_accepts_draw:
                        g.status, g.winner = "draw", None
                    elif me == "white":
                        g.wdraw = True
                    else:
                        g.bdraw = True
                else:
                    g.wdraw = g.bdraw = False
            self._publish(g)
            return JSONResponse({"ok": True})

        async def resign(request):
            with self.lock:
                g = game_of(request, started=True)
                if g is None:
                    return no_game()
                g.status = "resign"
                g.winner = "black" if g.color_of(self.user) == "white" else "white"
            self._publish(g)
            return JSONResponse({"ok": True})

        async def abort(request):
            with self.lock:
                g = game_of(request)
                if g is None or g.status != "started" or len(g.board.move_stack) >= 2:
                    return JSONResponse({"error": "The game can no longer be aborted"}, status_code=400)
                g.status = "aborted"
            self._publish(g)
            return JSONResponse({"ok": True})

        routes = [
            Route("/api/account", guarded(account, scope=None)),
            Route("/api/token/test", guarded(token_test, scope=None), methods=["POST"]),
            Route("/api/stream/event", guarded(events)),
            Route("/api/board/seek", guarded(seek), methods=["POST"]),
            Route("/api/challenge/ai", guarded(challenge_ai), methods=["POST"]),
            Route("/api/challenge/{cid}/{action:str}", guarded(challenge_action), methods=["POST"]),
            Route("/api/challenge/{username}", guarded(challenge_user), methods=["POST"]),
            Route("/api/board/game/stream/{gid}", guarded(game_stream)),
            Route("/api/board/game/{gid}/move/{move}", guarded(move), methods=["POST"]),
            Route("/api/board/game/{gid}/draw/{accept}", guarded(draw), methods=["POST"]),
            Route("/api/board/game/{gid}/resign", guarded(resign), methods=["POST"]),
            Route("/api/board/game/{gid}/abort", guarded(abort), methods=["POST"]),
        ]

        async def lifespan(app):
            self.loop = asyncio.get_running_loop()
            yield

        import contextlib
        return Starlette(routes=routes, lifespan=contextlib.asynccontextmanager(lifespan))

    def _drop(self, listeners, listener):
        with self.lock:
            if listener in listeners:
                listeners.remove(listener)

    def _drop_seek(self, listener):
        with self.lock:
            self.seeks = [s for s in self.seeks if s["listener"] is not listener]


class Served:
    """``fake`` on 127.0.0.1 (any free port) in a thread; ``url`` is its base URL."""

    def __init__(self, fake):
        self.fake = fake
        config = uvicorn.Config(fake.app, host="127.0.0.1", port=0, log_level="critical", lifespan="on",
                                timeout_keep_alive=1)
        self.server = uvicorn.Server(config)
        self.serving = in_thread(self.server, what="the fake Lichess")

    def __enter__(self):
        self.url = "http://127.0.0.1:%d" % self.serving.__enter__()
        return self

    def __exit__(self, *exc):
        with self.fake.lock:              # every stream ends cleanly first: a quiet shutdown
            listeners = self.fake.event_listeners + [s["listener"] for s in self.fake.seeks] + \
                [l for g in self.fake.games.values() for l in g.listeners]
        for listener in listeners:
            self.fake._put(listener, _CLOSE)
        self.serving.__exit__(*exc)
