"""Microseconds per :func:`canasta_sim.players.choices.candidates` call at the pinned decisions
of ``tests/data/candidate_goldens.json`` (fixed-seed deals of 2, 3, 4 and 6 players, both
presets; ``tests/goldens.py``), per phase, for docs/performance.md and docs/strategy.md.

Usage: ``python scripts/candidates_speed.py [--rounds 5] [--labels]`` from the repository root;
the figure is the median over the rounds of the mean time per decision (one thread). With
``--labels`` every candidate's label is read too (what the command line and a Python bot's
listing print), which the candidate layer writes only when it is read.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import click  # noqa: E402
import goldens as G  # noqa: E402

from canasta_sim import Deal, Rules  # noqa: E402
from canasta_sim.players.choices import candidates  # noqa: E402


def _list(deal: Deal, labels: bool) -> None:
    found = candidates(deal)
    if labels:
        for c in found:
            _ = c.label


@click.command()
@click.option("--rounds", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option("--labels", is_flag=True, help="Also read every candidate's label.")
def main(rounds: int, labels: bool) -> None:
    data = json.loads(G.CANDIDATE_GOLDENS.read_text())
    stored, layout = data["decisions"], data["state_layout"]
    for phase in ("draw", "play"):
        deals = [
            Deal(
                Rules.preset(d["preset"], players=d["players"]),
                G.state_from_text(d["state"], layout),
            )
            for d in stored
            if d["phase"] == phase
        ]
        _list(deals[0], labels)  # compile or load the kernels
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            for deal in deals:
                _list(deal, labels)
            times.append((time.perf_counter() - start) / len(deals))
        us = 1e6 * statistics.median(times)
        what = "candidates() call, labels read" if labels else "candidates() call"
        click.echo(f"{phase}: {len(deals)} decisions, {us:.1f} us per {what}")


if __name__ == "__main__":
    main()
