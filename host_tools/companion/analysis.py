"""A past game analysed by a UCI engine, as lichess.org analyses one, and kept with the game.

Every position of the game is evaluated (python-chess's ``chess.engine``); each move is judged
by how much it lowered its side's winning chances, with lichess.org's formulas (its open
source, ``lila``'s ``WinPercent``, ``AccuracyPercent`` and ``Advice``):

- winning chances from a centipawn score: ``2 / (1 + exp(-0.00368208 * cp)) - 1`` (-1..1;
  a mate is 1 or -1), win % = 50 + 50 x chances;
- a move that lowers its side's chances by 0.3 is a blunder (``??``), by 0.2 a mistake (``?``),
  by 0.1 an inaccuracy (``?!``), each with the engine's better move;
- a move's accuracy ``103.1668 x exp(-0.04354 x (win % before - win % after)) - 3.1669``, and a
  side's accuracy the mean of its moves' (lichess.org also weights them by the position's
  volatility: ours is the plain mean, said so on the page).

The analysis is written as the game's PGN with ``[%eval ...]`` comments, the judgements' NAGs
and the better move as a variation, as lichess.org exports an analysed game; ``summary`` reads
the page's figures back from that text, so an analysis saved once is never computed again
(``Analyses``: a folder of such files, one per game, named by the game's text).
"""

import hashlib
import io
import math
import os
import threading

import chess
import chess.engine
import chess.pgn

SECONDS = 0.1                 # the engine's time a position (a 40-move game: about 8 s)
MATE_CP = 1000                # a mate counts as this many centipawns (winning chances +-1)
JUDGEMENTS = ((0.3, "blunder", chess.pgn.NAG_BLUNDER), (0.2, "mistake", chess.pgn.NAG_MISTAKE),
              (0.1, "inaccuracy", chess.pgn.NAG_DUBIOUS_MOVE))
WORDS = {"blunder": "Blunder", "mistake": "Mistake", "inaccuracy": "Inaccuracy"}


def chances(cp):
    """White's winning chances, -1..1, for a score in centipawns from White's side."""
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def win_percent(cp):
    return 50 + 50 * chances(cp)


def move_accuracy(before, after):
    """A move's accuracy from its side's win % before and after it (lichess.org's curve)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, before - after)) - 3.1669))


def white_cp(score):
    """A python-chess PovScore as centipawns from White's side, a mate as +-MATE_CP."""
    return max(-MATE_CP, min(MATE_CP, score.white().score(mate_score=MATE_CP)))


def analyse(pgn, command, seconds=SECONDS, progress=None, cwd=None):
    """The game of ``pgn`` with every position evaluated by the engine ``command`` (a path or an
    argument list, run in ``cwd``): its annotated PGN text. ``progress(done, total)`` after each position."""
    game = chess.pgn.read_game(io.StringIO(pgn))
    if game is None or game.errors:
        raise ValueError("the game cannot be read: %s" % (game.errors[0] if game else "no game"))
    nodes = [game] + list(game.mainline())
    engine = chess.engine.SimpleEngine.popen_uci(command, cwd=cwd)
    try:
        infos = []
        for i, node in enumerate(nodes):
            board = node.board()
            if board.is_game_over():
                infos.append(None)
            else:
                infos.append(engine.analyse(board, chess.engine.Limit(time=seconds)))
            if progress is not None:
                progress(i + 1, len(nodes))
        name = engine.id.get("name", "the engine")
    finally:
        engine.quit()
    return annotate(game, nodes, infos, name)


def _score_after(node, info):
    """White's centipawns after ``node``: the engine's, or the game's end (a mate, a draw)."""
    board = node.board()
    if info is not None:
        return white_cp(info["score"])
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return 0
    return MATE_CP if outcome.winner == chess.WHITE else -MATE_CP


