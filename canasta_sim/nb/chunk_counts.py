"""One chunk's record rows added into a run's aggregate counts, in one pass (the numeric core
of :meth:`canasta_sim.results.aggregate.Aggregates.from_rows`).

The count arrays travel as one :class:`ChunkCounts` of ``int64`` arrays whose shapes carry the
histogram lengths; the kernel reads no table from a global. Every histogram clips its index to
``0 .. length - 1`` (the last bin holds everything beyond it); sums and squares are exact
``int64``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import inline_kernel, kernel


class ChunkCounts(NamedTuple):
    """The count arrays of :meth:`canasta_sim.results.aggregate.Aggregates.empty`, one field
    per key, same names and order; each ``ndarray(int64)`` of the shape given there."""

    deals: np.ndarray
    end_reason: np.ndarray
    turns: np.ndarray
    upcard_cards: np.ndarray
    pile_frozen_at_start: np.ndarray
    concealed_out: np.ndarray
    first_canasta_turn: np.ndarray
    red_threes_dealt_any: np.ndarray
    red_threes: np.ndarray
    red_threes_dealt: np.ndarray
    red_threes_drawn: np.ndarray
    red_threes_from_pile: np.ndarray
    red_threes_outcome: np.ndarray
    red_three_score_sum: np.ndarray
    red_three_score_negative: np.ndarray
    natural_canastas: np.ndarray
    mixed_canastas: np.ndarray
    concealed_canastas: np.ndarray
    canastas: np.ndarray
    canasta_rank: np.ndarray
    melds: np.ndarray
    score: np.ndarray
    score_sum: np.ndarray
    score_sumsq: np.ndarray
    outcome: np.ndarray
    position_outcome: np.ndarray
    position_score_sum: np.ndarray
    position_score_sumsq: np.ndarray
    position_diff_sum: np.ndarray
    position_diff_sumsq: np.ndarray
    meld_points_sum: np.ndarray
    canasta_bonus_sum: np.ndarray
    going_out_bonus_sum: np.ndarray
    hand_penalty_sum: np.ndarray
    went_out: np.ndarray
    bot_sides: np.ndarray
    bot_outcome: np.ndarray
    bot_score_sum: np.ndarray
    bot_score_sumsq: np.ndarray
    canasta_done: np.ndarray
    canasta_censored: np.ndarray
    r3_cells: np.ndarray
    r3_lead_sum: np.ndarray
    r3_lead_sumsq: np.ndarray
    r3_net_sum: np.ndarray
    r3_net_sumsq: np.ndarray
    r3_wins: np.ndarray
    pickups_sum: np.ndarray
    pickups_sumsq: np.ndarray
    pile_taken_sum: np.ndarray
    pile_taken_sumsq: np.ndarray
    pile_taken_cross: np.ndarray
    pickup_size: np.ndarray
    wild_freezes_sum: np.ndarray
    wild_freezes_sumsq: np.ndarray
    black_three_blocks_sum: np.ndarray
    black_three_blocks_sumsq: np.ndarray
    initial_meld_turn: np.ndarray


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


@inline_kernel
def _side_counts_nb(c, s, row, outcome, played):
    """Add side ``s``'s histograms and sums of one deal's ``row`` (a ``side_dtype`` record)."""
    H = c.red_threes.shape[1]
    c.red_threes[s, _bin_nb(row.red_threes, H)] += 1
    c.red_threes_dealt[s, _bin_nb(row.red_threes_dealt, H)] += 1
    c.red_threes_drawn[s, _bin_nb(row.red_threes_drawn, H)] += 1
    c.red_threes_from_pile[s, _bin_nb(row.red_threes_from_pile, H)] += 1
    c.natural_canastas[s, _bin_nb(row.natural_canastas, H)] += 1
    c.mixed_canastas[s, _bin_nb(row.mixed_canastas, H)] += 1
    c.concealed_canastas[s, _bin_nb(row.concealed_canastas, H)] += 1
    c.melds[s, _bin_nb(row.melds, H)] += 1
    c.canastas[s, _bin_nb(np.int64(row.natural_canastas) + row.mixed_canastas, H)] += 1
    ranks = np.int64(row.canasta_ranks)
    for r in range(c.canasta_rank.shape[1]):
        c.canasta_rank[s, r] += (ranks >> r) & 1
    c.red_threes_outcome[s, _bin_nb(row.red_threes, H), outcome] += 1
    r3 = np.int64(row.red_three_score)
    c.red_three_score_sum[s] += r3
    c.red_three_score_negative[s] += r3 < 0
    c.meld_points_sum[s] += row.meld_points
    c.canasta_bonus_sum[s] += row.canasta_bonus
    c.going_out_bonus_sum[s] += row.going_out_bonus
    c.hand_penalty_sum[s] += row.hand_penalty
    c.went_out[s] += row.went_out
    T = c.canasta_censored.shape[2]
    _timing_nb(c, s, 0, row.canasta_1_turn, row.canasta_1_mixed, played, T)
    _timing_nb(c, s, 1, row.canasta_2_turn, row.canasta_2_mixed, played, T)
    _timing_nb(c, s, 2, row.canasta_3_turn, row.canasta_3_mixed, played, T)
    _pile_counts_nb(c, s, row, T)


@inline_kernel
def _timing_nb(c, s, k, turn, mixed, played, T):
    """The side's ``k``-th canasta (R-65): completed at ``turn``, or censored at ``played``."""
    if turn >= 0:
        c.canasta_done[s, k, np.int64(mixed), min(np.int64(turn), T - 1)] += 1
    else:
        c.canasta_censored[s, k, _bin_nb(played, T)] += 1


