"""A change to the engine against the engine before it, until an SPRT decides (host_tools/sprt.py).

    python -m host_tools.engine_sprt BASE [--level 7] [--nodes 18000] [--elo0 0] [--elo1 10]
                                          [--alpha 0.05] [--beta 0.05] [--max-pairs 2000]
                                          [--jobs 1] [--resume LOG]

The engine of this working tree (the candidate) plays the engine of the commit ``BASE`` (its
tree read with ``git archive`` into a temporary folder), both as UCI engines
(``python -m host_tools.uci``, each in its own tree) at the same level and a fixed number of
nodes a move: the budget the board's loop searches, so that a change is judged at the strength
the board plays and not at the host's speed. Game pairs from engine_match's ten openings, both
colours, in turn; both games of a pair have the pair's number as both engines' seed (the book's
choice), so that the two games open alike with the colours reversed.
After each pair the test says its LLR; it stops when the LLR crosses a bound or after
``--max-pairs``. ``--jobs`` plays that many pairs at once, counted in their order. A test needs
hundreds of pairs (a few minutes each), more than a sitting: ``--resume`` continues a stopped test's
log where it stopped (the same pairs as if it had not: a pair's seed is its number), provided the
engine is still the candidate's (``PLAY_FILES``, whose fingerprint the log's first line gives).

The games (PGN, their tags naming both commits) and the test's lines are written to
``data/engine-sprt/`` (one ``.pgn`` and one ``.log`` a test, named by the date and both
commits): kept with the tree, not in docs.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import io
import os
import queue
import re
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
# What makes the engine's moves: a test is continued (--resume) only if none of these changed.
PLAY_FILES = ("firmware/scacchiera/engine", "firmware/scacchiera/rules", "firmware/book.bin", "host_tools/uci.py")


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def commit_name(ref="HEAD", tree=False):
    """A commit's short id; with ``tree``, the working tree's: "+" added when it has changes not
    committed."""
    name = git("rev-parse", "--short", ref)
    if tree and git("status", "--porcelain", "--untracked-files=no"):
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


def engine_print(root=ROOT):
    """The fingerprint of the files that make the engine's moves (``PLAY_FILES`` in ``root``): 12 hex
    digits of their SHA-256, named and in order."""
    digest = hashlib.sha256()
    for name in PLAY_FILES:
        path = os.path.join(root, name)
        files = [path] if not os.path.isdir(path) else sorted(
            os.path.join(folder, f) for folder, _dirs, names in os.walk(path) for f in names if f.endswith(".py"))
        for file in files:
            digest.update(os.path.relpath(file, root).encode() + b"\0")
            with open(file, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()[:12]


def engine_changed(commit):
    """Do the files that make the engine's moves differ between ``commit`` and the working tree?"""
    return subprocess.run(["git", "diff", "--quiet", commit, "--", *PLAY_FILES], cwd=ROOT).returncode != 0


def resumed(log_path, head, base_name, level, nodes):
    """The pair scores of the stopped test in ``log_path``, to be continued by the working tree;
    ValueError unless the test is the same: its base, level and nodes, and a candidate whose
    engine is this one (``PLAY_FILES`` as the log's fingerprint says; a log without one: none of
    them changed since its candidate's commit)."""
    with open(log_path) as f:
        lines = f.read().splitlines()
    header = re.match(r"(\S+) \(candidate, .*\) against (\S+) \(base\), level (\d+) at (\d+) nodes a move"
                      r"(?:, engine files (\w+))?$", lines[0] if lines else "")
    if header is None:
        raise ValueError("%s: not an SPRT log (its first line names the candidate and the base)" % log_path)
    candidate, logged_base, logged_level, logged_nodes, fingerprint = header.groups()
    if (logged_base, int(logged_level), int(logged_nodes)) != (base_name, level, nodes):
        raise ValueError("%s tests %s at level %s, %s nodes: not %s at level %d, %d nodes"
                         % (log_path, logged_base, logged_level, logged_nodes, base_name, level, nodes))
    if fingerprint != engine_print() if fingerprint else candidate.endswith("+") or engine_changed(candidate):
        raise ValueError("%s: the engine of its candidate %s is not the working tree's (%s)"
                         % (log_path, candidate, ", ".join(PLAY_FILES)))
    scores = []
    for line in lines[1:]:
        m = re.match(r"pair (\d+) \(.*\): ([\d.]+) / 2 ", line)
        if m:
            if int(m.group(1)) != len(scores) + 1:
                raise ValueError("%s: pair %s follows pair %d" % (log_path, m.group(1), len(scores)))
            scores.append(float(m.group(2)))
    return scores


