"""One chunk's record rows added into a run's aggregate counts, in one pass (the numeric core
of :meth:`canasta_sim.results.aggregate.Aggregates.from_rows`).

The counts travel as one flat ``int64`` array ``c`` and a layout table (``int64``, rows
:data:`CountCol`, one column per count of :data:`Count`) saying where each
count starts in it and its axes' lengths; the kernel reads no table from a global. Element
``[i, j]`` of count ``K`` (``i`` on its first axis, ``j`` over the others, flattened) is
``c[at[K] + i * row[K] + j]``, with ``at``, ``row`` and ``bins`` the table's rows. Every
histogram clips its index to ``0 .. bins[K] - 1`` (the last bin holds everything beyond it);
sums and squares are exact ``int64``.

Why so, and not one array per count: numba's compile time grows with the size of a kernel's
arguments and of its typed code. The 58 count arrays as one tuple cost about 0.75 CPU s for
each kernel that took it, and the kernel, whose helpers numba inlined (typing them again at
every call site), about 5 CPU s, the largest item of a cold start. So the index arithmetic is
written out and the kernel calls no other kernel: helpers as plain kernels compiled about as
fast but stayed calls, which made the pass about 1.4 times slower.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, NamedTuple

import numba as nb
import numpy as np

#: The count arrays of a run's aggregates, declared once: each count's name and its axes, in
#: the order of their blocks in the one flat ``int64`` array the aggregation kernel adds into
#: (:func:`add_chunk_nb`). An axis's length follows from the run's shape
#: (:func:`canasta_sim.results.aggregate.count_shapes`): ``sides``, ``bots``, ``turns``
#: (max_turns + 2: a turn histogram, index = turn + 1 where 0 is "none"), ``count`` (0 .. 15 of
#: a per-side count), ``upcard`` (0 .. 31 cards), ``end_reasons``, ``ranks`` (4 .. A),
#: ``score`` (bins of 5 points), ``outcomes`` (win, tie, loss), ``canasta`` (the 1st, 2nd and
#: 3rd of a side), ``mixed`` (natural, mixed), ``red_cells`` (red threes dealt, 0 .. 6),
#: ``pickup_kinds``, ``pickup_sizes``, ``one`` (a single number).
COUNTS = {
    "deals": ("one",),
    "end_reason": ("end_reasons",),
    "turns": ("turns",),
    "upcard_cards": ("upcard",),
    "pile_frozen_at_start": ("one",),
    "concealed_out": ("one",),
    "first_canasta_turn": ("turns",),
    "red_threes_dealt_any": ("count",),  # red threes dealt per deal, all sides together
    "red_threes": ("sides", "count"),
    "red_threes_dealt": ("sides", "count"),
    "red_threes_drawn": ("sides", "count"),
    "red_threes_from_pile": ("sides", "count"),
    "red_threes_outcome": ("sides", "count", "outcomes"),
    "red_three_score_sum": ("sides",),
    "red_three_score_negative": ("sides",),
    "natural_canastas": ("sides", "count"),
    "mixed_canastas": ("sides", "count"),
    "concealed_canastas": ("sides", "count"),
    "canastas": ("sides", "count"),
    "canasta_rank": ("sides", "ranks"),
    "melds": ("sides", "count"),
    "score": ("sides", "score"),
    "score_sum": ("sides",),
    "score_sumsq": ("sides",),
    "outcome": ("sides", "outcomes"),
    "position_outcome": ("sides", "outcomes"),
    "position_score_sum": ("sides",),
    "position_score_sumsq": ("sides",),
    "position_diff_sum": ("one",),
    "position_diff_sumsq": ("one",),
    "meld_points_sum": ("sides",),
    "canasta_bonus_sum": ("sides",),
    "going_out_bonus_sum": ("sides",),
    "hand_penalty_sum": ("sides",),
    "went_out": ("sides",),
    "bot_sides": ("bots",),
    "bot_outcome": ("bots", "outcomes"),
    "bot_score_sum": ("bots",),
    "bot_score_sumsq": ("bots",),
    # canasta timing: [side, k-th canasta - 1, mixed when completed, turn] the turn
    # (0-based) it was completed; deals without it: [side, k - 1, turns played]
    "canasta_done": ("sides", "canasta", "mixed", "turns"),
    "canasta_censored": ("sides", "canasta", "turns"),
    # red threes dealt as a natural experiment: [side, dealt to the side, dealt to the
    # other sides] deals, and sums over them of the side's lead (S - 1 times its score minus
    # the others', so an integer), gross and net of every side's red-three score (R-50), with
    # squares, and of its sole wins of the deal
    "r3_cells": ("sides", "red_cells", "red_cells"),
    "r3_lead_sum": ("sides", "red_cells", "red_cells"),
    "r3_lead_sumsq": ("sides", "red_cells", "red_cells"),
    "r3_net_sum": ("sides", "red_cells", "red_cells"),
    "r3_net_sumsq": ("sides", "red_cells", "red_cells"),
    "r3_wins": ("sides", "red_cells", "red_cells"),
    # the discard pile per side and deal: sums (and squares) of the pickups by kind
    # (PICKUP_KINDS), of the cards taken and of cards x pickups (ratio intervals)
    "pickups_sum": ("sides", "pickup_kinds"),
    "pickups_sumsq": ("sides", "pickup_kinds"),
    "pile_taken_sum": ("sides",),
    "pile_taken_sumsq": ("sides",),
    "pile_taken_cross": ("sides",),
    "pickup_size": ("sides", "pickup_sizes"),
    "wild_freezes_sum": ("sides",),
    "wild_freezes_sumsq": ("sides",),
    "black_three_blocks_sum": ("sides",),
    "black_three_blocks_sumsq": ("sides",),
    "initial_meld_turn": ("sides", "turns"),  # index = turn + 1; 0 = no initial meld
}
#: The names of :data:`COUNTS`, in order.
COUNT_KEYS = tuple(COUNTS)
#: Columns of the count layout table: ``layout[CountCol.start, Count.score]`` (a namedtuple
#: built from :data:`COUNT_KEYS`, so numba folds its values into the kernel as constants).
Count: Any = namedtuple("Count", COUNT_KEYS)(*range(len(COUNT_KEYS)))


class _CountCol(NamedTuple):
    start: int = 0  # the count's first element in the flat array
    row: int = 1  # elements per index of its first axis (its shape's other axes, multiplied)
    bins: int = 2  # length of its last axis (a histogram's bins)


#: Rows of the count layout table, ``ndarray(int64, (COUNT_COLS, len(Count)))``: element
#: ``[i, j]`` of count ``k`` (``j`` the flat index over its other axes) is
#: ``flat[layout[CountCol.start, k] + i * layout[CountCol.row, k] + j]``.
CountCol = _CountCol()
COUNT_COLS = len(CountCol)


# nogil: a run adds up a chunk while the next one plays (canasta_sim.run.runner.map_chunks),
# whose threads need the GIL between their blocks of deals
@nb.njit(cache=True, _nrt=False, nogil=True)
def add_chunk_nb(c, layout, deal_rows, side_rows, bot_codes, players, score_offset, score_step):
    """Add one chunk's record rows into the counts ``c`` (mutated), one pass over the deals.

    Parameters
    ----------
    c : ndarray(int64, (size,))
        Every count, flat, as ``layout`` places them.
    layout : ndarray(int64, (COUNT_COLS, len(Count)))
        Where each count of :data:`Count` starts in ``c`` and its axes' lengths
        (rows :data:`CountCol`).
    deal_rows : ndarray(deal_dtype, (n,))
    side_rows : ndarray(side_dtype, (n, sides))
    bot_codes : ndarray(int64, (n, sides))
        Each deal's bot per side, ``0 <= code <`` the bots counted by ``bot_sides``.
    players, score_offset, score_step : int64
        Players at the table (who plays first, R-11); the score histogram's offset and bin
        width (points).
    """
    at = layout[CountCol.start]
    row = layout[CountCol.row]
    bins = layout[CountCol.bins]
    n, n_sides = side_rows.shape
    T = bins[Count.canasta_done]  # turn bins
    R = bins[Count.r3_cells]  # red threes dealt: 0 .. R - 1
    for i in range(n):
        deal = deal_rows[i]
        played = np.int64(deal.turns)
        K = Count.end_reason
        c[at[K] + min(max(np.int64(deal.end_reason) - 1, 0), bins[K] - 1)] += 1
        c[at[Count.turns] + min(max(played, 0), T - 1)] += 1
        K = Count.upcard_cards
        c[at[K] + min(max(np.int64(deal.upcard_cards), 0), bins[K] - 1)] += 1
        c[at[Count.pile_frozen_at_start]] += deal.pile_frozen_at_start
        c[at[Count.concealed_out]] += deal.concealed_out
        first = np.int64(deal.first_canasta_turn) + 1  # 0: no canasta
        c[at[Count.first_canasta_turn] + min(max(first, 0), T - 1)] += 1
        first_side = ((np.int64(deal.dealer) + 1) % players) % n_sides
        # the deal's highest score and how many sides share it; totals for the leads
        best = np.int64(side_rows[i, 0].score)
        n_best = 0
        total = np.int64(0)
        net_total = np.int64(0)
        dealt = np.int64(0)
        for s in range(n_sides):
            score = np.int64(side_rows[i, s].score)
            if score > best:
                best, n_best = score, 0
            n_best += score == best
            total += score
            net_total += score - side_rows[i, s].red_three_score
            dealt += side_rows[i, s].red_threes_dealt
        K = Count.red_threes_dealt_any
        c[at[K] + min(max(dealt, 0), bins[K] - 1)] += 1
        diff = n_sides * np.int64(side_rows[i, first_side].score) - total
        c[at[Count.position_diff_sum]] += diff
        c[at[Count.position_diff_sumsq]] += diff * diff
        for s in range(n_sides):
            r = side_rows[i, s]
            score = np.int64(r.score)
            # 0 = win (sole highest score), 1 = tie for highest, 2 = loss
            outcome = 2 if score < best else (1 if n_best > 1 else 0)
            # histograms of the side's counts: [side, count], each value clipped to its bins
            held = min(max(np.int64(r.red_threes), 0), bins[Count.red_threes] - 1)
            natural = np.int64(r.natural_canastas)
            mixed = np.int64(r.mixed_canastas)
            kinds = (
                Count.red_threes_dealt,
                Count.red_threes_drawn,
                Count.red_threes_from_pile,
                Count.natural_canastas,
                Count.mixed_canastas,
                Count.concealed_canastas,
                Count.melds,
                Count.canastas,
                Count.red_threes,
            )
            values = (
                np.int64(r.red_threes_dealt),
                np.int64(r.red_threes_drawn),
                np.int64(r.red_threes_from_pile),
                natural,
                mixed,
                np.int64(r.concealed_canastas),
                np.int64(r.melds),
                natural + mixed,
                held,
            )
            for j in range(len(kinds)):
                K = kinds[j]
                c[at[K] + s * row[K] + min(max(values[j], 0), bins[K] - 1)] += 1
            K = Count.canasta_rank
            ranks = np.int64(r.canasta_ranks)
            for k in range(bins[K]):  # bit k: a canasta of the k-th natural rank
                c[at[K] + s * row[K] + k] += (ranks >> k) & 1
            # [side, red threes (the red_threes histogram's bin), outcome]
            K = Count.red_threes_outcome
            c[at[K] + s * row[K] + held * bins[K] + outcome] += 1
            # sums per side
            r3 = np.int64(r.red_three_score)
            c[at[Count.red_three_score_sum] + s] += r3
            c[at[Count.red_three_score_negative] + s] += r3 < 0
            c[at[Count.meld_points_sum] + s] += r.meld_points
            c[at[Count.canasta_bonus_sum] + s] += r.canasta_bonus
            c[at[Count.going_out_bonus_sum] + s] += r.going_out_bonus
            c[at[Count.hand_penalty_sum] + s] += r.hand_penalty
            c[at[Count.went_out] + s] += r.went_out
            K = Count.score
            v = (score + score_offset) // score_step
            c[at[K] + s * row[K] + min(max(v, 0), bins[K] - 1)] += 1
            c[at[Count.score_sum] + s] += score
            c[at[Count.score_sumsq] + s] += score * score
            K = Count.outcome
            c[at[K] + s * row[K] + outcome] += 1
            # the side's k-th canasta: [side, k, mixed, turn completed], or censored
            # at the turns played: [side, k, turns]
            turns = (r.canasta_1_turn, r.canasta_2_turn, r.canasta_3_turn)
            mixed = (r.canasta_1_mixed, r.canasta_2_mixed, r.canasta_3_mixed)
            for k in range(3):
                turn = np.int64(turns[k])
                if turn >= 0:
                    K = Count.canasta_done
                    j = (2 * k + np.int64(mixed[k])) * T + min(turn, T - 1)
                else:
                    K = Count.canasta_censored
                    j = k * T + min(max(played, 0), T - 1)
                c[at[K] + s * row[K] + j] += 1
            # red threes dealt to the side and to the others: [side, own, others] the
            # deals, and sums of the side's lead over the others, gross and net of red threes
            # with squares, and its sole wins
            own = np.int64(r.red_threes_dealt)
            cell = s * R * R + min(max(own, 0), R - 1) * R + min(max(dealt - own, 0), R - 1)
            lead = n_sides * score - total
            net = n_sides * (score - r.red_three_score) - net_total
            c[at[Count.r3_cells] + cell] += 1
            c[at[Count.r3_lead_sum] + cell] += lead
            c[at[Count.r3_lead_sumsq] + cell] += lead * lead
            c[at[Count.r3_net_sum] + cell] += net
            c[at[Count.r3_net_sumsq] + cell] += net * net
            c[at[Count.r3_wins] + cell] += outcome == 0
            # the discard pile: pickups by kind (PICKUP_KINDS order) and by pile size
            # (PICKUP_SIZE_FIELDS order), with squares, cards taken, and the initial meld
            kinds = (r.pickups, r.pickups_pair, r.pickups_wild, r.pickups_onto_meld)
            for k in range(4):
                v = np.int64(kinds[k])
                c[at[Count.pickups_sum] + s * row[Count.pickups_sum] + k] += v
                c[at[Count.pickups_sumsq] + s * row[Count.pickups_sumsq] + k] += v * v
            v = np.int64(r.pile_cards_taken)
            c[at[Count.pile_taken_sum] + s] += v
            c[at[Count.pile_taken_sumsq] + s] += v * v
            c[at[Count.pile_taken_cross] + s] += v * r.pickups
            sizes = (
                r.pickups_0_4,
                r.pickups_5_9,
                r.pickups_10_14,
                r.pickups_15_19,
                r.pickups_20_24,
                r.pickups_25_up,
            )
            for k in range(6):
                c[at[Count.pickup_size] + s * row[Count.pickup_size] + k] += sizes[k]
            v = np.int64(r.wild_freezes)
            c[at[Count.wild_freezes_sum] + s] += v
            c[at[Count.wild_freezes_sumsq] + s] += v * v
            v = np.int64(r.black_three_blocks)
            c[at[Count.black_three_blocks_sum] + s] += v
            c[at[Count.black_three_blocks_sumsq] + s] += v * v
            v = np.int64(r.initial_meld_turn) + 1  # 0: no initial meld
            c[at[Count.initial_meld_turn] + s * T + min(max(v, 0), T - 1)] += 1
            # by position: 0 = the side of the player who plays first
            pos_score = np.int64(side_rows[i, (first_side + s) % n_sides].score)
            pos_outcome = 2 if pos_score < best else (1 if n_best > 1 else 0)
            c[at[Count.position_outcome] + s * row[Count.position_outcome] + pos_outcome] += 1
            c[at[Count.position_score_sum] + s] += pos_score
            c[at[Count.position_score_sumsq] + s] += pos_score * pos_score
            # by bot: [bot]
            bot = bot_codes[i, s]
            c[at[Count.bot_sides] + bot] += 1
            c[at[Count.bot_outcome] + bot * row[Count.bot_outcome] + outcome] += 1
            c[at[Count.bot_score_sum] + bot] += score
            c[at[Count.bot_score_sumsq] + bot] += score * score
    c[at[Count.deals]] += n
