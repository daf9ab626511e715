"""Candidate moves shared by the bots: the legal ways to take the pile and the legal single
melds. Each candidate is validated by the move kernels' own checks."""

import numpy as np

from ..engine.melds import check_plan_nb, meld_size_nb
from ..engine.moves import check_take_nb, pile_top_nb
from ..jit import inline_kernel, kernel
from ..layout import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    G_PILE_FREEZE,
    G_PILE_LEN,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    OK,
    R_SIDE_OF,
    S_MELDED,
)
from .plans import black_three_plan_nb, clear_plan_nb, fill_plan_nb


@inline_kernel
def pile_incoming_nb(state):
    g = state.g
    return max(g[G_PILE_LEN] - 1, 0)  # upper bound: red threes in it are laid out


@kernel
def pickup_candidates_nb(state, rules, seat, cands):
    """Write the legal ways to take the pile into ``cands[0..n)`` and return ``n``: the top
    card onto the side's meld, with a natural pair, with one natural and a deuce or a joker;
    a side without its initial meld adds its best melds from hand (R-64).

    Kernels pass the state's scratch rows as ``scratch[:]``, typed as a plain array like the
    ``Deal`` API's own ``cands``, so numba compiles this kernel once for both."""
    hands, melds, sides, g = state.hands, state.melds, state.sides, state.g
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return 0
    side = rules[R_SIDE_OF + seat]
    nat = hands[seat, top]
    frozen = g[G_PILE_FREEZE] > 0 or sides[side, S_MELDED] == 0
    if nat < 2 and (frozen or (nat == 0 and meld_size_nb(melds, side, top) == 0)):
        return 0  # the common case, settled without building a plan
    n = 0
    for way in range(4):
        if way == 0 and meld_size_nb(melds, side, top) == 0:
            continue
        if (way == 1 and nat < 2) or (way >= 2 and (nat < 1 or frozen)):
            continue
        if (way == 2 and hands[seat, DEUCE] == 0) or (way == 3 and hands[seat, JOKER] == 0):
            continue
        plan = cands[n]
        clear_plan_nb(plan)
        if way == 1:
            plan[top, M_NATURALS] = 2
        elif way == 2:
            plan[top, M_NATURALS] = 1
            plan[top, M_DEUCES] = 1
        elif way == 3:
            plan[top, M_NATURALS] = 1
            plan[top, M_JOKERS] = 1
        if sides[side, S_MELDED] == 0:
            fill_plan_nb(
                state, rules, seat, plan, top, pile_incoming_nb(state), np.int64(2), np.bool_(True)
            )
        err, out, conc = check_take_nb(state, rules, seat, plan)
        if err == OK:
            n += 1
    return n


@inline_kernel
def meld_candidates_nb(state, rules, seat, cands):
    """Write legal single meld moves into ``cands[0..n)`` and return ``n``: per rank, all
    naturals onto (or as) a meld, a meld of two naturals and a wild, one wild onto a meld; black
    threes when going out. Before the initial meld, one candidate: the best combined melds."""
    hands, melds, sides = state.hands, state.melds, state.sides
    side = rules[R_SIDE_OF + seat]
    hand = hands[seat]
    n = 0
    if sides[side, S_MELDED] == 0:
        clear_plan_nb(cands[0])
        fill_plan_nb(
            state, rules, seat, cands[0], np.int64(-1), np.int64(0), np.int64(2), np.bool_(True)
        )
        err, out, conc = check_plan_nb(state, rules, seat, cands[0], np.int64(-1), np.int64(0))
        return 1 if err == OK else 0
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        has_meld = meld_size_nb(melds, side, r) > 0
        for way in range(3):  # 0: the naturals; 1: a deuce; 2: a joker
            if n >= cands.shape[0]:
                return n
            if way > 0 and not has_meld and hand[r] < 2:
                continue
            if way == 0 and hand[r] < (1 if has_meld else 3):
                continue  # a new meld needs three naturals here
            if (way == 1 and hand[DEUCE] == 0) or (way == 2 and hand[JOKER] == 0):
                continue  # no such wild card in hand
            plan = cands[n]
            clear_plan_nb(plan)
            if way == 0 or not has_meld:
                plan[r, M_NATURALS] = hand[r]
            if way == 1:
                plan[r, M_DEUCES] = 1
            elif way == 2:
                plan[r, M_JOKERS] = 1
            err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
            if err == OK:
                n += 1
    if n < cands.shape[0] and hand[BLACK_THREE] >= 3:
        clear_plan_nb(cands[n])
        black_three_plan_nb(hand, cands[n])
        fill_plan_nb(
            state, rules, seat, cands[n], np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
        )
        err, out, conc = check_plan_nb(state, rules, seat, cands[n], np.int64(-1), np.int64(0))
        if err == OK:
            n += 1
    return n