def play_pair(candidate, before, pair, nodes):
    """Pair ``pair``'s two games (its opening, the candidate White then Black, the pair's seed):
    (the candidate's points of 2, [both games])."""
    opening = OPENINGS[pair % len(OPENINGS)]
    games = []
    score = 0.0
    for white_is_candidate in (True, False):
        white, black = (candidate, before) if white_is_candidate else (before, candidate)
        game = play(white, black, opening, nodes, pair)     # one seed a pair: its games mirror
        games.append(game)
        score += score_of(game, white_is_candidate)
    return score, games


def run(base, level=MAX_LEVEL, nodes=None, elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05, max_pairs=2000,
        folder=FOLDER, out=print, jobs=1, resume=None):
    """The test: the working tree's engine against ``base``'s, ``jobs`` pairs at once (each with
    its own two engines; the pairs are counted in their order, as one at a time would), or the
    stopped test of the log ``resume`` continued (its files appended to). Returns the Sprt."""
    nodes = nodes or LEVELS[level][2]
    head, base_name = commit_name(tree=True), commit_name(base)
    test = sprt.Sprt(elo0, elo1, alpha, beta)
    if resume:
        stem = resume[:-4] if resume.endswith(".log") else resume
        for score in resumed(stem + ".log", head, base_name, level, nodes):
            test.add(score)
    else:
        os.makedirs(folder, exist_ok=True)
        stem = os.path.join(folder, "%s-%s-vs-%s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M"),
                                                     head, base_name))
    first = len(test.pairs)
    tmp = tempfile.mkdtemp(prefix="scacchiera-base-")
    engines = []
    try:
        checkout(base, tmp)
        idle = queue.Queue()          # (candidate, before): a pair of engines for each job
        for _ in range(max(1, jobs)):
            pair_of_engines = []
            for cwd in (ROOT, tmp):
                engine = chess.engine.SimpleEngine.popen_uci(UCI, cwd=cwd)
                engines.append(engine)
                engine.configure({"Level": level})
                pair_of_engines.append(engine)
            idle.put(pair_of_engines)

        def job(pair):
            candidate, before = idle.get()
            try:
                return play_pair(candidate, before, pair, nodes)
            finally:
                idle.put((candidate, before))

        with open(stem + ".pgn", "a") as pgn, open(stem + ".log", "a") as log:
            def say(line):
                out(line)
                log.write(line + "\n")
                log.flush()
            if resume:
                say("resumed at pair %d by %s (%s), %d at once" % (first + 1, head, ROOT, jobs))
            else:
                say("%s (candidate, %s) against %s (base), level %d at %d nodes a move, engine files %s"
                    % (head, ROOT, base_name, level, nodes, engine_print()))
            with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
                running = {}
                done = {}
                given = counted = first
                while test.state is None and counted < max_pairs:
                    while len(running) < max(1, jobs) and given < max_pairs:
                        running[given] = pool.submit(job, given)
                        given += 1
                    concurrent.futures.wait(running.values(), return_when=concurrent.futures.FIRST_COMPLETED)
                    for pair in [p for p, f in running.items() if f.done()]:
                        done[pair] = running.pop(pair).result()
                    while counted in done and test.state is None:
                        score, games = done.pop(counted)
                        for k, game in enumerate(games):
                            candidate_white = k == 0
                            game.headers.update({"Event": "SPRT %s vs %s" % (head, base_name),
                                                 "Round": str(2 * counted + k + 1),
                                                 "White": head if candidate_white else base_name,
                                                 "Black": base_name if candidate_white else head,
                                                 "Annotator": "level %d, %d nodes a move" % (level, nodes)})
                            pgn.write(str(game) + "\n\n")
                        pgn.flush()
                        test.add(score)
                        counted += 1
                        say("pair %d (%s): %.1f / 2 | %s" % (counted, OPENINGS[(counted - 1) % len(OPENINGS)],
                                                            score, test.describe()))
                for future in running.values():     # decided: the pairs still at play are not counted
                    future.cancel()
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
    ap.add_argument("--jobs", type=int, default=1, help="pairs at once (each with its own two engines)")
    ap.add_argument("--resume", metavar="LOG", help="continue the stopped test of this .log (and its .pgn)")
    args = ap.parse_args(argv)
    test = run(args.base, args.level, args.nodes, args.elo0, args.elo1, args.alpha, args.beta, args.max_pairs,
               args.folder, lambda line: print(line, flush=True), args.jobs, args.resume)
    return {"H1": 0, "H0": 1, None: 2}[test.state]


if __name__ == "__main__":
    sys.exit(main())
