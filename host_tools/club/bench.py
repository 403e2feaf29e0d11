"""The club's figures (``make bench``; alone: python -m host_tools.club.bench [N ...]): N simulated
boards on one host in real time (each its own firmware, its clock thread running, as ``make sim
SIM_ARGS="--boards N"``), one round of a tournament on them, the live feed served by the club's
server and pushed to the tests' fake Lichess broadcast on loopback.

Measured for each N: a move (the board's firmware commits it) -> the live PGN over HTTP holds it
(polled every 50 ms, as a relay would poll, only faster) and -> a push holding it reached the
fake Lichess; the host's CPU (this process's, per board) with the boards idle and while the hands
play a move on every board in turn (the hands and the poller run in this process too).
"""

import os
import random
import sys
import tempfile
import threading
import time
import urllib.request

import chess

from host_tools import _paths  # noqa: F401
from host_tools.club.club import Club
from host_tools.club.feed import read_games
from host_tools.club.server import make_club_server
from host_tools.companion.boards import SimulatedBoard
from host_tools.companion.server import bind
from host_tools.serving import in_thread

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "lip_benchclubtok1"
POLL_SECONDS = 0.05


def _pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def _moves_in(text):
    """{(White, Black): plies} of a PGN text (one game or many)."""
    return dict(((g.headers["White"], g.headers["Black"]), len(list(g.mainline_moves())))
                for g in read_games(text))


def _hand_move(board, rng):
    """A person's hands, in real time: a random quiet-enough legal move (no castling, promotion or
    en passant: one lift and one put-down, a capture's victim to the tray first)."""
    game = chess.Board(board.model.view().status["fen"])
    moves = [m for m in game.legal_moves if not (game.is_castling(m) or m.promotion or game.is_en_passant(m))]
    if not moves:
        return False
    move = rng.choice(sorted(moves, key=lambda m: m.uci()))
    if game.is_capture(move):
        board.act("lift", {"square": chess.square_name(move.to_square)})
        board.act("tray", {})
        time.sleep(0.06)
    board.act("lift", {"square": chess.square_name(move.from_square)})
    time.sleep(0.06)
    board.act("place", {"square": chess.square_name(move.to_square)})
    return True


