"""Deals per second of the example Python bots (docs/example_bots.py) against the kernel bots,
and the share of their time spent listing candidates, for docs/strategy.md.

Usage: ``python scripts/pybot_speed.py [--rounds 3]`` from the repository root. Each round
times every table once, one thread, in alternation (A B C ... A B C ...); the table gives the
median deals per second, the median ratio to the kernel table of the same round, and the
share of a Python table's time spent in :func:`canasta_sim.players.choices.candidates` (timed
around the calls the Python bots' turns make) with the mean milliseconds per call.
"""

from __future__ import annotations

import statistics
import time

import click

import canasta_sim as cs
from canasta_sim.players import pybot

HOARDER = "py:docs/example_bots.py:PileHoarder"
EAGER = "py:docs/example_bots.py:EagerMelder"
TABLES = (  # (bots per side, deals per timing)
    (["expert"], 20_000),
    ([HOARDER, "expert"], 20),
    ([EAGER, "careful"], 20),
    ([EAGER], 20),
)


class Timed:
    """``pybot.candidates`` with running totals of its calls and the seconds spent in it."""

    def __init__(self, inner):
        self.inner, self.seconds, self.calls = inner, 0.0, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        start = time.perf_counter()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


@click.command()
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True)
def main(rounds: int) -> None:
    for bots, _ in TABLES:  # compile and load everything first
        cs.simulate(4, bots=bots, workers=1, records=False)
    timed = pybot.candidates = Timed(pybot.candidates)
    rates: dict[int, list[float]] = {i: [] for i in range(len(TABLES))}
    shares: dict[int, list[float]] = {i: [] for i in range(len(TABLES))}
    per_call: dict[int, list[float]] = {i: [] for i in range(len(TABLES))}
    for r in range(rounds):
        for i, (bots, deals) in enumerate(TABLES):
            timed.seconds, timed.calls = 0.0, 0
            start = time.perf_counter()
            cs.simulate(deals, bots=bots, seed=r, workers=1, records=False)
            elapsed = time.perf_counter() - start
            rates[i].append(deals / elapsed)
            shares[i].append(timed.seconds / elapsed)
            per_call[i].append(1000 * timed.seconds / max(timed.calls, 1))
    click.echo(
        "| bots (per side) | deals per second (1 thread) | kernel table / this "
        "| time in candidates() | ms per candidates() call |"
    )
    click.echo("|---|---|---|---|---|")
    for i, (bots, _) in enumerate(TABLES):
        rate = statistics.median(rates[i])
        ratio = statistics.median(k / v for k, v in zip(rates[0], rates[i]))
        names = ", ".join(b.rsplit(":", 1)[-1] for b in bots)
        share = f"{statistics.median(shares[i]):.0%}" if i else "-"
        ms = f"{statistics.median(per_call[i]):.1f}" if i else "-"
        shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"
        click.echo(f"| {names} | {shown} | {ratio:,.0f} | {share} | {ms} |")


if __name__ == "__main__":
    main()
