"""The engine against Stockfish at limited strength: an Elo estimate with its 95 % interval per level.

    python -m host_tools.engine_match [--levels 6] [--elos 1350,1500] [--games 8]
                                      [--nodes N] [--sf-ms 100] [--stockfish PATH]

Debian's ``stockfish`` (apt-get install stockfish; /usr/games/stockfish)
plays with ``UCI_LimitStrength`` and ``UCI_Elo`` (1350 is its minimum in
Stockfish 15/16). Each pairing plays the balanced openings below from both
sides. Our engine runs in this process with ``max_nodes`` = what the RP2040
searches in 10 s per move at the top level: by default each level's own
budget (scacchiera/engine LEVELS, from the emulated RP2040's measured
nodes/s: host_tools/pico_emu/engine_bench.py), or ``--nodes``. Games end by python-chess's
rules (claimed draws included), or as a draw after 200 plies.

The Elo estimate is the maximum-likelihood rating against the opponents'
UCI_Elo (logistic, draws half), its interval from the likelihood's
curvature (+- 1.96 standard errors); with every game lost or won it is a
bound, printed as such.
"""

import argparse
import math
import shutil
import sys

import chess
import chess.engine

from host_tools import _paths  # noqa: F401
from scacchiera.engine import Engine, LEVELS, MAX_LEVEL
from scacchiera.rules import Position

# What the board's loop searches in 10 s on the emulated RP2040 (~230 nodes/s, a node after each
# scan: docs/engine.md): level 6's budget.
RP2040_NODES = LEVELS[MAX_LEVEL][2]
MAX_PLIES = 200

# Balanced openings (a few moves each, equal by common theory), played from both sides.
OPENINGS = (
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "e2e4 e7e6 d2d4 d7d5",
    "d2d4 g8f6 c2c4 g7g6",
    "c2c4 e7e5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",
    "e2e4 e7e5 f1c4 g8f6",
)


def find_stockfish(path=None):
    return path or shutil.which("stockfish") or (shutil.which("/usr/games/stockfish"))


def play_game(engine, stockfish, opening, engine_white, nodes, sf_limit):
    """One game; returns the engine's score (1, 0.5, 0) and the PGN-ish move list."""
    board = chess.Board()
    position = Position()
    for text in opening.split():
        board.push_uci(text)
        position.push(position.parse_uci(text))
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        if (board.turn == chess.WHITE) == engine_white:
            move = engine.best_move(position, max_nodes=nodes)
            text = position.uci(move)
        else:
            text = stockfish.play(board, sf_limit).move.uci()
        board.push_uci(text)
        position.push(position.parse_uci(text))
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5, board
    return (1.0 if outcome.winner == (chess.WHITE if engine_white else chess.BLACK) else 0.0), board


def expected(r, opponent):
    return 1 / (1 + 10 ** ((opponent - r) / 400))


def elo_estimate(results):
    """(rating, low, high, note) from [(opponent_elo, score)], by maximum likelihood."""
    total = sum(s for _, s in results)
    n = len(results)
    if n == 0:
        return None
    lo_elo = min(o for o, _ in results)
    hi_elo = max(o for o, _ in results)
    if total == 0:
        return None, None, lo_elo - 400 * math.log10(2 * n + 1), "all games lost: below"
    if total == n:
        return None, hi_elo + 400 * math.log10(2 * n + 1), None, "all games won: above"

    def gradient(r):
        return sum(s - expected(r, o) for o, s in results)
    a, b = lo_elo - 2000, hi_elo + 2000
    for _ in range(100):
        mid = (a + b) / 2
        if gradient(mid) > 0:
            a = mid
        else:
            b = mid
    r = (a + b) / 2
    k = math.log(10) / 400
    info = sum(k * k * expected(r, o) * (1 - expected(r, o)) for o, _ in results)
    se = 1 / math.sqrt(info)
    return r, r - 1.96 * se, r + 1.96 * se, ""


def format_estimate(est):
    r, low, high, note = est
    if note.startswith("all games lost"):
        return "Elo < %.0f (%s)" % (high, note)
    if note.startswith("all games won"):
        return "Elo > %.0f (%s)" % (low, note)
    return "Elo %.0f, 95 %% interval %.0f..%.0f" % (r, low, high)


def match(levels, elos, games, nodes, sf_ms, stockfish_path, out=print):
    path = find_stockfish(stockfish_path)
    if not path:
        raise SystemExit("stockfish not found: apt-get install stockfish (or --stockfish PATH)")
    sf = chess.engine.SimpleEngine.popen_uci(path)
    summary = {}
    try:
        for level in levels:
            results = []
            for elo in elos:
                sf.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
                points = 0
                for g in range(games):
                    opening = OPENINGS[(g // 2) % len(OPENINGS)]
                    engine = Engine(level, seed=g)
                    score, board = play_game(engine, sf, opening, g % 2 == 0, nodes,
                                             chess.engine.Limit(time=sf_ms / 1000))
                    points += score
                    results.append((elo, score))
                    out("level %d vs SF %d game %d (%s, %s): %s in %d plies"
                        % (level, elo, g + 1, "white" if g % 2 == 0 else "black", opening,
                           {1.0: "win", 0.5: "draw", 0.0: "loss"}[score], board.ply()))
                out("level %d vs SF %d: %.1f / %d" % (level, elo, points, games))
            est = elo_estimate(results)
            summary[level] = est
            out("level %d (%d nodes/move): %s" % (level, nodes or LEVELS[level][2], format_estimate(est)))
    finally:
        sf.quit()
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default=str(MAX_LEVEL), help="comma-separated engine levels")
    ap.add_argument("--elos", default="1350", help="comma-separated Stockfish UCI_Elo values")
    ap.add_argument("--games", type=int, default=4, help="games per level and Elo (even: both colours)")
    ap.add_argument("--nodes", type=int, default=None, help="our max_nodes per move (default: the level's)")
    ap.add_argument("--sf-ms", type=int, default=100, help="Stockfish's time per move (ms)")
    ap.add_argument("--stockfish", default=None)
    args = ap.parse_args(argv)
    match([int(x) for x in args.levels.split(",")], [int(x) for x in args.elos.split(",")],
          args.games, args.nodes, args.sf_ms, args.stockfish)
    return 0


if __name__ == "__main__":
    sys.exit(main())
