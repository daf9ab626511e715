"""``canasta-sim train``: rebuild the apprentice's four weight files from a seed, in resumable
stages (labels with pimc's rollouts, then a network fitted on them, round after round)."""

from __future__ import annotations

import click

from ..errors import missing_extra
from ..learn import MOST_ROUNDS, PLAN_LEAST
from .options import (
    SCHEDULER,
    SEED,
    Folder,
    Integer,
    _check_workers,
    api_errors,
    integer_option,
)

#: The plan's counts as options: name, most, default and help; the least value of each is the
#: plan's own (:data:`canasta_sim.learn.PLAN_LEAST`).
PLAN_OPTIONS = (
    (
        "rounds",
        MOST_ROUNDS,
        3,
        "Rounds at most: round 1 labels with the expert's rollouts, round k with round k-1's "
        "apprentice; each round fits on the labels of every round so far, and a player count "
        "stops when its new file does not beat the last one (3 rounds: the shipped files' "
        "recipe).",
    ),
    ("shards", 10**12, 500, "4-player shards a round."),
    ("shards_other", 10**12, 180, "Shards a round of 2, 3 and 6 players (in turn)."),
    (
        "shards_own",
        10**12,
        244,
        "Round 1's shards per player count from that count's own expert (pimc:top=4).",
    ),
    (
        "shards_knobs",
        10**12,
        160,
        "Round 1's 3-player shards from the expert at the 4-player knobs (pimc:top=4).",
    ),
    ("deals", 10**12, 20, "Deals per shard."),
    ("worlds", 10_000, 32, "Sampled worlds per labelled decision."),
    ("every", 1_000, 3, "Label about one decision in EVERY."),
    (
        "judge_deals",
        10**9,
        100_000,
        "Deals a round's new file plays against the last one to be kept (seed SEED + 40).",
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
@click.option("--seed", type=SEED, default=1, show_default=True, help="Master seed.")
@plan_options
@integer_option(
    "--threads",
    Integer(min=1),
    1,
    help="Threads labelling shards side by side (results do not depend on it).",
)
@SCHEDULER
@click.option("--quiet", is_flag=True, help="No progress bar.")
def train(out, threads, scheduler, quiet, **plan):
    """Rebuild the apprentice's weights (apprentice_{2,3,4,6}p.npz) from a seed.

    Round 1 labels decisions with pimc's paired rollouts of the expert: 2-, 3- and 6-player
    ones, then per player count the deals of that count's own expert, 4 players last, and
    fits a network per player count; each further round labels with the previous round's
    apprentice as rollout bot, refits, and plays each new file against the one before it
    (--judge-deals deals): a player count whose new file does not win by more than its 95%
    interval keeps the file before and stops. The default, at most 3 rounds at seed 1, is
    the shipped files' recipe (needs the optional extra train: pip install -e ".[train]" in
    a checkout). A stage done is marked in OUT/round_K/ and skipped when the command runs
    again; a labelling stage resumes from its last whole shard. The kept file of each count
    ends in OUT/weights/, with kept.json naming its round (docs/learned.md).
    """
    from ..learn.pipeline import TrainPlan, run_training

    _check_workers(threads, scheduler)
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise click.UsageError(str(missing_extra("training", "train", exc))) from None
    with api_errors():
        # --seed and the options of PLAN_OPTIONS are the plan's fields, by name
        folder = run_training(
            out,
            TrainPlan(**plan),
            threads=threads,
            scheduler=scheduler,
            progress=not quiet,
            echo=click.echo,
        )
    click.echo(f"weights: {folder}")
