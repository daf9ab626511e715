"""``canasta-sim train``: rebuild the apprentice's four weight files from a seed, in resumable
stages (labels with pimc's rollouts, then a network fitted on them, round after round)."""

from __future__ import annotations

from pathlib import Path

import click

from ..learn import PLAN_LEAST
from .options import SCHEDULER, SEED, Integer, _check_workers, api_errors


def _least(name: str, most: int = 10**12) -> Integer:
    """The option range of the plan's count ``name``: its least value is the plan's own."""
    return Integer(PLAN_LEAST[name], most)


@click.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Folder of the stages; run the same command again to resume after a kill.",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Master seed.")
@click.option(
    "--rounds",
    type=_least("rounds", 20),
    default=2,
    show_default=True,
    help="Rounds: round 1 labels with the expert's rollouts, round k with round k-1's "
    "apprentice; each round fits on the labels of every round so far.",
)
@click.option(
    "--shards",
    type=_least("shards"),
    default=500,
    show_default=True,
    help="4-player shards a round.",
)
@click.option(
    "--shards-other",
    type=_least("shards_other"),
    default=180,
    show_default=True,
    help="Shards a round of 2, 3 and 6 players (in turn).",
)
@click.option(
    "--deals", type=_least("deals"), default=20, show_default=True, help="Deals per shard."
)
@click.option(
    "--worlds",
    type=_least("worlds", 10_000),
    default=32,
    show_default=True,
    help="Sampled worlds per labelled decision.",
)
@click.option(
    "--every",
    type=_least("every", 1_000),
    default=3,
    show_default=True,
    help="Label about one decision in EVERY.",
)
@click.option(
    "--threads",
    type=Integer(min=1),
    default=1,
    show_default=True,
    help="Threads labelling shards side by side (results do not depend on it).",
)
@SCHEDULER
@click.option("--quiet", is_flag=True, help="No progress bar.")
def train(out, seed, rounds, shards, shards_other, deals, worlds, every, threads, scheduler, quiet):
    """Rebuild the apprentice's weights (apprentice_{2,3,4,6}p.npz) from a seed.

    Each round labels 4-player decisions, then 2-, 3- and 6-player ones, with pimc's paired
    rollouts, and fits a network per player count (needs the optional extra
    train: pip install -e ".[train]" in a checkout).
    A stage done is marked in OUT/round_K/ and skipped when the command runs again; a
    labelling stage resumes from its last whole shard. The weights are in
    OUT/round_ROUNDS/weights/ (docs/learned.md).
    """
    from ..learn.pipeline import TrainPlan, run_training

    _check_workers(threads, scheduler)
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise click.ClickException(
            'training needs scikit-learn, the optional extra train: pip install -e ".[train]" '
            "in a checkout"
        ) from None
    with api_errors():
        plan = TrainPlan(seed, rounds, shards, shards_other, deals, worlds, every)
        folder = run_training(
            out, plan, threads=threads, scheduler=scheduler, progress=not quiet, echo=click.echo
        )
    click.echo(f"weights: {folder}")
