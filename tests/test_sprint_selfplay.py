"""Scacchi Sprint by random self-play, refereed by tests/sprint_checker.py.

Every game is seeded (deck order and move choice). At every *checked* ply the
legal moves, the position string, the check and the outcome must equal the
referee's, which knows the rules only from the seed's text; at every other
ply the move played must still be legal for the referee. Each game is then
replayed from its seed (and some from their PGN) and must come out the same.
The same games are also played under MicroPython and must be identical.
"""

import collections
import os
import random
import subprocess
import sys

import pytest

from mpy_runner import ROOT, needs_micropython, run_micropython
from scacchiera.rules import DROP, KING, ROOK
from scacchiera.rules.sprint import SprintPosition, auto_move, read_pgn
from sprint_checker import Referee

STYLES = ("random", "placer", "mover", "hunter", "castle", "repeat", "hourglass")
FULL_GAMES = 200         # every ply compared with the referee
SAMPLED_GAMES = 240      # every 4th ply (and the last) compared; the rest: the move is legal
FAST_BLOCKS = 3          # of each kind in `make test` (60 games each); the rest in `make test-long`
SLOW_GAMES = 3000        # `make test-long`
MAX_PLIES = 800
TERMINATIONS = collections.Counter()


def choose(rng, style, pos, moves):
    """A move for ``style``: each style leans towards some endings or rules."""
    board = pos.board
    if style == "placer" and rng.random() < 0.7:
        drops = [m for m in moves if m & DROP]
        if drops:
            return rng.choice(drops)
    if style == "mover" and rng.random() < 0.85:
        on_board = [m for m in moves if not m & DROP]
        if on_board:
            return rng.choice(on_board)
    if style == "hunter" and rng.random() < 0.8:
        captures = [m for m in moves if not m & DROP and board[(m >> 7) & 127]]
        if captures:
            return rng.choice(captures)
    if style == "castle":
        castles = [m for m in moves if not m & DROP and board[m & 127] & 7 == KING
                   and abs(((m >> 7) & 127) - (m & 127)) == 2]
        if castles:
            return rng.choice(castles)
        corners = [m for m in moves if m & DROP and (m >> 14) & 7 == ROOK and ((m >> 7) & 127) in (0, 7, 0x70, 0x77)]
        if corners and rng.random() < 0.8:
            return rng.choice(corners)
    if style == "repeat" and pos.deck_left(pos.turn) == 0 and len(pos.move_stack) >= 2 and rng.random() < 0.9:
        last = pos.move_stack[-2]
        if not last & DROP:
            back = ((last >> 7) & 127) | (last & 127) << 7
            if back in moves and not board[(back >> 7) & 127]:
                return back
        quiet = [m for m in moves if not m & DROP and not board[(m >> 7) & 127] and board[m & 127] & 7 != 1]
        if quiet and rng.random() < 0.5:
            return rng.choice(quiet)
    if style == "hourglass" and rng.random() < 0.5:
        return auto_move(pos)
    return rng.choice(moves)


def check_position(pos, ref, where):
    ours = pos.legal_moves()
    legal = ref.legal_moves()
    assert {pos.uci(m) for m in ours} == legal, where + ": differs %s" % sorted(
        {pos.uci(m) for m in ours} ^ legal)
    assert len(ours) == len(legal), where + ": a move generated twice"
    assert pos.fen() == ref.position_string(), where
    assert pos.is_check() == ref.is_check(), where
    assert pos.outcome() == ref.outcome(legal), where
    return ours


def play(seed, style, every=1):
    """Play one game; return (moves, outcome). ``every``: compare fully every n-th ply."""
    rng = random.Random(seed * 7919 + 1)
    pos = SprintPosition(seed=seed)
    ref = Referee(seed)
    while True:
        ply = pos.ply()
        where = "seed %d (%s), ply %d, %s" % (seed, style, ply, pos.fen())
        if ply % every == 0:
            moves = check_position(pos, ref, where)
            outcome = pos.outcome()
        else:
            moves = pos.legal_moves()
            outcome = pos.outcome()
            if outcome is not None:   # the last position is always compared
                check_position(pos, ref, where)
        if outcome is not None or ply >= MAX_PLIES:
            break
        move = choose(rng, style, pos, sorted(moves))
        uci = pos.uci(move)
        if ply % every:
            assert ref.is_legal(uci), where + ": %s is not legal for the referee" % uci
        pos.push(move)
        ref.push(uci)
    return list(pos.move_stack), outcome, pos


