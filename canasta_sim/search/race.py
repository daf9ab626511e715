"""A finished race as its results: the ranked table of candidates, the settings line and the
rows per world (:func:`canasta_sim.search.analysis.analyse` runs the race), and the table as
text.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..results.tables import align_columns, interval

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def objective_values(name: str, own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The objective ``name`` (a key of :data:`~canasta_sim.search.analysis.OBJECTIVES`) per
    world, ``float64``, from the own side's and the best other side's deal scores (points):
    their difference (points), the own score (points), or 1.0 where the own side scored more.
    """
    if name == "score_diff":
        return (own - other).astype(np.float64)
    if name == "own_score":
        return own.astype(np.float64)
    return (own > other).astype(np.float64)


@dataclass(frozen=True)
class RaceSettings:
    """What an analysis was asked for (see :func:`~canasta_sim.search.analysis.analyse`)."""

    seed: int
    objective: str
    bots: list
    stratify: bool
    min_worlds: int
    max_worlds: int
    target_se: float


@dataclass(frozen=True)
class FinishedRace:
    """A finished race, per candidate: the batches' own side's and best other side's deal
    scores (points), seats that went out, end reasons and every side's deal scores; the
    batches' world seeds; per candidate, worlds played and still in the race; and why it
    stopped."""

    own: list
    other: list
    outs: list
    ends: list
    deal_scores: list
    world_seeds: list
    played: np.ndarray
    active: np.ndarray
    reason: str


@dataclass(frozen=True)
class RaceTables:
    """A finished race's results (an :class:`~canasta_sim.search.analysis.AnalysisResult`
    but the position): the ranked ``table``, the ``settings`` line, the rows ``per_world``,
    the candidates' indices in the table's ``order`` and the settings as values (``meta``)."""

    table: pd.DataFrame
    settings: str
    per_world: pd.DataFrame
    order: list
    meta: dict


def race_tables(
    info, cands, settings: RaceSettings, race: FinishedRace, games, notes, elapsed: float
) -> RaceTables:
    """The table and settings of a finished race: candidates still in the race first (the
    best has played every world), then the dropped ones, each group by the objective;
    ``notes``: how P(win the game) was found (:func:`~.analysis._win_game`), the candidates'
    cap and the seconds spent compiling; ``elapsed``: the analysis's seconds, compiling left
    out."""
    own = [np.concatenate(x) for x in race.own]
    other = [np.concatenate(x) for x in race.other]
    outs = [np.concatenate(x) for x in race.outs]
    ends = [np.concatenate(x) for x in race.ends]
    values = [objective_values(settings.objective, o, x) for o, x in zip(own, other)]
    order = sorted(range(len(cands)), key=lambda c: (not race.active[c], -values[c].mean(), c))
    records, unpaired, paired = [], 0.0, 0.0
    for c in order:
        best = values[order[0]]
        row, shrink = _ranked_row(info, cands[c], values[c], best, own[c], other[c], outs[c])
        records.append({**row, "p_win_game": float(games[c].mean())})
        unpaired, paired = unpaired + shrink[0], paired + shrink[1]
    worlds = int(race.played.max())
    pairing = pairing_note(len(cands), unpaired, paired)
    per_world = pd.DataFrame(
        {
            "world": np.concatenate([np.arange(len(x)) for x in own]),
            "candidate": np.concatenate([[c.label] * len(x) for c, x in zip(cands, own)]),
            "own_score": np.concatenate(own).astype(np.int32),
            "other_score": np.concatenate(other).astype(np.int32),
            "out_seat": np.concatenate(outs).astype(np.int8),
            "end": np.concatenate(ends).astype(np.int8),
            "win_game": np.concatenate(games),
        }
    )
    meta = {
        "seed": settings.seed,
        "worlds": worlds,
        "min_worlds": settings.min_worlds,
        "max_worlds": settings.max_worlds,
        "target_se": settings.target_se,
        "objective": settings.objective,
        "rollout": [b.spec for b in settings.bots],
        "stratify": settings.stratify,
        "elapsed_seconds": elapsed,
        "variance_shrink": unpaired / paired if paired > 0 else None,
        "stopped": race.reason,
        **notes,
    }
    line = _settings_line(settings, worlds, elapsed, notes, pairing, race.reason)
    return RaceTables(pd.DataFrame.from_records(records), line, per_world, order, meta)


def _ranked_row(info, cand, value, best, own, other, outs) -> tuple[dict, tuple[float, float]]:
    """A candidate's row of the table (its P(win the game) still NaN), and what it adds to
    the variances of the differences of its objective ``value`` per world to the ``best``
    candidate's, unpaired and paired (nothing for the best itself, or one world)."""
    diff = (own - other).astype(np.float64)
    n = len(diff)
    lo, hi = _interval(diff)
    d = value - best[:n]
    vlo, vhi = _interval(d)
    out_side = np.where(outs >= 0, outs % info.rules.sides, -1)
    shrink = (0.0, 0.0)
    if value is not best and n > 1:
        shrink = (value.var(ddof=1) + best[:n].var(ddof=1), d.var(ddof=1))
    row = {
        "candidate": cand.label,
        "score_diff": diff.mean(),
        "score_diff_lo": lo,
        "score_diff_hi": hi,
        "vs_best": d.mean(),
        "vs_best_lo": vlo,
        "vs_best_hi": vhi,
        "p_win_deal": float((own > other).mean()),
        "p_win_game": np.nan,
        "own_score": float(own.mean()),
        "own_score_sd": float(own.std(ddof=1)) if n > 1 else 0.0,
        "p_own_out": float((out_side == info.side).mean()),
        "p_other_out": float(((out_side >= 0) & (out_side != info.side)).mean()),
        "worlds": int(n),
    }
    return row, shrink


