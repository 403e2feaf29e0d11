"""Scacchi Sprint's tile decks and the small random number generator that shuffles them.

A game's decks come from one integer seed (0 <= seed < 2**30), recorded with
the game, so every game can be replayed. The generator must give the same
numbers on CPython and on MicroPython (whose ``random`` module differs), so
it is written here in small-int arithmetic only: a 30-bit xorshift whose
shifts are masked *before* they shift, so no intermediate value ever reaches
2**30 and nothing is allocated on the RP2040.

The algorithm is part of the game record's meaning; docs/sprint.md states it
and tests/sprint_checker.py implements it again from that text.
"""

from .. import const
from .squares import PAWN, KNIGHT, BISHOP, ROOK, QUEEN

_MASK = const(0x3FFFFFFF)
SEED_LIMIT = const(0x40000000)   # seeds are 0 .. 2**30 - 1
_ZERO_STATE = const(0x2545F491)  # replaces an all-zero state (xorshift would stay at 0)

# What each generator is for, so the streams never coincide.
SALT_WHITE_DECK = const(0x1B873593)
SALT_BLACK_DECK = const(0x0C2B2AE3)
SALT_HOURGLASS = const(0x27D4EB2F)

# Each side's deck before shuffling: the 6 pawns and the 7 pieces left once
# the king, the pawn on the board and the pawn in hand are taken out.
DECK_TILES = bytes((PAWN, PAWN, PAWN, PAWN, PAWN, PAWN,
                    KNIGHT, KNIGHT, BISHOP, BISHOP, ROOK, ROOK, QUEEN))
DECK_SIZE = const(13)


def check_seed(seed):
    """``seed`` if it is a valid game seed, else ValueError."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise ValueError("a Sprint seed is an integer 0 .. 2**30 - 1, got %r" % (seed,))
    return seed


class Rng:
    """A reproducible stream of 30-bit numbers: ``Rng(seed, salt, n)``.

    The state starts as ``(seed ^ salt) & (2**30 - 1)`` and is stirred; a
    non-zero ``n`` (e.g. the ply) is then xored in and stirred again. To stir
    is 8 rounds of one xorshift step and ``x ^= (x & 0x7FFF) * (x >> 15)``
    (a product of two 15-bit halves, so below 2**30, and not linear, so close
    seeds or plies do not give related streams); a state that ends at 0
    becomes ``0x2545F491``. Each ``next()`` is one xorshift step on 30 bits:
    ``x ^= x << 13; x ^= x >> 17; x ^= x << 5``, every left shift keeping the
    low 30 bits.
    """

    def __init__(self, seed, salt=0, n=0):
        self.state = (seed ^ salt) & _MASK
        self._stir()
        if n:
            self.state ^= n & _MASK
            self._stir()

    def _stir(self):
        for _ in range(8):
            x = self.next()
            self.state = x ^ (x & 0x7FFF) * (x >> 15)
        if not self.state:
            self.state = _ZERO_STATE

    def next(self):
        x = self.state
        x ^= (x & 0x1FFFF) << 13      # == (x << 13) & (2**30 - 1)
        x ^= x >> 17
        x ^= (x & 0x1FFFFFF) << 5     # == (x << 5) & (2**30 - 1)
        self.state = x
        return x

    def below(self, n):
        """A number 0 .. n - 1 (``next() % n``)."""
        return self.next() % n


def shuffled_deck(seed, color):
    """The deck of ``color`` (0 white, 1 black) for a game seed, top tile first.

    Fisher-Yates from the bottom: for i = 12 down to 1, swap tile i with tile
    ``below(i + 1)`` of ``Rng(seed, SALT_WHITE_DECK or SALT_BLACK_DECK)``.
    """
    rng = Rng(check_seed(seed), SALT_BLACK_DECK if color else SALT_WHITE_DECK)
    deck = bytearray(DECK_TILES)
    i = len(deck) - 1
    while i > 0:
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck
