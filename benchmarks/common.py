"""Shared pieces of the benchmark scripts: timing and writing CSV + Markdown tables."""

import platform
import time
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent.parent / "results" / "bench"


def paired_seconds(calls: dict, repeats: int) -> dict:
    """Wall seconds of ``repeats`` rounds in which every function of ``calls`` (name -> function
    of no arguments) runs once, in order, after one untimed warm-up call of each. Returns
    name -> list of seconds, one per round."""
    for fn in calls.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, fn in calls.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def write_table(name: str, frame: pd.DataFrame, title: str, command: str) -> Path:
    """Write ``results/bench/NAME.csv`` and ``NAME.md`` (a Markdown table with the command and
    the machine) and return the Markdown path."""
    OUT.mkdir(parents=True, exist_ok=True)
    frame.to_csv(OUT / f"{name}.csv", index=False)
    md = OUT / f"{name}.md"
    md.write_text(
        f"### {title}\n\n`{command}` on {platform.node()} "
        f"({platform.processor() or platform.machine()}, "
        f"{__import__('os').cpu_count()} cores), {time.strftime('%Y-%m-%d')}\n\n"
        + frame.to_markdown(index=False, floatfmt=".4g")
        + "\n"
    )
    return md
