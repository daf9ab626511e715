"""Choosing the discard (R-20 step 3): the card the next opponent is least likely to use, weighed
against how much the card is worth keeping; black threes to block (R-23) and wild cards to
freeze a big pile (R-24, R-31)."""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit

from ..engine.moves import discard_nb, end_turn_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MoveError,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from .knowledge import next_player_odds_nb, pile_memory_nb, unseen_wilds_nb

BLACK_THREE_KEEP = 0.3  # keep value of a black three held back for a later block
WILD_KEEP = 1.0  # keep value of a wild card, before its freeze_risk term


@inline_kernel
def take_chance_nb(u, frozen, on_meld, melded, passed, discarded, q, miss_pow, p_wild):
    """Chance that the next player (an opponent, R-10) can take the pile if a natural card of a
    rank with ``u`` unseen cards is discarded now: certain if the pile is open to them
    (``frozen`` false) and their side has a meld of that rank (``on_meld``, R-33 c); otherwise
    the chance that their hand holds two of the unseen cards (R-32) or, on an open pile, one of
    them and a wild card (R-33 b). ``q`` is the chance that a given unseen card is in their
    hand, ``miss_pow[i]`` is ``(1 - q) ** i`` (at least ``u + 1`` entries), ``p_wild`` the
    chance that they hold a wild card. A side without its initial meld (``melded`` false) also
    needs the minimum count, which halves the chance; a rank the next player passed on (saw on
    top of the pile and did not take) or discarded is much less likely to be held in pairs."""
    # selects, not branches (the flags follow the pile and the hand, too irregular to
    # predict), with the same value: adding p1 * 0.0 and scaling by 1, 1/2 or 1/4 are exact
    v = u if u > 0 else 1
    p0 = miss_pow[v]
    p1 = v * q * miss_pow[v - 1]
    p2 = 1.0 - p0 - p1
    p = p2 + p1 * (0.0 if frozen else p_wild)
    p *= (1.0 if melded else 0.5) * (0.25 if passed else (0.5 if discarded else 1.0))
    return 1.0 if not frozen and on_meld else (p if u > 0 else 0.0)


@inline_kernel
def rank_danger_nb(
    state, k, held, per_rank, frozen, next_ranks, melded, passed, discarded, q, powers, p_wild
):
    """The unseen cards of natural rank ``k`` (``per_rank`` in the pack less the ``held``
    ones, the pile's and the melded ones) and the chance that the next player takes the pile
    with a discard of it (:func:`take_chance_nb`; ``next_ranks``, ``passed`` and
    ``discarded`` bit masks of ranks, the others as there). R-32, R-33."""
    u = per_rank - held - state.pile_counts[k] - state.melded[k]
    p = take_chance_nb(
        u,
        frozen,
        (next_ranks >> k) & 1 != 0,
        melded,
        (passed >> k) & 1 != 0,
        (discarded >> k) & 1 != 0,
        q,
        powers,
        p_wild,
    )
    return u, p


@inline_kernel
def keep_value_nb(count, u, own_meld, points, pair_keep):
    """How much a player wants to keep a natural card (higher: keep; about 0 to 1.5): pairs and
    more (``count`` in hand; pile pickups, new melds) most (``pair_keep``), cards of a rank its
    side has melded (``own_meld``) next, single cards by their chance of pairing (``u`` unseen
    cards of the rank), minus a little of their penalty value (``points``)."""
    # both values, then a select: a branch on the hand's counts was mispredicted
    pair = pair_keep + 0.1 * count
    single = 0.04 * u
    v = pair if count >= 2 else single
    v += 0.25 if own_meld else 0.0
    return v - 0.002 * points