def replay(seed, moves):
    pos = SprintPosition(seed=seed)
    for m in moves:
        assert m in pos.legal_moves()
        pos.push(m)
    return pos


def run_game(seed, every):
    style = STYLES[seed % len(STYLES)]
    moves, outcome, pos = play(seed, style, every)
    TERMINATIONS[outcome[1] if outcome else "unfinished"] += 1
    again = replay(seed, moves)
    assert again.fen() == pos.fen() and again.outcome() == outcome, "seed %d" % seed
    if seed % 16 == 0:
        from_pgn = read_pgn(pos.pgn())
        assert from_pgn.fen() == pos.fen() and list(from_pgn.move_stack) == moves, "seed %d" % seed
    return outcome


BLOCK = 20                # games a test item plays (the seed is in every failure's message)


def blocks(start, games):
    """The first seed of each BLOCK of ``games`` from ``start``; past FAST_BLOCKS, make test-long's."""
    return [pytest.param(first, marks=() if i < FAST_BLOCKS else pytest.mark.slow)
            for i, first in enumerate(range(start, start + games, BLOCK))]


@pytest.mark.parametrize("first", blocks(0, FULL_GAMES))
def test_every_ply_matches_the_referee(first):
    for seed in range(first, first + BLOCK):
        run_game(seed, every=1)


@pytest.mark.parametrize("first", blocks(FULL_GAMES, SAMPLED_GAMES))
def test_sampled_plies_match_the_referee(first):
    for seed in range(first, first + BLOCK):
        run_game(seed, every=4)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(30))
def test_thousands_of_games(block):
    per = SLOW_GAMES // 30
    for seed in range(10000 + block * per, 10000 + (block + 1) * per):
        run_game(seed, every=2)


def test_every_ending_occurs():
    """The seeded styles reach each automatic ending (else the bias above is broken)."""
    seen = collections.Counter()
    for seed in range(0, FULL_GAMES + SAMPLED_GAMES, 3):
        style = STYLES[seed % len(STYLES)]
        rng = random.Random(seed * 7919 + 1)
        pos = SprintPosition(seed=seed)
        while pos.outcome() is None and pos.ply() < MAX_PLIES:
            pos.push(choose(rng, style, pos, sorted(pos.legal_moves())))
        o = pos.outcome()
        seen[o[1] if o else "unfinished"] += 1
    for termination in ("checkmate", "stalemate", "insufficient_material", "seventyfive_moves",
                        "fivefold_repetition"):
        assert seen[termination] > 0, dict(seen)
    assert seen["unfinished"] <= len(range(0, FULL_GAMES + SAMPLED_GAMES, 3)) // 20, dict(seen)


def test_a_game_replays_from_its_seed_and_moves_alone():
    moves, outcome, pos = play(4242, "random", every=50)
    text = pos.pgn({"Event": "replay"})
    assert '[Variant "Scacchi Sprint"]' in text and '[Seed "4242"]' in text
    assert read_pgn(text).fen() == pos.fen()
    assert replay(4242, moves).fen() == pos.fen()


# -- the same games under MicroPython ------------------------------------------

MPY_SEEDS = ("1", "2", "3", "77")
MPY_PLIES = "120"


@needs_micropython
def test_micropython_plays_the_same_games_as_cpython():
    script = os.path.join("tests", "mpy", "check_sprint.py")
    mpy = run_micropython(script, MPY_PLIES, *MPY_SEEDS)
    assert mpy.returncode == 0, mpy.stdout[-3000:] + mpy.stderr[-3000:]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware"))
    cpy = subprocess.run([sys.executable, os.path.join(ROOT, script), MPY_PLIES] + list(MPY_SEEDS),
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert cpy.returncode == 0, cpy.stderr[-3000:]
    assert mpy.stdout == cpy.stdout
    lines = cpy.stdout.strip().splitlines()
    assert lines[-1] == "%d passed, 0 failed" % (3 * len(MPY_SEEDS) + 5), lines[-1]
    assert sum(1 for line in lines if line.startswith("game ")) == 2 * len(MPY_SEEDS)
