"""Whole deals, and chunks of deals played in blocks on parallel threads."""

from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np

from .bots.turn import play_turn_nb
from .engine.melds import meld_size_nb
from .engine.score import score_side_nb
from .engine.state import STATE_DTYPE, start_deal_nb
from .jit import inline_kernel
from .layout import (
    BLACK_THREE,
    D_CONCEALED_OUT,
    D_DEALER,
    D_END,
    D_FIRST_CANASTA_TURN,
    D_FROZEN_AT_START,
    D_OUT_SEAT,
    D_TURNS,
    D_UPCARD_CARDS,
    EV_LEN,
    FIRST_NATURAL,
    FLAG_CONCEALED,
    G_CONCEALED_OUT,
    G_DEALER,
    G_END,
    G_FIRST_CANASTA_TURN,
    G_FROZEN_AT_START,
    G_OUT_SEAT,
    G_PHASE,
    G_TURN,
    G_UPCARD_CARDS,
    LAST_NATURAL,
    M_DEUCES,
    M_JOKERS,
    PHASE_OVER,
    R_SIDES,
    S_R3_DEALT,
    S_R3_DRAWN,
    S_R3_PILE,
    SC_LEN,
    SR_CANASTA_RANKS,
    SR_CONCEALED,
    SR_MELDS,
    SR_MIXED,
    SR_NATURAL,
    SR_R3_DEALT,
    SR_R3_DRAWN,
    SR_R3_PILE,
    SR_SCORE,
    SR_WENT_OUT,
)


@inline_kernel
def play_deal_nb(state, rules, seed, dealer, minimums, policies, params, log):
    """Play one deal to its end with the seats' policies (see :func:`policy.play_turn_nb`)."""
    g = state.g
    start_deal_nb(state, rules, seed, dealer, minimums, log)
    while g[G_PHASE] != PHASE_OVER:
        play_turn_nb(state, rules, policies, params, log)


@inline_kernel
def record_deal_nb(state, rules, deal_row, side_rows):
    """Write the finished deal's record (``int32[D_LEN]``) and its sides' records
    (``int32[n_sides, SR_LEN]``, including the score parts, points)."""
    melds, meld_flags, sides, g = state.melds, state.meld_flags, state.sides, state.g
    deal_row[D_DEALER] = g[G_DEALER]
    deal_row[D_TURNS] = g[G_TURN]
    deal_row[D_END] = g[G_END]
    deal_row[D_OUT_SEAT] = g[G_OUT_SEAT]
    deal_row[D_CONCEALED_OUT] = g[G_CONCEALED_OUT]
    deal_row[D_UPCARD_CARDS] = g[G_UPCARD_CARDS]
    deal_row[D_FROZEN_AT_START] = g[G_FROZEN_AT_START]
    deal_row[D_FIRST_CANASTA_TURN] = g[G_FIRST_CANASTA_TURN]
    for side in range(rules[R_SIDES]):
        row = side_rows[side]
        row[:] = 0
        row[SR_R3_DEALT] = sides[side, S_R3_DEALT]
        row[SR_R3_DRAWN] = sides[side, S_R3_DRAWN]
        row[SR_R3_PILE] = sides[side, S_R3_PILE]
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            size = meld_size_nb(melds, side, r)
            if size > 0:
                row[SR_MELDS] += 1
            if size >= 7 and r >= FIRST_NATURAL:
                row[SR_CANASTA_RANKS] |= 1 << (r - FIRST_NATURAL)
                if melds[side, r, M_DEUCES] + melds[side, r, M_JOKERS] == 0:
                    row[SR_NATURAL] += 1
                else:
                    row[SR_MIXED] += 1
                row[SR_CONCEALED] += meld_flags[side, r] & FLAG_CONCEALED
        row[SR_WENT_OUT] = 1 if g[G_OUT_SEAT] >= 0 and g[G_OUT_SEAT] % rules[R_SIDES] == side else 0
        score_side_nb(state, rules, side, row[SR_SCORE : SR_SCORE + SC_LEN])


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_block_nb(
    states,
    block,
    rules,
    seeds,
    dealers,
    minimums,
    seatings,
    policies,
    params,
    n_blocks,
    deal_rows,
    side_rows,
    log,
):
    """Play and record block ``block`` of a chunk's deals (see :func:`play_chunk`) one after
    another in ``states[block]``. Releases the GIL, so blocks run in parallel threads."""
    state = states[block]
    n = seeds.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_deal_nb(
            state,
            rules,
            seeds[i],
            dealers[i],
            minimums[i],
            policies[seatings[i]],
            params[seatings[i]],
            log,
        )
        record_deal_nb(state, rules, deal_rows[i], side_rows[i])


def play_chunk(
    rules, seeds, dealers, minimums, seatings, policies, params, threads, deal_rows, side_rows
):
    """Play a chunk of independent deals (one per element of ``seeds``) on ``threads``
    threads.

    The parallel loop runs in Python threads over blocks of deals (:func:`play_block_nb`,
    which releases the GIL), not in a ``parallel=True`` kernel: numba links the whole program
    into such a kernel and into each of its two loop wrappers and optimises and compiles it
    again each time, about 15 s more of a cold start.

    Parameters
    ----------
    rules : ndarray(int32, (RULES_LEN,))
    seeds : ndarray(uint64, (n,))
        Each deal's own seed (:func:`rng.deal_seed_nb`), so results do not depend on how
        deals are split into chunks or threads.
    dealers : ndarray(int32, (n,))
    minimums : ndarray(int32, (n, n_sides))
        Minimum count per deal and side (points, R-64).
    seatings : ndarray(int32, (n,))
        Row of ``policies``/``params`` each deal uses.
    policies : ndarray(int32, (n_seatings, players))
        Policy code per seat.
    params : ndarray(float64, (n_seatings, players, n_params))
    threads : int
        Threads to run on. Deals are split into blocks of consecutive deals, a few per thread
        to balance the load, each reusing one state (no allocation per deal). Results do not
        depend on it.
    deal_rows : ndarray(int32, (n, D_LEN)), written
    side_rows : ndarray(int32, (n, n_sides, SR_LEN)), written
    """
    n = seeds.shape[0]
    n_blocks = max(1, min(n, 8 * threads))
    states = np.empty(n_blocks, STATE_DTYPE)  # cleared by start_deal_nb
    no_log = np.zeros((0, EV_LEN), np.int32)

    def block(b):
        play_block_nb(
            states,
            np.int64(b),
            rules,
            seeds,
            dealers,
            minimums,
            seatings,
            policies,
            params,
            np.int64(n_blocks),
            deal_rows,
            side_rows,
            no_log,
        )

    if threads == 1 or n_blocks == 1:
        for b in range(n_blocks):
            block(b)
        return
    pool = ThreadPoolExecutor(min(threads, n_blocks))
    try:
        for future in [pool.submit(block, b) for b in range(n_blocks)]:
            future.result()
    finally:
        pool.shutdown(cancel_futures=True)
