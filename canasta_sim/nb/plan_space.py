"""The candidate layer's plan space (:func:`canasta_sim.players.choices.meld_plans`) in one call:
per rank, the options a plan may lay on the rank's row, and every plan made of one option per
row within the hand's wild cards, in the candidate layer's enumeration order."""

import numpy as np

from .engine.melds import meld_ok_nb
from .enums import BLACK_THREE, DEUCE, FIRST_NATURAL, JOKER, LAST_NATURAL, MeldCol
from .jit import kernel

#: Most options of one row: nothing, then for all the rank's naturals and for none, every
#: split of 0..3 wild cards into deuces and jokers (1 + 2 + 3 + 4 splits).
ROW_OPTIONS = 21


@kernel
def row_options_nb(rank, hand, table, rules, out):
    """What a plan may lay on the row of ``rank`` (natural ranks), R-60, R-61: nothing
    first, then the rank's naturals (all of them, then none) with 0..3 wild cards, the fewest
    first and for each count the fewest jokers first, each leaving a legal meld with the
    side's cards of that rank.

    Parameters
    ----------
    rank : int64
    hand : ndarray(int64, (N_KINDS,))
        The seat's hand, cards per kind.
    table : ndarray(int64, (N_KINDS, 3))
        The side's melds: naturals, deuces, jokers per rank.
    rules : ndarray(int64)
    out : ndarray(int64, (ROW_OPTIONS, 3)), written
        The options (naturals, deuces, jokers from hand).

    Returns
    -------
    int
        Options written.
    """
    tn, td, tj = table[rank, 0], table[rank, 1], table[rank, 2]
    out[0, :] = 0
    n = 1
    for second in range(2):
        if second and hand[rank] == 0:
            break
        naturals = 0 if second else hand[rank]
        if tn + naturals == 0:
            continue
        for wilds in range(4):
            for jokers in range(min(wilds, hand[JOKER]) + 1):
                deuces = wilds - jokers
                if naturals + deuces + jokers == 0 or deuces > hand[DEUCE]:
                    continue
                if meld_ok_nb(tn + naturals, td + deuces, tj + jokers, rules):
                    out[n, 0], out[n, 1], out[n, 2] = naturals, deuces, jokers
                    n += 1
    return n


@kernel
def plan_space_nb(hand, table, rules, limit, options, work, plan, plans):
    """Every plan of the plan space (:func:`canasta_sim.players.choices.meld_plans`): one option
    of :func:`row_options_nb` per rank with more than one, ranks from the ace down, the
    options of a rank in their order, within the hand's deuces and jokers; after each plan
    the same with the hand's black threes (3 or 4: R-63, only a plan that goes out keeps
    them, which the engine's check decides).

    Parameters
    ----------
    hand, table, rules
        As for :func:`row_options_nb`.
    limit : int64
        The most plans wanted (``SPACE_LIMIT``).
    options : ndarray(int64, (N_KINDS, ROW_OPTIONS, 3))
        Scratch: each listed row's options.
    work : ndarray(int64, (5, N_KINDS + 1))
        Scratch: the listed rows' ranks, their option counts, the next option to try at each
        depth, the deuces and the jokers left at each depth.
    plan : ndarray(int8, (N_KINDS, 3))
        Scratch: the plan being built (only the listed rows are read).
    plans : ndarray(int8, (limit + 2, N_KINDS, 3)), zero, written
        The plans, in order (only their listed rows and black threes are written).

    Returns
    -------
    int
        Plans written, or -1 when the space holds more than ``limit`` plans.
    """
    ranks, counts, nxt, deuces, jokers = work[0], work[1], work[2], work[3], work[4]
    rows = 0
    for k in range(LAST_NATURAL, FIRST_NATURAL - 1, -1):
        n = row_options_nb(np.int64(k), hand, table, rules, options[rows])
        if n > 1:
            ranks[rows], counts[rows] = k, n
            rows += 1
    threes = hand[BLACK_THREE] if hand[BLACK_THREE] >= 3 else 0
    found = 0
    depth = 0
    nxt[0], deuces[0], jokers[0] = 0, hand[DEUCE], hand[JOKER]
    while depth >= 0:
        if depth == rows:  # a whole plan
            for copy in range(2 if threes else 1):
                for k in range(rows):
                    for c in range(3):
                        plans[found, ranks[k], c] = plan[ranks[k], c]
                if copy:
                    plans[found, BLACK_THREE, MeldCol.naturals] = threes
                found += 1
            if found > limit:
                return -1
            depth -= 1
            continue
        o = nxt[depth]
        while o < counts[depth] and (
            options[depth, o, 1] > deuces[depth] or options[depth, o, 2] > jokers[depth]
        ):
            o += 1
        if o == counts[depth]:  # this row's options are done: back to the row before
            depth -= 1
            continue
        for c in range(3):
            plan[ranks[depth], c] = options[depth, o, c]
        nxt[depth] = o + 1
        deuces[depth + 1] = deuces[depth] - options[depth, o, 1]
        jokers[depth + 1] = jokers[depth] - options[depth, o, 2]
        depth += 1
        nxt[depth] = 0
    return found
