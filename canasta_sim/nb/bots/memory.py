"""The bots' working memory: one record of plans and tables a policy builds during a turn.

The deal state (:mod:`canasta_sim.nb.engine.state`) holds the game only; what a bot computes
on the way to its moves lives in a record of :data:`BOT_DTYPE`, passed to the turn kernels
after ``rules`` (``expert_turn_nb(state, rules, bot, params, log)``). Kernels cannot allocate
(no NRT), so the caller makes one record per thread and every turn reuses it. Every field is
written before it is read within a kernel call, so a record carries nothing from one turn,
deal or rollout to the next: results never depend on which record a turn gets. The fields
(``C`` = :data:`MAX_CANDIDATES`)::

    candidates  int8[C, N_KINDS, 3]   legal pickups or melds a bot chooses among
    take_plan   int8[N_KINDS, 3]      the pickup a bot builds (cards melded with the top card)
    meld_plan   int8[N_KINDS, 3]      the melds a bot builds for this turn
    out_plan    int8[N_KINDS, 3]      the melds that would go out (built by the test whether
                                      a bot can go out, melded by the policy that decides to)
    powers      float64[MAX_POWERS]   powers of one probability, for the bots' odds

Kernels pass the plan fields on as slices (``bot.meld_plan[:]``), typed as plain C arrays like
every other plan (:mod:`canasta_sim.nb.jit`).
"""

import numpy as np

from ..engine.state import MAX_CARDS
from ..enums import N_KINDS

#: Exponents 0 .. the wild cards in the largest pack (6 a deck): :data:`BOT_DTYPE`'s ``powers``.
MAX_POWERS = 6 * (MAX_CARDS // 54) + 1
#: Candidate pickups or melds a bot can hold at once.
MAX_CANDIDATES = 40

#: The bots' working record (see the module docstring).
BOT_DTYPE = np.dtype(
    [
        ("candidates", np.int8, (MAX_CANDIDATES, N_KINDS, 3)),
        ("take_plan", np.int8, (N_KINDS, 3)),
        ("meld_plan", np.int8, (N_KINDS, 3)),
        ("out_plan", np.int8, (N_KINDS, 3)),
        ("powers", np.float64, (MAX_POWERS,)),
    ],
    align=True,
)


def new_bots(n: int) -> np.ndarray:
    """``n`` zeroed bot records, ``ndarray(BOT_DTYPE, (n,))``: one per thread of a chunk or a
    rollout batch (``bots[b]`` is a record the kernels change in place)."""
    return np.zeros(n, BOT_DTYPE)


def new_bot():
    """One zeroed bot record (``numpy.void`` of :data:`BOT_DTYPE`) for Python callers."""
    return new_bots(1)[0]
