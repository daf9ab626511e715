"""One turn of play chosen by the seat's policy code (:data:`~.policies.PolicyCode`).

Policies are never passed as function objects (numba would recompile jitted callbacks in every
process): :func:`play_turn_nb` branches on the seat's policy code and hands the policy the
seat's float parameters. The search bot (:mod:`.pimc`) needs a rollout state and work arrays
and plays the expert in its rollouts, so it has its own entry, :func:`search_turn_nb`, which
the deal loops call; rollouts call :func:`play_turn_nb`, which holds no search bot. Every move
goes through the checked move kernels, so a bot cannot make an illegal move.
"""

import numpy as np

from ..engine.moves import meld_last_card_nb
from ..engine.state import STATE_DTYPE
from ..enums import DealSlot, Phase
from ..jit import inline_kernel
from .apprentice import apprentice_turn_nb
from .careful import careful_turn_nb
from .expert import expert_turn_nb
from .features import FEATURE_WORK_DTYPE
from .greedy import greedy_turn_nb
from .pimc import WORK_DTYPE, pimc_turn_nb
from .policies import PolicyCode
from .random import random_turn_nb


@inline_kernel
def play_turn_nb(state, rules, policies, params, log):
    """Play the current player's whole turn with their policy.

    Parameters
    ----------
    policies : ndarray(int32, (players,))
        Policy code per seat (:data:`~.policies.PolicyCode`).
    params : ndarray(float64, (players, N_PARAMS))
        Each seat's policy parameters (see :mod:`.policies`).
    """
    seat = state.g[DealSlot.current]
    code = policies[seat]
    if code == PolicyCode.greedy:
        greedy_turn_nb(state, rules, log)
    elif code == PolicyCode.expert:
        expert_turn_nb(state, rules, params[seat], log)
    elif code == PolicyCode.careful:
        careful_turn_nb(state, rules, log)
    else:
        random_turn_nb(state, rules, log)
    if state.g[DealSlot.phase] == Phase.play and state.g[DealSlot.current] == seat:
        meld_last_card_nb(state, rules, log)  # the policies discard, which R-40 refuses here


@inline_kernel
def search_turn_nb(state, rules, policies, params, weights, scratch, log):
    """:func:`play_turn_nb`, or for a seat whose code is ``PolicyCode.pimc`` the search bot's
    turn (:func:`.pimc.pimc_turn_nb`), for ``PolicyCode.apprentice`` the apprentice's
    (:func:`.apprentice.apprentice_turn_nb`, with the weight sets ``weights``,
    ``float32[n_sets, N_CAND_FEAT, N_STATE_FEAT]``). ``scratch`` is ``(rstate, work,
    fwork)``: a rollout state (record of ``STATE_DTYPE``), pimc's work record
    (:data:`.pimc.WORK_DTYPE`) and the features' (:data:`.features.FEATURE_WORK_DTYPE`)."""
    seat = state.g[DealSlot.current]
    code = policies[seat]
    rstate, work, fwork = scratch
    if code == PolicyCode.pimc or code == PolicyCode.apprentice:
        if code == PolicyCode.pimc:
            pimc_turn_nb(state, rules, params[seat], rstate, work, log)
        else:
            apprentice_turn_nb(state, rules, params[seat], weights, rstate, work, fwork, log)
        if state.g[DealSlot.phase] == Phase.play and state.g[DealSlot.current] == seat:
            meld_last_card_nb(state, rules, log)  # as in play_turn_nb
    else:
        play_turn_nb(state, rules, policies, params, log)


def play_turn(state, rules, policies, params, weights, log):
    """:func:`play_turn_nb` for Python callers (the ``Deal`` API): the branch on the policy
    code runs in Python and calls the policy's own turn kernel. Called from Python,
    ``play_turn_nb`` would be compiled as one more copy of all four policies; this way a
    ``Deal`` compiles only the policies it plays, and shares them with the chunk kernel."""
    seat = int(state["g"][DealSlot.current])
    code = int(policies[seat])
    if code == PolicyCode.expert:
        expert_turn_nb(state, rules, params[seat], log)
    elif code == PolicyCode.pimc:
        rstate = np.zeros(1, STATE_DTYPE)
        work = np.zeros(1, WORK_DTYPE)
        pimc_turn_nb(state, rules, params[seat], rstate[0], work[0], log)
    elif code == PolicyCode.apprentice:
        rstate = np.zeros(1, STATE_DTYPE)
        work = np.zeros(1, WORK_DTYPE)
        fwork = np.zeros(1, FEATURE_WORK_DTYPE)
        apprentice_turn_nb(state, rules, params[seat], weights, rstate[0], work[0], fwork[0], log)
    else:
        _TURN_KERNELS[code](state, rules, log)
    if state["g"][DealSlot.phase] == Phase.play and state["g"][DealSlot.current] == seat:
        meld_last_card_nb(state, rules, log)  # as in play_turn_nb


_TURN_KERNELS = {
    PolicyCode.random: random_turn_nb,
    PolicyCode.greedy: greedy_turn_nb,
    PolicyCode.careful: careful_turn_nb,
}
