"""95% intervals from exact integer sums: rates (:func:`wilson_interval`), means
(:func:`mean_interval`, :func:`hist_mean`; :func:`sequence_interval` for a run that stops
when its result is decided), ratios of sums (:func:`ratio_interval`) and quantiles
(:func:`hist_quantile`, through :func:`binom_quantile`).

Every function takes counts, sums and sums of squares (or a histogram), the exactly mergeable
figures runs keep, so intervals come out the same however a run was split into chunks or
machines. The statistics of a run (:mod:`canasta_sim.results.stats`), comparisons
(:mod:`canasta_sim.results.paired`) and games (:mod:`canasta_sim.results.game_totals`) use
them; module :mod:`canasta_sim.results.stats` says which interval each statistic gets.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.special import bdtr, bdtrik, ndtri  # not scipy.stats (about 1 s of start-up)

_NAN = float("nan")

__all__ = [
    "Z95",
    "binom_quantile",
    "hist_mean",
    "hist_quantile",
    "mean_interval",
    "ratio_interval",
    "sequence_interval",
    "wilson_interval",
]

#: Two-sided 95% normal quantile (1.959964...).
Z95 = float(ndtri(0.975))


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for ``k`` successes in ``n`` trials.

    Wilson, E. B. (1927), "Probable inference, the law of succession, and statistical
    inference", J. Amer. Statist. Assoc. 22, 209-212; without continuity correction, with
    ``z = ndtri(0.975)``::

        centre = (k + z**2 / 2) / (n + z**2)
        half   = z / (n + z**2) * sqrt(k * (n - k) / n + z**2 / 4)
        (low, high) = (centre - half, centre + half)

    As in :meth:`scipy.stats.binomtest` ``proportion_ci(method="wilson")`` (the same numbers),
    ``low`` is exactly 0 when ``k == 0`` and ``high`` exactly 1 when ``k == n``.

    Returns ``(nan, nan)`` when ``n == 0``.

    Raises
    ------
    ValueError
        If ``k`` is not in ``0..n``.
    """
    k, n = int(k), int(n)
    if n <= 0:
        return _NAN, _NAN
    if not 0 <= k <= n:
        raise ValueError(f"k must be in 0..n, got k={k}, n={n}")
    z2 = Z95 * Z95
    centre = (k + z2 / 2) / (n + z2)
    half = Z95 / (n + z2) * math.sqrt(k * (n - k) / n + z2 / 4)
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def binom_quantile(q: float, n: int, p: float) -> int:
    """The ``q``-quantile of Binomial(n, p): the smallest ``k`` with ``P(X <= k) >= q``.

    For ``0 < q < 1``, ``n >= 1`` and ``0 < p < 1``. Computed as scipy's ``binom.ppf`` long
    did, from :func:`scipy.special.bdtrik` (the continuous inverse of the binomial CDF in
    ``k``) and :func:`scipy.special.bdtr` (the CDF)::

        k = ceil(bdtrik(q, n, p)); k1 = max(k - 1, 0)
        return k1 if bdtr(k1, n, p) >= q else k

    Recent scipy computes ``binom.ppf`` with Boost instead; the two agree except where
    ``P(X <= k)`` equals ``q`` to rounding (e.g. ``q = 0.5``, ``p = 0.5``); for the 2.5% and
    97.5% points used here they agreed for every ``n <= 3000`` and ``p`` of :data:`QUANTILES`.
    """
    n = int(n)
    k = math.ceil(float(bdtrik(q, n, p)))
    k1 = max(k - 1, 0)
    return k1 if float(bdtr(k1, n, p)) >= q else k


def mean_interval(total: int, total_sq: int, n: int) -> tuple[float, float, float]:
    """Mean and its 95% normal interval from an exact integer sum and sum of squares.

    Parameters
    ----------
    total, total_sq : int
        Sum and sum of squares of the ``n`` observations (Python ints: no overflow).
    n : int
        Sample size.

    Returns
    -------
    (mean, ci_low, ci_high) : floats; the interval is NaN for ``n < 2``, all NaN for ``n == 0``.
    """
    total, total_sq, n = int(total), int(total_sq), int(n)
    if n <= 0:
        return _NAN, _NAN, _NAN
    mean = total / n
    if n < 2:
        return mean, _NAN, _NAN
    # exact integer numerator: n * sum(x^2) - (sum x)^2 = n (n - 1) s^2
    var = Fraction(n * total_sq - total * total, n * (n - 1))
    half = Z95 * math.sqrt(max(float(var), 0.0) / n)
    return mean, mean - half, mean + half


