"""Deal state as one record of small fixed-shape arrays, and the start of a deal (R-10..R-16).

The state is one record of :data:`STATE_DTYPE` (a NumPy structured scalar). Kernels receive it
as a single pointer and read the fields they need as array views (``state.g``, ...). Every
field is sized for the largest table (6 players, 3 sides, 162 cards); kernels use the first
``players``, ``sides`` and ``n_cards`` rows that ``rules`` gives. The fields (``P`` players,
``S`` sides, ``C`` cards in the pack)::

    hands      int8[P, N_KINDS]     cards in each hand (count arrays)
    stock      int8[C]              the shuffled pack, top first; g[G_STOCK_POS] is the top
    pile       int8[C]              the discard pile, bottom first; g[G_PILE_LEN] cards
    melds      int16[S, N_KINDS, 3] per side and rank: naturals, deuces, jokers
    meld_turn  int32[S, N_KINDS]    turn in which each meld was started (R-42, R-66)
    meld_flags int8[S, N_KINDS]     FLAG_* bits per meld (concealed canasta, R-66)
    sides      int32[S, S_LEN]      side scalars (layout.S_*)
    seats      int32[P, P_LEN]      seat scalars (layout.P_*)
    g          int64[G_LEN]         deal scalars (layout.G_*)
    rng        uint64[1]            the deal's random stream (bots that randomise)
    scratch    int8[SCRATCH_ROWS, N_KINDS, 3]  candidate meld plans built by bots
    powers     float64[MAX_POWERS]  powers of one probability, for bots' odds (see careful)
    hand_sizes  int16[P]            cards in each hand (running count of ``hands``)
    pile_counts int16[N_KINDS]      cards per kind in the discard pile (running count of ``pile``)
    melded      int16[N_KINDS]      cards per kind in all sides' melds (running count of ``melds``)
    zero_plan   int8[N_KINDS, 3]    a plan that is always empty (the pickup onto a meld, R-44)

Why a record and not a tuple of arrays: numba passes a record as one pointer, but a tuple of
eleven arrays as about 95 machine words, which cost a deal about a third of its time in calls.

The running counts (``hand_sizes``, ``pile_counts``, ``melded``, and per side in ``sides`` its
canastas and the ranks it has melded, ``layout.S_CANASTAS`` and ``S_MELD_RANKS``) are
kept by every kernel that moves cards (dealing, drawing, taking the pile, melding, discarding),
because the bots read them every turn and recounting them was over a tenth of an expert deal;
:func:`recount_nb` sets them for a state built outside the kernels (``Deal.from_position``).

The stock never moves: dealing and drawing advance ``g[G_STOCK_POS]``, so ``stock`` stays the
deck order of the whole deal (what a trace records).
"""

import numpy as np

from ..jit import inline_kernel, kernel
from ..layout import (
    BLACK_THREE,
    DEUCE,
    E_DRAW,
    E_RED_THREE,
    E_UPCARD,
    EV_DEUCE,
    EV_EXTRA,
    EV_JOKER,
    EV_KIND,
    EV_MOVE,
    EV_NAT,
    EV_SEAT,
    EV_TYPE,
    G_CURRENT,
    G_DEALER,
    G_FIRST_CANASTA_TURN,
    G_FROZEN_AT_START,
    G_LEN,
    G_MOVE,
    G_N_EVENTS,
    G_OUT_SEAT,
    G_PILE_FREEZE,
    G_PILE_LEN,
    G_STOCK_POS,
    G_UPCARD_CARDS,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    P_LEN,
    R_DEAL_SIZE,
    R_N_CARDS,
    R_NEXT_SEAT,
    R_PLAYERS,
    R_RED_THREE_UPCARD_FREEZES,
    R_SIDE_OF,
    R_SIDES,
    R_UPCARD_COVERS_BLACK_THREE,
    RED_THREE,
    S_CANASTAS,
    S_LEN,
    S_MELD_RANKS,
    S_MINIMUM,
    S_R3_DEALT,
    S_R3_DRAWN,
    SCRATCH_ROWS,
    SOURCE_DEALT,
    SOURCE_DRAWN,
)
from .rng import below_nb

MAX_PLAYERS = 6
MAX_SIDES = 3
MAX_CARDS = 162
MAX_POWERS = 6 * (MAX_CARDS // 54) + 1  # exponents 0 .. the wild cards in the largest pack

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
        ("scratch", np.int8, (SCRATCH_ROWS, N_KINDS, 3)),
        ("powers", np.float64, (MAX_POWERS,)),
        ("hand_sizes", np.int16, (MAX_PLAYERS,)),
        ("pile_counts", np.int16, (N_KINDS,)),
        ("melded", np.int16, (N_KINDS,)),
        ("zero_plan", np.int8, (N_KINDS, 3)),
    ],
    align=True,
)


