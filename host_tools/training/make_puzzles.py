"""Make the board's puzzle set: games played, Stockfish finds the positions with one clearly best line.

    python -m host_tools.training.make_puzzles [--games 1460] [--first 0] [--jobs 2] [--add] [--verify]

then ``python -m host_tools.training.puzzle_file`` packs the CSV into the file the
board reads (firmware/puzzles.bin). The Lichess puzzle database is not
reachable here, so the project makes its own, the way lichess-puzzler does:

1. **Games.** The board's own engine (levels 3-5, its own budgets, the seed
   varied with the game) plays Stockfish limited by nodes (50, 100 or 200
   a move: about as weak, so the games stay close and both sides blunder;
   deterministic with one thread), from the balanced openings of
   engine_match.py, both colours, to the end or 120 plies.
2. **Candidates.** Every position after ply 8 is searched by Stockfish at
   depth ``SCAN_DEPTH`` with two lines. A candidate is the position after a
   blunder: the side to move (the solver) now has a mate in at most 4, or is
   ahead by at least 2 pawns while the second-best move is at least 2 pawns
   worse; the blunder gave away at least 1.5 pawns and the position before it
   was not already won for the solver (at most +5 pawns; no mate).
3. **The line.** A candidate is searched again at depth ``DEPTH`` with two
   lines, Stockfish's table cleared first (so ``--verify``, ``check_line``,
   gets the same answer later). The solver's move must be the only good one (the second best is no
   mate and at least ``GAP`` centipawns worse); Stockfish's best reply
   follows; the solver's next move must again be the only good one; up to 4
   solver moves. A mating line ends with the mate (any mate is accepted on
   the board at that step, so two mates in one do not spoil it); a
   material line ends at the solver's last only-good move.
4. **Rating.** The board's engine tries the line at levels 1 to 6 (seed 0):
   the puzzle is rated at the Elo of the weakest level that finds every
   solver move (docs/engine.md's ladder: 675 ... 1572), plus 30 per solver
   move after the first; a line no level finds is rated 1800 + 30 per move
   after the first. An estimate, not players' results: docs/training.md.
5. **Themes** from the line: mate, mateIn1..4, advantage / crushing (the
   last solver move's score under / from 5 pawns), oneMove / short / long (1, 2, 3+ solver
   moves), sacrifice (the solver's material dips below where it started),
   fork (a solver's piece then attacks two enemy pieces worth more than it,
   or the king and one), promotion, enPassant, quietMove (the first move
   neither captures nor checks), backRankMate.

The CSV is Lichess's puzzle format: ``PuzzleId,FEN,Moves,Rating,Themes``,
the FEN before the blunder and ``Moves`` starting with it (UCI), so the board
shows the blunder for the hands to make, then the solver plays. Positions
seen twice give one puzzle. Each game is independent: ``--jobs`` plays them in
parallel processes; the output is sorted by rating then id, the same for any
``--jobs``.
"""

import argparse
import hashlib
import multiprocessing
import sys

import chess
import chess.engine

from host_tools import _paths  # noqa: F401
from host_tools.engine_match import OPENINGS, find_stockfish
from host_tools.training.puzzle_csv import CSV_PATH, read_csv, write_csv
from scacchiera.engine import Engine, MAX_LEVEL
from scacchiera.rules import Position


SCAN_DEPTH = 6
DEPTH = 14
GAP = 200                 # centipawns the second-best move must be worse
WIN = 200                 # what "ahead" means, centipawns
BEFORE_AT_MOST = 500      # the position before the blunder, for the solver: not yet won
SWING = 150               # what the blunder gave away, at least
MAX_MATE = 4
MAX_SOLVER_MOVES = 4
CRUSHING = 500            # a material line's last score: crushing from here, else advantage
MAX_PLIES = 120
FIRST_PLY = 8
SF_NODES = (50, 100, 200)
ENGINE_LEVELS = (3, 4, 5)
# docs/engine.md, "The levels measured": each level's Elo, chained from level 6's Stockfish figure.
LEVEL_ELO = {1: 675, 2: 857, 3: 1057, 4: 1217, 5: 1381, 6: 1572}
BEYOND = 1800
PER_MOVE = 30
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def material(board, colour):
    """``colour``'s material less the other side's, in pawns."""
    return sum(VALUES[p.piece_type] * (1 if p.color == colour else -1) for p in board.piece_map().values())


