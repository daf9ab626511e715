"""Training the ``apprentice`` (docs/learned.md): labelled decisions from pimc's rollouts
(:mod:`.shards`) and the model fit (:mod:`.train`). Nothing here is imported when a bot
plays: the bot reads its weights from ``.npz`` files (:mod:`canasta_sim.players.weights`)."""
