"""The candidates of the search bot's decisions and the work arrays that hold them.

The search bot (:mod:`.pimc`) rolls these candidates out and the learned bot
(:mod:`.apprentice`) scores them: at the draw decision the draw and every legal pickup
(R-20, R-30..R-35); at the play decision the expert's melds of the turn or holding them, each
followed by the top discards the expert ranks, and its going out (R-20 steps 2 and 3, R-40).
Apart from :mod:`.pimc` so that the search bot can play the learned bot in its rollouts.

The candidates' kernels but :func:`discard_candidates_nb` (called twice by
:func:`play_candidates_nb`) are inlined: thin kernels with one call site in each kernel that
calls them, which as kernels of their own were each one more level of linked code that LLVM
optimises and compiles to machine code again (:mod:`..jit`; about 2 CPU s of a cold start
with the default bots, docs/performance.md).
"""

import numpy as np

from ..engine.melds import copy_plan_nb, empty_plan_nb, plan_rows_nb
from ..engine.state import MAX_CARDS, MAX_PLAYERS, STATE_DTYPE, copy_state_nb
from ..enums import N_KINDS, DealSlot, MoveError, Phase, RuleSlot
from ..jit import inline_kernel, kernel
from ..plans import clear_plan_nb
from ..worlds import CandKind
from .discards import ranked_discards_nb
from .expert import PAIR_KEEP, ExpertMeld, expert_meld_nb, expert_meld_plan_nb, param_nb
from .memory import MAX_CANDIDATES
from .pickups import pickup_candidates_nb
from .policies import EXPERT_PARAMS, N_PARAMS, ExpertParam

N_EXPERT = len(EXPERT_PARAMS)  # the rollout expert's parameters, after PimcParam.expert

#: The search bot's work arrays (one record per thread).
WORK_DTYPE = np.dtype(
    [
        ("rparams", np.float64, (N_PARAMS,)),  # the rollout expert's parameters
        ("aparams", np.float64, (N_PARAMS,)),  # the rollout apprentice's (pimc.rollout_turn_nb)
        ("hands", np.int8, (MAX_PLAYERS, N_KINDS)),  # one world's hands
        ("base", np.int8, (MAX_PLAYERS, N_KINDS)),  # cards known in each hand
        ("stock", np.int8, (MAX_CARDS,)),  # one world's stock, top first
        ("pool0", np.int8, (MAX_CARDS,)),
        ("pool", np.int8, (MAX_CARDS,)),
        ("places", np.int64, (MAX_CARDS,)),
        ("slots", np.int64, (MAX_PLAYERS,)),
        ("unseen", np.int64, (N_KINDS,)),
        ("rng", np.uint64, (1,)),
        ("plans", np.int8, (MAX_CANDIDATES, N_KINDS, 3)),  # candidates' pickup plans
        ("kind", np.int64, (MAX_CANDIDATES,)),  # CandKind
        ("discard", np.int64, (MAX_CANDIDATES,)),  # kind discarded (CandKind.play)
        ("total", np.float64, (MAX_CANDIDATES,)),  # summed score differences
        ("sq", np.float64, (MAX_CANDIDATES,)),  # summed squares of the paired difference to 0
        ("ok", np.int64, (MAX_CANDIDATES,)),  # 1 while every rollout's first move was legal
        ("ranked", np.int64, (N_KINDS,)),  # discard kinds in the expert's order
        ("dvals", np.float64, (N_KINDS,)),  # their discard scores (scratch)
    ]
)


