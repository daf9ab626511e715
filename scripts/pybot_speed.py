"""Deals per second of the example Python bots (docs/example_bots.py) against the kernel bots,
and the share of their time spent listing candidates, for docs/strategy.md.

Usage: ``python scripts/pybot_speed.py [--rounds 3]`` from the repository root. Each round
times every table once, one thread, 4 players, in alternation (A B C ... A B C ...); the table
gives the median deals per second, the median ratio to the kernel table of the same round,
and the share of a Python table's time spent listing candidates (the
:class:`canasta_sim.players.choices.Choices` a Python bot's decisions are offered: made, and listed
as the bot reads them) with the mean milliseconds per decision.
"""

from __future__ import annotations

import statistics
import time

import click

import canasta_sim as cs
from canasta_sim.players import choices as candidates
from canasta_sim.players import pybot

MINIMAL = "py:docs/example_bots.py:Minimal"
HOARDER = "py:docs/example_bots.py:PileHoarder"
EAGER = "py:docs/example_bots.py:EagerMelder"
TABLES = (  # (bots per side, deals per timing)
    (["expert"], 20_000),
    ([MINIMAL, "expert"], 100),
    ([HOARDER, "expert"], 20),
    ([EAGER, "careful"], 20),
    ([EAGER], 20),
)


class Timed:
    """Running totals of the decisions offered to Python bots and the seconds spent listing
    their candidates (:class:`~canasta_sim.players.choices.Choices` made, and listed in part or
    whole)."""

    def __init__(self):
        self.seconds, self.calls = 0.0, 0

    def wrap(self, inner, count: bool):
        def timed(*args, **kwargs):
            self.calls += count
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        return timed


@click.command()
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True)
def main(rounds: int) -> None:
    for bots, _ in TABLES:  # compile and load everything first
        cs.simulate(4, bots=bots, workers=1, records=False)
    timed = Timed()
    # the decisions' listings, timed where the Python bots' turns make them
    pybot.Choices = timed.wrap(candidates.Choices, True)  # type: ignore[misc]
    candidates.Choices.listed = timed.wrap(candidates.Choices.listed, False)  # type: ignore[method-assign]
    candidates.empty_plan_candidates = timed.wrap(candidates.empty_plan_candidates, False)
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
        "| time listing candidates | ms per decision |"
    )
    click.echo("|---|---|---|---|---|")
    for i, (bots, _) in enumerate(TABLES):
        rate = statistics.median(rates[i])
        ratio = statistics.median(k / v for k, v in zip(rates[0], rates[i]))
        names = ", ".join(b.rsplit(":", 1)[-1] for b in bots)
        share = f"{statistics.median(shares[i]):.0%}" if i else "-"
        ms = f"{statistics.median(per_call[i]):.2f}" if i else "-"
        shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"
        click.echo(f"| {names} | {shown} | {ratio:,.0f} | {share} | {ms} |")


if __name__ == "__main__":
    main()
