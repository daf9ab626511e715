"""Deals per second of the example Python bots (docs/example_bots.py) against the kernel bots,
for docs/strategy.md.

Usage: ``python scripts/pybot_speed.py [--rounds 3]`` from the repository root. Each round
times every table once, one thread, in alternation (A B C ... A B C ...); the table gives the
median deals per second and the median ratio to the kernel table of the same round.
"""

from __future__ import annotations

import statistics
import time

import click

import canasta_sim as cs

HOARDER = "py:docs/example_bots.py:PileHoarder"
EAGER = "py:docs/example_bots.py:EagerMelder"
TABLES = (  # (bots per side, deals per timing)
    (["expert"], 20_000),
    ([HOARDER, "expert"], 300),
    ([EAGER, "careful"], 300),
    ([EAGER], 300),
)


@click.command()
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True)
def main(rounds: int) -> None:
    for bots, _ in TABLES:  # compile and load everything first
        cs.simulate(4, bots=bots, workers=1, records=False)
    rates: dict[int, list[float]] = {i: [] for i in range(len(TABLES))}
    for r in range(rounds):
        for i, (bots, deals) in enumerate(TABLES):
            start = time.perf_counter()
            cs.simulate(deals, bots=bots, seed=r, workers=1, records=False)
            rates[i].append(deals / (time.perf_counter() - start))
    click.echo("| bots (per side) | deals per second (1 thread) | kernel table / this |")
    click.echo("|---|---|---|")
    for i, (bots, _) in enumerate(TABLES):
        ratio = statistics.median(k / v for k, v in zip(rates[0], rates[i]))
        names = ", ".join(b.rsplit(":", 1)[-1] for b in bots)
        click.echo(f"| {names} | {statistics.median(rates[i]):,.0f} | {ratio:,.0f} |")


if __name__ == "__main__":
    main()
