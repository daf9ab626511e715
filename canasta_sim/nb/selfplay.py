"""Self-play decisions for learning from outcomes (issue 41 item 3): deals in which the
learner's seats play the apprentice sampling with its ``temperature`` (from the deal's random
stream, :func:`.bots.apprentice.pick_nb`) and the other seats play a pool apprentice (the
learner's own weights or an earlier weight set), each decision of a learner seat that the
network scores among two candidates or more logged with its features, its candidates'
scores and sampling probabilities, the candidate played, the whole position (hidden cards
included: the training critic may read them, the policy never does) and the deal's outcome
for the seat's side.

Written like the labelling kernel (:mod:`.labels`): it writes into arrays it is given and
allocates nothing; each deal's play depends only on its own seed (its dealing and its
random stream), so a run split into calls at any deal logs the same decisions.
"""

from typing import NamedTuple

import numpy as np

from .bots.apprentice import (
    apprentice_turn_nb,
    choose_nb,
    last_red_three_end_nb,
    play_candidate_nb,
    play_draw_candidate_nb,
)
from .bots.memory import MAX_CANDIDATES
from .bots.pimc import score_diff_nb
from .bots.policies import ApprenticeParam
from .bots.search_candidates import N_EXPERT, draw_candidates_nb, play_candidates_nb
from .bots.turn import finish_turn_nb
from .engine.deal import start_deal_nb
from .engine.state import copy_state_nb
from .enums import DealSlot, Phase, RuleSlot, SideSlot
from .jit import inline_kernel, kernel
from .labels import LabelCol, decision_row_nb


class _PlayCol(NamedTuple):
    # the columns every log of decisions shares, written by decision_row_nb
    deal: int = LabelCol.deal  # the deal's index in the run
    turn: int = LabelCol.turn  # completed turns at the decision
    phase: int = LabelCol.phase  # Phase: draw or play decision
    seat: int = LabelCol.seat  # the seat to play
    n_cands: int = LabelCol.n_cands  # candidates of the decision
    first: int = LabelCol.first  # row of its first candidate in the candidate arrays
    chosen: int = LabelCol.first + 1  # the candidate played (0 .. n_cands - 1)


#: Columns of the logged decisions' metadata (``int64[n_decisions, PLAY_LEN]``).
PlayCol = _PlayCol()
PLAY_LEN = len(PlayCol)


@inline_kernel
def log_decision_nb(state, fwork, n, chosen, temperature, deal, logs, nd, nc):
    """Row ``nd`` of the decision arrays and rows ``nc ..`` of the candidate arrays of
    ``logs`` (:func:`selfplay_deals_nb`) for the decision just scored in ``fwork``: its
    features, each candidate's score and probability under the sampling of
    :func:`.bots.apprentice.pick_nb` (``exp((score - best) / temperature)`` normalised; at
    temperature 0 the best candidate's is 1, the others' 0), and the position."""
    dec_state, dec_meta, cand_feat, cand_score, cand_prob, positions, _ = logs
    scores = fwork.scores
    best = 0
    for c in range(1, n):
        if scores[c] > scores[best]:
            best = c
    total = 0.0
    for c in range(n):
        cand_score[nc + c] = scores[c]
        if temperature > 0.0:
            cand_prob[nc + c] = np.exp((scores[c] - scores[best]) / temperature)
        else:
            cand_prob[nc + c] = 1.0 if c == best else 0.0
        total += cand_prob[nc + c]
    for c in range(n):
        cand_prob[nc + c] /= total
    copy_state_nb(positions[nd], state)
    decision_row_nb(state, fwork, n, deal, dec_state, dec_meta, cand_feat, nd, nc)
    dec_meta[nd, PlayCol.chosen] = chosen


