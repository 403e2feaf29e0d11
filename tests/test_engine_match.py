"""A short match against Stockfish at its lowest UCI_Elo (marker slow: `make test-long`)."""

import pytest

from host_tools.engine_match import elo_estimate, find_stockfish, match

pytestmark = pytest.mark.slow


def test_elo_estimate_from_results():
    r, low, high, note = elo_estimate([(1400, 1.0), (1400, 0.0), (1400, 0.5), (1400, 0.5)])
    assert abs(r - 1400) < 1 and low < 1400 < high and not note
    assert elo_estimate([(1400, 0.0)] * 4)[3].startswith("all games lost")
    assert elo_estimate([(1400, 1.0)] * 4)[3].startswith("all games won")


@pytest.mark.skipif(find_stockfish() is None,
                    reason="needs Debian's stockfish (apt-get install stockfish; .ci/run installs it)")
def test_a_short_match_against_stockfish():
    lines = []
    summary = match([6], [1350], 2, 2000, 50, None, out=lines.append)
    assert len([line for line in lines if " game " in line]) == 2
    assert 6 in summary and summary[6] is not None
    print("\n".join(lines))
