"""The engine against Stockfish at limited strength, and level against level: Elo with 95 % intervals.

    python -m host_tools.engine_match [--levels 7] [--elos 1800] [--games 400] [--jobs 2]
                                      [--nodes N] [--sf-ms 100] [--stockfish PATH] [--first-game N]
    python -m host_tools.engine_match --ladder [--levels 1,2,3,4,5,6] [--games 100] [--anchor 1572]
    python -m host_tools.engine_match --tally LOG [LOG ...]

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
bound, printed as such. ``--jobs`` plays that many games at once (a
Stockfish each). The games (PGN, the commit in their tags) and the lines
printed go to ``data/engine-match/`` (one ``.pgn`` and one ``.log`` a run,
named by the date, the commit and the pairing), kept with the tree, not in
docs; ``--first-game`` continues a run's numbering (its openings and colours), and ``--tally``
sums a run kept in several logs (one stopped, then continued): each pairing's score and each
level's Elo as the match prints them, refused if a game is missing or told twice.

``--ladder`` calibrates the levels against each other, which Stockfish cannot
do below its minimum: each pair of adjacent levels plays ``--games`` games
from the same openings, both colours, the seeds varied with the game (they
vary the book choice and the noise). It prints each step's score for the
stronger level, the Elo difference with its 95 % interval (from the games'
own variance, draws included), and the levels on one scale, chained down
from the top level's Stockfish estimate (``--anchor``); the chained
intervals add the steps' variances.
"""

import argparse
import datetime
import math
import multiprocessing
import os
import re
import shutil
import sys

import chess
import chess.engine
import chess.pgn

from host_tools import _paths  # noqa: F401
from scacchiera.engine import Engine, LEVELS, MAX_LEVEL
from scacchiera.rules import Position

# The top level's budget: what the board's loop searches in 10 s on the emulated RP2040
# (docs/engine.md).
RP2040_NODES = LEVELS[MAX_LEVEL][2]
MAX_PLIES = 200
FOLDER = os.path.join(_paths._ROOT, "data", "engine-match")

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
    """One game; returns the engine's score (1, 0.5, 0) and the final board."""
    def stockfish_move(board, position):
        return stockfish.play(board, sf_limit).move.uci()
    return _play(lambda board, position: position.uci(engine.best_move(position, max_nodes=nodes)),
                 stockfish_move, opening, engine_white)


def _play(ours, theirs, opening, ours_white):
    """A game between two move choosers ``f(board, position) -> uci``: ``ours``' score and the board."""
    board = chess.Board()
    position = Position()
    for text in opening.split():
        board.push_uci(text)
        position.push(position.parse_uci(text))
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        text = (ours if (board.turn == chess.WHITE) == ours_white else theirs)(board, position)
        board.push_uci(text)
        position.push(position.parse_uci(text))
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5, board
    return (1.0 if outcome.winner == (chess.WHITE if ours_white else chess.BLACK) else 0.0), board


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


def elo_of_score(score):
    return -400 * math.log10(1 / score - 1)


def score_difference(scores):
    """(elo, low, high, se_elo) of the first player's game scores: a difference with its 95 % interval.

    The interval is the score's (mean +- 1.96 standard errors, from the games' own variance)
    turned into Elo; a bound is None when it reaches 0 or 1. ``se_elo`` is the delta-method
    standard error in Elo (None at a score of 0 or 1), for chaining steps.
    """
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.25
    se = math.sqrt(var / n)
    low, high = mean - 1.96 * se, mean + 1.96 * se
    elo = elo_of_score(mean) if 0 < mean < 1 else None
    se_elo = se * 400 / (math.log(10) * mean * (1 - mean)) if elo is not None else None
    return (elo, elo_of_score(low) if 0 < low < 1 else None, elo_of_score(high) if 0 < high < 1 else None,
            se_elo)


def format_difference(diff):
    elo, low, high, _ = diff

    def text(x, inf):
        return inf if x is None else "%+.0f" % x
    return "Elo %s, 95 %% interval %s..%s" % (text(elo, "?"), text(low, "-inf"), text(high, "+inf"))


