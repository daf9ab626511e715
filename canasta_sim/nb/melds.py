"""Meld legality, minimum counts, canastas and going out (R-40..R-42, R-60..R-67).

A *meld plan* is ``ndarray(int8, (N_KINDS, 3))``: for each rank row (black three, 4 .. A) the
naturals, deuces and jokers a player adds from hand to the side's meld of that rank. Rows of
the red three, deuce and joker are always zero. Every move kernel and every bot validates a
plan here before it touches the state, so bots can only make legal moves.
"""

from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit

from .jit import inline_kernel, kernel
from .layout import (
    BLACK_THREE,
    DEUCE,
    ERR_EMPTY,
    ERR_NOT_IN_HAND,
    FIRST_NATURAL,
    G_LAST_RED_THREE,
    G_TOUCHED_OLD,
    G_TURN,
    JOKER,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    OK,
    P_FIRST_MELD_TURN,
    R_CANASTAS_TO_GO_OUT,
    R_CONCEALED_OUT_NEEDS_MINIMUM,
    R_MIN_COUNTS,
    R_MIN_THRESHOLDS,
    R_NEGATIVE_MINIMUM,
    R_SIDE_OF,
    R_VALUES,
    R_WILDS_AT_MOST_NATURALS,
    S_CANASTAS,
    S_MELDED,
    S_MINIMUM,
)


@kernel
def meld_ok_nb(naturals, deuces, jokers, rules):
    """R-60/R-61: is a meld of one rank 4..A with these cards legal?"""
    wilds = deuces + jokers
    if naturals + wilds < 3 or naturals < 2 or wilds > 3:
        return False
    return not (rules[R_WILDS_AT_MOST_NATURALS] != 0 and wilds > naturals)


@kernel
def minimum_count_nb(score, rules):
    """R-64: minimum count (points) of a side whose cumulative score is ``score`` points."""
    if score < 0:
        return rules[R_NEGATIVE_MINIMUM]
    minimum = rules[R_MIN_COUNTS]
    for i in range(4):
        if score >= rules[R_MIN_THRESHOLDS + i]:
            minimum = rules[R_MIN_COUNTS + i]
    return minimum


@kernel
def meld_size_nb(melds, side, rank):
    return melds[side, rank, M_NATURALS] + melds[side, rank, M_DEUCES] + melds[side, rank, M_JOKERS]


@inline_kernel
def canasta_started_nb(state, side, turn):
    """Whether ``side`` has a canasta (R-65) among the melds started in turn ``turn`` (R-42)."""
    melds, meld_turn = state.melds, state.meld_turn
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        if meld_turn[side, r] == turn and meld_size_nb(melds, side, r) >= 7:
            return True
    return False


@inline_kernel
def plan_rows_nb(plan, top):
    """Bit mask of the rank rows of ``plan`` that are not all zero, and of ``top`` (a pile card
    melded in the same move, or -1): loops over it (``trailing_zeros``, lowest rank first)
    visit only those rows, without a branch per rank on the hand's cards."""
    rows = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        rows |= (1 if plan[r, M_NATURALS] | plan[r, M_DEUCES] | plan[r, M_JOKERS] else 0) << r
    if top >= 0:
        rows |= 1 << top
    return rows


@inline_kernel
def last_card_meld_nb(state, rules, side, hand, plan, top, deuces, jokers):
    """R-40 judged on the whole turn: the rank of the side's meld that the one card left in
    hand after ``plan`` (with a pickup, ``top`` >= 0, the rest of the pile included) turns into
    a canasta when added to it, or -1. Adding it empties the hand, so the player goes out.

    ``deuces`` and ``jokers`` are the wild cards ``plan`` takes from the hand.
    """
    melds = state.melds
    last = -1
    for k in range(BLACK_THREE, N_KINDS):
        if k == DEUCE:
            n = hand[k] - deuces
        elif k == JOKER:
            n = hand[k] - jokers
        else:
            n = hand[k] - plan[k, M_NATURALS]
        if top >= 0:
            n += state.pile_counts[k] - (1 if k == top else 0)
        if n > 0:
            last = k
    if last < FIRST_NATURAL:
        return -1  # a black three never goes onto a meld that can become a canasta
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        if last <= LAST_NATURAL and r != last:
            continue
        n = melds[side, r, M_NATURALS] + plan[r, M_NATURALS] + (1 if r == top else 0)
        n += 1 if r == last else 0
        d = melds[side, r, M_DEUCES] + plan[r, M_DEUCES] + (1 if last == DEUCE else 0)
        j = melds[side, r, M_JOKERS] + plan[r, M_JOKERS] + (1 if last == JOKER else 0)
        if n + d + j == 7 and meld_ok_nb(n, d, j, rules):
            return r
    return -1


