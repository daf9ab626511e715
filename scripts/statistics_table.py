"""Run the main job and put its statistics table into docs/statistics.md, with the same table
under other policies side by side.

Run: ``python scripts/statistics_table.py [--deals 1000000] [--expert-deals 1000000]
[--pimc-deals 600] [--ladder-deals 100000] [--search-deals 1000] [--seed 0] [--only BOT ...]
[--workers N]``. It runs the command line as the
README's main job does (``canasta-sim simulate --deals N --out DIR``, the default bot on every
seat: ``apprentice``), with ``DIR`` a temporary folder so that the wall time includes writing
the Parquet files and nothing is left under results/, captures what it prints (the wall-time
line and the table) and replaces the block ``statistics-table`` of the page with it. Then it
plays the same seed with the hand-written ``expert`` and the search bot (``pimc``) on every
seat (a smaller sample: pimc is the slowest) and writes block ``statistics-policies``: every
statistic under the three policies with its 95% interval, each column naming the bots version
that measured it, and whether two of them differ (disjoint intervals).

Each policy's statistics are kept in ``results/statistics/BOT.json``. ``--only BOT``
(repeatable) reruns only that policy's column, after a bot change moved it, and takes the
others from their files (an error if a file is missing or holds other deals or another seed);
without ``--only`` every policy is rerun (the main job's block with the default bot's).

Block ``statistics-ladder`` is the policy ladder: the main statistics under each bot of
:data:`LADDER` on every seat of the same deals (``--ladder-deals``; the search, the slowest, on
the first ``--search-deals`` of them), each with its 95% interval, and each policy's paired
difference from the default bot's on their common deals (per-deal differences: the same
shuffles, so the luck of the cards cancels). ``--only ladder`` reruns it alone; it keeps no
file (it is rerun whole).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from docs_page import DOCS, ROOT, made_by, write_generated

from canasta_sim import simulate
from canasta_sim._version import BOTS_VERSION
from canasta_sim.players.specs import DEFAULT_BOT
from canasta_sim.results.intervals import mean_interval
from canasta_sim.results.tables import interval

SCRIPT = "scripts/statistics_table.py"
KEY = ["group", "statistic"]
#: The policies of the side-by-side table, in its column order: the default bot's (the main
#: job's, ``--deals``) first.
POLICIES = (DEFAULT_BOT, *(b for b in ("apprentice", "expert", "pimc") if b != DEFAULT_BOT))
#: Deals of the other policies' columns by default (``--BOT-deals``).
DEALS = {"apprentice": 100_000, "expert": 1_000_000, "pimc": 600}
#: Where each policy's statistics are kept, for ``--only``.
COLUMNS = ROOT / "results" / "statistics"
#: The policy ladder, weakest first, as ``{column label: bot spec}``: the hand-written bot, the
#: previous learned bot, the default bot and the strongest search (rolling out with bots
#: version 11's learned bot, its prior: a head network, today's, scores no prior).
LADDER = {
    "expert": "expert",
    "apprentice@8": "apprentice@8",
    DEFAULT_BOT: DEFAULT_BOT,
    "search": "pimc:rollout=apprentice@11,prior_top=3,margin_z=1",
}
#: The ladder's statistics: label, the record's column (``sides`` or ``deals``) and whether it
#: is a count per side (the deal's total over its sides divided by the sides).
LADDER_ROWS = (
    ("natural canastas per side", "sides", "natural_canastas"),
    ("mixed canastas per side", "sides", "mixed_canastas"),
    ("concealed canastas per side", "sides", "concealed_canastas"),
    ("red-three score per side (points)", "sides", "red_three_score"),
    ("share of sides that never meld", "sides", "never_meld"),
    ("mean side score (points)", "sides", "score"),
    ("turns per deal", "deals", "turns"),
    ("share of deals ending by going out", "deals", "went_out"),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--deals", type=count(1, "a count of deals"), default=1_000_000)
    for bot in POLICIES[1:]:
        parser.add_argument(f"--{bot}-deals", type=count(1, "a count of deals"), default=DEALS[bot])
    parser.add_argument("--ladder-deals", type=count(1, "a count of deals"), default=100_000)
    parser.add_argument("--search-deals", type=count(1, "a count of deals"), default=1_000)
    parser.add_argument("--seed", type=count(0, "a seed"), default=0)
    parser.add_argument(
        "--only",
        action="append",
        choices=(*POLICIES, "ladder"),
        metavar="BOT",
        help=f"rerun only this policy's column (repeatable; one of {', '.join(POLICIES)}), "
        "the others read from results/statistics/BOT.json; or the policy ladder (ladder)",
    )
    parser.add_argument(
        "--workers", type=count(1, "a count of threads"), help="threads (default: all cores)"
    )
    args = parser.parse_args(argv)
    script = " ".join(["python", SCRIPT, *(sys.argv[1:] if argv is None else argv)])
    deals = {bot: getattr(args, f"{bot}_deals", args.deals) for bot in POLICIES}
    rerun = [bot for bot in POLICIES if not args.only or bot in args.only]
    # the kept columns are read first, so that a missing one fails before the slow runs
    try:
        columns = {
            bot: read_column(bot, deals[bot], args.seed) for bot in POLICIES if bot not in rerun
        }
    except ValueError as error:
        parser.error(str(error))
    if not args.only or "ladder" in args.only:
        ladder = policy_ladder(args.ladder_deals, args.search_deals, args.seed, args.workers)
        write_generated(
            DOCS / "statistics.md", "statistics-ladder", f"{made_by(script)}\n\n{ladder}"
        )
    if not rerun:
        return
    for bot in rerun:
        if bot == POLICIES[0]:
            command, printed, table = main_job(args.deals, args.seed, args.workers)
            write_main_table(script, command, printed)
        else:
            run = simulate(
                deals[bot], bots=bot, seed=args.seed, records=False, workers=args.workers
            )
            table = run.summary()
            print(f"{bot}: {deals[bot]:,} deals in {run.manifest['wall_seconds']} s", flush=True)
        columns[bot] = write_column(bot, deals[bot], args.seed, table)
    side = side_by_side(
        {heading(columns[bot]): pd.DataFrame(columns[bot]["statistics"]) for bot in POLICIES}
    )
    write_generated(DOCS / "statistics.md", "statistics-policies", f"{made_by(script)}\n\n{side}")


def count(low: int, what: str) -> Callable[[str], int]:
    """An option's type: a whole number ``low`` or more (``what`` names it in the error)."""

    def parse(text: str) -> int:
        if not text.strip().isdigit() or int(text) < low:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}; allowed: {low} or more")
        return int(text)

    return parse


