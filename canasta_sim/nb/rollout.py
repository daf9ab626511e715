"""Sampled worlds and rollouts: the hidden cards filled in, and a decision's candidates played
to the end of the deal by the bots, in blocks on parallel threads (like :mod:`.play`).

A rollout starts from the public state of an information set (a record of ``STATE_DTYPE``
built by :mod:`canasta_sim.infoset`), writes one world's hands and stock into it, applies one
candidate and lets the seats' policies play the rest of the deal. Every candidate of a world
starts from the same cards and the same bots' random stream (common random numbers), so the
differences between candidates are paired.
"""

import numba as nb
import numpy as np

from .bots.policies import PolicyCode
from .bots.turn import play_turn_nb
from .engine.score import side_score_nb
from .engine.state import STATE_DTYPE
from .enums import (
    EV_LEN,
    N_KINDS,
    RED_THREE,
    RO_LEN,
    CandKind,
    DealSlot,
    MoveError,
    Phase,
    RolloutCol,
    RuleSlot,
    ScorePart,
)
from .play import run_blocks
from .worlds import apply_candidate_nb, load_world_nb, unseen_pool_nb, world_nb

#: The policy codes :func:`play_turn_nb` plays, so the rollouts' bots: not the search bot
#: (it needs its own work arrays) nor a bot written in Python (code -1, outside the kernels).
ROLLOUT_CODES = (PolicyCode.random, PolicyCode.greedy, PolicyCode.careful, PolicyCode.expert)


@nb.njit(cache=True)
def strata_nb(weights, start, out):
    """The kinds of the next stock card for worlds ``start .. start + len(out) - 1``
    (``out``: ``int8[n]``, written).

    The sequence is the chairman assignment (Tijdeman): world ``t`` takes the kind furthest
    behind its share, ``argmax_k ((t + 1) * weights[k] - count_k)``, so every prefix of the
    sequence holds each kind within one world of ``t * weights[k]``. It depends only on
    ``weights`` (``float64[N_KINDS]``, summing to 1), not on ``start`` or ``len(out)``.
    """
    counts = np.zeros(N_KINDS, np.float64)
    n = out.shape[0]
    for t in range(start + n):
        best = -1
        lag = -1e300
        for k in range(N_KINDS):
            if weights[k] > 0.0:
                d = (t + 1) * weights[k] - counts[k]
                if d > lag:
                    lag = d
                    best = k
        counts[best] += 1.0
        if t >= start:
            out[t - start] = best


@nb.njit(cache=True)
def worlds_nb(unseen, slots, base, first, seeds, hands, stock):
    """Fill the hidden cards of ``len(seeds)`` worlds, exactly and without rejection.

    Parameters
    ----------
    unseen : ndarray(int64, (N_KINDS,))
        Cards of each kind the observer cannot place.
    slots : ndarray(int64, (players,))
        Unknown cards in each hand (0 for the observer).
    base : ndarray(int8, (players, N_KINDS))
        The cards each hand is known to hold (the observer's whole hand).
    first : ndarray(int8, (n,))
        Kind put on top of the stock in each world, or ``STRATA_OFF``.
    seeds : ndarray(uint64, (n,))
        Each world's seed: its splitmix64 stream shuffles the cards.
    hands : ndarray(int8, (n, players, N_KINDS)), written
    stock : ndarray(int8, (n, stock_size)), written; top card first.

    Red threes are never held (R-15, R-16): they go to stock places chosen uniformly; the other
    unseen cards are shuffled uniformly over the remaining places (the hands' unknown cards,
    then the stock), which is the uniform distribution over the deals the observer cannot
    tell apart.
    """
    pool0 = np.empty(max(unseen.sum(), 1), np.int8)
    m0 = unseen_pool_nb(unseen, pool0)
    pool = np.empty_like(pool0)
    places = np.empty(max(stock.shape[1], 1), np.int64)
    rng = np.empty(1, np.uint64)
    for i in range(seeds.shape[0]):
        rng[0] = seeds[i]
        world_nb(
            pool0,
            m0,
            unseen[RED_THREE],
            slots,
            base,
            first[i],
            rng,
            pool,
            places,
            hands[i],
            stock[i],
        )


