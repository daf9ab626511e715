"""The candidate layer's checks (:mod:`canasta_sim.players.choices`) in one call each, without a
Python call per plan or move: the legality of its candidates (each candidate's moves made on a
copy of the state by the engine's own move kernels, the rollouts'
:func:`~.worlds.apply_candidate_nb`, as ``Candidate.apply`` makes them on a copy of a
``Deal``), the engine's check and the points of its meld plans, and the engine's plans that
go out."""

import numpy as np

from .engine.melds import check_plan_nb, plan_rows_nb
from .engine.state import copy_state_nb
from .enums import N_KINDS, DealSlot, MoveError
from .jit import kernel
from .plans import black_three_plan_nb, fill_plan_nb, plan_points_nb
from .worlds import apply_candidate_nb


@kernel
def try_candidates_nb(states, rules, kinds, plans, groups, discards, going_out, cap, log, legal):
    """Make each candidate's moves on a fresh copy of ``states[0]`` (in ``states[1]``): it is
    legal when the move kernels accept them all (``MoveError.ok``) and, for a candidate that
    goes out, the seat to play went out (R-40).

    Parameters
    ----------
    states : ndarray(STATE_DTYPE, (2,))
        The decision's state, then the scratch record the moves are made on.
    rules : ndarray(int64)
    kinds : ndarray(int64, (n,))
        :data:`~.enums.CandKind`.
    plans : ndarray(int8, (m, N_KINDS, 3))
        The meld plans (a pickup's: with the top card's row).
    groups : ndarray(int64, (n,))
        Each candidate's plan (a row of ``plans``), non-decreasing: the trials stop at the
        first change of plan after more than ``cap`` legal candidates (the candidate layer
        lists no later plan), leaving the rest of ``legal`` as it was.
    discards : ndarray(int64, (n,))
        Each candidate's discard kind, -1 for none.
    going_out : ndarray(bool, (n,))
        The candidate must go out.
    cap : int64
    log : ndarray(int32, (0, EV_LEN))
        No rows: the trials record no events.
    legal : ndarray(bool, (n,)), written

    Returns
    -------
    int
        Candidates tried.
    """
    seat = states[0].g[DealSlot.current]
    found = 0
    for i in range(kinds.shape[0]):
        if i > 0 and groups[i] != groups[i - 1] and found > cap:
            return i
        copy_state_nb(states[1], states[0])
        err = apply_candidate_nb(states[1], rules, kinds[i], plans[groups[i]], discards[i], log)
        legal[i] = err == MoveError.ok and (
            not going_out[i] or states[1].g[DealSlot.out_seat] == seat
        )
        if legal[i]:
            found += 1
    return kinds.shape[0]


@kernel
def check_plans_nb(states, rules, plans, points, errors):
    """The meld points (R-04) of each plan and the engine's check of melding it from hand
    now (``check_plan_nb``: R-22, R-40..R-42, R-60..R-64) for the seat to play.

    Parameters
    ----------
    states : ndarray(STATE_DTYPE, (>= 1,))
        ``states[0]``: the decision's state.
    rules : ndarray(int64)
    plans : ndarray(int8, (n, N_KINDS, 3))
    points, errors : ndarray(int64, (n,)), written
        Points (``plan_points_nb``) and the :data:`~canasta_sim.nb.enums.MoveError`.
    """
    seat = states[0].g[DealSlot.current]
    for i in range(plans.shape[0]):
        points[i] = plan_points_nb(rules, plans[i], np.int64(-1))
        err, _out, _concealed = check_plan_nb(
            states[0], rules, seat, plans[i], np.int64(-1), np.int64(0)
        )
        errors[i] = err


@kernel
def out_plans_nb(states, rules, plans, ok):
    """The engine's plans melding the whole hand (``keep`` = -1) or all of it but one card of
    ``keep`` (each kind in hand, in kind order), R-40: the black threes (R-63), then what
    ``fill_plan_nb`` melds keeping no card, built on a copy of ``states[0]`` (in
    ``states[1]``) whose hand lacks the kept card.

    Parameters
    ----------
    states : ndarray(STATE_DTYPE, (2,))
        The decision's state, then the scratch record.
    rules : ndarray(int64)
    plans : ndarray(int8, (N_KINDS + 1, N_KINDS, 3)), zero, written
        The plans, one per ``keep`` tried.
    ok : ndarray(bool, (N_KINDS + 1,)), written
        The plan melds every card but the kept one and is not empty.

    Returns
    -------
    int
        Plans written.
    """
    seat = states[0].g[DealSlot.current]
    n = 0
    for keep in range(-1, N_KINDS):
        if keep >= 0 and states[0].hands[seat, keep] == 0:
            continue
        copy_state_nb(states[1], states[0])
        if keep >= 0:
            states[1].hands[seat, keep] -= 1
            states[1].hand_sizes[seat] -= 1
        black_three_plan_nb(states[1].hands[seat], plans[n])
        left = fill_plan_nb(
            states[1], rules, seat, plans[n], np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
        )
        ok[n] = left == 0 and plan_rows_nb(plans[n], np.int64(-1)) != 0
        n += 1
    return n
