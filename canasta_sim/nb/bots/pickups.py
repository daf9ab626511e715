"""Taking the discard pile: cheap tests, the bots' pickups and the pickup R-44 forces with the
stock empty; the ways to take it are :func:`~canasta_sim.nb.plans.pickup_candidates_nb` (shared
with the candidate layer). Every pickup is checked by
:func:`~canasta_sim.nb.engine.moves.check_take_nb` (through ``take_pile_nb``)."""

import numpy as np

from ..engine.melds import meld_size_nb
from ..engine.moves import draw_nb, pile_top_nb, take_pile_nb
from ..enums import (
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    DealSlot,
    MeldCol,
    MoveError,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..plans import clear_plan_nb, initial_plan_nb, pickup_candidates_nb


@inline_kernel
def take_possible_nb(state, rules, seat, meld_pile, pair_pile, wild_pile):
    """Cheap test before :func:`try_take_nb`: the top card is a natural and the hand (or an
    open pile onto the side's meld) could take a pile of this size."""
    hands, pile, melds, sides, g = state.hands, state.pile, state.melds, state.sides, state.g
    plen = g[DealSlot.pile_len]
    if plen == 0:
        return False
    top = pile[plen - 1]
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return False
    n = hands[seat, top]
    if n >= 2 and plen >= pair_pile:
        return True
    side = rules[RuleSlot.side_of + seat]
    if g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0:
        return False
    if meld_size_nb(melds, side, top) > 0:
        # a pair too small for pair_pile may still go onto the meld (meld_pile below pair_pile)
        return plen >= meld_pile
    return n == 1 and plen >= wild_pile and hands[seat, DEUCE] + hands[seat, JOKER] > 0


@kernel
def try_take_nb(state, rules, bot, log, meld_pile, pair_pile, wild_pile):
    """Take the discard pile if it can be done cheaply (R-30..R-35): the top card onto the side's
    meld (an open pile, at least ``meld_pile`` cards), with all natural cards of its rank in
    hand, two or more (at least ``pair_pile`` cards), or, on an open pile of at least
    ``wild_pile`` cards, with one natural and one wild card (a deuce before a joker). A side
    without its initial meld adds melds from hand to reach its minimum (R-64). Cheap
    pre-checks come first; one plan is built and checked once. Returns True if it took the
    pile."""
    hands, melds, sides, g = state.hands, state.melds, state.sides, state.g
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return False
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    hand = hands[seat]
    n = hand[top]
    plen = g[DealSlot.pile_len]
    melded = sides[side, SideSlot.melded] != 0
    frozen = g[DealSlot.pile_freeze] > 0 or not melded
    plan = bot.take_plan[:]
    if not frozen and meld_size_nb(melds, side, top) > 0 and plen >= meld_pile:
        clear_plan_nb(plan)
    elif n >= 2:
        if plen < pair_pile:
            return False
        clear_plan_nb(plan)
        plan[top, MeldCol.naturals] = n
    elif not frozen and n == 1 and hand[DEUCE] + hand[JOKER] > 0 and plen >= wild_pile:
        clear_plan_nb(plan)
        plan[top, MeldCol.naturals] = 1
        if hand[DEUCE] > 0:
            plan[top, MeldCol.deuces] = 1
        else:
            plan[top, MeldCol.jokers] = 1
    else:
        return False
    if not melded:
        initial_plan_nb(state, rules, seat, plan, top, plen - 1, np.int64(2))
    return take_pile_nb(state, rules, plan, log) == MoveError.ok


@kernel
def take_forced_pile_nb(state, rules, bot, log):
    """R-44: the stock is empty and the player must take the pile: the top card onto the side's
    meld, or else the first legal way (:func:`pickup_candidates_nb`)."""
    g = state.g
    plan = bot.take_plan[:]
    clear_plan_nb(plan)
    if take_pile_nb(state, rules, plan, log) == MoveError.ok:
        return
    if pickup_candidates_nb(state, rules, g[DealSlot.current], bot.candidates[:]) > 0:
        take_pile_nb(state, rules, bot.candidates[0], log)


@inline_kernel
def draw_or_take_forced_nb(state, rules, bot, log):
    """Draw from the stock; when R-44 forces a pickup instead, take the pile
    (:func:`take_forced_pile_nb`)."""
    if draw_nb(state, rules, log) != MoveError.ok:
        take_forced_pile_nb(state, rules, bot, log)
