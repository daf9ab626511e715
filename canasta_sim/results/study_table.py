"""A study's results: its table (one row per cell, each statistic and its difference to the
baseline cell, with 95% intervals), how it is printed and plotted, and whether a study folder
is finished.

:func:`canasta_sim.run.study.run_study` plays the cells; everything here reads their
aggregates and manifests, so ``report`` can write a study's report from its folder alone.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .intervals import Z95
from .run_folder import read_manifest
from .statistics import canasta_turn_statistic, summary
from .stats import bots_version_text, policy_label
from .tables import interval, number

__all__ = [
    "AXIS_NAMES",
    "STATISTICS",
    "format_study",
    "plot_study",
    "study_caption",
    "study_policy",
    "study_table",
    "unfinished_study",
]


#: Axis names; rules switches are ``switch:NAME``.
AXIS_NAMES = ("players", "preset", "bots")

#: The study table's statistics: column key -> (summary group, summary statistic, label).
STATISTICS = {
    "canastas": ("canastas", "total canastas per side per deal", "canastas per side per deal"),
    "red_three_value": (
        "red-three value",
        "lead per red three dealt (points)",
        "lead per red three dealt (points)",
    ),
    "turns": ("end", "turns per deal", "turns per deal"),
    "going_out": ("end", "deals ending: went out", "P(deal ends by going out)"),
    "first_canasta_turn": (
        "canasta timing",
        canasta_turn_statistic(1),
        "turn of a side's first canasta",
    ),
    "score": ("score", "mean score per side (points)", "mean score per side (points)"),
}

#: Decimals each statistic is printed with in the study table (its value, interval and
#: difference alike): a tenth of a point, a hundredth of a turn, a thousandth of a canasta
#: or of a probability.
DECIMALS = {
    "canastas": 3,
    "red_three_value": 1,
    "turns": 2,
    "going_out": 3,
    "first_canasta_turn": 2,
    "score": 1,
}


def unfinished_study(folder) -> tuple[int, int] | None:
    """``(done, total)`` cells when ``folder`` is a study folder not finished yet (its
    manifest names a study and it has no ``study.csv``), else ``None`` (not a study folder,
    an unreadable manifest, or a finished study)."""
    folder = Path(folder)
    try:
        spec = read_manifest(folder).get("study")
    except ValueError:
        return None
    if not isinstance(spec, dict) or (folder / "study.csv").is_file():
        return None
    total = math.prod(len(a["values"]) for a in spec.get("axes", []))
    return len(list(folder.glob("cells/*/aggregates.json"))), total


def study_policy(manifests: list[dict]) -> str:
    """The play a study's statistics describe, from its cells' run manifests: as
    :func:`~canasta_sim.results.stats.policy_label` says it (``"expert on every seat (bots
    version 7)"``) when every cell plays the same bots, else that each cell names its bots
    (its ``bots`` value), with the bots version."""
    labels = dict.fromkeys(policy_label(m) for m in manifests)
    if len(labels) == 1:
        return next(iter(labels))
    versions = {m.get("bots_version") for m in manifests}
    version = versions.pop() if len(versions) == 1 else None
    return "the bots each cell names" + bots_version_text(version)


def study_caption(seed: int, deals: int, cells: int, policy: str) -> str:
    """The caption of a study's plots: seed, size and the play (:func:`study_policy`)."""
    return f"seed {seed}, {deals:,} deals per cell, {cells} cells; {policy}"


def _row_stats(table: pd.DataFrame) -> dict[str, tuple[float, float, float, int]]:
    indexed = table.set_index(["group", "statistic"])
    out = {}
    for key, (group, statistic, _) in STATISTICS.items():
        r = indexed.loc[(group, statistic)]
        out[key] = (float(r["value"]), float(r["ci_low"]), float(r["ci_high"]), int(r["n"]))
    return out


