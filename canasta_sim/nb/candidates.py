"""The candidate layer (:mod:`canasta_sim.players.choices`) in one kernel call per decision:
the meld plans of a play-phase decision in their order, and every legal candidate as one record
of :data:`CANDIDATE_DTYPE`, each candidate's moves made on a copy of the state by the engine's
own move kernels (the rollouts' :func:`~.worlds.apply_candidate_nb`, as ``Candidate.apply``
makes them on a copy of a ``Deal``). No text is made here: labels are written from the records
when they are read (:class:`~canasta_sim.players.choices.Candidate`).

The plans of a play-phase decision (docs/analysis.md, "Decisions and candidates"): the empty
plan; the engine's going-out plans (the whole hand, or all of it but one card of each kind in
hand, R-40); its initial meld (R-64, a side without melds); the plan that melds all it can
keeping two cards, and the same without wild cards; then the *plan space* (per rank 4..A its
naturals all or none, with the wild cards that keep the meld legal, R-60, R-61; black threes
only in a plan that goes out, R-63) when it holds at most :data:`SPACE_LIMIT` plans, otherwise
every plan of a single meld and every set of rows of the plan that melds all it can. The plan
space and those after the first are ordered by the meld points they lay (R-04), most first,
ties in enumeration order; each plan is kept once, where it first comes, and only if the
engine's check accepts it (``check_plan_nb``: R-22, R-40..R-42, R-60..R-64).
"""

import numpy as np

from .engine.melds import check_plan_nb, plan_rows_nb
from .engine.state import copy_state_nb
from .enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MeldCol,
    MoveError,
    Phase,
    PickupWay,
    RuleSlot,
    SideSlot,
)
from .jit import inline_kernel, kernel
from .plan_space import ROW_OPTIONS, plan_space_nb, row_options_nb
from .plans import (
    black_three_plan_nb,
    fill_plan_nb,
    initial_plan_nb,
    pickup_candidates_nb,
    plan_points_nb,
)
from .worlds import CandKind, apply_candidate_nb

#: Most plans of a plan space listed whole; a larger space is pruned (module docstring).
SPACE_LIMIT = 512

#: Most candidates listed at a play-phase decision by default (the cap of
#: :func:`list_candidates_nb`, ``max_candidates`` of ``analyse`` and ``review``).
MAX_CANDIDATES = 64

_RANKS = LAST_NATURAL - FIRST_NATURAL + 1
#: Most engine plans before the plan space: the empty plan, the going-out plans (whole hand,
#: or one card of each kind kept), the initial meld, the fullest plan with and without wilds.
MAX_FIRST = 1 + (N_KINDS + 1) + 3
#: Most plans before pruning duplicates: the engine's, then the plan space (at most
#: ``SPACE_LIMIT + 2`` written) or the single melds and the subsets of the fullest plan.
MAX_PLANS = MAX_FIRST + max(SPACE_LIMIT + 2, _RANKS * (ROW_OPTIONS - 1) + (1 << _RANKS) - 1)
_SLOTS = 8192  # hash slots for the duplicate check: a power of two above 2 * MAX_PLANS

CANDIDATE_DTYPE = np.dtype(
    [
        ("kind", np.int8),
        ("way", np.int8),
        ("plan", np.int8, (N_KINDS, 3)),
        ("discard", np.int8),
        ("going_out", np.bool_),
        ("end_deal", np.bool_),
        ("plan_index", np.int16),
        ("melded", np.int16),
        ("left", np.int16),
        ("points", np.int16),
    ],
    align=True,  # each field at its own alignment, as numba reads records
)
"""One candidate of a decision, as :func:`list_candidates_nb` writes it and
:class:`~canasta_sim.players.choices.Candidate` and the rollouts read it (aligned fields).

==============  ==================  ========================================================
field           dtype, shape        meaning
==============  ==================  ========================================================
``kind``        int8                :data:`~canasta_sim.nb.worlds.CandKind`: draw, take, play
``way``         int8                take: :data:`~canasta_sim.nb.enums.PickupWay` (R-32,
                                    R-33); else -1
``plan``        int8, (N_KINDS, 3)  cards from hand laid, per rank the naturals, deuces and
                                    jokers (a meld plan); take: the row of the top card's
                                    rank holds the hand's cards laid with it
``discard``     int8                play: the kind discarded, -1 for none
``going_out``   bool                play: the candidate empties the hand (R-40)
``end_deal``    bool                play after a last-card red three: the deal ends without
                                    a discard (R-45)
``plan_index``  int16               play: the plan's place in the decision's plan order (0:
                                    the empty plan); take: the pickup's place among the
                                    pickups; draw: -1
``melded``      int16               cards from hand laid by ``plan`` (cards)
``left``        int16               cards in hand after the plan, before a discard (take: the
                                    pile's cards not counted)
``points``      int16               card values (R-04) of the cards from hand laid (points)
==============  ==================  ========================================================
"""

