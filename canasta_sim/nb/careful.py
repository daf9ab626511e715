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
row 2: going out, row 39 column 0: the discard pile's card counts).
"""

import numba as nb

from .layout import (
    BLACK_THREE, DEUCE, FIRST_NATURAL, G_CURRENT, G_LAST_RED_THREE, G_PHASE, G_PILE_FREEZE,
    G_PILE_LEN, G_STOCK_POS, JOKER, LAST_NATURAL, M_DEUCES, M_JOKERS, M_NATURALS, N_KINDS, OK,
    PHASE_DRAW, PHASE_PLAY, R_CANASTAS_TO_GO_OUT, R_MIXED_CANASTA_BONUS, R_N_CARDS,
    R_NATURAL_CANASTA_BONUS, R_PLAYERS, R_RED_THREE_TABLE, R_SIDES, R_VALUES, RED_THREE,
    S_MELDED, S_MINIMUM, S_R3_DEALT, S_R3_DRAWN, S_R3_PILE,
)
from .melds import canastas_nb, check_plan_nb, hand_size_nb, meld_ok_nb, meld_size_nb
from .moves import discard_nb, draw_nb, end_turn_nb, meld_nb, pile_top_nb, take_pile_nb
from .plans import black_three_plan_nb, clear_plan_nb, fill_plan_nb, plan_size_nb, wilds_left_nb
from .policy_common import pickup_candidates_nb

PILE_COUNT_ROW = 39  # scratch row whose column 0 holds the pile's card counts per kind


# --- reading the table ------------------------------------------------------------------------
@nb.njit(cache=True)
def pack_count_nb(rules, kind):
    """Cards of ``kind`` in the pack (R-01, R-02)."""
    decks = rules[R_N_CARDS] // 54
    if kind == RED_THREE or kind == BLACK_THREE or kind == JOKER:
        return 2 * decks
    return 4 * decks


@nb.njit(cache=True)
def count_pile_nb(state):
    """Count the discard pile's cards per kind into ``scratch[PILE_COUNT_ROW, :, 0]`` (public:
    every player sees the discards) and return that view."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    pc = scratch[PILE_COUNT_ROW, :, 0]
    for k in range(N_KINDS):
        pc[k] = 0
    for i in range(g[G_PILE_LEN]):
        pc[pile[i]] += 1
    return pc


@nb.njit(cache=True)
def unseen_nb(state, rules, seat, kind, pc):
    """Cards of ``kind`` that ``seat`` cannot see: not in its hand, not on the table, not in the
    discard pile (``pc``: pile counts from :func:`count_pile_nb`)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    seen = hands[seat, kind] + pc[kind]
    for s in range(rules[R_SIDES]):
        if kind == DEUCE:
            for r in range(BLACK_THREE, LAST_NATURAL + 1):
                seen += melds[s, r, M_DEUCES]
        elif kind == JOKER:
            for r in range(BLACK_THREE, LAST_NATURAL + 1):
                seen += melds[s, r, M_JOKERS]
        elif kind != RED_THREE:
            seen += melds[s, kind, M_NATURALS]
    n = pack_count_nb(rules, kind) - seen
    return n if n > 0 else 0


@nb.njit(cache=True)
def unknown_cards_nb(state, rules, seat):
    """Cards ``seat`` cannot see: the stock plus the other players' hands (sizes are public)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    n = rules[R_N_CARDS] - g[G_STOCK_POS]
    for p in range(rules[R_PLAYERS]):
        if p != seat:
            n += hand_size_nb(hands[p])
    return n


@nb.njit(cache=True)
def take_chance_nb(state, rules, seat, kind, pc, q, p_wild):
    """Chance that the next player (an opponent, R-10) can take the pile if ``seat`` discards a
    natural ``kind`` now: certain if the pile is open to them and their side has a meld of that
    rank (R-33 c); otherwise the chance that their hand holds two of the unseen cards of the rank
    (R-32) or, on an open pile, one of them and a wild card (R-33 b). ``q`` is the chance that a
    given unseen card is in their hand, ``p_wild`` that they hold a wild card. A side without its
    initial meld also needs the minimum count, which halves the chance."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    nxt = (seat + 1) % rules[R_PLAYERS]
    opp = nxt % rules[R_SIDES]
    melded = sides[opp, S_MELDED] != 0
    frozen = g[G_PILE_FREEZE] > 0 or not melded
    if not frozen and meld_size_nb(melds, opp, kind) > 0:
        return 1.0
    u = unseen_nb(state, rules, seat, kind, pc)
    if u == 0:
        return 0.0
    miss = 1.0 - q
    p0 = 1.0
    for _ in range(u - 1):
        p0 *= miss
    p1 = u * q * p0
    p0 *= miss
    p2 = 1.0 - p0 - p1
    p = p2 if frozen else p2 + p1 * p_wild
    if not melded:
        p *= 0.5
    return p


@nb.njit(cache=True)
def next_player_odds_nb(state, rules, seat, pc):
    """``(q, p_wild)`` for :func:`take_chance_nb`: the chance that one unseen card sits in the
    next player's hand (their hand size over the unknown cards) and that they hold at least one
    of the unseen wild cards."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    nxt = (seat + 1) % rules[R_PLAYERS]
    unknown = unknown_cards_nb(state, rules, seat)
    h = hand_size_nb(hands[nxt])
    q = h / unknown if unknown > 0 else 0.0
    if q > 1.0:
        q = 1.0
    w = unseen_nb(state, rules, seat, DEUCE, pc) + unseen_nb(state, rules, seat, JOKER, pc)
    miss = 1.0
    for _ in range(w):
        miss *= 1.0 - q
    return q, 1.0 - miss


