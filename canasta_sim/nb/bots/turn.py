"""One turn of play chosen by the seat's policy code (:data:`~.policies.PolicyCode`).

Policies are never passed as function objects (numba would recompile jitted callbacks in every
process): :func:`play_turn_nb` branches on the seat's policy code and hands the policy the seat's
float parameters and the bots' working record (:data:`.memory.BOT_DTYPE`). It is the one kernel
if-chain over the policies; the search bot (:mod:`.pimc`) needs the search work arrays and plays
the expert or the learned bot in its rollouts, and the learned bot (:mod:`.apprentice`) needs them
for its candidates with its weight sets and feature work. numba compiles every policy a kernel can
branch to, so each loop calls the turn that holds only what it may play: :func:`search_turn_nb`
(whole deals) adds the search bot's branch in front of :func:`learned_turn_nb` (the rollouts'
turn), which adds the learned bot's in front of :func:`play_turn_nb`; a table where every seat
plays the expert (`--bots expert`) has :func:`expert_table_turn_nb`, which holds no other policy;
one where every seat plays the learned bot with a head network (the default)
:func:`head_seat_turn_nb`, and one of the policies without work arrays :func:`play_turn_nb`. From
Python, :func:`play_turn` calls each code's turn kernel as the policy table
(:data:`~.policies.POLICIES`) names it. Every move goes through the checked move kernels, so a bot
cannot make an illegal move.
"""

from importlib import import_module

from ..engine.moves import meld_last_card_nb
from ..enums import DealSlot, Phase
from ..jit import inline_kernel
from .apprentice import apprentice_turn_nb, head_turn_nb
from .careful import careful_turn_nb
from .expert import expert_turn_nb
from .features import feature_work
from .greedy import greedy_turn_nb
from .memory import new_bot
from .pimc import pimc_turn_nb
from .policies import POLICIES, ApprenticeParam, PolicyCode
from .random import random_turn_nb
from .search_candidates import search_work


@inline_kernel
def play_turn_nb(state, rules, bot, policies, params, log):
    """Play the current player's whole turn with their policy.

    Parameters
    ----------
    state : record of STATE_DTYPE
    rules : ndarray(int32, (RULES_LEN,))
    bot : record of BOT_DTYPE
        The bots' working record (:mod:`.memory`).
    policies : ndarray(int32, (players,))
        Policy code per seat (:data:`~.policies.PolicyCode`), each one of
        :data:`~.policies.PLAIN_CODES`: another code plays as random.
    params : ndarray(float64, (players, N_PARAMS))
        Each seat's policy parameters (see :mod:`.policies`).
    log : ndarray(int32, (max_events, EV_LEN))
    """
    seat = state.g[DealSlot.current]
    code = policies[seat]
    if code == PolicyCode.greedy:
        greedy_turn_nb(state, rules, bot, log)
    elif code == PolicyCode.expert:
        expert_turn_nb(state, rules, bot, params[seat], log)
    elif code == PolicyCode.careful:
        careful_turn_nb(state, rules, bot, log)
    else:
        random_turn_nb(state, rules, bot, log)
    finish_turn_nb(state, rules, seat, log)


@inline_kernel
def expert_table_turn_nb(state, rules, bot, params, log):
    """:func:`play_turn_nb` for a table where every seat plays the expert (``params``:
    ``ndarray(float64, (players, N_PARAMS))``, each seat's parameters), with no branch to
    another policy."""
    seat = state.g[DealSlot.current]
    expert_turn_nb(state, rules, bot, params[seat], log)
    finish_turn_nb(state, rules, seat, log)


@inline_kernel
def finish_turn_nb(state, rules, seat, log):
    """Finish ``seat``'s turn when its policy left it in the play phase: its last card, which
    R-40 does not let it discard, is melded if that completes the canasta it needs to go out
    (:func:`~..engine.moves.meld_last_card_nb`; the policies only discard)."""
    if state.g[DealSlot.phase] == Phase.play and state.g[DealSlot.current] == seat:
        meld_last_card_nb(state, rules, log)


@inline_kernel
def learned_turn_nb(state, rules, bot, policies, params, search, learned, block, log):
    """:func:`play_turn_nb`, or for a seat whose code is ``PolicyCode.apprentice`` the learned
    bot's turn (:func:`.apprentice.apprentice_turn_nb`): every policy but the search bot, the
    turns of the rollouts (:data:`~.policies.ROLLOUT_CODES`). ``search`` holds the search work
    arrays (:class:`canasta_sim.nb.play.Search`: rollout states, records of ``STATE_DTYPE``,
    and work records, :data:`.search_candidates.WORK_DTYPE`, two per block: ``2 * block`` is
    the searching or learned seat's, ``2 * block + 1`` the scratch of the search's rollout
    apprentice), ``learned`` the learned bot's weight sets and feature work records
    (:class:`canasta_sim.nb.play.Learned`, used at index ``block``). Only the learned branch
    touches them, so a run without such a seat passes them empty."""
    if policies[state.g[DealSlot.current]] == PolicyCode.apprentice:
        apprentice_seat_turn_nb(state, rules, bot, params, search, learned, block, log)
    else:
        play_turn_nb(state, rules, bot, policies, params, log)


