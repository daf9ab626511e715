"""The ``careful`` policy: the defensive style of the strategy books.

It keeps natural pairs to take the discard pile with, takes the pile only with naturals (never
spending a wild card on it), holds its melds back until it can go out or has a reason to meld
(an opponent threatens to go out, the stock runs low, or its hand has grown large), freezes a
large pile with a wild card, and discards the card the next opponent is least likely to use
(:func:`~.discards.choose_discard_nb`): black threes (which block the pile for them, R-23),
then ranks they have no meld of and whose other cards are mostly accounted for.
"""

import numpy as np

from ..engine.moves import meld_nb
from ..enums import DealSlot, Phase, RuleSlot, SideSlot
from ..jit import kernel
from ..plans import clear_plan_nb, fill_plan_nb, initial_plan_nb
from .discards import discard_safe_nb
from .knowledge import opponents_threaten_nb, stock_left_nb
from .melding import meld_material_nb, try_go_out_nb
from .pickups import draw_or_take_forced_nb, take_possible_nb, try_take_nb


@kernel
def careful_melds_nb(state, rules, bot, log):
    """Go out when the rules allow it; otherwise meld only when there is a reason to: an
    opponent threatens to go out, the stock is down to a quarter of the pack, or the hand holds
    14 cards or more. It then melds what it can but keeps natural pairs and, unless threatened,
    its wild cards; its initial meld otherwise comes with a pile pickup."""
    hands, sides, g = state.hands, state.sides, state.g
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    hand = hands[seat]
    if try_go_out_nb(state, rules, bot, log):
        return
    threat = opponents_threaten_nb(state, rules, seat, np.int64(4))
    low_stock = stock_left_nb(state, rules) * 4 <= rules[RuleSlot.n_cards]
    if not (threat or low_stock or state.hand_sizes[seat] >= 14):
        return
    melded = sides[side, SideSlot.melded] != 0
    if state.hand_sizes[seat] <= 2 or not meld_material_nb(hand, sides[side, SideSlot.meld_ranks]):
        return
    plan = bot.meld_plan[:]
    clear_plan_nb(plan)
    if not melded:
        left = initial_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(2))
    else:
        left = fill_plan_nb(
            state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(2), threat or low_stock
        )
    if left < state.hand_sizes[seat]:  # the plan holds cards
        meld_nb(state, rules, plan, log)  # validated there (R-22, R-60..R-64)


@kernel
def careful_turn_nb(state, rules, bot, log):
    """One whole turn of the careful policy: take the pile with naturals (never a wild card),
    else draw; meld late (:func:`careful_melds_nb`); discard the safest card, freezing a pile
    of 10 or more cards with a wild card when every other discard is risky (``bot``: its
    working record, :data:`.memory.BOT_DTYPE`)."""
    g = state.g
    if g[DealSlot.phase] == Phase.draw:
        seat = g[DealSlot.current]
        if not (
            take_possible_nb(state, rules, seat, 1, 1, 1 << 20)
            and try_take_nb(state, rules, bot, log, np.int64(1), np.int64(1), np.int64(1 << 20))
        ):
            draw_or_take_forced_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        careful_melds_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        discard_safe_nb(state, rules, bot, log, 100.0, np.int64(8), 0.005, np.int64(10), 1000.0)
