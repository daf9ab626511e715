"""The numbers of a run report's figures (:data:`canasta_sim.results.report.PLOTS`): what the
report draws with matplotlib and the board draws in the page, computed once here so both show
the same figures.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .aggregate import SCORE_OFFSET, SCORE_STEP, Aggregates
from .intervals import hist_mean

#: The red-three sources of ``red_threes_by_source.png``, as the summary's statistics name them.
RED_THREE_SOURCES = ("dealt", "drawn", "from the pile", "in total")
#: The canasta kinds of ``canastas_per_side.png``: aggregate count -> label.
CANASTA_KINDS = {
    "natural_canastas": "natural",
    "mixed_canastas": "mixed",
    "concealed_canastas": "concealed",
}
MAX_SCORE_BINS = 80


def score_histogram(agg: Aggregates) -> tuple[np.ndarray, np.ndarray]:
    """The deal score per side as ``score_distribution.png`` bins it.

    Returns
    -------
    edges : ndarray(float64, (bins + 1,))
        Bin edges (points): at most about :data:`MAX_SCORE_BINS` bins, each a multiple of the
        score step (5 points) wide; empty when the run holds no deal.
    fractions : ndarray(float64, (sides, bins))
        The fraction of deals whose side score falls in each bin.
    """
    hist = agg.counts["score"]
    used = np.nonzero(hist.sum(axis=0))[0]
    if not used.size:
        return np.zeros(0), np.zeros((agg.sides, 0))
    lo, hi = int(used[0]), int(used[-1]) + 1
    width = max(1, math.ceil((hi - lo) / MAX_SCORE_BINS))
    hi = lo + width * math.ceil((hi - lo) / width)
    edges = np.arange(lo, hi + 1, width) * SCORE_STEP - SCORE_OFFSET - SCORE_STEP / 2
    fractions = np.zeros((agg.sides, (hi - lo) // width))
    for s in range(agg.sides):
        h = np.zeros(hi - lo, np.int64)
        h[: min(hist.shape[1], hi) - lo] = hist[s, lo:hi]
        counts = h.reshape(-1, width).sum(axis=1)
        total = counts.sum()
        fractions[s] = counts / total if total else counts
    return edges, fractions


def red_threes_by_source(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``table`` (:func:`canasta_sim.results.statistics.summary`) that
    ``red_threes_by_source.png`` draws, one per source of :data:`RED_THREE_SOURCES`, with a
    ``source`` column; ``exact`` of the dealt row is the exact expectation."""
    rows = [
        table[table["statistic"] == f"red threes {x} per side per deal"].iloc[0]
        for x in RED_THREE_SOURCES
    ]
    return pd.DataFrame(rows).assign(source=list(RED_THREE_SOURCES)).reset_index(drop=True)


def canastas_by_kind(agg: Aggregates) -> np.ndarray:
    """Canastas per side per deal by kind, as ``canastas_per_side.png`` draws them.

    Returns
    -------
    ndarray(float64, (sides, kinds, 3))
        Per side and kind of :data:`CANASTA_KINDS`: the mean and its 95% interval (low,
        high), canastas per deal.
    """
    return np.array(
        [[hist_mean(agg.counts[key][s])[:3] for key in CANASTA_KINDS] for s in range(agg.sides)]
    )