def annotate(game, nodes, infos, engine_name):
    """The PGN text of ``game`` with an ``[%eval]`` after each move, and each judged move's NAG,
    words and better move (a variation)."""
    game.headers["Annotator"] = engine_name
    if infos and infos[0] is not None and "score" in infos[0]:
        game.set_eval(infos[0]["score"])      # the start position's, for the graph's first point
    scores = [_score_after(node, info) for node, info in zip(nodes, infos)]
    for i in range(1, len(nodes)):
        node, parent = nodes[i], nodes[i - 1]
        judged = _judge(scores[i - 1], scores[i], parent.board().turn)
        best = (infos[i - 1] or {}).get("pv", [None])[0]
        if judged is not None and best is not None and best != node.move:
            word, nag = judged
            node.nags.add(nag)
            node.comment = "%s. %s was best." % (WORDS[word], parent.board().san(best))
            parent.add_variation(best)
        info = infos[i]
        if info is not None and "score" in info:
            node.set_eval(info["score"])     # (the game's end has none, as lichess.org exports it)
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter)


def _judge(before, after, white_moved):
    """(judgement, NAG) of a move that took White's centipawns from ``before`` to ``after``, or None."""
    drop = chances(before) - chances(after)
    if not white_moved:
        drop = -drop
    for limit, word, nag in JUDGEMENTS:
        if drop >= limit:
            return word, nag
    return None


def summary(annotated):
    """What the page shows of an annotated PGN: White's win % after the start and each move, each
    side's accuracy, the judged moves with the better one, the engine's name."""
    game = chess.pgn.read_game(io.StringIO(annotated))
    nodes = [game] + list(game.mainline())
    cps = [white_cp(game.eval()) if game.eval() is not None else 0]
    for node in nodes[1:]:
        score = node.eval()
        cps.append(white_cp(score) if score is not None else _score_after(node, None))
    wins = [round(win_percent(cp), 1) for cp in cps]
    accuracy = {"white": [], "black": []}
    marks = []
    for i in range(1, len(nodes)):
        parent = nodes[i - 1]
        white_moved = parent.board().turn == chess.WHITE
        before, after = (wins[i - 1], wins[i]) if white_moved else (100 - wins[i - 1], 100 - wins[i])
        accuracy["white" if white_moved else "black"].append(move_accuracy(before, after))
        nags = nodes[i].nags
        for _limit, word, nag in JUDGEMENTS:
            if nag in nags:
                better = [v.move for v in parent.variations[1:]]
                marks.append({"ply": i, "judgement": word, "san": parent.board().san(nodes[i].move),
                              "best": parent.board().san(better[0]) if better else None})
    return {"win": wins, "cp": cps, "marks": marks, "engine": game.headers.get("Annotator"),
            "accuracy": {side: round(sum(a) / len(a), 1) if a else None for side, a in accuracy.items()}}


class Analyses:
    """The analyses made on this computer, kept in ``folder`` (one annotated PGN per game, named by
    the hash of the game's text), so that a game is analysed once. ``runs`` counts the analyses
    computed (the tests' witness that an opened game is not analysed twice)."""

    def __init__(self, folder, command, seconds=SECONDS, cwd=None):
        self.folder = folder
        self.command = command
        self.cwd = cwd
        self.seconds = seconds
        self.runs = 0
        self._busy = set()
        self._lock = threading.Lock()

    def _path(self, pgn):
        return os.path.join(self.folder, hashlib.sha256(pgn.encode("utf-8")).hexdigest()[:32] + ".pgn")

    def saved(self, pgn):
        """The game's analysis (``summary``'s, with its PGN), or None if it was never made."""
        try:
            with open(self._path(pgn), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None
        return dict(summary(text), pgn=text)

    def start(self, pgn, done, progress):
        """Analyse ``pgn`` in a thread: ``progress(done, total)`` as it goes, then ``done(analysis)``
        (``saved``'s) or ``done({"error": ...})``. False if this game's analysis is running already."""
        with self._lock:
            if pgn in self._busy:
                return False
            self._busy.add(pgn)

        def run():
            try:
                text = analyse(pgn, self.command, self.seconds, progress, self.cwd)
                os.makedirs(self.folder, exist_ok=True)
                tmp = self._path(pgn) + ".tmp"
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, self._path(pgn))       # a power cut leaves the old file or the new one
                self.runs += 1
                done(dict(summary(text), pgn=text))
            except (ValueError, OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                done({"error": "the analysis failed: %s" % e})
            finally:
                with self._lock:
                    self._busy.discard(pgn)

        threading.Thread(target=run, name="analysis", daemon=True).start()
        return True