#: Scratch of :func:`list_candidates_nb` (one record; every plan it builds is cleared first).
LISTING_WORK_DTYPE = np.dtype(
    [
        ("plans", np.int8, (MAX_PLANS, N_KINDS, 3)),  # every plan built, in build order
        ("points", np.int64, (MAX_PLANS,)),  # their meld points
        ("errors", np.int64, (MAX_PLANS,)),  # the engine's check of each (MoveError)
        ("order", np.int64, (MAX_PLANS,)),  # plan numbers: in order, then the kept ones
        ("buffer", np.int64, (MAX_PLANS,)),  # the merge sort's other half
        ("slots", np.int64, (_SLOTS,)),  # hash table of the plans kept (plan number or -1)
        ("outs", np.int8, (N_KINDS + 1, N_KINDS, 3)),  # the engine's going-out plans
        ("out_ok", np.int8, (N_KINDS + 1,)),  # numba reads no nested bool array
        ("pickups", np.int8, (4, N_KINDS, 3)),  # the pickup plans
        ("hand", np.int64, (N_KINDS,)),  # the seat's hand, wide, for the plan space
        ("table", np.int64, (N_KINDS, 3)),  # the side's melds, wide
        ("options", np.int64, (N_KINDS, ROW_OPTIONS, 3)),  # plan_space_nb's scratch
        ("space", np.int64, (5, N_KINDS + 1)),
        ("plan", np.int8, (N_KINDS, 3)),
        ("left", np.int64, (N_KINDS,)),  # the hand after a plan
    ]
)


