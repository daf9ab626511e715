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
its going out) and holding them, each followed by the top discards ranked after it. With
``rollout`` the learned bot's code (``pimc:rollout=apprentice``) the rollouts play the
apprentice in every seat instead (:func:`rollout_turn_nb`), its candidates made by the
rollout expert's parameters; the search bot's own melds stay the rollout expert's.

The worlds' seeds come from the deal's random stream (``state.rng``), whose position depends
only on the deal seed and the moves made, not on where the hidden cards lie; with
``see_hidden`` 0 the bot reads no hidden card (the other hands' unknown cards and the stock
are overwritten in every rollout). With ``see_hidden`` 1 it rolls out the true cards instead:
a cheating bot, for measurement only.

The kernels do not allocate: the rollout state and the work arrays
(:data:`~.search_candidates.WORK_DTYPE`) are passed in by the caller, one of each per thread,
with the bots' working record (:data:`.memory.BOT_DTYPE`), which the search bot's own
decisions and the rollout expert in its rollouts share (every field is written before it is read).
"""

import numpy as np

from ..engine.deal import pack_count_nb
from ..engine.melds import empty_plan_nb
from ..engine.moves import discard_nb, draw_nb, meld_last_card_nb, take_pile_nb
from ..engine.rng import mix64_nb, next_u64_nb
from ..engine.score import side_score_nb
from ..enums import N_KINDS, RED_THREE, DealSlot, MoveError, Phase, RuleSlot, ScorePart, SideSlot
from ..jit import inline_kernel, kernel
from ..worlds import (
    STRATA_OFF,
    CandKind,
    apply_candidate_nb,
    load_world_nb,
    unseen_pool_nb,
    world_nb,
)
from .apprentice import NetSlot, apprentice_turn_nb, decision_features_nb, score_candidates_nb
from .discards import discard_safe_nb
from .expert import PAIR_KEEP, expert_discard_nb, expert_melds_nb, expert_turn_nb
from .pickups import take_forced_pile_nb
from .policies import APPRENTICE_PARAMS, ApprenticeParam, PimcParam, PolicyCode
from .search_candidates import (
    N_EXPERT,
    discard_candidates_nb,
    draw_candidates_nb,
    play_candidates_nb,
)

#: The rollout apprentice's discards kept after each meld choice: its own default, an ``int``
#: as the ``top`` it replaces (a ``float`` typed ``play_candidates_nb`` a second time).
ROLLOUT_TOP = int(APPRENTICE_PARAMS[ApprenticeParam.top].default)


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


@inline_kernel
def rollout_turn_nb(rstate, rules, bot, params, rparams, learner, log):
    """One turn of the rollout bot in a rollout: the expert with parameters ``rparams``, or
    with ``params[PimcParam.rollout]`` the apprentice, whose candidates come from the expert
    with ``rparams`` (its ``expert.NAME``), with its default ``top``, temperature 0 and
    weight set ``params[PimcParam.weight_set]``. ``learner`` is the apprentice's scratch, a
    tuple (rollout state, a record of ``STATE_DTYPE``; work record,
    :data:`.search_candidates.WORK_DTYPE`; weight sets,
    ``float32[n_sets, NET_LEN]``; feature work record,
    :data:`.features.FEATURE_WORK_DTYPE`), distinct from the search's own."""
    if params[PimcParam.rollout] != PolicyCode.apprentice:
        expert_turn_nb(rstate, rules, bot, rparams, log)
        return
    astate, awork, weights, fwork = learner
    aparams = awork.aparams[:]  # a plain C array, as in search_nb
    aparams[ApprenticeParam.weight_set] = params[PimcParam.weight_set]
    aparams[ApprenticeParam.temperature] = 0.0
    aparams[ApprenticeParam.top] = ROLLOUT_TOP
    for i in range(N_EXPERT):
        aparams[ApprenticeParam.expert + i] = rparams[i]
    seat = rstate.g[DealSlot.current]
    apprentice_turn_nb(rstate, rules, bot, aparams, weights, astate, awork, fwork, log)
    if rstate.g[DealSlot.phase] == Phase.play and rstate.g[DealSlot.current] == seat:
        meld_last_card_nb(rstate, rules, log)  # as search_turn_nb does after the apprentice


