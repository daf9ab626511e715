"""The deal state: one record of small fixed-shape arrays, its clearing and its running counts.

The state is one record of :data:`STATE_DTYPE` (a NumPy structured scalar). Kernels receive it
as a single pointer and read the fields they need as array views (``state.g``, ...). Every
field is sized for the largest table (6 players, 3 sides, 162 cards); kernels use the first
``players``, ``sides`` and ``n_cards`` rows that ``rules`` gives. The fields (``P`` players,
``S`` sides, ``C`` cards in the pack; slot names in :mod:`canasta_sim.nb.enums`)::

    hands       int8[P, N_KINDS]      cards in each hand (count arrays)
    stock       int8[C]               the shuffled pack, top first (from g[stock_pos])
    pile        int8[C]               the discard pile, bottom first; g[pile_len] cards
    melds       int16[S, N_KINDS, 3]  per side and rank: MeldCol naturals, deuces, jokers
    meld_turn   int32[S, N_KINDS]     turn in which each meld was started (R-42, R-66)
    meld_flags  int8[S, N_KINDS]      MeldFlag bits per meld (concealed canasta, R-66)
    sides       int32[S, S_LEN]       side scalars (SideSlot)
    seats       int32[P, P_LEN]       seat scalars (SeatSlot)
    g           int64[G_LEN]          deal scalars (DealSlot)
    rng         uint64[1]             the deal's random stream (bots that randomise)
    hand_sizes  int16[P]              cards in each hand (running count of ``hands``)
    pile_counts int16[N_KINDS]        cards per kind in the discard pile (running count)
    melded      int16[N_KINDS]        cards per kind in all sides' melds (running count)
    known       int8[P, N_KINDS]      cards per kind every player knows to be in each hand: taken
                                      with the pile and not since melded or discarded (a lower
                                      bound: a meld or discard of a kind uses the known cards first)

The state holds the game and nothing else: the bots' working memory is a record of its own
(:data:`canasta_sim.nb.bots.memory.BOT_DTYPE`), and the search bot's work arrays are its own
(:mod:`canasta_sim.nb.bots.pimc`).

Why a record and not a tuple of arrays: numba passes a record as one pointer, but a tuple of
eleven arrays as about 95 machine words, which costs a deal about a third of its time in calls.

The running counts (``hand_sizes``, ``pile_counts``, ``melded``, and per side in ``sides`` its
canastas and the ranks it has melded, ``SideSlot.canastas`` and ``SideSlot.meld_ranks``) are
kept by every kernel that moves cards (dealing, drawing, taking the pile, melding, discarding),
because the bots read them every turn and recounting them would cost over a tenth of an expert
deal; :func:`recount_nb` sets them for a state built outside the kernels
(``Deal.from_position``), and :func:`canasta_sim.nb.engine.validate.check_state_nb` checks
them.

The stock never moves: dealing and drawing advance ``g[DealSlot.stock_pos]``, so ``stock``
stays the deck order of the whole deal (what a trace records).
"""

from typing import NamedTuple

