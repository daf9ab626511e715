"""The ``expert`` policy: a parameterised heuristic after the standard strategy advice (Parlett,
Hoyle, pagat.com's strategy pages).

Its knobs (``params``: ``float64[N_PARAMS]``, order and defaults in :mod:`canasta_sim.bots`):

- ``pile_threshold`` (P_PILE_THRESHOLD): the pile is always taken with naturals (a natural
  pair, or the top card onto the side's meld); spending a wild card on a pickup (R-33 b) needs
  a pile of at least this many cards.
- ``meld_keep`` (P_MELD_KEEP): cards kept in hand when melding without going out (the rules'
  floor is 2, R-22): a fuller hand keeps pairs for pickups and safe discards.
- ``hold_wilds`` (P_HOLD_WILDS): 1 keeps wild cards for completing canastas, the minimum count
  and going out (and for freezing the pile); 0 also starts melds from a pair and a wild and
  puts spare wild cards on melds, as ``greedy`` does.
- ``freeze_at`` (P_FREEZE_AT): pile size at which a wild card is discarded to freeze the pile
  (R-24, R-31) when every natural discard is risky; 0 never.
- ``safety`` (P_SAFETY): weight of the discard danger (chance the next opponent can take the
  pile, times its size) against the card's keep value.
- ``block_at`` (P_BLOCK_AT): pile size at which a black three is discarded to block the next
  player (R-23); smaller piles keep it back.
- ``out_lead`` (P_OUT_LEAD): go out (R-40) only when the side's estimated deal score is ahead
  of the best opponent's by at least this many points; otherwise hold back and build more
  canastas, unless an opponent threatens to go out or the stock is nearly empty.
- ``natural_wait`` (P_NATURAL_WAIT): a meld of at least this many naturals and no wild card
  gets no wild card except when going out (it waits to become a natural canasta, R-51).

It reads only public information and the own hand (see :mod:`.careful`), builds one or two
plans per step and validates each once through the move kernels.
"""

import numba as nb

from .careful import (
    canasta_count_nb, cards_nb, can_go_out_nb, discard_safe_nb, meld_material_nb, out_blocked_nb, draw_or_forced_nb, initial_plan_nb, opponents_threaten_nb,
    side_table_points_nb, stock_left_nb, try_take_nb,
)
from .layout import (
    FIRST_NATURAL, G_CURRENT, G_PHASE, LAST_NATURAL, M_DEUCES, M_JOKERS,
    M_NATURALS, OK, PHASE_DRAW, PHASE_PLAY, R_CANASTAS_TO_GO_OUT, R_DRAW_COUNT, R_GOING_OUT_BONUS, R_PLAYERS,
    R_SIDES, S_MELDED,
)
from .melds import meld_ok_nb
from .moves import meld_nb
from .plans import clear_plan_nb, fill_plan_nb, plan_size_nb, wilds_left_nb

P_PILE_THRESHOLD = 0
P_MELD_KEEP = 1
P_HOLD_WILDS = 2
P_FREEZE_RISK = 3
P_SAFETY = 4
P_BLOCK_AT = 5
P_OUT_LEAD = 6
P_NATURAL_WAIT = 7

#: Default parameter values, in kernel order (the registry in :mod:`canasta_sim.bots` reads them).
DEFAULTS = (5.0, 8.0, 1.0, 0.05, 100.0, 0.0, 3000.0, 7.0)

WILD_TAKE_FACTOR = 3  # a pickup spending a wild card needs this many times pile_threshold cards
ENDGAME_ROUNDS = 2  # stock left for this many rounds of draws: the end game
THREAT_KEEP = 3  # cards kept when melding under that threat
THREAT_CARDS = 5  # an opponent with a canasta and at most this many cards may go out soon
HAND_CARD_POINTS = 8  # estimated points of a hidden card (for the deal score estimate)


@nb.njit(cache=True, inline='always')
def param_nb(params, i):
    """Parameter ``i`` of ``params``; every parameter takes its default when the vector is
    shorter than :data:`DEFAULTS` (a caller that passed no parameters)."""
    if params.shape[0] >= len(DEFAULTS):
        return params[i]
    return DEFAULTS[i]


