"""The legal moves of a turn, exactly: every legal way to take the discard pile, and the check of
each single step of a turn (R-20..R-24, R-30..R-35, R-40..R-45, R-60..R-64).

Every verdict here is the move kernels' own (:mod:`.moves`, :mod:`.melds`): this module only
builds the moves to ask about and asks ``check_take_nb``, ``check_meld_nb``, ... (no rule is
written twice). It imports no bot code; the candidate layer, the bots and a learning
environment's action masks can all read it.

A *pickup way* (:data:`~canasta_sim.nb.enums.PickupWay`) is how the top card of the pile is used:
onto the side's meld of its rank, with a natural pair, with a natural and a deuce, or with a
natural and a joker; its *cards* are the fewest from hand that use needs (none, ``2 0 0``,
``1 1 0``, ``1 0 1`` as naturals, deuces, jokers of the top card's row). *Staged melds* are
further cards from hand laid in the same move (``ndarray(int8, (N_KINDS, 3))``, a meld plan,
:mod:`.melds`; its row of the top card's rank adds to the way's cards): they count toward the
minimum count with the top card (R-64) and may meld the whole hand (going out, R-40).
"""

import numpy as np

from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    N_PICKUP_WAYS,
    RED_THREE,
    DealSlot,
    MeldCol,
    MoveError,
    PickupWay,
    RuleSlot,
)
from ..jit import inline_kernel, kernel
from .melds import meld_ok_nb
from .moves import (
    check_discard_nb,
    check_draw_nb,
    check_end_turn_nb,
    check_meld_nb,
    check_take_nb,
    discard_nb,
    meld_nb,
    pile_top_nb,
)
from .state import copy_state_nb


# --- taking the pile: one way, given staged melds ---------------------------------------------
@inline_kernel
def way_cards_nb(way):
    """The cards from hand of pickup way ``way`` (a PickupWay): naturals of the top card's
    rank, deuces, jokers."""
    if way == PickupWay.natural_pair:
        return 2, 0, 0
    if way == PickupWay.natural_deuce:
        return 1, 1, 0
    if way == PickupWay.natural_joker:
        return 1, 0, 1
    return 0, 0, 0


@inline_kernel
def way_plan_nb(way, top, staged, plan):
    """Write into ``plan`` the staged melds plus the cards of pickup way ``way`` on the row of
    ``top`` (a natural rank; any other ``top`` leaves the staged melds alone). ``staged`` may
    be ``plan`` itself."""
    for k in range(N_KINDS):  # an element loop: numba copies a whole-array assignment first
        for c in range(3):
            plan[k, c] = staged[k, c]
    if top < FIRST_NATURAL or top > LAST_NATURAL:
        return
    naturals, deuces, jokers = way_cards_nb(way)
    plan[top, MeldCol.naturals] += naturals
    plan[top, MeldCol.deuces] += deuces
    plan[top, MeldCol.jokers] += jokers


@inline_kernel
def way_alone_nb(way, top, plan):
    """Write into ``plan`` the cards of pickup way ``way`` alone (no staged melds)."""
    plan[:] = 0
    way_plan_nb(way, top, plan, plan)


@kernel
def check_pickup_nb(state, rules, way, staged, plan):
    """Whether the seat to play may take the pile in way ``way`` with the staged melds
    (R-30..R-35, R-40, R-44, R-60..R-64): the way's cards alone must pass the pickup's checks
    on the top card (``check_take_nb`` failing at most for the minimum count or going out, the
    two things melds from hand can mend), and the way's cards with ``staged`` the whole check.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    way : int64
        A :data:`~canasta_sim.nb.enums.PickupWay` code (0 .. N_PICKUP_WAYS - 1).
    staged : ndarray(int8, (N_KINDS, 3))
        Melds from hand laid in the same move (may be all zero).
    plan : ndarray(int8, (N_KINDS, 3)), written
        The pickup's whole plan (what ``take_pile_nb`` takes).

    Returns
    -------
    int
        MoveError: ``ok`` or the rule the pickup breaks.
    """
    seat = state.g[DealSlot.current]
    top = pile_top_nb(state)
    way_alone_nb(way, top, plan)
    err, _out, _concealed = check_take_nb(state, rules, seat, plan)
    if err != MoveError.ok and err != MoveError.minimum_count and err != MoveError.going_out:
        return err
    way_plan_nb(way, top, staged, plan)
    err, _out, _concealed = check_take_nb(state, rules, seat, plan)
    return err


