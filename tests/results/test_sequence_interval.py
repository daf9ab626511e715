"""The always-valid interval of a mean (:func:`canasta_sim.results.intervals.sequence_interval`):
its formula by hand, and its coverage over every look of synthetic streams of known mean."""

import math

import numpy as np
import pytest

from canasta_sim.results.intervals import mean_interval, sequence_interval


def test_half_width_by_hand():
    # 1, 3, 5, 7: mean 4, sample variance (9 + 1 + 1 + 9) / 3 = 20 / 3; target 4, alpha 0.05:
    # rho^2 = (-2 ln 0.05 + ln(1 - 2 ln 0.05)) / 4 = (5.99146 + 1.94470) / 4 = 1.98404,
    # n rho^2 + 1 = 8.93615, half = s sqrt(2 * 8.93615 / (16 * 1.98404) * ln(2.98934 / 0.05))
    #                             = 2.58199 * sqrt(0.56300 * 4.09078) = 3.91844
    mean, low, high = sequence_interval(16, 84, 4, target=4)
    assert mean == 4.0
    assert high - mean == pytest.approx(3.91844, abs=1e-4)
    assert mean - low == pytest.approx(3.91844, abs=1e-4)


def test_wider_than_fixed_n_at_its_target():
    # at n = target the boundary is sqrt(2 (c + 1) / c * ln(sqrt(c + 1) / 0.05)) = 3.0350 over
    # sqrt(n) standard deviations (c = 7.93616), against 1.95996 for the fixed-n interval
    total, total_sq, n = 500, 250_000, 1000
    _, low, high = sequence_interval(total, total_sq, n, target=n)
    _, flow, fhigh = mean_interval(total, total_sq, n)
    assert (high - low) / (fhigh - flow) == pytest.approx(3.0350 / 1.95996, rel=1e-3)


def test_too_few_and_bad_arguments():
    assert math.isnan(sequence_interval(5, 25, 1, target=10)[1])
    with pytest.raises(ValueError, match="target=0"):
        sequence_interval(5, 25, 3, target=0)
    with pytest.raises(ValueError, match="alpha=1"):
        sequence_interval(5, 25, 3, target=10, alpha=1.0)


def _miscoverage(streams: np.ndarray, mean: int, looks: range, interval) -> float:
    """The share of streams whose interval misses ``mean`` at one look or more."""
    total, total_sq = np.cumsum(streams, axis=1), np.cumsum(streams * streams, axis=1)
    missed = np.zeros(len(streams), bool)
    for n in looks:
        for i in np.flatnonzero(~missed):
            _, low, high = interval(int(total[i, n - 1]), int(total_sq[i, n - 1]), n)
            missed[i] = not low <= mean <= high
    return float(missed.mean())


@pytest.mark.parametrize("skewed", [False, True])
def test_coverage_over_every_look(skewed):
    # 1,000 streams of 4,000 draws of known mean 0, looked at every 100 draws (40 looks):
    # the always-valid interval misses at some look in at most alpha (+ 2 points of
    # tolerance: 3 standard errors of a share near 0.05 over 1,000 streams); the fixed-n
    # interval read at every look misses far more often
    rng = np.random.default_rng(42)
    if skewed:  # a long right tail, as deal scores: 100 x Poisson(3) - 300
        streams = 100 * rng.poisson(3, (1000, 4000)) - 300
    else:
        streams = np.rint(300 * rng.standard_normal((1000, 4000))).astype(np.int64)
    looks = range(100, 4001, 100)
    always = _miscoverage(streams, 0, looks, lambda t, q, n: sequence_interval(t, q, n, 4000))
    fixed = _miscoverage(streams, 0, looks, mean_interval)
    assert always <= 0.07
    assert fixed >= 0.15
