"""A fake Lichess for a club's broadcast, on loopback: the broadcast operations of Lichess's published
API description (lichess-org/api, doc/specs/tags/broadcasts/), the ones host_tools/club/broadcast.py
uses, as berserk 0.14 sends them:

  POST /broadcast/new                        broadcast-new.yaml (broadcastTourCreate): name, description...
                                             (form or JSON) -> {"tour": {id, name, slug, url}, "rounds": []}
  POST /broadcast/{tourId}/new               broadcast-broadcastTournamentId-new.yaml (broadcastRoundCreate):
                                             name -> {"round": {id, name, slug, url}, "tour": {...}, "study": {...}}
  POST /api/broadcast/round/{roundId}/push   broadcast-round-broadcastRoundId-push.yaml (broadcastPush): text/plain
                                             PGN, up to 100 games -> {"games": [{"tags", "moves"} | {"tags", "error"}]}
  GET  /api/broadcast/round/{roundId}.pgn    api-broadcast-round-broadcastRoundId.pgn.yaml: the round's games
  GET  /api/broadcast/{tourId}               broadcast-broadcastTournamentId.yaml (broadcastWithRounds):
                                             {"tour": {...}, "rounds": [{id, name, slug, url}]}

Scope ``study:write`` (401 without a known token, 403 without the scope); ids are 8 letters. A push
replaces the round's games it names (a game is known by its White, Black and Round tags, as the
relay matches them) and keeps every push it took in ``pushes`` for the tests. Faults: ``fail(pattern,
status, times, retry_after)`` answers the next matching requests with ``status`` (429, 503...), with
a ``Retry-After`` header if given; ``cut(pattern, times)`` takes the request (a push is applied, a
round made) and then breaks the connection before the answer ends, as a network failure after the
server did the work; ``refuse[white]`` is the error Lichess gives, inside its 200, for a game of that
White (as lila's relay does for a game it cannot read); ``delete_round(id)`` as its owner would.
"""

import contextlib
import io
import itertools
import json
import re
import string
import threading
import time
from urllib.parse import parse_qs

import chess.pgn
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route

from host_tools.serving import in_thread

MAX_GAMES = 100


def _id(n):
    letters = string.ascii_letters
    return "".join(letters[(n * 7 + i * 13) % len(letters)] for i in range(7)) + letters[n % len(letters)]


