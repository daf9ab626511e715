"""The ``expert`` policy: a parameterised heuristic after the standard strategy advice (Parlett,
Hoyle, pagat.com's strategy pages), its defaults tuned against a field of bots (docs/tune.md).

A turn: take the pile when it holds at least ``pile_threshold`` cards and the hand can take it
with naturals (a natural pair, or the top card onto the side's meld); draw otherwise. Meld the
initial meld as soon as the minimum count allows (spending few wild cards), then hold a full
hand: meld only what leaves ``meld_keep`` cards, never put loose wild cards down unless
``hold_wilds`` is 0, complete canastas with wild cards (melds that already hold one first).
Go out only when an opponent threatens to go out, in the end game (the stock down to
``ENDGAME_ROUNDS`` rounds of draws; then also shed cards down to ``THREAT_KEEP``), or when the
side leads by ``out_lead`` points. Discard the card least useful to the next opponent
(:func:`careful.choose_discard_nb`): black threes, ranks they cannot take the pile with, a wild
card to freeze a pile that every other discard would hand them.

The knobs (``params``: ``float64[N_PARAMS]``; names, ranges and docs in
:data:`canasta_sim.bots.POLICIES`, defaults in :data:`DEFAULTS`):

- ``pile_threshold`` (P_PILE_THRESHOLD): smallest pile taken with a natural pair (cards, R-33
  a), and onto one of the side's melds while ``meld_pile`` is 0.
- ``wild_factor`` (P_WILD_FACTOR): a pickup spending a wild card (one natural and a wild,
  R-33 b) needs this many times ``pile_threshold`` cards (rounded up).
- ``meld_pile`` (P_MELD_PILE): smallest pile taken by laying its top card onto one of the side's
  melds (R-33 c; no card of the hand is spent); 0 means ``pile_threshold``.
- ``meld_keep`` (P_MELD_KEEP): cards kept in hand when melding without going out (the rules'
  floor is 2, R-22): a fuller hand keeps pairs for pickups and safe discards.
- ``hold_wilds`` (P_HOLD_WILDS): 1 keeps wild cards for completing canastas, the minimum count,
  going out and freezing the pile; 0 also starts melds from a natural pair and a wild card and
  puts spare wild cards on melds, as ``greedy`` does.
- ``freeze_risk`` (P_FREEZE_RISK): a wild card is discarded, freezing the pile (R-24, R-31),
  when the safest other discard would hand the next opponent about this many pile cards in
  expectation or more.
- ``safety`` (P_SAFETY): weight of that danger against how much a card is worth keeping.
- ``block_at`` (P_BLOCK_AT): pile size from which a black three is discarded at once to block
  the next player (R-23); below it the black three is kept back for a bigger pile.
- ``out_lead`` (P_OUT_LEAD): going out (R-40) without a threat needs the side's estimated deal
  score to lead the best opponent's by this many points; otherwise it holds back to build more
  canastas.
- ``natural_wait`` (P_NATURAL_WAIT): a wild-free meld of at least this many naturals gets no
  wild card except when going out (it can become, or stay, a natural canasta, R-51).

It reads only public information and its own hand (see :mod:`.careful`), tests cheaply whether a
pickup or a meld is possible before building anything, builds one plan per step in the state's
``scratch`` rows and lets the move kernels validate it.
"""

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros  # LLVM's ctlz: highest set bit

from .careful import (
    can_go_out_nb,
    discard_safe_nb,
    forced_take_nb,
    initial_plan_nb,
    meld_material_nb,
    opponents_threaten_nb,
    side_table_points_nb,
    stock_left_nb,
    take_possible_nb,
    try_take_nb,
)
from .jit import inline_kernel, kernel
from .layout import (
    DEUCE,
    FIRST_NATURAL,
    G_CURRENT,
    G_PHASE,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    OK,
    PHASE_DRAW,
    PHASE_PLAY,
    R_DRAW_COUNT,
    R_GOING_OUT_BONUS,
    R_PLAYERS,
    R_SIDE_OF,
    R_SIDES,
    S_MELD_RANKS,
    S_MELDED,
)
from .melds import meld_ok_nb
from .moves import draw_nb, meld_nb
from .plans import (
    add_pair_with_wild_nb,
    clear_plan_nb,
    fill_plan_nb,
    row_total_nb,
)

P_PILE_THRESHOLD = 0
P_MELD_KEEP = 1
P_HOLD_WILDS = 2
P_FREEZE_RISK = 3
P_SAFETY = 4
P_BLOCK_AT = 5
P_OUT_LEAD = 6
P_NATURAL_WAIT = 7
P_WILD_FACTOR = 8
P_MELD_PILE = 9

