"""The search bot ``pimc``: perfect-information Monte Carlo with policy rollouts.

At its two decisions of a turn (draw or take the pile, R-20 and R-30..R-35; which kind to
discard, R-20 step 3) the bot samples ``worlds`` deals it cannot tell apart from the real one
(its own hand, the public cards and the cards known to be in other hands fixed; the unseen
cards shuffled into the other hands' unknown places and the stock, exactly as
:func:`canasta_sim.nb.rollout.worlds_nb` does), plays every kept candidate to the end of the
deal in each world with the rollout expert in every seat, and makes the move with the best
mean score difference (own side's deal score minus the mean of the other sides', points).
Melding, going out and R-45's end are the rollout expert's; with ``melds`` 1 the play phase
is one decision instead (:func:`meld_search_nb`): the rollout expert's melds of the turn (or
its going out) and holding them, each followed by the top discards ranked after it.

The worlds' seeds come from the deal's random stream (``state.rng``), whose position depends
only on the deal seed and the moves made, not on where the hidden cards lie; with
``see_hidden`` 0 the bot reads no hidden card (the other hands' unknown cards and the stock
are overwritten in every rollout). With ``see_hidden`` 1 it rolls out the true cards instead:
a cheating bot, for measurement only.

The kernels do not allocate: the rollout state and the work arrays (:data:`WORK_DTYPE`) are
passed in by the caller, one of each per thread, with the bots' working record
(:data:`.memory.BOT_DTYPE`), which the search bot's own decisions and the rollout expert in its
rollouts share (every field is written before it is read).
"""

import numpy as np

