"""Training the ``apprentice`` (docs/learned.md): labelled decisions from pimc's rollouts
(:mod:`.shards`), the model fit (:mod:`.train`, :mod:`.network`) and the fine-tuning on
outcomes (:mod:`.finetune`), in the stages of :mod:`.pipeline`. Nothing here is imported when
a bot plays: the bot reads its weights from ``.npz`` files
(:mod:`canasta_sim.players.weights`)."""

from ..nb.engine.rng import SEED_SPAN
from ..players.specs import WEIGHT_FAMILIES

#: What round 1 of ``canasta-sim train`` rolls out (``--start``): an apprentice preset of
#: shipped weight files (``apprentice``: today's), or ``expert`` (pimc's expert rollouts, a
#: start from no learned file).
STARTS = ("apprentice", *WEIGHT_FAMILIES, "expert")

#: Rounds at most: each round labels as much as round 1 (about two hours on two cores at the
#: defaults), so 15 rounds are over a day of labelling.
MOST_ROUNDS = 15

#: The integers of ``canasta-sim train``'s plan (:class:`.plan.TrainPlan`) and the range of
#: each, least and most: every preset of a count's labels needs a shard, or its fit has no
#: rows of it; 0 rounds of imitation fine-tune the start's files, 0 rounds on outcomes keep a
#: count's imitation file; the most are bounds no run comes near but ``worlds`` (a decision's
#: search holds its worlds), ``every`` and ``rounds`` (:data:`MOST_ROUNDS`). The command's
#: options take these ranges and the plan (its ``plan.json`` too) checks them, so the help,
#: the options and the records agree.
PLAN_RANGES = {
    "seed": (0, SEED_SPAN - 1),
    "rounds": (0, MOST_ROUNDS),
    **{f"shards_{p}p": (2, 10**12) for p in (2, 3, 4, 6)},
    "stage_shards": (1, 10**12),
    "deals": (1, 10**12),
    "worlds": (1, 10_000),
    "every": (1, 1_000),
    "judge_deals": (6, 10**9),
    **{f"outcome_rounds_{p}p": (0, 10**6) for p in (2, 3, 4, 6)},
    **{f"outcome_deals_{p}p": (1, 10**9) for p in (2, 3, 4, 6)},
    "stage_rounds": (1, 10**6),
    "distil_deals": (1, 10**7),
    "distil_steps": (1, 10**7),
}

#: Each count's seed offset of ``canasta-sim train``'s fine-tuning on outcomes (the plan's
#: seed plus it, :mod:`.finetune`): at seed 0 the seeds bots version 10's files were
#: fine-tuned with (4 players first, 101).
TUNE_SEEDS = {2: 102, 3: 103, 4: 101, 6: 106}

#: Each count's seed offset of ``canasta-sim train``'s distillation (:mod:`.distil`): the
#: teacher's self-play deals and the batches' draw.
DISTIL_SEEDS = {2: 202, 3: 203, 4: 201, 6: 206}

#: The fine-tuning's opponents (``--outcome-pool``): ``self`` (the learner's weights of the
#: round), ``start`` (the count's file the fine-tuning starts from), or the shipped files of
#: an apprentice preset (the count's file of that family).
TUNE_POOL = ("self", "start", "apprentice", *WEIGHT_FAMILIES)

#: The least sampling temperature of the fine-tuning (``--outcome-temperature``, points):
#: its update divides the network's ``float32`` scores by the temperature
#: (:func:`.outcomes.policy_loss`), and at 1 point or more every finite score's logit
#: (``score / T``, no larger than the score) is finite; below 1, any score above ``T`` times
#: float32's largest number (3.4e38) is an infinite logit, and the softmax of it NaN (at 1e-37
#: the shipped files' scores of a few thousand points overflow). The self-play kernel's
#: ``exp((score - best) / T)`` is at most 1 at every temperature.
LEAST_TEMPERATURE = 1.0


def derived_seed(seed: int, offset: int) -> int:
    """The seed ``offset`` after the master ``seed``, wrapped round modulo 2**64: a stage's
    seed (:data:`TUNE_SEEDS`, the labels' and the judges' offsets) at every master seed, the
    plain sum ``seed + offset`` below ``2**64 - offset`` (at seed 0 the shipped files' seeds).
    """
    return (seed + offset) % SEED_SPAN
