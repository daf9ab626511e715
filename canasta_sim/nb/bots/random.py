"""The ``random`` policy: uniform over the legal choices at each decision (fuzzing and
baseline)."""

from ..engine.moves import (
    discard_nb,
    draw_nb,
    end_turn_nb,
    forced_take_nb,
    meld_nb,
    take_pile_nb,
)
from ..engine.rng import below_nb
from ..jit import inline_kernel, kernel
from ..layout import (
    G_CURRENT,
    G_LAST_RED_THREE,
    G_PHASE,
    G_STOCK_POS,
    N_KINDS,
    PHASE_DRAW,
    PHASE_PLAY,
    R_N_CARDS,
)
from .pickups import meld_candidates_nb, pickup_candidates_nb


@inline_kernel
def random_draw_nb(state, rules, log):
    """Uniform over {draw} and the legal ways to take the pile (R-44 may remove the draw)."""
    g, rng, scratch = state.g, state.rng, state.scratch
    seat = g[G_CURRENT]
    n = pickup_candidates_nb(state, rules, seat, scratch[:])
    may_draw = not (g[G_STOCK_POS] >= rules[R_N_CARDS] and forced_take_nb(state, rules, seat))
    choice = below_nb(rng, n + (1 if may_draw else 0))
    if choice < n:
        take_pile_nb(state, rules, scratch[choice], log)
    else:
        draw_nb(state, rules, log)


@inline_kernel
def random_melds_nb(state, rules, log):
    """Repeatedly pick uniformly among the legal single meld moves and stopping."""
    g, rng, scratch = state.g, state.rng, state.scratch
    seat = g[G_CURRENT]
    while g[G_PHASE] == PHASE_PLAY:
        n = meld_candidates_nb(state, rules, seat, scratch)
        choice = below_nb(rng, n + 1)
        if choice == n:
            return
        meld_nb(state, rules, scratch[choice], log)


@inline_kernel
def random_discard_nb(state, rules, log):
    """Uniform over the kinds in hand; R-45 ends the deal without a discard."""
    hands, g, rng = state.hands, state.g, state.rng
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


@kernel
def random_turn_nb(state, rules, log):
    """One whole turn of the random policy."""
    g = state.g
    if g[G_PHASE] == PHASE_DRAW:
        random_draw_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        random_melds_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        random_discard_nb(state, rules, log)