class FakeBroadcasts:
    def __init__(self, token="lip_clubtoken123", scopes="study:write"):
        self.tokens = {token: scopes}
        self.lock = threading.RLock()
        self.tours = {}               # id -> {"name", "rounds": [round ids]}
        self.rounds = {}              # id -> {"name", "tour", "games": {(white, black, round): pgn text}}
        self.pushes = []              # (round id, [pgn text of each game], time.monotonic()): every push taken
        self.requests = []            # "METHOD /path" of every request, in order
        self.faults = []              # [pattern, status or "cut", times, Retry-After or None]
        self.refuse = {}              # White's name -> the error a push's answer gives for that game
        self._ids = itertools.count(1)
        self.app = self._app()

    def fail(self, pattern, status, times=1, retry_after=None):
        with self.lock:
            self.faults.append([re.compile(pattern), status, times, retry_after])

    def delete_round(self, rid):
        with self.lock:
            tid = self.rounds.pop(rid)["tour"]
            self.tours[tid]["rounds"].remove(rid)

    def cut(self, pattern, times=1):
        self.fail(pattern, "cut", times)

    def games(self, round_id):
        """The round's games as python-chess reads them, in the order first pushed."""
        with self.lock:
            texts = list(self.rounds[round_id]["games"].values())
        return [chess.pgn.read_game(io.StringIO(t)) for t in texts]

    def _fault(self, key):
        with self.lock:
            self.requests.append(key)
            for fault in self.faults:
                if fault[2] > 0 and fault[0].search(key):
                    fault[2] -= 1
                    return fault
        return None

    def _app(self):
        def guarded(handler):
            async def endpoint(request):
                fault = self._fault("%s %s" % (request.method, request.url.path))
                if fault is not None and fault[1] != "cut":
                    headers = {"Retry-After": str(fault[3])} if fault[3] is not None else {}
                    return JSONResponse({"error": "fault %d injected by the test" % fault[1]},
                                        status_code=fault[1], headers=headers)
                auth = request.headers.get("authorization", "")
                token = auth[len("Bearer "):] if auth.startswith("Bearer ") else None
                if token not in self.tokens:
                    return JSONResponse({"error": "No such token"}, status_code=401)
                if "study:write" not in self.tokens[token].split(","):
                    return JSONResponse({"error": "Missing scope"}, status_code=403)
                response = await handler(request)
                if fault is not None:
                    return _cut()
                return response
            return endpoint

        async def form(request):
            body = (await request.body()).decode()
            if request.headers.get("content-type", "").startswith("application/json"):
                return dict((k, v) for k, v in json.loads(body or "{}").items() if v is not None)
            return dict((k, v[0]) for k, v in parse_qs(body).items())

        async def tour_new(request):
            fields = await form(request)
            if not fields.get("name"):
                return JSONResponse({"error": {"name": ["This field is required"]}}, status_code=400)
            with self.lock:
                tid = _id(next(self._ids))
                self.tours[tid] = {"name": fields["name"], "rounds": []}
            tour = {"id": tid, "name": fields["name"], "slug": "club", "url": "https://lichess.org/broadcast/club/" + tid}
            return JSONResponse({"tour": tour, "rounds": []})

        async def round_new(request):
            tid = request.path_params["tid"]
            fields = await form(request)
            with self.lock:
                if tid not in self.tours:
                    return JSONResponse({"error": "Not found"}, status_code=404)
                rid = _id(next(self._ids))
                self.rounds[rid] = {"name": fields.get("name"), "tour": tid, "games": {}}
                self.tours[tid]["rounds"].append(rid)
            return JSONResponse({"round": {"id": rid, "name": fields.get("name"), "slug": "round",
                                           "url": "https://lichess.org/broadcast/club/round/" + rid},
                                 "tour": {"id": tid, "name": self.tours[tid]["name"]}, "study": {"writeable": True}})

        async def push(request):
            rid = request.path_params["rid"]
            text = (await request.body()).decode("utf-8")
            games = _split(text)
            if rid not in self.rounds:
                return JSONResponse({"error": "Not found"}, status_code=404)
            if len(games) > MAX_GAMES:
                return JSONResponse({"error": "Too many games"}, status_code=400)
            answers = []
            with self.lock:
                for g in games:
                    game = chess.pgn.read_game(io.StringIO(g))
                    tags = dict(game.headers)
                    if game.errors or tags.get("White") in self.refuse:
                        answers.append({"tags": tags, "error": self.refuse.get(tags.get("White")) or str(game.errors[0])})
                        continue
                    self.rounds[rid]["games"][(tags.get("White"), tags.get("Black"), tags.get("Round"))] = g
                    answers.append({"tags": tags, "moves": len(list(game.mainline_moves()))})
                self.pushes.append((rid, games, time.monotonic()))
            return JSONResponse({"games": answers})

        async def export(request):
            rid = request.path_params["rid"]
            with self.lock:
                if rid not in self.rounds:
                    return PlainTextResponse("Not found", status_code=404)
                text = "\n\n".join(self.rounds[rid]["games"].values())
            return PlainTextResponse(text, media_type="application/x-chess-pgn")

        async def tour(request):
            tid = request.path_params["tid"]
            with self.lock:
                if tid not in self.tours:
                    return JSONResponse({"error": "Not found"}, status_code=404)
                rounds = [{"id": rid, "name": self.rounds[rid]["name"], "slug": "round",
                           "url": "https://lichess.org/broadcast/club/round/" + rid} for rid in self.tours[tid]["rounds"]]
                return JSONResponse({"tour": {"id": tid, "name": self.tours[tid]["name"]}, "rounds": rounds})

        routes = [Route("/broadcast/new", guarded(tour_new), methods=["POST"]),
                  Route("/broadcast/{tid}/new", guarded(round_new), methods=["POST"]),
                  Route("/api/broadcast/round/{rid}/push", guarded(push), methods=["POST"]),
                  Route("/api/broadcast/round/{rid}.pgn", export),
                  Route("/api/broadcast/{tid}", guarded(tour))]
        return Starlette(routes=routes)


def _split(text):
    """The games of a pushed PGN: each starts with its tags after a blank line."""
    return [g.strip() for g in re.split(r"\n\s*\n(?=\[Event )", text) if g.strip()]


def _cut():
    """An answer whose connection breaks after its headers: the client sees a dropped connection."""
    async def body():
        yield b"{\"games\": ["
        raise ConnectionAbortedError("connection cut by the test")
    return StreamingResponse(body(), media_type="application/json")


@contextlib.contextmanager
def served(fake):
    """``fake`` on 127.0.0.1 (any free port) in a thread: yields its base URL."""
    server = uvicorn.Server(uvicorn.Config(fake.app, host="127.0.0.1", port=0, log_level="critical",
                                           lifespan="off", timeout_keep_alive=1))
    with in_thread(server, what="the fake Lichess") as port:
        yield "http://127.0.0.1:%d" % port
