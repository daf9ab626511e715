"""Labelled decisions for the apprentice: self-play deals in which sampled decisions get every
candidate valued by pimc's paired rollouts (:func:`.bots.pimc.search_nb`, shared worlds, the
rollout expert in every seat), with the state and candidate features of :mod:`.bots.features`.

The deals are played by the expert; at a labelled decision the move played is pimc's best
candidate (``follow`` 1) or the expert's own (``follow`` 0). Each labelled decision also keeps
its whole position, its candidates as moves and the deal's outcome for the seat's side, so
that features of any later version, a model of the hidden hands (trained on the true hands)
and a value of the position can be fitted on the same labels without playing them again. The
kernel writes into arrays it is given and stops labelling when they are full (it allocates
nothing).
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from .bots.apprentice import decision_features_nb
from .bots.expert import expert_draw_nb, expert_turn_nb
from .bots.features import N_CAND_FEAT, N_STATE_FEAT
from .bots.memory import MAX_CANDIDATES
from .bots.pimc import score_diff_nb, search_nb
from .bots.policies import PimcParam
from .bots.search_candidates import N_EXPERT, draw_candidates_nb, play_candidates_nb
from .engine.deal import start_deal_nb
from .engine.moves import draw_nb, meld_last_card_nb, take_pile_nb
from .engine.rng import below_nb
from .engine.state import copy_state_nb
from .enums import N_KINDS, DealSlot, MeldCol, MoveError, Phase, RuleSlot, SideSlot
from .jit import inline_kernel, kernel
from .worlds import CandKind, apply_candidate_nb


class _LabelCol(NamedTuple):
    deal: int = 0  # the deal's index in the labelling run
    turn: int = 1  # completed turns at the decision
    phase: int = 2  # Phase: draw or play decision
    seat: int = 3  # the seat to play
    n_cands: int = 4  # candidates of the decision
    first: int = 5  # row of its first candidate in the candidate arrays
    expert: int = 6  # candidate the expert plays (-1: none of them)
    best: int = 7  # candidate with the best rollout value (pimc's choice)


#: Columns of the labelled decisions' metadata (``int64[n_decisions, LABEL_LEN]``).
LabelCol = _LabelCol()
LABEL_LEN = len(LabelCol)


@inline_kernel
def decision_row_nb(state, fwork, n, deal, dec_state, dec_meta, cand_feat, nd, nc):
    """The decision's features (``fwork``, ``n`` candidates) into row ``nd`` of ``dec_state``
    and rows ``nc ..`` of ``cand_feat``, and the columns ``deal`` to ``first`` of row ``nd``
    of ``dec_meta``: the columns every log of decisions shares (:data:`LabelCol` here,
    :data:`.selfplay.PlayCol` in self-play)."""
    g = state.g
    for j in range(N_STATE_FEAT):
        dec_state[nd, j] = fwork.state[j]
    for c in range(n):
        for i in range(N_CAND_FEAT):
            cand_feat[nc + c, i] = fwork.cands[c, i]
    row = dec_meta[nd]
    row[LabelCol.deal] = deal
    row[LabelCol.turn] = g[DealSlot.turn]
    row[LabelCol.phase] = g[DealSlot.phase]
    row[LabelCol.seat] = g[DealSlot.current]
    row[LabelCol.n_cands] = n
    row[LabelCol.first] = nc


@kernel
def expert_draw_choice_nb(state, rules, bot, rparams, rstate, work, n, log):
    """Which of the draw decision's ``n`` candidates (:func:`.bots.pimc.draw_candidates_nb`:
    pickups, then the draw) the expert plays: its draw step is made on ``rstate``, a copy,
    and a pickup is matched to the candidate that spends the same kinds of card from hand on
    the top card's meld (R-32, R-33); -1 if none matches."""
    copy_state_nb(rstate, state)
    expert_draw_nb(rstate, rules, bot, rparams, log)
    g = state.g
    plen = g[DealSlot.pile_len]
    if rstate.g[DealSlot.pile_len] != 0:
        return n - 1
    top = state.pile[plen - 1]
    side = rules[RuleSlot.side_of + g[DealSlot.current]]
    en = rstate.melds[side, top, MeldCol.naturals] - state.melds[side, top, MeldCol.naturals] - 1
    ed = rstate.melds[side, top, MeldCol.deuces] - state.melds[side, top, MeldCol.deuces]
    ej = rstate.melds[side, top, MeldCol.jokers] - state.melds[side, top, MeldCol.jokers]
    for c in range(n - 1):
        pn = work.plans[c, top, MeldCol.naturals]
        pd = work.plans[c, top, MeldCol.deuces]
        pj = work.plans[c, top, MeldCol.jokers]
        if (pd > 0) == (ed > 0) and (pj > 0) == (ej > 0) and (pn >= 2) == (en >= 2):
            if (pn == 0) == (en == 0):
                return c
    return -1