def write_main_table(script: str, command: str, printed: str) -> None:
    """Write block ``statistics-table``: what the main job (``command``) printed."""
    text = (
        f"{made_by(script, machine=True)}\n\n"
        f"`{command}` on {platform.node()} ({platform.machine()}, {os.cpu_count()} cores), "
        f"{time.strftime('%Y-%m-%d')}, bots version {BOTS_VERSION}: the wall time on the first "
        "line is not a speed figure (throughput on a quiet machine: "
        f"[performance.md](performance.md)):\n\n```text\n{printed}\n```"
    )
    write_generated(DOCS / "statistics.md", "statistics-table", text)
    print(printed)


def heading(column: dict) -> str:
    """A column's heading: the policy, its deals and the bots version that measured it."""
    return f"{column['policy']}, {column['deals']:,} deals, bots version {column['bots_version']}"


def write_column(bot: str, deals: int, seed: int, table: pd.DataFrame) -> dict:
    """Keep ``bot``'s statistics (``table``, of ``deals`` deals of ``seed``) in
    :data:`COLUMNS` with the bots version and date of the run, and return what was kept."""
    column = {
        "policy": bot,
        "deals": deals,
        "seed": seed,
        "bots_version": BOTS_VERSION,
        "date": time.strftime("%Y-%m-%d"),
        "statistics": json.loads(table.to_json(orient="records")),
    }
    COLUMNS.mkdir(parents=True, exist_ok=True)
    (COLUMNS / f"{bot}.json").write_text(json.dumps(column, indent=1) + "\n")
    return column


