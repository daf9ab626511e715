"""The ``careful`` policy, and the table reading it shares with ``expert``.

``careful`` plays the defensive style of the strategy books: it keeps natural pairs to take the
discard pile with, takes the pile only with naturals (never spending a wild card on it), holds
its melds back until it can go out or has a reason to meld (an opponent threatens to go out, the
stock runs low, or its hand has grown large), freezes a large pile with a wild card, and
discards the card the next opponent is least likely to use: black threes (which block the pile
for them, R-23), then ranks they have no meld of and whose other cards are mostly accounted for
(melded, in the discard pile, in its own hand).

Everything here reads only what a real player knows: the own hand, the melds on the table, the
red threes laid out, the discard pile's contents (public, R-20: everyone sees the discards), the
stock size and the other players' hand sizes. Other hands and the stock order are never read.
Every move goes through the checked move kernels (:mod:`.moves`), so no move can be illegal.
No allocation: plans live in the state's ``scratch`` rows (row 0: pile pickup, row 1: melds,
row 2: going out); the discard pile's card counts and the hand sizes are the state's running
counts (``pile_counts``, ``hand_sizes``).
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit

from .jit import inline_kernel, kernel
from .layout import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    G_CURRENT,
    G_LAST_RED_THREE,
    G_PHASE,
    G_PILE_FREEZE,
    G_PILE_LEN,
    G_STOCK_POS,
    G_TURN,
    G_UPCARD_CARDS,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    OK,
    PHASE_DRAW,
    PHASE_PLAY,
    R_CANASTAS_TO_GO_OUT,
    R_MIXED_CANASTA_BONUS,
    R_N_CARDS,
    R_NATURAL_CANASTA_BONUS,
    R_NEXT_SEAT,
    R_PLAYERS,
    R_RED_THREE_TABLE,
    R_SIDE_OF,
    R_SIDES,
    R_VALUES,
    RED_THREE,
    S_CANASTAS,
    S_MELD_RANKS,
    S_MELDED,
    S_MINIMUM,
    S_R3_DEALT,
    S_R3_DRAWN,
    S_R3_PILE,
)
from .melds import check_plan_nb, meld_ok_nb, meld_size_nb
from .moves import discard_nb, draw_nb, end_turn_nb, meld_nb, pile_top_nb, take_pile_nb
from .plans import (
    add_pair_with_wild_nb,
    black_three_plan_nb,
    clear_plan_nb,
    fill_plan_nb,
    plan_size_nb,
    wilds_left_nb,
)
from .policy_common import pickup_candidates_nb

NATURAL_RANKS = ((1 << (LAST_NATURAL + 1)) - 1) ^ ((1 << FIRST_NATURAL) - 1)  # bits 4 .. A


# --- small helpers ------------------------------------------------------------------------
@kernel
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


# --- reading the table ------------------------------------------------------------------------
@inline_kernel
def pack_count_nb(rules, kind):
    """Cards of ``kind`` in the pack (R-01, R-02)."""
    decks = rules[R_N_CARDS] // 54
    if kind == RED_THREE or kind == BLACK_THREE or kind == JOKER:
        return 2 * decks
    return 4 * decks


@inline_kernel
def pile_memory_nb(state, rules):
    """What the discard pile (public: every player sees the discards) tells of the next player,
    as two bit masks over kinds: the ranks they saw on top of the pile and did not take (they
    lacked a pair then), and the ranks they discarded. Every turn ends with one discard, so
    while the pile has not been taken its cards above the upcard came from consecutive players,
    the top one from the current player's right-hand neighbour."""
    pile, g = state.pile, state.g
    n = g[G_PILE_LEN]
    players = rules[R_PLAYERS]
    # pile[n - b] came from the player b seats before the current one: b = players is the
    # current player (the next player passed on it), b = players - 1 the next player
    base = g[G_UPCARD_CARDS] if n == g[G_UPCARD_CARDS] + g[G_TURN] else 0
    passed = 0
    discarded = 0
    i = n - players + 1  # while loops: a range with a variable step divides to count its steps
    while i > base:
        discarded |= 1 << pile[i]
        passed |= 1 << pile[i - 1]
        i -= players
    if i == base:
        discarded |= 1 << pile[i]
    return passed, discarded


