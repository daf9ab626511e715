"""Run the main job and put its statistics table into docs/statistics.md, with the same table
under other policies side by side.

Run: ``python scripts/statistics_table.py [--deals 1000000] [--apprentice-deals 100000]
[--pimc-deals 600] [--seed 0]``. It runs the command line as the README's main job does
(``canasta-sim simulate --deals N --out DIR``, expert bots on every seat), with ``DIR`` a
temporary folder so that the wall time includes writing the Parquet files and nothing is left
under results/, captures what it prints (the wall-time line and the table) and replaces the
block ``statistics-table`` of the page with it. Then it plays the same seed with the learned
bot (``apprentice``) and the search bot (``pimc``) on every seat (smaller samples: pimc plays
tens of deals a second) and writes block ``statistics-policies``: every statistic under the
three policies with its 95% interval, and whether two of them differ (disjoint intervals).
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
from pathlib import Path

import pandas as pd
from docs_page import DOCS, made_by, write_generated

from canasta_sim import simulate
from canasta_sim._version import BOTS_VERSION
from canasta_sim.results.tables import interval

SCRIPT = "scripts/statistics_table.py"
KEY = ["group", "statistic"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--apprentice-deals", type=int, default=100_000)
    parser.add_argument("--pimc-deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    script = " ".join(["python", SCRIPT, *(sys.argv[1:] if argv is None else argv)])
    printed, expert = main_job(args.deals, args.seed)
    command = f"canasta-sim simulate --deals {args.deals} --seed {args.seed} --out DIR"
    text = (
        f"{made_by(script, machine=True)}\n\n"
        f"`{command}` on {platform.node()} ({platform.machine()}, {os.cpu_count()} cores), "
        f"{time.strftime('%Y-%m-%d')}, bots version {BOTS_VERSION}: the wall time on the first "
        "line is not a speed figure (throughput on a quiet machine: "
        f"[performance.md](performance.md)):\n\n```text\n{printed}\n```"
    )
    write_generated(DOCS / "statistics.md", "statistics-table", text)
    print(printed)
    tables = {f"expert, {args.deals:,} deals": expert}
    for bot, deals in (("apprentice", args.apprentice_deals), ("pimc", args.pimc_deals)):
        run = simulate(deals, bots=bot, seed=args.seed, records=False)
        tables[f"{bot}, {deals:,} deals"] = run.summary()
        print(f"{bot}: {deals:,} deals in {run.manifest['wall_seconds']} s", flush=True)
    side = side_by_side(tables)
    write_generated(DOCS / "statistics.md", "statistics-policies", f"{made_by(script)}\n\n{side}")


def main_job(deals: int, seed: int) -> tuple[str, pd.DataFrame]:
    """The main job as a user runs it: what it prints (the progress bar left out) and its
    summary (``summary.json``)."""
    command = ["simulate", "--deals", str(deals), "--seed", str(seed), "--out"]
    with tempfile.TemporaryDirectory() as folder:
        # --quiet keeps the progress bar out of the captured table
        done = subprocess.run(
            [sys.executable, "-m", "canasta_sim", *command, str(Path(folder) / "main"), "--quiet"],
            check=True,
            capture_output=True,
            text=True,
        )
        rows = json.loads((Path(folder) / "main" / "summary.json").read_text())["statistics"]
    printed = "\n".join(
        line for line in done.stdout.strip().splitlines() if not line.startswith("results written")
    )
    return printed, pd.DataFrame(rows)


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
            interval(r[f"value_{i}"], r[f"ci_low_{i}"], r[f"ci_high_{i}"], ".4g")
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


if __name__ == "__main__":
    main()
