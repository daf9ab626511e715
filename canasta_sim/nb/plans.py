"""Building meld plans from a hand: the plans the bots and the candidate layer choose among.

Shared by the bots (:mod:`canasta_sim.nb.bots`) and the candidate layer
(:mod:`canasta_sim.nb.candidates`), so the candidate layer imports no bot code.

A meld plan is ``ndarray(int8, (N_KINDS, 3))``: per rank row the naturals, deuces and jokers
(:data:`~canasta_sim.nb.enums.MeldCol`) a player adds from hand (see
:mod:`canasta_sim.nb.engine.melds`). Builders only propose; every plan is validated by
:func:`~canasta_sim.nb.engine.melds.check_plan_nb` (through the move kernels) before it is
played. Wild cards go into plans through two routines only: :func:`add_pairs_nb` (new melds
of a natural pair and a wild card) and :func:`place_wilds_nb` (single wild cards on a meld).
"""

import numpy as np

from .engine.melds import meld_ok_nb, meld_size_nb
from .engine.moves import check_take_nb, pile_top_nb
from .enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    NO_LIMIT,
    DealSlot,
    MeldCol,
    MoveError,
    RuleSlot,
    SideSlot,
)
from .jit import inline_kernel, kernel


@kernel
def clear_plan_nb(plan):
    for r in range(N_KINDS):
        for c in range(3):
            plan[r, c] = 0


@inline_kernel
def plan_size_nb(plan):
    n = 0
    for r in range(N_KINDS):
        n += plan[r, MeldCol.naturals] + plan[r, MeldCol.deuces] + plan[r, MeldCol.jokers]
    return n


@inline_kernel
def plan_points_nb(rules, plan, top):
    """Card values (R-04) of a plan plus the pile's top card ``top`` (or -1): the minimum
    count of R-64."""
    pts = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        pts += plan[r, MeldCol.naturals] * rules[RuleSlot.values + r]
        pts += plan[r, MeldCol.deuces] * rules[RuleSlot.values + DEUCE]
        pts += plan[r, MeldCol.jokers] * rules[RuleSlot.values + JOKER]
    if top >= 0:
        pts += rules[RuleSlot.values + top]
    return pts


@kernel
def wilds_left_nb(hand, plan):
    """Deuces and jokers of ``hand`` not yet used by ``plan``."""
    d = hand[DEUCE]
    j = hand[JOKER]
    for r in range(N_KINDS):
        d -= plan[r, MeldCol.deuces]
        j -= plan[r, MeldCol.jokers]
    return d, j


@inline_kernel
def row_total_nb(melds, side, plan, r, top):
    """Naturals, deuces and jokers the side's meld of rank ``r`` would hold after ``plan``
    (and ``top``, the pile's top card melded in the same move, or -1)."""
    t = 1 if r == top else 0
    n = melds[side, r, MeldCol.naturals] + plan[r, MeldCol.naturals] + t
    d = melds[side, r, MeldCol.deuces] + plan[r, MeldCol.deuces]
    j = melds[side, r, MeldCol.jokers] + plan[r, MeldCol.jokers]
    return n, d, j


@kernel
def black_three_plan_nb(hand, plan):
    """Put all black threes of ``hand`` in ``plan`` (legal only when going out, R-63)."""
    if hand[BLACK_THREE] >= 3:
        plan[BLACK_THREE, MeldCol.naturals] = hand[BLACK_THREE]


# --- wild cards -------------------------------------------------------------------------------
@kernel
def add_pair_with_wild_nb(plan, r, deuces, jokers, jokers_first):
    """Plan a new meld of two naturals of rank ``r`` and one wild card (R-60): a joker if
    ``jokers_first`` and one is left, else a deuce if one is left. ``deuces + jokers`` must be
    positive. Returns the wild cards left, ``(deuces, jokers)``."""
    plan[r, MeldCol.naturals] += 2
    if (jokers_first and jokers > 0) or deuces == 0:
        plan[r, MeldCol.jokers] += 1
        return deuces, jokers - 1
    plan[r, MeldCol.deuces] += 1
    return deuces - 1, jokers