@nb.njit(cache=True, _nrt=False, nogil=True)
def rollout_block_nb(
    states,
    block,
    n_blocks,
    public,
    rules,
    hands,
    stock,
    seeds,
    world_of,
    cand_of,
    cand_kind,
    cand_plan,
    cand_discard,
    policies,
    params,
    scores,
    info,
    log,
):
    """Play rollouts ``block * n // n_blocks .. (block + 1) * n // n_blocks - 1`` (see
    :func:`rollouts`) one after another in ``states[block]``. Releases the GIL."""
    state = states[block]
    n = world_of.shape[0]
    g = state.g
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        w = world_of[i]
        c = cand_of[i]
        # a pickup leaves the stock's top cards to the next players: moving the cards the draw
        # would have taken to the bottom lets every later draw match the draw candidate's
        # (closer pairs; still a uniform world, as any fixed reordering of one is)
        shift = rules[RuleSlot.draw_count] if cand_kind[c] == CandKind.take else 0
        load_world_nb(state, public, rules, hands[w], stock[w], seeds[w], shift)
        turn0 = g[DealSlot.turn]
        err = apply_candidate_nb(state, rules, cand_kind[c], cand_plan[c], cand_discard[c], log)
        info[i, RolloutCol.error] = err
        if err == MoveError.ok:
            while g[DealSlot.phase] != Phase.over:
                play_turn_nb(state, rules, policies, params, log)
        for side in range(rules[RuleSlot.sides]):
            scores[i, side] = side_score_nb(state, rules, side)[ScorePart.total]
        info[i, RolloutCol.out_seat] = g[DealSlot.out_seat]
        info[i, RolloutCol.end] = g[DealSlot.end]
        info[i, RolloutCol.turns] = g[DealSlot.turn] - turn0


def rollouts(
    public,
    rules,
    hands,
    stock,
    seeds,
    world_of,
    cand_of,
    cand_kind,
    cand_plan,
    cand_discard,
    policies,
    params,
    threads,
):
    """Play rollouts (world ``world_of[i]``, candidate ``cand_of[i]``) to the end of the deal on
    ``threads`` threads.

    Parameters
    ----------
    public : ndarray(STATE_DTYPE, (1,))
        The information set's public state (``InfoSet.public_state``).
    rules : ndarray(int32, (RULES_LEN,))
    hands : ndarray(int8, (n_worlds, players, N_KINDS))
    stock : ndarray(int8, (n_worlds, stock_size))
        Top card first.
    seeds : ndarray(uint64, (n_worlds,))
        World seeds; the bots' stream of world ``w`` is ``mix64(seeds[w])`` for every
        candidate.
    world_of, cand_of : ndarray(int64, (n,))
        Each rollout's world (row of ``hands``) and candidate (row of ``cand_*``).
    cand_kind : ndarray(int64, (n_cands,))
        :data:`~.enums.CandKind`.
    cand_plan : ndarray(int8, (n_cands, N_KINDS, 3))
        The pickup's or the meld's plan (naturals, deuces, jokers per rank).
    cand_discard : ndarray(int64, (n_cands,))
        Kind discarded after the meld (``CandKind.play``), or -1.
    policies : ndarray(int32, (players,))
        Policy codes, each one of :data:`ROLLOUT_CODES`.
    params : ndarray(float64, (players, n_params))
    threads : int

    Returns
    -------
    scores : ndarray(int32, (n, n_sides))
        Each side's deal score (points, R-50..R-54).
    info : ndarray(int32, (n, RO_LEN))
        Columns :data:`~.enums.RolloutCol`: seat that went out (-1), end reason (EndReason),
        the candidate's MoveError, turns played.

    Raises
    ------
    ValueError
        For a policy code not in :data:`ROLLOUT_CODES` (the kernel would play it as random).
    """
    bad = [int(c) for c in policies if c not in ROLLOUT_CODES]
    if bad:  # play_turn_nb would play them as random
        raise ValueError(
            f"policy code {bad[0]} is no rollout bot; allowed: {', '.join(map(str, ROLLOUT_CODES))}"
        )
    n = world_of.shape[0]
    n_sides = int(rules[RuleSlot.sides])
    scores = np.zeros((n, n_sides), np.int32)
    info = np.zeros((n, RO_LEN), np.int32)
    if n == 0:
        return scores, info
    n_blocks = max(1, min(n, 8 * threads))
    states = np.zeros(n_blocks, STATE_DTYPE)
    no_log = np.zeros((0, EV_LEN), np.int32)

    def block(b):
        rollout_block_nb(
            states,
            np.int64(b),
            np.int64(n_blocks),
            public[0],
            rules,
            hands,
            stock,
            seeds,
            world_of,
            cand_of,
            cand_kind,
            cand_plan,
            cand_discard,
            policies,
            params,
            scores,
            info,
            no_log,
        )

    run_blocks(block, n_blocks, threads)
    return scores, info