def _open(path, hash_mb=32):
    sf = chess.engine.SimpleEngine.popen_uci(path)
    sf.configure({"Threads": 1, "Hash": hash_mb})
    return sf


def _lines(sf, board, depth, fresh=False):
    """Stockfish's two best lines: [(move, score from the side to move's view)], best first.
    ``fresh``: its table and histories cleared first (ucinewgame), so that with one thread the
    answer depends on the position and the depth alone: a line can be checked again (check_line)."""
    infos = sf.analyse(board, chess.engine.Limit(depth=depth), multipv=2, game=object() if fresh else None)
    return [(info["pv"][0], info["score"].relative) for info in infos if info.get("pv")]


def _good(score):
    """A solver's score that wins: a mate, or ``WIN`` centipawns."""
    return score.mate() is not None and score.mate() > 0 or (score.score() or 0) >= WIN


def _only(lines):
    """The best move if it is the only good one here, else None."""
    if not lines or not _good(lines[0][1]):
        return None
    if len(lines) == 1:
        return lines[0][0]
    best, second = lines[0][1], lines[1][1]
    if second.mate() is not None and second.mate() > 0:
        return None
    if best.mate() is None and best.score() - second.score(mate_score=100000) < GAP:
        return None
    return lines[0][0]


# -- 1. games -------------------------------------------------------------------------------------

