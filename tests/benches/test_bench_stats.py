"""The confidence interval every strength bench prints."""

from bench.stats import wilson_interval


def test_wilson_interval_matches_the_published_formula():
    # 8 wins in 10: the 95% Wilson interval is 0.490-0.943, worked by hand from the formula.
    low, high = wilson_interval(8, 10)
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943


def test_wilson_interval_is_centred_at_an_even_score_and_stays_within_bounds():
    low, high = wilson_interval(32, 64)
    assert abs((low + high) / 2 - 0.5) < 1e-12 and 0.380 < low < 0.382
    low, high = wilson_interval(13.5, 35)    # a draw is half a point
    assert 0.243 < low < 0.244 and 0.550 < high < 0.551
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