from ..engine.deal import pack_count_nb
from ..engine.melds import empty_plan_nb, plan_rows_nb
from ..engine.moves import discard_nb, draw_nb, take_pile_nb
from ..engine.rng import mix64_nb, next_u64_nb
from ..engine.score import side_score_nb
from ..engine.state import MAX_CARDS, MAX_PLAYERS, STATE_DTYPE, copy_state_nb
from ..enums import (
    N_KINDS,
    RED_THREE,
    STRATA_OFF,
    CandKind,
    DealSlot,
    MoveError,
    Phase,
    RuleSlot,
    ScorePart,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..worlds import apply_candidate_nb, load_world_nb, unseen_pool_nb, world_nb
from .discards import discard_safe_nb, ranked_discards_nb
from .expert import PAIR_KEEP, expert_discard_nb, expert_melds_nb, expert_turn_nb, param_nb
from .memory import MAX_CANDIDATES
from .pickups import pickup_candidates_nb, take_forced_pile_nb
from .policies import EXPERT_PARAMS, N_PARAMS, ExpertParam, PimcParam

N_EXPERT = len(EXPERT_PARAMS)  # the rollout expert's parameters, after PimcParam.expert

#: The search bot's work arrays (one record per thread).
WORK_DTYPE = np.dtype(
    [
        ("rparams", np.float64, (N_PARAMS,)),  # the rollout expert's parameters
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


@inline_kernel
def score_diff_nb(state, rules, side):
    """Own side's deal score minus the mean of the other sides' (points)."""
    n_sides = rules[RuleSlot.sides]
    own = 0.0
    others = 0.0
    for s in range(n_sides):
        v = side_score_nb(state, rules, s)[ScorePart.total]
        if s == side:
            own = v
        else:
            others += v
    return own - others / max(n_sides - 1, 1)


@kernel
def search_nb(state, rules, bot, params, rstate, work, n_cands, log):
    """Roll out candidates ``0 .. n_cands - 1`` of ``work`` in the same worlds and return the
    best one's index (ties: the lower index, the rollout bot's own choice comes first)."""
    g = state.g
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    players = rules[RuleSlot.players]
    n_worlds = int(params[PimcParam.worlds])
    see = params[PimcParam.see_hidden] != 0.0
    # slices: numba types a record's array field as a nested array and a slice of it as a
    # plain C array, the type the other callers pass, so the callees compile only once
    rparams = work.rparams[:]
    plans = work.plans[:]
    rng = work.rng[:]
    s = rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]
    pos = g[DealSlot.stock_pos]
    hands = work.hands[:players]
    stock = work.stock[:s]
    slots = work.slots[:players]
    base = work.base[:players]
    m0 = 0
    if see:
        for p in range(players):
            for k in range(N_KINDS):
                hands[p, k] = state.hands[p, k]
        for j in range(s):
            stock[j] = state.stock[pos + j]
    else:
        # the unseen cards: the pack less own hand, the known cards, pile, melds, red threes
        unseen = work.unseen
        for k in range(N_KINDS):
            unseen[k] = (
                pack_count_nb(rules[RuleSlot.n_cards], k)
                - state.hands[seat, k]
                - state.pile_counts[k]
                - state.melded[k]
            )
        for p in range(players):
            n_known = 0
            for k in range(N_KINDS):
                if p == seat:
                    base[p, k] = state.hands[p, k]
                else:
                    base[p, k] = state.known[p, k]
                    unseen[k] -= state.known[p, k]
                    n_known += state.known[p, k]
            slots[p] = 0 if p == seat else state.hand_sizes[p] - n_known
        for sd in range(rules[RuleSlot.sides]):
            unseen[RED_THREE] -= (
                state.sides[sd, SideSlot.r3_dealt]
                + state.sides[sd, SideSlot.r3_drawn]
                + state.sides[sd, SideSlot.r3_pile]
            )
        m0 = unseen_pool_nb(unseen, work.pool0)
    for c in range(n_cands):
        work.total[c] = 0.0
        work.ok[c] = 1
    base_seed = next_u64_nb(state.rng)  # the worlds' seeds: the deal's stream, not the cards
    rg = rstate.g
    for w in range(n_worlds):
        seed = mix64_nb(base_seed + np.uint64(w))
        if not see:
            rng[0] = seed
            world_nb(
                work.pool0,
                m0,
                work.unseen[RED_THREE],
                slots,
                base,
                np.int64(STRATA_OFF),
                rng,
                work.pool,
                work.places,
                hands,
                stock,
            )
        for c in range(n_cands):
            if work.ok[c] == 0:
                continue
            # a pickup leaves the stock's top cards to the next players (as in
            # rollout_block_nb); the true stock is played as it lies
            shift = rules[RuleSlot.draw_count] if work.kind[c] == CandKind.take and not see else 0
            load_world_nb(rstate, state, rules, hands, stock, seed, shift)
            err = apply_candidate_nb(rstate, rules, work.kind[c], plans[c], work.discard[c], log)
            if err != MoveError.ok:
                work.ok[c] = 0
                continue
            while rg[DealSlot.phase] != Phase.over:
                expert_turn_nb(rstate, rules, bot, rparams, log)
            work.total[c] += score_diff_nb(rstate, rules, side)
    best = -1
    for c in range(n_cands):
        if work.ok[c] != 0 and (best < 0 or work.total[c] > work.total[best]):
            best = c
    return best


@kernel
def discard_candidates_nb(state, rules, bot, rparams, plan, work, n, top):
    """Write candidates ``n, n + 1, ...`` of ``work``: the meld plan ``plan``
    (``int8[N_KINDS, 3]``, already laid in ``state``; empty for none), then each of the ``top``
    kinds the rollout expert's discard heuristic ranks first for the current player (its
    choice, then its choice without that kind, and so on; R-20 step 3). Stops at
    ``MAX_CANDIDATES``; returns the number of candidates written so far."""
    seat = state.g[DealSlot.current]
    plans = work.plans[:]  # a plain C array, as in search_nb
    ranked = work.ranked[:]
    m = ranked_discards_nb(
        state,
        rules,
        bot,
        seat,
        param_nb(rparams, ExpertParam.safety),
        int(param_nb(rparams, ExpertParam.block_at)),
        param_nb(rparams, ExpertParam.freeze_risk),
        np.int64(0),
        PAIR_KEEP,
        min(top, MAX_CANDIDATES - n),
        ranked,
        work.dvals[:],
    )
    for i in range(m):
        work.kind[n] = CandKind.play
        work.discard[n] = ranked[i]
        for r in range(N_KINDS):  # element by element: the kernels run without NRT
            for col in range(3):
                plans[n, r, col] = plan[r, col]
        n += 1
    return n


@kernel
def expert_plan_nb(state, rules, bot, rparams, rstate, plan, log):
    """Lay the rollout expert's melds of the turn (:func:`.expert.expert_melds_nb`, going out
    included) on ``rstate``, a copy of ``state``, and write them into ``plan``
    (``int8[N_KINDS, 3]``, the side's melds gained: one plan, as the expert melds once a turn).
    The expert reads only its own hand and the public cards, so the copy's hidden cards are
    never read. Returns whether the plan holds cards."""
    side = rules[RuleSlot.side_of + state.g[DealSlot.current]]
    copy_state_nb(rstate, state)  # one memcpy; the expert draws no random number
    expert_melds_nb(rstate, rules, bot, rparams, log)
    for r in range(N_KINDS):
        for col in range(3):
            plan[r, col] = rstate.melds[side, r, col] - state.melds[side, r, col]
    return plan_rows_nb(plan, np.int64(-1)) != 0


@kernel
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
            n = discard_candidates_nb(rstate, rules, bot, rparams, plans[0], work, 0, top)
    return discard_candidates_nb(state, rules, bot, rparams, empty_plan_nb(), work, n, top)


@kernel
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
    return n + 1


@kernel
def meld_search_nb(state, rules, bot, params, rstate, work, log):
    """The play phase with ``melds`` 1 (R-20 steps 2 and 3): roll out the candidates of
    :func:`play_candidates_nb` in the same worlds and make the best one. The expert's
    candidates come first, so ties keep its choice. Without a candidate legal in every world
    the rollout expert plays the phase; R-45's end is :func:`pimc_turn_nb`'s."""
    rparams = work.rparams[:]  # plain C arrays, as in search_nb
    plans = work.plans[:]
    n = play_candidates_nb(
        state, rules, bot, rparams, rstate, work, int(params[PimcParam.top]), log
    )
    best = 0
    if n > 1:
        best = search_nb(state, rules, bot, params, rstate, work, n, log)
    if n > 0 and best >= 0:
        kind, plan, discard = work.kind[best], plans[best], work.discard[best]
        if apply_candidate_nb(state, rules, kind, plan, discard, log) == MoveError.ok:
            return
    else:
        expert_melds_nb(state, rules, bot, rparams, log)
    if state.g[DealSlot.phase] == Phase.play:  # a failed candidate or the expert's melds
        expert_discard_nb(state, rules, bot, rparams, log)


@kernel
def pimc_turn_nb(state, rules, bot, params, rstate, work, log):
    """One whole turn of the search bot with parameters ``params`` (``float64[N_PARAMS]``,
    slots :data:`~.policies.PimcParam`), using the rollout state ``rstate`` (a record of
    ``STATE_DTYPE``), the work record ``work`` (:data:`WORK_DTYPE`) and the bots' working record
    ``bot`` (:data:`.memory.BOT_DTYPE`)."""
    g = state.g
    rparams = work.rparams[:]  # plain C arrays, as in search_nb
    plans = work.plans[:]
    for i in range(N_EXPERT):
        rparams[i] = params[PimcParam.expert + i]
    top = int(params[PimcParam.top])
    if g[DealSlot.phase] == Phase.draw:
        n = draw_candidates_nb(state, rules, work)
        if n == 0:
            if draw_nb(state, rules, log) != MoveError.ok:
                take_forced_pile_nb(state, rules, bot, log)
        else:
            best = search_nb(state, rules, bot, params, rstate, work, n, log)
            if best < 0 or work.kind[best] == CandKind.draw:
                draw_nb(state, rules, log)
            elif take_pile_nb(state, rules, plans[best], log) != MoveError.ok:
                draw_nb(state, rules, log)
    if (
        g[DealSlot.phase] == Phase.play
        and params[PimcParam.melds] != 0.0
        and g[DealSlot.last_red_three] == 0
    ):
        meld_search_nb(state, rules, bot, params, rstate, work, log)
        return
    if g[DealSlot.phase] == Phase.play:
        expert_melds_nb(state, rules, bot, rparams, log)
    if g[DealSlot.phase] == Phase.play:
        if g[DealSlot.last_red_three] != 0:
            discard_safe_nb(state, rules, bot, log, 0.0, np.int64(0), 0.0, np.int64(0), PAIR_KEEP)
            return
        n = discard_candidates_nb(state, rules, bot, rparams, empty_plan_nb(), work, 0, top)
        best = 0
        if n > 1:
            best = search_nb(state, rules, bot, params, rstate, work, n, log)
        if (
            n == 0
            or best < 0
            or discard_nb(state, rules, np.int64(work.discard[best]), log) != MoveError.ok
        ):
            expert_discard_nb(state, rules, bot, rparams, log)
