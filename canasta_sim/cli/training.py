"""``canasta-sim train``: rebuild the apprentice's four weight files from a seed, in resumable
stages (labels with pimc's rollouts, then a network fitted on them, round after round; then
rounds of fine-tuning on the outcomes of self-play deals)."""

from __future__ import annotations

import click

from ..errors import missing_extra
from ..learn import (
    DISTIL_SEEDS,
    LEAST_TEMPERATURE,
    PLAN_RANGES,
    STARTS,
    TUNE_POOL,
    TUNE_SEEDS,
)
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

#: The plan's counts as options: name, default and help; the range of each is the plan's own
#: (:data:`canasta_sim.learn.PLAN_RANGES`). The defaults are bots version 10's recipe
#: (the imitation's, bots version 9's, then the fine-tuning on outcomes).
PLAN_OPTIONS = (
    (
        "rounds",
        1,
        "Rounds at most: round 1 labels with --start's rollouts, round k with round k-1's "
        "apprentice; each round fits on the labels of every round so far, and a player count "
        "stops when its new file does not beat the one before (1 round: the shipped files' "
        "recipe; 0: no labels, the fine-tuning starts from --start's files).",
    ),
    ("shards_2p", 600, "2-player shards a round (seed SEED + 7002)."),
    ("shards_3p", 400, "3-player shards a round (seed SEED + 7003)."),
    ("shards_4p", 1000, "4-player shards a round (seed SEED + 7001)."),
    ("shards_6p", 400, "6-player shards a round (seed SEED + 7006)."),
    (
        "stage_shards",
        500,
        "Shards a labelling stage makes at most: a player count with more is labelled in "
        "several stages of equal size (500 shards: 15 to 40 minutes on two cores).",
    ),
    ("deals", 20, "Deals per shard."),
    ("worlds", 32, "Sampled worlds per labelled decision."),
    ("every", 3, "Label about one decision in EVERY."),
    (
        "judge_deals",
        100_000,
        "Deals a round's new file plays against the one before it to be kept (seed SEED + 40).",
    ),
    *(
        (
            f"outcome_rounds_{p}p",
            rounds,
            f"Rounds of fine-tuning on outcomes of the kept {p}-player file (seed SEED + "
            f"{TUNE_SEEDS[p]}; 0: keep the imitation file, or with --distil-drop the "
            "distilled one).",
        )
        for p, rounds in ((2, 40), (3, 40), (4, 28), (6, 40))
    ),
    *(
        (f"outcome_deals_{p}p", deals, f"Deals a {p}-player round on outcomes plays.")
        for p, deals in ((2, 10_000), (3, 10_000), (4, 10_000), (6, 5_000))
    ),
    (
        "stage_rounds",
        20,
        "Rounds on outcomes a stage holds at most (20: under an hour at 4 players, about a "
        "quarter of an hour at 2, 3 and 6, on one core).",
    ),
    (
        "distil_deals",
        4000,
        "Self-play deals of the kept file a distillation (with --distil-drop) learns from "
        "(seed SEED + "
        f"{', '.join(str(DISTIL_SEEDS[p]) for p in (2, 3, 4, 6))} at 2, 3, 4, 6 players); "
        "a folder made without --distil-drop is resumed with any value.",
    ),
    (
        "distil_steps",
        3000,
        "Adam steps of a distillation (with --distil-drop; a folder made without it is "
        "resumed with any value).",
    ),
)


def _pool(ctx, param, value: str) -> tuple[str, ...]:
    """``--outcome-pool``'s and ``--distil-drop``'s names, in order (the plan checks each),
    read as bot names are (:func:`canasta_sim.players.specs.find_policy`, ``--start``): in any
    case, blanks around them ignored; an empty value none."""
    return tuple(name.strip().lower() for name in value.split(",")) if value.strip() else ()


#: The fine-tuning's other settings (:class:`canasta_sim.learn.finetune.TunePlan`); the plan
#: checks their ranges (finite, above 0 or at least 0), in the words of the other options.
TUNE_OPTIONS = (
    click.option(
        "--outcome-temperature",
        type=float,
        default=50.0,
        show_default=True,
        help=f"The learner's sampling temperature on outcomes (points, at least "
        f"{LEAST_TEMPERATURE:g}: the update divides float32 scores by it, and below "
        f"{LEAST_TEMPERATURE:g} a large score's logit overflows float32).",
    ),
    click.option(
        "--outcome-lr",
        type=float,
        default=3e-4,
        show_default=True,
        help="The policy's Adam learning rate on outcomes (above 0).",
    ),
    click.option(
        "--outcome-kl",
        type=float,
        default=0.1,
        show_default=True,
        help="Weight of the policy's KL divergence from the file its rounds start from (start "
        "in --outcome-pool; 0 or more).",
    ),
    click.option(
        "--outcome-pool",
        default="self,start",
        show_default=True,
        callback=_pool,
        help="The learner's opponents on outcomes, comma-separated, in any case and order (as "
        "bot names; they play in the order below): self (its weights of the round), start (the "
        "file its rounds start from: the kept imitation file, or with --distil-drop the "
        f"distilled one) or the shipped files of {', '.join(TUNE_POOL[2:])}; a name of the file "
        "an earlier one names is left out (a name given twice; apprentice@9 with --rounds 0 "
        "--start apprentice@9), and when the rounds begin a name of the network an earlier "
        "one plays (start and apprentice when --start apprentice's file is distilled or kept "
        "as it is; never self; the progress line says which). A round's --outcome-deals-Np "
        "deals split over the names kept, in shares equal give or take one.",
    ),
    click.option(
        "--distil-drop",
        default="",
        callback=_pool,
        help="Blocks of state features, comma-separated (kinds: the per-kind blocks; "
        "neighbours), that each count's kept file is distilled without before its rounds on "
        "outcomes, which keep them unread: a file that reads fewer plays faster (none by "
        "default; kinds: bots version 11's recipe).",
    ),
)