@kernel
def list_candidates_nb(states, rules, cap, empty_only, work, out, log):
    """Every legal candidate of the decision of the seat to play in ``states[0]``, in the
    candidate layer's order, into ``out``; each is tried on a fresh copy of the state (in
    ``states[1]``): legal when the move kernels accept its moves (``MoveError.ok``) and, for one
    that goes out, the seat went out (R-40).

    Draw phase: ``draw``, then the engine's pickups (:func:`~.plans.pickup_candidates_nb`).
    Play phase: for each plan of :func:`meld_plans_nb` in order, its discards by kind, or one
    row without a discard (going out by melding the whole hand; after a last-card red three,
    R-45, the end of the deal). A plan's candidates are listed whole while the count stays
    within ``cap``; the first plan with candidates always.

    Parameters
    ----------
    states : ndarray(STATE_DTYPE, (2,))
        The decision's state (draw or play phase), then the scratch record the moves are made
        on.
    rules : ndarray(int64, (RULES_LEN,))
    cap : int64
        Play phase: the most candidates listed (>= 1).
    empty_only : bool
        Play phase: list only the empty plan's candidates (no plan is built).
    work : ndarray(LISTING_WORK_DTYPE, (1,))
        Scratch.
    out : ndarray(CANDIDATE_DTYPE, (>= cap + N_KINDS + 1,)), written
        The candidates, ``out[:n]``.
    log : ndarray(int32, (0, EV_LEN))
        No rows: the trials record no events.

    Returns
    -------
    n : int
        Candidates written.
    left_out : int
        Play phase: the plans not listed because the count reached ``cap``; else 0.
    """
    w = work[0]
    state = states[0]
    seat = state.g[DealSlot.current]
    if state.g[DealSlot.phase] == Phase.draw:
        return _draw_candidates_nb(states, rules, w.pickups[:], w.plan[:], out, log), 0
    plans = w.plans[:]
    order = w.order[:]
    if empty_only:
        plans[0, :, :] = 0
        order[0] = 0
        n_plans = 1
    else:
        n_plans = meld_plans_nb(states, rules, work)
    left = w.left[:]
    hand = state.hands[seat]
    last_red_three = state.g[DealSlot.last_red_three] != 0
    found = 0
    for taken in range(n_plans):
        plan = plans[order[taken]]
        for k in range(N_KINDS):
            left[k] = hand[k] - plan[k, MeldCol.naturals]
        for r in range(N_KINDS):
            left[DEUCE] -= plan[r, MeldCol.deuces]
            left[JOKER] -= plan[r, MeldCol.jokers]
        size = 0
        discards = 0
        for k in range(N_KINDS):
            size += left[k]
            if left[k] > 0:
                discards += 1
        melded = _hand_size_nb(hand) - size
        points = plan_points_nb(rules, plan, np.int64(-1))
        mine = 0
        for d in range(-1, N_KINDS):
            if d < 0 and discards > 0 and not last_red_three:
                continue
            if d >= 0 and (last_red_three or left[d] <= 0):
                continue
            going_out = size == 0 or (size == 1 and d >= 0)
            copy_state_nb(states[1], state)
            err = apply_candidate_nb(states[1], rules, np.int64(CandKind.play), plan, d, log)
            if err != MoveError.ok or (going_out and states[1].g[DealSlot.out_seat] != seat):
                continue
            row = out[found + mine]
            _write_row_nb(row, CandKind.play, -1, plan, d, taken, melded, size, points)
            row.going_out = going_out
            row.end_deal = last_red_three and not going_out
            mine += 1
        if found > 0 and found + mine > cap:
            return found, n_plans - taken
        found += mine
    return found, 0


@inline_kernel
def _hand_size_nb(hand):
    """Cards in ``hand`` (a count array)."""
    n = 0
    for k in range(N_KINDS):
        n += hand[k]
    return n


@inline_kernel
def _write_row_nb(row, kind, way, plan, discard, index, melded, left, points):
    """One record of CANDIDATE_DTYPE (``going_out`` and ``end_deal`` False)."""
    row.kind = kind
    row.way = way
    for k in range(N_KINDS):
        for c in range(3):
            row.plan[k, c] = plan[k, c]
    row.discard = discard
    row.going_out = False
    row.end_deal = False
    row.plan_index = index
    row.melded = melded
    row.left = left
    row.points = points


@kernel
def _draw_candidates_nb(states, rules, pickups, blank, out, log):
    """``draw`` (its plan ``blank``, cleared), then the engine's pickups (plans written into
    ``pickups``), the legal ones, into ``out``; returns how many."""
    state = states[0]
    seat = state.g[DealSlot.current]
    hand = state.hands[seat]
    size = _hand_size_nb(hand)
    n_ways = pickup_candidates_nb(state, rules, seat, pickups)
    side = rules[RuleSlot.side_of + seat]
    melded = state.sides[side, SideSlot.melded] != 0
    plen = state.g[DealSlot.pile_len]
    top = state.pile[plen - 1] if plen > 0 else -1
    n = 0
    for i in range(-1, n_ways):
        kind = CandKind.draw if i < 0 else CandKind.take
        plan = pickups[max(i, 0)]
        if i < 0:
            blank[:, :] = 0
            plan = blank
        copy_state_nb(states[1], state)
        if apply_candidate_nb(states[1], rules, np.int64(kind), plan, -1, log) != MoveError.ok:
            continue
        cards = 0
        for k in range(N_KINDS):
            cards += plan[k, 0] + plan[k, 1] + plan[k, 2]
        way = -1 if i < 0 else _pickup_way_nb(plan, top, melded)
        points = plan_points_nb(rules, plan, np.int64(-1))
        _write_row_nb(out[n], kind, way, plan, -1, i, cards, size - cards, points)
        n += 1
    return n