@inline_kernel
def unseen_wilds_nb(state, rules, seat):
    """Wild cards that ``seat`` cannot see: deuces and jokers not in its hand, not on the
    table, not in the discard pile."""
    hands, pile_counts, melded = state.hands, state.pile_counts, state.melded
    deuces = pack_count_nb(rules, DEUCE) - hands[seat, DEUCE] - pile_counts[DEUCE] - melded[DEUCE]
    jokers = pack_count_nb(rules, JOKER) - hands[seat, JOKER] - pile_counts[JOKER] - melded[JOKER]
    return max(deuces, 0) + max(jokers, 0)


@inline_kernel
def unknown_cards_nb(state, rules, seat):
    """Cards ``seat`` cannot see: the stock plus the other players' hands (sizes are public)."""
    g = state.g
    n = rules[R_N_CARDS] - g[G_STOCK_POS]
    for p in range(rules[R_PLAYERS]):
        if p != seat:
            n += state.hand_sizes[p]
    return n


@inline_kernel
def take_chance_nb(u, frozen, on_meld, melded, passed, discarded, q, miss_pow, p_wild):
    """Chance that the next player (an opponent, R-10) can take the pile if a natural card of a
    rank with ``u`` unseen cards is discarded now: certain if the pile is open to them
    (``frozen`` false) and their side has a meld of that rank (``on_meld``, R-33 c); otherwise
    the chance that their hand holds two of the unseen cards (R-32) or, on an open pile, one of
    them and a wild card (R-33 b). ``q`` is the chance that a given unseen card is in their
    hand, ``miss_pow[i]`` is ``(1 - q) ** i`` (at least ``u + 1`` entries), ``p_wild`` the
    chance that they hold a wild card. A side without its initial meld (``melded`` false) also
    needs the minimum count, which halves the chance; a rank the next player passed on (saw on
    top of the pile and did not take) or discarded is much less likely to be held in pairs."""
    if not frozen and on_meld:
        return 1.0
    if u <= 0:
        return 0.0
    p0 = miss_pow[u]
    p1 = u * q * miss_pow[u - 1]
    p2 = 1.0 - p0 - p1
    p = p2 if frozen else p2 + p1 * p_wild
    if not melded:
        p *= 0.5
    if passed:
        p *= 0.25
    elif discarded:
        p *= 0.5
    return p


@inline_kernel
def next_player_odds_nb(state, rules, seat):
    """``(q, p_wild)`` for :func:`take_chance_nb`: the chance that one unseen card sits in the
    next player's hand (their hand size over the unknown cards) and that they hold at least one
    of the unseen wild cards. Fills ``state.powers`` with ``(1 - q) ** i`` for ``i`` from 0 to
    the cards of a rank or of wild cards in the pack, whichever is more: a table, because
    chains of multiplications were a tenth of the discard choice's time."""
    powers = state.powers
    nxt = rules[R_NEXT_SEAT + seat]
    unknown = unknown_cards_nb(state, rules, seat)
    h = state.hand_sizes[nxt]
    q = h / unknown if unknown > 0 else 0.0
    if q > 1.0:
        q = 1.0
    w = unseen_wilds_nb(state, rules, seat)
    decks = rules[R_N_CARDS] // 54
    miss = 1.0 - q
    powers[0] = 1.0
    for i in range(1, 6 * decks + 1):  # 6 wild cards and 4 cards of a rank per deck
        powers[i] = powers[i - 1] * miss
    return q, 1.0 - powers[w]


@inline_kernel
def side_table_points_nb(state, rules, side):
    """Points a side has secured on the table (R-50, R-51, R-53): card values in its melds,
    canasta bonuses and red threes (negative while it has no meld)."""
    melds, sides = state.melds, state.sides
    pts = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        d = melds[side, r, M_DEUCES]
        j = melds[side, r, M_JOKERS]
        n = melds[side, r, M_NATURALS]
        pts += n * rules[R_VALUES + r] + d * rules[R_VALUES + DEUCE] + j * rules[R_VALUES + JOKER]
        if r != BLACK_THREE and n + d + j >= 7:
            pts += rules[R_NATURAL_CANASTA_BONUS] if d + j == 0 else rules[R_MIXED_CANASTA_BONUS]
    red = rules[
        R_RED_THREE_TABLE
        + sides[side, S_R3_DEALT]
        + sides[side, S_R3_DRAWN]
        + sides[side, S_R3_PILE]
    ]
    pts += red if sides[side, S_MELDED] != 0 else -red
    return pts


