"""An online game kept: its PGN as Lichess's own export has it, saved to a file, and the game in the
household ladder (host_tools/ladder) as an online one. The board's own archive has its own ending's
tags (the bridge sends ``tags``)."""

import os

import chess
import chess.pgn

from host_tools.companion.lichess_game import result
from host_tools.companion.players import host_date

# The Termination tag of Lichess's own PGN export for each game status (lila's PgnDump): the file saved
# here is Lichess's PGN, so it keeps Lichess's words (the board's archive has its own).
TERMINATIONS = {"created": "Unterminated", "started": "Unterminated", "aborted": "Abandoned", "noStart": "Abandoned",
                "timeout": "Time forfeit", "outoftime": "Time forfeit", "resign": "Normal", "draw": "Normal",
                "stalemate": "Normal", "mate": "Normal", "variantEnd": "Normal",
                "insufficientMaterialClaim": "Insufficient material", "cheat": "Rules infraction",
                "unknownFinish": "Unknown"}


def player_name(player):
    """A player of the game's gameFull as the PGN names them (Lichess's AI by its level)."""
    if player.get("aiLevel"):
        return "Lichess AI level %d" % player["aiLevel"]
    return player.get("name") or player.get("id") or "?"


def tags(g, base_url):
    """The game's PGN tags as Lichess's own PGN has them, but for Result and Termination (the file saved
    here adds Lichess's; the board's archive has its own ending's)."""
    full = g.full or {}
    white, black = full.get("white") or {}, full.get("black") or {}
    out = {"Event": ("Lichess %s game" % (full.get("speed") or "")).replace("  ", " "),
           "Site": "%s/%s" % (base_url.rstrip("/"), g.id),
           "Date": host_date(),
           "White": player_name(white), "Black": player_name(black)}
    for side, player in (("White", white), ("Black", black)):
        if player.get("rating"):
            out[side + "Elo"] = str(player["rating"])
    clock = full.get("clock")
    out["TimeControl"] = "%d+%d" % (clock["initial"] // 1000, clock["increment"] // 1000) if clock else "-"
    return out


def pgn(g, base_url):
    """The whole game as Lichess's export writes it, read by python-chess."""
    game = chess.pgn.Game()
    game.headers.update(tags(g, base_url))
    game.headers["Result"] = result(g)
    game.headers["Termination"] = TERMINATIONS.get(g.status, g.status)
    if g.initial.fen() != chess.STARTING_FEN or g.initial.chess960:
        game.setup(g.initial)                   # (a Chess960 board: [Variant "Chess960"] too)
    node = game
    for uci in g.moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    return str(game)


def save_pgn(g, folder, base_url):
    """The game's PGN in ``folder`` as ``ID.pgn``: its path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "%s.pgn" % g.id)
    with open(path, "w", encoding="utf-8") as f:
        f.write(pgn(g, base_url) + "\n")
    return path


def record_ladder(g, ladder_path):
    """The game in the household ladder as an online game (players named by their Lichess names);
    why not, in the game's message."""
    if ladder_path is None or result(g) == "*":
        return
    from host_tools.ladder.ladder import recorded
    full = g.full or {}
    names = [player_name(full.get("white") or {}), player_name(full.get("black") or {})]

    def act(ladder):
        ladder.add_players(names)
        ladder.record(names[0], names[1], result(g), moves=len(g.moves),
                      resigned=g.status == "resign", abandoned=g.status == "timeout", online=True)
    _, refused = recorded(ladder_path, act)
    if refused:
        g.message = refused
