"""Sampled worlds and rollouts: the hidden cards filled in, and a decision's candidates played
to the end of the deal by the bots, in blocks on parallel threads (like :mod:`.play`).

A rollout starts from the public state of an information set (a record of ``STATE_DTYPE``
built by :mod:`canasta_sim.game.infoset`), writes one world's hands and stock into it, applies one
candidate and lets the seats' policies play the rest of the deal. Every candidate of a world
starts from the same cards and the same bots' random stream (common random numbers), so the
differences between candidates are paired.

The rollout kernel takes its arguments as a few named groups: the worlds (:class:`WorldCards`),
the candidates (:class:`CandidateRows`), which world and candidate each rollout plays
(:class:`Pairs`), the seats' bots (:class:`.play.Seating`), each block's records
(:class:`.play.Blocks`) and the results written (:class:`Results`).
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from .bots.apprentice import NET_LEN
from .bots.features import feature_work
from .bots.policies import ROLLOUT_CODES
from .bots.search_candidates import search_work
from .bots.turn import learned_turn_nb
from .engine.score import side_score_nb
from .enums import EV_LEN, N_KINDS, RED_THREE, DealSlot, MoveError, Phase, RuleSlot, ScorePart
from .play import Learned, Search, Seating, learns, new_blocks, run_blocks
from .worlds import CandKind, apply_candidate_nb, load_world_nb, unseen_pool_nb, world_nb


class _RolloutCol(NamedTuple):
    out_seat: int = 0  # seat that went out, or -1
    end: int = 1  # end reason (EndReason)
    error: int = 2  # MoveError.ok, or the error of the candidate's move (never expected)
    turns: int = 3  # turns played in the rollout


#: Columns of a rollout's ``info`` row: ``ndarray(int32, (n, RO_LEN))``.
RolloutCol = _RolloutCol()
RO_LEN = len(RolloutCol)


class WorldCards(NamedTuple):
    """The cards of sampled worlds: the hidden cards filled in (:func:`worlds_nb`; in Python,
    :class:`canasta_sim.game.infoset.Worlds`)."""

    hands: np.ndarray  # int8, (n_worlds, players, N_KINDS)
    stock: np.ndarray  # int8, (n_worlds, stock_size): top card first
    # uint64, (n_worlds,): the bots' stream of world w is mix64(seeds[w]) for every candidate
    seeds: np.ndarray


class CandidateRows(NamedTuple):
    """A decision's candidates, one row each: what the first move is, its plan, its discard."""

    kind: np.ndarray  # int64, (n_cands,): CandKind
    plan: np.ndarray  # int8, (n_cands, N_KINDS, 3): the pickup's or the meld's plan
    discard: np.ndarray  # int64, (n_cands,): kind discarded after the meld (CandKind.play) or -1


class Pairs(NamedTuple):
    """Which world and which candidate each rollout plays."""

    world: np.ndarray  # int64, (n,): row of WorldCards
    cand: np.ndarray  # int64, (n,): row of CandidateRows


