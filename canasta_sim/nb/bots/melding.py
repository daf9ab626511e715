"""Melding decisions the policies share: cheap tests on the hand, going out, and the legal
single melds a random player chooses among."""

import numpy as np

from ..engine.melds import check_plan_nb, meld_size_nb
from ..engine.moves import meld_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    NATURAL_RANKS,
    DealSlot,
    MeldCol,
    MoveError,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..plans import black_three_plan_nb, clear_plan_nb, fill_plan_nb, out_plan_nb


@inline_kernel
def out_blocked_nb(hand, meld_ranks):
    """Cheap test that a hand surely cannot go out this turn: more than one card that no meld
    can take (single cards of ranks the side has not melded, bit ``r`` of ``meld_ranks`` set
    for a melded rank ``r``; one or two black threes; natural pairs without a wild card for
    them, R-40, R-41)."""
    stuck = hand[BLACK_THREE] if hand[BLACK_THREE] < 3 else 0
    pairs = 0
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        # counted without branches: hand counts are too irregular to predict
        c = hand[r]
        free = (meld_ranks >> r) & 1 == 0
        stuck += (c == 1) & free
        pairs += (c == 2) & free
    short = pairs - hand[DEUCE] - hand[JOKER]
    if short > 0:
        stuck += 2 * short
    return stuck > 1


@inline_kernel
def meld_material_nb(hand, meld_ranks):
    """Cheap test that the hand holds something to meld: three naturals of a rank, a natural
    pair and a wild card, or a natural or wild card for one of the side's melds (bit ``r`` of
    ``meld_ranks`` set for a melded rank ``r``)."""
    # counted without branches over all ranks: the early exits were mispredicted
    triple = False
    pair = False
    on_meld = False
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[r]
        triple |= c >= 3
        pair |= c >= 2
        on_meld |= (c > 0) & ((meld_ranks >> r) & 1 != 0)
    if hand[DEUCE] + hand[JOKER] > 0:
        return triple or pair or meld_ranks & NATURAL_RANKS != 0
    return triple or on_meld


@inline_kernel
def out_possible_nb(state, rules, seat):
    """Cheap test before :func:`can_go_out_nb`, false when ``seat`` surely cannot go out this
    turn: its side lacks more than the one canasta a meld may complete (R-40), or the hand is
    blocked (:func:`out_blocked_nb`). Inlined, it spares most turns a call."""
    side = rules[RuleSlot.side_of + seat]
    if state.sides[side, SideSlot.canastas] + 1 < rules[RuleSlot.canastas_to_go_out]:
        return False
    return not out_blocked_nb(state.hands[seat], state.sides[side, SideSlot.meld_ranks])


@kernel
def can_go_out_nb(state, rules, bot, seat):
    """Whether ``seat`` could meld out (or down to a final discard) right now; the plan that
    does is left in ``bot.out_plan``."""
    if not out_possible_nb(state, rules, seat):
        return False
    plan = bot.out_plan[:]
    out_plan_nb(state, rules, seat, plan)
    err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
    return err == MoveError.ok and out


@inline_kernel
def try_go_out_nb(state, rules, bot, log):
    """Meld out (or down to the final discard) if the rules allow it now (R-40, R-41).
    The plan is the one :func:`can_go_out_nb` builds in ``bot.out_plan``. Returns True if
    it melded."""
    g = state.g
    seat = g[DealSlot.current]
    if can_go_out_nb(state, rules, bot, seat):
        return meld_nb(state, rules, bot.out_plan[:], log) == MoveError.ok
    return False


@inline_kernel
def meld_candidates_nb(state, rules, seat, cands):
    """Write legal single meld moves into ``cands[0..n)`` and return ``n``: per rank, all
    naturals onto (or as) a meld, a meld of two naturals and a wild, one wild onto a meld; black
    threes when going out. Before the initial meld, one candidate: the best combined melds."""
    hands, melds, sides = state.hands, state.melds, state.sides
    side = rules[RuleSlot.side_of + seat]
    hand = hands[seat]
    n = 0
    if sides[side, SideSlot.melded] == 0:
        clear_plan_nb(cands[0])
        fill_plan_nb(
            state, rules, seat, cands[0], np.int64(-1), np.int64(0), np.int64(2), np.bool_(True)
        )
        err, out, conc = check_plan_nb(state, rules, seat, cands[0], np.int64(-1), np.int64(0))
        return 1 if err == MoveError.ok else 0
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
                plan[r, MeldCol.naturals] = hand[r]
            if way == 1:
                plan[r, MeldCol.deuces] = 1
            elif way == 2:
                plan[r, MeldCol.jokers] = 1
            err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
            if err == MoveError.ok:
                n += 1
    if n < cands.shape[0] and hand[BLACK_THREE] >= 3:
        clear_plan_nb(cands[n])
        black_three_plan_nb(hand, cands[n])
        fill_plan_nb(
            state, rules, seat, cands[n], np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
        )
        err, out, conc = check_plan_nb(state, rules, seat, cands[n], np.int64(-1), np.int64(0))
        if err == MoveError.ok:
            n += 1
    return n
