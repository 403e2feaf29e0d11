"""The board follows the online game: the bridge between Lichess (lichess.py) and the board.

The two games are compared whenever either changes (lichess_game.decide, pure and table-tested):
the board follows the online game, never the other way round, so whatever the link or the hands
did, the board is brought back to Lichess's game (a move taken back with ``undo``, or a new game
from the online position when the board lost its own; the LEDs guide the pieces either way). One
step at a time, the next once the board has answered; the player's move, recognised by the board,
goes to Lichess. The bridge asks the board as Lichess (``by="lichess"``): a refusal is its notice.
"""

import time

import chess

from host_tools.companion import lichess_records
from host_tools.companion.lichess_api import Stop
from host_tools.companion.lichess_game import decide, ended_by_move
from host_tools.companion.lichess_link import Refused
from host_tools.companion.lichess_token import TokenError
from host_tools.companion.model import REPLY_SECONDS
from scacchiera.rules import outcome

SAVED_OPTIONS = ("takeback", "suggest", "clock", "profile")   # the board's, set for the game and restored after
MAX_UNDO = 3                # more moves than this to take back: a new game from the online position instead
END_GRACE = 5.0             # seconds Lichess has to end its game after the board ended its own (draw claims)


class Bridge:
    """The board's side of ``online``'s game (lichess.Lichess): one thread, woken by the board's
    news (its subscription) and the online game's (``wake``)."""

    def __init__(self, board, online):
        self.board = board
        self.online = online
        self._news = board.model.subscribe("lichess")
        self._awaiting = None             # when a board command whose reply is not in yet was sent

    def wake(self):
        """The online game changed (or the client stops): compare the games again."""
        self._news.wake()

    def run(self):
        online = self.online
        while not online.stopped.is_set():
            # Woken by the board's news and the online game's; a quarter of a second at most,
            # for what time alone moves on: the online clock, END_GRACE, a lost reply.
            self._news.wait(0.25)
            try:
                self._reconcile()
            except Stop:
                return
            except Exception as e:            # a bug must not end the game: say it and go on
                online.say("internal error: %s: %s" % (type(e).__name__, e))
                online.stopped.wait(1)

    def _board(self, cmd):
        """A protocol command to the board, as Lichess's (``board.ask``: its reply comes to
        ``_replied``, not found by reading the log): the next comparison waits for it."""
        self._awaiting = time.monotonic()
        if not self._tell(cmd, self._replied):
            self._awaiting = None

    def _tell(self, cmd, on_reply=None):
        """A protocol command to the board, as Lichess's, a refusal said in its notice (never as the
        person's on the page); whether the board took the line."""
        try:
            self.board.ask(cmd, on_reply or self._refused, by="lichess")
            return True
        except ValueError as e:               # boards.ActionError: the board is not connected
            self.online.notice = "the board did not take %s: %s" % (cmd["cmd"], e)
            return False

    def _replied(self, reply):
        """The board's reply to ``_board``'s command (called with the model's lock held)."""
        self._awaiting = None
        self._refused(reply)

    def _refused(self, reply):
        if not reply.get("ok"):
            self.online.notice = "the board refused %s: %s" % (reply.get("re"), reply.get("message") or reply.get("error"))

    def _board_replied(self):
        """Whether the last command's reply came (or is taken as lost after REPLY_SECONDS)."""
        sent = self._awaiting
        if sent is not None and time.monotonic() - sent > REPLY_SECONDS:
            self._awaiting = None
        return self._awaiting is None

    def _reconcile(self):
        """Compare the online game with the board's (lichess_game.decide) and do the one step it says."""
        g = self.online.game
        if g is None or g.full is None or g.phase == "done" or not self._board_replied():
            return
        board = self.board.model.view()
        if board.status is None or board.start is None or board.busy:
            return
        s = dict(board.status)
        step = decide(g, s, g.clock_now(), board.knows("clock") is not False)
        if step is None:
            return
        kind, args = step[0], step[1:]
        if kind == "setup":
            self._setup(g, s)
        elif kind == "resync":
            self._resync(g, *args)
        elif kind == "clocks":
            (white, black, run), = args
            g.clock_sent = (g.board_game, g.clock_version)
            self._board({"cmd": "clock", "white": white, "black": black, "run": run})
        elif kind == "board_ahead":
            self._board_ahead(g, s, *args)
        elif kind in ("show", "unshow", "decline"):
            self._board(dict({"cmd": kind}, **({"uci": args[0]} if args else {})))
        elif kind == "offer_to_board":
            g.offer_told = args[0]
            self._board({"cmd": "offer"})
        elif kind == "offer_online":
            g.my_offer_sent = args[0]
            self.online.act_online("offering a draw", "draw", True)
        elif kind == "end_on_board":
            self._end_on_board(g, s)
        elif kind == "end_online":
            self._end_online(g, s)
        else:
            self._finish(g)

    def _setup(self, g, s):
        """A new game on the board for the online one: takebacks and hints off, the position set."""
        if g.before_game is None:
            options = s.get("options") or {}
            if g.saved_options is None:       # the player's own settings, once (not a resync's)
                g.saved_options = dict((name, options[name]) for name in SAVED_OPTIONS if name in options)
            for name in ("takeback", "suggest"):
                if options.get(name):
                    self._tell({"cmd": "set", "name": name, "value": False})
            g.before_game = s.get("game")
            position = g.position(g.base)
            # Lichess's rules are FIDE's. A Chess960 game always sends its FEN (X-FEN): a start position
            # of it is set up with the LEDs' guide (docs/rules.md, "Chess960").
            cmd = {"cmd": "new", "variant": "chess960" if position.chess960 else "chess", "profile": "fide"}
            if position.fen() != chess.STARTING_FEN or position.chess960:
                cmd["fen"] = position.fen()
            self._board(cmd)
            return
        # The reply to ``new`` is in, and the status asked after it: this is the board's game now
        # (its number stays when the game it replaced had no move). Its time control, and its tags
        # for the board's archive (the clocks' times follow: decide's "clocks").
        g.board_game = s.get("game")
        if (s.get("options") or {}).get("clock") != g.control():
            self._tell({"cmd": "set", "name": "clock", "value": g.control()})
        if self.board.model.knows("tag") is not False:      # an older firmware: its archive has no names
            for name, value in lichess_records.tags(g, self.online.api.base_url).items():    # the result: the board's own ending
                self._tell({"cmd": "tag", "name": name, "value": value})
        g.phase = "play"
        self.online.changed()

    def _resync(self, g, why):
        """The board's game cannot follow by taking moves back: a new game from the online position."""
        g.message = why
        g.base = len(g.moves)
        g.phase = "setup"
        g.before_game = None
        g.sent.clear()
        g.refused.clear()
        self.online.changed()

    def _board_ahead(self, g, s, extra, ply, could_be_mine):
        """The board has moves the online game has not: the player's move goes to Lichess; anything
        else is taken back (the LEDs guide the pieces)."""
        uci = extra[0]
        if could_be_mine and len(extra) == 1 and g.turn_at(ply) == g.color \
                and (s.get("result", "*") == "*" or ended_by_move(s)):
            refused = g.refused.get(ply)
            if refused is not None and refused[0] == uci:
                if g.need_full:
                    return                          # first read the whole game again
                del g.refused[ply]
                g.sent.pop(ply, None)
                g.message = ("Lichess refused the move %s: %s. Take it back: the LEDs show where the pieces go."
                             % (uci, refused[1]))
                self.online.changed()
                return self._board({"cmd": "undo"})
            if g.sent.get(ply) == uci:
                return                              # sent: the stream will show it
            g.sent[ply] = uci
            g.message = None
            try:
                self.online.send_move(g, uci)
                self.online.notice = None
            except Refused as e:
                # Refused, or sent before and the answer lost: the whole game says which.
                g.refused[ply] = (uci, str(e))
                g.need_full = True
                self.online.read_full(g)
            except TokenError:
                g.sent.pop(ply, None)
            self.online.changed()
            return
        if len(extra) > MAX_UNDO or s.get("result", "*") != "*":
            return self._resync(g, "the board's game left the online game: it starts again from the online position")
        g.message = "%s is not the online game's move: take it back (the LEDs show how)" % extra[-1]
        self.online.changed()
        self._board({"cmd": "undo"})

    def _end_online(self, g, s):
        """The board's game ended (a resignation, an agreed draw, a claim) while Lichess's goes on."""
        if g.end_sent_at is not None:
            if time.monotonic() - g.end_sent_at > END_GRACE:
                g.end_sent_at = None
                self._resync(g, "Lichess did not end the game (%s): it goes on from the online position"
                             % (s.get("termination") or "?").replace("_", " "))
            return
        g.end_sent_at = time.monotonic()
        termination = s.get("termination")
        mine = outcome.WHITE_WINS if g.color == "white" else outcome.BLACK_WINS
        if termination == outcome.resignation and s.get("result") != mine:
            self.online.act_online("resigning", "resign")
        elif termination in (outcome.agreement, outcome.threefold_repetition, outcome.fifty_moves):
            self.online.act_online("accepting or claiming the draw", "draw", True)
        # checkmate, stalemate and the automatic draws follow from a move Lichess has: it ends by itself

    def _end_on_board(self, g, s):
        """Lichess's game ended (resignation, time, agreed draw, abort): the board's too."""
        if g.status in ("aborted", "noStart"):
            return self._finish(g)
        loser = {"white": "b", "black": "w"}.get(g.winner)
        status = g.status
        if status in ("outoftime", "timeout") and self.board.model.knows("end") is False:
            status = None                     # an older firmware: a resignation or a draw, the nearest it has
        if status == "outoftime":             # the loser's flag, or a draw: the winner could not mate (FIDE 6.9)
            flagged = loser or ("w" if g.position().turn == chess.WHITE else "b")
            self._board({"cmd": "end", "how": "time", "side": flagged})
        elif status == "timeout" and loser:   # the player left and the opponent claimed the win
            self._board({"cmd": "end", "how": "abandon", "side": loser})
        elif loser:
            self._board({"cmd": "resign", "side": loser})
        elif s.get("claimable"):              # Lichess drew at 50 moves, or on a repetition claimed
            self._board({"cmd": "claim"})
        else:
            self._board({"cmd": "draw"})

    def _finish(self, g):
        """Both games over: the board's options back as they were; the client keeps the game."""
        g.phase = "done"
        for name, value in (g.saved_options or {}).items():
            if value:                         # (takeback, suggest: only a True was turned off)
                self._tell({"cmd": "set", "name": name, "value": value})
        self.online.game_over(g)
