"""The live feed: every game of a round as one PGN, what a Lichess broadcast (or any relay) polls.

A game's record is what the club saw of it on its board: the moves (UCI) and, for each ply, the
mover's clock just after it (``%clk``), taken from the board's ``status`` replies. python-chess
writes the PGN: its headers, its moves from the start position, a ``[%clk h:mm:ss]`` comment
where the clock is known (a ply the host did not see, before a restart of the host, has none).
"""

import io

import chess
import chess.pgn

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera.rules import outcome
from scacchiera.rules.pgn import tag_value


def new_record(fen=None):
    """A game not begun: no moves yet. ``fen``: its start, if not the usual one."""
    return {"fen": fen, "moves": [], "clocks": [], "result": outcome.ONGOING, "termination": None}


def follow(record, status):
    """Bring ``record`` to the board's ``status`` (moves, clock, result): True if it changed. A move
    taken back shortens it; the mover's clock is taken for a ply seen for the first time."""
    moves = list(status.get("moves") or ())
    changed = False
    if moves != record["moves"]:
        keep = 0
        while keep < min(len(moves), len(record["moves"])) and moves[keep] == record["moves"][keep]:
            keep += 1
        clocks = record["clocks"][:keep]
        clock = status.get("clock") or {}
        for ply in range(keep, len(moves)):
            mover = "white" if ply % 2 == 0 else "black"
            known = ply == len(moves) - 1 and isinstance(clock.get(mover), int)
            clocks.append(clock[mover] if known else None)
        record["moves"], record["clocks"] = moves, clocks
        changed = True
    result = status.get("result") or outcome.ONGOING
    if result != record["result"]:
        record["result"], record["termination"] = result, status.get("termination")
        changed = True
    return changed


def read_games(text):
    """The games of a PGN text (one or many), read by python-chess, in order."""
    stream = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return
        yield game


def position_after(record):
    """The FEN after the record's moves (a game moved to another board starts there)."""
    board = chess.Board(record["fen"]) if record["fen"] else chess.Board()
    for uci in record["moves"]:
        board.push_uci(uci)
    return board.fen()


def game_pgn(headers, record, result=None):
    """One game's PGN text: ``headers`` (Event, Round, Board, White ...) in that order, then the moves
    of ``record`` with their clocks; ``result`` (an arbiter's) over the record's own."""
    game = chess.pgn.Game()
    game.headers.clear()
    for name in ("Event", "Site", "Date", "Round"):
        game.headers[name] = tag_value(headers.get(name, "?"))   # escaped: python-chess 1.11 writes values as they are
    for name, value in headers.items():
        if name not in game.headers:
            game.headers[name] = tag_value(value)
    game.headers["Result"] = result or record["result"]
    if record["fen"]:
        game.headers["FEN"] = record["fen"]
        game.headers["SetUp"] = "1"
    board = chess.Board(record["fen"]) if record["fen"] else chess.Board()
    node = game
    for uci, clock in zip(record["moves"], record["clocks"]):
        move = chess.Move.from_uci(uci)
        if not board.is_legal(move):
            break                          # the board's rules and python-chess's never differ (tested)
        board.push(move)
        node = node.add_variation(move)
        if clock is not None:
            node.set_clock(clock / 1000.0)
    tag = outcome.pgn_termination(record["termination"])
    if tag != outcome.PGN_NORMAL and game.headers["Result"] != outcome.ONGOING:
        game.headers["Termination"] = tag                  # as the board's own PGN
    out = io.StringIO()
    game.accept(chess.pgn.FileExporter(out, columns=None))
    return out.getvalue().strip() + "\n"