@inline_kernel
def opponents_threaten_nb(state, rules, seat, max_cards):
    """Whether an opponent may go out soon: their side has the canastas needed to go out (or one
    fewer and a meld of 6) and one of its players holds at most ``max_cards`` cards."""
    melds = state.melds
    n_sides = rules[R_SIDES]
    mine = rules[R_SIDE_OF + seat]
    need = rules[R_CANASTAS_TO_GO_OUT]
    for s in range(n_sides):
        if s == mine:
            continue
        c = state.sides[s, S_CANASTAS]
        if c < need - 1:
            continue
        if c < need:
            near = False
            for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
                if meld_size_nb(melds, s, r) == 6:
                    near = True
            if not near:
                continue
        for p in range(s, rules[R_PLAYERS], n_sides):
            if state.hand_sizes[p] <= max_cards:
                return True
    return False


@inline_kernel
def stock_left_nb(state, rules):
    g = state.g
    return rules[R_N_CARDS] - g[G_STOCK_POS]


# --- building plans ---------------------------------------------------------------------------
@inline_kernel
def plan_points_nb(rules, plan, top):
    """Card values (R-04) of a plan plus the pile's top card ``top`` (or -1): the minimum
    count of R-64."""
    pts = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        pts += plan[r, M_NATURALS] * rules[R_VALUES + r]
        pts += plan[r, M_DEUCES] * rules[R_VALUES + DEUCE]
        pts += plan[r, M_JOKERS] * rules[R_VALUES + JOKER]
    if top >= 0:
        pts += rules[R_VALUES + top]
    return pts


@kernel
def initial_plan_nb(state, rules, seat, plan, top, incoming, keep):
    """Add to ``plan`` an initial meld (R-64) that spends as few wild cards as it can: every
    natural of the ranks in the plan (and of ``top``), new melds of three or more naturals, then,
    only while the count is short of the side's minimum, natural pairs with a wild card (deuces
    before jokers) and single wild cards on the planned melds. Leaves at least ``keep`` cards in
    hand (``incoming``: cards reaching the hand in the same move). Returns the cards the hand
    keeps after the plan, ``incoming`` included."""
    hands, sides = state.hands, state.sides
    hand = hands[seat]
    side = rules[R_SIDE_OF + seat]
    minimum = sides[side, S_MINIMUM]
    left = state.hand_sizes[seat] - plan_size_nb(plan) + incoming
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        spare = hand[r] - plan[r, M_NATURALS]
        if spare <= 0 or left - spare < keep:
            continue
        in_plan = r == top or plan[r, M_NATURALS] + plan[r, M_DEUCES] + plan[r, M_JOKERS] > 0
        if in_plan or spare >= 3:
            plan[r, M_NATURALS] += spare
            left -= spare
    points = plan_points_nb(rules, plan, top)
    if points >= minimum:
        return left
    deuces, jokers = wilds_left_nb(hand, plan)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if points >= minimum or deuces + jokers == 0 or left - 3 < keep:
            break
        spare = hand[r] - plan[r, M_NATURALS]
        empty = r != top and plan[r, M_NATURALS] + plan[r, M_DEUCES] + plan[r, M_JOKERS] == 0
        if empty and spare == 2:
            wild = DEUCE if deuces > 0 else JOKER
            deuces, jokers = add_pair_with_wild_nb(plan, r, deuces, jokers, np.bool_(False))
            points += 2 * rules[R_VALUES + r] + rules[R_VALUES + wild]
            left -= 3
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        while points < minimum and deuces + jokers > 0 and left - 1 >= keep:
            t = 1 if r == top else 0
            n = plan[r, M_NATURALS] + t
            d = plan[r, M_DEUCES]
            j = plan[r, M_JOKERS]
            if n + d + j == 0:
                break
            if deuces > 0 and meld_ok_nb(n, d + 1, j, rules):
                plan[r, M_DEUCES] += 1
                deuces -= 1
                points += rules[R_VALUES + DEUCE]
            elif jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
                plan[r, M_JOKERS] += 1
                jokers -= 1
                points += rules[R_VALUES + JOKER]
            else:
                break
            left -= 1
    return left