# --- taking the pile: every way, with the melds from hand it needs ----------------------------
@kernel
def legal_pickups_nb(state, rules, plans, errors):
    """Every pickup way of the seat to play, judged with the melds from hand it may need.

    A way is legal when some staged melds make :func:`check_pickup_nb` accept it: its cards
    alone, or, when they are short of the minimum count (R-64) or leave at most one card
    without the canastas to go out (R-22, R-40), melds from hand laid in the same move that
    mend that. The search for those melds is exact (:func:`_melds_for_way_nb`), so the
    legal ways cover every legal pickup: the pile may be taken iff one way is legal.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    plans : ndarray(int8, (N_PICKUP_WAYS, N_KINDS, 3)), written
        Per way: a legal pickup's whole plan (the way's cards alone when they are legal, else
        with the melds from hand found), or for an illegal way its cards alone.
    errors : ndarray(int64, (N_PICKUP_WAYS,)), written
        Per way: ``MoveError.ok``, or the error of its cards alone (the rule broken).

    Returns
    -------
    int
        The number of legal ways.
    """
    seat = state.g[DealSlot.current]
    top = pile_top_nb(state)
    n = 0
    for way in range(N_PICKUP_WAYS):
        plan = plans[way]
        way_alone_nb(way, top, plan)
        err, _out, _concealed = check_take_nb(state, rules, seat, plan)
        if err == MoveError.minimum_count or err == MoveError.going_out:
            if _melds_for_way_nb(state, rules, seat, top, way, plan):
                err = MoveError.ok
            else:
                way_alone_nb(way, top, plan)
        errors[way] = err
        if err == MoveError.ok:
            n += 1
    return n


@kernel
def _melds_for_way_nb(state, rules, seat, top, way, plan):
    """Search melds from hand that make pickup way ``way`` legal; on success ``plan`` holds the
    whole pickup (True). The way's cards pass the top card's checks (R-30..R-35, R-44) and
    fail only for the minimum count or going out; melds added to them cannot undo the former
    (more naturals and wild cards with the top card only help), so two kinds of move remain:

    - keeping two cards in hand (with the rest of the pile), the melds of the most points
      (:func:`_richest_plan_nb`), for every choice of the one or two cards kept when the pile
      brings fewer than two; the minimum count is met iff it is met by those;
    - going out: the whole hand melded but at most one card (with the pile's one card
      counted), for every choice of that card, the wild cards spread to complete the most
      canastas (:func:`_whole_plan_nb`), or to leave one meld at six cards that the card
      left completes (R-40 judged on the whole turn).

    Every plan built is judged by ``check_take_nb``.
    """
    hand = state.hands[seat]
    tn, td, tj = way_cards_nb(way)
    incoming = state.g[DealSlot.pile_len] - 1 - state.pile_counts[RED_THREE]
    keep = 2 - incoming if incoming < 2 else 0  # cards of the hand kept so two stay
    # (a, b): the kinds of the cards kept, -1 for none; a <= b when two are kept
    for a in range(-1 if keep == 0 else 0, 0 if keep == 0 else N_KINDS):
        for b in range(-1 if keep < 2 else a, 0 if keep < 2 else N_KINDS):
            if a >= 0 and _spare_nb(hand, a, top, tn, td, tj, -1, b) < 1:
                continue
            if b >= 0 and _spare_nb(hand, b, top, tn, td, tj, -1, -1) < 1:
                continue
            _richest_plan_nb(state, rules, seat, top, tn, td, tj, a, b, plan)
            if check_take_nb(state, rules, seat, plan)[0] == MoveError.ok:
                return True
    if incoming > 1:
        return False  # the hand keeps two cards: going out is out of reach
    # going out: with the pile's one card to come, the whole hand is melded; with none, the
    # whole hand or all of it but one card (each kind in turn)
    for kept in range(-1, N_KINDS if incoming == 0 else 0):
        if kept >= 0 and _spare_nb(hand, kept, top, tn, td, tj, -1, -1) < 1:
            continue
        last_card = kept >= 0 or incoming == 1  # one card left, which may complete a meld
        for target in range(-1, LAST_NATURAL + 1 if last_card else 0):
            if 0 <= target < FIRST_NATURAL:
                continue
            if not _whole_plan_nb(state, rules, seat, top, tn, td, tj, kept, target, plan):
                continue
            if check_take_nb(state, rules, seat, plan)[0] == MoveError.ok:
                return True
    return False


