"""Study statistics from exactly mergeable sums: the causal value of a red three, and canasta
timing as survival curves.

Red threes dealt (R-15) are a natural experiment: the shuffle assigns them, independently of
how the bots play, unlike red threes held, which grow with the deal's length. The aggregates
keep, per side, the deals and the sums of the side's *lead* (its deal score minus the mean of
the other sides' scores, points) in every cell (red threes dealt to the side ``a``, to the
other sides together ``b``); from those cells :func:`red_three_value` computes

* the lead per red three dealt: the coefficient of ``a`` in the least-squares fit
  ``lead ~ 1 + a + b`` (so the other sides' red threes are held fixed), gross and net of the
  red-three scores themselves (R-50; net: every side's score without its red-three score),
  and the same for the chance of winning the deal (a linear probability model);
* the lead of a side dealt ``h`` red threes minus that of a side dealt none (difference of
  means), and the all-four bonus effect: how much more the last step to all red threes (4 of
  108 cards, 5 of 162: R-50's bonus) adds than the step before it.

Within a cell the regressors are constant, so the fit and its heteroskedasticity-robust (HC0)
covariance are exact functions of the cell sums. The fit is made per side (deals are
independent); the sides of one deal are not, so the estimate is the mean over sides and its
standard error the mean of the sides' standard errors, an upper bound whatever their
correlation (for two sides, whose leads mirror each other, it is exact).

Canasta timing (:func:`canasta_timing`): per side, the probability of having completed the
side's first (second, third) canasta by the end of round ``t`` (a round: every player one
turn, so player counts compare; rounds count from 1), natural and mixed apart (a canasta's
kind when completed, R-65..R-67). The end of the deal censors: the curves are Kaplan-Meier
estimates (``1 - S(t)``, Greenwood variance) and, by kind, Aalen-Johansen cumulative
incidences (delta-method variance) that add up to the any-kind curve. Intervals are
``value +- Z95 * se`` clipped to 0..1; per side as for the red threes (mean over sides, mean
of the standard errors).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import ndtri  # not scipy.stats (about 1 s of start-up)

from ..game.notation import check_int
from ..game.rules import Rules
from ..run.games import MAX_DEALS, game_table, play_game_chunk
from ..run.runner import chunk_starts, run_chunks
from ..run.seating import Table, load_kernels
from .aggregate import RED_CELLS, TIMED_CANASTAS, Aggregates

__all__ = [
    "KINDS",
    "Z95",
    "GameRedThree",
    "all_red_threes",
    "canasta_timing",
    "cell_regression",
    "game_red_three",
    "red_three_value",
    "timing_curves",
]

#: Two-sided 95% normal quantile (1.959964...).
Z95 = float(ndtri(0.975))
#: Kinds of the canasta timing curves: any kind, then by the kind when completed.
KINDS = ("any", "natural", "mixed")
_NAN = float("nan")


def all_red_threes(rules: Rules) -> int:
    """Red threes one side must hold for R-50's bonus for all of them: 4 (108 cards), else 5."""
    return 4 if rules.n_cards == 108 else 5


# --- red threes dealt -------------------------------------------------------------------------
def cell_regression(n, total, total_sq) -> tuple[np.ndarray, np.ndarray]:
    """Least squares ``y ~ 1 + a + b`` from cell sums, with the HC0 robust covariance.

    Parameters
    ----------
    n, total, total_sq : ndarray(int64, (A, B))
        Observations, sum of ``y`` and sum of ``y**2`` in the cell ``(a, b)``.

    Returns
    -------
    (beta, cov) : ndarray(float64, (3,)), ndarray(float64, (3, 3))
        Coefficients (intercept, ``a``, ``b``) and their covariance; NaN when the cells do not
        identify the fit (fewer than three distinct ``(a, b)`` cells not on one line).
    """
    n, total, total_sq = (np.asarray(x, np.float64) for x in (n, total, total_sq))
    a, b = np.meshgrid(np.arange(n.shape[0]), np.arange(n.shape[1]), indexing="ij")
    x = np.stack([np.ones_like(n), a, b], axis=-1)[n > 0]  # (cells, 3)
    w, sy, syy = n[n > 0], total[n > 0], total_sq[n > 0]
    xtx = (x * w[:, None]).T @ x
    if np.linalg.matrix_rank(xtx) < 3:
        return np.full(3, _NAN), np.full((3, 3), _NAN)
    inv = np.linalg.inv(xtx)
    beta = inv @ (x.T @ sy)
    fit = x @ beta
    sse = np.maximum(syy - 2 * fit * sy + w * fit**2, 0.0)  # sum of squared residuals per cell
    meat = (x * sse[:, None]).T @ x
    return beta, inv @ meat @ inv