@kernel
def out_plan_nb(state, rules, seat, plan):
    """Build in ``plan`` the melds that would empty the hand (or leave one card to discard):
    black threes (R-63), all naturals, natural pairs with a wild card, then the spare wild cards,
    placed on melds that already hold wild cards first and on natural canastas last (so going
    out spoils no natural canasta it can spare, R-67)."""
    hands, melds = state.hands, state.melds
    hand = hands[seat]
    side = rules[R_SIDE_OF + seat]
    clear_plan_nb(plan)
    black_three_plan_nb(hand, plan)
    fill_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(0), np.bool_(False))
    deuces, jokers = wilds_left_nb(hand, plan)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if deuces + jokers == 0:
            break
        spare = hand[r] - plan[r, M_NATURALS]
        if spare == 2 and meld_size_nb(melds, side, r) == 0 and plan[r, M_NATURALS] == 0:
            deuces, jokers = add_pair_with_wild_nb(plan, r, deuces, jokers, np.bool_(False))
    for stage in range(3):
        for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
            n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS]
            d = melds[side, r, M_DEUCES] + plan[r, M_DEUCES]
            j = melds[side, r, M_JOKERS] + plan[r, M_JOKERS]
            if n == 0:
                continue
            natural_canasta = d + j == 0 and n >= 7
            if stage == 0 and d + j == 0:
                continue
            if stage == 1 and natural_canasta:
                continue
            while deuces + jokers > 0:
                if jokers > 0 and meld_ok_nb(n, d, j + 1, rules):
                    plan[r, M_JOKERS] += 1
                    jokers -= 1
                    j += 1
                elif deuces > 0 and meld_ok_nb(n, d + 1, j, rules):
                    plan[r, M_DEUCES] += 1
                    deuces -= 1
                    d += 1
                else:
                    break


@kernel
def can_go_out_nb(state, rules, seat):
    """Whether ``seat`` could meld out (or down to a final discard) right now."""
    hands, scratch = state.hands, state.scratch
    side = rules[R_SIDE_OF + seat]
    if state.sides[side, S_CANASTAS] + 1 < rules[R_CANASTAS_TO_GO_OUT]:
        return False
    if out_blocked_nb(hands[seat], state.sides[side, S_MELD_RANKS]):
        return False
    plan = scratch[2]
    out_plan_nb(state, rules, seat, plan)
    err, out, conc = check_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0))
    return err == OK and out


@inline_kernel
def try_go_out_nb(state, rules, log):
    """Meld out (or down to the final discard) if the rules allow it now (R-40, R-41).
    Returns True if it melded."""
    g, scratch = state.g, state.scratch
    seat = g[G_CURRENT]
    if can_go_out_nb(state, rules, seat):
        return meld_nb(state, rules, scratch[2], log) == OK
    return False


# --- taking the pile --------------------------------------------------------------------------
@inline_kernel
def take_possible_nb(state, rules, seat, meld_pile, pair_pile, wild_pile):
    """Cheap test before :func:`try_take_nb`: the top card is a natural and the hand (or an
    open pile onto the side's meld) could take a pile of this size."""
    hands, pile, melds, sides, g = state.hands, state.pile, state.melds, state.sides, state.g
    plen = g[G_PILE_LEN]
    if plen == 0:
        return False
    top = pile[plen - 1]
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return False
    n = hands[seat, top]
    if n >= 2 and plen >= pair_pile:
        return True
    side = rules[R_SIDE_OF + seat]
    if g[G_PILE_FREEZE] > 0 or sides[side, S_MELDED] == 0:
        return False
    if meld_size_nb(melds, side, top) > 0:
        # a pair too small for pair_pile may still go onto the meld (meld_pile below pair_pile)
        return plen >= meld_pile
    return n == 1 and plen >= wild_pile and hands[seat, DEUCE] + hands[seat, JOKER] > 0