@inline_kernel
def _spare_nb(hand, kind, top, tn, td, tj, kept_a, kept_b):
    """Cards of ``kind`` in hand besides the way's cards and the cards kept (kinds, -1: none)."""
    n = np.int64(hand[kind])
    if kind == top:
        n -= tn
    elif kind == DEUCE:
        n -= td
    elif kind == JOKER:
        n -= tj
    if kind == kept_a:
        n -= 1
    if kind == kept_b:
        n -= 1
    return n


@inline_kernel
def _row_nb(state, side, plan, top, r):
    """The side's meld of rank ``r`` with ``plan``'s cards and the top card: naturals, wild
    cards, and whether it exists (on the table, in the plan, or the top card's row)."""
    melds = state.melds
    n = melds[side, r, MeldCol.naturals] + plan[r, MeldCol.naturals] + (1 if r == top else 0)
    w = (
        melds[side, r, MeldCol.deuces]
        + melds[side, r, MeldCol.jokers]
        + plan[r, MeldCol.deuces]
        + plan[r, MeldCol.jokers]
    )
    return n, w, n + w > 0


@inline_kernel
def _add_wild_nb(plan, r, jokers_left):
    """Put one wild card of the hand on row ``r``: a joker while any is left, else a deuce;
    returns the jokers left."""
    if jokers_left > 0:
        plan[r, MeldCol.jokers] += 1
        return jokers_left - 1
    plan[r, MeldCol.deuces] += 1
    return jokers_left


@kernel
def _richest_plan_nb(state, rules, seat, top, tn, td, tj, kept_a, kept_b, plan):
    """Into ``plan``: the way's cards and the melds of the most points (R-04) from the hand
    without the cards kept. Every natural that can be laid is (the top card's rank, ranks with
    a meld on the table, ranks of three or more); each wild card enables a natural pair, the
    pairs of the highest values first; the wild cards left go wherever a meld takes one
    (``meld_ok_nb``), jokers before deuces. Each wild card laid adds its value and enabling a
    pair costs no room, so no other plan lays more points."""
    hand = state.hands[seat]
    side = rules[RuleSlot.side_of + seat]
    plan[:] = 0
    if top < FIRST_NATURAL:
        return
    plan[top, MeldCol.naturals] = tn + _spare_nb(hand, top, top, tn, td, tj, kept_a, kept_b)
    plan[top, MeldCol.deuces] = td
    plan[top, MeldCol.jokers] = tj
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        s = _spare_nb(hand, r, top, tn, td, tj, kept_a, kept_b)
        if r == top or s <= 0:
            continue
        plan[r, MeldCol.naturals] = s
        n, w, _open = _row_nb(state, side, plan, top, r)
        if not meld_ok_nb(n, w, np.int64(0), rules):
            plan[r, MeldCol.naturals] = 0
    jokers = _spare_nb(hand, JOKER, top, tn, td, tj, kept_a, kept_b)
    wilds = jokers + _spare_nb(hand, DEUCE, top, tn, td, tj, kept_a, kept_b)
    values = RuleSlot.values
    while wilds > 0:  # the natural pairs (or more) a wild card makes a meld, best first
        best = -1
        for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
            s = _spare_nb(hand, r, top, tn, td, tj, kept_a, kept_b)
            if r == top or s <= 0 or plan[r, MeldCol.naturals] > 0:
                continue
            n, w, _open = _row_nb(state, side, plan, top, r)
            if meld_ok_nb(n + s, w + 1, np.int64(0), rules) and (
                best < 0 or rules[values + r] > rules[values + best]
            ):
                best = r
        if best < 0:
            break
        plan[best, MeldCol.naturals] = _spare_nb(hand, best, top, tn, td, tj, kept_a, kept_b)
        jokers = _add_wild_nb(plan, best, jokers)
        wilds -= 1
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n, w, is_open = _row_nb(state, side, plan, top, r)
        while wilds > 0 and is_open and meld_ok_nb(n, w + 1, np.int64(0), rules):
            jokers = _add_wild_nb(plan, r, jokers)
            wilds -= 1
            w += 1


