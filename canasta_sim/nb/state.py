"""Deal state as a tuple of small fixed-shape arrays, and the start of a deal (R-10..R-16).

The state tuple, in order (``P`` players, ``S`` sides, ``C`` cards in the pack)::

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

The stock never moves: dealing and drawing advance ``g[G_STOCK_POS]``, so ``stock`` stays the
deck order of the whole deal (what a trace records).
"""

import numba as nb
import numpy as np

from .jit import inline_kernel, kernel
from .layout import (
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
    N_KINDS,
    P_LEN,
    R_DEAL_SIZE,
    R_N_CARDS,
    R_PLAYERS,
    R_RED_THREE_UPCARD_FREEZES,
    R_SIDES,
    R_UPCARD_COVERS_BLACK_THREE,
    RED_THREE,
    S_LEN,
    S_MINIMUM,
    S_R3_DEALT,
    S_R3_DRAWN,
    SCRATCH_ROWS,
    SOURCE_DEALT,
    SOURCE_DRAWN,
)
from .rng import below_nb


@nb.njit(cache=True)
def new_state_nb(rules):
    """Allocate an empty state tuple for ``rules`` (``int32[RULES_LEN]``)."""
    players = rules[R_PLAYERS]
    sides = rules[R_SIDES]
    n_cards = rules[R_N_CARDS]
    return (
        np.zeros((players, N_KINDS), np.int8),
        np.zeros(n_cards, np.int8),
        np.zeros(n_cards, np.int8),
        np.zeros((sides, N_KINDS, 3), np.int16),
        np.full((sides, N_KINDS), -1, np.int32),
        np.zeros((sides, N_KINDS), np.int8),
        np.zeros((sides, S_LEN), np.int32),
        np.full((players, P_LEN), -1, np.int32),
        np.zeros(G_LEN, np.int64),
        np.zeros(1, np.uint64),
        np.zeros((SCRATCH_ROWS, N_KINDS, 3), np.int8),
    )


@kernel
def reset_state_nb(state):
    """Clear a state tuple in place so it can hold a new deal (no allocation)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    hands[:] = 0
    melds[:] = 0
    meld_turn[:] = -1
    meld_flags[:] = 0
    sides[:] = 0
    seats[:] = -1
    g[:] = 0
    g[G_FIRST_CANASTA_TURN] = -1
    g[G_OUT_SEAT] = -1


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


@kernel
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


@kernel
def shuffle_nb(stock, rng):
    """Fisher-Yates shuffle of ``stock`` in place, drawing from ``rng``."""
    for i in range(stock.shape[0] - 1, 0, -1):
        j = below_nb(rng, i + 1)
        stock[i], stock[j] = stock[j], stock[i]


@kernel
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
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    n_cards = rules[R_N_CARDS]
    while g[G_STOCK_POS] < n_cards:
        kind = stock[g[G_STOCK_POS]]
        g[G_STOCK_POS] += 1
        pile[g[G_PILE_LEN]] = kind
        g[G_PILE_LEN] += 1
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
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    side = seat % rules[R_SIDES]
    dealt = hands[seat, RED_THREE]
    hands[seat, RED_THREE] = 0
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
                break
            sides[side, S_R3_DRAWN] += 1
            log_event_nb(g, log, E_RED_THREE, seat, RED_THREE, 0, 0, 0, SOURCE_DRAWN)


@kernel
def start_deal_nb(state, rules, seed, dealer, minimums, log):
    """Shuffle, deal, turn the upcard and replace red threes (R-10..R-16).

    Parameters
    ----------
    state : tuple
        A state tuple from :func:`new_state_nb`, overwritten.
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
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    reset_state_nb(state)
    players = rules[R_PLAYERS]
    rng[0] = seed
    fill_pack_nb(stock, rules[R_N_CARDS])
    shuffle_nb(stock, rng)
    for s in range(rules[R_SIDES]):
        sides[s, S_MINIMUM] = minimums[s]
    g[G_DEALER] = dealer
    for i in range(rules[R_DEAL_SIZE] * players):
        seat = (dealer + 1 + i) % players
        hands[seat, stock[i]] += 1
    g[G_STOCK_POS] = rules[R_DEAL_SIZE] * players
    turn_upcard_nb(state, rules, log)
    for i in range(players):
        replace_red_threes_nb(state, rules, (dealer + 1 + i) % players, log)
    g[G_CURRENT] = (dealer + 1) % players
