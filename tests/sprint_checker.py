"""An independent referee for Scacchi Sprint, written from the seed's text (host tests only).

It shares no code with ``scacchiera.rules``. python-chess moves the pieces
(ordinary moves, castling, en passant, promotion, check); everything Sprint
adds is written again here from seeds/004 and the choices in docs/sprint.md,
in the plainest form rather than the fastest:

- the decks: the PRNG and the shuffle exactly as docs/sprint.md states them;
- the draw: at the start of each turn the player to move takes the top tile;
- placements: every tile in hand on every free square of its zone, with the
  bishop-colour and queen-turn limits, each one *tried* on a board copy and
  kept only if the player's own king is then not attacked;
- castling: the referee remembers which squares hold a piece that has not
  moved since it came onto the board (set-up or placement); a right exists
  when the king and that rook are both such pieces on their classic squares;
- game end: checkmate and stalemate from the full legal set, dead material
  counted over board, hands and decks, 75 moves, fivefold repetition counted
  over the whole game (not bounded by the halfmove clock).
"""

import chess

MASK = (1 << 30) - 1
SALT_WHITE_DECK = 0x1B873593
SALT_BLACK_DECK = 0x0C2B2AE3
DECK = [chess.PAWN] * 6 + [chess.KNIGHT] * 2 + [chess.BISHOP] * 2 + [chess.ROOK] * 2 + [chess.QUEEN]
HAND_ORDER = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]
TILES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


# -- the documented PRNG and shuffle ------------------------------------------

def _step(x):
    x ^= (x << 13) & MASK
    x ^= x >> 17
    x ^= (x << 5) & MASK
    return x


