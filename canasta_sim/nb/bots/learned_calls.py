"""The learned bot's kernels called from Python: the apprentice's candidates and scores at a
decision (``analyse``'s learned column), its value output (the luck adjustment) and its
candidate features (the reasons of a hint). The kernels score inside the turn
(:mod:`.apprentice`); these wrap them with scratch records of their own.
"""

import numpy as np

from ..enums import EV_LEN, N_KINDS, DealSlot, Phase
from ..worlds import CandKind
from .apprentice import (
    NetSlot,
    decision_features_nb,
    head_candidates_nb,
    head_scores_nb,
    position_value_nb,
    score_candidates_nb,
)
from .expert import ExpertMeld
from .features import state_features_nb
from .policies import ApprenticeParam
from .search_candidates import N_EXPERT, draw_candidates_nb, play_candidates_nb


def candidate_scores(state, rules, params, weights):
    """The apprentice's candidates at the current decision of ``state`` and its score of each,
    for Python callers (``analyse``'s learned column; the kernels score inside the turn).

    Parameters
    ----------
    state : record of STATE_DTYPE
        A state at a draw or play decision; only what the current seat may know is read
        (the seat's own hand and the public cards), and it is not changed.
    rules : ndarray(int32, (RULES_LEN,))
    params : ndarray(float64, (N_PARAMS,))
        The apprentice's parameters (:data:`~.policies.ApprenticeParam`; ``top`` and the
        candidates' expert are used).
    weights : ndarray(float32, (NET_LEN,))
        One weight set (a packed network, :data:`.apprentice.NetSlot`), or a head network
        (``NetSlot.head`` 1): then its play candidates and scores
        (:func:`head_candidate_scores`), and none at a draw decision, which the expert makes.

    Returns
    -------
    kinds : ndarray(int64, (n,))
        Each candidate's :data:`~canasta_sim.nb.worlds.CandKind`.
    plans : ndarray(int8, (n, N_KINDS, 3))
        Its pickup's or melds' plan.
    discards : ndarray(int64, (n,))
        The kind it discards, or -1.
    scores : ndarray(float32, (n,))
        The model's score (points, the learned value of the candidate's rollout score
        difference; R-20, R-30..R-35, R-40).
    """
    from .features import feature_work
    from .memory import new_bot
    from .search_candidates import search_work

    rstates, works = search_work(1)
    work, fwork = works[0], feature_work(1)[0]
    rparams = np.ascontiguousarray(
        params[ApprenticeParam.expert : ApprenticeParam.expert + N_EXPERT]
    )
    if weights[NetSlot.head] != 0.0:
        return head_candidate_scores(state, rules, rparams, weights, work, fwork)
    if state["g"][DealSlot.phase] == Phase.draw:
        n = draw_candidates_nb(state, rules, work)
    else:
        top = np.int64(params[ApprenticeParam.top])
        no_log = np.zeros((0, EV_LEN), np.int32)
        n = play_candidates_nb(state, rules, new_bot(), rparams, rstates[0], work, top, no_log)
    n = np.int64(n)
    decision_features_nb(state, rules, work, fwork, n, np.int64(weights[NetSlot.skips]))
    score_candidates_nb(weights, fwork, n)
    return (
        work["kind"][:n].copy(),
        work["plans"][:n].copy(),
        work["discard"][:n].copy(),
        fwork["scores"][:n].copy(),
    )


