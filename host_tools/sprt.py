"""The sequential probability ratio test engine projects use to accept or reject a change.

A change is tested against the engine before it in game pairs (one opening, both colours), and
the test asks which of two hypotheses the results favour: the change is worth ``elo0`` (H0,
usually 0) or ``elo1`` (H1, e.g. 10), logistic Elo. After each pair the log-likelihood ratio
(LLR) is compared with Wald's bounds ``log(beta / (1 - alpha))`` (below: H0 accepted, the change
dropped) and ``log((1 - beta) / alpha)`` (above: H1 accepted, the change kept); between them the
test goes on. ``alpha`` and ``beta`` are the error rates (0.05 each: a change worth nothing is
kept 5 % of the time, a change worth ``elo1`` dropped 5 %).

The LLR is the generalised SPRT's (Michel Van den Bergh's, as fishtest computes it): the
pentanomial distribution of a pair's score (0, 0.5, 1, 1.5 or 2 points of 2), its mean and
variance taken from the pairs played, and
``LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`` with ``m`` and ``v`` a pair's mean score and
variance per game (over [0, 1]), ``s = 1 / (1 + 10 ** (-elo / 400))`` the score an Elo difference
expects and ``n`` the number of pairs. Pairs rather than games: both colours of an opening share
its bias, which the pentanomial variance counts and the trinomial would not.
"""

import math


def expected_score(elo):
    """The score (0..1) a logistic Elo difference expects."""
    return 1 / (1 + 10 ** (-elo / 400))


def bounds(alpha=0.05, beta=0.05):
    """Wald's (lower, upper) LLR bounds."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def pentanomial(pair_scores):
    """[count of pairs scoring 0, 0.5, 1, 1.5, 2] (each pair's score out of 2)."""
    counts = [0] * 5
    for score in pair_scores:
        counts[int(round(score * 2))] += 1
    return counts


PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)      # a pair's score per game, for each pentanomial count


def moments(counts):
    """(pairs, mean, variance) of a pair's score per game, from ``pentanomial``'s counts."""
    n = sum(counts)
    if n == 0:
        return 0, 0.0, 0.0
    mean = sum(c * v for c, v in zip(counts, PAIR_VALUES)) / n
    return n, mean, sum(c * (v - mean) ** 2 for c, v in zip(counts, PAIR_VALUES)) / n


def llr(counts, elo0=0.0, elo1=10.0):
    """The generalised SPRT's log-likelihood ratio of H1 (``elo1``) to H0 (``elo0``) for
    ``counts`` (``pentanomial``'s); 0 while it cannot be told (no pairs, or no variance yet)."""
    n, mean, var = moments(counts)
    if var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def elo_of(counts):
    """(Elo, 95 % half-width) from the pairs so far (the logistic Elo of their mean score; the
    interval from the pairs' own variance), or (None, None) when it is not finite yet."""
    n, mean, var = moments(counts)
    if n < 2 or not 0 < mean < 1:
        return None, None
    elo = -400 * math.log10(1 / mean - 1)
    se = math.sqrt(var / n)
    slope = 400 / (math.log(10) * mean * (1 - mean))   # dElo / dscore
    return elo, 1.96 * se * slope


class Sprt:
    """One test: ``add(pair_score)`` after each pair; ``state`` is "H1" (keep the change), "H0"
    (drop it) or None (go on)."""

    def __init__(self, elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05):
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower, self.upper = bounds(alpha, beta)
        self.pairs = []

    def add(self, pair_score):
        self.pairs.append(pair_score)
        return self.state

    @property
    def counts(self):
        return pentanomial(self.pairs)

    @property
    def llr(self):
        return llr(self.counts, self.elo0, self.elo1)

    @property
    def state(self):
        value = self.llr
        return "H1" if value >= self.upper else "H0" if value <= self.lower else None

    def describe(self):
        elo, half = elo_of(self.counts)
        return ("SPRT [%g, %g] alpha %g beta %g: %d pairs %s, LLR %.2f (%.2f, %.2f)%s, Elo %s"
                % (self.elo0, self.elo1, self.alpha, self.beta, len(self.pairs), self.counts, self.llr,
                   self.lower, self.upper, {"H1": ": H1, kept", "H0": ": H0, dropped", None: ""}[self.state],
                   "?" if elo is None else "%+.1f +- %.1f" % (elo, half)))