@nb.njit(cache=True)
def side_table_points_nb(state, rules, side):
    """Points a side has secured on the table (R-50, R-51, R-53): card values in its melds,
    canasta bonuses and red threes (negative while it has no meld)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    pts = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        d = melds[side, r, M_DEUCES]
        j = melds[side, r, M_JOKERS]
        n = melds[side, r, M_NATURALS]
        pts += n * rules[R_VALUES + r] + d * rules[R_VALUES + DEUCE] + j * rules[R_VALUES + JOKER]
        if r != BLACK_THREE and n + d + j >= 7:
            pts += rules[R_NATURAL_CANASTA_BONUS] if d + j == 0 else rules[R_MIXED_CANASTA_BONUS]
    red = rules[R_RED_THREE_TABLE + sides[side, S_R3_DEALT] + sides[side, S_R3_DRAWN]
                + sides[side, S_R3_PILE]]
    pts += red if sides[side, S_MELDED] != 0 else -red
    return pts


@nb.njit(cache=True)
def opponents_threaten_nb(state, rules, seat, max_cards):
    """Whether an opponent may go out soon: their side has the canastas needed to go out (or one
    fewer and a meld of 6) and one of its players holds at most ``max_cards`` cards."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    n_sides = rules[R_SIDES]
    mine = seat % n_sides
    need = rules[R_CANASTAS_TO_GO_OUT]
    for s in range(n_sides):
        if s == mine:
            continue
        c = canastas_nb(melds, s)
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
            if hand_size_nb(hands[p]) <= max_cards:
                return True
    return False


@nb.njit(cache=True)
def stock_left_nb(state, rules):
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    return rules[R_N_CARDS] - g[G_STOCK_POS]


# --- building plans ---------------------------------------------------------------------------
@nb.njit(cache=True)
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


@nb.njit(cache=True)
def initial_plan_nb(state, rules, seat, plan, top, incoming, keep):
    """Add to ``plan`` an initial meld (R-64) that spends as few wild cards as it can: every
    natural of the ranks in the plan (and of ``top``), new melds of three or more naturals, then,
    only while the count is short of the side's minimum, natural pairs with a wild card (deuces
    before jokers) and single wild cards on the planned melds. Leaves at least ``keep`` cards in
    hand (``incoming``: cards reaching the hand in the same move)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    hand = hands[seat]
    side = seat % rules[R_SIDES]
    minimum = sides[side, S_MINIMUM]
    left = hand_size_nb(hand) - plan_size_nb(plan) + incoming
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
        return
    deuces, jokers = wilds_left_nb(hand, plan)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if points >= minimum or deuces + jokers == 0 or left - 3 < keep:
            break
        spare = hand[r] - plan[r, M_NATURALS]
        empty = r != top and plan[r, M_NATURALS] + plan[r, M_DEUCES] + plan[r, M_JOKERS] == 0
        if empty and spare == 2:
            plan[r, M_NATURALS] += 2
            points += 2 * rules[R_VALUES + r]
            if deuces > 0:
                plan[r, M_DEUCES] += 1
                deuces -= 1
                points += rules[R_VALUES + DEUCE]
            else:
                plan[r, M_JOKERS] += 1
                jokers -= 1
                points += rules[R_VALUES + JOKER]
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


@nb.njit(cache=True)
def out_plan_nb(state, rules, seat, plan):
    """Build in ``plan`` the melds that would empty the hand (or leave one card to discard):
    black threes (R-63), all naturals, natural pairs with a wild card, then the spare wild cards,
    placed on melds that already hold wild cards first and on natural canastas last (so going
    out spoils no natural canasta it can spare, R-67)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    hand = hands[seat]
    side = seat % rules[R_SIDES]
    clear_plan_nb(plan)
    black_three_plan_nb(hand, plan)
    fill_plan_nb(state, rules, seat, plan, -1, 0, 0, False)
    deuces, jokers = wilds_left_nb(hand, plan)
    for r in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        if deuces + jokers == 0:
            break
        spare = hand[r] - plan[r, M_NATURALS]
        if spare == 2 and meld_size_nb(melds, side, r) == 0 and plan[r, M_NATURALS] == 0:
            plan[r, M_NATURALS] = 2
            if deuces > 0:
                plan[r, M_DEUCES] += 1
                deuces -= 1
            else:
                plan[r, M_JOKERS] += 1
                jokers -= 1
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


