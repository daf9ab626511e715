"""The rules engine as kernels: the deal state, the start of a deal, meld checks and their
application, the moves of a turn and scoring (RULES.md). Nothing here decides anything: the
bots (:mod:`canasta_sim.nb.bots`) choose, these kernels check and apply."""