def _series(first, games, play, label, out):
    """Games ``first`` .. ``first + games - 1``: game g from opening g // 2, the engine under test
    (the stronger level) white when g is even; ``play(g, opening, white)`` -> (score, board).
    Says each game; returns the scores and the plies played."""
    scores = []
    plies = 0
    for g in range(first, first + games):
        opening = OPENINGS[(g // 2) % len(OPENINGS)]
        white = g % 2 == 0
        score, board = play(g, opening, white)
        scores.append(score)
        plies += board.ply()
        out(_game_line(label, g, score, board.ply()))
    return scores, plies


def _game_line(label, g, score, plies):
    """Game g's line: its colour and opening (the engine under test white when g is even, opening
    g // 2) and its result for that engine."""
    return "%s game %d (%s, %s): %s in %d plies" % (label, g + 1, "white" if g % 2 == 0 else "black",
                                                   OPENINGS[(g // 2) % len(OPENINGS)],
                                                   {1.0: "win", 0.5: "draw", 0.0: "loss"}[score], plies)


def ladder(levels, games, anchor=None, out=print, first=0):
    """Adjacent levels against each other; returns {level: (elo, half-width)} chained from the top.

    Games ``first`` .. ``first + games - 1``: in game g the stronger level plays white when g
    is even, from opening g // 2; the stronger level's seed is g, the weaker's 1000 + g. A game
    depends on nothing else, so a longer run replays a shorter one's games.
    """
    levels = sorted(levels)
    steps = {}
    for weak, strong in zip(levels, levels[1:]):
        def play(g, opening, white):
            a, b = Engine(strong, seed=g), Engine(weak, seed=1000 + g)
            return _play(lambda board, position: position.uci(a.best_move(position)),
                         lambda board, position: position.uci(b.best_move(position)), opening, white)
        scores, plies = _series(first, games, play, "level %d vs %d" % (strong, weak), out)
        diff = score_difference(scores)
        steps[strong] = diff
        out("step %d-%d: level %d scores %.1f / %d (%.3f; %d wins, %d draws, %d losses; "
            "%.0f plies a game): %s"
            % (weak, strong, strong, sum(scores), games, sum(scores) / games, scores.count(1.0),
               scores.count(0.5), scores.count(0.0), plies / games, format_difference(diff)))
    scale = {}
    top = levels[-1]
    elo, var = (anchor if anchor is not None else 0), 0.0
    scale[top] = (elo, 0.0)
    for weak, strong in reversed(list(zip(levels, levels[1:]))):
        d, _, _, se = steps[strong]
        if d is None:
            out("step %d-%d has no finite difference: the scale stops at level %d" % (weak, strong, strong))
            break
        elo -= d
        var += se * se
        scale[weak] = (elo, 1.96 * math.sqrt(var))
    out("scale (%s): %s" % ("anchored at level %d = %d" % (top, anchor) if anchor is not None
                            else "relative to level %d" % top,
                            ", ".join("L%d %.0f +- %.0f" % (lv, e, h) for lv, (e, h) in sorted(scale.items()))))
    return scale


def match(levels, elos, games, nodes, sf_ms, stockfish_path, out=print, first=0, jobs=1, folder=None):
    """Each level against Stockfish at each UCI_Elo, ``games`` games from game ``first`` on (game g:
    opening g // 2, the engine white when g is even, its seed g), ``jobs`` at once; returns {level:
    Elo estimate}. With a ``folder`` the games (PGN) and the lines said go there."""
    path = find_stockfish(stockfish_path)
    if not path:
        raise SystemExit("stockfish not found: apt-get install stockfish (or --stockfish PATH)")
    record = _Record(folder, levels, elos, nodes, sf_ms, out) if folder else None
    say = record.say if record else out
    summary = {}
    pool = multiprocessing.get_context("spawn").Pool(jobs, _open_stockfish, (path,)) if jobs > 1 else None
    if pool is None:
        _open_stockfish(path)
    try:
        for level in levels:
            results = []
            for elo in elos:
                budget = nodes or LEVELS[level][2]
                tasks = [(level, elo, g, budget, sf_ms, record.commit if record else "")
                         for g in range(first, first + games)]
                label = "level %d vs SF %d" % (level, elo)
                scores = []
                for g, score, plies, pgn in (pool.imap(_match_game, tasks) if pool else map(_match_game, tasks)):
                    say(_game_line(label, g, score, plies))
                    if record:
                        record.game(pgn)
                    scores.append(score)
                results += [(elo, score) for score in scores]
                say("level %d vs SF %d: %.1f / %d" % (level, elo, sum(scores), games))
            est = elo_estimate(results)
            summary[level] = est
            say("level %d (%d nodes/move): %s" % (level, nodes or LEVELS[level][2], format_estimate(est)))
    finally:
        if pool is not None:
            pool.terminate()
        else:
            _close_stockfish()
        if record:
            record.close()
    return summary


_GAME_LINE = re.compile(r"^level (\d+) vs SF (\d+) game (\d+) \(.*\): (win|draw|loss) in \d+ plies$")
_SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def tally(paths, out=print):
    """The games of a match against Stockfish told in the logs ``paths`` (as ``match`` writes
    them): each pairing's score and each level's Elo; {level: Elo estimate}. ValueError when a
    pairing's games are not 1..N, each told once."""
    told = {}                         # (level, elo) -> {game number: score}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = _GAME_LINE.match(line.rstrip("\n"))
                if m:
                    games = told.setdefault((int(m.group(1)), int(m.group(2))), {})
                    number = int(m.group(3))
                    if number in games:
                        raise ValueError("level %s vs SF %s game %d is told twice" % (m.group(1), m.group(2), number))
                    games[number] = _SCORES[m.group(4)]
    summary = {}
    for level in sorted({lv for lv, _ in told}):
        results = []
        for elo in sorted(e for lv, e in told if lv == level):
            games = told[(level, elo)]
            missing = sorted(set(range(1, max(games) + 1)) - set(games))
            if missing:
                raise ValueError("level %d vs SF %d: games %s are missing" % (level, elo, missing[:10]))
            scores = [games[n] for n in sorted(games)]
            out("level %d vs SF %d: %.1f / %d (%d wins, %d draws, %d losses)"
                % (level, elo, sum(scores), len(scores), scores.count(1.0), scores.count(0.5), scores.count(0.0)))
            results += [(elo, score) for score in scores]
        summary[level] = elo_estimate(results)
        out("level %d: %s" % (level, format_estimate(summary[level])))
    return summary


_stockfish = None      # a match's Stockfish in this process (a worker's own when games run at once)


def _open_stockfish(path):
    global _stockfish
    _stockfish = chess.engine.SimpleEngine.popen_uci(path)


def _close_stockfish():
    global _stockfish
    _stockfish.quit()
    _stockfish = None


def _match_game(task):
    """Game g of level against Stockfish at UCI_Elo elo: (g, score, plies, its PGN text), the commit
    in the game's Event."""
    level, elo, g, nodes, sf_ms, commit = task
    _stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
    white = g % 2 == 0
    opening = OPENINGS[(g // 2) % len(OPENINGS)]
    score, board = play_game(Engine(level, seed=g), _stockfish, opening, white, nodes,
                             chess.engine.Limit(time=sf_ms / 1000))
    game = chess.pgn.Game.from_board(board)
    ours, theirs = "Scacchiera level %d (%d nodes)" % (level, nodes), "Stockfish UCI_Elo %d (%d ms)" % (elo, sf_ms)
    outcome = board.outcome(claim_draw=True)
    game.headers.update({"Event": ("engine_match " + commit).strip(), "Round": str(g + 1),
                         "White": ours if white else theirs, "Black": theirs if white else ours,
                         "Result": outcome.result() if outcome is not None else "1/2-1/2"})
    return g, score, board.ply(), str(game)


class _Record:
    """A run's files in the data folder: its lines (.log) and games (.pgn), the commit in their names."""

    def __init__(self, folder, levels, elos, nodes, sf_ms, out):
        from host_tools.engine_sprt import commit_name     # (it imports this module)
        self.commit = commit_name(tree=True)
        os.makedirs(folder, exist_ok=True)
        stem = os.path.join(folder, "%s-%s-levels%s-sf%s" % (
            datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M"), self.commit,
            "_".join(str(x) for x in levels), "_".join(str(x) for x in elos)))
        self.log = open(stem + ".log", "w")
        self.pgn = open(stem + ".pgn", "w")
        self.out = out
        self.say("commit %s: levels %s (%s) against Stockfish UCI_Elo %s at %d ms a move"
                 % (self.commit, ",".join(str(x) for x in levels),
                    "%d nodes a move" % nodes if nodes else "each level's budget", ",".join(str(x) for x in elos),
                    sf_ms))

    def say(self, line):
        self.out(line)
        self.log.write(line + "\n")
        self.log.flush()

    def game(self, pgn):
        self.pgn.write(pgn + "\n\n")
        self.pgn.flush()

    def close(self):
        self.log.close()
        self.pgn.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default=None,
                    help="comma-separated engine levels (default: %d; with --ladder, all)" % MAX_LEVEL)
    ap.add_argument("--elos", default="1350", help="comma-separated Stockfish UCI_Elo values")
    ap.add_argument("--games", type=int, default=4, help="games per level and Elo (even: both colours)")
    ap.add_argument("--nodes", type=int, default=None, help="our max_nodes per move (default: the level's)")
    ap.add_argument("--sf-ms", type=int, default=100, help="Stockfish's time per move (ms)")
    ap.add_argument("--stockfish", default=None)
    ap.add_argument("--ladder", action="store_true",
                    help="adjacent levels against each other (--games each pair), no Stockfish")
    ap.add_argument("--first-game", type=int, default=0,
                    help="games played already: the run goes on from game N + 1, its opening, colours and "
                         "seeds (to extend an earlier run whose log ends at game N)")
    ap.add_argument("--jobs", type=int, default=1, help="games at once (each with its own Stockfish)")
    ap.add_argument("--folder", default=FOLDER, help="where the games and the lines go (against Stockfish)")
    ap.add_argument("--anchor", type=float, default=None,
                    help="--ladder: the top level's Elo on Stockfish's scale, to chain the others from")
    ap.add_argument("--tally", nargs="+", metavar="LOG", help="sum a match's logs (a run stopped and continued)")
    args = ap.parse_args(argv)
    if args.tally:
        try:
            tally(args.tally)
        except ValueError as e:
            raise SystemExit(str(e))
        return 0

    def out(line):
        print(line, flush=True)    # as each game ends: a run cut short still leaves its figures
    if args.levels is None:
        args.levels = ",".join(str(lv) for lv in range(1, MAX_LEVEL + 1)) if args.ladder else str(MAX_LEVEL)
    if args.ladder:
        ladder([int(x) for x in args.levels.split(",")], args.games, args.anchor,
               out=out, first=args.first_game)
        return 0
    match([int(x) for x in args.levels.split(",")], [int(x) for x in args.elos.split(",")],
          args.games, args.nodes, args.sf_ms, args.stockfish, out=out, first=args.first_game, jobs=args.jobs,
          folder=args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