@nb.njit(cache=True)
def try_go_out_nb(state, rules, log):
    """Meld out (or down to the final discard) if the rules allow it now (R-40, R-41).
    Returns True if it melded."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    seat = g[G_CURRENT]
    plan = scratch[2]
    out_plan_nb(state, rules, seat, plan)
    err, out, conc = check_plan_nb(state, rules, seat, plan, -1, 0)
    if err == OK and out:
        return meld_nb(state, rules, plan, log) == OK
    return False


@nb.njit(cache=True)
def can_go_out_nb(state, rules, seat):
    """Whether ``seat`` could meld out (or down to a final discard) right now."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    if canastas_nb(melds, seat % rules[R_SIDES]) + 1 < rules[R_CANASTAS_TO_GO_OUT]:
        return False
    plan = scratch[2]
    out_plan_nb(state, rules, seat, plan)
    err, out, conc = check_plan_nb(state, rules, seat, plan, -1, 0)
    return err == OK and out


# --- taking the pile --------------------------------------------------------------------------
@nb.njit(cache=True)
def try_take_nb(state, rules, log, min_pile, wild_pile):
    """Take the discard pile if it can be done cheaply (R-30..R-35): the top card onto the side's
    meld (an open pile, at least ``min_pile`` cards), with natural cards of its rank (at least
    ``min_pile`` cards), or, on an open pile of at least ``wild_pile`` cards, with one natural
    and one wild card. A side without its initial meld adds melds from hand to reach its
    minimum (R-64). Cheap pre-checks come first; one plan is built and checked once.
    Returns True if it took the pile."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    top = pile_top_nb(state)
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return False
    seat = g[G_CURRENT]
    side = seat % rules[R_SIDES]
    hand = hands[seat]
    n = hand[top]
    plen = g[G_PILE_LEN]
    melded = sides[side, S_MELDED] != 0
    frozen = g[G_PILE_FREEZE] > 0 or not melded
    plan = scratch[0]
    if not frozen and meld_size_nb(melds, side, top) > 0:
        if plen < min_pile:
            return False
        clear_plan_nb(plan)
    elif n >= 2:
        if plen < min_pile:
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
        initial_plan_nb(state, rules, seat, plan, top, plen - 1, 2)
    return take_pile_nb(state, rules, plan, log) == OK


@nb.njit(cache=True)
def draw_or_forced_nb(state, rules, log):
    """Draw from the stock; when R-44 forces a pickup instead, take the pile (top card onto the
    side's meld, or the first legal way)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    if draw_nb(state, rules, log) == OK:
        return
    plan = scratch[0]
    clear_plan_nb(plan)
    if take_pile_nb(state, rules, plan, log) == OK:
        return
    if pickup_candidates_nb(state, rules, g[G_CURRENT], scratch) > 0:
        take_pile_nb(state, rules, scratch[0], log)


# --- discarding -------------------------------------------------------------------------------
@nb.njit(cache=True)
def keep_value_nb(state, rules, seat, kind, pc):
    """How much ``seat`` wants to keep a natural card of ``kind`` (higher: keep): pairs and
    more (pile pickups, new melds) most, cards of its side's melds next, single cards by their
    chance of pairing (unseen cards of the rank) minus a little of their penalty value."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    side = seat % rules[R_SIDES]
    c = hands[seat, kind]
    v = 0.0
    if c >= 2:
        v += 60.0 + 10.0 * c
    else:
        v += 4.0 * unseen_nb(state, rules, seat, kind, pc)
    if meld_size_nb(melds, side, kind) > 0:
        v += 25.0
    return v - 0.2 * rules[R_VALUES + kind]


@nb.njit(cache=True)
def choose_discard_nb(state, rules, seat, safety, block_at, freeze_at, wild_keep):
    """Pick the card to discard (R-20 step 3): the lowest ``keep value + safety * danger``,
    where danger is :func:`take_chance_nb` times the cards the next player would take.

    A black three (R-23: the next player cannot take the pile) goes when the pile holds at
    least ``block_at`` cards, when two or more are held (two left in hand stop going out, R-41)
    or when the hand is small; otherwise it is kept back. A wild card goes to freeze the pile
    (R-24, R-31) when the pile holds at least ``freeze_at`` cards (0: never), is not frozen yet,
    is open to the next player and every natural discard is risky; otherwise wild cards are
    kept (``wild_keep``: their keep value). Returns the kind."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    hand = hands[seat]
    plen = g[G_PILE_LEN]
    size = hand_size_nb(hand)
    pc = count_pile_nb(state)
    q, p_wild = next_player_odds_nb(state, rules, seat, pc)
    best = -1
    best_v = 1e18
    best_danger = 0.0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        if hand[k] == 0:
            continue
        danger = take_chance_nb(state, rules, seat, k, pc, q, p_wild) * (plen + 1)
        v = keep_value_nb(state, rules, seat, k, pc) + safety * danger
        if v < best_v:
            best_v = v
            best = k
            best_danger = danger
    if hand[BLACK_THREE] > 0:
        if plen >= block_at or hand[BLACK_THREE] >= 2 or size <= 3 or best < 0:
            return BLACK_THREE
        v = 30.0
        if v < best_v:
            best_v = v
            best = BLACK_THREE
            best_danger = 0.0
    wild = DEUCE if hand[DEUCE] > 0 else (JOKER if hand[JOKER] > 0 else -1)
    if wild >= 0:
        nxt_side = ((seat + 1) % rules[R_PLAYERS]) % rules[R_SIDES]
        open_to_next = g[G_PILE_FREEZE] == 0 and sides[nxt_side, S_MELDED] != 0
        if (freeze_at > 0 and plen >= freeze_at and open_to_next and best_danger >= 1.0
                and best != BLACK_THREE):
            return wild
        if wild_keep < best_v or best < 0:
            return wild
    return best


@nb.njit(cache=True)
def discard_safe_nb(state, rules, log, safety, block_at, freeze_at, wild_keep):
    """Discard the card :func:`choose_discard_nb` picks (falling back to any card the move
    kernel accepts); after a last-card red three the deal ends instead (R-45)."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    if g[G_LAST_RED_THREE] != 0:
        end_turn_nb(state, rules, log)
        return
    seat = g[G_CURRENT]
    k = choose_discard_nb(state, rules, seat, safety, block_at, freeze_at, wild_keep)
    if k >= 0 and discard_nb(state, rules, k, log) == OK:
        return
    for k in range(N_KINDS):
        if hands[seat, k] > 0 and discard_nb(state, rules, k, log) == OK:
            return


# --- the careful policy -----------------------------------------------------------------------
@nb.njit(cache=True)
def careful_melds_nb(state, rules, log):
    """Go out when the rules allow it; otherwise meld only when there is a reason to: an
    opponent threatens to go out, the stock is down to a quarter of the pack, or the hand holds
    14 cards or more. It then melds what it can but keeps natural pairs and, unless threatened,
    its wild cards; its initial meld otherwise comes with a pile pickup."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    seat = g[G_CURRENT]
    side = seat % rules[R_SIDES]
    if canastas_nb(melds, side) + 1 >= rules[R_CANASTAS_TO_GO_OUT]:
        if try_go_out_nb(state, rules, log):
            return
    threat = opponents_threaten_nb(state, rules, seat, 4)
    low_stock = stock_left_nb(state, rules) * 4 <= rules[R_N_CARDS]
    if not (threat or low_stock or hand_size_nb(hands[seat]) >= 14):
        return
    plan = scratch[1]
    clear_plan_nb(plan)
    if sides[side, S_MELDED] == 0:
        initial_plan_nb(state, rules, seat, plan, -1, 0, 2)
    else:
        fill_plan_nb(state, rules, seat, plan, -1, 0, 2, threat or low_stock)
    if plan_size_nb(plan) == 0:
        return
    err, out, conc = check_plan_nb(state, rules, seat, plan, -1, 0)
    if err == OK:
        meld_nb(state, rules, plan, log)


@nb.njit(cache=True)
def careful_turn_nb(state, rules, log):
    """One whole turn of the careful policy: take the pile with naturals (never a wild card),
    else draw; meld late (:func:`careful_melds_nb`); discard the safest card, freezing a pile
    of 10 or more cards with a wild card when every other discard is risky."""
    hands, stock, pile, melds, meld_turn, meld_flags, sides, seats, g, rng, scratch = state
    if g[G_PHASE] == PHASE_DRAW:
        if not try_take_nb(state, rules, log, 1, 1 << 20):
            draw_or_forced_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        careful_melds_nb(state, rules, log)
    if g[G_PHASE] == PHASE_PLAY:
        discard_safe_nb(state, rules, log, 10.0, 8, 10, 200.0)