def read_column(bot: str, deals: int, seed: int) -> dict:
    """``bot``'s kept statistics (:func:`write_column`).

    Raises ValueError when the file is missing or holds other deals or another seed than the
    command asks for, naming what it holds and how to rerun the column.
    """
    path = COLUMNS / f"{bot}.json"
    if not path.exists():
        raise ValueError(
            f"{path} not found: the {bot} column is kept from it; rerun the column too "
            f"(--only {bot}, or no --only)"
        )
    column = json.loads(path.read_text())
    if (column["deals"], column["seed"]) != (deals, seed):
        option = "--deals" if bot == POLICIES[0] else f"--{bot}-deals"
        raise ValueError(
            f"{path} holds {column['deals']:,} deals of seed {column['seed']}, not {deals:,} of "
            f"seed {seed}; allowed: {option} {column['deals']} --seed {column['seed']}, or "
            f"rerun the column (--only {bot})"
        )
    return column


def main_job(deals: int, seed: int, workers: int | None) -> tuple[str, str, pd.DataFrame]:
    """The main job as a user runs it (``--workers`` only when given): its command line (the
    folder written as ``DIR``), what it prints (the progress bar left out) and its summary
    (``summary.json``)."""
    command = ["simulate", "--deals", str(deals), "--seed", str(seed)]
    if workers is not None:
        command += ["--workers", str(workers)]
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "main")
        # --quiet keeps the progress bar out of the captured table
        done = subprocess.run(
            [sys.executable, "-m", "canasta_sim", *command, "--out", out, "--quiet"],
            capture_output=True,
            text=True,
        )
        if done.returncode:  # its own message, not a traceback of this script
            raise SystemExit(
                f"canasta-sim {' '.join(command)} failed (exit code {done.returncode}): "
                f"{done.stderr.strip()}"
            )
        rows = json.loads((Path(out) / "summary.json").read_text())["statistics"]
    printed = "\n".join(
        line for line in done.stdout.strip().splitlines() if not line.startswith("results written")
    )
    return " ".join(["canasta-sim", *command, "--out DIR"]), printed, pd.DataFrame(rows)


def side_by_side(tables: dict[str, pd.DataFrame]) -> str:
    """A Markdown table: each statistic's value and 95% interval under every policy (column
    headings: ``tables``' keys), and ``differs``: yes when two of the intervals are disjoint
    (the policy moves the statistic beyond the samples' noise), never for a row with an exact
    value (the cards dealt: no policy moves them). Rows of one policy only (a bot's own win
    rate) are left out."""
    names = list(tables)
    merged = None
    for i, name in enumerate(names):
        part = tables[name][[*KEY, "value", "ci_low", "ci_high", "exact"]]
        part = part.rename(columns={c: f"{c}_{i}" for c in ("value", "ci_low", "ci_high", "exact")})
        merged = part if merged is None else merged.merge(part, on=KEY, how="inner", sort=False)
    assert merged is not None
    lines = [
        "| group | statistic | " + " | ".join(names) + " | exact | differs |",
        "|---|---|" + "---|" * (len(names) + 2),
    ]
    differ = 0
    for _, r in merged.iterrows():
        lows = [r[f"ci_low_{i}"] for i in range(len(names))]
        highs = [r[f"ci_high_{i}"] for i in range(len(names))]
        # NaN bounds compare False: no claim; an exact row differs by sampling alone
        moved = max(lows) > min(highs) and pd.isna(r["exact_0"])
        differ += bool(moved)
        cells = [
            interval(r[f"value_{i}"], r[f"ci_low_{i}"], r[f"ci_high_{i}"], ",.4g")
            for i in range(len(names))
        ]
        exact = "" if pd.isna(r["exact_0"]) else f"{r['exact_0']:.5g}"
        lines.append(
            f"| {r['group']} | {r['statistic']} | {' | '.join(cells)} | {exact} | "
            f"{'yes' if moved else ''} |"
        )
    count = (
        f"{differ} of {len(merged)} statistics differ between two of the policies beyond "
        "their 95% intervals (`differs`); those with an exact value (the cards dealt) are the "
        "shuffle's alone."
    )
    return count + "\n\n" + "\n".join(lines)