@kernel
def add_pairs_nb(melds, side, hand, plan, top, deuces, jokers, room, short, jokers_first, rules):
    """Plan new melds of a natural pair and a wild card (R-60), highest rank first: for every
    rank of which exactly two naturals of ``hand`` are left outside ``plan`` and which has no
    meld (on the table, in the plan, or as ``top``, the pile's top card, or -1).

    Stops when no wild card is left (``deuces``, ``jokers``: those not yet planned), when
    ``room`` (cards the plan may still take) is under 3, or once the points added reach
    ``short`` (the minimum count still missing, R-64; :data:`~.enums.NO_LIMIT` for none).
    The wild card is a joker first if ``jokers_first``, else a deuce first. Returns
    ``(deuces, jokers, cards placed, points added)``."""
    placed = 0
    added = 0
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if deuces + jokers == 0 or room - placed < 3 or added >= short:
            break
        n, d, j = row_total_nb(melds, side, plan, r, top)
        if n + d + j == 0 and hand[r] - plan[r, MeldCol.naturals] == 2:
            wild = JOKER if (jokers_first and jokers > 0) or deuces == 0 else DEUCE
            deuces, jokers = add_pair_with_wild_nb(plan, r, deuces, jokers, jokers_first)
            placed += 3
            added += 2 * rules[RuleSlot.values + r] + rules[RuleSlot.values + wild]
    return deuces, jokers, placed, added


@kernel
def place_wilds_nb(plan, r, n, d, j, deuces, jokers, room, short, jokers_first, rules):
    """Put wild cards one at a time on the meld of rank ``r`` (``n`` naturals, ``d`` deuces,
    ``j`` jokers once the plan is melded) while the meld stays legal (R-60, R-61): at most
    ``room`` cards, and only until the points added reach ``short`` (R-64;
    :data:`~.enums.NO_LIMIT` for none). A joker before a deuce if ``jokers_first``, else a
    deuce before a joker. ``deuces``, ``jokers``: wild cards of the hand not yet planned.
    Returns ``(deuces, jokers, cards placed, points added)``."""
    placed = 0
    added = 0
    while placed < room and added < short and deuces + jokers > 0:
        if jokers_first and jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
            wild = JOKER
        elif deuces > 0 and meld_ok_nb(n, d + 1, j, rules):
            wild = DEUCE
        elif not jokers_first and jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
            wild = JOKER
        else:
            break
        if wild == JOKER:
            plan[r, MeldCol.jokers] += 1
            jokers -= 1
            j += 1
        else:
            plan[r, MeldCol.deuces] += 1
            deuces -= 1
            d += 1
        placed += 1
        added += rules[RuleSlot.values + wild]
    return deuces, jokers, placed, added


@kernel
def spread_wilds_nb(
    melds, side, plan, top, deuces, jokers, left, keep, short, jokers_first, natural_wait, rules
):
    """Put spare wild cards on the side's melds (on the table, in ``plan`` or ``top``, the
    pile's top card, or -1), highest rank first, each as :func:`place_wilds_nb` allows:
    while the hand keeps ``keep`` cards (``left``: the cards it keeps now) and until the
    points added reach ``short`` (R-64; :data:`~.enums.NO_LIMIT` for none). A wild-free meld
    of at least ``natural_wait`` naturals gets none (:data:`~.enums.NO_LIMIT`: every meld
    may). Returns ``(deuces, jokers, left, points added)``."""
    added = 0
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if added >= short or deuces + jokers == 0 or left - 1 < keep:
            break
        n, d, j = row_total_nb(melds, side, plan, r, top)
        if n + d + j == 0 or (d + j == 0 and n >= natural_wait):
            continue
        deuces, jokers, placed, points = place_wilds_nb(
            plan, r, n, d, j, deuces, jokers, left - keep, short - added, jokers_first, rules
        )
        left -= placed
        added += points
    return deuces, jokers, left, added


