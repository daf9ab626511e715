"""Compile time and start-up: wall seconds and CPU seconds (user and system, the command's
worker processes included; they do not depend on the machine's load as wall seconds do) of
``canasta-sim warmup`` and of ``canasta-sim simulate --deals 1000`` with an empty numba cache
(cold) and a filled one (cached). Memory: peak RSS of a 1,000,000-deal run with records and
of a 10,000,000-deal run without (``--no-records``), and the in-memory bytes per deal-side row
of the records.

Run: ``python benchmarks/startup.py [--skip-memory]``; writes ``results/bench/startup.csv``
and ``startup.md``.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402

CLI = [sys.executable, "-m", "canasta_sim"]


def timed(args, env) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one command, measured by GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%U %S %M", "-o", rss.name, *args],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - start
        user, system, kib = rss.read().strip().splitlines()[-1].split()
        return wall, float(user) + float(system), int(kib) / 1024


def record_bytes_per_row(deals: int = 100_000) -> float:
    from canasta_sim.run.simulate import simulate

    run = simulate(deals, bots="expert", seed=1)
    assert run.deals is not None and run.sides is not None  # records are on by default
    total = run.deals.memory_usage(deep=True).sum() + run.sides.memory_usage(deep=True).sum()
    return total / len(run.sides)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    warmup = CLI + ["warmup"]
    small = CLI + ["simulate", "--deals", "1000", "--quiet"]
    with (
        tempfile.TemporaryDirectory() as cache,
        tempfile.TemporaryDirectory() as cache2,
        tempfile.TemporaryDirectory() as work,
    ):
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}  # empty: the first run compiles
        env2 = {**os.environ, "NUMBA_CACHE_DIR": cache2}
        for what, cmd, state, environ in (
            ("canasta-sim warmup", warmup, "cold", env),
            ("canasta-sim simulate --deals 1000", small, "cold", env2),
            ("canasta-sim warmup", warmup, "cached", env),
            ("canasta-sim simulate --deals 1000", small, "cached", env),
        ):
            wall, cpu, rss = timed(cmd, environ)
            rows.append(
                {"what": what, "cache": state, "seconds": wall, "cpu_s": cpu, "peak_rss_mib": rss}
            )
            print(rows[-1], flush=True)
        if not args.skip_memory:
            for what, extra in (
                ("simulate --deals 1000000 (records)", ["--deals", "1000000"]),
                ("simulate --deals 10000000 --no-records", ["--deals", "10000000", "--no-records"]),
            ):
                wall, cpu, rss = timed(
                    CLI
                    + ["simulate", "--quiet", "--out", str(Path(work) / what.split()[2])]
                    + extra,
                    env,
                )
                rows.append(
                    {
                        "what": what,
                        "cache": "cached",
                        "seconds": wall,
                        "cpu_s": cpu,
                        "peak_rss_mib": rss,
                    }
                )
                print(rows[-1], flush=True)
            rows.append(
                {
                    "what": "records: bytes per deal-side row in memory",
                    "cache": "",
                    "seconds": float("nan"),
                    "cpu_s": float("nan"),
                    "peak_rss_mib": float("nan"),
                    "bytes_per_row": record_bytes_per_row(),
                }
            )
    frame = pd.DataFrame(rows)
    command = "python benchmarks/startup.py " + " ".join(argv or sys.argv[1:])
    print(
        write_table(
            "startup", frame, "Start-up, compile time and memory", command.strip()
        ).read_text()
    )


if __name__ == "__main__":
    main()