class DocRng:
    def __init__(self, seed, salt=0, n=0):
        self.x = self.stir((seed ^ salt) & MASK)
        if n:
            self.x = self.stir(self.x ^ (n & MASK))

    @staticmethod
    def stir(x):
        for _ in range(8):
            x = _step(x)
            x ^= (x % 2 ** 15) * (x // 2 ** 15)
        return x or 0x2545F491

    def below(self, n):
        self.x = _step(self.x)
        return self.x % n


def deck_for(seed, color):
    """The deck of ``color`` (chess.WHITE / chess.BLACK), top tile first."""
    rng = DocRng(seed, SALT_WHITE_DECK if color == chess.WHITE else SALT_BLACK_DECK)
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# -- the referee ----------------------------------------------------------

class Referee:
    """One Sprint game, kept by the seed's rules. Moves are UCI strings ("e2e4", "N@c3")."""

    def __init__(self, seed, profile="fide"):
        self.seed = seed
        self.profile = profile
        self.pieces = {chess.E1: chess.Piece(chess.KING, chess.WHITE),
                       chess.E2: chess.Piece(chess.PAWN, chess.WHITE),
                       chess.E8: chess.Piece(chess.KING, chess.BLACK),
                       chess.E7: chess.Piece(chess.PAWN, chess.BLACK)}
        self.turn = chess.WHITE
        self.turn_number = 1
        self.halfmove = 0
        self.ep = None
        self.hands = {chess.WHITE: {t: 0 for t in TILES}, chess.BLACK: {t: 0 for t in TILES}}
        self.hands[chess.WHITE][chess.PAWN] = 1
        self.hands[chess.BLACK][chess.PAWN] = 1
        self.decks = {chess.WHITE: deck_for(seed, chess.WHITE), chess.BLACK: deck_for(seed, chess.BLACK)}
        # Squares whose piece has not moved since it came onto the board.
        self.unmoved = {chess.E1, chess.E8}
        self.bishop_colours = {chess.WHITE: set(), chess.BLACK: set()}
        self._board = None
        self.explicit_decks = {chess.WHITE: False, chess.BLACK: False}   # set-up positions only
        self.draw()
        self.history = [self.key()]

    # -- state ----------------------------------------------------------

    def draw(self):
        deck = self.decks[self.turn]
        if deck:
            self.hands[self.turn][deck.pop(0)] += 1

    def castling_rights(self):
        bb = 0
        for color, king_sq, rooks in ((chess.WHITE, chess.E1, (chess.H1, chess.A1)),
                                      (chess.BLACK, chess.E8, (chess.H8, chess.A8))):
            if king_sq not in self.unmoved or self.pieces.get(king_sq) != chess.Piece(chess.KING, color):
                continue
            for rook_sq in rooks:
                if rook_sq in self.unmoved and self.pieces.get(rook_sq) == chess.Piece(chess.ROOK, color):
                    bb |= chess.BB_SQUARES[rook_sq]
        return bb

    def board(self):
        """The chess side of the position as a python-chess board (a fresh copy)."""
        if self._board is None:
            self._board = self._make_board()
        return self._board.copy(stack=False)

    def _make_board(self):
        b = chess.Board(None)
        b.set_piece_map(self.pieces)
        b.turn = self.turn
        b.castling_rights = self.castling_rights()
        b.ep_square = self.ep
        b.halfmove_clock = self.halfmove
        b.fullmove_number = self.turn_number
        return b

    def king_unmoved(self, color):
        king_sq = chess.E1 if color == chess.WHITE else chess.E8
        return king_sq in self.unmoved and self.pieces.get(king_sq) == chess.Piece(chess.KING, color)

    def key(self):
        b = self.board()
        return (b.board_fen(), self.turn, b.castling_rights, b.ep_square if b.has_legal_en_passant() else None,
                tuple(sorted(self.hands[chess.WHITE].items())), tuple(sorted(self.hands[chess.BLACK].items())),
                tuple(self.decks[chess.WHITE]), tuple(self.decks[chess.BLACK]),
                frozenset(self.bishop_colours[chess.WHITE]), frozenset(self.bishop_colours[chess.BLACK]),
                self.king_unmoved(chess.WHITE), self.king_unmoved(chess.BLACK))

    # -- legal moves ------------------------------------------------------

    def placement_allowed(self, piece_type, square):
        """The seed's placement rules, before the question of check."""
        color = self.turn
        if square in self.pieces:
            return False
        rank = chess.square_rank(square) + 1
        if piece_type == chess.PAWN:
            ok = 2 <= rank <= 4 if color == chess.WHITE else 5 <= rank <= 7
        else:
            ok = rank <= 4 if color == chess.WHITE else rank >= 5
        if not ok:
            return False
        if piece_type == chess.BISHOP:
            colour = "light" if chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES else "dark"
            if colour in self.bishop_colours[color]:
                return False
        if piece_type == chess.QUEEN and self.turn_number < 8:
            return False
        return True

    def legal_moves(self):
        b = self.board()
        moves = {m.uci() for m in b.legal_moves}
        color = self.turn
        king = b.king(color)
        for piece_type in TILES:
            if not self.hands[color][piece_type]:
                continue
            for square in chess.SQUARES:
                if not self.placement_allowed(piece_type, square):
                    continue
                b.set_piece_at(square, chess.Piece(piece_type, color))
                safe = not b.is_attacked_by(not color, king)
                b.remove_piece_at(square)
                if safe:
                    moves.add(chess.piece_symbol(piece_type).upper() + "@" + chess.square_name(square))
        return moves

    def is_legal(self, uci):
        """Is this one move legal? (The same rules as legal_moves(), for a single move.)"""
        if "@" not in uci:
            return self.board().is_legal(chess.Move.from_uci(uci))
        piece_type = chess.Piece.from_symbol(uci[0]).piece_type
        square = chess.parse_square(uci[2:])
        if not self.hands[self.turn][piece_type] or not self.placement_allowed(piece_type, square):
            return False
        b = self.board()
        b.set_piece_at(square, chess.Piece(piece_type, self.turn))
        return not b.is_attacked_by(not self.turn, b.king(self.turn))

    def is_check(self):
        return self.board().is_check()

    # -- playing ----------------------------------------------------------

    def push(self, uci):
        """Play a move (the caller has checked it is in legal_moves()), then the next player draws."""
        color = self.turn
        if "@" in uci:
            piece_type = chess.Piece.from_symbol(uci[0]).piece_type
            square = chess.parse_square(uci[2:])
            self.pieces[square] = chess.Piece(piece_type, color)
            self.hands[color][piece_type] -= 1
            self.unmoved.add(square)
            if piece_type == chess.BISHOP:
                light = bool(chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES)
                self.bishop_colours[color].add("light" if light else "dark")
            self.halfmove = 0          # docs/sprint.md: a placement resets the clock
            self.ep = None
        else:
            b = self.board()
            move = chess.Move.from_uci(uci)
            zeroing = b.is_zeroing(move)
            rook_from = None
            if b.is_castling(move):
                rook_from = chess.H1 if chess.square_file(move.to_square) == 6 else chess.A1
                if color == chess.BLACK:
                    rook_from ^= 0x38
            b.push(move)
            self.pieces = b.piece_map()
            self.ep = b.ep_square
            for sq in (move.from_square, move.to_square, rook_from):
                self.unmoved.discard(sq)
            self.halfmove = 0 if zeroing else self.halfmove + 1
        if color == chess.BLACK:
            self.turn_number += 1
        self.turn = not color
        self._board = None
        self.explicit_decks = {chess.WHITE: False, chess.BLACK: False}   # set-up positions only
        self.draw()
        self.history.append(self.key())

    # -- game end ---------------------------------------------------------

    def dead_material(self):
        """Can the material on the board, in the hands and in the decks never mate?"""
        material = {chess.WHITE: [], chess.BLACK: []}
        bishop_squares = []     # colours of bishops, fixed or possible: list of sets
        for square, piece in self.pieces.items():
            if piece.piece_type == chess.KING:
                continue
            material[piece.color].append(piece.piece_type)
            if piece.piece_type == chess.BISHOP:
                bishop_squares.append({"light" if chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES else "dark"})
        for color in (chess.WHITE, chess.BLACK):
            to_come = [t for t in TILES for _ in range(self.hands[color][t])] + list(self.decks[color])
            material[color] += [t for t in to_come if t != chess.BISHOP]
            # Bishops still to come: each must take a colour its side has not used yet.
            left = {"light", "dark"} - self.bishop_colours[color]
            placeable = min(to_come.count(chess.BISHOP), len(left))
            if placeable == 1:
                bishop_squares.append(left)              # the player picks, if both are left
            elif placeable == 2:
                bishop_squares += [{"light"}, {"dark"}]  # one on each colour
            material[color] += [chess.BISHOP] * placeable
        everything = material[chess.WHITE] + material[chess.BLACK]
        if any(t in (chess.PAWN, chess.ROOK, chess.QUEEN) for t in everything):
            return False
        if not everything:
            return True
        if len(everything) == 1:
            return True       # a lone knight or bishop cannot mate
        if chess.KNIGHT not in everything:
            # Bishops only: dead exactly when all of them stand (or must stand) on one colour.
            if all(len(s) == 1 for s in bishop_squares) and len(set.union(*bishop_squares)) == 1:
                return True
        if self.profile == "casual":
            w = "".join(sorted("N" if t == chess.KNIGHT else "B" for t in material[chess.WHITE]))
            k = "".join(sorted("N" if t == chess.KNIGHT else "B" for t in material[chess.BLACK]))
            return (w, k) in {("N", "N"), ("B", "N"), ("N", "B"), ("B", "B"), ("NN", ""), ("", "NN")}
        return False

    def outcome(self, legal=None):
        if legal is None:
            legal = self.legal_moves()
        check = self.is_check()
        if not legal and check:
            return ("0-1" if self.turn == chess.WHITE else "1-0"), "checkmate"
        if self.dead_material():
            return "1/2-1/2", "insufficient_material"
        if not legal:
            return "1/2-1/2", "stalemate"
        if self.profile == "casual" and self.halfmove >= 100:
            return "1/2-1/2", "fifty_moves"
        if self.halfmove >= 150:
            return "1/2-1/2", "seventyfive_moves"
        if self.history.count(self.history[-1]) >= 5:
            return "1/2-1/2", "fivefold_repetition"
        return None

    # -- the position string (docs/sprint.md) ---------------------------------

    def position_string(self):
        b = self.board()
        placement, rest = b.fen(en_passant="legal").split(" ", 1)
        hands = "".join(chess.piece_symbol(t).upper() * self.hands[chess.WHITE][t] for t in HAND_ORDER)
        hands += "".join(chess.piece_symbol(t) * self.hands[chess.BLACK][t] for t in HAND_ORDER)
        flags = ""
        for color in (chess.WHITE, chess.BLACK):
            f = ""
            if self.king_unmoved(color):
                f += "K"
            if "light" in self.bishop_colours[color]:
                f += "L"
            if "dark" in self.bishop_colours[color]:
                f += "D"
            flags += f if color == chess.WHITE else f.lower()
        decks = []
        for color in (chess.WHITE, chess.BLACK):
            deck = self.decks[color]
            if self.explicit_decks[color] and deck:
                letters = "".join(chess.piece_symbol(t) for t in deck)
                decks.append(letters.upper() if color == chess.WHITE else letters)
            else:
                decks.append(str(len(deck)))
        return "%s[%s] %s %s %s %d" % (placement, hands, rest, "/".join(decks), flags or "-", self.seed)
