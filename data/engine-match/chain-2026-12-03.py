"""The ladder of 3 Dec 2026 (docs/engine.md, "The ladder at 18,000 nodes"): steps 1-2 .. 5-6 from the games of
engine-match-ladder-2026-11-28.txt (the runs docs/engine.md's "The ladder again" names for each step), step 6-7
from 20261203T0739-58f9649-ladder-levels6-7.log, chained down from level 7's 1808 against Stockfish.

    python data/engine-match/chain-2026-12-03.py      (from the tree's root)
"""

import math
import re
import sys

sys.path.insert(0, ".")
from host_tools.engine_match import score_difference  # noqa: E402

SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}
GAME = re.compile(r"level (\d) vs (\d) game (\d+) \([^)]*\): (win|draw|loss)")
# The runs of the 28 Nov file behind each step of "The ladder again" (the stronger level: its runs).
RUNS = {2: [7], 3: [4, 5], 4: [3, 5], 5: [3, 5], 6: [1, 5]}
ANCHOR, ANCHOR_LOW, ANCHOR_HIGH = 1808, 1774, 1841      # level 7 at 18,000 nodes against Stockfish

games_of = {}           # (run, stronger level) -> {game: score}
run = None
with open("data/engine-match/engine-match-ladder-2026-11-28.txt") as f:
    for line in f:
        heading = re.match(r"# (\d)\. ", line)
        if heading:
            run = int(heading.group(1))
        found = GAME.match(line)
        if found and run:
            games_of.setdefault((run, int(found.group(1))), {})[int(found.group(3))] = SCORE[found.group(4)]
steps = {}
for strong, runs in RUNS.items():
    games = {}
    for r in runs:
        for g, s in games_of.get((r, strong), {}).items():
            assert g not in games, (strong, g)
            games[g] = s
    assert sorted(games) == list(range(1, 81)), strong
    steps[strong] = score_difference([games[g] for g in sorted(games)])
with open("data/engine-match/20261203T0739-58f9649-ladder-levels6-7.log") as f:
    top = [SCORE[m.group(4)] for m in map(GAME.match, f) if m]
assert len(top) == 80
steps[7] = score_difference(top)
for k in sorted(steps):
    print("step %d-%d: %+.0f (%+.0f..%+.0f), se %.1f" % (k - 1, k, steps[k][0], steps[k][1], steps[k][2], steps[k][3]))
half = (ANCHOR_HIGH - ANCHOR_LOW) / 2
elo, var = ANCHOR, 0.0
print("L7 %d +- %.0f (its own interval against Stockfish)" % (ANCHOR, half))
for k in range(7, 1, -1):
    elo -= steps[k][0]
    var += steps[k][3] ** 2
    print("L%d %.0f +- %.0f (the ladder's steps), +- %.0f (with level 7's own)"
          % (k - 1, elo, 1.96 * math.sqrt(var), math.sqrt(1.96 ** 2 * var + half ** 2)))
