"""The club page's table of boards: each board's players, plies, last move, clock and result, and
whether it is connected or has gone quiet. Read from each board's view (companion/model.py), never
from its internals or under its lock."""

import time

import chess

QUIET_SECONDS = 6.0       # a board silent this long (connected) shows as quiet on the club page


class BoardRows:
    """The rows, with each board's last move in SAN kept until its moves change."""

    def __init__(self):
        self._sans = {}           # board index -> ((start, ply, last UCI), its SAN)

    def rows(self, boards):
        now = time.monotonic()
        out = []
        for i, board in enumerate(boards):
            view = board.model.view()
            status, headers = view.status or {}, view.headers or {}
            moves = status.get("moves") or []
            connected = board.connected()
            out.append({"board": i + 1, "kind": board.kind, "connected": connected, "problem": board.problem(),
                        "quiet": bool(connected and view.heard is not None and now - view.heard > QUIET_SECONDS),
                        "white": headers.get("White"), "black": headers.get("Black"),
                        "ply": len(moves), "last": self.last_san(i, view.start, moves), "clock": view.clock,
                        "result": status.get("result")})
        return out

    def last_san(self, index, start, moves):
        """The last move of board ``index``'s game in SAN (python-chess, as the page writes moves
        everywhere else), e.g. ``12… Nf6``; UCI for Scacchi Sprint, or a game python-chess cannot read."""
        if not moves:
            return None
        key = (start, len(moves), moves[-1])
        cached = self._sans.get(index)
        if cached is not None and cached[0] == key:
            return cached[1]
        san = moves[-1]
        if start is not None and not start[2]:
            try:
                game = chess.Board(start[1] or chess.STARTING_FEN, chess960=bool(start[4]))
                for uci in moves[:-1]:
                    game.push_uci(uci)
                san = "%d%s %s" % (game.fullmove_number, "." if game.turn == chess.WHITE else "…",
                                   game.san(chess.Move.from_uci(moves[-1])))
            except ValueError:
                san = moves[-1]
        self._sans[index] = (key, san)
        return san
