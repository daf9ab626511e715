"""The bots as kernels: what a seat may read from the table, meld plans, pickups and
discards, the policies (random, greedy, careful, expert) and the table of policies the turn
dispatch and :data:`canasta_sim.players.specs.POLICIES` derive from. Every move goes through the
engine's checked move kernels (:mod:`canasta_sim.nb.engine.moves`)."""
