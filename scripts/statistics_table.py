"""Run the main job and put its statistics table into docs/statistics.md.

Run: ``python scripts/statistics_table.py [--deals 1000000] [--seed 0]``. It runs the command
line as the README's main job does (``canasta-sim simulate --deals N --out DIR``, expert bots on
every seat), with ``DIR`` a temporary folder so that the wall time includes writing the Parquet
files and nothing is left under results/, captures what it prints (the wall-time line and the
table) and replaces the generated section of the page with it.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from docs_page import DOCS, made_by, write_generated

SCRIPT = "scripts/statistics_table.py"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    command = ["simulate", "--deals", str(args.deals), "--seed", str(args.seed), "--out"]
    with tempfile.TemporaryDirectory() as folder:
        # --quiet keeps the progress bar out of the captured table
        done = subprocess.run(
            [sys.executable, "-m", "canasta_sim", *command, str(Path(folder) / "main"), "--quiet"],
            check=True,
            capture_output=True,
            text=True,
        )
    printed = "\n".join(
        line for line in done.stdout.strip().splitlines() if not line.startswith("results written")
    )
    shown = "canasta-sim " + " ".join(command) + " DIR"
    script = " ".join(["python", SCRIPT, *(sys.argv[1:] if argv is None else argv)])
    text = (
        f"{made_by(script, machine=True)}\n\n"
        f"`{shown}` on {platform.node()} ({platform.machine()}, {os.cpu_count()} cores), "
        f"{time.strftime('%Y-%m-%d')}:\n\n```text\n{printed}\n```"
    )
    write_generated(DOCS / "statistics.md", "statistics-table", text)
    print(printed)


if __name__ == "__main__":
    main()
