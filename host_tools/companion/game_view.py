"""The board's game as the page draws it, replayed with scacchiera's own rules (host tools never
re-implement a rule): SAN in both letter sets, the position after each move, Scacchi Sprint's hands
and tiles, what stands on each square. Pure: the model (model.py) passes what the board said.

``start`` is the model's (game number, start FEN, Sprint?, seed, Chess960?), read from the game's PGN.
"""

from host_tools import _paths  # noqa: F401  (firmware/ on the path)
from host_tools.sim.pieces import piece_letter
from scacchiera.rules.squares import PIECE_SYMBOLS, is_drop, parse_square, to_square
from scacchiera.rules.variants import CHESS960, SPRINT, new_position, variant_of


def start_position(start, profile):
    """The game's first position (a Sprint game from its seed: its decks and first tile drawn)."""
    _, fen, sprint, seed, chess960 = start
    if sprint:
        return new_position(None, profile, SPRINT, seed)
    return new_position(fen, profile, CHESS960 if chess960 else None)


def replay(start, profile, moves):
    """The position after ``moves`` (UCI) from ``start``; None for what these rules cannot replay
    (a board newer than them: the page shows what the board says)."""
    if start is None:
        return None
    try:
        pos = start_position(start, profile)
        for uci in moves:
            pos.push(pos.parse_uci(uci))
    except (ValueError, KeyError, IndexError):
        return None
    return pos


def drill_san(start, profile, moves, uci):
    """A drill's move in SAN, both letter sets ({"en", "it"}): the player's move, judged right or
    wrong (a wrong one is taken back at once, so it is read from the position before it)."""
    if not uci:
        return None
    moves = list(moves)
    for before in (moves[:-1], moves) if moves and moves[-1] == uci else (moves,):
        pos = replay(start, profile, before)
        if pos is None:
            continue
        try:
            move = pos.parse_uci(uci)
        except (ValueError, KeyError, IndexError):
            continue
        if move in pos.legal_moves():
            return {"en": pos.san(move, "en"), "it": pos.san(move, "it")}
    return None


def move_lists(start, profile, pos, frame):
    """The move list of ``pos`` (the replayed game): {"san", "san_it", "fens" (the position before
    the first move and after each one), "sprint" (Sprint's hands, decks, tiles; None in chess)}."""
    out = {"san": [], "san_it": [], "fens": [], "sprint": None}
    if pos is None:
        return out
    drawn, refused = [], []
    game = start_position(start, profile)
    out["fens"].append(game.fen())
    for m in pos.move_stack:
        tile = game.drawn_tile() if variant_of(game) == SPRINT else 0
        drawn.append(PIECE_SYMBOLS[tile] if tile else "")
        # A placement whose square the rules closed to the tile just drawn (the board took
        # another from the hand); not one the player chose by tapping.
        closed = tile and is_drop(m) and tile not in game.drop_types_at(to_square(m))
        refused.append(PIECE_SYMBOLS[tile] if closed else "")
        out["san"].append(game.san(m, "en"))
        out["san_it"].append(game.san(m, "it"))
        game.push(m)
        out["fens"].append(game.fen())
    if variant_of(pos) == SPRINT:
        out["sprint"] = dict(sprint_hands(pos), drawn_before=drawn,   # the tile just drawn before each ply
                             refused=refused,        # and whether the rules refused it there (the page says why)
                             allowed=allowed(pos, frame))
    return out


def pieces(pos, occupancy):
    """What stands on each square, as far as the host can tell: the game's piece where the
    switches say there is one, ``?`` where they see a piece the game does not have."""
    out = [""] * 64
    if pos is not None:
        for sq in range(64):
            code = pos.piece_at(sq)
            if code:
                out[sq] = piece_letter(code)
    if occupancy is not None:
        occupied = set(parse_square(name) for name in occupancy)
        for sq in range(64):
            if sq not in occupied:
                out[sq] = ""
            elif not out[sq]:
                out[sq] = "?"
    return out


def allowed(pos, frame):
    """Scacchi Sprint: the tiles the rules allow on each square where a placement waits for its
    tile to be chosen (drop-* LEDs): {"d3": "np"}, so the page says a refusal only when there was one."""
    out = {}
    for name, meaning in frame.items():
        if meaning.startswith("drop-") and meaning != "drop-target":
            try:
                types = pos.drop_types_at(parse_square(name))
            except ValueError:            # not a square name: a board newer than these rules
                continue
            out[name] = "".join(PIECE_SYMBOLS[t] for t in types)
    return out


def sprint_hands(pos):
    """Scacchi Sprint: each side's hand (letters, strongest first), decks left, the tile drawn, the seed."""
    hands = {}
    for color, side in ((0, "white"), (1, "black")):
        letters = ""
        for t in (5, 4, 3, 2, 1):
            letter = PIECE_SYMBOLS[t].upper() if color == 0 else PIECE_SYMBOLS[t]
            letters += letter * pos.hand_count(color, t)
        hands[side] = letters
    drawn = pos.drawn_tile()
    return {"hands": hands, "decks": {"white": pos.deck_left(0), "black": pos.deck_left(1)},
            "drawn": PIECE_SYMBOLS[drawn] if drawn else "", "seed": pos.seed}
