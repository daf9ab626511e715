"""The arithmetic of a run's statistics: 95% intervals, exact values of the deal, tables.

:func:`canasta_sim.results.statistics.summary` (one row per statistic, one function per
group) computes its rows with these; :func:`format_summary` prints them.

Intervals
---------
The interval functions are in :mod:`canasta_sim.results.intervals`.

* Rates: Wilson score interval without continuity correction (``wilson_interval``; the same
  numbers as :meth:`scipy.stats.binomtest` ``proportion_ci``, ``method="wilson"``).
* Means: ``mean +- z * sd / sqrt(n)`` with ``z = ndtri(0.975)`` (1.95996) and the sample
  standard deviation (``ddof=1``) computed exactly from integer sums and sums of squares, or from
  the histogram.
* Quantiles: the distribution-free order-statistic interval: ranks
  ``binom_quantile(0.025, n, p)`` and ``binom_quantile(0.975, n, p) + 1`` of the sorted sample
  (``binom_quantile`` computes ``scipy.stats.binom.ppf``), read off the histogram. The
  point estimate is the inverted-CDF quantile (the smallest value whose cumulative fraction
  reaches ``p``; numpy's ``method="inverted_cdf"``).
* Mean score difference of the side playing first minus the mean of the others: exact
  interval from the per-deal difference's own sum and sum of squares.
* Mean pile size at a pickup: a ratio of sums over side-deals (cards taken over pickups), so
  its interval treats the side-deal as the unit (pickups of one deal are not independent):
  the delta-method (linearisation) interval ``ratio_interval``.
* Shares of pickups by pile size: Wilson intervals over the pickups (they treat pickups as
  independent trials, so they are somewhat narrow).

Exact values (column ``exact``)
-------------------------------
With ``N`` cards in the pack (108, or 162), ``R`` red threes in it (4 or 6) and
``k = cards_dealt * players / sides`` cards dealt to a side:

* red threes dealt per side per deal: ``R * k / N`` (each card is a red three with probability
  ``R / N``); its distribution is hypergeometric ``(N, R, k)``:
  ``P(h) = C(R, h) C(N - R, k - h) / C(N, k)`` (:func:`exact_red_threes_dealt_pmf`).
* cards turned for the upcard: ``(N + 1) / (G + 1)`` with ``G`` the cards that stop the upcard
  (every card but wild cards, red threes and, with ``upcard_covers_black_three``, black
  threes). The stock after the deal is a uniformly random ordering of what is left, and by
  exchangeability its first cards have the law of the first cards of the whole shuffled pack;
  since the stock is longer than the number of non-stopping cards (``N - G``), the count is the
  position of the first stopping card in a random permutation of ``N`` cards, whose mean is
  ``(N + 1) / (G + 1)``: 109/89 with the default rules, 109/93 without covering black threes.
* pile frozen at start: ``F / (F + G)`` with ``F`` the freezing cards (wild cards, plus red
  threes with ``red_three_upcard_freezes``): the pile is frozen unless the first card that is
  either stopping or freezing is a stopping one (2/13 with the default rules).
* P(at least one red three dealt to anyone): ``1 - C(N - D, R) / C(N, R)`` with
  ``D = players * cards_dealt`` (:func:`exact_any_red_three_dealt`; 224939/255195 for 4
  players). It needs the joint count over sides within a deal, which the aggregates do not
  hold, so it is not a row of the summary.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from ..cards import BLACK_THREE, DEUCE, JOKER, KIND_COUNTS_108, RED_THREE
from ..game.rules import Rules
from .tables import DASH

__all__ = [
    "bots_version_text",
    "exact_any_red_three_dealt",
    "exact_pile_frozen_at_start",
    "exact_red_threes_dealt_per_side",
    "exact_red_threes_dealt_pmf",
    "exact_upcard_cards",
    "format_summary",
    "pack_counts",
]


def pack_counts(rules: Rules) -> np.ndarray:
    """Cards of each kind in the pack (R-01, R-02): ``ndarray(int64, (N_KINDS,))``."""
    return KIND_COUNTS_108.astype(np.int64) * rules.n_cards // 108


def _side_cards(rules: Rules) -> int:
    return rules.cards_dealt * rules.players // rules.sides


def exact_red_threes_dealt_per_side(rules: Rules) -> Fraction:
    """Expected red threes dealt to one side in one deal: ``R * k / N`` (R-15)."""
    red = int(pack_counts(rules)[RED_THREE])
    return Fraction(red * _side_cards(rules), rules.n_cards)


def exact_red_threes_dealt_pmf(rules: Rules) -> np.ndarray:
    """P(a side is dealt h red threes), h = 0..R: hypergeometric (N, R, k), float64.

    Exact: ``C(R, h) C(N - R, k - h) / C(N, k)`` as a fraction, then rounded to float.
    """
    red = int(pack_counts(rules)[RED_THREE])
    n, k = rules.n_cards, _side_cards(rules)
    total = math.comb(n, k)
    return np.array(
        [
            float(Fraction(math.comb(red, h) * math.comb(n - red, k - h), total))
            for h in range(red + 1)
        ],
        dtype=np.float64,
    )


def _upcard_kinds(rules: Rules) -> tuple[int, int]:
    """(G stopping cards, F freezing cards) of the pack for the upcard (R-12, R-13)."""
    c = pack_counts(rules)
    wild = int(c[DEUCE] + c[JOKER])
    red, black = int(c[RED_THREE]), int(c[BLACK_THREE])
    covered = wild + red + (black if rules.upcard_covers_black_three else 0)
    freezing = wild + (red if rules.red_three_upcard_freezes else 0)
    return rules.n_cards - covered, freezing


def _stock_long_enough(rules: Rules) -> bool:
    good, _ = _upcard_kinds(rules)
    return rules.n_cards - rules.players * rules.cards_dealt > rules.n_cards - good


def exact_upcard_cards(rules: Rules) -> Fraction | None:
    """Expected cards turned to make the upcard (R-12): ``(N + 1) / (G + 1)``.

    ``None`` if the stock after the deal could run out of cards before a stopping card (never
    with section 2's table).
    """
    if not _stock_long_enough(rules):
        return None
    good, _ = _upcard_kinds(rules)
    return Fraction(rules.n_cards + 1, good + 1)


def exact_pile_frozen_at_start(rules: Rules) -> Fraction | None:
    """P(the cards turned for the upcard freeze the pile) (R-13): ``F / (F + G)``."""
    if not _stock_long_enough(rules):
        return None
    good, freezing = _upcard_kinds(rules)
    return Fraction(freezing, freezing + good)


def exact_any_red_three_dealt(rules: Rules) -> Fraction:
    """P(at least one red three is dealt to anyone) = ``1 - C(N - D, R) / C(N, R)``."""
    red = int(pack_counts(rules)[RED_THREE])
    dealt = rules.players * rules.cards_dealt
    return 1 - Fraction(math.comb(rules.n_cards - dealt, red), math.comb(rules.n_cards, red))


def policy_label(manifest: dict) -> str:
    """The play a run's statistics describe, from its manifest: the bots of each side (each
    seating's, when the bots rotate) and the bots version, e.g. ``"expert on every seat
    (bots version 4)"`` or ``"side 0: expert, side 1: careful/greedy (bots version 4)"``
    (``careful/greedy``: a side whose seats play different bots, in seat order; ``"expert/careful
    on each side"`` when every side's seats play those)."""
    seatings = manifest.get("bots") or []
    names = {spec for seating in seatings for spec in seating}
    if len(names) == 1:
        name = names.pop()  # "expert/careful" on both sides: each side's seats differ
        text = f"{name} on every seat" if "/" not in name else f"{name} on each side"
    else:
        text = "; ".join(
            ", ".join(f"side {side}: {spec}" for side, spec in enumerate(seating))
            for seating in seatings
        )
    return text + bots_version_text(manifest.get("bots_version"))


def bots_version_text(version) -> str:
    """``" (bots version 7)"`` after the name of a play; ``""`` for an unknown version
    (``None``: a manifest that does not record it)."""
    return f" (bots version {version})" if version is not None else ""


# --- terminal table -------------------------------------------------------------------------
def table_number(v: float, digits: int = 4, like: float | None = None) -> str:
    """A number of a statistics table (terminal and report): 1 decimal with thousands
    separators from 100 up, 6 decimals below 0.01 (small probabilities, to set against their
    interval), else ``digits``; ``like`` formats ``v`` as that value would be (an interval's
    bounds as its value); a dash for nothing measured (``None`` or NaN)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return DASH
    v = float(v)
    size = abs(v if like is None else float(like))
    if size >= 100:
        return f"{v:,.1f}"
    if 0 < size < 0.01:
        return f"{v:.6f}"
    return f"{v:.{digits}f}"


def summary_cells(row) -> tuple[str, str, str]:
    """The value, 95% interval and exact cells of one row of a summary
    (:func:`~canasta_sim.results.statistics.summary`), as the terminal table and the report
    print them: the bounds with the value's decimals, a dash for what was not measured,
    blank where no exact value is known (it has 5 significant decimals)."""
    like = row.value if row.value else None  # a value of 0 says nothing of its bounds' size
    ci = (
        DASH
        if math.isnan(row.ci_low)
        else f"[{table_number(row.ci_low, like=like)}, {table_number(row.ci_high, like=like)}]"
    )
    exact = "" if math.isnan(row.exact) else table_number(row.exact, 5)
    return table_number(row.value), ci, exact


def format_summary(df: pd.DataFrame) -> str:
    """A fixed-width table of a :func:`~canasta_sim.results.statistics.summary` frame for the
    terminal.

    One block per group; each line: statistic, value, 95% interval ``[low, high]``, the exact
    value where known, and ``n``; first the play the statistics describe
    (``df.attrs["policy"]``), when known.
    """
    name_w = max([len("statistic")] + [len(s) for s in df["statistic"]])
    rows = [(r.group, r.statistic, *summary_cells(r), f"{r.n:,}") for r in df.itertuples()]
    widths = [
        max([len(h)] + [len(x[i]) for x in rows])
        for i, h in enumerate(("", "statistic", "value", "95% interval", "exact", "n"))
    ]
    widths[1] = name_w
    header = (
        f"{'statistic':<{widths[1]}}  {'value':>{widths[2]}}  "
        f"{'95% interval':<{widths[3]}}  {'exact':>{widths[4]}}  {'n':>{widths[5]}}"
    )
    lines = [header, "-" * len(header)]
    if df.attrs.get("policy"):
        lines.insert(0, f"statistics of the play of {df.attrs['policy']}")
    group = None
    for g, stat, value, ci, exact, n in rows:
        if g != group:
            if group is not None:
                lines.append("")
            lines.append(f"[{g}]")
            group = g
        lines.append(
            f"{stat:<{widths[1]}}  {value:>{widths[2]}}  {ci:<{widths[3]}}  "
            f"{exact:>{widths[4]}}  {n:>{widths[5]}}"
        )
    return "\n".join(lines)


# --- games ----------------------------------------------------------------------------------
