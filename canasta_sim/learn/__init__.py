"""Training the ``apprentice`` (docs/learned.md): labelled decisions from pimc's rollouts
(:mod:`.shards`) and the model fit (:mod:`.train`). Nothing here is imported when a bot
plays: the bot reads its weights from ``.npz`` files (:mod:`canasta_sim.players.weights`)."""

#: The least value of each count of ``canasta-sim train``'s plan (:class:`.pipeline.TrainPlan`):
#: every (player count, preset) of a labelling stage needs a shard, or its player count has no
#: fit. The command's option ranges read it too, so its help and the check agree.
PLAN_LEAST = {"rounds": 1, "shards": 2, "shards_other": 6, "deals": 1, "worlds": 1, "every": 1}