def _mean_diff(n, total, total_sq, weights) -> tuple[float, float]:
    """A linear combination ``sum_h weights[h] * mean_h`` of independent group means, with
    its standard error (groups: axis 0 of the ``(H, ...)`` cell arrays, summed over the rest)."""
    value, var = 0.0, 0.0
    for h, wt in enumerate(weights):
        if wt == 0:
            continue
        m, s, q = int(n[h].sum()), int(total[h].sum()), int(total_sq[h].sum())
        if m < 2:
            return _NAN, _NAN
        mean = s / m
        value += wt * mean
        var += wt * wt * max(q - s * mean, 0.0) / (m - 1) / m
    return value, float(np.sqrt(var))


def _over_sides(estimates) -> tuple[float, float]:
    """Mean over sides of ``(value, se)`` pairs, with the mean of the standard errors (an upper
    bound on the standard error of the mean, whatever the correlation of the sides)."""
    values = np.array([e[0] for e in estimates], np.float64)
    ses = np.array([e[1] for e in estimates], np.float64)
    return float(values.mean()), float(ses.mean())


def _interval(value: float, se: float, scale: float = 1.0):
    return value * scale, (value - Z95 * se) * scale, (value + Z95 * se) * scale


def red_three_value(agg: Aggregates, rules: Rules) -> pd.DataFrame:
    """The causal value of red threes dealt, from a run's aggregates (see the module
    docstring; R-15, R-50).

    Parameters
    ----------
    agg : Aggregates
    rules : Rules
        The run's rules (red threes in the pack, R-50's all-red-threes count).

    Returns
    -------
    pandas.DataFrame
        One row per estimate: ``effect`` (readable name), ``key`` (``lead``, ``lead_net``,
        ``win``, ``lead_h{h}``, ``lead_net_h{h}``, ``all_bonus``, ``all_bonus_net``), ``value``,
        ``ci_low``, ``ci_high`` (95%), ``n`` (deals the estimate rests on). Leads in points (a
        side's score minus the mean of the others'), win chances in 0..1.
    """
    c = agg.counts
    S = agg.sides
    scale = 1.0 / (S - 1)  # the cells hold (S - 1) times the lead: an integer
    red = min(RED_CELLS - 1, 4 * rules.n_cards // 108)
    top = all_red_threes(rules)
    cells = c["r3_cells"]
    rows = []

    def add(effect, key, value, se, n, s=1.0):
        v, lo, hi = _interval(value, se, s)
        rows.append({"effect": effect, "key": key, "value": v, "ci_low": lo, "ci_high": hi})
        rows[-1]["n"] = int(n)

    deals = agg.n_deals
    for key, total, total_sq, effect, s in (
        ("lead", "r3_lead_sum", "r3_lead_sumsq", "lead per red three dealt (points)", scale),
        (
            "lead_net",
            "r3_net_sum",
            "r3_net_sumsq",
            "lead per red three dealt, net of red-three scores (points)",
            scale,
        ),
        ("win", "r3_wins", "r3_wins", "P(win the deal) per red three dealt", 1.0),
    ):
        fits = [cell_regression(cells[i], c[total][i], c[total_sq][i]) for i in range(S)]
        value, se = _over_sides([(b[1], np.sqrt(v[1, 1])) for b, v in fits])
        add(effect, key, value, se, deals, s)
    for key, total, total_sq, label in (
        ("lead", "r3_lead_sum", "r3_lead_sumsq", ""),
        ("lead_net", "r3_net_sum", "r3_net_sumsq", ", net of red-three scores"),
    ):
        for h in range(1, red + 1):
            weights = np.zeros(red + 1)
            weights[[0, h]] = -1, 1
            est = [_mean_diff(cells[i], c[total][i], c[total_sq][i], weights) for i in range(S)]
            n_h = int(cells[:, [0, h]].sum())
            add(
                f"lead dealt {h} red three{'s' if h > 1 else ''} minus none{label} (points)",
                f"{key}_h{h}",
                *_over_sides(est),
                n_h,
                scale,
            )
        # the all-red-threes step against the step before it: m[top] - 2 m[top-1] + m[top-2]
        weights = np.zeros(top + 1)
        weights[[top - 2, top - 1, top]] = 1, -2, 1
        est = [_mean_diff(cells[i], c[total][i], c[total_sq][i], weights) for i in range(S)]
        add(
            f"all-{top} bonus effect: step to {top} red threes dealt beyond the step to "
            f"{top - 1}{label} (points)",
            "all_bonus" + key[4:],
            *_over_sides(est),
            int(cells[:, top - 2 : top + 1].sum()),
            scale,
        )
    return pd.DataFrame(rows, columns=["effect", "key", "value", "ci_low", "ci_high", "n"])


@dataclass
class GameRedThree:
    """Exactly mergeable cells of games by the red threes dealt in their first deal.

    Attributes
    ----------
    cells : ndarray(int64, (sides, RED_CELLS, RED_CELLS))
        Games per side and cell (red threes dealt to the side in the game's first deal, to
        the other sides together).
    wins : ndarray(int64, (sides, RED_CELLS, RED_CELLS))
        Of them, games the side won (R-55).
    """

    cells: np.ndarray
    wins: np.ndarray

    @classmethod
    def empty(cls, sides: int) -> GameRedThree:
        shape = (sides, RED_CELLS, RED_CELLS)
        return cls(np.zeros(shape, np.int64), np.zeros(shape, np.int64))

    @classmethod
    def from_frames(cls, games: pd.DataFrame, sides: pd.DataFrame, n_sides: int) -> GameRedThree:
        """Cells of ``games`` (one row per game: ``game``, ``winner``) from their deals'
        ``sides`` rows (``game``, ``deal``, ``side``, ``red_threes_dealt``), as
        :func:`canasta_sim.run.games.play_game_chunk` returns them."""
        first = sides[sides["deal"] == 0].sort_values(["game", "side"])
        own = first["red_threes_dealt"].to_numpy(np.int64).reshape(-1, n_sides)
        order = games.sort_values("game")
        winner = order["winner"].to_numpy(np.int64)
        out = cls.empty(n_sides)
        others = own.sum(axis=1, keepdims=True) - own
        cell = np.minimum(own, RED_CELLS - 1) * RED_CELLS + np.minimum(others, RED_CELLS - 1)
        for s in range(n_sides):
            flat = np.bincount(cell[:, s], minlength=RED_CELLS**2)
            won = np.bincount(cell[:, s], weights=winner == s, minlength=RED_CELLS**2)
            out.cells[s] += flat.reshape(RED_CELLS, RED_CELLS)
            out.wins[s] += np.rint(won).astype(np.int64).reshape(RED_CELLS, RED_CELLS)
        return out

    def __iadd__(self, other: GameRedThree) -> GameRedThree:
        self.cells += other.cells
        self.wins += other.wins
        return self

    def value(self) -> tuple[float, float, float, int]:
        """P(win the game) per red three dealt in its first deal (the coefficient of ``a`` in
        ``win ~ 1 + a + b``, as :func:`red_three_value`): ``(value, ci_low, ci_high, games)``."""
        fits = [cell_regression(n, w, w) for n, w in zip(self.cells, self.wins)]
        value, se = _over_sides([(b[1], np.sqrt(v[1, 1])) for b, v in fits])
        return (*_interval(value, se), int(self.cells[0].sum()))


def _game_chunk(table: Table, seed: int, first: int, n: int) -> GameRedThree:
    games, _, sides = play_game_chunk(table, seed, first, n, MAX_DEALS, True)
    return GameRedThree.from_frames(games, sides, table.rules.sides)


def game_red_three(
    games: int,
    *,
    rules=None,
    bots=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int = 10_000,
    progress: bool = False,
) -> GameRedThree:
    """Play ``games`` full games (as :func:`canasta_sim.run.games.play_games`, the same games for
    the same seed) and keep only their cells by the red threes dealt in the first deal
    (constant memory: each chunk's records are reduced where they are played).

    Parameters
    ----------
    games : int
        Games to play.
    rules, bots, seed, workers, progress
        As for :func:`canasta_sim.play_games`.
    chunk_size : int
        Games per chunk; results do not depend on it.

    Returns
    -------
    GameRedThree

    Raises
    ------
    ValueError
        For a bad count, seed, rules or bot spec.
    """
    games = check_int("games", games, 1, 10**12)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    table = game_table(rules, bots)
    load_kernels(table, progress)
    total = GameRedThree.empty(table.rules.sides)
    chunks = ((n, (table, seed, f, n)) for f, n in chunk_starts(0, games, chunk_size))
    with run_chunks(
        _game_chunk, chunks, total=games, unit="game", workers=workers, progress=progress
    ) as (results, _):
        for part in results:
            total += part
    return total


# --- canasta timing -----------------------------------------------------------------------
def timing_curves(done: np.ndarray, censored: np.ndarray) -> dict[str, np.ndarray]:
    """Kaplan-Meier and Aalen-Johansen curves of one side and one canasta, per round.

    Parameters
    ----------
    done : ndarray(int64, (2, R))
        Events per kind (0 natural, 1 mixed) and round (0-based index: round 1 first).
    censored : ndarray(int64, (R,))
        Deals that ended in each round without the event (censored after that round's events).

    Returns
    -------
    dict of str -> ndarray(float64, (R,))
        ``at_risk`` (deals at the start of the round), ``any``, ``natural``, ``mixed`` (the
        probability of the event by the end of the round) and ``se_any``, ``se_natural``,
        ``se_mixed`` (their standard errors).
    """
    done = np.asarray(done, np.float64)
    censored = np.asarray(censored, np.float64)
    d_kind = done
    d = done.sum(axis=0)
    leaving = d + censored
    n = leaving[::-1].cumsum()[::-1]  # at risk at the start of each round
    with np.errstate(divide="ignore", invalid="ignore"):
        hazard = np.where(n > 0, d / n, 0.0)
        surv = np.cumprod(1.0 - hazard)
        before = np.concatenate([[1.0], surv[:-1]])  # S(t-1)
        green = np.where((n > 0) & (n > d), d / (n * (n - d)), 0.0).cumsum()
        out = {"at_risk": n, "any": 1.0 - surv, "se_any": surv * np.sqrt(green)}
        for j, kind in enumerate(KINDS[1:]):
            dj = d_kind[j]
            inc = np.where(n > 0, before * dj / n, 0.0)
            cif = inc.cumsum()
            # delta method over the per-round hazards (multinomial within a round):
            # var F(t) = sum_l [S(l-1)^2 dj(n-dj)/n^3 + (F(t)-F(l))^2 d/(n(n-d))
            #                   - 2 S(l-1) (F(t)-F(l)) dj/n^2]
            t1 = np.where(n > 0, before**2 * dj * (n - dj) / n**3, 0.0)
            g = np.where((n > 0) & (n > d), d / (n * (n - d)), 0.0)
            c2 = np.where(n > 0, before * dj / n**2, 0.0)
            # expand (F(t) - F(l))^2 and F(t) - F(l) so every sum is a running sum over l <= t
            var = (
                t1.cumsum()
                + cif**2 * g.cumsum()
                - 2 * cif * (cif * g).cumsum()
                + (cif**2 * g).cumsum()
                - 2 * cif * c2.cumsum()
                + 2 * (cif * c2).cumsum()
            )
            out[kind] = cif
            out["se_" + kind] = np.sqrt(np.maximum(var, 0.0))
    return out


def _by_round(hist: np.ndarray, players: int, shift: int, rounds: int) -> np.ndarray:
    """Turn histogram (last axis, index = turn + ``shift``) -> round histogram: turn ``t``
    (0-based) is in round ``t // players`` (0-based); indices below ``shift`` drop."""
    turns = hist[..., shift:]
    pad = rounds * players - turns.shape[-1]
    turns = np.concatenate([turns, np.zeros(turns.shape[:-1] + (pad,), np.int64)], axis=-1)
    return turns.reshape(turns.shape[:-1] + (rounds, players)).sum(axis=-1)


def canasta_timing(agg: Aggregates, rules: Rules) -> pd.DataFrame:
    """P(a side completed its first, second, third canasta by the end of round ``t``), any kind
    and natural or mixed apart, with 95% intervals (see the module docstring; R-65..R-67).

    Parameters
    ----------
    agg : Aggregates
    rules : Rules

    Returns
    -------
    pandas.DataFrame
        Columns ``canasta`` (1, 2, 3), ``kind`` (:data:`KINDS`), ``round`` (1-based: the end
        of round ``t``), ``value``, ``ci_low``, ``ci_high`` (0..1), ``at_risk`` (side x deals
        still without it at the start of the round, all sides) and ``events`` (completed in
        the round, all sides). Rounds run to the last one any deal reached.
    """
    c = agg.counts
    P, S = rules.players, agg.sides
    rounds = (agg.max_turns + P) // P + 1
    # a canasta completed in turn t is in round t // P; a deal of m turns ends in round
    # (m - 1) // P (a deal of no turns is never at risk)
    done = _by_round(c["canasta_done"], P, 0, rounds)  # (S, K, 2, R)
    censored = _by_round(c["canasta_censored"], P, 1, rounds)  # (S, K, R)
    reached = np.nonzero((done.sum(axis=(0, 1, 2)) + censored.sum(axis=(0, 1))) > 0)[0]
    last = int(reached[-1]) + 1 if reached.size else 0
    frames = []
    for k in range(TIMED_CANASTAS):
        curves = [timing_curves(done[s, k, :, :last], censored[s, k, :last]) for s in range(S)]
        at_risk = np.sum([cu["at_risk"] for cu in curves], axis=0)
        for j, kind in enumerate(KINDS):
            value = np.mean([cu[kind] for cu in curves], axis=0)
            se = np.mean([cu["se_" + kind] for cu in curves], axis=0)
            kinds = done[:, k, :, :last] if j == 0 else done[:, k, j - 1 : j, :last]
            events = kinds.sum(axis=(0, 1))
            frames.append(
                pd.DataFrame(
                    {
                        "canasta": k + 1,
                        "kind": kind,
                        "round": np.arange(1, last + 1),
                        "value": value,
                        "ci_low": np.clip(value - Z95 * se, 0.0, 1.0),
                        "ci_high": np.clip(value + Z95 * se, 0.0, 1.0),
                        "at_risk": at_risk.astype(np.int64),
                        "events": events.astype(np.int64),
                    }
                )
            )
    if not frames:
        return pd.DataFrame(
            columns=["canasta", "kind", "round", "value", "ci_low", "ci_high", "at_risk", "events"]
        )
    return pd.concat(frames, ignore_index=True)
