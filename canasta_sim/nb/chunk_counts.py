"""One chunk's record rows added into a run's aggregate counts, in one pass (the numeric core
of :meth:`canasta_sim.results.aggregate.Aggregates.from_rows`).

The counts travel as one flat ``int64`` array and a layout table (``int64``, one row per count
of :data:`~.enums.Count`, columns :data:`~.enums.CountCol`) saying where each count starts in
it and its axes' lengths; the kernel reads no table from a global. Every histogram clips its
index to ``0 .. bins - 1`` (the last bin holds everything beyond it); sums and squares are
exact ``int64``.

Why so, and not one array per count: numba's compile time grows with the size of a kernel's
arguments and of its typed code. The 58 count arrays as one tuple cost about 0.75 CPU s for
each kernel that took it, and the whole kernel about 5 CPU s, the largest item of a cold
start. Here the small helpers are plain kernels called with ``int64`` arguments only (a layout
row for the count, never a literal constant, which numba would compile once per value), each
typed once; LLVM inlines them when it links the kernel.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .enums import Count, CountCol
from .jit import inline_kernel, kernel


@inline_kernel
def _bin_nb(value, length):
    """``value`` clipped to a histogram's bins ``0 .. length - 1``."""
    return min(max(np.int64(value), 0), length - 1)


@inline_kernel
def _outcome_nb(score, best, n_best):
    """0 = win (sole highest score), 1 = tie for highest, 2 = loss."""
    if score < best:
        return 2
    return 1 if n_best > 1 else 0


@kernel
def _add_nb(c, at, i, j, value):
    """Add ``value`` to element ``[i, j]`` of the count whose layout row is ``at`` (``i`` on
    its first axis, ``j`` over the others, flattened)."""
    c[at[CountCol.start] + i * at[CountCol.row] + j] += value


@kernel
def _hist_nb(c, at, i, value):
    """Count ``value`` in row ``i`` of the histogram whose layout row is ``at`` (clipped to
    its bins)."""
    _add_nb(c, at, i, _bin_nb(value, at[CountCol.bins]), np.int64(1))


@kernel
def _sum_sq_nb(c, sums, squares, i, j, value):
    """Add ``value`` to element ``[i, j]`` of the sums (layout row ``sums``) and its square to
    that of their squares (``squares``)."""
    _add_nb(c, sums, i, j, value)
    _add_nb(c, squares, i, j, value * value)