@inline_kernel
def _pickup_way_nb(plan, top, melded):
    """The :data:`~.enums.PickupWay` of a plan of ``pickup_candidates_nb``: a side without its
    initial meld takes the pile only with a natural pair (R-32), its melds from hand added."""
    if plan[top, MeldCol.naturals] == 0:
        return PickupWay.onto_meld
    if not melded or plan[top, MeldCol.naturals] >= 2:
        return PickupWay.natural_pair
    if plan[top, MeldCol.deuces] > 0:
        return PickupWay.natural_deuce
    return PickupWay.natural_joker


@kernel
def meld_plans_nb(states, rules, work):
    """The meld plans of the play-phase decision in ``states[0]`` (module docstring), in order:
    ``work[0].plans[work[0].order[i]]`` for ``i`` below the count returned.

    Parameters
    ----------
    states : ndarray(STATE_DTYPE, (2,))
        The decision's state, then a scratch record.
    rules : ndarray(int64, (RULES_LEN,))
    work : ndarray(LISTING_WORK_DTYPE, (1,))
        Scratch; its ``plans`` and ``order`` hold the result.

    Returns
    -------
    int
        The number of plans (the empty plan first).
    """
    w = work[0]
    state = states[0]
    seat = state.g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    plans, points, errors = w.plans[:], w.points[:], w.errors[:]
    n = _engine_plans_nb(states, rules, w.outs[:], w.out_ok[:], plans)
    first = n
    hand, table = w.hand[:], w.table[:]
    for k in range(N_KINDS):
        hand[k] = state.hands[seat, k]
        for c in range(3):
            table[k, c] = state.melds[side, k, c]
    for i in range(first, first + SPACE_LIMIT + 2):
        plans[i, :, :] = 0
    m = plan_space_nb(
        hand,
        table,
        rules,
        np.int64(SPACE_LIMIT),
        w.options[:],
        w.space[:],
        w.plan[:],
        plans[first : first + SPACE_LIMIT + 2],
    )
    if m >= 0:
        n += m
    else:
        n = _singles_nb(hand, table, rules, w.options[:][0], plans, n)
        n = _subsets_nb(plans[first - 2], plans, n)  # the fullest plan (with wild cards)
    for i in range(n):
        points[i] = plan_points_nb(rules, plans[i], np.int64(-1))
        errors[i], _out, _concealed = check_plan_nb(
            state, rules, seat, plans[i], np.int64(-1), np.int64(0)
        )
    order, buffer = w.order[:], w.buffer[:]
    for i in range(n):
        order[i] = i
    _sort_by_points_nb(order, first, n, points, buffer)
    return _keep_nb(plans, errors, order, n, w.slots[:])


@kernel
def _engine_plans_nb(states, rules, outs, out_ok, plans):
    """The engine's plans into ``plans[0..n)``: the empty plan, the going-out plans that meld
    every card but the one kept (:func:`_out_plans_nb`), the initial meld (a side without
    melds, R-64: two cards kept), the plan that melds all it can keeping two cards (R-22), the
    same without wild cards. Returns ``n``."""
    state = states[0]
    seat = state.g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    plans[0, :, :] = 0
    n = 1
    for i in range(_out_plans_nb(states, rules, outs, out_ok)):
        if out_ok[i]:
            for k in range(N_KINDS):  # element by element: an array copy would allocate
                for c in range(3):
                    plans[n, k, c] = outs[i, k, c]
            n += 1
    if state.sides[side, SideSlot.melded] == 0:
        plans[n, :, :] = 0
        initial_plan_nb(state, rules, seat, plans[n], np.int64(-1), np.int64(0), np.int64(2))
        n += 1
    for wilds in (True, False):
        plans[n, :, :] = 0
        fill_plan_nb(
            state,
            rules,
            seat,
            plans[n],
            np.int64(-1),
            np.int64(0),
            np.int64(2),
            np.bool_(wilds),
        )
        n += 1
    return n