@kernel
def _whole_plan_nb(state, rules, seat, top, tn, td, tj, kept, target, plan):
    """Into ``plan``: the way's cards and every other card in hand but one of ``kept`` (-1:
    none) melded, the black threes together (R-63), each rank's naturals on its row, and the
    wild cards spread over the rows: first the fewest each meld needs (R-60), then, with
    ``target`` >= 0, enough to bring that rank's meld to exactly six cards (the card kept, or
    the pile's one card, may complete it, R-40), then the cheapest canastas (seven cards,
    R-65) first, then the rest wherever a meld takes one (jokers before deuces). That spread
    completes the most canastas the cards allow. Returns False when no spread lays every wild
    card in legal melds (``meld_ok_nb``)."""
    hand = state.hands[seat]
    side = rules[RuleSlot.side_of + seat]
    plan[:] = 0
    if top < FIRST_NATURAL:
        return False
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        plan[r, MeldCol.naturals] = (tn if r == top else 0) + _spare_nb(
            hand, r, top, tn, td, tj, kept, -1
        )
    plan[top, MeldCol.deuces] = td
    plan[top, MeldCol.jokers] = tj
    jokers = _spare_nb(hand, JOKER, top, tn, td, tj, kept, -1)
    wilds = jokers + _spare_nb(hand, DEUCE, top, tn, td, tj, kept, -1)
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):  # the fewest wild cards each meld needs
        n, w, is_open = _row_nb(state, side, plan, top, r)
        if not is_open:
            continue
        while not meld_ok_nb(n, w, np.int64(0), rules):
            if wilds == 0:
                return False
            jokers = _add_wild_nb(plan, r, jokers)
            wilds -= 1
            w += 1
    if target >= 0:
        n, w, is_open = _row_nb(state, side, plan, top, target)
        if not is_open or n + w > 6 or n + w + wilds < 6:
            return False
        while n + w < 6:
            if not meld_ok_nb(n, w + 1, np.int64(0), rules):
                return False
            jokers = _add_wild_nb(plan, target, jokers)
            wilds -= 1
            w += 1
    while wilds > 0:  # the cheapest canasta next
        best = -1
        best_need = 0
        for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
            n, w, is_open = _row_nb(state, side, plan, top, r)
            need = 7 - n - w
            if r == target or not is_open or need <= 0 or need > wilds:
                continue
            if meld_ok_nb(n, w + need, np.int64(0), rules) and (best < 0 or need < best_need):
                best, best_need = r, need
        if best < 0:
            break
        for _ in range(best_need):
            jokers = _add_wild_nb(plan, best, jokers)
        wilds -= best_need
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n, w, is_open = _row_nb(state, side, plan, top, r)
        while wilds > 0 and r != target and is_open and meld_ok_nb(n, w + 1, np.int64(0), rules):
            jokers = _add_wild_nb(plan, r, jokers)
            wilds -= 1
            w += 1
    return wilds == 0