def plan_options(f):
    """The options of :data:`PLAN_OPTIONS`, then :data:`TUNE_OPTIONS`, in their order."""
    for decorate in reversed(TUNE_OPTIONS):
        f = decorate(f)
    for name, default, help in reversed(PLAN_OPTIONS):
        option = "--" + name.replace("_", "-")
        f = click.option(
            option,
            type=Integer(*PLAN_RANGES[name]),
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
    "full networks (apprentice@8 .. apprentice@11; apprentice's own files are head networks "
    "since bots version 12 and are refused), or expert (pimc's expert rollouts, no judge in "
    "round 1).",
)
@plan_options
@integer_option(
    "--threads",
    Integer(min=1),
    1,
    help="Threads labelling shards side by side, at most this machine's cores (with a remote "
    "--scheduler not checked here); results do not depend on it.",
)
@SCHEDULER
@QUIET
def train(out, threads, scheduler, quiet, **options):
    """Rebuild the apprentice's weights (apprentice_{2,3,4,6}p.npz) from a seed.

    Per player count (2, 6, 3, then 4 players) round 1 labels decisions with pimc (top=4)
    rolling out --start's apprentice (version 8's by default), fits a network and a value
    output on them, and plays the new file against --start's (--judge-deals deals); each
    further round labels with the previous round's apprentice, refits on the labels of every
    round so far and plays the new file against the one before it. A player count whose new
    file does not win by more than its 95% interval keeps the file before and stops. Then
    each count's kept file is fine-tuned on the outcomes of self-play deals
    (--outcome-rounds-Np rounds of --outcome-deals-Np deals, in stages of at most
    --stage-rounds rounds, into OUT/outcomes_Np/; with --distil-drop each kept file is first
    distilled into one that does not read the blocks named, into OUT/distil/, and the rounds
    on outcomes keep them unread); this part is one sequential learner on
    one core of this machine, even with --scheduler. The defaults, at seed 0, are bots
    version 10's recipe (about 2 h 20 min of imitation, bots version 9's files, then the
    fine-tuning). --rounds 0 fine-tunes --start's shipped files without labelling:
    --rounds 0 --start apprentice@9 rebuilds version 10's files from version 9's. Needs the
    optional extra train: pip install -e ".[train]" in a checkout. A stage done is marked
    and skipped when the command runs again; a labelling stage resumes from its last whole
    shard, a fine-tuning stage from its last whole round. The final file of each count ends
    in OUT/weights/, with kept.json naming its round of imitation and its stage and round on
    outcomes (docs/learned.md). A run holds OUT's lock (OUT/train.lock): a second run in
    OUT meanwhile stops at once.
    """
    from ..learn.pipeline import run_training
    from ..learn.plan import TrainPlan

    _check_workers(threads, scheduler, "--threads")
    with api_errors():
        # --seed, --start and the options of PLAN_OPTIONS and TUNE_OPTIONS are the plan's
        # fields, by name
        plan = TrainPlan(**options)
    _check_extras(plan)
    with api_errors():
        folder = run_training(
            out,
            plan,
            threads=threads,
            scheduler=scheduler,
            progress=not quiet,
            echo=click.echo,
        )
    click.echo(f"weights: {folder}")


def _check_extras(plan) -> None:
    """A usage error naming the extra ``train`` when the plan needs a library it lacks:
    scikit-learn for rounds of imitation, JAX and optax for a distillation or rounds on outcomes."""
    from ..learn.plan import COUNTS

    try:
        if plan.rounds:
            import sklearn  # noqa: F401
    except ImportError as exc:
        raise click.UsageError(str(missing_extra("training", "train", exc))) from None
    tuned = any(plan.outcome_rounds(p) for p in COUNTS)
    if plan.distil_drop or tuned:
        from ..learn.finetune import need_jax

        what = "fine-tuning on outcomes" if tuned else "a distillation"
        try:
            need_jax(what)
        except ImportError as exc:
            raise click.UsageError(str(exc)) from None