def _settings_line(
    settings: RaceSettings, worlds: int, elapsed: float, notes: dict, pairing: str, reason: str
) -> str:
    """The ``settings`` line of an :class:`~canasta_sim.search.analysis.AnalysisResult`."""
    spec = ", ".join(dict.fromkeys(b.spec for b in settings.bots))
    return (
        f"seed {settings.seed}, {worlds} worlds (min {settings.min_worlds}, max "
        f"{settings.max_worlds}, target SE {settings.target_se:g}), objective "
        f"{settings.objective}, rollout {spec}, "
        f"{'stratified next stock card' if settings.stratify else 'no stratification'}, "
        f"common random numbers, {elapsed:.2f} s{_compile_note(notes)}, {pairing}, "
        f"{_win_game_note(notes)}{_cap_note(notes)}, stopped: {reason}"
    )


def pairing_note(candidates: int, unpaired: float, paired: float) -> str:
    """What pairing did to the variance of the differences to the best candidate, for the
    settings line.

    Parameters
    ----------
    candidates : int
        Candidates compared.
    unpaired, paired : float
        Sums over the candidates other than the best of the variance of the difference
        without pairing (the two variances added) and with it (the variance of the paired
        differences), points squared.

    Returns
    -------
    str
        The shrink factor; or, with no paired variance, whether the differences are exact
        (the same in every world: nothing for pairing to shrink), there is nothing to compare
        (one candidate), or no world's score differs at all.
    """
    if candidates < 2:
        return "pairing: one candidate, no difference to measure"
    if paired > 0 and unpaired >= paired:
        return f"pairing shrank the variance of differences {unpaired / paired:.1f}x"
    if paired > 0:  # the candidates' scores moved against each other across the worlds
        return f"pairing grew the variance of differences {paired / max(unpaired, 1e-300):.1f}x"
    if unpaired > 0:
        return "pairing: the differences are exact (the same in every world)"
    return "pairing: no spread to measure (one world, or every world scores the same)"


def _compile_note(notes: dict) -> str:
    """The settings line's words on the kernels a first use compiled (their time is not in
    the analysis's seconds before them), if it compiled any."""
    seconds = notes["compile_seconds"]
    return f" (and {seconds:.1f} s compiling the kernels, first use only)" if seconds else ""


def _win_game_note(meta: dict) -> str:
    """The settings line's words on where P(win the game) came from."""
    if meta["win_game"] == "table":
        return f"P(win game) from the game-equity table of {meta['win_game_bots']} play"
    if meta["win_game"] == "play-out":
        return (
            f"P(win game) from playing the game out with {meta['win_game_bots']} "
            f"({meta['play_out_deals']:.1f} more deals a world, {meta['play_out_seconds']:.2f} s)"
        )
    return "P(win game) n/a (outside the game-equity table's scope)"


def _cap_note(notes: dict) -> str:
    """The settings line's words on the meld plans the candidates' cap left out, if any."""
    left_out = notes["plans_left_out"]
    if not left_out:
        return ""
    return (
        f", {left_out:,} meld plan{'s' if left_out > 1 else ''} left out by the cap of "
        f"{notes['max_candidates']:,} candidates (max_candidates)"
    )


def _interval(x: np.ndarray) -> tuple[float, float]:
    if len(x) < 2:
        return float("nan"), float("nan")
    half = Z95 * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean() - half), float(x.mean() + half)


def format_table(table: pd.DataFrame) -> str:
    """The ranked table as text: intervals in brackets (a dash for a bound not measured),
    probabilities as percentages."""
    head = [
        "candidate",
        "score diff [95%]",
        "vs best [95%]",
        "P(win deal)",
        "P(win game)",
        "own score",
        "P(we out)",
        "P(they out)",
        "worlds",
    ]
    learned = "learned" in table
    if learned:
        head.append("learned")
    rows = [
        [
            row.candidate,
            interval(row.score_diff, row.score_diff_lo, row.score_diff_hi, "+.1f"),
            interval(row.vs_best, row.vs_best_lo, row.vs_best_hi, "+.1f"),
            f"{row.p_win_deal:.1%}",
            "n/a" if np.isnan(row.p_win_game) else f"{row.p_win_game:.1%}",
            f"{row.own_score:.1f}",
            f"{row.p_own_out:.1%}",
            f"{row.p_other_out:.1%}",
            f"{row.worlds:,}",
            *([] if not learned else ["-" if np.isnan(row.learned) else f"{row.learned:+.1f}"]),
        ]
        for row in table.itertuples()
    ]
    return align_columns([head, *rows], sep="  ")
