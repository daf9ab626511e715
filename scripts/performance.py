"""Run the benchmarks and put their tables into docs/performance.md.

Run: ``python scripts/performance.py [--deals 100000] [--repeats 5] [--skip-startup]
[--skip-throughput] [--skip-memory]``. It runs ``benchmarks/throughput.py`` (deals per second
next to the floor kernel, in paired rounds) and ``benchmarks/startup.py`` (compile time per
command, cached start, memory unless ``--skip-memory``; it empties the numba cache for its
cold rows), each in its own process, and copies the tables they write under
``results/bench/`` into the generated section of the page.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from docs_page import DOCS, made_by, write_generated

SCRIPT = "scripts/performance.py"
ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per timed call")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--skip-startup", action="store_true", help="keep the page's start-up table as it is"
    )
    parser.add_argument(
        "--skip-throughput", action="store_true", help="keep the page's throughput table as it is"
    )
    parser.add_argument(
        "--skip-memory", action="store_true", help="leave the long memory runs out of start-up"
    )
    args = parser.parse_args(argv)
    bench = ROOT / "benchmarks"
    runs = []
    if not args.skip_throughput:
        runs.append(("throughput", ["--deals", str(args.deals), "--repeats", str(args.repeats)]))
    if not args.skip_startup:
        runs.append(("startup", ["--skip-memory"] if args.skip_memory else []))
    for name, options in runs:
        subprocess.run([sys.executable, str(bench / f"{name}.py"), *options], check=True, cwd=ROOT)
    tables = [
        (ROOT / "results" / "bench" / f"{name}.md").read_text()
        for name in ("throughput", "startup")
    ]
    command = " ".join(["python", SCRIPT, *(sys.argv[1:] if argv is None else argv)])
    text = "\n\n".join([made_by(command, machine=True), *tables])
    write_generated(DOCS / "performance.md", "performance-tables", text)


if __name__ == "__main__":
    main()