@inline_kernel
def _sum_sq_nb(sums, sumsq, i, value):
    v = np.int64(value)
    sums[i] += v
    sumsq[i] += v * v


@inline_kernel
def _pile_counts_nb(c, s, row, T):
    """Add side ``s``'s discard-pile fields and initial-meld turn (``PICKUP_KINDS`` and
    ``PICKUP_SIZE_FIELDS`` order)."""
    _sum_sq_nb(c.pickups_sum[s], c.pickups_sumsq[s], 0, row.pickups)
    _sum_sq_nb(c.pickups_sum[s], c.pickups_sumsq[s], 1, row.pickups_pair)
    _sum_sq_nb(c.pickups_sum[s], c.pickups_sumsq[s], 2, row.pickups_wild)
    _sum_sq_nb(c.pickups_sum[s], c.pickups_sumsq[s], 3, row.pickups_onto_meld)
    cards = np.int64(row.pile_cards_taken)
    _sum_sq_nb(c.pile_taken_sum, c.pile_taken_sumsq, s, cards)
    c.pile_taken_cross[s] += cards * row.pickups
    size = c.pickup_size[s]
    size[0] += row.pickups_0_4
    size[1] += row.pickups_5_9
    size[2] += row.pickups_10_14
    size[3] += row.pickups_15_19
    size[4] += row.pickups_20_24
    size[5] += row.pickups_25_up
    _sum_sq_nb(c.wild_freezes_sum, c.wild_freezes_sumsq, s, row.wild_freezes)
    _sum_sq_nb(c.black_three_blocks_sum, c.black_three_blocks_sumsq, s, row.black_three_blocks)
    c.initial_meld_turn[s, _bin_nb(np.int64(row.initial_meld_turn) + 1, T)] += 1


@inline_kernel
def _deal_counts_nb(c, deal):
    """Add one deal's own fields (a ``deal_dtype`` record)."""
    T = c.turns.shape[0]
    c.end_reason[_bin_nb(np.int64(deal.end_reason) - 1, c.end_reason.shape[0])] += 1
    c.turns[_bin_nb(deal.turns, T)] += 1
    c.upcard_cards[_bin_nb(deal.upcard_cards, c.upcard_cards.shape[0])] += 1
    c.pile_frozen_at_start[0] += deal.pile_frozen_at_start
    c.concealed_out[0] += deal.concealed_out
    c.first_canasta_turn[_bin_nb(np.int64(deal.first_canasta_turn) + 1, T)] += 1


@kernel
def add_chunk_nb(c, deal_rows, side_rows, bot_codes, players, score_offset, score_step):
    """Add one chunk's record rows into the counts ``c`` (mutated), one pass over the deals.

    Parameters
    ----------
    c : ChunkCounts
        ``int64`` count arrays (histogram lengths are their shapes).
    deal_rows : ndarray(deal_dtype, (n,))
    side_rows : ndarray(side_dtype, (n, sides))
    bot_codes : ndarray(int64, (n, sides))
        Each deal's bot per side, ``0 <= code < len(c.bot_sides)``.
    players, score_offset, score_step : int64
        Players at the table (who plays first, R-11); the score histogram's offset and bin
        width (points).
    """
    n, n_sides = side_rows.shape
    H = c.red_threes.shape[1]
    R = c.r3_cells.shape[1]
    n_bins = c.score.shape[1]
    for i in range(n):
        deal = deal_rows[i]
        _deal_counts_nb(c, deal)
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
        c.red_threes_dealt_any[_bin_nb(dealt, H)] += 1
        diff = n_sides * np.int64(side_rows[i, first_side].score) - total
        c.position_diff_sum[0] += diff
        c.position_diff_sumsq[0] += diff * diff
        for s in range(n_sides):
            row = side_rows[i, s]
            score = np.int64(row.score)
            outcome = _outcome_nb(score, best, n_best)
            own = np.int64(row.red_threes_dealt)
            mine = _bin_nb(own, R)
            others = _bin_nb(dealt - own, R)
            _side_counts_nb(c, s, row, outcome, played)
            c.score[s, _bin_nb((score + score_offset) // score_step, n_bins)] += 1
            _sum_sq_nb(c.score_sum, c.score_sumsq, s, score)
            c.outcome[s, outcome] += 1
            # the side's lead over the others, gross and net of red threes
            lead = n_sides * score - total
            net = n_sides * (score - row.red_three_score) - net_total
            # red threes dealt to the side and to the others: their cell's sums
            c.r3_cells[s, mine, others] += 1
            _sum_sq_nb(c.r3_lead_sum[s, mine], c.r3_lead_sumsq[s, mine], others, lead)
            _sum_sq_nb(c.r3_net_sum[s, mine], c.r3_net_sumsq[s, mine], others, net)
            c.r3_wins[s, mine, others] += outcome == 0
            # by position: 0 = the side of the player who plays first
            pos = (first_side + s) % n_sides
            pos_score = np.int64(side_rows[i, pos].score)
            c.position_outcome[s, _outcome_nb(pos_score, best, n_best)] += 1
            _sum_sq_nb(c.position_score_sum, c.position_score_sumsq, s, pos_score)
            bot = bot_codes[i, s]
            c.bot_sides[bot] += 1
            c.bot_outcome[bot, outcome] += 1
            _sum_sq_nb(c.bot_score_sum, c.bot_score_sumsq, bot, score)
    c.deals[0] += n