@kernel
def _side_counts_nb(c, layout, s, row, outcome, played):
    """Add side ``s``'s histograms and sums of one deal's ``row`` (a ``side_dtype`` record)
    that depend on the row alone (and the deal's ``outcome`` for the side and turns
    ``played``)."""
    zero, one = np.int64(0), np.int64(1)
    _hist_nb(c, layout[Count.red_threes], s, np.int64(row.red_threes))
    _hist_nb(c, layout[Count.red_threes_dealt], s, np.int64(row.red_threes_dealt))
    _hist_nb(c, layout[Count.red_threes_drawn], s, np.int64(row.red_threes_drawn))
    _hist_nb(c, layout[Count.red_threes_from_pile], s, np.int64(row.red_threes_from_pile))
    _hist_nb(c, layout[Count.natural_canastas], s, np.int64(row.natural_canastas))
    _hist_nb(c, layout[Count.mixed_canastas], s, np.int64(row.mixed_canastas))
    _hist_nb(c, layout[Count.concealed_canastas], s, np.int64(row.concealed_canastas))
    _hist_nb(c, layout[Count.melds], s, np.int64(row.melds))
    canastas = np.int64(row.natural_canastas) + np.int64(row.mixed_canastas)
    _hist_nb(c, layout[Count.canastas], s, canastas)
    ranks = np.int64(row.canasta_ranks)
    at = layout[Count.canasta_rank]
    for r in range(at[CountCol.bins]):
        _add_nb(c, at, s, r, (ranks >> r) & 1)
    # [side, red threes, outcome]: binned as the red threes' own histogram
    held = _bin_nb(row.red_threes, layout[Count.red_threes, CountCol.bins])
    _add_nb(c, layout[Count.red_threes_outcome], s, 3 * held + outcome, one)
    r3 = np.int64(row.red_three_score)
    _add_nb(c, layout[Count.red_three_score_sum], s, zero, r3)
    _add_nb(c, layout[Count.red_three_score_negative], s, zero, np.int64(r3 < 0))
    _add_nb(c, layout[Count.meld_points_sum], s, zero, np.int64(row.meld_points))
    _add_nb(c, layout[Count.canasta_bonus_sum], s, zero, np.int64(row.canasta_bonus))
    _add_nb(c, layout[Count.going_out_bonus_sum], s, zero, np.int64(row.going_out_bonus))
    _add_nb(c, layout[Count.hand_penalty_sum], s, zero, np.int64(row.hand_penalty))
    _add_nb(c, layout[Count.went_out], s, zero, np.int64(row.went_out))
    # the side's k-th canasta: [side, k, mixed, turn completed], or censored at the
    # turns played: [side, k, turns]
    done, censored = layout[Count.canasta_done], layout[Count.canasta_censored]
    T = done[CountCol.bins]
    turns = (row.canasta_1_turn, row.canasta_2_turn, row.canasta_3_turn)
    mixed = (row.canasta_1_mixed, row.canasta_2_mixed, row.canasta_3_mixed)
    for k in range(3):
        turn = np.int64(turns[k])
        if turn >= 0:
            _add_nb(c, done, s, (2 * k + np.int64(mixed[k])) * T + min(turn, T - 1), one)
        else:
            _add_nb(c, censored, s, k * T + _bin_nb(played, T), one)
    # the discard pile (PICKUP_KINDS and PICKUP_SIZE_FIELDS order) and the initial meld's turn
    sums, squares = layout[Count.pickups_sum], layout[Count.pickups_sumsq]
    _sum_sq_nb(c, sums, squares, s, zero, np.int64(row.pickups))
    _sum_sq_nb(c, sums, squares, s, one, np.int64(row.pickups_pair))
    _sum_sq_nb(c, sums, squares, s, np.int64(2), np.int64(row.pickups_wild))
    _sum_sq_nb(c, sums, squares, s, np.int64(3), np.int64(row.pickups_onto_meld))
    cards = np.int64(row.pile_cards_taken)
    _sum_sq_nb(c, layout[Count.pile_taken_sum], layout[Count.pile_taken_sumsq], s, zero, cards)
    _add_nb(c, layout[Count.pile_taken_cross], s, zero, cards * np.int64(row.pickups))
    sizes = (
        row.pickups_0_4,
        row.pickups_5_9,
        row.pickups_10_14,
        row.pickups_15_19,
        row.pickups_20_24,
        row.pickups_25_up,
    )
    at = layout[Count.pickup_size]
    for b in range(6):
        _add_nb(c, at, s, b, np.int64(sizes[b]))
    wild = np.int64(row.wild_freezes)
    _sum_sq_nb(c, layout[Count.wild_freezes_sum], layout[Count.wild_freezes_sumsq], s, zero, wild)
    black = np.int64(row.black_three_blocks)
    at, at_sq = layout[Count.black_three_blocks_sum], layout[Count.black_three_blocks_sumsq]
    _sum_sq_nb(c, at, at_sq, s, zero, black)
    _hist_nb(c, layout[Count.initial_meld_turn], s, np.int64(row.initial_meld_turn) + 1)


@kernel
def _deal_counts_nb(c, layout, deal):
    """Add one deal's own fields (a ``deal_dtype`` record)."""
    zero = np.int64(0)
    _hist_nb(c, layout[Count.end_reason], zero, np.int64(deal.end_reason) - 1)
    _hist_nb(c, layout[Count.turns], zero, np.int64(deal.turns))
    _hist_nb(c, layout[Count.upcard_cards], zero, np.int64(deal.upcard_cards))
    frozen = np.int64(deal.pile_frozen_at_start)
    _add_nb(c, layout[Count.pile_frozen_at_start], zero, zero, frozen)
    _add_nb(c, layout[Count.concealed_out], zero, zero, np.int64(deal.concealed_out))
    first = np.int64(deal.first_canasta_turn) + 1
    _hist_nb(c, layout[Count.first_canasta_turn], zero, first)


