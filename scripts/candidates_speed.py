"""Milliseconds per :func:`canasta_sim.players.choices.candidates` call at the pinned decisions
of ``tests/data/candidate_goldens.json`` (fixed-seed deals of 2, 3, 4 and 6 players, both
presets; ``tests/goldens.py``), per phase, for docs/strategy.md.

Usage: ``python scripts/candidates_speed.py [--rounds 5]`` from the repository root; the
figure is the median over the rounds of the mean time per decision (one thread).
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


@click.command()
@click.option("--rounds", type=click.IntRange(1, 50), default=5, show_default=True)
def main(rounds: int) -> None:
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
        candidates(deals[0])  # compile or load the kernels
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            for deal in deals:
                candidates(deal)
            times.append((time.perf_counter() - start) / len(deals))
        ms = 1000 * statistics.median(times)
        click.echo(f"{phase}: {len(deals)} decisions, {ms:.3f} ms per candidates() call")


if __name__ == "__main__":
    main()