def new_state():
    """A cleared deal state: a record of :data:`STATE_DTYPE` (``numpy.void``) that kernels
    change in place."""
    state = np.zeros(1, STATE_DTYPE)[0]
    reset_state_nb(state)
    return state


def state_arrays(state, rules):
    """The state's fields as a tuple of NumPy views in the order of the module docstring, cut
    to the table's size (``rules``: ``int32[RULES_LEN]``), for Python code that reads them."""
    players, n_sides, n_cards = rules[R_PLAYERS], rules[R_SIDES], rules[R_N_CARDS]
    return (
        state["hands"][:players],
        state["stock"][:n_cards],
        state["pile"][:n_cards],
        state["melds"][:n_sides],
        state["meld_turn"][:n_sides],
        state["meld_flags"][:n_sides],
        state["sides"][:n_sides],
        state["seats"][:players],
        state["g"],
        state["rng"],
        state["scratch"],
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
    state.seats[:] = -1
    state.rng[:] = 0
    state.scratch[:] = 0
    state.powers[:] = 0.0
    state.hand_sizes[:] = 0
    state.pile_counts[:] = 0
    state.melded[:] = 0
    state.zero_plan[:] = 0
    g = state.g
    g[:] = 0
    g[G_FIRST_CANASTA_TURN] = -1
    g[G_OUT_SEAT] = -1


@kernel
def recount_nb(state, rules):
    """Set the running counts (``hand_sizes``, ``pile_counts``, ``melded``, and the sides'
    ``S_CANASTAS`` and ``S_MELD_RANKS``) from ``hands``, ``pile`` and ``melds``, for a state
    whose cards were written from Python (``Deal.from_position``).

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
    for p in range(rules[R_PLAYERS]):
        for k in range(N_KINDS):
            state.hand_sizes[p] += hands[p, k]
    for i in range(g[G_PILE_LEN]):
        state.pile_counts[pile[i]] += 1
    for s in range(rules[R_SIDES]):
        sides[s, S_CANASTAS] = 0
        sides[s, S_MELD_RANKS] = 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            size = melds[s, r, M_NATURALS] + melds[s, r, M_DEUCES] + melds[s, r, M_JOKERS]
            if size > 0:
                sides[s, S_MELD_RANKS] |= 1 << r
            if size >= 7 and r != BLACK_THREE:
                sides[s, S_CANASTAS] += 1
            state.melded[r] += melds[s, r, M_NATURALS]
            state.melded[DEUCE] += melds[s, r, M_DEUCES]
            state.melded[JOKER] += melds[s, r, M_JOKERS]


@inline_kernel
def log_event_nb(g, log, etype, seat, kind, nat, deuces, jokers, extra):
    """Append one trace event to ``log`` (``int32[max_events, EV_LEN]``); no-op if it has no
    rows, which is how bulk runs record nothing."""
    i = g[G_N_EVENTS]
    if i < log.shape[0]:
        log[i, EV_TYPE] = etype
        log[i, EV_SEAT] = seat
        log[i, EV_MOVE] = g[G_MOVE]
        log[i, EV_KIND] = kind
        log[i, EV_NAT] = nat
        log[i, EV_DEUCE] = deuces
        log[i, EV_JOKER] = jokers
        log[i, EV_EXTRA] = extra
        g[G_N_EVENTS] = i + 1


@inline_kernel
def fill_pack_nb(stock, n_cards):
    """Write the unshuffled pack into ``stock`` (R-01, R-02): per 54-card deck 2 red threes,
    2 black threes, 4 of each rank 4..A, 4 deuces, 2 jokers."""
    decks = n_cards // 54
    i = 0
    for kind in range(N_KINDS):
        n = 4 * decks
        if kind == RED_THREE or kind == BLACK_THREE or kind == JOKER:
            n = 2 * decks
        for _ in range(n):
            stock[i] = kind
            i += 1


@inline_kernel
def shuffle_nb(stock, n_cards, rng):
    """Fisher-Yates shuffle of the first ``n_cards`` cards of ``stock`` in place, drawing from
    ``rng``."""
    for i in range(n_cards - 1, 0, -1):
        j = below_nb(rng, i + 1)
        stock[i], stock[j] = stock[j], stock[i]


@inline_kernel
def is_upcard_cover_nb(kind, rules):
    """R-12: the pile's top card must be covered while it is one of these kinds."""
    if kind == DEUCE or kind == JOKER or kind == RED_THREE:
        return True
    return kind == BLACK_THREE and rules[R_UPCARD_COVERS_BLACK_THREE] != 0


@inline_kernel
def freezes_pile_nb(kind, rules):
    """R-13, R-24, R-31: a wild card (or a red three, by switch) in the pile freezes it."""
    if kind == DEUCE or kind == JOKER:
        return True
    return kind == RED_THREE and rules[R_RED_THREE_UPCARD_FREEZES] != 0


@kernel
def turn_upcard_nb(state, rules, log):
    """R-12, R-13: turn stock cards onto the pile until the top may start it."""
    stock, pile, g = state.stock, state.pile, state.g
    n_cards = rules[R_N_CARDS]
    while g[G_STOCK_POS] < n_cards:
        kind = stock[g[G_STOCK_POS]]
        g[G_STOCK_POS] += 1
        pile[g[G_PILE_LEN]] = kind
        g[G_PILE_LEN] += 1
        state.pile_counts[kind] += 1
        g[G_UPCARD_CARDS] += 1
        if freezes_pile_nb(kind, rules):
            g[G_PILE_FREEZE] += 1
        log_event_nb(g, log, E_UPCARD, -1, kind, 0, 0, 0, 0)
        if not is_upcard_cover_nb(kind, rules):
            break
    g[G_FROZEN_AT_START] = 1 if g[G_PILE_FREEZE] > 0 else 0


@kernel
def replace_red_threes_nb(state, rules, seat, log):
    """R-15: lay out the seat's dealt red threes and draw a replacement for each (a
    replacement red three is laid out, counted as drawn, and replaced in turn)."""
    hands, stock, sides, g = state.hands, state.stock, state.sides, state.g
    side = rules[R_SIDE_OF + seat]
    dealt = hands[seat, RED_THREE]
    hands[seat, RED_THREE] = 0
    state.hand_sizes[seat] -= dealt
    sides[side, S_R3_DEALT] += dealt
    for _ in range(dealt):
        log_event_nb(g, log, E_RED_THREE, seat, RED_THREE, 0, 0, 0, SOURCE_DEALT)
    for _ in range(dealt):
        while g[G_STOCK_POS] < rules[R_N_CARDS]:
            kind = stock[g[G_STOCK_POS]]
            g[G_STOCK_POS] += 1
            log_event_nb(g, log, E_DRAW, seat, kind, 0, 0, 0, 0)
            if kind != RED_THREE:
                hands[seat, kind] += 1
                state.hand_sizes[seat] += 1
                break
            sides[side, S_R3_DRAWN] += 1
            log_event_nb(g, log, E_RED_THREE, seat, RED_THREE, 0, 0, 0, SOURCE_DRAWN)


@kernel
def start_deal_nb(state, rules, seed, dealer, minimums, log):
    """Shuffle, deal, turn the upcard and replace red threes (R-10..R-16).

    Parameters
    ----------
    state : record of STATE_DTYPE
        A state from :func:`new_state`, overwritten.
    rules : ndarray(int32, (RULES_LEN,))
    seed : uint64
        The deal's seed (see :func:`rng.deal_seed_nb`).
    dealer : int
        Dealer's seat; the player to the left, ``(dealer + 1) % players``, plays first.
    minimums : ndarray(int32, (n_sides,))
        Each side's minimum count for this deal (points, R-64).
    log : ndarray(int32, (max_events, EV_LEN))
        Trace log; zero rows to record nothing.
    """
    hands, stock, sides, g, rng = state.hands, state.stock, state.sides, state.g, state.rng
    reset_state_nb(state)
    players = rules[R_PLAYERS]
    rng[0] = seed
    fill_pack_nb(stock, rules[R_N_CARDS])
    shuffle_nb(stock, rules[R_N_CARDS], rng)
    for s in range(rules[R_SIDES]):
        sides[s, S_MINIMUM] = minimums[s]
    g[G_DEALER] = dealer
    first = rules[R_NEXT_SEAT + dealer]
    seat = first
    for i in range(rules[R_DEAL_SIZE] * players):  # one card at a time, from the dealer's left
        hands[seat, stock[i]] += 1
        state.hand_sizes[seat] += 1
        seat = rules[R_NEXT_SEAT + seat]
    g[G_STOCK_POS] = rules[R_DEAL_SIZE] * players
    turn_upcard_nb(state, rules, log)
    for _ in range(players):
        replace_red_threes_nb(state, rules, seat, log)
        seat = rules[R_NEXT_SEAT + seat]
    g[G_CURRENT] = first