def search_work(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` rollout states (``ndarray(STATE_DTYPE, (n,))``) and work records
    (``ndarray(WORK_DTYPE, (n,))``), one of each per thread that plays the search bot;
    ``n`` = 0 for a run without one (the kernels then never touch them)."""
    return np.zeros(n, STATE_DTYPE), np.zeros(n, WORK_DTYPE)


@kernel
def discard_candidates_nb(state, rules, bot, rparams, plan, work, n, top):
    """Write candidates ``n, n + 1, ...`` of ``work``: the meld plan ``plan``
    (``int8[N_KINDS, 3]``, already laid in ``state``; empty for none), then each of the ``top``
    kinds the rollout expert's discard heuristic ranks first for the current player (its
    choice, then its choice without that kind, and so on; R-20 step 3). Stops at
    ``MAX_CANDIDATES``; returns the number of candidates written so far."""
    plans = work.plans[:]  # a plain C array, as in search_nb
    ranked = work.ranked[:]
    m = expert_ranking_nb(state, rules, bot, rparams, min(top, MAX_CANDIDATES - n), work)
    for i in range(m):
        work.kind[n] = CandKind.play
        work.discard[n] = ranked[i]
        copy_plan_nb(plans[n], plan)
        n += 1
    return n


@inline_kernel
def expert_ranking_nb(state, rules, bot, rparams, top, work):
    """Write the first ``top`` kinds the rollout expert (parameters ``rparams``) ranks for the
    current player's discard into ``work.ranked`` (:func:`.discards.ranked_discards_nb` with
    its knobs, ``work.dvals`` the scratch; R-20 step 3) and return how many."""
    return ranked_discards_nb(
        state,
        rules,
        bot,
        state.g[DealSlot.current],
        param_nb(rparams, ExpertParam.safety),
        int(param_nb(rparams, ExpertParam.block_at)),
        param_nb(rparams, ExpertParam.freeze_risk),
        np.int64(0),
        PAIR_KEEP,
        top,
        work.ranked[:],
        work.dvals[:],
    )


@inline_kernel
def expert_plan_nb(state, rules, bot, rparams, rstate, plan, log):
    """Write the rollout expert's melds of the turn (:func:`.expert.expert_meld_plan_nb`,
    going out included) into ``plan`` (``int8[N_KINDS, 3]``: one plan, as the expert melds
    once a turn), built from the counts of ``state`` without a move; only when it holds cards
    is it laid on ``rstate``, a copy of ``state``, by the move kernel that checks it (the
    discards after it are ranked there). The expert reads only its own hand and the public
    cards, so the copy's hidden cards are never read. Returns whether a checked plan holds
    cards (cleared otherwise)."""
    which = expert_meld_plan_nb(state, rules, bot, rparams)
    clear_plan_nb(plan)
    if which == ExpertMeld.none:  # most turns: no copy, no move
        return False
    copy_state_nb(rstate, state)  # one memcpy; the expert draws no random number
    if expert_meld_nb(rstate, rules, bot, which, log) != MoveError.ok:
        return False
    copy_plan_nb(plan, bot.out_plan[:] if which == ExpertMeld.out else bot.meld_plan[:])
    return plan_rows_nb(plan, np.int64(-1)) != 0


@inline_kernel
def play_candidates_nb(state, rules, bot, rparams, rstate, work, top, log):
    """Write the play phase's candidates into ``work`` and return their number (R-20 steps 2
    and 3): the rollout expert's melds of the turn (laid on ``rstate``, a copy) followed by
    each of the ``top`` discards it ranks first after them (or its going out, R-40: one
    candidate), then holding every meld (always legal, R-64) followed by the ``top`` discards
    ranked without melding. The expert's own choice is candidate 0."""
    plans = work.plans[:]  # plain C arrays, as in search_nb
    n = 0
    if expert_plan_nb(state, rules, bot, rparams, rstate, plans[0], log):
        if rstate.g[DealSlot.phase] != Phase.play:  # its melds went out without a discard
            work.kind[0] = CandKind.play
            work.discard[0] = -1
            n = 1
        else:  # ranked on the copy, where the melds are laid
            n = discard_candidates_nb(rstate, rules, bot, rparams, plans[0], work, np.int64(0), top)
    return discard_candidates_nb(state, rules, bot, rparams, empty_plan_nb(), work, n, top)


@inline_kernel
def draw_candidates_nb(state, rules, work):
    """Write the draw decision's candidates into ``work`` (every legal way to take the pile,
    R-30..R-35, then the draw, R-20) and return their number; 0 when there is no choice (no
    legal pickup, or an empty stock, R-44)."""
    g = state.g
    n = pickup_candidates_nb(state, rules, g[DealSlot.current], work.plans[:])
    if n == 0 or g[DealSlot.stock_pos] >= rules[RuleSlot.n_cards]:
        return 0
    for c in range(n):
        work.kind[c] = CandKind.take
        work.discard[c] = -1
    work.kind[n] = CandKind.draw
    work.discard[n] = -1
    plans = work.plans[:]  # the draw's plan is empty: the learned bot's features read it
    for r in range(N_KINDS):
        for col in range(3):
            plans[n, r, col] = 0
    return n + 1