@kernel
def pairs_then_spread_nb(state, rules, seat, plan, top, left, keep, short, jokers_first, wait):
    """Add the wild cards of the hand that ``plan`` does not use yet: new melds of a natural
    pair and a wild card (:func:`add_pairs_nb`), then the rest on the side's melds
    (:func:`spread_wilds_nb`, with ``wait`` as its ``natural_wait``), while the hand keeps
    ``keep`` cards (``left``: the cards it keeps now) and until the points added reach ``short``
    (R-64; :data:`~.enums.NO_LIMIT` for none, and ``NO_LIMIT`` less the points of a few melds is
    still none). A joker before a deuce if ``jokers_first``. ``top`` is a pile card melded in the
    same move, or -1. Returns the cards the hand keeps after the plan."""
    melds = state.melds
    hand = state.hands[seat]
    side = rules[RuleSlot.side_of + seat]
    deuces, jokers = wilds_left_nb(hand, plan)
    deuces, jokers, placed, added = add_pairs_nb(
        melds, side, hand, plan, top, deuces, jokers, left - keep, short, jokers_first, rules
    )
    _, _, left, _ = spread_wilds_nb(
        melds,
        side,
        plan,
        top,
        deuces,
        jokers,
        left - placed,
        keep,
        short - added,
        jokers_first,
        wait,
        rules,
    )
    return left


# --- whole plans ------------------------------------------------------------------------------
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
    side = rules[RuleSlot.side_of + seat]
    left = state.hand_sizes[seat] - plan_size_nb(plan) + incoming
    # naturals onto melds that exist (on the table or in the plan), then new natural melds;
    # without branches, which would follow the hand's counts
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, MeldCol.naturals]
        n, d, j = row_total_nb(melds, side, plan, r, top)
        take = (spare > 0) & (left - spare >= keep) & ((n + d + j > 0) | (spare >= 3))
        spare = spare if take else 0
        plan[r, MeldCol.naturals] += spare
        left -= spare
    if not use_wilds:
        return left
    return pairs_then_spread_nb(
        state,
        rules,
        seat,
        plan,
        top,
        left,
        keep,
        np.int64(NO_LIMIT),
        np.bool_(True),
        np.int64(NO_LIMIT),
    )


@kernel
def initial_plan_nb(state, rules, seat, plan, top, incoming, keep):
    """Add to ``plan`` an initial meld (R-64): every natural of the ranks in the plan (and of
    ``top``), new melds of three or more naturals, then, only while the count is short of the
    side's minimum, natural pairs with a wild card (deuces before jokers) and single wild cards
    on the planned melds (so not always the fewest wild cards that reach the minimum). Leaves at
    least ``keep`` cards in hand (``incoming``: cards reaching the hand in the same move).
    Returns the cards the hand keeps after the plan, ``incoming`` included.

    The side has no meld yet (``SideSlot.melded`` is 0), so its melds are those of the plan."""
    hands, sides = state.hands, state.sides
    hand = hands[seat]
    side = rules[RuleSlot.side_of + seat]
    minimum = sides[side, SideSlot.minimum]
    left = state.hand_sizes[seat] - plan_size_nb(plan) + incoming
    # without branches, which would follow the hand's counts (as in fill_plan_nb)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, MeldCol.naturals]
        in_plan = (r == top) | (
            plan[r, MeldCol.naturals] + plan[r, MeldCol.deuces] + plan[r, MeldCol.jokers] > 0
        )
        take = (spare > 0) & (left - spare >= keep) & (in_plan | (spare >= 3))
        spare = spare if take else 0
        plan[r, MeldCol.naturals] += spare
        left -= spare
    points = plan_points_nb(rules, plan, top)
    if points >= minimum:
        return left
    return pairs_then_spread_nb(
        state,
        rules,
        seat,
        plan,
        top,
        left,
        keep,
        minimum - points,
        np.bool_(False),
        np.int64(NO_LIMIT),
    )