import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..enums import (
    BLACK_THREE,
    DEUCE,
    G_LEN,
    JOKER,
    LAST_NATURAL,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_SIDES,
    N_KINDS,
    P_LEN,
    S_LEN,
    DealSlot,
    EventCol,
    MeldCol,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel

#: The deal state's record type (see the module docstring).
STATE_DTYPE = np.dtype(
    [
        ("hands", np.int8, (MAX_PLAYERS, N_KINDS)),
        ("stock", np.int8, (MAX_CARDS,)),
        ("pile", np.int8, (MAX_CARDS,)),
        ("melds", np.int16, (MAX_SIDES, N_KINDS, 3)),
        ("meld_turn", np.int32, (MAX_SIDES, N_KINDS)),
        ("meld_flags", np.int8, (MAX_SIDES, N_KINDS)),
        ("sides", np.int32, (MAX_SIDES, S_LEN)),
        ("seats", np.int32, (MAX_PLAYERS, P_LEN)),
        ("g", np.int64, (G_LEN,)),
        ("rng", np.uint64, (1,)),
        ("hand_sizes", np.int16, (MAX_PLAYERS,)),
        ("pile_counts", np.int16, (N_KINDS,)),
        ("melded", np.int16, (N_KINDS,)),
        ("known", np.int8, (MAX_PLAYERS, N_KINDS)),
    ],
    align=True,
)


class StateView(NamedTuple):
    """NumPy views of a state's fields cut to the table's size, for Python code that reads or
    writes them by name (dtypes and shapes as in the module docstring)."""

    hands: np.ndarray
    stock: np.ndarray
    pile: np.ndarray
    melds: np.ndarray
    meld_turn: np.ndarray
    meld_flags: np.ndarray
    sides: np.ndarray
    seats: np.ndarray
    g: np.ndarray
    rng: np.ndarray
    hand_sizes: np.ndarray
    pile_counts: np.ndarray
    melded: np.ndarray


def new_state():
    """A cleared deal state: a record of :data:`STATE_DTYPE` (``numpy.void``) that kernels
    change in place."""
    state = np.zeros(1, STATE_DTYPE)[0]
    reset_state_nb(state)
    return state


def state_view(state, rules) -> StateView:
    """The state's fields as views (changes go to ``state``), cut to the table's size.

    Parameters
    ----------
    state : record of STATE_DTYPE
    rules : ndarray(int32, (RULES_LEN,))
    """
    players = rules[RuleSlot.players]
    n_sides = rules[RuleSlot.sides]
    n_cards = rules[RuleSlot.n_cards]
    return StateView(
        hands=state["hands"][:players],
        stock=state["stock"][:n_cards],
        pile=state["pile"][:n_cards],
        melds=state["melds"][:n_sides],
        meld_turn=state["meld_turn"][:n_sides],
        meld_flags=state["meld_flags"][:n_sides],
        sides=state["sides"][:n_sides],
        seats=state["seats"][:players],
        g=state["g"],
        rng=state["rng"],
        hand_sizes=state["hand_sizes"][:players],
        pile_counts=state["pile_counts"],
        melded=state["melded"],
    )


@kernel
def reset_state_nb(state):
    """Clear every field of a state in place so it can hold a new deal (no allocation); the
    state may come from ``np.empty``."""
    state.hands[:] = 0
    state.stock[:] = 0
    state.pile[:] = 0
    state.melds[:] = 0
    state.meld_turn[:] = -1
    state.meld_flags[:] = 0
    state.sides[:] = 0
    state.sides[:, SideSlot.canasta_turn_1 : SideSlot.canasta_turn_3 + 1] = -1
    state.seats[:] = -1
    state.rng[:] = 0
    state.hand_sizes[:] = 0
    state.pile_counts[:] = 0
    state.melded[:] = 0
    state.known[:] = 0
    g = state.g
    g[:] = 0
    g[DealSlot.first_canasta_turn] = -1
    g[DealSlot.out_seat] = -1


@intrinsic
def copy_state_nb(typingctx, dst, src):
    """``dst = src`` for two records of one dtype (``STATE_DTYPE``): one ``memcpy`` of the
    whole record. numba has no record-to-record assignment, and copying field by field and
    element by element took a rollout 1.4 us (about a tenth of a mid-deal 4-player rollout).
    Typed only for two records of the same record type."""
    if not (isinstance(dst, types.Record) and dst == src):
        return None

    def codegen(context, builder, signature, args):
        size = context.get_constant(types.intp, dst.size)
        cgutils.raw_memcpy(builder, args[0], args[1], size, 1)
        return context.get_dummy_value()

    return types.void(dst, src), codegen


@kernel
def recount_nb(state, rules):
    """Set the running counts (``hand_sizes``, ``pile_counts``, ``melded``, and the sides'
    ``SideSlot.canastas`` and ``SideSlot.meld_ranks``) from ``hands``, ``pile`` and ``melds``,
    for a state whose cards were written from Python (``Deal.from_position``).

    Parameters
    ----------
    state : record of STATE_DTYPE
        Changed in place.
    rules : ndarray(int32, (RULES_LEN,))
    """
    hands, pile, melds, sides, g = state.hands, state.pile, state.melds, state.sides, state.g
    state.hand_sizes[:] = 0
    state.pile_counts[:] = 0
    state.melded[:] = 0
    for p in range(rules[RuleSlot.players]):
        for k in range(N_KINDS):
            state.hand_sizes[p] += hands[p, k]
    for i in range(g[DealSlot.pile_len]):
        state.pile_counts[pile[i]] += 1
    for s in range(rules[RuleSlot.sides]):
        sides[s, SideSlot.canastas] = 0
        sides[s, SideSlot.meld_ranks] = 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            size = (
                melds[s, r, MeldCol.naturals]
                + melds[s, r, MeldCol.deuces]
                + melds[s, r, MeldCol.jokers]
            )
            if size > 0:
                sides[s, SideSlot.meld_ranks] |= 1 << r
            if size >= 7 and r != BLACK_THREE:
                sides[s, SideSlot.canastas] += 1
            state.melded[r] += melds[s, r, MeldCol.naturals]
            state.melded[DEUCE] += melds[s, r, MeldCol.deuces]
            state.melded[JOKER] += melds[s, r, MeldCol.jokers]


@inline_kernel
def forget_known_nb(known, kind, used):
    """``used`` cards of ``kind`` left a hand: every player still knows of ``known[kind]``
    less ``used`` (at least 0) of them, since the cards taken with the pile may be those that
    left."""
    known[kind] = known[kind] - used if known[kind] > used else 0


@inline_kernel
def log_event_nb(g, log, etype, seat, kind, nat, deuces, jokers, extra):
    """Append one trace event (an :data:`~canasta_sim.nb.enums.Event`) to ``log``
    (``int32[max_events, EV_LEN]``, columns :data:`~canasta_sim.nb.enums.EventCol`); no-op if
    it has no rows, which is how bulk runs record nothing."""
    i = g[DealSlot.n_events]
    if i < log.shape[0]:
        log[i, EventCol.type] = etype
        log[i, EventCol.seat] = seat
        log[i, EventCol.move] = g[DealSlot.move]
        log[i, EventCol.kind] = kind
        log[i, EventCol.nat] = nat
        log[i, EventCol.deuce] = deuces
        log[i, EventCol.joker] = jokers
        log[i, EventCol.extra] = extra
        g[DealSlot.n_events] = i + 1