#: Default parameter values in kernel order (read by canasta_sim.bots): the best setting of a
#: joint search against expert@1, careful and greedy (docs/tune.md).
DEFAULTS = (6.0, 53.0, 1.0, 0.263, 90.82, 40.0, 1958.0, 7.0, 7.936, 0.0)

PAIR_KEEP = 0.6  # keep value of a natural pair in the discard choice (careful: never break)
THREAT_CARDS = 5  # an opponent side with its canastas and a player this short may go out soon
ENDGAME_ROUNDS = 2  # stock left for this many rounds of draws: the end game
THREAT_KEEP = 3  # cards kept when melding under a threat or in the end game
HAND_CARD_POINTS = 8  # estimated points of a hidden card (deal score estimate)


@inline_kernel
def param_nb(params, i):
    """Parameter ``i`` of ``params``; every parameter takes its default when the vector is
    shorter than :data:`DEFAULTS` (a caller that passed no parameters)."""
    if params.shape[0] >= len(DEFAULTS):
        return params[i]
    return DEFAULTS[i]


@kernel
def lead_if_out_nb(state, rules, seat):
    """Estimated deal score of ``seat``'s side if it went out now, minus the best opponent's
    (R-50..R-54): table points, the going-out bonus, and hidden hands at
    ``HAND_CARD_POINTS`` a card."""
    n_sides = rules[R_SIDES]
    players = rules[R_PLAYERS]
    mine = rules[R_SIDE_OF + seat]
    best_opp = -(1 << 30)
    own = side_table_points_nb(state, rules, mine) + rules[R_GOING_OUT_BONUS]
    for s in range(n_sides):
        hidden = 0
        for p in range(s, players, n_sides):
            if p != seat:
                hidden += state.hand_sizes[p]
        if s == mine:
            own -= HAND_CARD_POINTS * hidden
        else:
            est = side_table_points_nb(state, rules, s) - HAND_CARD_POINTS * hidden
            if est > best_opp:
                best_opp = est
    return own - best_opp


@inline_kernel
def should_go_out_nb(state, rules, seat, params, threat):
    """Go out when ``threat`` (an opponent may go out first, or the end game) or when ahead by
    at least ``out_lead`` points (:func:`lead_if_out_nb`)."""
    if threat:
        return True
    return lead_if_out_nb(state, rules, seat) >= param_nb(params, P_OUT_LEAD)


@inline_kernel
def completable_nb(melds, side, plan, wilds):
    """Bit mask of the ranks whose meld of ``side`` (on the table plus ``plan``) ``wilds`` wild
    cards could make a canasta (R-65): it holds 7 - ``wilds`` to 6 cards (at least 4, the
    search's smallest). No other meld can come into reach while the search adds wild cards."""
    smallest = max(4, 7 - wilds)
    ranks = 0
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n, d, j = row_total_nb(melds, side, plan, r, -1)
        ranks |= (1 if (smallest <= n + d + j) & (n + d + j <= 6) else 0) << r
    return ranks


@kernel
def add_wilds_nb(state, rules, seat, plan, left, keep, hold, natural_wait):
    """Put the hand's spare wild cards into ``plan``: first where they complete a canasta
    (R-65), then, unless ``hold``, on new melds of a natural pair and on the melds. A wild-free
    meld of at least ``natural_wait`` naturals gets none. ``plan`` holds no wild cards yet.
    Returns ``left``, the cards the hand keeps, less the wild cards placed."""
    hands, melds = state.hands, state.melds
    hand = hands[seat]
    side = rules[R_SIDE_OF + seat]
    deuces, jokers = hand[DEUCE], hand[JOKER]
    if deuces + jokers == 0:
        return left
    # complete canastas: largest melds first, melds that already hold a wild card first; each
    # step visits the candidate ranks only, highest first
    ranks = completable_nb(melds, side, plan, deuces + jokers)
    for step in range(6 if ranks != 0 else 0):
        size = 6 - step // 2
        todo = ranks
        while todo != 0:
            r = 63 - leading_zeros(todo)
            todo ^= 1 << r
            n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS]
            d = melds[side, r, M_DEUCES] + plan[r, M_DEUCES]
            j = melds[side, r, M_JOKERS] + plan[r, M_JOKERS]
            if n + d + j != size or (step % 2 == 0) == (d + j == 0):
                continue
            if d + j == 0 and n >= natural_wait:
                continue
            need = 7 - size
            if need > deuces + jokers or left - need < keep:
                continue
            uj = need if need <= jokers else jokers
            ud = need - uj
            if not meld_ok_nb(n, d + ud, j + uj, rules):
                continue
            plan[r, M_JOKERS] += uj
            plan[r, M_DEUCES] += ud
            jokers -= uj
            deuces -= ud
            left -= need
    if hold or deuces + jokers == 0:
        return left
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, M_NATURALS]
        n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS]
        if n == 0 and spare == 2 and deuces + jokers > 0 and left - 3 >= keep:
            deuces, jokers = add_pair_with_wild_nb(plan, r, deuces, jokers, np.bool_(False))
            left -= 3
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS]
        d = melds[side, r, M_DEUCES] + plan[r, M_DEUCES]
        j = melds[side, r, M_JOKERS] + plan[r, M_JOKERS]
        if n == 0 or (d + j == 0 and n >= natural_wait):
            continue
        while deuces + jokers > 0 and left - 1 >= keep:
            if deuces > 0 and meld_ok_nb(n, d + 1, j, rules):
                plan[r, M_DEUCES] += 1
                deuces -= 1
                d += 1
            elif jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
                plan[r, M_JOKERS] += 1
                jokers -= 1
                j += 1
            else:
                break
            left -= 1
    return left