@kernel
def label_decision_nb(
    state,
    rules,
    bot,
    params,
    rstate,
    work,
    fwork,
    learner,
    n,
    expert,
    deal,
    dec_state,
    dec_meta,
    cand_feat,
    cand_value,
    moves,
    nd,
    nc,
    log,
):
    """Features of the decision's ``n`` candidates and their mean rollout values (points; NaN
    for a candidate illegal in some world) into row ``nd`` of ``dec_state`` and ``dec_meta``
    and rows ``nc ..`` of ``cand_feat`` and ``cand_value``, the position and the candidates
    into ``moves`` (:func:`label_deals_nb`); returns pimc's choice."""
    positions, _, kinds, plans, discards = moves
    copy_state_nb(positions[nd], state)
    wplans = work.plans[:]  # a plain C array, as in pimc
    for c in range(n):
        kinds[nc + c] = work.kind[c]
        discards[nc + c] = work.discard[c]
        for k in range(N_KINDS):
            for m in range(3):
                plans[nc + c, k, m] = wplans[c, k, m]
    decision_features_nb(state, rules, work, fwork, n, np.int64(0))  # every feature
    decision_row_nb(state, fwork, n, deal, dec_state, dec_meta, cand_feat, nd, nc)
    best = search_nb(state, rules, bot, params, rstate, work, learner, n, log)
    worlds = params[PimcParam.worlds]
    for c in range(n):
        cand_value[nc + c] = work.total[c] / worlds if work.ok[c] != 0 else np.nan
    row = dec_meta[nd]
    row[LabelCol.expert] = expert
    row[LabelCol.best] = best
    return best


