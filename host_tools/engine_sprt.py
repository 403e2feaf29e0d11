"""A change to the engine against the engine before it, until an SPRT decides (host_tools/sprt.py).

    python -m host_tools.engine_sprt BASE [--level 7] [--nodes 18000] [--elo0 0] [--elo1 10]
                                          [--alpha 0.05] [--beta 0.05] [--max-pairs 2000]

The engine of this working tree (the candidate) plays the engine of the commit ``BASE`` (its
tree read with ``git archive`` into a temporary folder), both as UCI engines
(``python -m host_tools.uci``, each in its own tree) at the same level and a fixed number of
nodes a move: the budget the board's loop searches, so that a change is judged at the strength
the board plays and not at the host's speed. Game pairs from engine_match's ten openings, both
colours, in turn; both games of a pair have the pair's number as both engines' seed (the book's
choice), so that the two games open alike with the colours reversed.
After each pair the test says its LLR; it stops when the LLR crosses a bound or after
``--max-pairs``.

The games (PGN, their tags naming both commits) and the test's lines are written to
``data/engine-sprt/`` (one ``.pgn`` and one ``.log`` a test, named by the date and both
commits): kept with the tree, not in docs.
"""

import argparse
import datetime
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

import chess
import chess.engine
import chess.pgn

from host_tools import sprt
from host_tools.engine_match import MAX_PLIES, OPENINGS
from scacchiera.engine import LEVELS, MAX_LEVEL

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "data", "engine-sprt")
UCI = [sys.executable, "-m", "host_tools.uci"]


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def commit_name(ref="HEAD"):
    """A commit's short id; the working tree's gets "+" when it has changes not committed."""
    name = git("rev-parse", "--short", ref)
    if ref == "HEAD" and git("status", "--porcelain", "--untracked-files=no"):
        name += "+"
    return name


def checkout(ref, folder):
    """The tree of commit ``ref`` into ``folder`` (git archive: no worktree left behind)."""
    data = subprocess.run(["git", "archive", "--format=tar", ref], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")


def play(white, black, opening, nodes, seed):
    """One game between two UCI engines at ``nodes`` a move: its PGN game (python-chess's
    rules end it, claimed draws included, or a draw after MAX_PLIES plies)."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    for engine in (white, black):
        engine.configure({"Seed": seed})
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = white if board.turn == chess.WHITE else black
        board.push(engine.play(board, chess.engine.Limit(nodes=nodes)).move)
    game = chess.pgn.Game.from_board(board)
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome is not None else "1/2-1/2"
    return game


def score_of(game, white):
    """The points of the side that played White (``white``) or Black in ``game``."""
    points = {"1-0": 1.0, "0-1": 0.0}.get(game.headers["Result"], 0.5)
    return points if white else 1.0 - points


def run(base, level=MAX_LEVEL, nodes=None, elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05, max_pairs=2000,
        folder=FOLDER, out=print):
    """The test: the working tree's engine against ``base``'s. Returns the Sprt."""
    nodes = nodes or LEVELS[level][2]
    head, base_name = commit_name(), commit_name(base)
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, "%s-%s-vs-%s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M"),
                                                 head, base_name))
    test = sprt.Sprt(elo0, elo1, alpha, beta)
    tmp = tempfile.mkdtemp(prefix="scacchiera-base-")
    engines = []
    try:
        checkout(base, tmp)
        candidate = chess.engine.SimpleEngine.popen_uci(UCI, cwd=ROOT)
        engines.append(candidate)
        before = chess.engine.SimpleEngine.popen_uci(UCI, cwd=tmp)
        engines.append(before)
        for engine in engines:
            engine.configure({"Level": level})
        with open(stem + ".pgn", "w") as pgn, open(stem + ".log", "w") as log:
            def say(line):
                out(line)
                log.write(line + "\n")
                log.flush()
            say("%s (candidate, %s) against %s (base), level %d at %d nodes a move"
                % (head, ROOT, base_name, level, nodes))
            for pair in range(max_pairs):
                opening = OPENINGS[pair % len(OPENINGS)]
                score = 0.0
                for white_is_candidate in (True, False):
                    g = 2 * pair + (0 if white_is_candidate else 1)
                    white, black = (candidate, before) if white_is_candidate else (before, candidate)
                    game = play(white, black, opening, nodes, pair)     # one seed a pair: its games mirror
                    game.headers.update({"Event": "SPRT %s vs %s" % (head, base_name), "Round": str(g + 1),
                                         "White": head if white_is_candidate else base_name,
                                         "Black": base_name if white_is_candidate else head,
                                         "Annotator": "level %d, %d nodes a move" % (level, nodes)})
                    pgn.write(str(game) + "\n\n")
                    pgn.flush()
                    score += score_of(game, white_is_candidate)
                test.add(score)
                say("pair %d (%s): %.1f / 2 | %s" % (pair + 1, opening, score, test.describe()))
                if test.state is not None:
                    break
    finally:
        for engine in engines:
            engine.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    return test


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base", help="the commit the change is tested against (e.g. HEAD, main~1)")
    ap.add_argument("--level", type=int, default=MAX_LEVEL)
    ap.add_argument("--nodes", type=int, default=None, help="nodes a move (default: the level's budget)")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max-pairs", type=int, default=2000)
    ap.add_argument("--folder", default=FOLDER, help="where the games and the log go")
    args = ap.parse_args(argv)
    test = run(args.base, args.level, args.nodes, args.elo0, args.elo1, args.alpha, args.beta, args.max_pairs,
               args.folder, lambda line: print(line, flush=True))
    return {"H1": 0, "H0": 1, None: 2}[test.state]


if __name__ == "__main__":
    sys.exit(main())