@inline_kernel
def discard_context_nb(state, rules, bot, seat):
    """What :func:`choose_discard_nb` reads once per decision, as one tuple for
    :func:`discard_value_nb`: the pile's memory of the next player (ranks passed, ranks
    discarded), their odds (:func:`.knowledge.next_player_odds_nb`, which fills ``bot.powers``,
    :data:`.memory.BOT_DTYPE`), whether their side has melded and its meld ranks, the own
    side's meld ranks, whether the pile is frozen for them, the cards of a rank in the pack."""
    sides, g = state.sides, state.g
    passed, discarded = pile_memory_nb(state, rules)
    q, p_wild = next_player_odds_nb(state, rules, bot, seat)
    side = rules[RuleSlot.side_of + seat]
    opp = rules[RuleSlot.side_of + rules[RuleSlot.next_seat + seat]]
    opp_melded = sides[opp, SideSlot.melded] != 0
    # every meld holds naturals, so "a meld of rank k" is "naturals of rank k melded"
    opp_ranks = sides[opp, SideSlot.meld_ranks]
    own_ranks = sides[side, SideSlot.meld_ranks]
    frozen = g[DealSlot.pile_freeze] > 0 or not opp_melded
    per_rank = 4 * (rules[RuleSlot.n_cards] // 54)
    return passed, discarded, q, p_wild, opp_melded, opp_ranks, own_ranks, frozen, per_rank


@inline_kernel
def discard_value_nb(state, rules, bot, hand, k, context, safety, pair_keep):
    """The discard score of natural rank ``k`` held (lower: discard): its keep value
    (:func:`keep_value_nb`) plus ``safety`` times the expected cards it hands the next
    player (:func:`take_chance_nb` times the pile after the discard); ``context`` is
    :func:`discard_context_nb`'s tuple."""
    passed, discarded, q, p_wild, opp_melded, opp_ranks, own_ranks, frozen, per_rank = context
    c = hand[k]
    u, p = rank_danger_nb(
        state, k, c, per_rank, frozen, opp_ranks, opp_melded, passed, discarded, q, bot.powers,
        p_wild,
    )  # fmt: skip
    own_meld = (own_ranks >> k) & 1 != 0
    v = keep_value_nb(c, u, own_meld, rules[RuleSlot.values + k], pair_keep)
    return v + safety * p * (state.g[DealSlot.pile_len] + 1)


@kernel
def choose_discard_nb(
    state, rules, bot, seat, safety, block_at, freeze_risk, freeze_pile, pair_keep
):
    """Pick the card to discard (R-20 step 3): the lowest ``keep value + safety * danger``,
    where danger is :func:`take_chance_nb` times the cards the next player would take (the
    expected cards handed to them) and the keep value is :func:`keep_value_nb`.

    Black threes and wild cards carry no danger (the next player cannot take the pile, R-23,
    R-30). A black three goes at once when the pile holds at least ``block_at`` cards, when two
    or more are held (two left in hand stop going out, R-41) or when the hand is small;
    otherwise it is kept back with keep value ``BLACK_THREE_KEEP``. A wild card, which freezes
    the pile (R-24, R-31), counts ``WILD_KEEP + safety * freeze_risk``: it goes when the safest
    other discard would hand the next player about ``freeze_risk`` expected cards or more, and
    only on a pile of at least ``freeze_pile`` cards. ``bot`` is the working record
    (:data:`.memory.BOT_DTYPE`). Returns the kind."""
    hand = state.hands[seat]
    plen = state.g[DealSlot.pile_len]
    if hand[BLACK_THREE] > 0:
        if plen >= block_at or hand[BLACK_THREE] >= 2 or state.hand_sizes[seat] <= 3:
            return BLACK_THREE
    context = discard_context_nb(state, rules, bot, seat)
    best = -1
    best_v = 1e18
    # only the ranks held are scored, in rank order, walked as the set bits of a mask: a test
    # per rank was a branch on the hand's counts, too irregular to predict
    held = 0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        held |= (1 if hand[k] > 0 else 0) << k
    while held != 0:
        k = trailing_zeros(held)
        held &= held - 1
        v = discard_value_nb(state, rules, bot, hand, k, context, safety, pair_keep)
        better = v < best_v
        best = k if better else best
        best_v = v if better else best_v
    if hand[BLACK_THREE] > 0 and (BLACK_THREE_KEEP < best_v or best < 0):
        best_v = BLACK_THREE_KEEP
        best = BLACK_THREE
    wild = DEUCE if hand[DEUCE] > 0 else (JOKER if hand[JOKER] > 0 else -1)
    if wild >= 0:
        if best < 0 or (plen >= freeze_pile and WILD_KEEP + safety * freeze_risk < best_v):
            best = wild
    return best


@kernel
def ranked_discards_nb(
    state, rules, bot, seat, safety, block_at, freeze_risk, freeze_pile, pair_keep, top, out, vals
):
    """The first ``top`` kinds of the sequence :func:`choose_discard_nb` gives when asked
    again and again with each chosen kind taken out of the hand (its choice, then its choice
    without that kind, ...; R-20 step 3, R-23, R-24), into ``out`` (``int64[>= top]``), in
    one pass: the next player's odds and every held rank's score (``vals``,
    ``float64[N_KINDS]`` scratch) are computed once, and the scores again after a wild card
    is chosen on a pile open to the next player (only the chance that they hold a wild card
    changes: the unseen wild cards count the own hand's). The hand is left as it was.
    Returns how many were written."""
    hand = state.hands[seat]
    plen = state.g[DealSlot.pile_len]
    context = discard_context_nb(state, rules, bot, seat)
    # the held ranks not chosen yet, walked in rank order as the set bits of a mask
    held = 0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        held |= (1 if hand[k] > 0 else 0) << k
    discard_values_nb(state, rules, bot, hand, held, context, safety, pair_keep, vals)
    black = hand[BLACK_THREE] > 0
    deuces = hand[DEUCE]
    jokers = hand[JOKER]
    deuce = deuces > 0
    joker = jokers > 0
    n = 0
    while n < top:
        best = -1
        if black and (plen >= block_at or hand[BLACK_THREE] >= 2 or state.hand_sizes[seat] <= 3):
            best = BLACK_THREE
        else:
            best_v = 1e18
            todo = held
            while todo != 0:
                k = trailing_zeros(todo)
                todo &= todo - 1
                better = vals[k] < best_v
                best = k if better else best
                best_v = vals[k] if better else best_v
            if black and (BLACK_THREE_KEEP < best_v or best < 0):
                best_v = BLACK_THREE_KEEP
                best = BLACK_THREE
            wild = DEUCE if deuce else (JOKER if joker else -1)
            if wild >= 0:
                if best < 0 or (plen >= freeze_pile and WILD_KEEP + safety * freeze_risk < best_v):
                    best = wild
        if best < 0:
            break
        out[n] = best
        n += 1
        if best == BLACK_THREE:
            black = False
        elif best == DEUCE or best == JOKER:
            deuce = deuce and best != DEUCE
            joker = joker and best != JOKER
            # the scores read the chance of a wild card (take_chance_nb) only on a pile open
            # to the next player: again without this one
            passed, discarded, q, _, opp_melded, opp_ranks, own_ranks, frozen, per_rank = context
            if n < top and not frozen:
                hand[DEUCE] = deuces if deuce else 0
                hand[JOKER] = jokers if joker else 0
                p_wild = 1.0 - bot.powers[unseen_wilds_nb(state, rules, seat)]
                hand[DEUCE] = deuces
                hand[JOKER] = jokers
                context = (
                    passed,
                    discarded,
                    q,
                    p_wild,
                    opp_melded,
                    opp_ranks,
                    own_ranks,
                    frozen,
                    per_rank,
                )
                discard_values_nb(state, rules, bot, hand, held, context, safety, pair_keep, vals)
        else:
            held &= ~(1 << best)
    return n


@inline_kernel
def discard_values_nb(state, rules, bot, hand, held, context, safety, pair_keep, vals):
    """:func:`discard_value_nb` of each natural rank of the bit mask ``held`` into ``vals``
    (``float64[N_KINDS]``, at the rank)."""
    todo = held
    while todo != 0:
        k = trailing_zeros(todo)
        todo &= todo - 1
        vals[k] = discard_value_nb(state, rules, bot, hand, k, context, safety, pair_keep)


@kernel
def discard_safe_nb(state, rules, bot, log, safety, block_at, freeze_risk, freeze_pile, pair_keep):
    """Discard the card :func:`choose_discard_nb` picks (falling back to any card the move
    kernel accepts); after a last-card red three the deal ends instead (R-45)."""
    g = state.g
    if g[DealSlot.last_red_three] != 0:
        end_turn_nb(state, rules, log)
        return
    seat = g[DealSlot.current]
    k = choose_discard_nb(
        state, rules, bot, seat, safety, block_at, freeze_risk, freeze_pile, pair_keep
    )
    discard_or_any_nb(state, rules, seat, k, log)


@inline_kernel
def discard_or_any_nb(state, rules, seat, k, log):
    """Discard kind ``k`` for ``seat``, or when ``k`` is -1 or the move kernel refuses it the
    first kind held that the move kernel accepts (R-20 step 3)."""
    if k >= 0 and discard_nb(state, rules, np.int64(k), log) == MoveError.ok:
        return
    for j in range(N_KINDS):
        if state.hands[seat, j] > 0 and discard_nb(state, rules, j, log) == MoveError.ok:
            return
