"""Whole moves as a person's hands make them on the simulated board (device.py's SimBoard): the page's
taps and drags, the computer's announced moves, a piece the board asks for put back, made of the
board's touches (lift, place, the tray, the spares) in simulated time."""

from host_tools.sim.pieces import CAPTURE_GAP_MS, SimError, piece_letter as _piece_letter
from scacchiera.rules.squares import (KING, PAWN, PIECE_SYMBOLS, from_square, is_drop, promotion, square_name,
                                      to_square)
from scacchiera.tracking.tracker import LIFTED, PENDING

SETTLE_STEPS = 100    # 20 ms steps a whole move waits for the one before it to settle


class WholeMoves:
    """The whole moves of a SimBoard: it has ``lock``, ``app``, ``runner``, ``pieces``, ``hand``,
    ``hand_from``, ``tray``, ``spares`` and the touches ``lift``, ``place``, ``_take_off``, ``wait``."""

    def play(self, uci):
        """The hands make a whole move as a person's hands make it: a capture's victim off to the
        tray first (en passant's too), the piece lifted (unless the hand holds it already) and put
        down, a promotion's new piece from beside the board (the pawn goes to the spares), a
        castling's rook after its king. SimError if ``uci`` is not a legal move here."""
        with self.lock:
            for _ in range(SETTLE_STEPS):     # a move just put down settles first: the game has it then
                state = self.app.game.tracker.state
                if state != PENDING and (state != LIFTED or self.hand):
                    break
                self.wait(20)
            pos = self.app.game.position
            move = -1
            for text in (uci, uci + "q"):            # a pawn tapped onto the last rank: a queen
                try:
                    candidate = pos.parse_uci(text)
                except (ValueError, IndexError, TypeError):
                    continue
                if not is_drop(candidate) and candidate in pos.legal_moves():
                    move = candidate
                    break
            if move < 0:
                raise SimError("not a legal move here: %r" % (uci,))
            fr, to = from_square(move), to_square(move)
            piece, target = pos.piece_at(fr), pos.piece_at(to)
            kind, own = piece & 7, target and (target >> 3) == (piece >> 3)
            if self.hand and self.hand_from != fr:
                raise SimError("the hand holds a piece from elsewhere: put it down first")
            if kind == PAWN and (fr ^ to) & 7 and not target:       # en passant: the victim beside
                self._take_off(to - 8 if pos.turn == 0 else to + 8)
            if not self.hand:
                self.lift(square_name(fr))
                self.wait(CAPTURE_GAP_MS)
            if own:                                                 # castling as king takes rook
                self.place(square_name(to))
                return
            promoted = promotion(move)
            if promoted:
                letter = PIECE_SYMBOLS[promoted]
                letter = letter.upper() if pos.turn == 0 else letter
                pawn, self.hand, self.hand_from = self.hand, "", None
                self.spares.append(pawn)
                self.place(square_name(to), letter)
            else:
                self.place(square_name(to))
            if kind == KING and abs((fr & 7) - (to & 7)) == 2:      # castling: the rook follows its king
                rank = fr & ~7
                rook_fr, rook_to = (rank + 7, rank + 5) if to & 7 == 6 else (rank, rank + 3)
                self.wait(CAPTURE_GAP_MS)
                self.lift(square_name(rook_fr))
                self.wait(CAPTURE_GAP_MS)
                self.place(square_name(rook_to))

    def hand_square(self):
        """The square the piece in the hand was lifted from (its name), or None."""
        return square_name(self.hand_from) if self.hand_from is not None else None

    def fill(self, name):
        """The hands put on square ``name`` the piece the game has there, which the board asks for
        (a takeback, a piece put back): the piece in the hand, one beside the board, or one that
        stands where the game has something else. SimError if the game wants no piece there."""
        with self.lock:
            sq = self.square(name)
            pos = self.app.game.position
            code = pos.piece_at(sq)
            if not code or self.pieces[sq]:
                raise SimError("the game has no piece for %s to put there" % name)
            letter = _piece_letter(code)
            if self.hand == letter:
                self.place(name)
                return
            if self.hand:
                raise SimError("the hand holds another piece: put it down first")
            if letter in self.tray or letter in self.spares:
                self.place(name, letter)
                return
            for other in range(64):
                standing = pos.piece_at(other)
                if self.pieces[other] == letter and (not standing or _piece_letter(standing) != letter):
                    self.lift(square_name(other))
                    self.wait(CAPTURE_GAP_MS)
                    self.place(name)
                    return
            raise SimError("no %s to put on %s" % (letter, name))

    def destinations(self):
        """The squares the piece in the hand may go to, by the rules (the firmware's), when it was
        lifted from a board in step with the game and it is its side's move; [] otherwise."""
        game = self.app.game
        pos = game.position
        fr = self.hand_from
        if fr is None or not self.hand or game.result is not None:
            return []
        code = pos.piece_at(fr)
        if not code or _piece_letter(code) != self.hand or (code >> 3) != pos.turn:
            return []
        for sq in range(64):
            standing = pos.piece_at(sq)
            if sq != fr and self.pieces[sq] != (_piece_letter(standing) if standing else ""):
                return []              # the board is not in step: the lights say what to fix
        return sorted(set(square_name(to_square(m)) for m in pos.legal_moves()
                          if not is_drop(m) and from_square(m) == fr))

    def others_move(self):
        """The move the board has lit for the hands on the other side's behalf (the computer's,
        the board's engine's, a drill's opponent's), as UCI; None when there is none or when it is
        the person's to make (a drill's solution, shown after a wrong move)."""
        game = self.app.game
        pos = game.position
        move = game.tracker.required
        if move < 0 or game.result is not None or not game.in_sync() or self.hand:
            return None
        drill = self.runner.drill
        if drill is not None and not drill.over:      # a replay (side -1): the person makes every move
            return pos.uci(move) if drill.side >= 0 and pos.turn != drill.side else None
        return pos.uci(move) if pos.turn == game.machine else None
