"""Melds: the check of a meld plan and its application, side by side (R-40..R-42, R-60..R-67).

A *meld plan* is ``ndarray(int8, (N_KINDS, 3))``: for each rank row (black three, 4 .. A) the
naturals, deuces and jokers (:data:`~canasta_sim.nb.enums.MeldCol`) a player adds from hand
to the side's meld of that rank. Rows of the red three, deuce and joker are always zero. Every
move kernel validates a plan with :func:`check_plan_nb` before :func:`apply_plan_nb` touches
the state, so bots can only make legal moves.
"""

from llvmlite import ir
from numba.core import cgutils, types
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    Event,
    MeldCol,
    MeldFlag,
    MoveError,
    RuleSlot,
    SeatSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from .state import forget_known_nb, log_event_nb

_PLAN_TYPE = types.Array(types.int8, 2, "C")


@intrinsic
def empty_plan_nb(typingctx):
    """An empty meld plan, ``ndarray(int8, (N_KINDS, 3))`` of zeros, on the calling kernel's
    stack: the kernels cannot allocate (no NRT), and the state holds only the game. Typed as the
    plain C array every other plan is, so its callees compile once. It lives as long as the
    kernel that made it: never return or store it."""

    def codegen(context, builder, signature, args):
        byte = ir.IntType(8)
        # alloca in the entry block (once per call, loops included), zeroed here at each use
        data = cgutils.alloca_once(builder, ir.ArrayType(byte, N_KINDS * 3), zfill=True)
        plan = context.make_array(_PLAN_TYPE)(context, builder)
        intp = context.get_value_type(types.intp)
        populate_array(
            plan,
            data=builder.bitcast(data, byte.as_pointer()),
            shape=[ir.Constant(intp, N_KINDS), ir.Constant(intp, 3)],
            strides=[ir.Constant(intp, 3), ir.Constant(intp, 1)],
            itemsize=ir.Constant(intp, 1),
            meminfo=None,
        )
        return plan._getvalue()

    return _PLAN_TYPE(), codegen


@intrinsic
def copy_plan_nb(typingctx, dst, src):
    """``dst[:] = src`` for two meld plans (plain C arrays ``int8[N_KINDS, 3]``, the same
    plan allowed): one ``memmove`` of the plan's bytes, where a loop element by element
    cost a candidate list (:mod:`canasta_sim.nb.bots.search_candidates`) about a tenth of its
    time."""
    if not (dst == _PLAN_TYPE and src == _PLAN_TYPE):
        return None

    def codegen(context, builder, signature, args):
        to = context.make_array(_PLAN_TYPE)(context, builder, args[0])
        frm = context.make_array(_PLAN_TYPE)(context, builder, args[1])
        size = context.get_constant(types.intp, N_KINDS * 3)
        cgutils.raw_memmove(builder, to.data, frm.data, size, 1)
        return context.get_dummy_value()

    return types.void(dst, src), codegen


@kernel
def meld_ok_nb(naturals, deuces, jokers, rules):
    """R-60/R-61: is a meld of one rank 4..A with these cards legal?"""
    wilds = deuces + jokers
    if naturals + wilds < 3 or naturals < 2 or wilds > 3:
        return False
    return not (rules[RuleSlot.wilds_at_most_naturals] != 0 and wilds > naturals)


@kernel
def minimum_count_nb(score, rules):
    """R-64: minimum count (points) of a side whose cumulative score is ``score`` points."""
    if score < 0:
        return rules[RuleSlot.negative_minimum]
    minimum = rules[RuleSlot.min_counts]
    for i in range(4):
        if score >= rules[RuleSlot.min_thresholds + i]:
            minimum = rules[RuleSlot.min_counts + i]
    return minimum


@inline_kernel
def meld_size_nb(melds, side, rank):
    """Cards in ``side``'s meld of ``rank`` (0: no meld). Inlined: as a call it was about a
    tenth of an expert deal (LLVM left most of its call sites as calls)."""
    return (
        melds[side, rank, MeldCol.naturals]
        + melds[side, rank, MeldCol.deuces]
        + melds[side, rank, MeldCol.jokers]
    )


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
        rows |= (
            1
            if plan[r, MeldCol.naturals] | plan[r, MeldCol.deuces] | plan[r, MeldCol.jokers]
            else 0
        ) << r
    if top >= 0:
        rows |= 1 << top
    return rows


