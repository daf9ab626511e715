"""Rewrite the goldens: ``tests/data/goldens.json``, ``tests/data/analysis_goldens.json`` and the
readable playthroughs.

Usage: ``python scripts/regen_goldens.py [--force | --add-only | --analyses-only]``. A digest
that changes while ``RULES_VERSION`` and ``BOTS_VERSION`` (``canasta_sim/_version.py``) stay the
same is refused without ``--force``: behaviour changes on purpose only, with a version bump and a
CHANGELOG line.
``--add-only`` computes only the cells new to ``tests/goldens.py`` and leaves every stored cell,
the analysis goldens and the playthroughs untouched (a new bot's cells, without a version bump).
``--analyses-only`` rewrites only the analysis goldens, leaving the cells and the playthroughs
untouched: after a rebuild of the game-equity table (``scripts/build_game_equity.py``), which
moves P(win game) and no deal (with ``--force``, as no version changes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import click  # noqa: E402
import goldens as G  # noqa: E402

from canasta_sim._version import BOTS_VERSION, RULES_VERSION  # noqa: E402


@click.command()
@click.option("--force", is_flag=True, help="Write even if digests change without a version bump.")
@click.option(
    "--add-only",
    is_flag=True,
    help="Compute only the cells missing from goldens.json; keep everything stored as it is.",
)
@click.option(
    "--analyses-only",
    is_flag=True,
    help="Rewrite only analysis_goldens.json (after a rebuild of the game-equity table).",
)
def main(force: bool, add_only: bool, analyses_only: bool) -> None:
    if add_only:
        add_cells()
        return
    versions = {"rules_version": RULES_VERSION, "bots_version": BOTS_VERSION}
    if analyses_only:
        analyses = analysis_goldens(versions)
        if not force:
            refuse_silent_change(G.ANALYSIS_GOLDENS, analyses, "cases")
        G.ANALYSIS_GOLDENS.write_text(json.dumps(analyses, indent=1, sort_keys=True) + "\n")
        click.echo(f"wrote {G.ANALYSIS_GOLDENS}", err=True)
        return
    new = {**versions, "deals": G.DEALS, "seed": G.SEED, "cells": {}}
    for cell in G.cells():
        new["cells"][cell["name"]] = {"cell": cell, **G.run_cell(cell)}
        click.echo(f"{cell['name']}: done", err=True)
    analyses = analysis_goldens(versions)
    if not force:
        refuse_silent_change(G.GOLDENS, new, "cells")
        refuse_silent_change(G.ANALYSIS_GOLDENS, analyses, "cases")
    G.DATA.mkdir(exist_ok=True)
    G.GOLDENS.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
    G.ANALYSIS_GOLDENS.write_text(json.dumps(analyses, indent=1, sort_keys=True) + "\n")
    for players in G.PLAYERS:
        G.playthrough_path(players).write_text(G.playthrough(players))
    click.echo(
        f"wrote {G.GOLDENS}, {G.ANALYSIS_GOLDENS} and {len(G.PLAYERS)} playthroughs", err=True
    )


def analysis_goldens(versions: dict) -> dict:
    """The analysis goldens' content: ``versions`` and every case of :data:`goldens.ANALYSES`
    run on one thread."""
    analyses: dict = {**versions, "cases": {}}
    for case in G.ANALYSES:
        analyses["cases"][case["name"]] = {"case": case, **G.run_analysis(case, threads=1)}
        click.echo(f"analysis {case['name']}: done", err=True)
    return analyses


def add_cells() -> None:
    """Add the cells of :func:`goldens.cells` that ``goldens.json`` lacks, leaving the stored
    ones as they are (their text too: the file is rewritten in the same sorted form)."""
    stored = json.loads(G.GOLDENS.read_text())
    if (stored["rules_version"], stored["bots_version"]) != (RULES_VERSION, BOTS_VERSION):
        raise click.ClickException(
            "goldens.json holds other versions than the package's: regenerate it all"
        )
    new = [cell for cell in G.cells() if cell["name"] not in stored["cells"]]
    for cell in new:
        stored["cells"][cell["name"]] = {"cell": cell, **G.run_cell(cell)}
        click.echo(f"{cell['name']}: added", err=True)
    G.GOLDENS.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    click.echo(f"added {len(new)} cells to {G.GOLDENS}", err=True)


def refuse_silent_change(path: Path, new: dict, key: str) -> None:
    """Refuse to overwrite ``path`` when an entry of ``new[key]`` changed while the rules and
    bots versions stayed the same (entries new to the file are accepted)."""
    if not path.exists():
        return
    old = json.loads(path.read_text())
    same_versions = (old["rules_version"], old["bots_version"]) == (RULES_VERSION, BOTS_VERSION)
    changed = [n for n, c in new[key].items() if old[key].get(n, c) != c]
    if changed and same_versions:
        raise click.ClickException(
            f"digests changed for {', '.join(changed)} but rules_version and bots_version "
            "did not: bump a version (and say why in CHANGELOG.md) or pass --force"
        )


if __name__ == "__main__":
    main()
