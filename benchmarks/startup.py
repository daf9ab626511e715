"""Compile time and start-up: wall seconds and CPU seconds (user and system, the command's
worker processes included; they do not depend on the machine's load as wall seconds do) of
each command of :data:`COMMANDS` (``simulate``, ``compare``, ``analyse``, ``warmup``), each
with an empty numba cache of its own (cold: it compiles what it uses), then each again with
the cache the cold ``warmup`` filled (cached). Memory: peak RSS of a 1,000,000-deal run with
records and of a 10,000,000-deal run without (``--no-records``), and the in-memory bytes per
deal-side row of the records.

Run: ``python benchmarks/startup.py [--skip-memory] [--name startup]``; writes
``results/bench/NAME.csv`` and ``NAME.md``. The commands run the ``canasta_sim`` that
``PYTHONPATH`` selects (they run in the temporary folder, as ``python -m`` imports from the
current folder first), so a checkout of another commit can be measured with this script.
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
POSITION = str(Path(__file__).resolve().parent.parent / "docs" / "positions" / "take_or_draw.toml")

#: The timed commands: a label and the arguments after ``canasta-sim``; ``warmup`` last, as
#: its cold run fills the cache the cached rows use.
COMMANDS = (
    ("simulate --deals 1000", ["simulate", "--deals", "1000", "--quiet"]),
    (
        "simulate --bots expert --deals 1000",
        ["simulate", "--bots", "expert", "--deals", "1000", "--quiet"],
    ),
    ("compare expert greedy --deals 1000", ["compare", "expert", "greedy", "--deals", "1000"]),
    ("analyse take_or_draw.toml --worlds 1000", ["analyse", POSITION, "--worlds", "1000"]),
    ("warmup", ["warmup"]),
)


def timed(args, env) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one command, measured by GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%U %S %M", "-o", rss.name, *args],
            env=env,
            cwd=tempfile.gettempdir(),  # not the checkout: python -m imports from the cwd first
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
    parser.add_argument("--name", default="startup", help="the tables' file name")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as work:
        cached = {**os.environ, "NUMBA_CACHE_DIR": str(Path(root) / "warmup")}
        for state in ("cold", "cached"):
            for what, args_ in COMMANDS:
                fresh = {**os.environ, "NUMBA_CACHE_DIR": str(Path(root) / what.replace(" ", "_"))}
                env = cached if state == "cached" or what == "warmup" else fresh
                wall, cpu, rss = timed(CLI + args_, env)
                rows.append(
                    {
                        "what": f"canasta-sim {what}",
                        "cache": state,
                        "seconds": wall,
                        "cpu_s": cpu,
                        "peak_rss_mib": rss,
                    }
                )
                print(rows[-1], flush=True)
        env = cached
        if not args.skip_memory:
            # the expert's deals: the records' memory, not the play, is measured
            for what, extra in (
                ("simulate --bots expert --deals 1000000 (records)", ["--deals", "1000000"]),
                (
                    "simulate --bots expert --deals 10000000 --no-records",
                    ["--deals", "10000000", "--no-records"],
                ),
            ):
                out = str(Path(work) / what.split()[4])
                wall, cpu, rss = timed(
                    CLI + ["simulate", "--bots", "expert", "--quiet", "--out", out] + extra,
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
            args.name, frame, "Start-up, compile time and memory", command.strip()
        ).read_text()
    )


if __name__ == "__main__":
    main()