@inline_kernel
def next_plan_row_nb(rows, plan, top):
    """One step of a walk over ``rows``, a mask of :func:`plan_rows_nb` (not 0), lowest rank
    first: ``(rows without r, r, naturals, deuces, jokers, t)`` of its lowest row ``r``, the
    cards from hand of ``plan``'s row and ``t``, 1 if ``r`` is ``top`` (the pile's top card
    melded in the same move) else 0."""
    r = trailing_zeros(rows)
    t = 1 if r == top else 0
    return (
        rows & (rows - 1),
        r,
        plan[r, MeldCol.naturals],
        plan[r, MeldCol.deuces],
        plan[r, MeldCol.jokers],
        t,
    )


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
            n = hand[k] - plan[k, MeldCol.naturals]
        if top >= 0:
            n += state.pile_counts[k] - (1 if k == top else 0)
        if n > 0:
            last = k
    if last < FIRST_NATURAL:
        return -1  # a black three never goes onto a meld that can become a canasta
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        if last <= LAST_NATURAL and r != last:
            continue
        n = melds[side, r, MeldCol.naturals] + plan[r, MeldCol.naturals] + (1 if r == top else 0)
        n += 1 if r == last else 0
        d = melds[side, r, MeldCol.deuces] + plan[r, MeldCol.deuces] + (1 if last == DEUCE else 0)
        j = melds[side, r, MeldCol.jokers] + plan[r, MeldCol.jokers] + (1 if last == JOKER else 0)
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
        MoveError (``ok``, or the rule broken), whether the move goes out (the hand is left
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
    side = rules[RuleSlot.side_of + seat]
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
        return MoveError.not_in_hand, False, False
    turn = g[DealSlot.turn]
    n_played = 0
    deuces = 0
    jokers = 0
    points = 0
    black_threes = False
    own_canasta = False  # a canasta among the melds started this turn, in the plan
    touches_old = False
    # one pass over the rows the plan touches (the side's other melds count only through its
    # running canasta count): cards in hand, R-60/R-61/R-63 per meld, points, new canastas
    canastas = sides[side, SideSlot.canastas]
    rows = plan_rows_nb(plan, top)
    while rows != 0:
        rows, r, a, d, j, t = next_plan_row_nb(rows, plan, top)
        if a < 0 or d < 0 or j < 0 or a > hand[r]:
            return MoveError.not_in_hand, False, False
        n_played += a + d + j
        deuces += d
        jokers += j
        a += t
        old = (
            melds[side, r, MeldCol.naturals]
            + melds[side, r, MeldCol.deuces]
            + melds[side, r, MeldCol.jokers]
        )
        n = melds[side, r, MeldCol.naturals] + a
        nd = melds[side, r, MeldCol.deuces] + d
        nj = melds[side, r, MeldCol.jokers] + j
        if r == BLACK_THREE:
            if d + j > 0 or n < 3 or n > 4:
                return MoveError.black_threes, False, False
            black_threes = True
        elif not meld_ok_nb(n, nd, nj, rules):
            return MoveError.meld_addition if old > 0 else MoveError.new_meld, False, False
        points += a * rules[RuleSlot.values + r] + d * rules[RuleSlot.values + DEUCE]
        points += j * rules[RuleSlot.values + JOKER]
        if old > 0 and meld_turn[side, r] < turn:
            touches_old = True
        if r != BLACK_THREE and n + nd + nj >= 7:
            if old < 7:
                canastas += 1
            if old == 0 or meld_turn[side, r] == turn:
                own_canasta = True
    if deuces > hand[DEUCE] or jokers > hand[JOKER]:
        return MoveError.not_in_hand, False, False
    if n_played == 0 and top < 0:
        return MoveError.empty, False, False
    left = state.hand_sizes[seat] - n_played + incoming
    last_red_three = g[DealSlot.last_red_three] != 0
    going_out = left == 0 or (left == 1 and not last_red_three)
    if black_threes and not going_out:
        return MoveError.black_threes, False, False
    if going_out and canastas < rules[RuleSlot.canastas_to_go_out]:
        # keeping fewer than two cards is going out, which needs canastas; judged
        # on the whole turn, one card left may still complete the last canasta needed
        if left != 1 or canastas + 1 < rules[RuleSlot.canastas_to_go_out]:
            return MoveError.going_out, False, False
        r = last_card_meld_nb(state, rules, side, hand, plan, top, deuces, jokers)
        if r < 0:
            return MoveError.going_out, False, False
        if meld_size_nb(melds, side, r) == 0 or meld_turn[side, r] == turn:
            own_canasta = True
    first = seats[seat, SeatSlot.first_meld_turn]
    concealed_out = (
        going_out
        and (first < 0 or first == turn)
        and not touches_old
        and g[DealSlot.touched_old] == 0
        and (own_canasta or canasta_started_nb(state, side, turn))
    )
    if sides[side, SideSlot.melded] == 0 and points < sides[side, SideSlot.minimum]:
        # R-42 waives the minimum for melds from the hand only: a pickup reaches it
        waived = concealed_out and top < 0 and rules[RuleSlot.concealed_out_needs_minimum] == 0
        if not waived:
            return MoveError.minimum_count, False, False
    return MoveError.ok, going_out, concealed_out


# --- applying a checked plan -----------------------------------------------------------
@inline_kernel
def from_pile_nb(g, hand, kind, used):
    """How many of ``used`` cards of ``kind`` must have come from the pile taken this turn,
    taking the player's own cards first; those are booked out of ``DealSlot.pile_cards``."""
    own = hand[kind] - g[DealSlot.pile_cards + kind]
    extra = used - own if used > own else 0
    g[DealSlot.pile_cards + kind] -= extra
    return extra


@kernel
def apply_plan_nb(state, rules, seat, plan, top, log):
    """Move a checked plan's cards (plus the pile's top card ``top``, or -1) to the melds, and
    keep the bookkeeping of R-42 (melds started this turn, additions to older melds) and R-66
    (a canasta is concealed if started and completed this turn from the hand, using at most
    the pile's top card)."""
    hands, melds, meld_turn, meld_flags, sides, seats, g = (
        state.hands,
        state.melds,
        state.meld_turn,
        state.meld_flags,
        state.sides,
        state.seats,
        state.g,
    )
    melded = state.melded
    side = rules[RuleSlot.side_of + seat]
    turn = g[DealSlot.turn]
    hand = hands[seat]
    rows = plan_rows_nb(plan, top)
    while rows != 0:
        rows, r, a, d, j, t = next_plan_row_nb(rows, plan, top)
        old = meld_size_nb(melds, side, r)
        if old == 0:
            meld_turn[side, r] = turn
            meld_flags[side, r] = 0
            sides[side, SideSlot.meld_ranks] |= 1 << r
        elif meld_turn[side, r] < turn:
            g[DealSlot.touched_old] = 1
        pile_cards = from_pile_nb(g, hand, r, a) + from_pile_nb(g, hand, DEUCE, d)
        if pile_cards + from_pile_nb(g, hand, JOKER, j) > 0:
            meld_flags[side, r] |= MeldFlag.pile_cards
        hand[r] -= a
        hand[DEUCE] -= d
        hand[JOKER] -= j
        forget_known_nb(state.known[seat], r, a)
        forget_known_nb(state.known[seat], DEUCE, d)
        forget_known_nb(state.known[seat], JOKER, j)
        state.hand_sizes[seat] -= a + d + j
        melds[side, r, MeldCol.naturals] += a + t
        melds[side, r, MeldCol.deuces] += d
        melds[side, r, MeldCol.jokers] += j
        melded[r] += a + t
        melded[DEUCE] += d
        melded[JOKER] += j
        if old < 7 and old + a + d + j + t >= 7 and r != BLACK_THREE:
            k = sides[side, SideSlot.canastas]  # canastas completed before this one
            if k < 3:  # canasta timing: the turn and kind (when completed) of the first three
                sides[side, SideSlot.canasta_turn_1 + k] = turn
                if melds[side, r, MeldCol.deuces] + melds[side, r, MeldCol.jokers] > 0:
                    sides[side, SideSlot.canasta_mixed] |= 1 << k
            sides[side, SideSlot.canastas] += 1
            if meld_turn[side, r] == turn and not meld_flags[side, r] & MeldFlag.pile_cards:
                meld_flags[side, r] |= MeldFlag.concealed
            if g[DealSlot.first_canasta_turn] < 0:
                g[DealSlot.first_canasta_turn] = turn
        if t == 0:
            log_event_nb(g, log, Event.meld, seat, r, a, d, j, 0)
    sides[side, SideSlot.melded] = 1
    if seats[seat, SeatSlot.first_meld_turn] < 0:
        seats[seat, SeatSlot.first_meld_turn] = turn
