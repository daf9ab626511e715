"""Building meld plans from a hand: the candidate moves bots choose among.

Builders only propose; every plan is validated by :func:`melds.check_plan_nb` (through the move
kernels) before it is played.
"""

import numpy as np

from ..engine.melds import meld_ok_nb
from ..jit import inline_kernel, kernel
from ..layout import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    R_SIDE_OF,
)


@kernel
def clear_plan_nb(plan):
    for r in range(N_KINDS):
        for c in range(3):
            plan[r, c] = 0


@inline_kernel
def plan_size_nb(plan):
    n = 0
    for r in range(N_KINDS):
        n += plan[r, M_NATURALS] + plan[r, M_DEUCES] + plan[r, M_JOKERS]
    return n


@kernel
def wilds_left_nb(hand, plan):
    """Deuces and jokers of ``hand`` not yet used by ``plan``."""
    d = hand[DEUCE]
    j = hand[JOKER]
    for r in range(N_KINDS):
        d -= plan[r, M_DEUCES]
        j -= plan[r, M_JOKERS]
    return d, j


@kernel
def add_pair_with_wild_nb(plan, r, deuces, jokers, jokers_first):
    """Plan a new meld of two naturals of rank ``r`` and one wild card (R-60): a joker if
    ``jokers_first`` and one is left, else a deuce if one is left. ``deuces + jokers`` must be
    positive. Returns the wild cards left, ``(deuces, jokers)``."""
    plan[r, M_NATURALS] += 2
    if (jokers_first and jokers > 0) or deuces == 0:
        plan[r, M_JOKERS] += 1
        return deuces, jokers - 1
    plan[r, M_DEUCES] += 1
    return deuces - 1, jokers


@inline_kernel
def row_total_nb(melds, side, plan, r, top):
    """Cards the side's meld of rank ``r`` would hold after ``plan`` (and ``top``)."""
    t = 1 if r == top else 0
    n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS] + t
    d = melds[side, r, M_DEUCES] + plan[r, M_DEUCES]
    j = melds[side, r, M_JOKERS] + plan[r, M_JOKERS]
    return n, d, j


@kernel
def fill_plan_nb(state, rules, seat, plan, top, incoming, keep, use_wilds):
    """Add to ``plan`` (mutated) what the rest of the hand can meld, most points first.

    Extends the side's melds (and rows already in the plan) with naturals, starts new melds
    of 3+ naturals, then (if ``use_wilds``) new melds of 2 naturals and a wild and spare wild
    cards on the melds, jokers first. Stops short of leaving fewer than ``keep`` cards in hand
    (``incoming``: cards that reach the hand in the same move). ``top`` is a pile card melded in
    the same move, or -1. Returns the cards the hand keeps after the plan, ``incoming``
    included.
    """
    hands, melds = state.hands, state.melds
    hand = hands[seat]
    side = rules[R_SIDE_OF + seat]
    left = state.hand_sizes[seat] - plan_size_nb(plan) + incoming
    # naturals onto melds that exist (on the table or in the plan), then new natural melds;
    # without branches, which followed the hand's counts
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, M_NATURALS]
        n, d, j = row_total_nb(melds, side, plan, r, top)
        take = (spare > 0) & (left - spare >= keep) & ((n + d + j > 0) | (spare >= 3))
        spare = spare if take else 0
        plan[r, M_NATURALS] += spare
        left -= spare
    if not use_wilds:
        return left
    deuces, jokers = wilds_left_nb(hand, plan)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, M_NATURALS]
        n, d, j = row_total_nb(melds, side, plan, r, top)
        if n + d + j == 0 and spare == 2 and deuces + jokers > 0 and left - 3 >= keep:
            deuces, jokers = add_pair_with_wild_nb(plan, r, deuces, jokers, np.bool_(True))
            left -= 3
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        while deuces + jokers > 0 and left - 1 >= keep:
            n, d, j = row_total_nb(melds, side, plan, r, top)
            if n + d + j == 0:
                break
            if jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
                plan[r, M_JOKERS] += 1
                jokers -= 1
            elif deuces > 0 and meld_ok_nb(n, d + 1, j, rules):
                plan[r, M_DEUCES] += 1
                deuces -= 1
            else:
                break
            left -= 1
    return left


@kernel
def black_three_plan_nb(hand, plan):
    """Put all black threes of ``hand`` in ``plan`` (legal only when going out, R-63)."""
    if hand[BLACK_THREE] >= 3:
        plan[BLACK_THREE, M_NATURALS] = hand[BLACK_THREE]
