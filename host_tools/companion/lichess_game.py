"""One Lichess game as its stream tells it, and the pure rule that keeps the board on it.

``decide(game, status, clock_times, knows_clock)`` compares the online game with the board's
(its ``status``) and says the one thing to do next: a table of cases, tested as one
(tests/test_lichess_reconcile.py). lichess_bridge.Bridge does what it says.
"""

import datetime
import time

import chess

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from scacchiera.rules import outcome

LIVE = ("created", "started")


class OnlineGame:
    """One Lichess game as the stream tells it, and how far the board follows it."""

    def __init__(self, game_id, color):
        self.id = game_id
        self.color = color                # "white" or "black": the board's player
        self.full = None                  # the gameFull line (players, clock, initial FEN)
        self.initial = chess.Board()
        self.moves = []                   # UCI, castling as e1g1 (python-chess)
        self.status = "started"
        self.winner = None
        self.clock = {"white": None, "black": None, "running": None}
        self.clock_at = time.monotonic()
        self.offer = None                 # "white"/"black": who offers a draw now
        self.phase = "setup"              # setup -> play -> done
        self.board_game = None            # the board's game number that follows this one
        self.before_game = None
        self.base = 0                     # plies of the online game before the board's game started
        self.saved_options = None         # the board's takeback/suggest before the game, restored after
        self.sent = {}                    # ply -> uci sent to Lichess
        self.refused = {}                 # ply -> (uci, reason): Lichess refused it
        self.need_full = False            # a refused move waits for the whole state to be read again
        self.offer_told = None            # the ply at which the opponent's offer went to the board
        self.my_offer_sent = None
        self.my_offer_seen = None         # the ply at which Lichess showed the player's offer
        self.clock_version = 0            # counts the stream's clock updates
        self.clock_sent = None            # (board game, clock_version) last set on the board's clocks
        self.end_sent_at = None
        self.message = None
        self.recorded = None              # where the PGN went

    def turn_at(self, ply):
        white = (self.initial.turn == chess.WHITE) == (ply % 2 == 0)
        return "white" if white else "black"

    def opponent(self):
        if not self.full:
            return None
        other = self.full.get("black" if self.color == "white" else "white") or {}
        if other.get("aiLevel"):
            return "Lichess AI level %d" % other["aiLevel"]
        return other.get("name") or other.get("id") or "?"

    def set_state(self, st):
        """A gameState (or gameFull's state): moves, clocks, status, draw offers."""
        position = self.initial.copy(stack=False)
        moves = []
        for uci in (st.get("moves") or "").split():
            move = position.parse_uci(uci)        # e1h1 (king to rook) becomes e1g1 in standard chess
            moves.append(move.uci())
            position.push(move)
        self.moves = moves
        self.status = st.get("status", self.status)
        self.winner = st.get("winner")
        self.offer = "white" if st.get("wdraw") else "black" if st.get("bdraw") else None
        if self.offer == self.color:
            self.my_offer_seen = len(moves)
        running = None
        if self.status in LIVE and len(moves) >= 2:
            running = "white" if position.turn == chess.WHITE else "black"
        self.clock = {"white": _ms(st.get("wtime")), "black": _ms(st.get("btime")), "running": running}
        self.clock_at = time.monotonic()
        self.clock_version += 1

    def clock_now(self):
        """(white ms, black ms, running "w"/"b"/"-") now: the stream's times, the running one counted down."""
        c = self.clock
        if c["white"] is None or c["black"] is None:
            return None
        spent = int((time.monotonic() - self.clock_at) * 1000)
        white = max(0, c["white"] - spent) if c["running"] == "white" else c["white"]
        black = max(0, c["black"] - spent) if c["running"] == "black" else c["black"]
        return white, black, (c["running"] or "-")[0]

    def control(self):
        """The game's clock as the board's time control "M+S" (its whole minutes: Lichess's 15 s, 30 s...
        count as 1; the exact times come with ``clock``), or "off" for a game without a clock."""
        clock = (self.full or {}).get("clock")
        if not clock:
            return "off"
        minutes = min(180, max(1, -(-int(clock.get("initial", 0)) // 60000)))
        return "%d+%d" % (minutes, min(60, int(clock.get("increment", 0)) // 1000))

    def position(self, plies=None):
        board = self.initial.copy(stack=False)
        for uci in self.moves[:plies]:
            board.push_uci(uci)
        return board

    def describe(self):
        clock = dict(self.clock)
        clock["age_ms"] = int((time.monotonic() - self.clock_at) * 1000)
        return {"id": self.id, "color": self.color, "opponent": self.opponent(), "moves": list(self.moves),
                "status": self.status, "winner": self.winner, "clock": clock, "offer": self.offer,
                "phase": self.phase, "message": self.message, "rated": bool((self.full or {}).get("rated")),
                "speed": (self.full or {}).get("speed"), "pgn_file": self.recorded}


def _ms(value):
    if value is None:
        return None
    if isinstance(value, datetime.timedelta):
        return int(value.total_seconds() * 1000)
    return int(value)



def decide(g, s, clock_times=None, knows_clock=True):
    """The next step for the board to follow the online game ``g`` (an OnlineGame, in phase setup or
    play), given the board's ``status`` ``s``; ``clock_times`` is ``g.clock_now()``. A tuple:

    ("setup",)                         a new game on the board for the online one
    ("resync", why)                    the board's game cannot follow: a new one from the online position
    ("clocks", (w, b, run))            Lichess's times onto the board's clocks
    ("board_ahead", extra, ply, mine)  the board has moves Lichess has not (the player's, or to take back)
    ("show", uci)                      light the online game's next move on the board
    ("unshow",)                        a lit move the online game no longer needs
    ("offer_to_board", ply)            the opponent's draw offer, onto the board
    ("offer_online", ply)              the player's offer (made on the board), to Lichess
    ("decline",)                       an offer Lichess no longer has, off the board
    ("end_on_board",)                  Lichess ended the game: the board ends it too
    ("end_online",)                    the board ended the game: Lichess is told (resign, draw)
    ("finish",)                        both ended: the game is recorded
    None                               nothing to do
    """
    if g.phase == "setup":
        return ("setup",)
    if s.get("game") != g.board_game:
        return ("resync", "the board started another game: it goes back to the online game")
    live = g.status in LIVE
    board_over = s.get("result", "*") != "*"
    clock = s.get("clock")
    if live and not board_over and clock is not None and clock_times is not None and knows_clock \
            and not (clock.get("host") and g.clock_sent == (g.board_game, g.clock_version)):
        return ("clocks", clock_times)
    online = g.moves[g.base:]
    on_board = list(s.get("moves") or ())
    k = 0
    while k < min(len(online), len(on_board)) and online[k] == on_board[k]:
        k += 1
    if len(on_board) > k:
        return ("board_ahead", on_board[k:], g.base + k, k == len(online) and live)
    if len(on_board) < len(online) and (live or ended_by_last_move(g.position())):
        nxt = online[len(on_board)]       # (a mate, a stalemate...: its last move is made on the board too)
        if board_over:
            return ("resync", "the board's game ended before the online game's moves were made")
        return ("show", nxt) if s.get("show") != nxt else None
    # The board has the online game's moves (or the online game ended by resignation, time or
    # agreement while the opponent's last move was still lit: the board ends without it).
    if s.get("show") and not board_over:
        return ("unshow",)
    mine = "w" if g.color == "white" else "b"
    if live and not board_over:
        opponent_offers = g.offer is not None and g.offer != g.color
        if opponent_offers and g.offer_told != len(g.moves) and not s.get("offer"):
            return ("offer_to_board", len(g.moves))
        if s.get("offer") == mine and g.my_offer_sent != len(g.moves):
            return ("offer_online", len(g.moves))
        # An offer Lichess had at this ply and has no more (declined, or withdrawn): off the board too.
        told = g.my_offer_seen if s.get("offer") == mine else g.offer_told
        if s.get("offer") and g.offer is None and told == len(g.moves):
            return ("decline",)
        return None
    if not live and not board_over:
        return ("end_on_board",)
    if live and board_over:
        return ("end_online",)
    return ("finish",)


def result(g):
    if g.status in LIVE or g.status in ("aborted", "noStart"):
        return outcome.ONGOING
    return {"white": outcome.WHITE_WINS, "black": outcome.BLACK_WINS}.get(g.winner, outcome.DRAW)


def ended_by_last_move(board):
    """Whether Lichess ended the game by itself with its last move (scalachess: mate, stalemate, and
    Board.autoDraw: insufficient material, fivefold repetition, the fifty-move rule)."""
    return board.is_game_over() or board.halfmove_clock >= 100


def ended_by_move(s):
    """Whether the board's game (its ``status``) ended by its last move, as Lichess's would by itself."""
    return s.get("termination") in outcome.BY_THE_MOVES