@kernel
def search_nb(state, rules, bot, params, rstate, work, learner, n_cands, log):
    """Roll out candidates ``0 .. n_cands - 1`` of ``work`` in the same worlds and return the
    best one's index (ties: the lower index, the rollout bot's own choice comes first).
    The rollout bot is ``params[PimcParam.rollout]``: the expert with ``work.rparams``, or
    the apprentice (:func:`rollout_turn_nb`, its scratch and weight sets in ``learner``)."""
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
        work.sq[c] = 0.0
        work.ok[c] = 1
    v0 = 0.0  # candidate 0's score difference in the current world
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
                rollout_turn_nb(rstate, rules, bot, params, rparams, learner, log)
            v = score_diff_nb(rstate, rules, side)
            work.total[c] += v
            if c == 0:
                v0 = v
            else:
                work.sq[c] += (v - v0) * (v - v0)
    return pick_best_nb(params, work, n_cands, n_worlds)


@inline_kernel
def pick_best_nb(params, work, n_cands, n_worlds):
    """The candidate to play after the rollouts: the best mean score difference (ties: the
    lower index), or with a margin (``params[PimcParam.margin]`` points,
    ``params[PimcParam.margin_z]`` standard errors) candidate 0, the prior's first choice,
    unless another one's mean, paired with it over the same worlds, beats it by more than
    both; then the best mean among those that do. Without candidate 0 (illegal in some
    world) the best mean."""
    margin = params[PimcParam.margin]
    z = params[PimcParam.margin_z]
    best = -1
    if work.ok[0] != 0:
        best = 0
        for c in range(1, n_cands):
            if work.ok[c] == 0 or work.total[c] <= work.total[best]:
                continue
            d = (work.total[c] - work.total[0]) / n_worlds
            # the sample variance of the per-world differences (n_worlds - 1 degrees)
            var = max(work.sq[c] - n_worlds * d * d, 0.0) / max(n_worlds - 1, 1)
            if d > margin and d > z * np.sqrt(var / n_worlds):
                best = c
        return best
    for c in range(1, n_cands):
        if work.ok[c] != 0 and (best < 0 or work.total[c] > work.total[best]):
            best = c
    return best


@kernel
def prior_order_nb(state, rules, params, work, learner, n):
    """Score candidates ``0 .. n - 1`` of ``work`` with the rollout apprentice (its weight set
    ``params[PimcParam.weight_set]``, the feature work of ``learner``), move the
    ``params[PimcParam.prior_top]`` best-scored to the front, best first (ties: the lower
    index, as the apprentice picks), the others after them in their order, and return how
    many are kept."""
    fwork, weights = learner[3], learner[2]
    net = weights[int(params[PimcParam.weight_set])]
    decision_features_nb(state, rules, work, fwork, n, np.int64(net[NetSlot.skips]))
    score_candidates_nb(net, fwork, n)
    scores = fwork.scores
    plans = work.plans[:]  # a plain C array, as in search_nb
    keep = min(n, int(params[PimcParam.prior_top]))
    for i in range(keep):
        best = i
        for c in range(i + 1, n):
            if scores[c] > scores[best]:
                best = c
        for c in range(best, i, -1):  # a rotation, not a swap: the rest keep their order
            scores[c], scores[c - 1] = scores[c - 1], scores[c]
            work.kind[c], work.kind[c - 1] = work.kind[c - 1], work.kind[c]
            work.discard[c], work.discard[c - 1] = work.discard[c - 1], work.discard[c]
            for r in range(N_KINDS):
                for col in range(3):
                    plans[c, r, col], plans[c - 1, r, col] = plans[c - 1, r, col], plans[c, r, col]
    return keep


