"""The club's web server: the club page at ``/``, each board's own page at ``/board/N/`` (the
companion's, unchanged: its files ask for what they need by relative URLs), the club's actions at
``/club/`` (the same WebSocket and ``POST api/act`` a board's page has, on the Club object), and the
live feed at ``/broadcast/round-N.pgn`` and ``/broadcast/current.pgn``.

The feed is public: any relay may GET it, on whatever name it reaches the host by (Guard's
``public``); everything else is guarded as the companion's page is (companion/server.py).
"""

import asyncio
import contextlib
import os

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Mount, Route

from host_tools.companion import server as companion

FEED = "/broadcast/"


async def club_page(request):
    return FileResponse(os.path.join(companion.STATIC, "club.html"),
                        headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


async def round_feed(request):
    """``/broadcast/round-N.pgn`` (or ``current.pgn``): the round's games, the newest the club has."""
    number = request.path_params.get("number")
    if number is not None and not (number.isdigit() and len(number) <= 6):
        return PlainTextResponse("no such round", status_code=404)   # (4,301 digits: int() refused, a 500)
    text = request.app.state.club.round_pgn(None if number is None else int(number))
    if text is None:
        return PlainTextResponse("no such round (yet)", status_code=404)
    return PlainTextResponse(text, media_type="application/x-chess-pgn",
                             headers={"Cache-Control": "no-store", "Access-Control-Allow-Origin": "*"})


def create_club_app(club, port, ladder=None, pairing=None):
    """The ASGI app for ``club`` (host_tools/club/club.py) served on ``port``."""
    boards = [companion.board_app(board, ladder, pairing) for board in club.boards]
    club_api = Starlette(routes=[r for r in companion.ROUTES if r.path in ("/ws", "/api/state", "/api/act")])
    club_api.state.board = club
    club_api.state.pairing = pairing       # a paired phone's page is cut when pairings are revoked (ws)

    def serve_board(index, loop):
        """Board ``index``'s page at /board/N/, its changes followed by the club (a board plugged in
        later is added here too: Starlette reads its routes at every request)."""
        if index == len(boards):
            boards.append(companion.board_app(club.boards[index], ladder, pairing))
            app.router.routes.append(Mount("/board/%d" % (index + 1), app=boards[index]))
        companion.wake_pages(boards[index].state, loop, also=lambda: club.board_changed(index))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        loop = asyncio.get_running_loop()
        companion.wake_pages(club_api.state, loop)
        for i in range(len(boards)):
            serve_board(i, loop)
        for board in club.boards:
            board.start()

        def added(index):
            serve_board(index, loop)
            club.boards[index].start()
        club.on_board_added = added
        club.start()
        try:
            yield
        finally:
            for board in club.boards:
                board.on_change = lambda: None
            club.on_change = lambda: None
            await run_in_threadpool(club.stop)
            for board in club.boards:
                await run_in_threadpool(board.stop)

    static = [r for r in companion.ROUTES if r.path != "/" and r.path in companion.FILES or r.path in companion.VENDOR]
    routes = [Route("/", club_page), Route("/icons.json", companion.display_icons),
              Route("/api/ladder", companion.get_ladder),
              Route(FEED + "current.pgn", round_feed), Route(FEED + "round-{number}.pgn", round_feed),
              Mount("/club", app=club_api)] + static + \
        [Mount("/board/%d" % (i + 1), app=sub) for i, sub in enumerate(boards)]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.club = club
    app.state.ladder = ladder
    return companion.Guard(app, port, pairing, public=(FEED,))


def make_club_server(club, sock, ladder=None, pairing=None):
    """A uvicorn server for ``club`` on the bound socket ``sock`` (as companion.make_server)."""
    return companion.serve_app(create_club_app(club, sock.getsockname()[1], ladder, pairing))