def policy_ladder(deals: int, search_deals: int, seed: int, workers: int | None) -> str:
    """The policy ladder (block ``statistics-ladder``): each bot of :data:`LADDER` on every seat
    of the first ``deals`` deals of ``seed`` (the search of the first ``search_deals``), its
    statistics (:data:`LADDER_ROWS`) and their paired differences from the default bot's, as a
    Markdown table."""
    totals = {}
    for label, bot in LADDER.items():
        n = search_deals if label == "search" else deals
        run = simulate(n, bots=bot, seed=seed, workers=workers, progress=True)
        print(f"{bot}: {n:,} deals in {run.manifest['wall_seconds']} s", flush=True)
        totals[label] = deal_totals(run.sides, run.deals)
    return ladder_table(totals, sides=run.rules.sides)


def deal_totals(sides: pd.DataFrame, deals: pd.DataFrame) -> pd.DataFrame:
    """Each deal's integer total of every statistic of :data:`LADDER_ROWS` (summed over the
    deal's sides for a per-side one), one row per deal in deal order.

    ``sides``, ``deals``: a run's records (:attr:`SimulationResult.sides`, ``.deals``)."""
    per_side = sides.assign(never_meld=sides["initial_meld_turn"] < 0)
    per_deal = deals.assign(went_out=deals["end_reason"] == "went_out").set_index("deal")
    columns = [column for _, frame, column in LADDER_ROWS if frame == "sides"]
    total = per_side.groupby("deal")[columns].sum()
    for _, frame, column in LADDER_ROWS:
        if frame == "deals":
            total[column] = per_deal[column]
    return total.sort_index().astype(np.int64)


def ladder_table(totals: dict[str, pd.DataFrame], sides: int) -> str:
    """The ladder as Markdown: a row per statistic, each policy's mean over its deals with the
    95% interval, then each other policy's paired difference from the default bot's on their
    common deals (the first deals of both: deal ``k`` is the same shuffle in every run).

    ``totals``: each policy's :func:`deal_totals` by its column label, in ladder order;
    ``sides``: sides a deal, the divisor of the per-side statistics."""
    reference = totals[DEFAULT_BOT]
    others = [bot for bot in totals if bot != DEFAULT_BOT]
    head = [f"{bot} ({len(t):,} deals)" for bot, t in totals.items()]
    head += [f"{bot} - {DEFAULT_BOT} ({min(len(totals[bot]), len(reference)):,})" for bot in others]
    lines = ["| statistic | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    for label, frame, column in LADDER_ROWS:
        scale = sides if frame == "sides" else 1
        cells = [per_deal_mean(t[column].to_numpy(), scale) for t in totals.values()]
        for bot in others:
            common = min(len(totals[bot]), len(reference))
            diff = totals[bot][column].to_numpy()[:common] - reference[column].to_numpy()[:common]
            cells.append(per_deal_mean(diff, scale, signed=True))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_deal_mean(values: np.ndarray, scale: int, signed: bool = False) -> str:
    """The mean of per-deal integer ``values`` divided by ``scale``, with its 95% normal
    interval over the deals, as a table cell (``signed``: with a + on a positive value)."""
    v = values.astype(object)  # Python ints: the sum of squares does not overflow
    mean, low, high = (x / scale for x in mean_interval(sum(v), sum(v * v), len(v)))
    spec = "+,.4g" if signed else ",.4g"
    return interval(mean, low, high, spec)


if __name__ == "__main__":
    main()
