"""The statistics of a run (:func:`summary`), declared once each: one function per group.

Every function of :data:`GROUPS` adds its group's rows, in the table's order, from the run's
aggregates alone (the ``counts`` of :class:`~canasta_sim.results.aggregate.Aggregates`), so
the summary works for runs made with ``records=False``. One row per statistic:

=========  ====================================================================================
column     meaning
=========  ====================================================================================
group      "red threes", "canastas", "canasta ranks", "pile", "timeline", "end", "score",
           "seat", "red-three value", "canasta timing" or "bot"
statistic  readable name, e.g. ``"red threes dealt per side per deal"``
value      the estimate (a rate in 0..1, a mean in its unit, or a quantile in points)
ci_low     lower end of the 95% interval (NaN when the aggregates cannot give one)
ci_high    upper end of the 95% interval
n          the sample size the estimate rests on (deals, sides x deals, ...)
exact      the exact expectation from the rules' arithmetic when one is known, else NaN
=========  ====================================================================================

The intervals and the exact values are those of :mod:`canasta_sim.results.stats`.

Ties: "win rate" counts only sole wins (a side with the strictly highest deal score) over all
the sides it rests on; ties for the highest score are reported separately as "tie rate". They
are never counted as half a win (so win rate + tie rate + loss rate = 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pandas as pd

from ..cards import RED_THREE
from ..game.rules import Rules
from ..nb.enums import PICKUP_BIN
from .aggregate import N_RANKS, SCORE_OFFSET, SCORE_STEP, TIMED_CANASTAS, Aggregates
from .intervals import hist_mean, hist_quantile, mean_interval, ratio_interval, wilson_interval
from .records import END_REASONS
from .stats import (
    exact_any_red_three_dealt,
    exact_pile_frozen_at_start,
    exact_red_threes_dealt_per_side,
    exact_red_threes_dealt_pmf,
    exact_upcard_cards,
    pack_counts,
)
from .study_stats import KINDS, canasta_timing, red_three_value

__all__ = ["COLUMNS", "GROUPS", "QUANTILES", "SEAT_DIFF", "canasta_turn_statistic", "summary"]

#: Columns of the :func:`summary` frame, in order.
COLUMNS = ("group", "statistic", "value", "ci_low", "ci_high", "n", "exact")
#: Score quantiles reported, in percent.
QUANTILES = (5, 25, 50, 75, 95)
#: Rounds (1-based; a round: every player one turn) at which the summary gives the canasta
#: timing curves of :func:`canasta_sim.results.study_stats.canasta_timing`.
TIMING_ROUNDS = (5, 10, 20)
ORDINALS = ("first", "second", "third")
_COUNT_WORDS = ("one", "two", "three")
RANK_NAMES = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_NAN = float("nan")
#: Name of the seat-advantage score difference (the first side's score minus the mean of the
#: others', exact from the per-deal difference's own sums).
SEAT_DIFF = "score of the side playing first minus the others' (points)"


def _red_threes(h: int) -> str:
    return f"{h} red three" + ("" if h == 1 else "s")


class _Rows:
    """The summary's rows as a group function adds them (one dict per row, :data:`COLUMNS`)."""

    def __init__(self):
        self.rows: list[dict] = []

    def add(self, group, statistic, value, low=_NAN, high=_NAN, n=0, exact=None):
        self.rows.append(
            {
                "group": group,
                "statistic": statistic,
                "value": float(value),
                "ci_low": float(low),
                "ci_high": float(high),
                "n": int(n),
                "exact": _NAN if exact is None else float(exact),
            }
        )

    def rate(self, group, statistic, k, n, exact=None):
        k, n = int(k), int(n)
        low, high = wilson_interval(k, n)
        self.add(group, statistic, k / n if n else _NAN, low, high, n, exact)

    def mean(self, group, statistic, hist, values=None, exact=None):
        """A histogram's mean; its interval stays inside the values the histogram can hold
        (a count's normal interval would reach below 0 on a few deals)."""
        mean, low, high, n = hist_mean(hist, values)
        support = np.arange(len(hist)) if values is None else np.asarray(values)
        if len(support):
            low, high = _clip(low, high, float(support.min()), float(support.max()))
        self.add(group, statistic, mean, low, high, n, exact)

    def mean_sums(self, group, statistic, total, total_sq, n, exact=None, floor=None):
        """A mean from exact sums; ``floor`` is the least value an observation can take (0
        for a count), the interval's lower bound kept at or above it."""
        mean, low, high = mean_interval(total, total_sq, n)
        if floor is not None:
            low, high = _clip(low, high, floor, math.inf)
        self.add(group, statistic, mean, low, high, n, exact)