@kernel
def decide_nb(state, rules, bot, params, rstate, work, learner, n, log):
    """The index of the candidate to play among ``0 .. n - 1`` of ``work``: with
    ``prior_top`` 0 the best rollout (:func:`search_nb`); otherwise the rollout apprentice's
    ``prior_top`` best-scored (:func:`prior_order_nb`) rolled out, its first choice kept
    unless another beats it by the margin (:func:`pick_best_nb`); 0 for one candidate, -1
    when none is legal in every world."""
    if params[PimcParam.prior_top] > 0.0:
        n = prior_order_nb(state, rules, params, work, learner, n)
    if n < 2:
        return 0
    return search_nb(state, rules, bot, params, rstate, work, learner, n, log)


@kernel
def meld_search_nb(state, rules, bot, params, rstate, work, learner, log):
    """The play phase with ``melds`` 1 or a prior (R-20 steps 2 and 3): roll out the
    candidates of :func:`play_candidates_nb` in the same worlds and make the best one
    (:func:`decide_nb`). The expert's candidates come first, so ties keep its choice; with a
    prior its ``top`` is the rollout apprentice's and the candidates are in its order.
    Without a candidate legal in every world the rollout expert plays the phase; R-45's end
    is :func:`pimc_turn_nb`'s."""
    rparams = work.rparams[:]  # plain C arrays, as in search_nb
    plans = work.plans[:]
    top = int(params[PimcParam.top])
    if params[PimcParam.prior_top] > 0.0:
        top = ROLLOUT_TOP  # the apprentice's own candidates
    n = play_candidates_nb(state, rules, bot, rparams, rstate, work, top, log)
    best = 0
    if n > 0:
        best = decide_nb(state, rules, bot, params, rstate, work, learner, n, log)
    if n > 0 and best >= 0:
        kind, plan, discard = work.kind[best], plans[best], work.discard[best]
        if apply_candidate_nb(state, rules, kind, plan, discard, log) == MoveError.ok:
            return
    else:
        expert_melds_nb(state, rules, bot, rparams, log)
    if state.g[DealSlot.phase] == Phase.play:  # a failed candidate or the expert's melds
        expert_discard_nb(state, rules, bot, rparams, log)


@kernel
def pimc_turn_nb(state, rules, bot, params, rstate, work, learner, log):
    """One whole turn of the search bot with parameters ``params`` (``float64[N_PARAMS]``,
    slots :data:`~.policies.PimcParam`), using the rollout state ``rstate`` (a record of
    ``STATE_DTYPE``), the work record ``work`` (:data:`.search_candidates.WORK_DTYPE`), the
    rollout apprentice's scratch ``learner`` (:func:`rollout_turn_nb`; touched only with
    ``rollout`` the apprentice) and the bots' working record ``bot``
    (:data:`.memory.BOT_DTYPE`)."""
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
            best = decide_nb(state, rules, bot, params, rstate, work, learner, n, log)
            if best < 0 or work.kind[best] == CandKind.draw:
                draw_nb(state, rules, log)
            elif take_pile_nb(state, rules, plans[best], log) != MoveError.ok:
                draw_nb(state, rules, log)
    if (
        g[DealSlot.phase] == Phase.play
        and (params[PimcParam.melds] != 0.0 or params[PimcParam.prior_top] > 0.0)
        and g[DealSlot.last_red_three] == 0
    ):
        meld_search_nb(state, rules, bot, params, rstate, work, learner, log)
        return
    if g[DealSlot.phase] == Phase.play:
        expert_melds_nb(state, rules, bot, rparams, log)
    if g[DealSlot.phase] == Phase.play:
        if g[DealSlot.last_red_three] != 0:
            discard_safe_nb(state, rules, bot, log, 0.0, np.int64(0), 0.0, np.int64(0), PAIR_KEEP)
            return
        n = discard_candidates_nb(
            state, rules, bot, rparams, empty_plan_nb(), work, np.int64(0), top
        )
        best = 0
        if n > 1:
            best = search_nb(state, rules, bot, params, rstate, work, learner, n, log)
        if (
            n == 0
            or best < 0
            or discard_nb(state, rules, np.int64(work.discard[best]), log) != MoveError.ok
        ):
            expert_discard_nb(state, rules, bot, rparams, log)
