"""Bot policies inside the kernels: one turn of play chosen by an integer policy code.

Policies never call each other through function objects (numba would recompile jitted
callbacks in every process); :func:`play_turn_nb` branches on the seat's policy code and passes
the seat's float parameters. Every move goes through the checked move kernels.
"""

import numba as nb

from .layout import (
    BLACK_THREE, FIRST_NATURAL, G_CURRENT, G_LAST_RED_THREE, G_PHASE, G_PILE_LEN,
    G_STOCK_POS, LAST_NATURAL, M_DEUCES, M_JOKERS, M_NATURALS, N_KINDS, OK, PHASE_DRAW, PHASE_PLAY,
    R_N_CARDS, R_SIDES, S_MELDED,
)
from .melds import check_plan_nb, meld_size_nb
from .moves import (
    check_take_nb, discard_nb, draw_nb, end_turn_nb, forced_take_nb, meld_nb, pile_top_nb,
    take_pile_nb,
)
from .plans import black_three_plan_nb, clear_plan_nb, fill_plan_nb
from .rng import below_nb

POLICY_RANDOM = 0

MAX_CANDIDATES = 40  # rows of the state's scratch array


# --- candidate moves (shared by policies) -----------------------------------------------------
@nb.njit(cache=True)
def pile_incoming_nb(state):
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    return max(g[G_PILE_LEN] - 1, 0)  # upper bound: red threes in it are laid out


@nb.njit(cache=True)
def pickup_candidates_nb(state, rules, seat, cands):
    """Write the legal ways to take the pile into ``cands[0..n)`` and return ``n``: the top
    card onto the side's meld, with a natural pair, with one natural and a deuce or a joker;
    a side without its initial meld adds its best melds from hand (R-64)."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return 0
    side = seat % rules[R_SIDES]
    n = 0
    for way in range(4):
        plan = cands[n]
        clear_plan_nb(plan)
        if way == 0 and meld_size_nb(melds, side, top) == 0:
            continue
        if way == 1:
            plan[top, M_NATURALS] = 2
        elif way == 2:
            plan[top, M_NATURALS] = 1
            plan[top, M_DEUCES] = 1
        elif way == 3:
            plan[top, M_NATURALS] = 1
            plan[top, M_JOKERS] = 1
        if sides[side, S_MELDED] == 0:
            fill_plan_nb(state, rules, seat, plan, top, pile_incoming_nb(state), 2, True)
        err, out, conc = check_take_nb(state, rules, seat, plan)
        if err == OK:
            n += 1
    return n


@nb.njit(cache=True)
def meld_candidates_nb(state, rules, seat, cands):
    """Write legal single meld moves into ``cands[0..n)`` and return ``n``: per rank, all
    naturals onto (or as) a meld, a meld of two naturals and a wild, one wild onto a meld; black
    threes when going out. Before the initial meld, one candidate: the best combined melds."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    side = seat % rules[R_SIDES]
    hand = hands[seat]
    n = 0
    if sides[side, S_MELDED] == 0:
        clear_plan_nb(cands[0])
        fill_plan_nb(state, rules, seat, cands[0], -1, 0, 2, True)
        err, out, conc = check_plan_nb(state, rules, seat, cands[0], -1, 0)
        return 1 if err == OK else 0
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        has_meld = meld_size_nb(melds, side, r) > 0
        for way in range(3):  # 0: the naturals; 1: a deuce; 2: a joker
            if n >= cands.shape[0]:
                return n
            if way > 0 and not has_meld and hand[r] < 2:
                continue
            if way == 0 and hand[r] == 0:
                continue
            plan = cands[n]
            clear_plan_nb(plan)
            if way == 0 or not has_meld:
                plan[r, M_NATURALS] = hand[r]
            if way == 1:
                plan[r, M_DEUCES] = 1
            elif way == 2:
                plan[r, M_JOKERS] = 1
            err, out, conc = check_plan_nb(state, rules, seat, plan, -1, 0)
            if err == OK:
                n += 1
    if n < cands.shape[0] and hand[BLACK_THREE] >= 3:
        clear_plan_nb(cands[n])
        black_three_plan_nb(hand, cands[n])
        fill_plan_nb(state, rules, seat, cands[n], -1, 0, 0, True)
        err, out, conc = check_plan_nb(state, rules, seat, cands[n], -1, 0)
        if err == OK:
            n += 1
    return n


# --- the random policy ------------------------------------------------------------------
@nb.njit(cache=True)
def random_draw_nb(state, rules, log):
    """Uniform over {draw} and the legal ways to take the pile (R-44 may remove the draw)."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    seat = g[G_CURRENT]
    n = pickup_candidates_nb(state, rules, seat, scratch)
    may_draw = not (g[G_STOCK_POS] >= rules[R_N_CARDS] and forced_take_nb(state, rules, seat))
    choice = below_nb(rng, n + (1 if may_draw else 0))
    if choice < n:
        take_pile_nb(state, rules, scratch[choice], log)
    else:
        draw_nb(state, rules, log)


@nb.njit(cache=True)
def random_melds_nb(state, rules, log):
    """Repeatedly pick uniformly among the legal single meld moves and stopping."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    seat = g[G_CURRENT]
    while g[G_PHASE] == PHASE_PLAY:
        n = meld_candidates_nb(state, rules, seat, scratch)
        choice = below_nb(rng, n + 1)
        if choice == n:
            return
        meld_nb(state, rules, scratch[choice], log)


@nb.njit(cache=True)
def random_discard_nb(state, rules, log):
    """Uniform over the kinds in hand; R-45 ends the deal without a discard."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    if g[G_LAST_RED_THREE] != 0:
        end_turn_nb(state, rules, log)
        return
    hand = hands[g[G_CURRENT]]
    kinds = 0
    for k in range(N_KINDS):
        if hand[k] > 0:
            kinds += 1
    pick = below_nb(rng, kinds)
    for k in range(N_KINDS):
        if hand[k] > 0:
            if pick == 0:
                discard_nb(state, rules, k, log)
                return
            pick -= 1


# --- dispatch ---------------------------------------------------------------------------
@nb.njit(cache=True)
def play_turn_nb(state, rules, policies, params, log):
    """Play the current player's whole turn with their policy (``policies``: int32[players]
    codes, ``params``: float64[players, n_params])."""
    hands, stock, pile, melds, meld_turn, concealed, sides, seats, g, rng, scratch = state
    if g[G_PHASE] == PHASE_DRAW:
        random_draw_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        random_melds_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        random_discard_nb(state, rules, log)