@inline_kernel
def apprentice_seat_turn_nb(state, rules, bot, params, search, learned, block, log):
    """The current seat's whole turn with the learned bot
    (:func:`.apprentice.apprentice_turn_nb`), in the work records of :func:`learned_turn_nb`:
    its learned branch, and alone the turn of a table where every seat plays the learned bot
    (no branch to another policy)."""
    seat = state.g[DealSlot.current]
    rstate, work = search.rstates[2 * block], search.works[2 * block]
    weights, fwork = learned.weights, learned.fworks[block]
    apprentice_turn_nb(state, rules, bot, params[seat], weights, rstate, work, fwork, log)
    finish_turn_nb(state, rules, seat, log)


@inline_kernel
def head_seat_turn_nb(state, rules, bot, params, search, learned, block, log):
    """The current seat's whole turn with its head network (:func:`.apprentice.head_turn_nb`),
    the arguments as :func:`apprentice_seat_turn_nb`'s: the turn of a table where every seat
    plays the learned bot with a head network (the default apprentice), which compiles
    neither the full network's path nor another policy."""
    seat = state.g[DealSlot.current]
    work, fwork = search.works[2 * block], learned.fworks[block]
    net = learned.weights[int(params[seat, ApprenticeParam.weight_set])]
    head_turn_nb(state, rules, bot, params[seat], net, work, fwork, log)
    finish_turn_nb(state, rules, seat, log)


@inline_kernel
def search_turn_nb(state, rules, bot, policies, params, search, learned, block, log):
    """:func:`learned_turn_nb`, or for a seat whose code is ``PolicyCode.pimc`` the search
    bot's turn (:func:`.pimc.pimc_turn_nb`): every policy. The arguments are those of
    :func:`learned_turn_nb`; the search bot plays in the records of
    ``2 * block`` and its rollout apprentice (``rollout=apprentice``) in those of
    ``2 * block + 1``, with ``learned``'s weight sets and feature work record ``block``."""
    seat = state.g[DealSlot.current]
    if policies[seat] == PolicyCode.pimc:
        rstate, work = search.rstates[2 * block], search.works[2 * block]
        learner = (
            search.rstates[2 * block + 1],
            search.works[2 * block + 1],
            learned.weights,
            learned.fworks[block],
        )
        pimc_turn_nb(state, rules, bot, params[seat], rstate, work, learner, log)
        finish_turn_nb(state, rules, seat, log)
    else:
        learned_turn_nb(state, rules, bot, policies, params, search, learned, block, log)


def play_turn(state, rules, policies, params, weights, log):
    """The current player's whole turn for Python callers (the ``Deal`` API): the turn kernel
    of the seat's policy (:func:`turn_kernel`) with a fresh bot record, for a searching
    policy fresh search work arrays, for a learned one the weight sets, fresh search work
    arrays and a fresh feature work record. Called from Python, :func:`play_turn_nb` would be
    compiled as one more copy of all four policies; this way a ``Deal`` compiles only the
    policies it plays, and shares them with the chunk kernel.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Changed in place.
    rules : ndarray(int32, (RULES_LEN,))
    policies : ndarray(int32, (players,))
        Policy code per seat, codes of :data:`~.policies.POLICIES`.
    params : ndarray(float64, (players, N_PARAMS))
    weights : ndarray(float32, (n_sets, NET_LEN))
        The learned bot's weight sets (its ``ApprenticeParam.weight_set`` indexes them).
    log : ndarray(int32, (max_events, EV_LEN))
    """
    seat = int(state["g"][DealSlot.current])
    policy = POLICIES[int(policies[seat])]
    turn = turn_kernel(policy.code)
    bot = new_bot()
    if policy.search:
        rstates, works = search_work(2)
        learner = (rstates[1], works[1], weights, feature_work(1)[0])
        turn(state, rules, bot, params[seat], rstates[0], works[0], learner, log)
    elif policy.learned:
        rstates, works = search_work(1)
        fwork = feature_work(1)[0]
        turn(state, rules, bot, params[seat], weights, rstates[0], works[0], fwork, log)
    elif policy.params:
        turn(state, rules, bot, params[seat], log)
    else:
        turn(state, rules, bot, log)
    if state["g"][DealSlot.phase] == Phase.play and state["g"][DealSlot.current] == seat:
        meld_last_card_nb(state, rules, log)  # as in play_turn_nb


def turn_kernel(code: int):
    """The turn kernel of policy ``code``, as the policy table names it
    (``Policy.turn``, a kernel of a module of :mod:`canasta_sim.nb.bots`)."""
    module, name = POLICIES[code].turn.split(".")
    return getattr(import_module(f"{__package__}.{module}"), name)