@kernel
def check_plan_nb(state, rules, seat, plan, top, incoming):
    """Check a meld plan for ``seat`` against R-22, R-40..R-42, R-60..R-64.

    Parameters
    ----------
    state : record of state.STATE_DTYPE
        The deal state (read only).
    rules : ndarray(int32, (RULES_LEN,))
    seat : int
    plan : ndarray(int8, (N_KINDS, 3))
        Cards from hand per rank row (naturals, deuces, jokers).
    top : int
        Kind of the pile's top card melded in the same move (a pickup, R-34), or -1.
    incoming : int
        Cards that reach the hand in the same move (the rest of a taken pile).

    Returns
    -------
    (int, bool, bool)
        Error code (0, or the rule id broken), whether the move goes out (the hand is left
        with 0 cards, or 1 to discard), and whether going out is concealed (R-42).
    """
    hands, melds, meld_turn, sides, seats, g = (
        state.hands,
        state.melds,
        state.meld_turn,
        state.sides,
        state.seats,
        state.g,
    )
    side = rules[R_SIDE_OF + seat]
    hand = hands[seat]
    if (
        plan[0, 0]
        | plan[0, 1]
        | plan[0, 2]
        | plan[DEUCE, 0]
        | plan[DEUCE, 1]
        | plan[DEUCE, 2]
        | plan[JOKER, 0]
        | plan[JOKER, 1]
        | plan[JOKER, 2]
    ):
        return ERR_NOT_IN_HAND, False, False
    turn = g[G_TURN]
    n_played = 0
    deuces = 0
    jokers = 0
    points = 0
    black_threes = False
    own_canasta = False  # a canasta among the melds started this turn, in the plan
    touches_old = False
    # one pass over the rows the plan touches (the side's other melds count only through its
    # running canasta count): cards in hand, R-60/R-61/R-63 per meld, points, new canastas
    canastas = sides[side, S_CANASTAS]
    rows = plan_rows_nb(plan, top)
    while rows != 0:
        r = trailing_zeros(rows)
        rows &= rows - 1
        t = 1 if r == top else 0
        a, d, j = plan[r, M_NATURALS], plan[r, M_DEUCES], plan[r, M_JOKERS]
        if a < 0 or d < 0 or j < 0 or a > hand[r]:
            return ERR_NOT_IN_HAND, False, False
        n_played += a + d + j
        deuces += d
        jokers += j
        a += t
        old = melds[side, r, M_NATURALS] + melds[side, r, M_DEUCES] + melds[side, r, M_JOKERS]
        n = melds[side, r, M_NATURALS] + a
        nd = melds[side, r, M_DEUCES] + d
        nj = melds[side, r, M_JOKERS] + j
        if r == BLACK_THREE:
            if d + j > 0 or n < 3 or n > 4:
                return 63, False, False
            black_threes = True
        elif not meld_ok_nb(n, nd, nj, rules):
            return 61 if old > 0 else 60, False, False
        points += a * rules[R_VALUES + r] + d * rules[R_VALUES + DEUCE]
        points += j * rules[R_VALUES + JOKER]
        if old > 0 and meld_turn[side, r] < turn:
            touches_old = True
        if r != BLACK_THREE and n + nd + nj >= 7:
            if old < 7:
                canastas += 1
            if old == 0 or meld_turn[side, r] == turn:
                own_canasta = True
    if deuces > hand[DEUCE] or jokers > hand[JOKER]:
        return ERR_NOT_IN_HAND, False, False
    if n_played == 0 and top < 0:
        return ERR_EMPTY, False, False
    left = state.hand_sizes[seat] - n_played + incoming
    last_red_three = g[G_LAST_RED_THREE] != 0
    going_out = left == 0 or (left == 1 and not last_red_three)
    if black_threes and not going_out:
        return 63, False, False
    if going_out and canastas < rules[R_CANASTAS_TO_GO_OUT]:
        # keeping fewer than two cards is going out, which needs canastas; judged
        # on the whole turn, one card left may still complete the last canasta needed
        if left != 1 or canastas + 1 < rules[R_CANASTAS_TO_GO_OUT]:
            return 40, False, False
        r = last_card_meld_nb(state, rules, side, hand, plan, top, deuces, jokers)
        if r < 0:
            return 40, False, False
        if meld_size_nb(melds, side, r) == 0 or meld_turn[side, r] == turn:
            own_canasta = True
    first = seats[seat, P_FIRST_MELD_TURN]
    concealed_out = (
        going_out
        and (first < 0 or first == turn)
        and not touches_old
        and g[G_TOUCHED_OLD] == 0
        and (own_canasta or canasta_started_nb(state, side, turn))
    )
    if sides[side, S_MELDED] == 0 and points < sides[side, S_MINIMUM]:
        # R-42 waives the minimum for melds from the hand only: a pickup reaches it
        waived = concealed_out and top < 0 and rules[R_CONCEALED_OUT_NEEDS_MINIMUM] == 0
        if not waived:
            return 64, False, False
    return OK, going_out, concealed_out