def play_game(g, sf_path):
    """Game ``g``: the board's engine against Stockfish by nodes; the list of UCI moves."""
    level = ENGINE_LEVELS[g % len(ENGINE_LEVELS)]
    nodes = SF_NODES[(g // len(ENGINE_LEVELS)) % len(SF_NODES)]
    opening = OPENINGS[(g // 2) % len(OPENINGS)].split()
    ours_white = g % 2 == 0
    engine = Engine(level, seed=g + 1)
    board = chess.Board()
    position = Position()
    sf = _open(sf_path, 16)
    try:
        for text in opening:
            board.push_uci(text)
            position.push(position.parse_uci(text))
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            if (board.turn == chess.WHITE) == ours_white:
                text = position.uci(engine.best_move(position))
            else:
                text = sf.play(board, chess.engine.Limit(nodes=nodes)).move.uci()
            board.push_uci(text)
            position.push(position.parse_uci(text))
    finally:
        sf.quit()
    return [m.uci() for m in board.move_stack]


# -- 2. and 3. candidates and their lines ------------------------------------------------------

def candidates(moves, sf):
    """(ply of the blunder) for each position after ply FIRST_PLY that looks like a puzzle."""
    board = chess.Board()
    before = None            # the previous position's best score, its side to move's view
    found = []
    for ply, text in enumerate(moves):
        board.push_uci(text)
        if board.is_game_over():
            break
        lines = _lines(sf, board, SCAN_DEPTH)
        now = lines[0][1] if lines else None
        if ply + 1 >= FIRST_PLY and before is not None and now is not None and _only(lines) is not None:
            was = -before      # the solver's view of the position before the blunder
            if was.mate() is None and was.score() <= BEFORE_AT_MOST and (
                    now.mate() is not None or now.score() - was.score() >= SWING):
                if now.mate() is None or now.mate() <= MAX_MATE:
                    found.append(ply)
        before = now
    return found


def line_of(moves, ply, sf):
    """The puzzle at the blunder ``moves[ply]``: (fen before it, [uci...], score) or None; the
    score is Stockfish's for the solver's last move (centipawns), None for a mate."""
    board = chess.Board()
    for text in moves[:ply]:
        board.push_uci(text)
    fen = board.fen()
    board.push_uci(moves[ply])
    line = [moves[ply]]
    mating = None
    score = None
    for _ in range(MAX_SOLVER_MOVES):
        lines = _lines(sf, board, DEPTH, fresh=True)
        best = _only(lines)
        if best is None:
            break
        if mating is None:
            mating = lines[0][1].mate() is not None
            if mating and lines[0][1].mate() > MAX_MATE:
                return None
        elif mating != (lines[0][1].mate() is not None):
            break
        score = lines[0][1].score()
        board.push(best)
        line.append(best.uci())
        if board.is_checkmate():
            return fen, line, None
        if board.is_game_over():
            break
        reply = _lines(sf, board, DEPTH)
        board.push(reply[0][0])
        line.append(reply[0][0].uci())
    if mating is None or mating:
        return None            # no solver move, or a mate that did not come in 4
    if not _solver_ply(len(line) - 1):
        line.pop()             # ends with the opponent's reply: the solver's last move is the end
    return fen, line, score


def check_line(fen, moves, sf):
    """Whether each solver move of the puzzle is still Stockfish's only good move at ``DEPTH``,
    searched fresh (a mate's last move: any mate). line_of's test, as ``--verify`` and the tests run
    it on the written set."""
    board = chess.Board(fen)
    board.push_uci(moves[0])
    for i in range(1, len(moves), 2):
        move = chess.Move.from_uci(moves[i])
        if i == len(moves) - 1:
            board.push(move)
            if board.is_checkmate():
                return True
            board.pop()
        if _only(_lines(sf, board, DEPTH, fresh=True)) != move:
            return False
        board.push(move)
        if i + 1 < len(moves):
            board.push_uci(moves[i + 1])
    return True


def _solver_ply(i):
    """Whether index ``i`` of a line (0: the blunder) is a solver's move."""
    return i % 2 == 1


# -- 4. rating ------------------------------------------------------------------------------------

def rating(fen, line):
    """The Elo of the weakest level that finds every solver move (any mate at a mating step)."""
    solver_moves = len(line) // 2
    extra = PER_MOVE * (solver_moves - 1)
    for level in range(1, MAX_LEVEL + 1):
        if _solves(Engine(level, seed=0), fen, line):
            return LEVEL_ELO[level] + extra
    return BEYOND + extra


def _solves(engine, fen, line):
    position = Position.from_fen(fen)
    engine.use_book = False
    for i, text in enumerate(line):
        move = position.parse_uci(text)
        if _solver_ply(i):
            found = engine.best_move(position)
            if found != move:
                position.push(found)
                mated = position.is_checkmate()
                position.pop()
                if not (mated and i == len(line) - 1):
                    return False
        position.push(move)
    return True


# -- 5. themes ------------------------------------------------------------------------------------

def themes(fen, line, score=None):
    """The puzzle's themes; ``score``: line_of's (None for a mate)."""
    board = chess.Board(fen)
    board.push_uci(line[0])
    solver = board.turn
    start = material(board, solver)
    first = chess.Move.from_uci(line[1])
    tags = set()
    if not board.is_capture(first) and not board.gives_check(first):
        tags.add("quietMove")
    solver_moves = len(line) // 2
    tags.add("oneMove" if solver_moves == 1 else "short" if solver_moves == 2 else "long")
    lowest = start
    for i, text in enumerate(line[1:], 1):
        move = chess.Move.from_uci(text)
        if _solver_ply(i):
            if move.promotion:
                tags.add("promotion")
            if board.is_en_passant(move):
                tags.add("enPassant")
        board.push(move)
        lowest = min(lowest, material(board, solver))
        if _solver_ply(i) and _forks(board, move.to_square, solver):
            tags.add("fork")
    if board.is_checkmate():
        tags.add("mate")
        tags.add("mateIn%d" % solver_moves)
        king = board.king(not solver)
        back = 0 if (not solver) == chess.WHITE else 7
        if chess.square_rank(king) == back and board.piece_type_at(chess.parse_square(line[-1][2:4])) in (
                chess.ROOK, chess.QUEEN) and chess.square_rank(chess.parse_square(line[-1][2:4])) == back:
            tags.add("backRankMate")
    else:
        tags.add("crushing" if (score or 0) >= CRUSHING else "advantage")
    if lowest < start and not tags & {"oneMove"}:
        tags.add("sacrifice")
    return sorted(tags)


def _forks(board, square, solver):
    """The solver's piece on ``square`` attacks two enemy pieces worth more than it (the king counts)."""
    piece = board.piece_at(square)
    if piece is None or piece.color != solver:
        return False
    worth = VALUES[piece.piece_type]
    hit = 0
    for target in board.attacks(square):
        other = board.piece_at(target)
        if other is not None and other.color != solver and (
                other.piece_type == chess.KING or VALUES[other.piece_type] > worth):
            hit += 1
    return hit >= 2


# -- the whole run ------------------------------------------------------------------------------

def puzzles_of_game(args):
    """Every puzzle of game ``g``: [(id, fen, moves, rating, themes)]."""
    g, sf_path = args
    moves = play_game(g, sf_path)
    sf = _open(sf_path, 64)
    out = []
    try:
        for ply in candidates(moves, sf):
            found = line_of(moves, ply, sf)
            if found is None:
                continue
            fen, line, score = found
            out.append((puzzle_id(fen, line), fen, " ".join(line), rating(fen, line),
                        " ".join(themes(fen, line, score))))
    finally:
        sf.quit()
    return out


def puzzle_id(fen, line, salt=0):
    """5 hex digits of the puzzle's SHA-1 (the board's file keeps 24 bits); ``salt`` > 0 when
    another puzzle has the first one (unique_ids)."""
    text = fen + " " + " ".join(line) + (" %d" % salt if salt else "")
    return hashlib.sha1(text.encode()).hexdigest()[:5]


def unique_ids(puzzles):
    """The puzzles (sorted) with no id twice: a later one that has an earlier one's id gets the id
    of its text salted with 1, 2, ... (20-bit ids: among 600 puzzles two alike is a 1 in 6 chance)."""
    taken = set()
    out = []
    for p in puzzles:
        pid, salt = p[0], 0
        while pid in taken:
            salt += 1
            pid = puzzle_id(p[1], p[2].split(), salt)
        taken.add(pid)
        out.append((pid,) + tuple(p[1:]))
    return out


def make(games, jobs, sf_path, first=0, progress=None, known=()):
    """All the puzzles of games first..first+games-1 and ``known`` ones, one per position, sorted
    by rating then id."""
    seen = {}
    for puzzle in known:
        seen[_key(puzzle)] = puzzle
    work = [(g, sf_path) for g in range(first, first + games)]
    with multiprocessing.Pool(jobs) as pool:
        for i, found in enumerate(pool.imap(puzzles_of_game, work)):
            for puzzle in found:
                seen.setdefault(_key(puzzle), puzzle)
            if progress:
                progress(i + 1, unique_ids(sorted(seen.values(), key=lambda p: (p[3], p[0]))))
    return unique_ids(sorted(seen.values(), key=lambda p: (p[3], p[0])))


def _verified(args):
    puzzle, sf_path = args
    sf = _open(sf_path, 64)
    try:
        return puzzle if check_line(puzzle[1], puzzle[2].split(), sf) else None
    finally:
        sf.quit()


def verify(puzzles, jobs, sf_path):
    """The puzzles whose lines check_line keeps, in their order."""
    with multiprocessing.Pool(jobs) as pool:
        kept = pool.map(_verified, [(p, sf_path) for p in puzzles])
    return [p for p in kept if p is not None]


def _key(puzzle):
    """A position and its blunder: the same puzzle found twice counts once."""
    return " ".join(puzzle[1].split()[:4]) + " " + puzzle[2].split()[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1460)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=CSV_PATH)
    parser.add_argument("--stockfish", default=None)
    parser.add_argument("--add", action="store_true", help="keep the puzzles already in --out")
    parser.add_argument("--verify", action="store_true",
                        help="only check the puzzles in --out again (check_line) and keep those that pass")
    args = parser.parse_args(argv)
    sf_path = find_stockfish(args.stockfish)
    if not sf_path:
        raise SystemExit("Stockfish not found: apt-get install stockfish (or --stockfish PATH)")
    known = [(p[0], p[1], " ".join(p[2]), p[3], " ".join(p[4])) for p in read_csv(args.out)] \
        if args.add or args.verify else ()
    if args.verify:
        kept = verify(known, args.jobs, sf_path)
        write_csv(kept, args.out)
        print("%d of %d puzzles kept (each solver move checked again, searched fresh)" % (len(kept), len(known)))
        return 0
    def progress(done, puzzles):
        print("game %d/%d: %d puzzles so far" % (done, args.games, len(puzzles)), flush=True)
        if done % 10 == 0:
            write_csv(puzzles, args.out)      # a long run stopped keeps what it found

    puzzles = make(args.games, args.jobs, sf_path, args.first, progress, known)
    write_csv(puzzles, args.out)
    print("%d puzzles written to %s" % (len(puzzles), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
