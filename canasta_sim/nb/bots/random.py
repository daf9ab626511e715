"""The ``random`` policy: uniform over the legal choices at each decision (fuzzing and
baseline)."""

from ..engine.moves import (
    discard_nb,
    draw_nb,
    end_turn_nb,
    meld_nb,
    must_take_pile_nb,
    take_pile_nb,
)
from ..engine.rng import below_nb
from ..enums import N_KINDS, DealSlot, Phase, RuleSlot
from ..jit import inline_kernel, kernel
from .melding import meld_candidates_nb
from .pickups import pickup_candidates_nb


@inline_kernel
def random_draw_nb(state, rules, bot, log):
    """Uniform over {draw} and the legal ways to take the pile (R-44 may remove the draw)."""
    g, rng = state.g, state.rng
    seat = g[DealSlot.current]
    n = pickup_candidates_nb(state, rules, seat, bot.candidates[:])
    may_draw = not (
        g[DealSlot.stock_pos] >= rules[RuleSlot.n_cards] and must_take_pile_nb(state, rules, seat)
    )
    choice = below_nb(rng, n + (1 if may_draw else 0))
    if choice < n:
        take_pile_nb(state, rules, bot.candidates[choice], log)
    else:
        draw_nb(state, rules, log)


@inline_kernel
def random_melds_nb(state, rules, bot, log):
    """Repeatedly pick uniformly among the legal single meld moves and stopping."""
    g, rng = state.g, state.rng
    seat = g[DealSlot.current]
    while g[DealSlot.phase] == Phase.play:
        n = meld_candidates_nb(state, rules, seat, bot.candidates)
        choice = below_nb(rng, n + 1)
        if choice == n:
            return
        meld_nb(state, rules, bot.candidates[choice], log)


@inline_kernel
def random_discard_nb(state, rules, log):
    """Uniform over the kinds in hand; R-45 ends the deal without a discard."""
    hands, g, rng = state.hands, state.g, state.rng
    if g[DealSlot.last_red_three] != 0:
        end_turn_nb(state, rules, log)
        return
    hand = hands[g[DealSlot.current]]
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


@kernel
def random_turn_nb(state, rules, bot, log):
    """One whole turn of the random policy (``bot``: its working record,
    :data:`.memory.BOT_DTYPE`)."""
    g = state.g
    if g[DealSlot.phase] == Phase.draw:
        random_draw_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        random_melds_nb(state, rules, bot, log)
    if g[DealSlot.phase] == Phase.play:
        random_discard_nb(state, rules, log)