# --- the other steps of a turn ----------------------------------------------------------------
@kernel
def check_draw_step_nb(state, rules):
    """Drawing from the stock (R-20, R-44): ``draw_nb``'s check. Returns a MoveError."""
    return check_draw_nb(state, rules)


@kernel
def check_meld_step_nb(state, rules, plan):
    """Laying ``plan`` (``ndarray(int8, (N_KINDS, 3))``: new melds, or cards added to the side's
    melds, each row a rank's naturals, deuces and jokers) from hand now, counted together toward
    the minimum count (R-20 step 2, R-22, R-40..R-42, R-45 switch, R-60..R-64): ``meld_nb``'s
    check. Returns a MoveError."""
    err, _out, _concealed = check_meld_nb(state, rules, plan)
    return err


@kernel
def check_meld_row_nb(state, rules, rank, naturals, deuces, jokers, staged, plan):
    """One meld from hand on top of the staged melds: ``naturals`` of ``rank`` with ``deuces``
    and ``jokers``, a new meld or cards added to the side's meld of that rank, laid with
    ``staged`` in one call (:func:`check_meld_step_nb` of the sum, written into ``plan``).

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    rank : int64
        A rank row (black three, 4 .. A); any other kind is refused as ``not_in_hand``.
    naturals, deuces, jokers : int64
    staged : ndarray(int8, (N_KINDS, 3))
        Melds from hand already staged this turn (may be all zero).
    plan : ndarray(int8, (N_KINDS, 3)), written

    Returns
    -------
    int
        MoveError.
    """
    if rank < BLACK_THREE or rank > LAST_NATURAL:
        return MoveError.not_in_hand
    for k in range(N_KINDS):
        for c in range(3):
            plan[k, c] = staged[k, c]
    plan[rank, MeldCol.naturals] += naturals
    plan[rank, MeldCol.deuces] += deuces
    plan[rank, MeldCol.jokers] += jokers
    err, _out, _concealed = check_meld_nb(state, rules, plan)
    return err


@kernel
def check_discard_step_nb(state, rules, kind):
    """Discarding a card of ``kind`` (R-20 step 3, R-40, R-45): ``discard_nb``'s check.
    Returns a MoveError."""
    return check_discard_nb(state, rules, kind)


@kernel
def check_end_deal_step_nb(state):
    """Ending the deal without a discard after a last-card red three (R-45): ``end_turn_nb``'s
    check. Returns a MoveError."""
    return check_end_turn_nb(state)


@kernel
def check_go_out_nb(state, rules, plan, discard, scratch, log):
    """Going out now by laying ``plan`` (may be all zero) and then discarding a card of
    ``discard`` (-1: none) (R-22, R-40..R-42, R-63: black threes only in the laying-down that
    goes out): the moves made by ``meld_nb`` and ``discard_nb`` on ``scratch``, a copy of
    ``state``.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    plan : ndarray(int8, (N_KINDS, 3))
    discard : int64
    scratch : record of STATE_DTYPE, overwritten
    log : ndarray(int32, (0, EV_LEN))
        No rows: the trial records nothing.

    Returns
    -------
    int
        MoveError: ``ok`` when the seat goes out, the first move's error, or ``going_out``
        when the moves are legal but leave cards in hand.
    """
    copy_state_nb(scratch, state)
    seat = state.g[DealSlot.current]
    for r in range(N_KINDS):
        if plan[r, MeldCol.naturals] | plan[r, MeldCol.deuces] | plan[r, MeldCol.jokers]:
            err = meld_nb(scratch, rules, plan, log)
            if err != MoveError.ok:
                return err
            break
    if discard >= 0:  # after a plan that went out, discard_nb refuses (the deal is over)
        err = discard_nb(scratch, rules, discard, log)
        if err != MoveError.ok:
            return err
    return MoveError.ok if scratch.g[DealSlot.out_seat] == seat else MoveError.going_out
