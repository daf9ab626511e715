"""Paired comparisons of two bots: their exactly mergeable sums (:class:`PairSums`), the
comparison table with its 95% intervals, and how comparisons and sweeps are printed.

Bots rotate over the sides so each plays every seat equally often, and the rotations of one
board share their cards (duplicate play, :func:`canasta_sim.run.compare.compare` plays them).
The score difference is therefore paired by board: its interval rests on the per-board
differences (the rotations of one shuffle averaged), and the correlation between the
rotations of a board says how much of the luck of the cards the pairing removes (a negative
correlation narrows the interval). Every statistic is a sum, so comparisons stream in constant
memory whatever their length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .intervals import mean_interval, sequence_interval, wilson_interval
from .tables import align_columns, interval, number

COLUMNS = (
    "bot",
    "n",
    "wins",
    "losses",
    "ties",
    "win_rate",
    "win_low",
    "win_high",
    "fair_share",
    "win_rate_per_side",
    "mean_score",
    "score_low",
    "score_high",
    "mean_diff",
    "diff_low",
    "diff_high",
)


@dataclass
class PairSums:
    """Exactly mergeable sums of a rotated comparison of bot A against bot B.

    Per deal (or game) with ``S`` sides, A's score ``a`` and the sum of all sides' scores
    ``t``: the scaled difference ``D = S * a - t`` is ``(S - 1)`` times A's score minus the
    mean of the B sides. A board is the ``R = S`` rotations of one shuffle; rotation ``r`` has
    A on side ``r``.

    Attributes
    ----------
    sides : int
    n : int
        Deals (or games).
    a_wins, b_wins, ties : int
        Sole wins of A's side, of a B side, and ties for the highest score.
    a_sum, a_sumsq : int
        Sum and sum of squares of ``a`` (points).
    b_sum, b_sumsq : int
        The same of ``t - a`` (points; the B sides together).
    d_sum : list of int, (R,)
        Sum of ``D`` per rotation.
    cross : list of list of int, (R, R)
        Sum over boards of ``D_r * D_s``; its diagonal is the sum of squares per rotation.
    """

    sides: int
    n: int = 0
    a_wins: int = 0
    b_wins: int = 0
    ties: int = 0
    a_sum: int = 0
    a_sumsq: int = 0
    b_sum: int = 0
    b_sumsq: int = 0
    d_sum: list[int] = field(default_factory=list)
    cross: list[list[int]] = field(default_factory=list)

    def __post_init__(self):
        r = self.sides
        self.d_sum = self.d_sum or [0] * r
        self.cross = self.cross or [[0] * r for _ in range(r)]

    @classmethod
    def from_scores(cls, scores: np.ndarray, outcome: np.ndarray, first: int) -> PairSums:
        """Sums of whole boards.

        Parameters
        ----------
        scores : ndarray(int64, (n, sides))
            Points of each side per deal (or final game scores); ``n`` a multiple of
            ``sides``, the deals of whole boards in order.
        outcome : ndarray(int64, (n,))
            Winning side per deal or game, -1 for a tie for first place.
        first : int
            Index of the first deal (a multiple of ``sides``): rotation of deal ``k`` is
            ``k % sides``.
        """
        n, sides = scores.shape
        assert n % sides == 0 and first % sides == 0, "sums are of whole boards"
        a_side = np.arange(n, dtype=np.int64) % sides
        a = scores[np.arange(n), a_side]
        t = scores.sum(axis=1)
        b = t - a
        d = (sides * a - t).reshape(-1, sides)  # (boards, R)
        a_win = outcome == a_side
        tie = outcome < 0
        return cls(
            sides,
            n,
            int(a_win.sum()),
            int((~a_win & ~tie).sum()),
            int(tie.sum()),
            int(a.sum()),
            int((a * a).sum()),
            int(b.sum()),
            int((b * b).sum()),
            [int(x) for x in d.sum(axis=0)],
            [[int(x) for x in row] for row in d.T @ d],
        )

    def __iadd__(self, other: PairSums) -> PairSums:
        for name in ("n", "a_wins", "b_wins", "ties", "a_sum", "a_sumsq", "b_sum", "b_sumsq"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        r = self.sides
        self.d_sum = [self.d_sum[i] + other.d_sum[i] for i in range(r)]
        self.cross = [[self.cross[i][j] + other.cross[i][j] for j in range(r)] for i in range(r)]
        return self

    @property
    def boards(self) -> int:
        return self.n // self.sides

    def diff_interval(self) -> tuple[float, float, float]:
        """A's mean score difference (points; its side minus the mean of the B sides) with
        the 95% interval of the per-board differences (the board's rotations averaged)."""
        scale = self.sides * (self.sides - 1)  # R = S rotations, D is (S - 1) x the difference
        board_sum = sum(self.d_sum)
        board_sumsq = sum(sum(row) for row in self.cross)
        m, lo, hi = mean_interval(board_sum, board_sumsq, self.boards)
        return m / scale, lo / scale, hi / scale

    def diff_sequence(self, target: int) -> tuple[float, float, float]:
        """The same mean with its always-valid 95% interval over the boards
        (:func:`~canasta_sim.results.intervals.sequence_interval`, narrowest at ``target``
        boards): valid however often it is read while the run goes on."""
        scale = self.sides * (self.sides - 1)
        board_sum = sum(self.d_sum)
        board_sumsq = sum(sum(row) for row in self.cross)
        m, lo, hi = sequence_interval(board_sum, board_sumsq, self.boards, target)
        return m / scale, lo / scale, hi / scale

    def unpaired_interval(self) -> tuple[float, float, float]:
        """The same mean with the interval that treats every deal as independent (for
        comparison: what the pairing gains)."""
        total = sum(self.d_sum)
        total_sq = sum(self.cross[i][i] for i in range(self.sides))
        m, lo, hi = mean_interval(total, total_sq, self.n)
        return m / (self.sides - 1), lo / (self.sides - 1), hi / (self.sides - 1)

    def rotation_correlation(self) -> float:
        """Pearson correlation of the score difference between two rotations of a board,
        averaged over the pairs of rotations (NaN with fewer than 2 boards or no spread)."""
        m = self.boards
        if m < 2:
            return math.nan
        r = self.sides
        mean = [self.d_sum[i] / m for i in range(r)]
        var = [self.cross[i][i] / m - mean[i] ** 2 for i in range(r)]
        corrs = []
        for i in range(r):
            for j in range(i + 1, r):
                cov = self.cross[i][j] / m - mean[i] * mean[j]
                if var[i] <= 0 or var[j] <= 0:
                    return math.nan
                corrs.append(cov / math.sqrt(var[i] * var[j]))
        return float(np.mean(corrs))


def comparison_table(
    sums: PairSums, specs: tuple[str, str], target: int | None = None
) -> pd.DataFrame:
    """Per-bot rows of a rotated comparison.

    Parameters
    ----------
    sums : PairSums
    specs : (str, str)
        Bot specs A and B.
    target : int, optional
        For a run that stopped when its result was decided (``compare --until``): the
        difference interval is the always-valid one (:meth:`PairSums.diff_sequence`,
        narrowest at ``target`` boards) and ``frame.attrs["sequence_target"]`` is set.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`: wins/losses/ties of each bot (a win by any side the bot
        holds), win rate with its 95% Wilson interval, ``fair_share`` (the share of the sides
        the bot holds: A holds one of ``S``, B the other ``S - 1``; a win rate equal to it is
        even play), ``win_rate_per_side`` (win rate divided by the sides held, comparable
        between the bots), mean score per side with its 95% interval, and the mean score
        difference (this bot's side minus the mean of the other bot's sides) with the 95%
        interval of the per-board differences. ``frame.attrs`` holds
        ``rotation_correlation`` (:meth:`PairSums.rotation_correlation`) and
        ``unpaired_halfwidth`` (the half-width the interval would have without the pairing).
    """
    S, n = sums.sides, sums.n
    dm, dl, dh = sums.diff_interval() if target is None else sums.diff_sequence(target)
    am, al, ah = mean_interval(sums.a_sum, sums.a_sumsq, n)
    bm, bl, bh = (v / (S - 1) for v in mean_interval(sums.b_sum, sums.b_sumsq, n))
    out = []
    for spec, wins, losses, held, score, diff in (
        (specs[0], sums.a_wins, sums.b_wins, 1, (am, al, ah), (dm, dl, dh)),
        (specs[1], sums.b_wins, sums.a_wins, S - 1, (bm, bl, bh), (-dm, -dh, -dl)),
    ):
        low, high = wilson_interval(wins, n)
        out.append(
            (spec, n, wins, losses, sums.ties, wins / n, low, high, held / S, wins / n / held)
            + tuple(score)
            + tuple(diff)
        )
    frame = pd.DataFrame(out, columns=list(COLUMNS))
    _, ul, uh = sums.unpaired_interval()
    frame.attrs["rotation_correlation"] = sums.rotation_correlation()
    frame.attrs["unpaired_halfwidth"] = (uh - ul) / 2
    if target is not None:
        frame.attrs["sequence_target"] = target
    return frame


def table_notes(frame: pd.DataFrame) -> list[str]:
    """Lines to print under a comparison table: how the difference interval is paired, and
    with 3 sides, the fair share."""
    n_sides = round(1 / frame["fair_share"].iloc[0])
    corr = frame.attrs.get("rotation_correlation", math.nan)
    half = (frame["diff_high"].iloc[0] - frame["diff_low"].iloc[0]) / 2
    unpaired = frame.attrs.get("unpaired_halfwidth", math.nan)
    per_board = (
        f"difference intervals are per board (the {n_sides} rotations of one shuffle averaged)"
    )
    if math.isnan(half):
        pairing = "one board gives none"
    else:
        pairing = (
            f"rotations correlate at {number(corr, '+.3f')}, so pairing gives +-{half:.4g} "
            f"instead of +-{number(unpaired, '.4g')} points"
        )
    target = frame.attrs.get("sequence_target")
    if target is not None and not math.isnan(half):
        pairing = (
            f"rotations correlate at {number(corr, '+.3f')}; the interval is always valid "
            f"(a confidence sequence, narrowest at {target:,} boards), so it may be read "
            f"after every block"
        )
    lines = [f"{per_board}; {pairing}"]
    if n_sides > 2:
        b = frame["bot"].iloc[1]
        lines.append(
            f"{b} holds {n_sides - 1} of the {n_sides} sides in every deal: its fair share "
            f"of wins is {frame['fair_share'].iloc[1]:.1%}; the win rate per side compares "
            f"the bots seat for seat"
        )
    return lines


def format_comparison(frame: pd.DataFrame, unit: str = "deals") -> str:
    """A comparison table (:func:`comparison_table`) for people: one aligned row per bot with
    its win rate, mean score and score difference, each with its 95% interval; with 3 sides
    also the fair share and the win rate per side held.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns :data:`COLUMNS`.
    unit : {"deals", "games"}
        What was played: scores are points per deal or final points per game.
    """
    per = unit[:-1]
    three = round(1 / frame["fair_share"].iloc[0]) > 2
    head = [
        "bot",
        unit,
        "wins",
        "losses",
        "ties",
        "win rate [95%]",
        *(["fair share", "win rate per side"] if three else []),
        f"score, points per {per} [95%]",
        f"difference, points per {per} [95%]",
    ]
    rows = [
        [
            r.bot,
            f"{r.n:,}",
            f"{r.wins:,}",
            f"{r.losses:,}",
            f"{r.ties:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
            *([number(r.fair_share, ".1%"), number(r.win_rate_per_side, ".1%")] if three else []),
            interval(r.mean_score, r.score_low, r.score_high, "+,.1f"),
            interval(r.mean_diff, r.diff_low, r.diff_high, "+,.1f"),
        ]
        for r in frame.itertuples()
    ]
    return align_columns([head, *rows])


def comparison_reading(frame: pd.DataFrame, unit: str = "deals") -> str:
    """The one line under a comparison that says how to read it: bot A's points per deal (or
    game) against B and its win rate, and which of the two to trust for what. Points decide
    games, so over deals the score difference says which bot is stronger, while the deal win
    rate counts wins and ignores their margins (a weak bot can win most deals by a little and
    lose the game by a lot); over games the game win rate is the result itself."""
    a, b = frame.iloc[0], frame.iloc[1]
    if a.mean_diff < 0:  # "scores 926.6 [673.6, 1,179.7] points less", not "-926.6 ... more"
        diff = interval(-a.mean_diff, -a.diff_high, -a.diff_low, ",.1f")
        more = "less"
    else:
        diff = interval(a.mean_diff, a.diff_low, a.diff_high, "+,.1f")
        more = "more"
    wins = interval(a.win_rate, a.win_low, a.win_high, ".1%")
    even = f"{a.fair_share:.1%}"
    if unit == "games":
        return (
            f"reading: {a.bot} wins {wins} of games against {b.bot} (even: {even}) and scores "
            f"{diff} points a game {more}: the game win rate is the result that counts, the "
            f"points per game measure the margin"
        )
    ahead_on_points = a.diff_low > 0 or a.diff_high < 0
    ahead_on_wins = a.win_low > a.fair_share or a.win_high < a.fair_share
    disagree = (
        ahead_on_points and ahead_on_wins and (a.mean_diff > 0) != (a.win_rate > a.fair_share)
    )
    return (
        f"reading: {a.bot} scores {diff} points a deal {more} than {b.bot} and wins {wins} of "
        f"deals (even: {even}); trust the points for strength (points decide games), the deal "
        f"win rate ignores the margins"
        + (" (here the two disagree: trust the points)" if disagree else "")
    )


def comparison_settings(frame: pd.DataFrame) -> dict:
    """What a comparison's JSON output says of its run (from its manifest): ``unit``
    (deals or games), ``count``, ``players``, ``seed``, ``bots`` (A, B),
    ``rotation_correlation`` and ``unpaired_halfwidth`` (points); after ``--until``, also
    ``until`` (``rule``, ``most``, ``block``, ``stopped``: why the run stopped)."""
    m = frame.attrs["manifest"]
    unit = "games" if "games" in m else "deals"
    settings = {
        "unit": unit,
        "count": m[unit],
        "players": m["rules"]["players"],
        "seed": m["seed"],
        "bots": list(frame["bot"]),
        "rotation_correlation": frame.attrs["rotation_correlation"],
        "unpaired_halfwidth": frame.attrs["unpaired_halfwidth"],
    }
    if "until" in m:
        settings["until"] = m["until"]
    return settings


def sweep_title(frame: pd.DataFrame) -> str:
    """The line above a sweep's table: what was swept against whom, deals, players, seed."""
    m = frame.attrs["manifest"]
    s = m["sweep"]
    return (
        f"sweep of {s['param']} for {s['bot']} against {s['vs']}: {m['deals']:,} deals per "
        f"value, {m['rules']['players']} players, seed {m['seed']}"
    )


def format_sweep(frame: pd.DataFrame) -> str:
    """A sweep (:func:`canasta_sim.sweep`) for people: one aligned row per value of the
    parameter (the baseline, if any, marked), with the swept bot's win rate, mean score and
    score difference against the opponent per deal, each with its 95% interval."""
    marked = bool(frame["baseline"].any())
    head = [
        frame["param"].iloc[0],
        *(["baseline"] if marked else []),
        "deals",
        "win rate [95%]",
        "score, points per deal [95%]",
        "difference, points per deal [95%]",
    ]
    rows = [
        [
            f"{r.value:g}",
            *(["yes" if r.baseline else ""] if marked else []),
            f"{r.n:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
            interval(r.mean_score, r.score_low, r.score_high, "+,.1f"),
            interval(r.mean_diff, r.diff_low, r.diff_high, "+,.1f"),
        ]
        for r in frame.itertuples()
    ]
    return align_columns([head, *rows], left=2 if marked else 1)


def sweep_settings(frame: pd.DataFrame) -> dict:
    """What a sweep's JSON output says of its run: ``bot``, ``param``, ``vs``, ``deals`` (per
    value), ``players`` and ``seed``."""
    m = frame.attrs["manifest"]
    s = m["sweep"]
    return {
        "bot": s["bot"],
        "param": s["param"],
        "vs": s["vs"],
        "deals": m["deals"],
        "players": m["rules"]["players"],
        "seed": m["seed"],
    }


def plot_sweep(frame: pd.DataFrame, path: Path) -> None:
    """PNG of the mean score difference (with its 95% interval) against the parameter."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.0))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    x = frame["value"].to_numpy()
    y = frame["mean_diff"].to_numpy()
    err = np.vstack([y - frame["diff_low"].to_numpy(), frame["diff_high"].to_numpy() - y])
    ax.errorbar(x, y, yerr=err, marker="o", capsize=4)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(frame["param"].iloc[0])
    ax.set_ylabel("mean score difference per deal (points)")
    s = frame.attrs["manifest"]["sweep"]
    ax.set_title(f"{s['bot']} vs {s['vs']}: 95% intervals per board")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