def run(n, plies=6, seed=1):
    """The figures for ``n`` boards: a dict."""
    sys.path.append(os.path.join(ROOT, "tests"))
    from fake_broadcast import FakeBroadcasts, served as served_broadcasts
    from host_tools.ladder.ladder import Ladder
    rng = random.Random(seed)
    fake = FakeBroadcasts(token=TOKEN)
    with tempfile.TemporaryDirectory() as tmp, served_broadcasts(fake) as lichess:
        ladder = os.path.join(tmp, "ladder.sqlite3")
        names = ["Player %02d" % i for i in range(2 * n)]
        with Ladder(ladder) as lad:
            for i, name in enumerate(names):
                lad.add_player(name, 1000 + 10 * i)
        boards = [SimulatedBoard() for _ in range(n)]
        committed = {}                    # (board, ply) -> time the firmware made the move
        for i, board in enumerate(boards):
            board.sim.app.listeners.append(
                lambda ev, i=i, b=board: ev.get("kind") == "move" and committed.setdefault(
                    (i, len(b.sim.app.game.position.move_stack)), time.monotonic()))
        club = Club(boards, os.path.join(tmp, "club"), ladder)
        club.broadcast_options = {"base_url": lichess, "token_file": os.path.join(tmp, "token"), "environ": {}}
        sock = bind(0)
        try:
            with in_thread(make_club_server(club, sock, ladder), [sock], "the club's server") as port:
                url = "http://127.0.0.1:%d" % port
                club.act("broadcast", {"op": "token", "token": TOKEN})
                club.act("tournament", {"name": "Bench", "players": names, "rounds": 1})
                club.act("broadcast", {"op": "start"})
                club.act("pair", {})
                rnd = club.tournament.current()
                pairs = dict((g["board"], (club.tournament.name_of(g["white"]), club.tournament.name_of(g["black"])))
                             for g in rnd["games"])
                deadline = time.monotonic() + 60
                while len(club.games.bound) < n:
                    assert time.monotonic() < deadline, "the boards did not start their games"
                    time.sleep(0.05)
                time.sleep(1.0)
                cpu0, wall0 = time.process_time(), time.monotonic()
                time.sleep(3.0)
                idle = (time.process_time() - cpu0) / (time.monotonic() - wall0) / n * 100

                seen_feed = {}                 # (board, ply) -> time the live PGN first held it
                stop = threading.Event()

                def poll():
                    while not stop.is_set():
                        with urllib.request.urlopen(url + "/broadcast/current.pgn", timeout=10) as r:
                            text = r.read().decode("utf-8")
                        now = time.monotonic()
                        counts = _moves_in(text)
                        for number, pair in pairs.items():
                            for ply in range(1, counts.get(pair, 0) + 1):
                                seen_feed.setdefault((number - 1, ply), now)
                        stop.wait(POLL_SECONDS)
                poller = threading.Thread(target=poll, daemon=True)
                poller.start()
                cpu0, wall0 = time.process_time(), time.monotonic()
                for ply in range(1, plies + 1):
                    for i, board in enumerate(boards):
                        while len(board.model.view().status.get("moves") or ()) < ply - 1:
                            time.sleep(0.01)
                        _hand_move(board, rng)
                deadline = time.monotonic() + 30
                while not all((i, plies) in committed for i in range(n)):
                    assert time.monotonic() < deadline, "the moves were not all made"
                    time.sleep(0.05)
                playing = (time.process_time() - cpu0) / (time.monotonic() - wall0) / n * 100
                busy_for = time.monotonic() - wall0
                time.sleep(3.0)
                stop.set()
                poller.join(5)
        finally:
            sock.close()
        pushed = {}
        with fake.lock:
            pushes = list(fake.pushes)
        for _rid, games, at in pushes:
            counts = _moves_in("\n\n".join(games))
            for number, pair in pairs.items():
                for ply in range(1, counts.get(pair, 0) + 1):
                    pushed.setdefault((number - 1, ply), at)
        to_feed = [(seen_feed[k] - t) * 1000 for k, t in committed.items() if k in seen_feed]
        to_push = [(pushed[k] - t) * 1000 for k, t in committed.items() if k in pushed]
        return {"boards": n, "moves": len(committed), "feed_p50": _pct(to_feed, 0.5), "feed_p90": _pct(to_feed, 0.9),
                "feed_max": max(to_feed), "push_p50": _pct(to_push, 0.5), "push_p90": _pct(to_push, 0.9),
                "push_max": max(to_push), "missing": len(committed) - min(len(to_feed), len(to_push)),
                "pushes": len(pushes), "idle_cpu": idle, "playing_cpu": playing,
                "moves_per_s": len(committed) / busy_for}


def main(counts=(1, 4, 8, 16)):
    print("== club: N simulated boards on one host in real time, a move -> live PGN (HTTP, polled every %d ms) "
          "and -> pushed to a fake Lichess broadcast; CPU of this process per board (%d cores, load %.1f)"
          % (POLL_SECONDS * 1000, os.cpu_count(), os.getloadavg()[0]))
    for n in counts:
        f = run(n)
        print("  %2d boards, %3d moves (%.1f/s): -> live PGN p50 %.0f ms p90 %.0f ms max %.0f ms; -> pushed p50 %.0f ms "
              "p90 %.0f ms max %.0f ms (%d pushes); CPU per board idle %.1f%%, playing %.1f%%%s"
              % (f["boards"], f["moves"], f["moves_per_s"], f["feed_p50"], f["feed_p90"], f["feed_max"], f["push_p50"],
                 f["push_p90"], f["push_max"], f["pushes"], f["idle_cpu"], f["playing_cpu"],
                 "; %d moves never seen" % f["missing"] if f["missing"] else ""))
    print("  (targets with 16 boards: live PGN p90 <= 1000 ms, pushed p90 <= 2000 ms)")


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or (1, 4, 8, 16))
