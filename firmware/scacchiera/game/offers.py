"""Draw offers and abandoned games: what a player does on the opponent's turn.

Loaded when first used (RAM). The game (controller.py) keeps the state:
``offer`` (the colour offering a draw until the next move, or -1),
``offered`` (the ply of each colour's last offer), ``machine`` (the colour
the board's engine or the host's computer plays, or -1) and ``away`` (the
side to move has not touched the board for ``abandon_min`` minutes).

Nobody accepts their own offer, by any path (the host's ``draw``, the page's
button, the kings-off gesture). Against the computer the person offers and
the computer answers (``answer``): it accepts when its own search says it
stands worse than ``DRAW_ACCEPT_CP`` (docs/rules.md, "Draw offers").
"""

from ..rules.variants import variant_of, SPRINT

# The computer (the board's engine, the host's) accepts a draw when its search scores its own side
# this much worse, in centipawns: a pawn and a half. Level or better, it plays on.
DRAW_ACCEPT_CP = 150
_SIDES = ("White", "Black")


def machine(game):
    """The colour the board's engine or the host's computer plays, or -1: people play both sides
    (Scacchi Sprint always: the hands play both sides there)."""
    return -1 if variant_of(game.position) == SPRINT else game.machine


def accepts(score):
    """Does the computer take a draw when its search scores its own side ``score`` centipawns
    (None: no search, a book move)? Only when it stands worse than DRAW_ACCEPT_CP."""
    return score is not None and score <= -DRAW_ACCEPT_CP


def accept(game, side=-1):
    """``side`` (0 white, 1 black; -1 the person at the board or the page) accepts the draw offered;
    with no offer and no computer playing, both players agree (the kings-off gesture). ValueError
    for a player's own offer, and against the computer for a draw it did not offer."""
    if game.result is not None:
        raise ValueError("the game is over")
    ai = machine(game)
    if side < 0 and ai >= 0:
        side = ai ^ 1                    # the hands and the page act for the person
    if game.offer >= 0 and side == game.offer:
        raise ValueError("%s offered this draw: %s accepts it or plays on" % (_SIDES[side], _SIDES[side ^ 1]))
    if ai >= 0 and game.offer < 0:
        raise ValueError("the computer plays %s and has offered no draw: offer one, it answers" % _SIDES[ai])
    game.agree_draw(game.now)


def decline(game, side=-1):
    """``side`` (as ``accept``) declines the draw offered: its LEDs go out (``offer_declined``)."""
    if game.offer < 0:
        raise ValueError("no draw offer to decline")
    ai = machine(game)
    if side < 0 and ai >= 0:
        side = ai ^ 1
    if side == game.offer:
        raise ValueError("%s offered this draw: %s declines it or accepts it" % (_SIDES[side], _SIDES[side ^ 1]))
    game.emit("offer_declined", by="wb"[game.offer ^ 1])
    game.offer = -1
    game.redraw = True


def answer(game, score):
    """The computer's answer to the person's offer, from its search's ``score`` for its own side."""
    ai = machine(game)
    if ai < 0 or game.offer != ai ^ 1 or game.result is not None:
        return
    if accepts(score):
        accept(game, ai)
    else:
        decline(game, ai)


def kings_off(game):
    """Both kings off the board together: the players agree a draw (an offer standing accepted).
    Against the computer it is the person's offer, which the computer answers."""
    ai = machine(game)
    if ai >= 0 and game.offer != ai:
        if game.offer < 0:
            offered(game, ai ^ 1)
        return
    try:
        accept(game)
    except ValueError:
        pass                             # (the game is over)


def tapped(game, color, twice):
    """Taps on ``color``'s king while the opponent is to move: two offer a draw, three end
    the game the opponent abandoned (docs/gestures.md)."""
    if not twice:
        end_abandoned(game)
        return
    offered(game, color)


def offered(game, color):
    """``color`` offers a draw by a gesture: refused with ``offer_refused`` (no exception)."""
    try:
        offer_draw(game, color)
    except ValueError as e:
        game.emit("offer_refused", by="wb"[color], message=str(e))


def offer_draw(game, color):
    """``color`` (0 white, 1 black) offers a draw: the LEDs show it to the opponent until the
    next move; the draw gesture (or the host's ``draw``) accepts it. ValueError if that player
    offered one fewer than ``offer_every`` of their own moves ago (seed 003: "È solo possibile
    sollecitare “patta” ogni certo numero di turni")."""
    if game.result is not None:
        raise ValueError("the game is over")
    every = game.options.offer_every
    last = game.offered[color]
    ply = game.position.ply()
    if every and last >= 0 and ply - last < 2 * every:
        raise ValueError("one draw offer every %d moves: the next after %d more"
                         % (every, (last + 2 * every - ply + 1) // 2))
    game.offered[color] = ply
    game.offer = color
    game.emit("offer", by="wb"[color])


def end_abandoned(game):
    """The side to move has not touched the board for ``abandon_min`` minutes: its opponent
    ends the game, a loss for the absent player (``abandoned``). False if it is too soon."""
    if game.result is not None or not game.away:
        return False
    game.position.abandon(game.position.turn)
    game.end_declared(game.now)
    return True
