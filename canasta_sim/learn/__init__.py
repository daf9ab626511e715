"""Training the ``apprentice`` (docs/learned.md): labelled decisions from pimc's rollouts
(:mod:`.shards`) and the model fit (:mod:`.train`). Nothing here is imported when a bot
plays: the bot reads its weights from ``.npz`` files (:mod:`canasta_sim.players.weights`)."""

from ..players.specs import WEIGHT_FAMILIES

#: What round 1 of ``canasta-sim train`` rolls out (``--start``): an apprentice preset of
#: shipped weight files (``apprentice``: today's), or ``expert`` (pimc's expert rollouts, a
#: start from no learned file).
STARTS = ("apprentice", *WEIGHT_FAMILIES, "expert")

#: The least value of each count of ``canasta-sim train``'s plan (:class:`.pipeline.TrainPlan`):
#: every preset of a count's labels needs a shard, or its fit has no rows of it. The command's
#: option ranges read it too, so its help and the check agree.
PLAN_LEAST = {
    "rounds": 1,
    "shards_2p": 2,
    "shards_3p": 2,
    "shards_4p": 2,
    "shards_6p": 2,
    "stage_shards": 1,
    "deals": 1,
    "worlds": 1,
    "every": 1,
    "judge_deals": 6,
}

#: Rounds at most: each round labels as much as round 1 (about two hours on two cores at the
#: defaults), so 15 rounds are over a day of labelling.
MOST_ROUNDS = 15