@kernel
def try_take_nb(state, rules, log, meld_pile, pair_pile, wild_pile):
    """Take the discard pile if it can be done cheaply (R-30..R-35): the top card onto the side's
    meld (an open pile, at least ``meld_pile`` cards), with natural cards of its rank (at least
    ``pair_pile`` cards), or, on an open pile of at least ``wild_pile`` cards, with one natural
    and one wild card. A side without its initial meld adds melds from hand to reach its
    minimum (R-64). Cheap pre-checks come first; one plan is built and checked once.
    Returns True if it took the pile."""
    hands, melds, sides, g, scratch = state.hands, state.melds, state.sides, state.g, state.scratch
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return False
    seat = g[G_CURRENT]
    side = rules[R_SIDE_OF + seat]
    hand = hands[seat]
    n = hand[top]
    plen = g[G_PILE_LEN]
    melded = sides[side, S_MELDED] != 0
    frozen = g[G_PILE_FREEZE] > 0 or not melded
    plan = scratch[0]
    if not frozen and meld_size_nb(melds, side, top) > 0 and plen >= meld_pile:
        clear_plan_nb(plan)
    elif n >= 2:
        if plen < pair_pile:
            return False
        clear_plan_nb(plan)
        plan[top, M_NATURALS] = n
    elif not frozen and n == 1 and hand[DEUCE] + hand[JOKER] > 0 and plen >= wild_pile:
        clear_plan_nb(plan)
        plan[top, M_NATURALS] = 1
        if hand[DEUCE] > 0:
            plan[top, M_DEUCES] = 1
        else:
            plan[top, M_JOKERS] = 1
    else:
        return False
    if not melded:
        initial_plan_nb(state, rules, seat, plan, top, plen - 1, np.int64(2))
    return take_pile_nb(state, rules, plan, log) == OK


@kernel
def forced_take_nb(state, rules, log):
    """R-44: the stock is empty and the player must take the pile: the top card onto the side's
    meld, or else the first legal way."""
    g, scratch = state.g, state.scratch
    plan = scratch[0]
    clear_plan_nb(plan)
    if take_pile_nb(state, rules, plan, log) == OK:
        return
    if pickup_candidates_nb(state, rules, g[G_CURRENT], scratch[:]) > 0:
        take_pile_nb(state, rules, scratch[0], log)


@inline_kernel
def draw_or_forced_nb(state, rules, log):
    """Draw from the stock; when R-44 forces a pickup instead, take the pile
    (:func:`forced_take_nb`)."""
    if draw_nb(state, rules, log) != OK:
        forced_take_nb(state, rules, log)


# --- discarding -------------------------------------------------------------------------------
@inline_kernel
def keep_value_nb(count, u, own_meld, points, pair_keep):
    """How much a player wants to keep a natural card (higher: keep; about 0 to 1.5): pairs and
    more (``count`` in hand; pile pickups, new melds) most (``pair_keep``), cards of a rank its
    side has melded (``own_meld``) next, single cards by their chance of pairing (``u`` unseen
    cards of the rank), minus a little of their penalty value (``points``)."""
    v = 0.0
    if count >= 2:
        v += pair_keep + 0.1 * count
    else:
        v += 0.04 * u
    if own_meld:
        v += 0.25
    return v - 0.002 * points


BLACK_THREE_KEEP = 0.3  # keep value of a black three held back for a later block
WILD_KEEP = 1.0  # keep value of a wild card, before its freeze_risk term


