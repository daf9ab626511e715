"""Comparing bots honestly: seat rotation on shared boards, intervals, parameter sweeps.

Bots rotate over the sides so each plays every seat equally often, and the rotations of one
board share their cards (duplicate play, see :func:`canasta_sim.simulate.run_chunk`), which
removes most of the luck of the deal from the score difference.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from .bots import Bot, parse_bot, spec_params
from .games import GamesResult, play_games
from .simulate import SimulationResult, Table, resolve_rules, run_table
from .stats import mean_interval, wilson_interval

MAX_SWEEP_VALUES = 100

COLUMNS = (
    "bot",
    "n",
    "wins",
    "losses",
    "ties",
    "win_rate",
    "win_low",
    "win_high",
    "mean_score",
    "score_low",
    "score_high",
    "mean_diff",
    "diff_low",
    "diff_high",
)


def rotations(bot_a: Bot, bot_b: Bot, sides: int) -> tuple[tuple[Bot, ...], ...]:
    """Seatings in which ``bot_a`` takes each side once and ``bot_b`` the others."""
    return tuple(tuple(bot_a if s == r else bot_b for s in range(sides)) for r in range(sides))


def rotation_table(bot_a, bot_b, rules) -> Table:
    """The :class:`Table` of :func:`rotations` for two bot specs (or :class:`Bot`) and rules.

    Raises
    ------
    ValueError
        For a bad bot spec or rules, or the same bot twice.
    """
    rules = resolve_rules(rules)
    a = bot_a if isinstance(bot_a, Bot) else parse_bot(bot_a)
    b = bot_b if isinstance(bot_b, Bot) else parse_bot(bot_b)
    if a.spec == b.spec:
        raise ValueError(f"compare needs two different bots; got {a.spec!r} twice")
    return Table(rules, rotations(a, b, rules.sides))


def _a_side(n: int, sides: int) -> np.ndarray:
    """Side played by bot A in each of ``n`` deals (or games) of a rotated run."""
    return np.arange(n, dtype=np.int64) % sides


def comparison_table(
    scores: np.ndarray, outcome: np.ndarray, a_side: np.ndarray, specs: tuple[str, str]
) -> pd.DataFrame:
    """Per-bot rows from per-deal (or per-game) results.

    Parameters
    ----------
    scores : ndarray(int64, (n, sides))
        Points of each side per deal (or final game scores).
    outcome : ndarray(int64, (n,))
        Winning side per deal or game, -1 for a tie for first place.
    a_side : ndarray(int64, (n,))
        Side played by bot A.
    specs : (str, str)
        Bot specs A and B.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`: wins/losses/ties of each bot, win rate with its 95% Wilson
        interval, mean score with its 95% interval, and the mean score difference (this bot's
        side minus the mean of the other sides) with its 95% interval.
    """
    n, sides = scores.shape
    rows = np.arange(n)
    a_score = scores[rows, a_side]
    b_score = (scores.sum(axis=1) - a_score) / (sides - 1)  # mean of the B sides
    diff = a_score - b_score
    tie = outcome < 0
    a_win = outcome == a_side
    b_win = ~tie & ~a_win
    out = []
    for spec, wins, losses, score, d in (
        (specs[0], a_win, b_win, a_score, diff),
        (specs[1], b_win, a_win, b_score, -diff),
    ):
        k = int(wins.sum())
        win_low, win_high = wilson_interval(k, n)
        mean, low, high = _mean_ci(score)
        dm, dl, dh = _mean_ci(d)
        out.append(
            (
                spec,
                n,
                k,
                int(losses.sum()),
                int(tie.sum()),
                k / n,
                win_low,
                win_high,
                mean,
                low,
                high,
                dm,
                dl,
                dh,
            )
        )
    return pd.DataFrame(out, columns=list(COLUMNS))


def _mean_ci(x: np.ndarray):
    # exact rational sums: scores are integers or halves (mean of two sides)
    scaled = np.rint(np.asarray(x, np.float64) * 2).astype(np.int64)
    m, lo, hi = mean_interval(int(scaled.sum()), int((scaled**2).sum()), len(x))
    return m / 2, lo / 2, hi / 2


def compare(
    bot_a,
    bot_b,
    *,
    deals: int | None = None,
    games: int | None = None,
    rules=None,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
):
    """Compare two bots over ``deals`` deals or ``games`` full games.

    Parameters
    ----------
    bot_a, bot_b : str or Bot
        Bot specs (:mod:`canasta_sim.bots`).
    deals, games : int
        Exactly one of them: independent deals, or games to the target score (R-55; dealer
        rotates, minimum counts follow each side's score).
    rules, seed, workers, progress
        As for :func:`canasta_sim.simulate`.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame)
        The comparison table (:func:`comparison_table`) and the raw rows (per-deal side rows,
        or per-game rows) with a ``bot_a_side`` column. ``table.attrs["manifest"]`` is the
        run's manifest (as :func:`canasta_sim.simulate` makes it: seed, rules, the seatings
        of the two bots, versions, wall seconds).

    Raises
    ------
    ValueError
        For bad bots, counts or rules, a count that is not a multiple of the sides, or unless
        exactly one of ``deals`` and ``games`` is set.
    """
    if (deals is None) == (games is None):
        raise ValueError("give exactly one of deals and games")
    table = rotation_table(bot_a, bot_b, rules)
    sides = table.rules.sides
    count = deals if games is None else games
    if isinstance(count, int) and count % sides:
        unit = "deals" if games is None else "games"
        raise ValueError(
            f"{unit}={count} is not a multiple of the {sides} sides: the bots "
            f"rotate over the sides, each {unit[:-1]} one step, so every bot "
            f"plays each side equally often"
        )
    specs = (table.seatings[0][0].spec, table.seatings[0][1].spec)
    result: GamesResult | SimulationResult
    if games is not None:
        result = play_games(games, table=table, seed=seed, workers=workers, progress=progress)
        raw = result.games.copy()
        scores = raw[[f"score_{s}" for s in range(sides)]].to_numpy(np.int64)
        outcome = raw["winner"].to_numpy(np.int64)
    else:
        assert deals is not None  # exactly one of deals and games is set (checked above)
        result = run_table(table, deals, seed=seed, workers=workers, progress=progress)
        assert result.sides is not None  # run_table keeps records unless told not to
        raw = result.sides.copy()
        scores = raw["score"].to_numpy(np.int64).reshape(-1, sides)
        outcome = _deal_winners(scores)
    a_side = _a_side(len(scores), sides)
    raw["bot_a_side"] = np.repeat(a_side, len(raw) // len(scores)).astype(np.int8)
    table = comparison_table(scores, outcome, a_side, specs)
    table.attrs["manifest"] = result.manifest
    return table, raw


def _deal_winners(scores: np.ndarray) -> np.ndarray:
    best = scores.max(axis=1)
    unique = (scores == best[:, None]).sum(axis=1) == 1
    return np.where(unique, scores.argmax(axis=1), -1)


def parse_range(text: str) -> list[float]:
    """``"2:12:2"`` -> [2, 4, ..., 12] (inclusive stop); ``"1,3,8"`` -> [1, 3, 8]. Values are
    rounded to 10 decimals (``0.1:0.5:0.1`` gives 0.3, not 0.30000000000000004).

    Raises
    ------
    ValueError
        For a malformed range, a zero or wrong-signed step, or values that are equal after
        rounding.
    """
    bad = ValueError(
        f"{text!r} is not a range START:STOP:STEP or a list A,B,C of at most "
        f"{MAX_SWEEP_VALUES} finite values"
    )
    try:
        if ":" in text:
            parts = [float(p) for p in text.split(":")]
            if len(parts) != 3 or not all(np.isfinite(parts)):
                raise bad
            start, stop, step = parts
            if step == 0 or (stop - start) * step < 0:
                raise bad
            count = int(np.floor((stop - start) / step + 1e-9)) + 1
            if count > MAX_SWEEP_VALUES:
                raise bad
            values = [start + i * step for i in range(count)]
        else:
            values = [float(p) for p in text.split(",")]
    except ValueError:
        raise bad from None
    if len(values) > MAX_SWEEP_VALUES or not all(np.isfinite(values)):
        raise bad
    values = [round(v, 10) for v in values]
    if len(set(values)) < len(values):
        raise ValueError(f"{text!r} repeats a value (to 10 decimals); give each value once")
    return values


def sweep_specs(bot: str, param: str, values) -> list[str]:
    """The canonical spec of ``bot`` with ``param`` set to each of ``values``.

    Raises
    ------
    ValueError
        For a bad spec, an unknown parameter, a value outside its range (the message lists
        what is allowed), or a ``bot`` spec that sets ``param`` itself.
    """
    _, given = spec_params(bot)
    if len(values) == 0:
        raise ValueError("values is empty; allowed: one or more values of the parameter")
    if param in given:
        raise ValueError(
            f"the swept parameter {param} is also set in the bot spec {bot!r}; "
            f"allowed: a spec without {param} (the sweep sets it)"
        )
    joiner = "," if ":" in bot else ":"
    return [parse_bot(f"{bot}{joiner}{param}={value:g}").spec for value in values]


def sweep(
    bot: str,
    param: str,
    values,
    vs: str,
    *,
    deals: int,
    rules=None,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Compare ``bot`` with ``param`` set to each of ``values`` against ``vs``.

    Returns
    -------
    pandas.DataFrame
        One row per value: ``param``, ``value`` and the :data:`COLUMNS` of ``bot``'s row.
        ``frame.attrs["manifest"]`` is the sweep's manifest: that of the first comparison
        (seed, rules, deals per value, versions) with ``bots`` listing every comparison's
        seatings, the whole sweep's wall seconds, and ``sweep`` (bot, param, values, vs).

    Raises
    ------
    ValueError
        As :func:`sweep_specs`, and for a bad opponent, count or rules.
    """
    start = time.perf_counter()
    rows, manifests = [], []
    for value, spec in zip(values, sweep_specs(bot, param, values)):
        table, _ = compare(
            spec, vs, deals=deals, rules=rules, seed=seed, workers=workers, progress=progress
        )
        rows.append({"param": param, "value": value, **table.iloc[0].to_dict()})
        manifests.append(table.attrs["manifest"])
    frame = pd.DataFrame(rows)
    wall = time.perf_counter() - start
    frame.attrs["manifest"] = {
        **manifests[0],
        "bots": [m["bots"] for m in manifests],
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(deals * len(rows) / wall, 1) if wall > 0 else None,
        "sweep": {"bot": bot, "param": param, "values": [float(v) for v in values], "vs": vs},
    }
    return frame


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
    ax.set_title(f"{frame['bot'].iloc[0].split(':')[0]} vs opponent: 95% intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
