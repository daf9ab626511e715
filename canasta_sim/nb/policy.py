"""Bot policies inside the kernels: one turn of play chosen by an integer policy code.

Policies are never passed as function objects (numba would recompile jitted callbacks in every
process): :func:`play_turn_nb` branches on the seat's policy code and hands the policy the
seat's float parameters. Every move goes through the checked move kernels, so a bot cannot
make an illegal move.
"""

from .careful import careful_turn_nb
from .expert import expert_turn_nb
from .greedy import greedy_turn_nb
from .jit import inline_kernel
from .layout import G_CURRENT, G_PHASE, PHASE_PLAY
from .moves import meld_last_card_nb
from .random_bot import random_turn_nb

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_CAREFUL = 2
POLICY_EXPERT = 3


@inline_kernel
def play_turn_nb(state, rules, policies, params, log):
    """Play the current player's whole turn with their policy.

    Parameters
    ----------
    policies : ndarray(int32, (players,))
        Policy code per seat (``POLICY_*``).
    params : ndarray(float64, (players, n_params))
        Each seat's policy parameters (see :mod:`canasta_sim.bots`).
    """
    seat = state.g[G_CURRENT]
    code = policies[seat]
    if code == POLICY_GREEDY:
        greedy_turn_nb(state, rules, log)
    elif code == POLICY_EXPERT:
        expert_turn_nb(state, rules, params[seat], log)
    elif code == POLICY_CAREFUL:
        careful_turn_nb(state, rules, log)
    else:
        random_turn_nb(state, rules, log)
    if state.g[G_PHASE] == PHASE_PLAY and state.g[G_CURRENT] == seat:
        meld_last_card_nb(state, rules, log)  # the policies discard, which R-40 refuses here


def play_turn(state, rules, policies, params, log):
    """:func:`play_turn_nb` for Python callers (the ``Deal`` API): the branch on the policy
    code runs in Python and calls the policy's own turn kernel. Called from Python,
    ``play_turn_nb`` would be compiled as one more copy of all four policies; this way a
    ``Deal`` compiles only the policies it plays, and shares them with the chunk kernel."""
    seat = int(state["g"][G_CURRENT])
    code = int(policies[seat])
    if code == POLICY_EXPERT:
        expert_turn_nb(state, rules, params[seat], log)
    else:
        _TURN_KERNELS[code](state, rules, log)
    if state["g"][G_PHASE] == PHASE_PLAY and state["g"][G_CURRENT] == seat:
        meld_last_card_nb(state, rules, log)  # as in play_turn_nb


_TURN_KERNELS = {
    POLICY_RANDOM: random_turn_nb,
    POLICY_GREEDY: greedy_turn_nb,
    POLICY_CAREFUL: careful_turn_nb,
}