class Results(NamedTuple):
    """What each rollout gives."""

    scores: np.ndarray  # int32, (n, n_sides): each side's deal score (points, R-50..R-54)
    info: np.ndarray  # int32, (n, RO_LEN): columns RolloutCol


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
    block, n_blocks, rules, public, worlds, cands, pairs, seating, blocks, search, learned, out, log
):
    """Play rollouts ``block * n // n_blocks .. (block + 1) * n // n_blocks - 1`` (see
    :func:`rollouts`; ``seating``'s one row of policies and parameters) one after another in
    the block's records of ``blocks`` (a learned seat's work in ``search`` and ``learned``,
    as :func:`.bots.turn.learned_turn_nb` reads them), writing ``out``. Releases the
    GIL."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    policies, params = seating.policies[0], seating.params[0]
    scores, info = out.scores, out.info
    n = pairs.world.shape[0]
    g = state.g
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        w = pairs.world[i]
        c = pairs.cand[i]
        # a pickup leaves the stock's top cards to the next players: moving the cards the draw
        # would have taken to the bottom lets every later draw match the draw candidate's
        # (closer pairs; still a uniform world, as any fixed reordering of one is)
        shift = rules[RuleSlot.draw_count] if cands.kind[c] == CandKind.take else 0
        load_world_nb(
            state, public, rules, worlds.hands[w], worlds.stock[w], worlds.seeds[w], shift
        )
        turn0 = g[DealSlot.turn]
        err = apply_candidate_nb(state, rules, cands.kind[c], cands.plan[c], cands.discard[c], log)
        info[i, RolloutCol.error] = err
        if err == MoveError.ok:
            while g[DealSlot.phase] != Phase.over:
                learned_turn_nb(state, rules, bot, policies, params, search, learned, block, log)
        for side in range(rules[RuleSlot.sides]):
            scores[i, side] = side_score_nb(state, rules, side)[ScorePart.total]
        info[i, RolloutCol.out_seat] = g[DealSlot.out_seat]
        info[i, RolloutCol.end] = g[DealSlot.end]
        info[i, RolloutCol.turns] = g[DealSlot.turn] - turn0


def rollouts(
    public,
    rules,
    worlds: WorldCards,
    cands: CandidateRows,
    pairs: Pairs,
    seating: Seating,
    threads,
    weights=None,
):
    """Play rollouts (world ``pairs.world[i]``, candidate ``pairs.cand[i]``) to the end of the
    deal on ``threads`` threads.

    Parameters
    ----------
    public : ndarray(STATE_DTYPE, (1,))
        The information set's public state (``InfoSet.public_state``).
    rules : ndarray(int32, (RULES_LEN,))
    worlds : WorldCards
        The worlds' hands, stocks and seeds (dtypes and shapes in :class:`WorldCards`).
    cands : CandidateRows
        The candidates' kinds (:data:`~canasta_sim.nb.worlds.CandKind`), plans and discards.
    pairs : Pairs
        Each rollout's world (row of ``worlds``) and candidate (row of ``cands``).
    seating : Seating
        One seating: ``policies`` ``ndarray(int32, (1, players))``, each one of
        :data:`~.bots.policies.ROLLOUT_CODES`, and ``params``
        ``ndarray(float64, (1, players, n_params))``; a learned seat's
        ``ApprenticeParam.weight_set`` indexes ``weights``.
    threads : int
    weights : ndarray(float32, (n_sets, NET_LEN)), optional
        The learned bot's weight sets (:func:`canasta_sim.players.specs.weight_sets`); needed only
        when a seat plays it.

    Returns
    -------
    Results
        ``scores``, ``ndarray(int32, (n, n_sides))``: each side's deal score (points,
        R-50..R-54); ``info``, ``ndarray(int32, (n, RO_LEN))``, columns
        :data:`RolloutCol`: seat that went out (-1), end reason (EndReason), the
        candidate's MoveError, turns played.

    Raises
    ------
    ValueError
        For a policy code not in :data:`~.bots.policies.ROLLOUT_CODES` (the kernel would play
        it as random).
    """
    bad = [int(c) for c in seating.policies.ravel() if c not in ROLLOUT_CODES]
    if bad:  # play_turn_nb would play them as random
        raise ValueError(
            f"policy code {bad[0]} is no rollout bot; allowed: {', '.join(map(str, ROLLOUT_CODES))}"
        )
    n = pairs.world.shape[0]
    n_sides = int(rules[RuleSlot.sides])
    out = Results(np.zeros((n, n_sides), np.int32), np.zeros((n, RO_LEN), np.int32))
    if n == 0:
        return out
    n_blocks = max(1, min(n, 8 * threads))
    blocks = new_blocks(n_blocks)  # load_world_nb overwrites each state whole
    learning = learns(seating.policies, seating.params)
    if weights is None:
        if learning:
            raise ValueError("a learned rollout bot needs its weight sets; pass weights")
        weights = np.zeros((1, NET_LEN), np.float32)
    search = Search(*search_work(2 * n_blocks if learning else 0))
    learned = Learned(weights, feature_work(n_blocks if learning else 0))
    no_log = np.zeros((0, EV_LEN), np.int32)

    def block(b):
        rollout_block_nb(
            np.int64(b),
            np.int64(n_blocks),
            rules,
            public[0],
            worlds,
            cands,
            pairs,
            seating,
            blocks,
            search,
            learned,
            out,
            no_log,
        )

    run_blocks(block, n_blocks, threads)
    return out