# nogil: a run adds up a chunk while the next one plays (canasta_sim.run.runner.map_chunks),
# whose threads need the GIL between their blocks of deals
@nb.njit(cache=True, _nrt=False, nogil=True)
def add_chunk_nb(c, layout, deal_rows, side_rows, bot_codes, players, score_offset, score_step):
    """Add one chunk's record rows into the counts ``c`` (mutated), one pass over the deals.

    Parameters
    ----------
    c : ndarray(int64, (size,))
        Every count, flat, as ``layout`` places them.
    layout : ndarray(int64, (len(Count), COUNT_COLS))
        Where each count of :data:`~.enums.Count` starts in ``c`` and its axes' lengths
        (:data:`~.enums.CountCol`).
    deal_rows : ndarray(deal_dtype, (n,))
    side_rows : ndarray(side_dtype, (n, sides))
    bot_codes : ndarray(int64, (n, sides))
        Each deal's bot per side, ``0 <= code <`` the bots counted by ``bot_sides``.
    players, score_offset, score_step : int64
        Players at the table (who plays first, R-11); the score histogram's offset and bin
        width (points).
    """
    zero, one = np.int64(0), np.int64(1)
    n, n_sides = side_rows.shape
    H = layout[Count.red_threes_dealt_any, CountCol.bins]
    R = layout[Count.r3_cells, CountCol.bins]
    for i in range(n):
        deal = deal_rows[i]
        _deal_counts_nb(c, layout, deal)
        played = np.int64(deal.turns)
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
        _add_nb(c, layout[Count.red_threes_dealt_any], zero, _bin_nb(dealt, H), one)
        diff = n_sides * np.int64(side_rows[i, first_side].score) - total
        at, at_sq = layout[Count.position_diff_sum], layout[Count.position_diff_sumsq]
        _sum_sq_nb(c, at, at_sq, zero, zero, diff)
        for s in range(n_sides):
            row = side_rows[i, s]
            score = np.int64(row.score)
            outcome = np.int64(_outcome_nb(score, best, n_best))
            _side_counts_nb(c, layout, s, row, outcome, played)
            _hist_nb(c, layout[Count.score], s, (score + score_offset) // score_step)
            _sum_sq_nb(c, layout[Count.score_sum], layout[Count.score_sumsq], s, zero, score)
            _add_nb(c, layout[Count.outcome], s, outcome, one)
            # the side's lead over the others, gross and net of red threes
            lead = n_sides * score - total
            net = n_sides * (score - row.red_three_score) - net_total
            # red threes dealt to the side and to the others: their cell's sums
            own = np.int64(row.red_threes_dealt)
            cell = _bin_nb(own, R) * R + _bin_nb(dealt - own, R)
            _add_nb(c, layout[Count.r3_cells], s, cell, one)
            _sum_sq_nb(c, layout[Count.r3_lead_sum], layout[Count.r3_lead_sumsq], s, cell, lead)
            _sum_sq_nb(c, layout[Count.r3_net_sum], layout[Count.r3_net_sumsq], s, cell, net)
            _add_nb(c, layout[Count.r3_wins], s, cell, np.int64(outcome == 0))
            # by position: 0 = the side of the player who plays first
            pos = (first_side + s) % n_sides
            pos_score = np.int64(side_rows[i, pos].score)
            pos_outcome = np.int64(_outcome_nb(pos_score, best, n_best))
            _add_nb(c, layout[Count.position_outcome], s, pos_outcome, one)
            at, at_sq = layout[Count.position_score_sum], layout[Count.position_score_sumsq]
            _sum_sq_nb(c, at, at_sq, s, zero, pos_score)
            bot = bot_codes[i, s]
            _add_nb(c, layout[Count.bot_sides], bot, zero, one)
            _add_nb(c, layout[Count.bot_outcome], bot, outcome, one)
            _sum_sq_nb(
                c, layout[Count.bot_score_sum], layout[Count.bot_score_sumsq], bot, zero, score
            )
    _add_nb(c, layout[Count.deals], zero, zero, n)
