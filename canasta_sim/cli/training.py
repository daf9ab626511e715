"""``canasta-sim train``: rebuild the apprentice's four weight files from a seed, in resumable
stages (labels with pimc's rollouts, then a network fitted on them, round after round)."""

from __future__ import annotations

import click

from ..errors import missing_extra
from ..learn import MOST_ROUNDS, PLAN_LEAST, STARTS
from .options import (
    QUIET,
    SCHEDULER,
    SEED_OPTION,
    Folder,
    Integer,
    _check_workers,
    api_errors,
    integer_option,
)

#: The plan's counts as options: name, most, default and help; the least value of each is the
#: plan's own (:data:`canasta_sim.learn.PLAN_LEAST`). The defaults are bots version 9's recipe.
PLAN_OPTIONS = (
    (
        "rounds",
        MOST_ROUNDS,
        1,
        "Rounds at most: round 1 labels with --start's rollouts, round k with round k-1's "
        "apprentice; each round fits on the labels of every round so far, and a player count "
        "stops when its new file does not beat the one before (1 round: the shipped files' "
        "recipe).",
    ),
    ("shards_2p", 10**12, 600, "2-player shards a round (seed SEED + 7002)."),
    ("shards_3p", 10**12, 400, "3-player shards a round (seed SEED + 7003)."),
    ("shards_4p", 10**12, 1000, "4-player shards a round (seed SEED + 7001)."),
    ("shards_6p", 10**12, 400, "6-player shards a round (seed SEED + 7006)."),
    (
        "stage_shards",
        10**12,
        500,
        "Shards a labelling stage makes at most: a player count with more is labelled in "
        "several stages of equal size (500 shards: 15 to 40 minutes on two cores).",
    ),
    ("deals", 10**12, 20, "Deals per shard."),
    ("worlds", 10_000, 32, "Sampled worlds per labelled decision."),
    ("every", 1_000, 3, "Label about one decision in EVERY."),
    (
        "judge_deals",
        10**9,
        100_000,
        "Deals a round's new file plays against the one before it to be kept (seed SEED + 40).",
    ),
)


def plan_options(f):
    """The options of :data:`PLAN_OPTIONS`, in its order."""
    for name, most, default, help in reversed(PLAN_OPTIONS):
        option = "--" + name.replace("_", "-")
        f = click.option(
            option,
            type=Integer(PLAN_LEAST[name], most),
            default=default,
            show_default=True,
            help=help,
        )(f)
    return f


@click.command()
@click.option(
    "--out",
    type=Folder(file_okay=False),
    required=True,
    help="Folder of the stages; run the same command again to resume after a kill.",
)
@SEED_OPTION
@click.option(
    "--start",
    type=click.Choice(STARTS, case_sensitive=False),
    default="apprentice@8",
    show_default=True,
    help="Round 1's rollout bot, whose files its judges play against: an apprentice of shipped "
    "files, or expert (pimc's expert rollouts, no judge in round 1).",
)
@plan_options
@integer_option(
    "--threads",
    Integer(min=1),
    1,
    help="Threads labelling shards side by side (results do not depend on it).",
)
@SCHEDULER
@QUIET
def train(out, threads, scheduler, quiet, **plan):
    """Rebuild the apprentice's weights (apprentice_{2,3,4,6}p.npz) from a seed.

    Per player count (2, 6, 3, then 4 players) round 1 labels decisions with pimc (top=4)
    rolling out --start's apprentice (version 8's by default), fits a network and a value
    output on them, and plays the new file against --start's (--judge-deals deals); each
    further round labels with the previous round's apprentice, refits on the labels of every
    round so far and plays the new file against the one before it. A player count whose new
    file does not win by more than its 95% interval keeps the file before and stops. The
    defaults, at seed 0, are bots version 9's recipe, the imitation files that version 10
    fine-tuned on self-play outcomes (scripts/finetune_outcomes.py; needs the optional extra
    train: pip install -e ".[train]" in a checkout). A stage done is marked in
    OUT/round_K/ and skipped when the command runs again; a labelling stage resumes from its
    last whole shard. The kept file of each count ends in OUT/weights/, with kept.json naming
    its round (docs/learned.md).
    """
    from ..learn.pipeline import TrainPlan, run_training

    _check_workers(threads, scheduler)
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise click.UsageError(str(missing_extra("training", "train", exc))) from None
    with api_errors():
        # --seed, --start and the options of PLAN_OPTIONS are the plan's fields, by name
        folder = run_training(
            out,
            TrainPlan(**plan),
            threads=threads,
            scheduler=scheduler,
            progress=not quiet,
            echo=click.echo,
        )
    click.echo(f"weights: {folder}")
