"""The ``greedy`` policy: takes the pile whenever it legally can, melds everything it can at
once (going out as soon as it may), and discards its least useful card."""

import numpy as np

from ..engine.melds import check_plan_nb, meld_size_nb
from ..engine.moves import discard_nb, draw_nb, end_turn_nb, meld_nb, take_pile_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    N_KINDS,
    DealSlot,
    MoveError,
    Phase,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..plans import black_three_plan_nb, clear_plan_nb, fill_plan_nb
from .melding import out_blocked_nb
from .pickups import pickup_candidates_nb


@inline_kernel
def greedy_draw_nb(state, rules, bot, log):
    """Take the pile in the first legal way (fewest wild cards), else draw."""
    g = state.g
    if pickup_candidates_nb(state, rules, g[DealSlot.current], bot.candidates[:]) > 0:
        take_pile_nb(state, rules, bot.candidates[0], log)
    else:
        draw_nb(state, rules, log)


@inline_kernel
def meld_most_nb(state, rules, bot, log):
    """Meld as much of the hand as is legal in one move: going out if allowed, else
    everything but two cards. Returns True if it melded."""
    hands, sides, g = state.hands, state.sides, state.g
    seat = g[DealSlot.current]
    plan = bot.meld_plan[:]
    # a hand with two or more cards no meld can take cannot go out: skip building that plan
    if not out_blocked_nb(hands[seat], sides[rules[RuleSlot.side_of + seat], SideSlot.meld_ranks]):
        clear_plan_nb(plan)
        black_three_plan_nb(hands[seat], plan)
        fill_plan_nb(
            state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
        )
        err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
        if err == MoveError.ok and out:
            meld_nb(state, rules, plan, log)
            return True
    clear_plan_nb(plan)
    fill_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(2), np.bool_(True))
    err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
    if err == MoveError.ok:
        meld_nb(state, rules, plan, log)
        return True
    return False


@inline_kernel
def usefulness_nb(state, rules, seat, kind):
    """How much a card of ``kind`` is worth keeping for ``seat`` (higher: keep)."""
    hands, melds = state.hands, state.melds
    if kind == BLACK_THREE:
        return -1000  # no use in hand; discarding it blocks the next player
    if kind == DEUCE or kind == JOKER:
        return 1000 + rules[RuleSlot.values + kind]
    side = rules[RuleSlot.side_of + seat]
    u = 100 * hands[seat, kind] + rules[RuleSlot.values + kind]
    if meld_size_nb(melds, side, kind) > 0:
        u += 300
    return u


@inline_kernel
def discard_least_useful_nb(state, rules, log):
    """Discard the card with the lowest :func:`usefulness_nb`; R-45 ends the deal instead."""
    hands, g = state.hands, state.g
    if g[DealSlot.last_red_three] != 0:
        end_turn_nb(state, rules, log)
        return
    seat = g[DealSlot.current]
    best = -1
    best_u = 1 << 30
    for k in range(N_KINDS):
        if hands[seat, k] > 0:
            u = usefulness_nb(state, rules, seat, k)
            if u < best_u:
                best_u = u
                best = k
    discard_nb(state, rules, np.int64(best), log)


@kernel
def greedy_turn_nb(state, rules, bot, log):
    """One whole turn of the greedy policy (``bot``: its working record,
    :data:`.memory.BOT_DTYPE`)."""
    g = state.g
    if g[DealSlot.phase] == Phase.draw:
        greedy_draw_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        meld_most_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        discard_least_useful_nb(state, rules, log)