def head_candidate_scores(state, rules, rparams, net, work, fwork):
    """A head network's candidates at the current decision of ``state`` and its score of
    each, as :func:`candidate_scores` returns them: at a play decision those of
    :func:`.apprentice.head_candidates_nb` (kind ``CandKind.play``; the first lay the
    expert's meld plan, the others an all-zero plan), scored by
    :func:`.apprentice.head_scores_nb`; none at a draw decision, which is the expert's (R-20,
    R-30..R-35, R-40).

    Parameters
    ----------
    state : record of STATE_DTYPE
        Not changed.
    rules : ndarray(int32, (RULES_LEN,))
    rparams : ndarray(float64, (N_EXPERT,))
        The candidates' expert's parameters (C-contiguous).
    net : ndarray(float32, (NET_LEN,))
        A packed head network (``NetSlot.head`` 1).
    work, fwork
        Scratch records of :data:`.search_candidates.WORK_DTYPE` and
        :data:`.features.FEATURE_WORK_DTYPE`.

    Returns
    -------
    kinds, plans, discards, scores
        As :func:`candidate_scores`: ``int64[n]``, ``int8[n, N_KINDS, 3]``, ``int64[n]``,
        ``float32[n]`` (``n`` 0 at a draw decision).
    """
    from .memory import new_bot

    if state["g"][DealSlot.phase] == Phase.draw:
        return (
            np.zeros(0, np.int64),
            np.zeros((0, N_KINDS, 3), np.int8),
            np.zeros(0, np.int64),
            np.zeros(0, np.float32),
        )
    bot = new_bot()
    n, melds, which = head_candidates_nb(state, rules, bot, rparams, work)
    plan = bot["out_plan"] if which == ExpertMeld.out else bot["meld_plan"]
    head_scores_nb(state, rules, net, plan, work, fwork, np.int64(n), np.int64(melds))
    plans = np.zeros((n, N_KINDS, 3), np.int8)
    plans[:melds] = plan
    return (
        np.full(n, CandKind.play, np.int64),
        plans,
        work["discard"][:n].astype(np.int64),
        fwork["scores"][:n].copy(),
    )


def position_value(state, rules, vweights):
    """The value output at the current decision of ``state``: the deal's expected score
    difference for the current seat's side, for Python callers (the luck adjustment reads it).

    Parameters
    ----------
    state : record of STATE_DTYPE
        A state at a draw or play decision; only what the current seat may know is read
        (its state features: its own hand and the public cards), and it is not changed.
    rules : ndarray(int32, (RULES_LEN,))
    vweights : ndarray(float32, (VALUE_LEN,))
        One packed value network (:data:`.apprentice.ValueSlot`): a weight file's value output as
        :func:`canasta_sim.players.weights.load_value` reads it.

    Returns
    -------
    float
        The expected final score of the seat's side minus the mean of the other sides' final
        scores of the deal (points, R-50..R-54).
    """
    from .features import feature_work

    fwork = feature_work(1)[0]
    state_features_nb(state, rules, fwork, np.int64(0))  # the value output reads every block
    return float(position_value_nb(vweights, fwork))


def candidate_features(state, rules, kinds, plans, discards):
    """The learned bot's candidate features of given candidates at the current decision of
    ``state``, for Python callers (the reasons of a hint, :mod:`canasta_sim.search.reasons`).

    Parameters
    ----------
    state : record of STATE_DTYPE
        A state at a draw or play decision; only what the current seat may know is read, and
        it is not changed.
    rules : ndarray(int32, (RULES_LEN,))
    kinds, plans, discards
        The candidates as :func:`candidate_scores` returns them (``int64[n]``,
        ``int8[n, N_KINDS, 3]``, ``int64[n]``).

    Returns
    -------
    ndarray(float32, (n, N_CAND_FEAT))
        Slots :data:`~.features.CandFeat` (R-23, R-24, R-30..R-35, R-40, R-51, R-64).
    """
    from .features import N_CAND_FEAT, feature_work
    from .memory import MAX_CANDIDATES
    from .search_candidates import search_work

    work, fwork = search_work(1)[1][0], feature_work(1)[0]
    out = np.zeros((len(kinds), N_CAND_FEAT), np.float32)
    for at in range(0, len(kinds), MAX_CANDIDATES):  # the work record holds MAX_CANDIDATES
        part = slice(at, at + MAX_CANDIDATES)
        n = len(kinds[part])
        work["kind"][:n], work["plans"][:n], work["discard"][:n] = (
            kinds[part],
            plans[part],
            discards[part],
        )
        decision_features_nb(state, rules, work, fwork, np.int64(n), np.int64(0))
        out[part] = fwork["cands"][:n]
    return out