@kernel
def _out_plans_nb(states, rules, plans, ok):
    """The engine's plans melding the whole hand (``keep`` = -1) or all of it but one card of
    ``keep`` (each kind in hand, in kind order), R-40: the black threes (R-63), then what
    ``fill_plan_nb`` melds keeping no card, built on a copy of ``states[0]`` (in ``states[1]``)
    whose hand lacks the kept card. ``ok[i]``: plan ``i`` melds every card but the kept one
    and is not empty. Returns the plans written."""
    seat = states[0].g[DealSlot.current]
    n = 0
    for keep in range(-1, N_KINDS):
        if keep >= 0 and states[0].hands[seat, keep] == 0:
            continue
        copy_state_nb(states[1], states[0])
        if keep >= 0:
            states[1].hands[seat, keep] -= 1
            states[1].hand_sizes[seat] -= 1
        plans[n, :, :] = 0
        black_three_plan_nb(states[1].hands[seat], plans[n])
        left = fill_plan_nb(
            states[1], rules, seat, plans[n], np.int64(-1), np.int64(0), np.int64(0), np.bool_(True)
        )
        ok[n] = left == 0 and plan_rows_nb(plans[n], np.int64(-1)) != 0
        n += 1
    return n


@kernel
def _singles_nb(hand, table, rules, options, plans, n):
    """Every plan of one row option (``row_options_nb``: one meld laid or extended), ranks from
    the ace down, into ``plans[n..)``; returns the new count."""
    for k in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        m = row_options_nb(np.int64(k), hand, table, rules, options)
        for o in range(1, m):
            plans[n, :, :] = 0
            for c in range(3):
                plans[n, k, c] = options[o, c]
            n += 1
    return n


@kernel
def _subsets_nb(full, plans, n):
    """Every plan made of some of ``full``'s rows (ranks 4..A), in the order of the masks 1, 2,
    3, ... over its rows (row i, in kind order: bit i), into ``plans[n..)``; returns the new
    count."""
    rows = 0
    for k in range(BLACK_THREE, LAST_NATURAL + 1):
        if full[k, 0] + full[k, 1] + full[k, 2] != 0:
            rows += 1
    for mask in range(1, 1 << rows):
        plans[n, :, :] = 0
        bit = 0
        for k in range(BLACK_THREE, LAST_NATURAL + 1):
            if full[k, 0] + full[k, 1] + full[k, 2] == 0:
                continue
            if (mask >> bit) & 1:
                for c in range(3):
                    plans[n, k, c] = full[k, c]
            bit += 1
        n += 1
    return n


@kernel
def _sort_by_points_nb(order, lo, hi, points, buffer):
    """Sort ``order[lo:hi]`` (plan numbers) by ``points``, most first, ties kept in their order
    (a bottom-up merge sort through ``buffer``)."""
    width = 1
    in_buffer = False
    while width < hi - lo:
        src = buffer if in_buffer else order
        dst = order if in_buffer else buffer
        for start in range(lo, hi, 2 * width):
            mid = min(start + width, hi)
            end = min(start + 2 * width, hi)
            i, j = start, mid
            for k in range(start, end):
                if j >= end or (i < mid and points[src[i]] >= points[src[j]]):
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
        in_buffer = not in_buffer
        width *= 2
    if in_buffer:
        for k in range(lo, hi):
            order[k] = buffer[k]


@kernel
def _keep_nb(plans, errors, order, n, slots):
    """Compact ``order[:n]`` to the plans kept: each plan once, where it first comes, and only
    the empty plan or one the engine's check accepts (``errors``). Returns the count kept."""
    slots[:] = -1
    kept = 0
    for i in range(n):
        p = order[i]
        plan = plans[p]
        h = np.int64(0)
        empty = True
        for k in range(N_KINDS):
            for c in range(3):
                h = h * 1000003 + plan[k, c]  # wraps round: only a hash
                empty = empty and plan[k, c] == 0
        s = h & (_SLOTS - 1)
        seen = False
        while slots[s] >= 0:
            other = plans[slots[s]]
            same = True
            for k in range(N_KINDS):
                for c in range(3):
                    same = same and other[k, c] == plan[k, c]
            if same:
                seen = True
                break
            s = (s + 1) & (_SLOTS - 1)
        if seen:
            continue
        slots[s] = p
        if empty or errors[p] == MoveError.ok:
            order[kept] = p
            kept += 1
    return kept