@kernel
def learner_turn_nb(
    state, rules, bot, params, weights, rstate, work, fwork, deal, logs, nd, nc, log
):
    """One whole turn of the learner (the apprentice's, :func:`.bots.apprentice.apprentice_turn_nb`,
    with parameters ``params``), its scored decisions of two candidates or more logged at
    rows ``nd`` and ``nc ..`` of ``logs`` when they have room; returns the rows written
    ``(decisions, candidates, full)``, ``full`` 1 when a decision found no room."""
    rparams = work.rparams[:]
    for i in range(N_EXPERT):
        rparams[i] = params[ApprenticeParam.expert + i]
    temperature = params[ApprenticeParam.temperature]
    room = nd < logs[0].shape[0] and nc + MAX_CANDIDATES <= logs[3].shape[0]
    full = 0
    d, k = 0, 0
    if state.g[DealSlot.phase] == Phase.draw:
        n = draw_candidates_nb(state, rules, work)
        best = -1
        if n > 0:  # every feature logged, for the critic
            best = choose_nb(state, rules, params, weights, work, fwork, n, np.bool_(True))
        if n > 1:
            if room:
                log_decision_nb(state, fwork, n, best, temperature, deal, logs, nd, nc)
                d, k = 1, n
            else:
                full = 1
        play_draw_candidate_nb(state, rules, bot, work, n, best, log)
    if state.g[DealSlot.phase] != Phase.play:
        return d, k, full
    if state.g[DealSlot.last_red_three] != 0:
        last_red_three_end_nb(state, rules, bot, rparams, log)
        return d, k, full
    top = int(params[ApprenticeParam.top])
    n = play_candidates_nb(state, rules, bot, rparams, rstate, work, top, log)
    best = 0
    if n > 1:
        best = choose_nb(state, rules, params, weights, work, fwork, n, np.bool_(True))
        room = nd + d < logs[0].shape[0] and nc + k + MAX_CANDIDATES <= logs[3].shape[0]
        if room:
            log_decision_nb(state, fwork, n, best, temperature, deal, logs, nd + d, nc + k)
            d, k = d + 1, k + n
        else:
            full = 1
    play_candidate_nb(state, rules, bot, work, n, best, log)
    return d, k, full


@kernel
def selfplay_deals_nb(
    state,
    rules,
    bot,
    seeds,
    deals,
    dealers,
    minimums,
    scores,
    learner_side,
    lparams,
    pparams,
    weights,
    rstate,
    work,
    fwork,
    logs,
    log,
):
    """Play one deal per seed (``deals``: their indices in the run, ``dealers``,
    ``minimums`` and ``scores`` as :func:`.labels.label_deals_nb` reads them), the seats of
    side ``learner_side[i]`` (``int64[n]``) with the apprentice of parameters ``lparams``,
    the others with that of ``pparams`` (``float64[N_PARAMS]`` each, slots
    :data:`~.bots.policies.ApprenticeParam`: each names its weight set of ``weights``,
    ``float32[n_sets, NET_LEN]``, and its temperature), logging the learner's decisions.

    ``logs`` is a tuple of the arrays written: ``dec_state`` (``float32[decisions,
    N_STATE_FEAT]``), ``dec_meta`` (``int64[decisions, PLAY_LEN]``, :data:`PlayCol`),
    ``cand_feat`` (``float32[candidates, N_CAND_FEAT]``), ``cand_score`` (``float32
    [candidates]``, the network's score, points), ``cand_prob`` (``float64[candidates]``, the
    probability the sampling gave it), ``positions`` (``STATE_DTYPE[decisions]``, the whole
    state at the decision) and ``outcome`` (``float32[decisions]``: the deal's final score
    of the seat's side minus the mean of the other sides', points, R-50..R-54, as the labels'
    outcome). ``bot``, ``rstate``, ``work`` and ``fwork`` are scratch.

    Returns ``(deals played, decisions, candidates)``: the kernel stops before a deal whose
    decisions do not all fit (only whole deals are logged), so a caller goes on from the
    first deal not played with fresh arrays.
    """
    g = state.g
    outcome = logs[6]
    nd = np.int64(0)
    nc = np.int64(0)
    for i in range(seeds.shape[0]):
        first, first_c = nd, nc
        start_deal_nb(state, rules, seeds[i], dealers[i], minimums[i], log)
        for s in range(rules[RuleSlot.sides]):
            state.sides[s, SideSlot.score] = scores[i, s]
        full = 0
        while g[DealSlot.phase] != Phase.over and full == 0:
            seat = g[DealSlot.current]
            if rules[RuleSlot.side_of + seat] == learner_side[i]:
                d, k, full = learner_turn_nb(
                    state,
                    rules,
                    bot,
                    lparams,
                    weights,
                    rstate,
                    work,
                    fwork,
                    deals[i],
                    logs,
                    nd,
                    nc,
                    log,
                )
                nd += d
                nc += k
            else:
                apprentice_turn_nb(state, rules, bot, pparams, weights, rstate, work, fwork, log)
            finish_turn_nb(state, rules, seat, log)
        if full != 0:
            return i, first, first_c
        for d in range(first, nd):
            side = rules[RuleSlot.side_of + logs[5][d].g[DealSlot.current]]
            outcome[d] = score_diff_nb(state, rules, side)
    return seeds.shape[0], nd, nc
