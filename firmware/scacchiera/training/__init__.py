"""Training on the board: puzzles from the flash, a game replayed or guessed, an opening line.

Loaded only when a drill starts (the protocol's ``train``, the display's
menu): the modules, the puzzle file and the line stay off the heap in a game.
``start`` checks everything before it touches the game: a bad request
changes nothing. docs/training.md tells the player's side, docs/protocol.md
the commands.
"""

from ..rules.position import Position
from .drill import Drill, MODES, PUZZLE, REPLAY, OPENING
from .puzzle_file import PuzzleFile, THEMES, NAME, code_of, uci_of

MAX_LINE_PLIES = 600           # a replayed game: 300 moves each (1,200 bytes)
_EVENTS = ("Puzzle", "Replay", "Guess the move", "Opening training")    # MODES' PGN Event tags


def add_line(runner, text):
    """Append UCI moves (words) to the line the next ``train`` plays (``runner.line``, made by the
    first ``line`` command: RAM); ValueError for a bad word or a line too long (nothing added)."""
    codes = bytearray()
    for word in text.split():
        code = code_of(word)
        codes.append(code & 255)
        codes.append(code >> 8)
    pending = getattr(runner, "line", None)
    if pending is None:
        pending = runner.line = bytearray()
    if (len(pending) + len(codes)) // 2 > MAX_LINE_PLIES:
        raise ValueError("a line has at most %d plies" % MAX_LINE_PLIES)
    pending.extend(codes)
    return len(pending) // 2


def find(runner):
    """The drill running (in ``runner.parts``), or None."""
    for part in runner.parts:
        if isinstance(part, Drill):
            return part
    return None


def open_puzzles(runner):
    """The puzzle file the firmware was shipped with; ValueError if the board has none."""
    try:
        f = runner.hw.open_data(NAME)
    except (OSError, AttributeError):
        raise ValueError("no puzzle file on this board (%s)" % NAME)
    try:
        return PuzzleFile(f)
    except ValueError:
        f.close()
        raise


def start(runner, args):
    """The ``train`` command: ``mode`` one of MODES or "stop"; returns the reply's fields."""
    mode = args["mode"]
    running = find(runner)
    if mode == "stop":
        if running is None:
            raise ValueError("no drill is running")
        running.end(runner, "stopped")
        return {}
    if mode not in MODES:
        raise ValueError("mode is one of %s or stop" % ", ".join(MODES))
    game = runner.app.game
    side = args.get("side", "w")
    if side not in ("w", "b"):
        raise ValueError("side is w or b")
    if mode == PUZZLE:
        fen, line, puzzle = _puzzle(runner, args)
    else:
        fen = args.get("fen")
        if args.get("moves"):
            add_line(runner, args["moves"])
        line = getattr(runner, "line", None) or bytearray()
        runner.line = None                 # taken, whether or not the drill starts
        if mode != OPENING and not line:
            raise ValueError("no moves to %s (send them with line, or moves)" % mode)
        puzzle = None
    start_pos = Position.from_fen(fen) if fen else Position()     # ValueError for a bad FEN
    if mode == PUZZLE:
        side = start_pos.turn ^ 1          # the opponent's move comes first
    else:
        side = -1 if mode == REPLAY else (0 if side == "w" else 1)
    _check(start_pos, line)
    if running is not None:
        running.end(runner, "stopped")
    if runner.opponent != "person":
        runner.set_option("opponent", "person")
    game.new_game(fen, variant="chess")
    # The game is archived as any other (storage/archive.py): its Event says what it was.
    runner.journal.tag("Event", "Puzzle " + puzzle[1] if puzzle is not None else _EVENTS[MODES.index(mode)])
    drill = Drill(game, mode, line, side, args.get("seed", 0), puzzle)
    runner.parts.append(drill)
    runner.drill = drill
    fields = {"mode": mode, "plies": len(line) // 2, "side": "wb"[side] if side >= 0 else None}
    if puzzle is not None:
        fields["puzzle"] = puzzle[1]
        fields["puzzle_rating"] = puzzle[2]
    game.emit("drill", state="start", **fields)
    fields["fen"] = game.position.fen()
    return fields


def _puzzle(runner, args):
    """(fen, line, (index, id, rating, count)) of the puzzle asked for: by ``puzzle`` (its index),
    else the one rated nearest ``rating`` (by default the board's puzzle rating) with ``theme``,
    untried first."""
    from .progress import load
    puzzles = open_puzzles(runner)
    try:
        index = args.get("puzzle", -1)
        if index < 0:
            rating, _tried, _won, tried, damaged = load(runner.hw.fs, puzzles.count)
            if damaged:
                runner.protocol.send({"ev": "storage_error", "file": "puzzles.rec",
                                      "message": "the puzzle record failed its check:"
                                      " kept as puzzles.bad, the rating starts again at 1000"})
            theme = args.get("theme")
            if theme is not None and theme not in THEMES:
                raise ValueError("theme is one of %s" % " ".join(THEMES))
            index = puzzles.choose(args.get("rating", rating), THEMES.index(theme) if theme else -1, tried)
            if index < 0:
                raise ValueError("no puzzle has the theme %s" % theme)
        puzzles.read(index)
        return puzzles.fen(), puzzles.codes(), (index, puzzles.puzzle_id, puzzles.rating, puzzles.count)
    finally:
        puzzles.close()


def _check(pos, line):
    """Every move of ``line`` legal in turn from ``pos``; ValueError naming the first that is not."""
    for i in range(len(line) // 2):
        text = uci_of(line[2 * i] | line[2 * i + 1] << 8)
        try:
            pos.push(pos.parse_uci(text))
        except ValueError:
            raise ValueError("ply %d of the line (%s) is not legal there" % (i + 1, text))
