"""The SPRT (host_tools/sprt.py): its LLR against the exact one computed another way, its bounds,
and its verdicts on simulated changes of known worth."""

import math
import random

import pytest

from host_tools import sprt

VALUES = sprt.PAIR_VALUES


def exact_llr(counts, elo0, elo1):
    """The log-likelihood ratio computed exactly: the pentanomial's maximum likelihood under each
    hypothesis's mean score (the multinomial constrained to a mean: p_i = f_i / (1 + lam (v_i - s)),
    lam found by bisection), H1's less H0's."""
    n = sum(counts)
    freqs = [c / n for c in counts]

    def loglik(s):
        def g(lam):
            return sum(f * (v - s) / (1 + lam * (v - s)) for f, v in zip(freqs, VALUES) if f)
        lo = -1 / max(v - s for f, v in zip(freqs, VALUES) if f) + 1e-12
        hi = -1 / min(v - s for f, v in zip(freqs, VALUES) if f) - 1e-12
        for _ in range(200):
            mid = (lo + hi) / 2
            if g(mid) > 0:
                lo = mid
            else:
                hi = mid
        lam = (lo + hi) / 2
        return sum(c * math.log(f / (1 + lam * (v - s))) for c, f, v in zip(counts, freqs, VALUES) if c)
    return loglik(sprt.expected_score(elo1)) - loglik(sprt.expected_score(elo0))


@pytest.mark.parametrize("counts", [[10, 40, 100, 45, 5], [30, 60, 80, 50, 20], [5, 20, 150, 25, 0],
                                    [8, 40, 95, 47, 10], [12, 48, 90, 40, 10], [20, 80, 200, 90, 25]])
def test_the_llr_is_the_exact_likelihood_ratio_near_the_hypotheses(counts):
    """Mean scores 0.47-0.52 (the hypotheses expect 0.500 and 0.514): within 6 % of the exact LLR."""
    approx = sprt.llr(counts, 0, 10)
    exact = exact_llr(counts, 0, 10)
    assert approx == pytest.approx(exact, rel=0.06, abs=0.02), (approx, exact)


def test_far_from_the_hypotheses_the_llr_is_past_the_same_bound_as_the_exact_one():
    counts = [2, 30, 60, 70, 38]                     # a mean score of 0.64: a change worth ~100 Elo
    _, upper = sprt.bounds()
    assert sprt.llr(counts) > upper and exact_llr(counts, 0, 10) > upper


def test_wald_bounds_and_the_score_an_elo_expects():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert sprt.expected_score(0) == 0.5 and sprt.expected_score(400) == pytest.approx(10 / 11)
    assert sprt.pentanomial([0, 0.5, 1, 1, 2, 1.5]) == [1, 1, 2, 1, 1]


def simulated_pair(rng, elo, draw=0.4):
    """Two games of an engine ``elo`` stronger than its opponent: win, draw or loss each, drawn with
    the expected score that Elo gives."""
    s = sprt.expected_score(elo)
    win = s - draw / 2
    return sum(1.0 if r < win else 0.5 if r < win + draw else 0.0 for r in (rng.random(), rng.random()))


@pytest.mark.parametrize("elo, verdict", [(30, "H1"), (-20, "H0")])
def test_a_change_clearly_better_or_worse_is_decided_the_right_way(elo, verdict):
    """Of 20 simulated tests of a change worth ``elo``, each ends, and the right way at least 19 times."""
    rng = random.Random(elo)
    right = 0
    for _ in range(20):
        test = sprt.Sprt(0, 10, 0.05, 0.05)
        while test.state is None and len(test.pairs) < 20000:
            test.add(simulated_pair(rng, elo))
        assert test.state is not None
        right += test.state == verdict
    assert right >= 19, right


def test_the_description_says_the_count_the_llr_and_the_verdict():
    test = sprt.Sprt(0, 10)
    assert test.describe().startswith("SPRT [0, 10] alpha 0.05 beta 0.05: 0 pairs [0, 0, 0, 0, 0], LLR 0.00")
    for score in [2, 2, 1.5, 2] * 30:
        test.add(score)
    assert test.state == "H1" and "H1, kept" in test.describe()
