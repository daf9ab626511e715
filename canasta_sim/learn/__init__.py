"""Training the ``apprentice`` (docs/learned.md): labelled decisions from pimc's rollouts
(:mod:`.shards`) and the model fit (:mod:`.train`). Nothing here is imported when a bot
plays: the bot reads its weights from ``.npz`` files (:mod:`canasta_sim.players.weights`)."""

#: The least value of each count of ``canasta-sim train``'s plan (:class:`.pipeline.TrainPlan`):
#: every (player count, preset) of a labelling stage needs a shard, or its player count has no
#: fit. The command's option ranges read it too, so its help and the check agree.
PLAN_LEAST = {
    "rounds": 1,
    "shards": 2,
    "shards_other": 6,
    "shards_own": 2,
    "shards_knobs": 2,
    "deals": 1,
    "worlds": 1,
    "every": 1,
    "judge_deals": 6,
}

#: Rounds at most: round ``k``'s seeds ``seed + 2 (k - 1)`` and ``seed + 2 (k - 1) + 1`` stay
#: below the seeds of round 1's per-count plans (``seed + 30`` on, :data:`.pipeline.OWN_PLANS`).
MOST_ROUNDS = 15