@kernel
def choose_discard_nb(state, rules, seat, safety, block_at, freeze_risk, freeze_pile, pair_keep):
    """Pick the card to discard (R-20 step 3): the lowest ``keep value + safety * danger``,
    where danger is :func:`take_chance_nb` times the cards the next player would take (the
    expected cards handed to them) and the keep value is :func:`keep_value_nb`.

    Black threes and wild cards carry no danger (the next player cannot take the pile, R-23,
    R-30). A black three goes at once when the pile holds at least ``block_at`` cards, when two
    or more are held (two left in hand stop going out, R-41) or when the hand is small;
    otherwise it is kept back with keep value ``BLACK_THREE_KEEP``. A wild card, which freezes
    the pile (R-24, R-31), counts ``WILD_KEEP + safety * freeze_risk``: it goes when the safest
    other discard would hand the next player about ``freeze_risk`` expected cards or more, and
    only on a pile of at least ``freeze_pile`` cards. Returns the kind."""
    hands, sides, g, powers = state.hands, state.sides, state.g, state.powers
    hand = hands[seat]
    plen = g[G_PILE_LEN]
    if hand[BLACK_THREE] > 0:
        if plen >= block_at or hand[BLACK_THREE] >= 2 or state.hand_sizes[seat] <= 3:
            return BLACK_THREE
    passed, discarded = pile_memory_nb(state, rules)
    q, p_wild = next_player_odds_nb(state, rules, seat)
    side = rules[R_SIDE_OF + seat]
    opp = rules[R_SIDE_OF + rules[R_NEXT_SEAT + seat]]
    opp_melded = sides[opp, S_MELDED] != 0
    # every meld holds naturals, so "a meld of rank k" is "naturals of rank k melded"
    opp_ranks = sides[opp, S_MELD_RANKS]
    own_ranks = sides[side, S_MELD_RANKS]
    frozen = g[G_PILE_FREEZE] > 0 or not opp_melded
    per_rank = 4 * (rules[R_N_CARDS] // 54)
    best = -1
    best_v = 1e18
    # only the ranks held are scored, in rank order, walked as the set bits of a mask: a test
    # per rank was a branch on the hand's counts, too irregular to predict
    held = 0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        held |= (1 if hand[k] > 0 else 0) << k
    while held != 0:
        k = trailing_zeros(held)
        held &= held - 1
        c = hand[k]
        u = per_rank - c - state.pile_counts[k] - state.melded[k]
        on_meld = (opp_ranks >> k) & 1 != 0
        p = take_chance_nb(
            u,
            frozen,
            on_meld,
            opp_melded,
            (passed >> k) & 1 != 0,
            (discarded >> k) & 1 != 0,
            q,
            powers,
            p_wild,
        )
        own_meld = (own_ranks >> k) & 1 != 0
        v = keep_value_nb(c, u, own_meld, rules[R_VALUES + k], pair_keep)
        v += safety * p * (plen + 1)
        if v < best_v:
            best_v = v
            best = k
    if hand[BLACK_THREE] > 0 and (BLACK_THREE_KEEP < best_v or best < 0):
        best_v = BLACK_THREE_KEEP
        best = BLACK_THREE
    wild = DEUCE if hand[DEUCE] > 0 else (JOKER if hand[JOKER] > 0 else -1)
    if wild >= 0:
        if best < 0 or (plen >= freeze_pile and WILD_KEEP + safety * freeze_risk < best_v):
            best = wild
    return best


@kernel
def discard_safe_nb(state, rules, log, safety, block_at, freeze_risk, freeze_pile, pair_keep):
    """Discard the card :func:`choose_discard_nb` picks (falling back to any card the move
    kernel accepts); after a last-card red three the deal ends instead (R-45)."""
    hands, g = state.hands, state.g
    if g[G_LAST_RED_THREE] != 0:
        end_turn_nb(state, rules, log)
        return
    seat = g[G_CURRENT]
    k = choose_discard_nb(state, rules, seat, safety, block_at, freeze_risk, freeze_pile, pair_keep)
    if k >= 0 and discard_nb(state, rules, np.int64(k), log) == OK:
        return
    for k in range(N_KINDS):
        if hands[seat, k] > 0 and discard_nb(state, rules, k, log) == OK:
            return


# --- the careful policy -----------------------------------------------------------------------
@kernel
def careful_melds_nb(state, rules, log):
    """Go out when the rules allow it; otherwise meld only when there is a reason to: an
    opponent threatens to go out, the stock is down to a quarter of the pack, or the hand holds
    14 cards or more. It then melds what it can but keeps natural pairs and, unless threatened,
    its wild cards; its initial meld otherwise comes with a pile pickup."""
    hands, sides, g, scratch = state.hands, state.sides, state.g, state.scratch
    seat = g[G_CURRENT]
    side = rules[R_SIDE_OF + seat]
    hand = hands[seat]
    if try_go_out_nb(state, rules, log):
        return
    threat = opponents_threaten_nb(state, rules, seat, np.int64(4))
    low_stock = stock_left_nb(state, rules) * 4 <= rules[R_N_CARDS]
    if not (threat or low_stock or state.hand_sizes[seat] >= 14):
        return
    melded = sides[side, S_MELDED] != 0
    if state.hand_sizes[seat] <= 2 or not meld_material_nb(hand, sides[side, S_MELD_RANKS]):
        return
    plan = scratch[1]
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
def careful_turn_nb(state, rules, log):
    """One whole turn of the careful policy: take the pile with naturals (never a wild card),
    else draw; meld late (:func:`careful_melds_nb`); discard the safest card, freezing a pile
    of 10 or more cards with a wild card when every other discard is risky."""
    g = state.g
    if g[G_PHASE] == PHASE_DRAW:
        seat = g[G_CURRENT]
        if not (
            take_possible_nb(state, rules, seat, 1, 1, 1 << 20)
            and try_take_nb(state, rules, log, np.int64(1), np.int64(1), np.int64(1 << 20))
        ):
            draw_or_forced_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        careful_melds_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        discard_safe_nb(state, rules, log, 100.0, np.int64(8), 0.005, np.int64(10), 1000.0)