def _clip(low: float, high: float, least: float, most: float) -> tuple[float, float]:
    """An interval cut to the range ``least`` .. ``most`` the estimate can take (NaN stays)."""
    return min(max(low, least), most), max(min(high, most), least)


def _sd(total: int, total_sq: int, n: int) -> float:
    """The sample standard deviation (``ddof=1``) from exact integer sums."""
    total, total_sq, n = int(total), int(total_sq), int(n)
    if n < 2:
        return _NAN
    return math.sqrt(max(float(Fraction(n * total_sq - total * total, n * (n - 1))), 0.0))


def _side_deals(agg: Aggregates) -> int:
    return agg.n_deals * agg.sides


# --- the groups, in the table's order -------------------------------------------------------
def red_threes(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Red threes by source, held, dealt, their score and the win rates by the count held
    (R-14, R-15, R-16, R-50)."""
    g, c, deals, side_deals = "red threes", agg.counts, agg.n_deals, _side_deals(agg)
    red = int(pack_counts(rules)[RED_THREE])
    for key, label, exact in (
        ("red_threes_dealt", "dealt", exact_red_threes_dealt_per_side(rules)),
        ("red_threes_drawn", "drawn", None),
        ("red_threes_from_pile", "from the pile", None),
        ("red_threes", "in total", None),
    ):
        out.mean(g, f"red threes {label} per side per deal", c[key].sum(axis=0), exact=exact)
    held = c["red_threes"].sum(axis=0)
    for h in range(red + 1):
        out.rate(g, f"P(side holds {_red_threes(h)})", held[h], side_deals)
    pmf = exact_red_threes_dealt_pmf(rules)
    dealt = c["red_threes_dealt"].sum(axis=0)
    for h in range(red + 1):
        out.rate(g, f"P(side is dealt {_red_threes(h)})", dealt[h], side_deals, exact=pmf[h])
    # at most one side can hold all of them, so the per-side counts add up to deals
    out.rate(
        g, f"deals where one side holds all {red} red threes", c["red_threes"][:, red].sum(), deals
    )
    any_dealt = c["red_threes_dealt_any"]
    out.rate(
        g,
        "deals with at least one red three dealt",
        deals - any_dealt[0],
        deals,
        exact=exact_any_red_three_dealt(rules),
    )
    out.rate(
        g,
        "red-three score negative (side made no meld), per side",
        c["red_three_score_negative"].sum(),
        side_deals,
    )
    # |red-three score| depends only on the count held, so its sum of squares is exact
    r3_sq = sum(int(held[h]) * rules.red_three_score(h) ** 2 for h in range(len(held)) if held[h])
    out.mean_sums(
        g,
        "mean red-three score per side (points)",
        c["red_three_score_sum"].sum(),
        r3_sq,
        side_deals,
    )
    by_held = c["red_threes_outcome"].sum(axis=0)  # (H, 3): win, tie, loss
    for h in range(red + 1):
        n_h = by_held[h].sum()
        out.rate(g, f"win rate of a side holding {_red_threes(h)}", by_held[h, 0], n_h)
    for h in range(red + 1):
        n_h = by_held[h].sum()
        out.rate(g, f"tie rate of a side holding {_red_threes(h)}", by_held[h, 1], n_h)


def canastas(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Canastas by kind, melds, and the deal's first canasta (R-65..R-67)."""
    g, c, deals, side_deals = "canastas", agg.counts, agg.n_deals, _side_deals(agg)
    for key, label in (
        ("natural_canastas", "natural"),
        ("mixed_canastas", "mixed"),
        ("concealed_canastas", "concealed"),
        ("canastas", "total"),
    ):
        out.mean(g, f"{label} canastas per side per deal", c[key].sum(axis=0))
    out.rate(
        g, "P(side makes at least one canasta)", side_deals - c["canastas"][:, 0].sum(), side_deals
    )
    out.mean(g, "melds per side at the end of the deal", c["melds"].sum(axis=0))
    first = c["first_canasta_turn"]  # index = turn + 1, 0 = none
    out.rate(g, "deals with at least one canasta", first[1:].sum(), deals)
    out.mean(g, "turn of the first canasta (0-based, deals with one)", first[1:])


def canasta_ranks(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Natural canastas by rank (4 .. A), per side per deal (R-65)."""
    g, by_rank, side_deals = (
        "canasta ranks",
        agg.counts["canasta_rank"].sum(axis=0),
        _side_deals(agg),
    )
    for r in range(N_RANKS):
        out.rate(g, f"canasta of {RANK_NAMES[r]}s per side per deal", by_rank[r], side_deals)


def pile(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Pickups of the discard pile by kind and size, and discards that freeze or block it
    (all sides pooled; R-30..R-35)."""
    g, c, side_deals = "pile", agg.counts, _side_deals(agg)
    sums, sumsq = c["pickups_sum"].sum(axis=0), c["pickups_sumsq"].sum(axis=0)
    for i, label in enumerate(
        ("", " with a natural pair", " with a natural and wild cards", " onto a meld")
    ):
        out.mean_sums(
            g, f"pile pickups{label} per side per deal", sums[i], sumsq[i], side_deals, floor=0
        )
    size = ratio_interval(
        c["pile_taken_sum"].sum(),
        c["pile_taken_sumsq"].sum(),
        sums[0],
        sumsq[0],
        c["pile_taken_cross"].sum(),
        side_deals,
    )
    out.add(g, "pile size at a pickup (cards, top card included)", *size, int(sums[0]))
    bins = c["pickup_size"].sum(axis=0)
    for i, count in enumerate(bins):
        low = i * PICKUP_BIN
        cards = f"{low} to {low + PICKUP_BIN - 1}" if i < len(bins) - 1 else f"{low} or more"
        out.rate(g, f"share of pickups of {cards} cards", count, bins.sum())
    for key, label in (
        ("wild_freezes", "wild cards discarded to freeze the pile"),
        ("black_three_blocks", "black threes discarded to block"),
    ):
        out.mean_sums(
            g,
            f"{label} per side per deal",
            c[key + "_sum"].sum(),
            c[key + "_sumsq"].sum(),
            side_deals,
            floor=0,
        )


def timeline(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """When a side makes its initial meld (R-40..R-42)."""
    g, side_deals = "timeline", _side_deals(agg)
    first = agg.counts["initial_meld_turn"].sum(axis=0)  # index = turn + 1, 0 = none
    out.rate(g, "P(side makes its initial meld)", first[1:].sum(), side_deals)
    out.mean(g, "turn of the side's initial meld (0-based, sides that made one)", first[1:])
    out.add(
        g,
        "median turn of the side's initial meld",
        *hist_quantile(first[1:], 0.5),
        n=int(first[1:].sum()),
    )


def end(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """How deals start and end: end reasons, turns, the upcard, going out (R-12, R-13, R-40,
    R-44, R-45, R-47)."""
    g, c, deals, side_deals = "end", agg.counts, agg.n_deals, _side_deals(agg)
    for i, reason in enumerate(END_REASONS):
        out.rate(g, f"deals ending: {reason.replace('_', ' ')}", c["end_reason"][i], deals)
    out.mean(g, "turns per deal", c["turns"])
    out.mean(g, "cards turned for the upcard", c["upcard_cards"], exact=exact_upcard_cards(rules))
    out.rate(
        g,
        "pile frozen at start",
        c["pile_frozen_at_start"][0],
        deals,
        exact=exact_pile_frozen_at_start(rules),
    )
    out.rate(g, "went out, per side", c["went_out"].sum(), side_deals)
    out.rate(g, "went out concealed, per deal", c["concealed_out"][0], deals)
    out.rate(
        g,
        "went out concealed, among deals with a side going out",
        c["concealed_out"][0],
        c["went_out"].sum(),
    )


def score(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Deal scores: mean, spread, quantiles, per side, by part, win and tie rates
    (R-50..R-54)."""
    g, c, deals, side_deals = "score", agg.counts, agg.n_deals, _side_deals(agg)
    hist = c["score"].sum(axis=0)
    values = np.arange(hist.shape[0], dtype=np.int64) * SCORE_STEP - SCORE_OFFSET
    total, total_sq = int(c["score_sum"].sum()), int(c["score_sumsq"].sum())
    out.mean_sums(g, "mean score per side (points)", total, total_sq, side_deals)
    out.add(g, "sd of the score per side (points)", _sd(total, total_sq, side_deals), n=side_deals)
    for q in QUANTILES:
        out.add(
            g,
            f"score quantile {q}% (points)",
            *hist_quantile(hist, q / 100, values),
            n=int(hist.sum()),
        )
    for s in range(agg.sides):
        out.mean_sums(
            g, f"mean score of side {s} (points)", c["score_sum"][s], c["score_sumsq"][s], deals
        )
    for key, label in (
        ("meld_points", "card points in melds"),
        ("canasta_bonus", "canasta bonuses"),
        ("going_out_bonus", "going-out bonus"),
        ("hand_penalty", "penalty for cards left in hand"),
    ):
        total_k = int(c[key + "_sum"].sum())
        out.add(
            g,
            f"mean {label} per side (points)",
            total_k / side_deals if side_deals else _NAN,
            n=side_deals,
        )
    for s in range(agg.sides):
        out.rate(g, f"win rate of side {s}", c["outcome"][s, 0], deals)
    for s in range(agg.sides):
        out.rate(g, f"tie rate of side {s}", c["outcome"][s, 1], deals)


def seat(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """The seat advantage: position 0 is the side of the player who plays first (R-11)."""
    g, c, deals = "seat", agg.counts, agg.n_deals
    pos = c["position_outcome"]
    out.rate(g, "win rate of the side playing first", pos[0, 0], deals)
    out.rate(g, "tie rate of the side playing first", pos[0, 1], deals)
    ps, pq = c["position_score_sum"], c["position_score_sumsq"]
    out.mean_sums(g, "mean score of the side playing first (points)", ps[0], pq[0], deals)
    # the first side's score minus the mean of the others, exact from its own sums
    k = agg.sides - 1
    mean_d, low_d, high_d = mean_interval(
        int(c["position_diff_sum"][0]), int(c["position_diff_sumsq"][0]), deals
    )
    out.add(g, SEAT_DIFF, mean_d / k, low_d / k, high_d / k, deals)


def red_three_worth(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """The causal value of red threes dealt (R-15, R-50):
    :func:`canasta_sim.results.study_stats.red_three_value`."""
    for r in red_three_value(agg, rules).itertuples(index=False):
        out.add("red-three value", r.effect, r.value, r.ci_low, r.ci_high, r.n)


def canasta_times(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """The turn of a side's k-th canasta and its Kaplan-Meier / Aalen-Johansen curves
    (R-65..R-67): :func:`canasta_sim.results.study_stats.canasta_timing`."""
    g, side_deals = "canasta timing", _side_deals(agg)
    for k in range(TIMED_CANASTAS):
        out.mean(
            g,
            canasta_turn_statistic(k + 1),
            agg.counts["canasta_done"][:, k].sum(axis=(0, 1)),
        )
    timing = canasta_timing(agg, rules).set_index(["canasta", "kind", "round"])
    for k in range(1, TIMED_CANASTAS + 1):
        for kind in KINDS:
            for t in TIMING_ROUNDS:
                if (k, kind, t) not in timing.index:
                    continue
                r = timing.loc[(k, kind, t)]
                what = "" if kind == "any" else f", {kind},"
                out.add(
                    g,
                    f"P(side's {ORDINALS[k - 1]} canasta{what} by round {t}, had the deal gone on)",
                    r["value"],
                    r["ci_low"],
                    r["ci_high"],
                    side_deals,
                )


def bots(out: _Rows, agg: Aggregates, rules: Rules) -> None:
    """Each bot's win rate and mean score over the sides it played."""
    c = agg.counts
    for b, spec in enumerate(agg.bots):
        n_b = c["bot_sides"][b]
        out.rate("bot", f"win rate of {spec}", c["bot_outcome"][b, 0], n_b)
        out.mean_sums(
            "bot",
            f"mean score of {spec} (points)",
            c["bot_score_sum"][b],
            c["bot_score_sumsq"][b],
            n_b,
        )


#: The summary's groups, in the table's order: ``group(out, agg, rules)`` adds the group's
#: rows to ``out`` from ``agg.counts`` (and ``rules`` for exact values and R-50's scores).
GROUPS: tuple[Callable[[_Rows, Aggregates, Rules], None], ...] = (
    red_threes,
    canastas,
    canasta_ranks,
    pile,
    timeline,
    end,
    score,
    seat,
    red_three_worth,
    canasta_times,
    bots,
)


def summary(agg: Aggregates, rules: Rules, policy: str = "") -> pd.DataFrame:
    """Every statistic of a run with its 95% interval, from ``agg.counts`` alone.

    Every statistic but the exact values of the deal (red threes dealt, the upcard) describes
    the play of the run's bots: the policy is part of what a figure means.

    Parameters
    ----------
    agg : Aggregates
        The run's aggregates (possibly from a ``records=False`` run or ``aggregates.json``).
    rules : Rules
        The run's rules (for exact values and the red-three scores of R-50).
    policy : str
        The play the statistics describe (:func:`~canasta_sim.results.stats.policy_label` of
        the run's manifest), kept in ``frame.attrs["policy"]`` and printed by
        :func:`~canasta_sim.results.stats.format_summary`.

    Returns
    -------
    pandas.DataFrame
        One row per statistic; columns :data:`COLUMNS` (see the module docstring). Rates are in
        0..1, scores in points, turns 0-based. ``frame.attrs["policy"]``: ``policy``.

    Raises
    ------
    ValueError
        If the aggregates' player or side count does not match ``rules``.

    Notes
    -----
    Adding a statistic. One that the counts already hold is one file: a row added in its
    group's function in this module (a new group: a function listed in :data:`GROUPS`). One
    that needs a new count of a value the records hold is three files:

    1. ``canasta_sim/nb/chunk_counts.py``: the count's name and axes in
       :data:`~canasta_sim.nb.chunk_counts.COUNTS`, with what it holds (its shape follows
       from the axes, :func:`~canasta_sim.results.aggregate.count_shapes`), and the line of
       :func:`~canasta_sim.nb.chunk_counts.add_chunk_nb` that adds each deal's value into
       it (``c[at[Count.name] + ...] += v``);
    2. ``tests/nb/test_aggregate_rows.py``: the same count in ``reference``, the plain-Python
       loop the kernel's every count is checked against;
    3. this module (``canasta_sim/results/statistics.py``): the row that reads
       ``agg.counts["name"]``.

    ``tests/results/test_stats.py`` checks that every count is read by some statistic;
    ``python scripts/statistics_table.py`` then regenerates the table of docs/statistics.md
    (generated, not edited). A value the records do not hold yet is a new record field
    first (its dtype in ``run/records.py`` and the kernel that writes it), a change of its
    own.
    """
    if (agg.players, agg.sides) != (rules.players, rules.sides):
        raise ValueError(
            f"aggregates of {agg.players} players / {agg.sides} sides do not match "
            f"rules with players={rules.players} ({rules.sides} sides)"
        )
    out = _Rows()
    for group in GROUPS:
        group(out, agg, rules)
    frame = pd.DataFrame(out.rows, columns=list(COLUMNS))
    frame["n"] = frame["n"].astype(np.int64)
    frame.attrs["policy"] = policy
    return frame


def canasta_turn_statistic(k: int) -> str:
    """Name of the summary's mean turn of a side's ``k``-th canasta (1 to 3): the mean is over
    the sides that made at least ``k`` canastas (the others have no such turn).

    Parameters
    ----------
    k : int
        Which canasta, 1-based.

    Returns
    -------
    str
        E.g. ``"turn of a side's second canasta (0-based, sides that made at least two)"``.
    """
    return (
        f"turn of a side's {ORDINALS[k - 1]} canasta (0-based, sides that made at least "
        f"{_COUNT_WORDS[k - 1]})"
    )