@nb.njit(cache=True, _nrt=False, nogil=True)
def label_deals_nb(
    state,
    rules,
    bot,
    seeds,
    deals,
    dealers,
    minimums,
    scores,
    params,
    every,
    follow,
    sampler,
    rstate,
    work,
    fwork,
    learner,
    dec_state,
    dec_meta,
    cand_feat,
    cand_value,
    moves,
    log,
):
    """Play one deal per seed (``deals``: their indices in the run) with the expert (the
    rollout expert of ``params``, pimc's parameter vector) and label about one decision in
    ``every`` (chosen from the stream ``sampler``, ``uint64[1]``) that has two candidates or
    more; ``bot`` (:data:`.bots.memory.BOT_DTYPE`), ``rstate``, ``work``, ``fwork`` and
    ``learner`` are scratch (the bots' working record, pimc's, the features' and pimc's
    rollout apprentice's, :func:`.bots.pimc.rollout_turn_nb`), the
    labels go to :func:`label_decision_nb`'s arrays. ``moves`` is a tuple of what a decision
    keeps beside its features: its position (``STATE_DTYPE[decisions]``, the whole state,
    hidden cards included), the deal's outcome for the seat's side (``float32[decisions]``,
    its deal score minus the mean of the other sides', points, R-50..R-54) and each
    candidate's kind, plan and discard (``int64[candidates]``, ``int8[candidates, N_KINDS,
    3]``, ``int64[candidates]``, as :data:`.bots.search_candidates.WORK_DTYPE` holds them).
    Returns ``(decisions, candidates)`` written."""
    g = state.g
    rparams = work.rparams[:]  # a plain C array, as in pimc
    plans = work.plans[:]
    for i in range(N_EXPERT):
        rparams[i] = params[PimcParam.expert + i]
    top = int(params[PimcParam.top])
    nd = np.int64(0)  # not a literal 0: label_decision_nb compiles once (jit.py)
    nc = np.int64(0)
    positions, outcome = moves[0], moves[1]
    for i in range(seeds.shape[0]):
        first = nd  # the deal's first labelled decision
        start_deal_nb(state, rules, seeds[i], dealers[i], minimums[i], log)
        for s in range(rules[RuleSlot.sides]):
            state.sides[s, SideSlot.score] = scores[i, s]
        while g[DealSlot.phase] != Phase.over:
            # one decision a pass: the draw, or the play phase with its R-45 end; the sampler
            # is asked only where a decision may be labelled, in the order the deal meets them
            seat = g[DealSlot.current]
            draw = g[DealSlot.phase] == Phase.draw
            room = nd < dec_meta.shape[0] and nc + MAX_CANDIDATES <= cand_value.shape[0]
            n = 0
            if room and (draw or g[DealSlot.last_red_three] == 0) and below_nb(sampler, every) == 0:
                if draw:
                    n = draw_candidates_nb(state, rules, work)
                else:
                    n = play_candidates_nb(state, rules, bot, rparams, rstate, work, top, log)
            c = -1  # the candidate played, -1: the expert's own move
            if n > 1:
                exp = np.int64(0)
                if draw:
                    exp = expert_draw_choice_nb(state, rules, bot, rparams, rstate, work, n, log)
                best = label_decision_nb(
                    state,
                    rules,
                    bot,
                    params,
                    rstate,
                    work,
                    fwork,
                    learner,
                    n,
                    exp,
                    deals[i],
                    dec_state,
                    dec_meta,
                    cand_feat,
                    cand_value,
                    moves,
                    nd,
                    nc,
                    log,
                )
                nd += 1
                nc += n
                if draw:
                    c = best if follow != 0 or exp < 0 else exp
                else:
                    c = best if follow != 0 and best >= 0 else 0
            if draw:
                if n <= 1:
                    expert_draw_nb(state, rules, bot, rparams, log)
                elif c < 0 or work.kind[c] == CandKind.draw:
                    draw_nb(state, rules, log)
                elif take_pile_nb(state, rules, plans[c], log) != MoveError.ok:
                    draw_nb(state, rules, log)
                continue
            done = False
            if c >= 0:
                err = apply_candidate_nb(state, rules, work.kind[c], plans[c], work.discard[c], log)
                done = err == MoveError.ok
            if not done and g[DealSlot.phase] == Phase.play:
                expert_turn_nb(state, rules, bot, rparams, log)
            if g[DealSlot.phase] == Phase.play and g[DealSlot.current] == seat:
                meld_last_card_nb(state, rules, log)
        for d in range(first, nd):
            side = rules[RuleSlot.side_of + positions[d].g[DealSlot.current]]
            outcome[d] = score_diff_nb(state, rules, side)
    return nd, nc


@nb.njit(cache=True, _nrt=False, nogil=True)
def features_of_positions_nb(
    positions, rules, which, kinds, plans, discards, meta, work, fwork, dec_state, cand_feat
):
    """The features of labelled decisions computed again from their kept positions and
    candidates (:func:`label_deals_nb`'s ``moves``) with today's feature kernels: decision
    ``d`` reads the rules row ``rules[which[d]]`` (``int32[n_rules, RULES_LEN]``) and its
    candidates at ``meta[d, first] ..`` (``int64[decisions, LABEL_LEN]``); into ``dec_state``
    (``float32[decisions, N_STATE_FEAT]``) and ``cand_feat`` (``float32[candidates,
    N_CAND_FEAT]``); ``work`` and ``fwork`` are scratch."""
    wplans = work.plans[:]
    for d in range(positions.shape[0]):
        first, n = meta[d, LabelCol.first], meta[d, LabelCol.n_cands]
        for c in range(n):
            work.kind[c] = kinds[first + c]
            work.discard[c] = discards[first + c]
            for k in range(N_KINDS):
                for m in range(3):
                    wplans[c, k, m] = plans[first + c, k, m]
        decision_features_nb(positions[d], rules[which[d]], work, fwork, n, np.int64(0))
        for j in range(N_STATE_FEAT):
            dec_state[d, j] = fwork.state[j]
        for c in range(n):
            for i in range(N_CAND_FEAT):
                cand_feat[first + c, i] = fwork.cands[c, i]