@kernel
def expert_melds_nb(state, rules, params, log):
    """Go out if allowed and :func:`should_go_out_nb` agrees; else make the initial meld as soon
    as the minimum count allows (few wild cards), or add naturals to the melds, start melds of
    three naturals and place wild cards (:func:`add_wilds_nb`), keeping ``meld_keep`` cards
    (``THREAT_KEEP`` under a threat or in the end game)."""
    hands, sides, g, scratch = state.hands, state.sides, state.g, state.scratch
    seat = g[G_CURRENT]
    side = rules[R_SIDE_OF + seat]
    hand = hands[seat]
    # an opponent may go out soon: time to go out or shed cards; likewise near the stock's end
    threat = opponents_threaten_nb(state, rules, seat, np.int64(THREAT_CARDS))
    endgame = stock_left_nb(state, rules) <= ENDGAME_ROUNDS * rules[R_DRAW_COUNT] * rules[R_PLAYERS]
    if (
        can_go_out_nb(state, rules, seat)
        and should_go_out_nb(state, rules, seat, params, threat or endgame)
        and meld_nb(state, rules, scratch[2], log) == OK
    ):
        return
    melded = sides[side, S_MELDED] != 0
    keep = 2
    if melded:
        keep = max(2, int(param_nb(params, P_MELD_KEEP)))
        if threat or endgame:  # shed the cards that would count against the side
            keep = min(keep, THREAT_KEEP)
    if state.hand_sizes[seat] <= keep or not meld_material_nb(hand, sides[side, S_MELD_RANKS]):
        return
    plan = scratch[1]
    clear_plan_nb(plan)
    if not melded:
        left = initial_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(2))
    else:
        left = fill_plan_nb(
            state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(keep), np.bool_(False)
        )
        hold = param_nb(params, P_HOLD_WILDS) >= 0.5
        left = add_wilds_nb(
            state, rules, seat, plan, left, keep, hold, int(param_nb(params, P_NATURAL_WAIT))
        )
    if left < state.hand_sizes[seat]:  # the plan holds cards
        meld_nb(state, rules, plan, log)  # validated there (R-22, R-60..R-64)


@kernel
def expert_turn_nb(state, rules, params, log):
    """One whole turn of the expert policy with parameters ``params`` (``float64[N_PARAMS]``;
    a shorter vector means the defaults): pickup or draw, melds, discard (or R-45's end)."""
    g = state.g
    if g[G_PHASE] == PHASE_DRAW:
        pile_min = int(param_nb(params, P_PILE_THRESHOLD))
        wild_min = int(np.ceil(param_nb(params, P_WILD_FACTOR) * pile_min))
        meld_min = int(param_nb(params, P_MELD_PILE))
        if meld_min <= 0:
            meld_min = pile_min
        if not (
            take_possible_nb(state, rules, g[G_CURRENT], meld_min, pile_min, wild_min)
            and try_take_nb(state, rules, log, meld_min, pile_min, wild_min)
        ):
            if draw_nb(state, rules, log) != OK:
                forced_take_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        expert_melds_nb(state, rules, params, log)
    if g[G_PHASE] == PHASE_PLAY:
        discard_safe_nb(
            state,
            rules,
            log,
            param_nb(params, P_SAFETY),
            int(param_nb(params, P_BLOCK_AT)),
            param_nb(params, P_FREEZE_RISK),
            np.int64(0),
            PAIR_KEEP,
        )