def sequence_interval(
    total: int, total_sq: int, n: int, target: int, alpha: float = 0.05
) -> tuple[float, float, float]:
    """Mean and its always-valid ``1 - alpha`` interval (an asymptotic confidence sequence)
    from an exact integer sum and sum of squares: it holds the true mean at every ``n`` at
    once with probability ``1 - alpha`` (asymptotically), so a run may look after every block
    and stop when the interval is narrow enough or excludes a value. A fixed-``n`` interval
    (:func:`mean_interval`) read over and over does not: its error rate grows with the looks.

    Waudby-Smith, I., Arbour, D., Sinha, R., Kennedy, E. H., Ramdas, A. (2024),
    "Time-uniform central limit theory and asymptotic confidence sequences", Ann. Statist.
    52(6), the Gaussian-mixture (Robbins) boundary with the sample standard deviation
    ``s``::

        half = s * sqrt(2 (n rho^2 + 1) / (n^2 rho^2) * log(sqrt(n rho^2 + 1) / alpha))
        rho^2 = (-2 log alpha + log(-2 log alpha + 1)) / target

    ``rho`` makes the interval narrowest at ``n = target`` (there it is about 1.55 times the
    fixed-``n`` interval at ``alpha = 0.05``); the choice does not affect its validity.

    Parameters
    ----------
    total, total_sq : int
        Sum and sum of squares of the ``n`` observations (Python ints: no overflow).
    n : int
        Observations so far.
    target : int
        Observations at which the interval is to be narrowest (at least 1), fixed before the
        run (the most the run may take is a good choice).
    alpha : float
        Error rate over the whole sequence, in (0, 1).

    Returns
    -------
    (mean, ci_low, ci_high) : floats; the interval is NaN for ``n < 2``, all NaN for ``n == 0``.

    Raises
    ------
    ValueError
        If ``target`` is below 1 or ``alpha`` is not in (0, 1).
    """
    if int(target) < 1:
        raise ValueError(f"target={target}: allowed a whole number of at least 1")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha}: allowed a number in (0, 1)")
    mean, low, _ = mean_interval(total, total_sq, n)
    if math.isnan(low):
        return mean, low, low
    s = (mean - low) / Z95 * math.sqrt(n)  # the sample standard deviation
    log_a = -2.0 * math.log(alpha)
    rho2 = (log_a + math.log(log_a + 1.0)) / int(target)
    t = n * rho2 + 1.0
    half = s * math.sqrt(2.0 * t / (n * n * rho2) * math.log(math.sqrt(t) / alpha))
    return mean, mean - half, mean + half


def ratio_interval(x: int, xx: int, n: int, nn: int, xn: int, m: int) -> tuple[float, float, float]:
    """A ratio of sums ``R = sum(x_i) / sum(n_i)`` over ``m`` units (side-deals) with its 95%
    interval by linearisation (the delta method for a ratio estimator)::

        s2 = (sum x^2 - 2 R sum x n + R^2 sum n^2) / (m - 1)
        half = z * sqrt(s2 / m) / mean(n)

    Parameters
    ----------
    x, xx : int
        Sum of ``x_i`` and of ``x_i ** 2``.
    n, nn : int
        Sum of ``n_i`` and of ``n_i ** 2``.
    xn : int
        Sum of ``x_i * n_i``.
    m : int
        Units.

    Returns
    -------
    (ratio, ci_low, ci_high) : floats; all NaN when ``sum(n_i) == 0``, the interval NaN for
    ``m < 2``.
    """
    x, xx, n, nn, xn, m = (int(v) for v in (x, xx, n, nn, xn, m))
    if n == 0:
        return _NAN, _NAN, _NAN
    r = Fraction(x, n)
    if m < 2:
        return float(r), _NAN, _NAN
    s2 = (xx - 2 * r * xn + r * r * nn) / (m - 1)
    half = Z95 * math.sqrt(max(float(s2), 0.0) / m) / (n / m)
    return float(r), float(r) - half, float(r) + half


def _hist_sums(hist, values=None) -> tuple[int, int, int]:
    hist = np.asarray(hist, np.int64)
    values = np.arange(hist.shape[-1]) if values is None else np.asarray(values)
    n = int(hist.sum())
    total = sum(int(c) * int(v) for c, v in zip(hist, values) if c)
    total_sq = sum(int(c) * int(v) * int(v) for c, v in zip(hist, values) if c)
    return total, total_sq, n


def hist_mean(hist, values=None) -> tuple[float, float, float, int]:
    """Mean of a histogram with its 95% interval.

    Parameters
    ----------
    hist : ndarray(int64, (m,))
        ``hist[i]`` observations of value ``values[i]`` (default ``i``).
    values : array of int, optional

    Returns
    -------
    (mean, ci_low, ci_high, n)
    """
    total, total_sq, n = _hist_sums(hist, values)
    return (*mean_interval(total, total_sq, n), n)


def hist_quantile(hist, q: float, values=None) -> tuple[float, float, float]:
    """The ``q``-quantile (0 < q < 1) of a histogram with its order-statistic 95% interval.

    The estimate is the smallest value whose cumulative fraction reaches ``q`` (the value of
    rank ``ceil(q * n)`` in the sorted sample, ranks from 1). The interval is formed by the
    values of ranks ``binom_quantile(0.025, n, q)`` and ``binom_quantile(0.975, n, q) + 1``
    (:func:`binom_quantile`, clipped to 1..n), which cover the true quantile with probability
    >= 95% (distribution-free).

    Returns
    -------
    (value, ci_low, ci_high) : floats (NaN for an empty histogram).
    """
    hist = np.asarray(hist, np.int64)
    values = np.arange(hist.shape[-1]) if values is None else np.asarray(values)
    n = int(hist.sum())
    if n == 0:
        return _NAN, _NAN, _NAN
    cum = np.cumsum(hist)
    q_frac = Fraction(q).limit_denominator(10**6)
    rank = max(1, math.ceil(q_frac * n))
    low = min(max(binom_quantile(0.025, n, float(q)), 1), n)
    high = min(max(binom_quantile(0.975, n, float(q)) + 1, 1), n)

    def at(r):  # value of rank r (1-based) in the sorted sample
        return float(values[int(np.searchsorted(cum, r, side="left"))])

    return at(rank), at(low), at(high)
