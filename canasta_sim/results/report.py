"""A run's report: ``report.md`` plus PNG plots, from the run folder's JSON files alone.

:func:`write_report` reads ``manifest.json`` and ``aggregates.json``, and of the Parquet
records only their footers (a run whose records are truncated or damaged is refused, naming
the file), so it works for runs made with ``records=False``; for a study folder
(:mod:`canasta_sim.run.study`) it reads the study's manifest, ``study.csv`` and every cell's
aggregates. Every plot carries a caption with the seed, the size of the run and the play it
measures (the bots and the bots version). The report's files appear together or not at
all (:func:`canasta_sim.results.report_files.write_together`: written in a temporary folder
inside the run folder, then moved into place, ``report.md`` last), so an interrupted or failed
report leaves no file of its own and a previous report whole.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..game.rules import Rules
from ..results.run_folder import check_entries, check_records, read_manifest
from .aggregate import Aggregates
from .figure_data import CANASTA_KINDS, canastas_by_kind, red_threes_by_source, score_histogram
from .report_files import write_together
from .statistics import summary
from .stats import policy_label, summary_cells, table_number
from .study_stats import KINDS, canasta_timing, red_three_value
from .study_table import STATISTICS, study_caption, study_policy, unfinished_study

__all__ = ["PLOTS", "read_run", "write_report"]

#: Plot files written next to ``report.md``: file name -> caption.
PLOTS = {
    "score_distribution.png": "Deal score per side",
    "red_threes_by_source.png": "Red threes per side per deal, by source",
    "canastas_per_side.png": "Canastas per side per deal",
    "canasta_timing.png": (
        "Canasta timing: P(a side's k-th canasta by round t, had the deal gone on)"
    ),
    "red_three_value.png": "Red-three value: lead by red threes dealt",
}
#: Plot files of a study's report (next to the study's own ``study.png``).
STUDY_PLOTS = {
    "study.png": "Key statistics by cell",
    "study_timing.png": "First canasta by round, by cell",
    "study_red_three_value.png": "Red-three value by cell",
}
_REQUIRED = ("manifest.json", "aggregates.json")
#: What :func:`write_report` reads, for the messages of what it cannot read.
_READS = (
    "report reads a run folder of simulate (manifest.json and aggregates.json) or of study "
    "(study.csv)"
)
#: Results folders of other commands, by the table that marks them: the command, and where
#: its results are read instead of a report.
_OTHER_RUNS = {
    "compare.csv": ("compare", "its table is compare.csv (and deals.parquet its deals)"),
    "sweep.csv": ("sweep", "its table is sweep.csv (and sweep.png its figure)"),
    "games.csv": (
        "games",
        "games writes no report, its win rates are the table it printed; games.csv holds a "
        "row per game, deals.parquet and sides.parquet its deals, and canasta-sim replay "
        "--game G --deal D FOLDER replays one of them",
    ),
}


def write_report(run_dir) -> Path:
    """Write ``report.md`` and the plots of :data:`PLOTS` into a results folder.

    Parameters
    ----------
    run_dir : str or path
        A results folder written by :func:`canasta_sim.run.simulate.simulate` (it must hold
        ``manifest.json`` and ``aggregates.json``).

    Returns
    -------
    pathlib.Path
        The path of ``report.md``.

    Raises
    ------
    ValueError
        If ``run_dir`` is not a run folder (missing, not a folder, a required file missing or
        unreadable, its manifest partial, its records truncated or short of rows) or is an
        unfinished study (it says how to finish it); the message names the folder or the
        file.
    """
    folder = Path(run_dir)
    if (folder / "study.csv").is_file():
        return _write_study_report(folder)
    unfinished = unfinished_study(folder)
    if unfinished is not None:
        done, total = unfinished
        raise ValueError(
            f"{str(folder)!r} is an unfinished study ({done} of {total} cells done, no "
            f"study.csv yet): finish it by running the command that started it with '--resume' "
            f"('canasta-sim study ... --out {folder} --resume'), then report it; a finished "
            f"cell's folder (cells/NNN-...) is a run folder and can be reported alone"
        )
    manifest, agg, rules = read_run(folder)
    try:
        table = summary(agg, rules, policy_label(manifest))
    except ValueError as exc:  # counts no run writes: more sides with a count than deals, say
        path = str(folder / "aggregates.json")
        raise ValueError(
            f"{path!r} is not readable aggregates ({exc}); allowed: the aggregates.json a run wrote"
        ) from None
    caption = _caption(manifest, rules)
    figures = {
        "score_distribution.png": _plot_scores(agg),
        "red_threes_by_source.png": _plot_red_threes(agg, table),
        "canastas_per_side.png": _plot_canastas(agg),
        "canasta_timing.png": _plot_timing(agg, rules),
        "red_three_value.png": _plot_red_three_value(agg, rules),
    }
    files = {name: _png(fig, caption) for name, fig in figures.items()}
    files["report.md"] = _markdown(folder, manifest, rules, table).encode("utf-8")
    write_together(folder, files)
    return folder / "report.md"


# --- reading ---------------------------------------------------------------------------------
def _other_run(folder: Path) -> str:
    """``"a folder of canasta-sim CMD: where its results are"`` when another command wrote
    ``folder``, else ``""``."""
    for table, (command, where) in _OTHER_RUNS.items():
        if (folder / table).is_file():
            return f"a folder of canasta-sim {command}: {where}"
    return ""


def read_run(folder: Path):
    """A run folder's manifest, aggregates and rules, as the report reads them.

    Raises
    ------
    ValueError
        As :func:`write_report`, naming the folder or the file.
    """
    if folder.is_file():
        parent = folder.parent
        if all((parent / name).is_file() for name in _REQUIRED):
            hint = f"; give the folder it is in, {str(parent)!r}"
        else:
            other = _other_run(parent)
            hint = f"; it is in {other}" if other else ""
        raise ValueError(f"{str(folder)!r} is a file, not a run folder: {_READS}{hint}")
    if not folder.is_dir():
        raise ValueError(f"{str(folder)!r} is not a run folder: it does not exist; {_READS}")
    missing = [name for name in _REQUIRED if not (folder / name).is_file()]
    other = _other_run(folder) if missing else ""
    if other:
        raise ValueError(f"{str(folder)!r} is {other}; {_READS}")
    if missing:
        raise ValueError(
            f"{str(folder)!r} is not a run folder: {', '.join(missing)} missing; {_READS}"
        )
    manifest = read_manifest(folder)
    check_entries(manifest, folder, ("rules", "deals"))
    try:
        rules = Rules.from_dict(manifest["rules"])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{str(folder / 'manifest.json')!r}: rules: {exc}") from None
    agg = Aggregates.read(folder / "aggregates.json", int(manifest["deals"]))
    check_records(folder, manifest, rules.sides)
    return manifest, agg, rules


# --- plots (no pyplot: a Figure with its own Agg canvas, safe in threads) ---------------------
def _caption(manifest: dict, rules: Rules) -> str:
    return (
        f"seed {manifest.get('seed')}, {manifest.get('deals', 0):,} deals, "
        f"{rules.players} players, {policy_label(manifest)}"
    )


def _png(fig: Figure, caption: str) -> bytes:
    """The figure as PNG bytes, with ``caption`` (the run's seed, size and play) under it."""
    fig.text(0.005, 0.002, caption, fontsize=7, ha="left", va="bottom", color="dimgrey")
    fig.set_layout_engine("constrained", h_pad=0.12)  # room for the caption
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _plot_scores(agg: Aggregates) -> Figure:
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    edges, fractions = score_histogram(agg)
    if edges.size:
        for s in range(agg.sides):
            ax.stairs(fractions[s], edges, label=f"side {s}")
        ax.legend()
    else:
        ax.text(0.5, 0.5, "no deals", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("deal score (points)")
    ax.set_ylabel("fraction of deals")
    ax.set_title(f"Deal score per side ({agg.n_deals:,} deals)")
    return fig


def _plot_red_threes(agg: Aggregates, table) -> Figure:
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    rows = red_threes_by_source(table)
    x = np.arange(len(rows))
    value = rows["value"].to_numpy()
    err = np.array([value - rows["ci_low"], rows["ci_high"] - value])
    ax.bar(
        x,
        value,
        yerr=np.nan_to_num(err),
        capsize=4,
        color="tab:red",
        alpha=0.75,
        label="observed (95% interval)",
    )
    exact = rows["exact"].iloc[0]
    if not math.isnan(exact):
        ax.hlines(
            exact,
            -0.4,
            0.4,
            colors="black",
            linestyles="--",
            linewidth=2,
            label=f"exact expectation, dealt: {exact:.4f}",
        )
    ax.set_xticks(x, rows["source"])
    ax.set_ylabel("red threes per side per deal")
    ax.set_title(f"Red threes by source ({agg.n_deals:,} deals)")
    ax.legend()
    return fig


def _plot_canastas(agg: Aggregates) -> Figure:
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(CANASTA_KINDS))
    width = 0.8 / agg.sides
    for s, stats in enumerate(canastas_by_kind(agg)):
        mean, low, high = stats.T
        ax.bar(
            x - 0.4 + width * (s + 0.5),
            np.nan_to_num(mean),
            width,
            yerr=np.nan_to_num(np.array([mean - low, high - mean])),
            capsize=3,
            label=f"side {s}",
        )
    ax.set_xticks(x, list(CANASTA_KINDS.values()))
    ax.set_ylabel("canastas per side per deal")
    ax.set_title(f"Canastas per side per deal ({agg.n_deals:,} deals, 95% intervals)")
    ax.legend()
    return fig


def _plot_timing(agg: Aggregates, rules: Rules) -> Figure:
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    table = canasta_timing(agg, rules)
    styles = {"any": "-", "natural": "--", "mixed": ":"}
    for k, ax in enumerate(axes, start=1):
        for kind in KINDS:
            rows = table[(table["canasta"] == k) & (table["kind"] == kind)]
            x = rows["round"].to_numpy()
            ax.step(x, rows["value"], where="post", linestyle=styles[kind], label=kind)
            ax.fill_between(x, rows["ci_low"], rows["ci_high"], step="post", alpha=0.25)
        ax.set_title(f"{('first', 'second', 'third')[k - 1]} canasta")
        ax.set_xlabel("round (every player one turn)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole numbers
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("P(completed by the end of the round)")
    axes[0].legend(title="kind when completed")
    fig.suptitle(
        f"Canasta timing per side, {rules.players} players (Kaplan-Meier / Aalen-Johansen, "
        f"the deal's end censors; bands: 95% intervals)"
    )
    return fig


def _plot_red_three_value(agg: Aggregates, rules: Rules) -> Figure:
    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    ax = fig.add_subplot()
    v = red_three_value(agg, rules).set_index("key")
    for offset, (key, label) in enumerate(
        (("lead", "gross"), ("lead_net", "net of red-three scores"))
    ):
        rows = v[v.index.str.match(rf"{key}_h\d+$")]
        h = np.array([int(i.rsplit("h", 1)[1]) for i in rows.index])
        y = np.concatenate([[0.0], rows["value"]])
        err = np.vstack(
            [np.concatenate([[0.0], rows["value"] - rows["ci_low"]]),
             np.concatenate([[0.0], rows["ci_high"] - rows["value"]])]
        )  # fmt: skip
        slope = v.loc[key]
        ax.errorbar(
            np.concatenate([[0], h]) + (offset - 0.5) * 0.12,
            y,
            yerr=np.nan_to_num(err),
            fmt="o-",
            capsize=3,
            label=f"{label}: {slope['value']:.1f} [{slope['ci_low']:.1f}, "
            f"{slope['ci_high']:.1f}] points per red three",
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("red threes dealt to the side")
    ax.set_ylabel("lead minus a side dealt none (points)")
    ax.set_title("Red threes dealt: the side's lead over the others (95% intervals)")
    ax.legend(fontsize=8)
    return fig


# --- studies ----------------------------------------------------------------------------------
def _write_study_report(folder: Path) -> Path:
    manifest = read_manifest(folder)
    spec = manifest.get("study")
    if spec is None:
        raise ValueError(f"{str(folder)!r} has study.csv but its manifest has no study")
    table = pd.read_csv(folder / "study.csv")
    runs = []
    manifests = []
    for name in table["name"]:
        cell_manifest, agg, rules = read_run(folder / "cells" / name)
        runs.append((name, agg, rules))
        manifests.append(cell_manifest)
    policy = study_policy(manifests)
    caption = study_caption(spec["seed"], spec["deals_per_cell"], len(table), policy)
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    for name, agg, rules in runs:
        t = canasta_timing(agg, rules)
        t = t[(t["canasta"] == 1) & (t["kind"] == "any")]
        ax.step(t["round"], t["value"], where="post", label=name[4:])
        ax.fill_between(t["round"], t["ci_low"], t["ci_high"], step="post", alpha=0.2)
    ax.set_xlabel("round (every player one turn)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("P(side's first canasta by the end of the round)")
    ax.set_title("First canasta by round, by cell (bands: 95% intervals)")
    ax.legend(fontsize=7)
    files = {"study_timing.png": _png(fig, caption)}
    fig = Figure(figsize=(max(7.0, 0.4 * len(runs) + 3), 4.8), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(runs))
    for offset, key in enumerate(("lead", "lead_net")):
        v = [red_three_value(agg, rules).set_index("key").loc[key] for _, agg, rules in runs]
        y = np.array([r["value"] for r in v])
        err = np.array(
            [[r["value"] - r["ci_low"] for r in v], [r["ci_high"] - r["value"] for r in v]]
        )
        label = "gross" if key == "lead" else "net of red-three scores"
        ax.errorbar(
            x + (offset - 0.5) * 0.15, y, yerr=np.nan_to_num(err), fmt="o", capsize=3, label=label
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(x, [name[4:] for name, _, _ in runs], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("lead per red three dealt (points)")
    ax.set_title("Red-three value by cell (95% intervals)")
    ax.legend()
    files["study_red_three_value.png"] = _png(fig, caption)
    lines = [f"# Canasta study report: {folder.name}", "", f"{caption}.", "", "Grid:", ""]
    lines += [f"- `{a['name']}`: {', '.join(a['values'])}" for a in spec["axes"]]
    lines.append("")
    for name, cap in STUDY_PLOTS.items():
        lines += [f"## {cap}", "", f"![{cap}]({name})", ""]
    lines += [
        "## Table (study.csv)",
        "",
        "Differences to the baseline cell with 95% intervals.",
        "",
    ]
    head = "| cell | " + " | ".join(label for _, _, label in STATISTICS.values()) + " |"
    lines += [head, "|---|" + "---:|" * len(STATISTICS)]
    for r in table.to_dict("records"):
        cells = []
        for key in STATISTICS:
            text = _estimate(r[key], r[key + "_low"], r[key + "_high"])
            if not r["baseline"]:
                diff = r[key + "_diff"], r[key + "_diff_low"], r[key + "_diff_high"]
                text += f"<br>diff {_estimate(*diff)}"
            cells.append(text)
        name = r["name"][4:] + (" (baseline)" if r["baseline"] else "")
        lines.append(f"| {_md_cell(name)} | " + " | ".join(cells) + " |")
    files["report.md"] = ("\n".join(lines) + "\n").encode("utf-8")
    write_together(folder, files)
    return folder / "report.md"


# --- Markdown ---------------------------------------------------------------------------------
def _md_cell(text) -> str:
    return str(text).replace("|", "\\|")


def _estimate(value, low, high) -> str:
    """``value [low, high]``, the bounds with the value's decimals (:func:`table_number`)."""
    like = value if value else None  # a value of 0 says nothing of its bounds' size
    bounds = f"{table_number(low, like=like)}, {table_number(high, like=like)}"
    return f"{table_number(value)} [{bounds}]"


def _rules_text(rules: Rules) -> str:
    default = Rules(players=rules.players).to_dict()
    changed = {k: v for k, v in rules.to_dict().items() if default.get(k) != v}
    text = f"{rules.players} players, {rules.sides} sides, {rules.n_cards} cards"
    if changed:
        text += "; changed from classic: " + ", ".join(f"`{k}={v}`" for k, v in changed.items())
    else:
        text += " (classic)"
    return text


def _markdown(folder: Path, manifest: dict, rules: Rules, table) -> str:
    bots = manifest.get("bots", [])
    seatings = "; ".join(
        ", ".join(map(str, s)) if isinstance(s, (list, tuple)) else str(s) for s in bots
    )
    wall = manifest.get("wall_seconds")
    rate = manifest.get("deals_per_second")
    versions = manifest.get("versions", {})
    run = [
        ("seed", manifest.get("seed")),
        ("deals", f"{manifest.get('deals', 0):,}"),
        ("rules", _rules_text(rules)),
        ("bots (per side)", seatings),
        (
            "wall time",
            f"{wall} s" + (f" ({rate:,} deals/s)" if rate else "") if wall is not None else "",
        ),
        ("workers", manifest.get("workers")),
        ("records kept", manifest.get("records")),
        ("canasta_sim", manifest.get("canasta_sim")),
        (
            "rules and bots versions",
            f"rules {manifest.get('rules_version')}, bots {manifest.get('bots_version')}",
        ),
        ("versions", ", ".join(f"{k} {v}" for k, v in versions.items())),
    ]
    lines = [f"# Canasta simulation report: {folder.name}", "", "| run | |", "|---|---|"]
    lines += [f"| {k} | {_md_cell(v)} |" for k, v in run]
    lines.append("")
    for name, caption in PLOTS.items():
        lines += [f"## {caption}", "", f"![{caption}]({name})", ""]
    lines += [
        "## Statistics",
        "",
        f"Statistics of the play of {table.attrs['policy']}: every figure but the exact ones "
        "describes these bots' play and moves with it (docs/statistics.md).",
        "",
        (
            "95% intervals: Wilson for rates, normal for means, order statistics for quantiles; "
            "the seat score difference has a conservative interval. Win rates count sole wins "
            "only; ties are reported separately. *exact*: the expectation from the rules' "
            "arithmetic where known. Computed from `aggregates.json` alone."
        ),
        "",
    ]
    for group, rows in table.groupby("group", sort=False):
        lines += [
            f"### {group}",
            "",
            "| statistic | value | 95% interval | exact | n |",
            "|---|---:|---|---:|---:|",
        ]
        for r in rows.itertuples(index=False):
            value, ci, exact = summary_cells(r)
            lines.append(f"| {_md_cell(r.statistic)} | {value} | {ci} | {exact} | {r.n:,} |")
        lines.append("")
    return "\n".join(lines)
