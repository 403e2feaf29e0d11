"""The project's puzzle set as its CSV (Lichess's puzzle columns): read by the page's Train dialog
and the puzzle file's packer, written by the generator (make_puzzles.py). Apart from the generator,
so that reading it loads neither a chess engine nor a process pool."""

import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CSV_PATH = os.path.join(HERE, "puzzles.csv")
FIELDS = ("PuzzleId", "FEN", "Moves", "Rating", "Themes")


def write_csv(puzzles, path=CSV_PATH):
    with open(path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(FIELDS)
        for p in puzzles:
            out.writerow(p)


def read_csv(path=CSV_PATH):
    """[(id, fen, [uci...], rating, [theme...])] as written."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [(r["PuzzleId"], r["FEN"], r["Moves"].split(), int(r["Rating"]), r["Themes"].split()) for r in rows]