@inline_kernel
def initial_reach_nb(rules, hand):
    """The most points (R-04) an initial meld from ``hand`` alone can count (R-64): every
    natural of the ranks held three or more times, of the pairs too when a wild card is held,
    and every wild card. :func:`initial_plan_nb` with no pile card lays a subset of these, so
    when this is under the side's minimum count no initial meld from hand can be made."""
    wild = hand[DEUCE] + hand[JOKER] > 0
    pts = (
        hand[DEUCE] * rules[RuleSlot.values + DEUCE] + hand[JOKER] * rules[RuleSlot.values + JOKER]
    )
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        c = hand[r]
        pts += c * rules[RuleSlot.values + r] if (c >= 3) | ((c == 2) & wild) else 0
    return pts


@kernel
def out_plan_nb(state, rules, seat, plan):
    """Build in ``plan`` the melds that would empty the hand (or leave one card to discard):
    black threes (R-63), all naturals, natural pairs with a wild card, then the spare wild cards,
    placed on melds that already hold wild cards first and on natural canastas last (so going
    out spoils no natural canasta it can spare, R-67)."""
    hands, melds = state.hands, state.melds
    hand = hands[seat]
    side = rules[RuleSlot.side_of + seat]
    clear_plan_nb(plan)
    black_three_plan_nb(hand, plan)
    fill_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(0), np.bool_(False))
    deuces, jokers = wilds_left_nb(hand, plan)
    deuces, jokers, _, _ = add_pairs_nb(
        melds,
        side,
        hand,
        plan,
        np.int64(-1),
        deuces,
        jokers,
        np.int64(NO_LIMIT),
        np.int64(NO_LIMIT),
        np.bool_(False),
        rules,
    )
    for stage in range(3):
        for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
            n, d, j = row_total_nb(melds, side, plan, r, -1)
            if n == 0:
                continue
            natural_canasta = d + j == 0 and n >= 7
            if stage == 0 and d + j == 0:
                continue
            if stage == 1 and natural_canasta:
                continue
            deuces, jokers, _, _ = place_wilds_nb(
                plan,
                r,
                n,
                d,
                j,
                deuces,
                jokers,
                np.int64(NO_LIMIT),
                np.int64(NO_LIMIT),
                np.bool_(True),
                rules,
            )


@inline_kernel
def pile_incoming_nb(state):
    g = state.g
    return max(g[DealSlot.pile_len] - 1, 0)  # upper bound: red threes in it are laid out


@kernel
def pickup_candidates_nb(state, rules, seat, cands):
    """Write the legal ways to take the pile into ``cands[0..n)`` and return ``n``: the top
    card onto the side's meld, with a natural pair, with one natural and a deuce or a joker;
    a side without its initial meld adds its best melds from hand (R-64).

    Kernels pass ``bot.candidates[:]``, typed as a plain array like the
    ``Deal`` API's own ``cands``, so numba compiles this kernel once for both. Here, beside the
    other plan builders, because the candidate layer lists these pickups too."""
    hands, melds, sides, g = state.hands, state.melds, state.sides, state.g
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return 0
    side = rules[RuleSlot.side_of + seat]
    nat = hands[seat, top]
    frozen = g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0
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
            plan[top, MeldCol.naturals] = 2
        elif way == 2:
            plan[top, MeldCol.naturals] = 1
            plan[top, MeldCol.deuces] = 1
        elif way == 3:
            plan[top, MeldCol.naturals] = 1
            plan[top, MeldCol.jokers] = 1
        if sides[side, SideSlot.melded] == 0:
            fill_plan_nb(
                state, rules, seat, plan, top, pile_incoming_nb(state), np.int64(2), np.bool_(True)
            )
        err, out, conc = check_take_nb(state, rules, seat, plan)
        if err == MoveError.ok:
            n += 1
    return n
