"""One world's hidden cards, a world loaded into a rollout state, and a candidate's first
moves: the pieces shared by the rollouts of :mod:`.rollout` and the search bot
(:mod:`.bots.pimc`). No bot is imported here, so the bots may use them.
"""

from typing import NamedTuple

import numpy as np

from .engine.melds import plan_rows_nb
from .engine.moves import discard_nb, draw_nb, end_turn_nb, meld_nb, take_pile_nb
from .engine.rng import below_nb, mix64_nb
from .engine.state import copy_state_nb
from .enums import N_KINDS, RED_THREE, DealSlot, MoveError, Phase, RuleSlot
from .jit import inline_kernel

#: ``first`` kind of a world whose next stock card is not stratified (:func:`~.rollout.worlds_nb`).
STRATA_OFF = -1


class _CandKind(NamedTuple):
    draw: int = 0  # draw from the stock
    take: int = 1  # take the pile with the candidate's plan (R-30..R-35)
    # meld the candidate's plan (if any cards), then discard its kind (if >= 0); after a
    # last-card red three, no discard: the deal ends
    play: int = 2


#: What a candidate's first move is: the ``kind`` of a candidate row
#: (:data:`~.candidates.CANDIDATE_DTYPE`), ``cand_kind`` of the rollouts, the search bot's
#: ``kind``. Here beside :func:`apply_candidate_nb`, which makes the move, below every kernel
#: that writes candidates.
CandKind = _CandKind()


@inline_kernel
def unseen_pool_nb(unseen, pool0):
    """Write the unseen cards other than red threes (``unseen``: ``int64[N_KINDS]``) into
    ``pool0`` (``int8[>= their number]``) in kind order; returns their number."""
    m0 = 0
    for k in range(N_KINDS):
        if k != RED_THREE:
            for _ in range(unseen[k]):
                pool0[m0] = k
                m0 += 1
    return m0


@inline_kernel
def world_nb(pool0, m0, reds, slots, base, k, rng, pool, places, hands, stock):
    """Fill one world's hidden cards (see :func:`~canasta_sim.nb.rollout.worlds_nb`): ``hands``
    (``int8[players, N_KINDS]``) and ``stock`` (``int8[stock_size]``, top card first), written,
    from the stream ``rng`` (``uint64[1]``); ``k`` is the kind put on top of the stock or
    ``STRATA_OFF``; ``pool`` and ``places`` are scratch (``int8``/``int64``, at least
    ``m0`` and ``stock_size`` long). Red threes are never held (R-15, R-16): the ``reds``
    unseen red threes go to the stock, at most as many as it has places (only a position built
    by hand, :meth:`canasta_sim.Deal.from_position`, can leave more unplaced)."""
    s = stock.shape[0]
    for q in range(m0):
        pool[q] = pool0[q]
    m = m0
    top = 0
    if k != STRATA_OFF:
        stock[0] = k
        top = 1
        if k == RED_THREE:
            reds -= 1
        else:
            for q in range(m):  # take one card of kind k out of the pool
                if pool[q] == k:
                    pool[q] = pool[m - 1]
                    m -= 1
                    break
    free = s - top
    # a position built by hand may leave out cards (they are out of play), red threes too:
    # more unseen red threes than stock places then fill the stock, the rest are out of play
    reds = min(reds, free)
    for j in range(free):
        places[j] = top + j
    for j in range(reds):  # partial Fisher-Yates: the red threes' stock places
        t = j + below_nb(rng, free - j)
        places[j], places[t] = places[t], places[j]
        stock[places[j]] = RED_THREE
    for j in range(m - 1, 0, -1):
        t = below_nb(rng, j + 1)
        pool[j], pool[t] = pool[t], pool[j]
    q = 0
    for p in range(slots.shape[0]):
        for kk in range(N_KINDS):
            hands[p, kk] = base[p, kk]
        for _ in range(slots[p]):
            hands[p, pool[q]] += 1
            q += 1
    for j in range(reds, free):
        stock[places[j]] = pool[q]
        q += 1


@inline_kernel
def load_world_nb(state, public, rules, hands, stock, seed, shift):
    """Copy the public state into ``state`` and write one world's hands and stock (top card
    first, its first ``shift`` cards moved to the bottom) into it; the bots' random stream
    starts from ``mix64(seed)``. The whole record is copied, so a rollout does not depend on
    which rollouts its state played before (the stock below ``g[stock_pos]``, dealt or drawn
    before the position, is never read; the bots' working record is written before it is
    read, :mod:`.bots.memory`)."""
    copy_state_nb(state, public)
    for p in range(rules[RuleSlot.players]):
        for k in range(N_KINDS):
            state.hands[p, k] = hands[p, k]
    pos = state.g[DealSlot.stock_pos]
    s = stock.shape[0]
    if s > 0:
        shift %= s
    for j in range(s - shift):  # two loops rather than a division per card
        state.stock[pos + j] = stock[j + shift]
    for j in range(shift):
        state.stock[pos + s - shift + j] = stock[j]
    state.rng[0] = mix64_nb(seed)


@inline_kernel
def apply_candidate_nb(state, rules, kind, plan, discard, log):
    """Make a candidate's moves (:data:`CandKind`); returns ``MoveError.ok`` or the move's
    :data:`~canasta_sim.nb.enums.MoveError`."""
    if kind == CandKind.draw:
        return draw_nb(state, rules, log)
    if kind == CandKind.take:
        return take_pile_nb(state, rules, plan, log)
    if plan_rows_nb(plan, np.int64(-1)) != 0:
        err = meld_nb(state, rules, plan, log)
        if err != MoveError.ok:
            return err
    if state.g[DealSlot.phase] != Phase.play:
        return MoveError.ok
    if discard >= 0:
        return discard_nb(state, rules, np.int64(discard), log)
    if state.g[DealSlot.last_red_three] != 0:  # the play ends the deal
        return end_turn_nb(state, rules, log)
    return MoveError.ok
