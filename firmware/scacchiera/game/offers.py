"""Draw offers and abandoned games: what a player does on the opponent's turn.

Loaded when first used (RAM). The game (controller.py) keeps the state:
``offer`` (the colour offering a draw until the next move, or -1),
``offered`` (the ply of each colour's last offer) and ``away`` (the side to
move has not touched the board for ``abandon_min`` minutes).
"""


def tapped(game, color, twice):
    """Taps on ``color``'s king while the opponent is to move: two offer a draw, three end
    the game the opponent abandoned (docs/gestures.md)."""
    if not twice:
        end_abandoned(game)
        return
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
    pos = game.position
    pos.declare("0-1" if pos.turn == 0 else "1-0", "abandoned")
    game.end_declared(game.now)
    return True