def study_table(results: list[tuple], baseline: int) -> pd.DataFrame:
    """One row per cell of ``results`` (``(cell, aggregates)`` pairs: a
    :class:`canasta_sim.run.study.Cell` and its
    :class:`~canasta_sim.results.aggregate.Aggregates`),
    in order: ``cell`` (number), ``name``, each axis's value, ``players``,
    ``deals``, and per statistic of :data:`STATISTICS` ``KEY``, ``KEY_low``, ``KEY_high``
    (95% interval) and ``KEY_diff``, ``KEY_diff_low``, ``KEY_diff_high``: the cell's value minus
    the baseline cell's with a 95% interval from the two intervals' standard errors
    (``(high - low) / (2 Z95)``, added in quadrature: the cells are treated as independent,
    which is conservative where shared shuffles correlate them positively).
    """
    stats = [_row_stats(summary(agg, cell.rules)) for cell, agg in results]
    base = stats[baseline]
    rows = []
    for (cell, agg), st in zip(results, stats):
        row = {"cell": cell.index, "name": cell.name, **cell.labels, "players": cell.rules.players}
        row["deals"] = agg.n_deals
        row["baseline"] = cell.index == baseline
        for key, (value, low, high, _) in st.items():
            b_value, b_low, b_high, _ = base[key]
            se = math.hypot((high - low) / (2 * Z95), (b_high - b_low) / (2 * Z95))
            diff = value - b_value
            row.update(
                {
                    key: value,
                    f"{key}_low": low,
                    f"{key}_high": high,
                    f"{key}_diff": diff,
                    f"{key}_diff_low": diff - Z95 * se,
                    f"{key}_diff_high": diff + Z95 * se,
                }
            )
        rows.append(row)
    return pd.DataFrame(rows)


def format_study(table: pd.DataFrame) -> str:
    """The study table for the terminal: per cell its axis values and, per statistic, the
    value and the difference to the baseline with its 95% interval, each statistic with its
    own fixed decimals (:data:`DECIMALS`) and thousands separators; a dash for what a cell could
    not measure."""
    lines = []
    axis_cols = [c for c in table.columns if c in AXIS_NAMES or c.startswith("switch:")]
    for d in table.to_dict("records"):
        head = ", ".join(f"{c.removeprefix('switch:')}={d[c]}" for c in axis_cols)
        lines.append(f"[{d['cell']}] {head}" + ("  (baseline)" if d["baseline"] else ""))
        for key, (_, _, label) in STATISTICS.items():
            n = DECIMALS[key]
            v, lo, hi = d[key], d[f"{key}_low"], d[f"{key}_high"]
            dv, dl, dh = d[f"{key}_diff"], d[f"{key}_diff_low"], d[f"{key}_diff_high"]
            diff = "" if d["baseline"] else f"  diff {interval(dv, dl, dh, f'+,.{n}f')}"
            value = number(v, f"10,.{n}f").rjust(10)
            lines.append(
                f"    {label:<36} {value} [{number(lo, f',.{n}f')}, {number(hi, f',.{n}f')}]{diff}"
            )
    return "\n".join(lines)


def plot_study(table: pd.DataFrame, path: Path, caption: str) -> None:
    """PNG of canastas per deal, red-three value, deal length and going-out rate by cell,
    with 95% intervals; ``caption`` (seed and size) under the panels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    keys = ("canastas", "red_three_value", "turns", "going_out")
    n = len(table)
    fig = Figure(figsize=(max(8.0, 0.35 * n + 4), 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2, sharex=True)
    x = np.arange(n)
    for ax, key in zip(axes.flat, keys):
        y = table[key].to_numpy(np.float64)
        err = np.vstack([y - table[f"{key}_low"], table[f"{key}_high"] - y])
        ax.errorbar(x, y, yerr=np.nan_to_num(err), fmt="o", capsize=3)
        base = table.loc[table["baseline"], key]
        if len(base):
            ax.axhline(float(base.iloc[0]), color="grey", linewidth=0.8, linestyle="--")
        ax.set_title(STATISTICS[key][2])
        ax.set_ylabel(STATISTICS[key][2])
    for ax in axes[1]:
        ax.set_xticks(x, table["name"].str.slice(4), rotation=70, ha="right", fontsize=7)
        ax.set_xlabel("cell")
    fig.suptitle("Study by cell (95% intervals; dashed: the baseline cell)")
    # a figure label, not free text: the constrained layout makes room for it under the axes
    fig.supxlabel(caption, fontsize=8, x=0.01, ha="left")
    fig.savefig(path, dpi=110, format="png")