@nb.njit(cache=True)
def lead_if_out_nb(state, rules, seat):
    """Estimated deal score of ``seat``'s side if it went out now, minus the best opponent's
    (R-50..R-54): table points, the going-out bonus, and hidden hands at
    ``HAND_CARD_POINTS`` a card."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    n_sides = rules[R_SIDES]
    players = rules[R_PLAYERS]
    mine = seat % n_sides
    best_opp = -(1 << 30)
    own = side_table_points_nb(state, rules, mine) + rules[R_GOING_OUT_BONUS]
    for s in range(n_sides):
        hidden = 0
        for p in range(s, players, n_sides):
            if p != seat:
                hidden += cards_nb(hands[p])
        if s == mine:
            own -= HAND_CARD_POINTS * hidden
        else:
            est = side_table_points_nb(state, rules, s) - HAND_CARD_POINTS * hidden
            if est > best_opp:
                best_opp = est
    return own - best_opp


@nb.njit(cache=True)
def should_go_out_nb(state, rules, seat, params, threat):
    """Go out when ``threat`` (an opponent may go out first), when the stock is nearly empty,
    or when ahead by at least ``out_lead`` points."""
    if threat:
        return True
    return lead_if_out_nb(state, rules, seat) >= param_nb(params, P_OUT_LEAD)


@nb.njit(cache=True)
def add_wilds_nb(state, rules, seat, plan, left, keep, hold, natural_wait):
    """Put the hand's spare wild cards into ``plan``: first where they complete a canasta
    (R-65), then, unless ``hold``, on new melds of a natural pair and on the melds. A wild-free
    meld of at least ``natural_wait`` naturals gets none."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    hand = hands[seat]
    side = seat % rules[R_SIDES]
    deuces, jokers = wilds_left_nb(hand, plan)
    if deuces + jokers == 0:
        return
    # complete canastas: largest melds first, melds that already hold a wild card first
    for step in range(6):
        size = 6 - step // 2
        for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
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
        return
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, M_NATURALS]
        n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS]
        if n == 0 and spare == 2 and deuces + jokers > 0 and left - 3 >= keep:
            plan[r, M_NATURALS] += 2
            if deuces > 0:
                plan[r, M_DEUCES] += 1
                deuces -= 1
            else:
                plan[r, M_JOKERS] += 1
                jokers -= 1
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


@nb.njit(cache=True)
def expert_melds_nb(state, rules, params, log):
    """Go out if allowed and :func:`should_go_out_nb` agrees; else make the initial meld as soon
    as the minimum count allows (few wild cards), or add naturals to the melds, start melds of
    three naturals and place wild cards (:func:`add_wilds_nb`), keeping ``meld_keep`` cards."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    seat = g[G_CURRENT]
    side = seat % rules[R_SIDES]
    hand = hands[seat]
    # an opponent may go out soon: time to go out or shed cards; likewise near the stock's end
    threat = opponents_threaten_nb(state, rules, seat, THREAT_CARDS)
    endgame = stock_left_nb(state, rules) <= ENDGAME_ROUNDS * rules[R_DRAW_COUNT] * rules[R_PLAYERS]
    if (canasta_count_nb(melds, side) + 1 >= rules[R_CANASTAS_TO_GO_OUT]
            and not out_blocked_nb(hand, melds, side)
            and can_go_out_nb(state, rules, seat)
            and should_go_out_nb(state, rules, seat, params, threat or endgame)
            and meld_nb(state, rules, scratch[2], log) == OK):
        return
    melded = sides[side, S_MELDED] != 0
    keep = 2
    if melded:
        keep = max(2, int(param_nb(params, P_MELD_KEEP)))
        if threat or endgame:  # shed the cards that would count against the side
            keep = min(keep, THREAT_KEEP)
    if cards_nb(hand) <= keep or not meld_material_nb(hand, melds, side, melded):
        return
    plan = scratch[1]
    clear_plan_nb(plan)
    if not melded:
        initial_plan_nb(state, rules, seat, plan, -1, 0, 2)
    else:
        fill_plan_nb(state, rules, seat, plan, -1, 0, keep, False)
        left = cards_nb(hand) - plan_size_nb(plan)
        add_wilds_nb(state, rules, seat, plan, left, keep, param_nb(params, P_HOLD_WILDS) >= 0.5,
                     int(param_nb(params, P_NATURAL_WAIT)))
    if plan_size_nb(plan) > 0:
        meld_nb(state, rules, plan, log)  # validated there (R-22, R-60..R-64)


@nb.njit(cache=True)
def expert_turn_nb(state, rules, params, log):
    """One whole turn of the expert policy with parameters ``params`` (``float64[N_PARAMS]``)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    if g[G_PHASE] == PHASE_DRAW:
        pile_min = int(param_nb(params, P_PILE_THRESHOLD))
        if not try_take_nb(state, rules, log, pile_min, pile_min, WILD_TAKE_FACTOR * pile_min):
            draw_or_forced_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        expert_melds_nb(state, rules, params, log)
    if g[G_PHASE] == PHASE_PLAY:
        discard_safe_nb(state, rules, log, param_nb(params, P_SAFETY),
                        int(param_nb(params, P_BLOCK_AT)), param_nb(params, P_FREEZE_RISK), 0)
