"""Rewrite ``tests/data/candidate_goldens.json``: the candidates
(:func:`canasta_sim.players.choices.candidates`) at fixed-seed decisions of every table
(``tests/goldens.py``, "candidate goldens"), which ``tests/test_goldens.py`` checks.

Usage: ``python scripts/regen_candidates.py`` from the repository root. The candidates are the
candidate layer's documented output (docs/analysis.md): rewrite them only for a deliberate
change of that layer (and say why in CHANGELOG.md), never for a speed-up.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import click  # noqa: E402
import goldens as G  # noqa: E402


@click.command()
def main() -> None:
    decisions = G.candidate_decisions()
    data = {"state_layout": G.state_layout(), "decisions": decisions}
    G.CANDIDATE_GOLDENS.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    kinds = Counter(f for d in decisions for f in d["features"])
    kinds.update(d["phase"] for d in decisions)
    kinds["initial_meld"] = sum(d["initial_meld"] and d["phase"] == "play" for d in decisions)
    click.echo(
        f"wrote {G.CANDIDATE_GOLDENS}: {len(decisions)} decisions, "
        f"{sum(len(d['candidates']) for d in decisions)} candidates; {dict(kinds)}",
        err=True,
    )


if __name__ == "__main__":
    main()
