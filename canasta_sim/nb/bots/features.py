"""The learned bot's inputs: state features (once per decision) and candidate features (one
vector per candidate), ``float32`` arrays whose slots are :data:`StateFeat` and
:data:`CandFeat` (table and scales in ``docs/learned.md``).

Only what the seat to play may know is read: its own hand, the melds, red threes and the
discard pile (public), ``state.known`` (cards taken with the pile and not since shown), the
hand sizes, the stock size, the sides' cumulative scores and minimum counts, and the turn. The
other hands' unknown cards and the stock order are never read, so two positions that differ
only in hidden cards give the same features (``tests/nb/test_features.py``).

A candidate is read as the search bot keeps it (:mod:`.pimc`): its kind (``CandKind``), its plan
(``int8[N_KINDS, 3]``: cards from hand melded, with the pile's top card for a pickup) and its
discard (a kind or -1). Its features say what the move changes, computed from the state and
the plan without playing the move (no state copy per candidate); the kernels allocate
nothing: the feature arrays live in a work record (:data:`FEATURE_WORK_DTYPE`).
Both feature kernels have one caller (:func:`.apprentice.decision_features_nb`), one call a
decision each: the candidates' features are one loop in one kernel. (Inlined into their
caller they made it the longest compile of a cold start, 9 CPU s of 58; as a call per
candidate a play decision took about a seventh more time: docs/performance-history.md.)
"""

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit

from ..engine.deal import pack_count_nb
from ..engine.melds import next_plan_row_nb, plan_rows_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    RED_THREE,
    DealSlot,
    MeldCol,
    Phase,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..worlds import CandKind
from .discards import take_chance_nb
from .knowledge import (
    opponents_threaten_nb,
    pile_memory_nb,
    side_table_points_nb,
    unknown_cards_nb,
    unseen_wilds_nb,
)
from .memory import MAX_CANDIDATES, MAX_POWERS


# --- slots of the learned bot's feature vectors (docs/learned.md) ---------------------------
class _StateFeat(NamedTuple):
    bias: int = 0  # 1.0
    stock: int = 1  # stock left / cards in the pack
    hand: int = 2  # own hand size / 15
    next_hand: int = 3  # next player's hand size / 15
    partner_hand: int = 4  # partners' mean hand size / 15 (0 without a partner)
    opp_hand_min: int = 5  # smallest opponent hand / 15
    pile: int = 6  # discard pile size / 20
    frozen: int = 7  # 1 if the pile is frozen for all
    melded: int = 8  # 1 if the own side has made its initial meld
    next_melded: int = 9  # 1 if the next player's side has made its initial meld
    canastas: int = 10  # own side's canastas / 2
    opp_canastas: int = 11  # most canastas of another side / 2
    table: int = 12  # own side's table points / 1000
    opp_table: int = 13  # most table points of another side / 1000
    minimum: int = 14  # own side's minimum count / 100
    score: int = 15  # own side's cumulative score / 5000
    opp_score: int = 16  # best other side's cumulative score / 5000
    wilds: int = 17  # wild cards in own hand / 4
    threat: int = 18  # 1 if an opponent may go out soon (the expert's test)
    endgame: int = 19  # 1 if the stock is down to two rounds of draws
    can_out: int = 20  # 1 if the own side has the canastas to go out
    next_known: int = 21  # cards known to be in the next player's hand / 5
    play_phase: int = 22  # 1 at the play decision, 0 at the draw decision
    turn: int = 23  # completed turns / 100
    # feature version 2 appends the slots below. A block "per kind" has 14 slots, one per kind
    # a hand can hold, kind k at start + k - 1 (black three .. joker: a red three is never
    # held); a block "per rank" has 11, natural rank k at start + k - FIRST_NATURAL (4 .. ace)
    hand_kinds: int = 24  # per kind: own hand's cards of the kind / 4
    pile_kinds: int = 38  # per kind: the discard pile's cards of the kind / 4
    unseen_kinds: int = 52  # per kind: cards of the kind whose place the seat does not know / 8
    next_known_kinds: int = 66  # per kind: cards known in the next player's hand / 2
    opp_known_kinds: int = 80  # per kind: cards known in the other opponents' hands / 2
    next_passed: int = 94  # per rank: 1 if the next player passed on the rank
    next_discarded: int = 105  # per rank: 1 if the next player discarded the rank
    next_frozen: int = 116  # 1 if the pile is frozen for the next player
    prev_hand: int = 117  # the previous player's hand size / 15


#: Kinds a hand can hold (black three .. joker: a red three is laid out at once, R-14), the
#: width of a block "per kind".
HELD_KINDS = N_KINDS - 1

#: Slots of the learned bot's state features (``float32[N_STATE_FEAT]``); a block's field is
#: its first slot.
StateFeat = _StateFeat()
N_STATE_FEAT = StateFeat.prev_hand + 1


class _CandFeat(NamedTuple):
    draw: int = 0  # 1: draw from the stock
    take: int = 1  # 1: take the discard pile
    hold: int = 2  # 1: play phase, no meld laid
    laid: int = 3  # cards laid from hand / 10
    left: int = 4  # cards in hand after the move / 15
    points: int = 5  # card points laid (with the pile's top card) / 100
    natural_made: int = 6  # natural canastas completed
    mixed_made: int = 7  # mixed canastas completed
    closer: int = 8  # melds grown to 4..6 cards
    wilds_spent: int = 9  # wild cards laid / 2
    new_melds: int = 10  # melds started
    initial: int = 11  # 1: the side's initial meld
    pile_taken: int = 12  # cards of the pile taken / 20
    pile_points: int = 13  # card points of the pile taken / 100
    pile_wilds: int = 14  # wild cards in the pile taken / 2
    danger: int = 15  # chance the next player can take the pile after the discard
    handed: int = 16  # pile size after the discard / 20
    danger_handed: int = 17  # danger x handed
    wild_discard: int = 18  # 1: a wild card discarded
    freezes: int = 19  # 1: the discard freezes an open pile
    black_three: int = 20  # 1: a black three discarded
    pair_break: int = 21  # 1: the discard is one of two or more of its kind held
    discard_points: int = 22  # card points of the discard / 50
    next_meld: int = 23  # 1: the next side has a meld of the discard's rank
    next_known: int = 24  # 1: the next player is known to hold the discard's kind
    passed: int = 25  # 1: the next player passed on the discard's rank
    going_out: int = 26  # 1: the move empties the hand
    stock_left: int = 27  # stock fraction x left
    endgame_left: int = 28  # endgame flag x left
    initial_minimum: int = 29  # initial x minimum count / 100
    pile_frozen: int = 30  # pile_taken x frozen
    points_stock: int = 31  # points x stock fraction
    # feature version 2 appends the slots below (blocks per kind as in _StateFeat)
    laid_kinds: int = 32  # per kind: cards of the kind laid from hand / 4 (wild cards summed)
    discard_kinds: int = 46  # per kind: 1 for the kind discarded
    pairs_left: int = 60  # natural ranks with 2 or more cards in hand after the move / 5
    singles_left: int = 61  # natural ranks with 1 card in hand after the move / 5


#: Slots of the learned bot's candidate features (``float32[N_CAND_FEAT]``; at most 64, the
#: width of :func:`~.apprentice.sparse_affine_nb`'s mask); a block's field is its first slot.
CandFeat = _CandFeat()
N_CAND_FEAT = CandFeat.singles_left + 1


class _Skip(NamedTuple):
    kinds: int = 1  # the per-kind blocks (StateFeat.hand_kinds .. next_passed)
    neighbours: int = 2  # the neighbours' slots (StateFeat.next_passed .. prev_hand)


#: Bits of the state features' blocks a network does not read (all its weights on them 0), so
#: :func:`state_features_nb` need not count them (``apprentice:weights=`` of such a file, and
#: bots version 8's files, whose feature version 1 has neither).
Skip = _Skip()


#: The (state, candidate) feature widths of each feature version. A version appends slots to
#: the one before, so a network of an earlier version plays as one whose weights of the
#: appended slots are 0 (:func:`canasta_sim.players.weights.widen`).
FEATURE_WIDTHS = {1: (StateFeat.hand_kinds, CandFeat.laid_kinds), 2: (N_STATE_FEAT, N_CAND_FEAT)}


# --- the feature work ----------------------------------------------------------------------
#: Hidden units of the apprentice's network: ``score = v . relu(A s + B c + b1) + b2``. Its
#: state half ``A s + b1`` is kept in the feature work's ``half`` (NET_HIDDEN floats); the
#: packed weights are laid out at :data:`~canasta_sim.nb.bots.apprentice.NetSlot`.
NET_HIDDEN = 32


class _FeatCtx(NamedTuple):
    q: int = 0  # chance that one unseen card sits in the next player's hand
    p_wild: int = 1  # chance that the next player holds a wild card
    passed: int = 2  # bit mask: ranks the next player passed on
    discarded: int = 3  # bit mask: ranks the next player discarded
    frozen_next: int = 4  # 1 if the pile is frozen for the next player
    next_melded: int = 5  # 1 if the next player's side has its initial meld
    next_ranks: int = 6  # bit mask: the next side's meld ranks
    stock: int = 7  # stock fraction (StateFeat.stock)
    endgame: int = 8  # StateFeat.endgame
    minimum: int = 9  # own minimum count / 100


#: Slots of the per-decision values the candidate features read (``float64[N_FEAT_CTX]``).
FeatCtx = _FeatCtx()
N_FEAT_CTX = len(FeatCtx)

#: The learned bot's feature arrays (one record per thread).
FEATURE_WORK_DTYPE = np.dtype(
    [
        ("state", np.float32, (N_STATE_FEAT,)),  # the decision's state features
        ("cands", np.float32, (MAX_CANDIDATES, N_CAND_FEAT)),  # candidate features
        ("half", np.float32, (NET_HIDDEN,)),  # A s + b1 (once a decision)
        ("hidden", np.float32, (MAX_CANDIDATES, NET_HIDDEN)),  # A s + B c + b1 per candidate
        ("scores", np.float32, (MAX_CANDIDATES,)),  # the model's score per candidate
        ("ctx", np.float64, (N_FEAT_CTX,)),  # FeatCtx: what the candidate features read
        ("powers", np.float64, (MAX_POWERS,)),  # (1 - q) ** i for take_chance_nb
    ]
)


def feature_work(n: int) -> np.ndarray:
    """``n`` feature work records (``ndarray(FEATURE_WORK_DTYPE, (n,))``), one per thread that
    plays the learned bot; ``n`` = 0 for a run without one (the kernels then never touch
    them)."""
    return np.zeros(n, FEATURE_WORK_DTYPE)


HAND_SCALE = 15.0
PILE_SCALE = 20.0


@inline_kernel
def table_best_nb(state, rules, side):
    """Own side's (canastas, table points) and the most of any other side's."""
    n_sides = rules[RuleSlot.sides]
    opp_c = 0
    opp_t = -(1 << 30)
    for s in range(n_sides):
        if s != side:
            opp_c = max(opp_c, state.sides[s, SideSlot.canastas])
            opp_t = max(opp_t, side_table_points_nb(state, rules, s))
    return opp_c, opp_t


@kernel
def state_features_nb(state, rules, fwork, skips):
    """Write the current player's state features into ``fwork.state`` and the values the
    candidate features read into ``fwork.ctx`` and ``fwork.powers`` (R-10 sides, R-31 frozen
    pile, R-40 going out, R-55 scores, R-64 minimum counts); the blocks of ``skips`` (an
    ``int64`` of :data:`Skip` bits: those the network does not read) are written as 0, not
    counted."""
    g, sides, out = state.g, state.sides, fwork.state
    seat = g[DealSlot.current]
    players = rules[RuleSlot.players]
    n_sides = rules[RuleSlot.sides]
    side = rules[RuleSlot.side_of + seat]
    nxt = rules[RuleSlot.next_seat + seat]
    nside = rules[RuleSlot.side_of + nxt]
    stock = (rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]) / rules[RuleSlot.n_cards]
    endgame = (
        rules[RuleSlot.n_cards] - g[DealSlot.stock_pos] <= 2 * rules[RuleSlot.draw_count] * players
    )
    partners = 0.0
    n_partners = 0
    opp_min = 1 << 20
    for p in range(players):
        if p == seat:
            continue
        if rules[RuleSlot.side_of + p] == side:
            partners += state.hand_sizes[p]
            n_partners += 1
        else:
            opp_min = min(opp_min, state.hand_sizes[p])
    opp_c, opp_t = table_best_nb(state, rules, side)
    opp_score = -(1 << 30)
    for s in range(n_sides):
        if s != side:
            opp_score = max(opp_score, sides[s, SideSlot.score])
    wilds = state.hands[seat, DEUCE] + state.hands[seat, JOKER]
    known = 0
    for k in range(N_KINDS):
        known += state.known[nxt, k]
    out[StateFeat.bias] = 1.0
    out[StateFeat.stock] = stock
    out[StateFeat.hand] = state.hand_sizes[seat] / HAND_SCALE
    out[StateFeat.next_hand] = state.hand_sizes[nxt] / HAND_SCALE
    out[StateFeat.partner_hand] = partners / max(n_partners, 1) / HAND_SCALE
    out[StateFeat.opp_hand_min] = opp_min / HAND_SCALE
    out[StateFeat.pile] = g[DealSlot.pile_len] / PILE_SCALE
    out[StateFeat.frozen] = 1.0 if g[DealSlot.pile_freeze] > 0 else 0.0
    out[StateFeat.melded] = 1.0 if sides[side, SideSlot.melded] != 0 else 0.0
    out[StateFeat.next_melded] = 1.0 if sides[nside, SideSlot.melded] != 0 else 0.0
    out[StateFeat.canastas] = sides[side, SideSlot.canastas] / 2.0
    out[StateFeat.opp_canastas] = opp_c / 2.0
    out[StateFeat.table] = side_table_points_nb(state, rules, side) / 1000.0
    out[StateFeat.opp_table] = opp_t / 1000.0
    out[StateFeat.minimum] = sides[side, SideSlot.minimum] / 100.0
    out[StateFeat.score] = sides[side, SideSlot.score] / 5000.0
    out[StateFeat.opp_score] = opp_score / 5000.0
    out[StateFeat.wilds] = wilds / 4.0
    out[StateFeat.threat] = 1.0 if opponents_threaten_nb(state, rules, seat, np.int64(5)) else 0.0
    out[StateFeat.endgame] = 1.0 if endgame else 0.0
    out[StateFeat.can_out] = (
        1.0 if sides[side, SideSlot.canastas] >= rules[RuleSlot.canastas_to_go_out] else 0.0
    )
    out[StateFeat.next_known] = known / 5.0
    out[StateFeat.play_phase] = 1.0 if g[DealSlot.phase] == Phase.play else 0.0
    out[StateFeat.turn] = g[DealSlot.turn] / 100.0
    passed, discarded = pile_memory_nb(state, rules)
    frozen_next = 1.0 if g[DealSlot.pile_freeze] > 0 or sides[nside, SideSlot.melded] == 0 else 0.0
    context_nb(state, rules, fwork, seat, passed, discarded, frozen_next, stock, endgame)
    block_features_nb(state, rules, out, seat, nxt, passed, discarded, frozen_next, skips)


@inline_kernel
def context_nb(state, rules, fwork, seat, passed, discarded, frozen_next, stock, endgame):
    """The values the candidate features read (:data:`FeatCtx`) into ``fwork.ctx`` and
    ``fwork.powers``: the next player's odds (as the expert's discard reads them, without its
    table in the state) and what the pile tells of them (``passed``, ``discarded``: bit masks
    of :func:`.knowledge.pile_memory_nb`)."""
    sides, ctx = state.sides, fwork.ctx
    nxt = rules[RuleSlot.next_seat + seat]
    nside = rules[RuleSlot.side_of + nxt]
    side = rules[RuleSlot.side_of + seat]
    unknown = unknown_cards_nb(state, rules, seat)
    q = state.hand_sizes[nxt] / unknown if unknown > 0 else 0.0
    q = min(q, 1.0)
    powers = fwork.powers
    powers[0] = 1.0
    # up to the wild cards of this pack (6 a deck, R-01), the most unseen cards a rank or the
    # wild cards can have: the later powers are never read, and each is one multiply more
    # in a chain
    for i in range(1, min(MAX_POWERS, 6 * (rules[RuleSlot.n_cards] // 54) + 1)):
        powers[i] = powers[i - 1] * (1.0 - q)
    ctx[FeatCtx.q] = q
    ctx[FeatCtx.p_wild] = 1.0 - powers[min(unseen_wilds_nb(state, rules, seat), MAX_POWERS - 1)]
    ctx[FeatCtx.passed] = passed
    ctx[FeatCtx.discarded] = discarded
    ctx[FeatCtx.frozen_next] = frozen_next
    ctx[FeatCtx.next_melded] = 1.0 if sides[nside, SideSlot.melded] != 0 else 0.0
    ctx[FeatCtx.next_ranks] = sides[nside, SideSlot.meld_ranks]
    ctx[FeatCtx.stock] = stock
    ctx[FeatCtx.endgame] = 1.0 if endgame else 0.0
    ctx[FeatCtx.minimum] = sides[side, SideSlot.minimum] / 100.0


@inline_kernel
def block_features_nb(state, rules, out, seat, nxt, passed, discarded, frozen_next, skips):
    """The state features of feature version 2's blocks: the per-kind ones and the
    neighbours', each written as 0 instead when ``skips`` (:data:`Skip` bits) holds it."""
    if skips & Skip.kinds:
        out[StateFeat.hand_kinds : StateFeat.next_passed] = 0.0
    else:
        kind_features_nb(state, rules, out, seat, nxt)
    if skips & Skip.neighbours:
        out[StateFeat.next_passed :] = 0.0
    else:
        neighbour_features_nb(state, rules, out, seat, passed, discarded, frozen_next)


@inline_kernel
def neighbour_features_nb(state, rules, out, seat, passed, discarded, frozen_next):
    """The state features of the neighbours (feature version 2): the natural ranks the next
    player passed on and discarded (bit masks of :func:`.knowledge.pile_memory_nb`), the pile
    frozen for them (R-31), the previous player's hand size."""
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
        out[StateFeat.next_passed + k - FIRST_NATURAL] = (passed >> k) & 1
        out[StateFeat.next_discarded + k - FIRST_NATURAL] = (discarded >> k) & 1
    out[StateFeat.next_frozen] = frozen_next
    for p in range(rules[RuleSlot.players]):
        if rules[RuleSlot.next_seat + p] == seat:
            out[StateFeat.prev_hand] = state.hand_sizes[p] / HAND_SCALE


@inline_kernel
def kind_features_nb(state, rules, out, seat, nxt):
    """The state features per held kind (feature version 2): the seat's own cards, the pile's,
    those whose place it does not know (the pack's, R-01, but for its hand, the pile, the
    melds and the cards known in other hands: in the stock or in other hands unknown), and
    those known in the next player's hand and in the other opponents' (R-10 sides)."""
    hands, known, pile_counts, melded = state.hands, state.known, state.pile_counts, state.melded
    side = rules[RuleSlot.side_of + seat]
    # the players other than the seat and the next player (one at 4 players) as bit masks:
    # all of them, and those of another side
    others = 0
    opps = 0
    for p in range(rules[RuleSlot.players]):
        if p != seat and p != nxt:
            others |= 1 << p
            opps |= (1 if rules[RuleSlot.side_of + p] != side else 0) << p
    n_cards = rules[RuleSlot.n_cards]
    # counted in integers and scaled once (small whole numbers over powers of two: the same
    # float32 values as counting in the slots)
    for k in range(BLACK_THREE, N_KINDS):
        i = k - BLACK_THREE
        h = hands[seat, k]
        pile = pile_counts[k]
        nk = known[nxt, k]
        u = pack_count_nb(n_cards, k) - h - pile - melded[k] - nk
        o = 0
        todo = others
        while todo != 0:
            p = trailing_zeros(todo)
            todo &= todo - 1
            u -= known[p, k]
            o += known[p, k] * ((opps >> p) & 1)
        out[StateFeat.unseen_kinds + i] = max(u, 0) / 8.0
        out[StateFeat.opp_known_kinds + i] = o / 2.0
        out[StateFeat.hand_kinds + i] = h / 4.0
        out[StateFeat.pile_kinds + i] = pile / 4.0
        out[StateFeat.next_known_kinds + i] = nk / 2.0


@inline_kernel
def card_points_nb(rules, n, d, j, rank):
    return (
        n * rules[RuleSlot.values + rank]
        + d * rules[RuleSlot.values + DEUCE]
        + j * rules[RuleSlot.values + JOKER]
    )


@kernel
def candidate_features_nb(state, rules, work, fwork, n_cands):
    """Write the features of candidates ``0 .. n_cands - 1`` of ``work`` (a record of
    :data:`.search_candidates.WORK_DTYPE`: each a kind, ``CandKind``; a plan, ``int8[N_KINDS,
    3]``, cards from hand, a pickup's top card added here; a discard, a kind or -1) into
    ``fwork.cands``. Reads ``fwork.ctx`` and ``fwork.powers`` from :func:`state_features_nb`
    (call it first). R-23 black threes, R-24 freezing, R-30..R-35 pickups, R-51 canastas, R-64
    the initial meld."""
    g, sides, melds, ctx = state.g, state.sides, state.melds, fwork.ctx
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    nxt = rules[RuleSlot.next_seat + seat]
    plen = g[DealSlot.pile_len]
    plans = work.plans[:]  # a plain C array, as in pimc
    pile_top = state.pile[plen - 1] if plen > 0 else -1
    held = ranks_held_nb(state, seat, np.int64(-1))  # (pairs, singles) before any meld
    held_take = ranks_held_nb(state, seat, np.int64(pile_top)) if plen > 0 else held
    # one loop over the candidates in one kernel: as an inlined kernel of one candidate it took
    # numba twice the compile time, and as a call per candidate more run time
    for c in range(n_cands):
        kind, plan, discard = work.kind[c], plans[c], np.int64(work.discard[c])
        out = fwork.cands[c]
        for i in range(N_CAND_FEAT):
            out[i] = 0.0
        top = pile_top if kind == CandKind.take else -1
        pairs, singles = held_take if top >= 0 else held
        laid = 0
        points = 0
        wilds = 0
        # only the rows the move melds into (most candidates meld nothing), as set bits
        rows = plan_rows_nb(plan, np.int64(top))
        while rows != 0:
            rows, r, n, d, j, t = next_plan_row_nb(rows, plan, np.int64(top))
            add = n + d + j + t
            laid += n + d + j
            if n > 0 and r >= FIRST_NATURAL:
                h = held_nb(state, seat, np.int64(top), r)
                dp, ds = rank_change_nb(h, h - n)
                pairs += dp
                singles += ds
            out[CandFeat.laid_kinds + r - BLACK_THREE] += n / 4.0
            out[CandFeat.laid_kinds + DEUCE - BLACK_THREE] += d / 4.0
            out[CandFeat.laid_kinds + JOKER - BLACK_THREE] += j / 4.0
            wilds += d + j
            points += card_points_nb(rules, n + t, d, j, r)
            before = melds[side, r, MeldCol.naturals] + melds[side, r, MeldCol.deuces]
            before += melds[side, r, MeldCol.jokers]
            after = before + add
            wild_after = melds[side, r, MeldCol.deuces] + melds[side, r, MeldCol.jokers] + d + j
            if before == 0:
                out[CandFeat.new_melds] += 1.0
            if r != BLACK_THREE and before < 7 <= after:
                if wild_after == 0:
                    out[CandFeat.natural_made] += 1.0
                else:
                    out[CandFeat.mixed_made] += 1.0
            elif 4 <= after <= 6:
                out[CandFeat.closer] += 1.0
        left = state.hand_sizes[seat] - laid
        if kind == CandKind.draw:
            out[CandFeat.draw] = 1.0
            left += rules[RuleSlot.draw_count]
        elif kind == CandKind.take:
            pile_features_nb(state, rules, out)
            left += plen - 1 - state.pile_counts[RED_THREE]  # red threes are laid out
        else:
            if laid == 0:
                out[CandFeat.hold] = 1.0
            if discard >= 0:
                discard_features_nb(state, rules, fwork, out, plan, discard, nxt)
                out[CandFeat.discard_kinds + discard - BLACK_THREE] = 1.0
                left -= 1
            if left == 0:
                out[CandFeat.going_out] = 1.0
        initial = sides[side, SideSlot.melded] == 0 and laid + (1 if top >= 0 else 0) > 0
        out[CandFeat.laid] = laid / 10.0
        out[CandFeat.left] = left / HAND_SCALE
        out[CandFeat.points] = points / 100.0
        out[CandFeat.wilds_spent] = wilds / 2.0
        out[CandFeat.initial] = 1.0 if initial else 0.0
        out[CandFeat.stock_left] = ctx[FeatCtx.stock] * left / HAND_SCALE
        out[CandFeat.endgame_left] = ctx[FeatCtx.endgame] * left / HAND_SCALE
        out[CandFeat.initial_minimum] = ctx[FeatCtx.minimum] if initial else 0.0
        out[CandFeat.points_stock] = points / 100.0 * ctx[FeatCtx.stock]
        ranks_left_nb(state, out, seat, plan, np.int64(top), discard, pairs, singles)


@inline_kernel
def pile_features_nb(state, rules, out):
    """A pickup's features of the pile it takes (R-30..R-35; red threes taken are laid out and
    count no card points, R-14)."""
    plen = state.g[DealSlot.pile_len]
    out[CandFeat.take] = 1.0
    pile_points = 0
    pile_wilds = 0
    for k in range(N_KINDS):
        if k != RED_THREE:
            pile_points += state.pile_counts[k] * rules[RuleSlot.values + k]
        if k == DEUCE or k == JOKER:
            pile_wilds += state.pile_counts[k]
    out[CandFeat.pile_taken] = plen / PILE_SCALE
    out[CandFeat.pile_points] = pile_points / 100.0
    out[CandFeat.pile_wilds] = pile_wilds / 2.0
    out[CandFeat.pile_frozen] = plen / PILE_SCALE if state.g[DealSlot.pile_freeze] > 0 else 0.0


@inline_kernel
def held_nb(state, seat, top, k):
    """The cards of natural rank ``k`` in hand before a candidate's melds: the hand's, with a
    pickup (``top`` >= 0, the pile's top card, melded) plus the rest of the pile (R-34)."""
    n = state.hands[seat, k]
    if top >= 0:
        n += state.pile_counts[k] - (1 if k == top else 0)
    return n


@inline_kernel
def ranks_held_nb(state, seat, top):
    """The natural ranks (4 .. ace) of which two cards or more, and of which one, are in hand
    before a candidate's melds (:func:`held_nb`): once a decision, and each candidate then
    counts only the ranks it changes (:func:`rank_change_nb`)."""
    pairs = 0
    singles = 0
    for k in range(FIRST_NATURAL, LAST_NATURAL + 1):  # selects: the counts are irregular
        n = held_nb(state, seat, top, k)
        pairs += 1 if n >= 2 else 0
        singles += 1 if n == 1 else 0
    return pairs, singles


@inline_kernel
def rank_change_nb(before, after):
    """How a rank going from ``before`` to ``after`` cards in hand changes the counts of
    :func:`ranks_held_nb`: ``(pairs, singles)``, each -1, 0 or 1."""
    pairs = (1 if after >= 2 else 0) - (1 if before >= 2 else 0)
    singles = (1 if after == 1 else 0) - (1 if before == 1 else 0)
    return pairs, singles


@inline_kernel
def ranks_left_nb(state, out, seat, plan, top, discard, pairs, singles):
    """The natural ranks of which two cards or more, and of which one, stay in hand after a
    candidate: ``pairs`` and ``singles`` after its melds (``plan``; ``top`` as in
    :func:`held_nb`), less its ``discard`` (a kind or -1)."""
    if FIRST_NATURAL <= discard <= LAST_NATURAL:
        n = held_nb(state, seat, top, discard) - plan[discard, MeldCol.naturals]
        dp, ds = rank_change_nb(n, n - 1)
        pairs += dp
        singles += ds
    out[CandFeat.pairs_left] = pairs / 5.0
    out[CandFeat.singles_left] = singles / 5.0


@inline_kernel
def discard_features_nb(state, rules, fwork, out, plan, k, nxt):
    """The discard's features (kind ``k`` after the melds of ``plan``): the chance that the
    next player can take the pile with it (:func:`.discards.take_chance_nb`, R-32, R-33;
    a natural rank's unseen cards do not change with the own melds, which move cards from the
    hand to the table), the pile handed to them, freezing (R-24), black threes (R-23)."""
    ctx = fwork.ctx
    seat = state.g[DealSlot.current]
    plen = state.g[DealSlot.pile_len]
    left_of_kind = state.hands[seat, k] - plan[k, MeldCol.naturals]
    handed = (plen + 1) / PILE_SCALE
    out[CandFeat.handed] = handed
    out[CandFeat.discard_points] = rules[RuleSlot.values + k] / 50.0
    out[CandFeat.next_known] = 1.0 if state.known[nxt, k] > 0 else 0.0
    if k == DEUCE or k == JOKER:
        out[CandFeat.wild_discard] = 1.0
        out[CandFeat.freezes] = 1.0 if state.g[DealSlot.pile_freeze] == 0 else 0.0
        return
    if k == BLACK_THREE:
        out[CandFeat.black_three] = 1.0
        return
    if k < FIRST_NATURAL or k > LAST_NATURAL:
        return
    per_rank = pack_count_nb(rules[RuleSlot.n_cards], k)
    u = per_rank - state.hands[seat, k] - state.pile_counts[k] - state.melded[k]
    passed = (int(ctx[FeatCtx.passed]) >> k) & 1 != 0
    discarded = (int(ctx[FeatCtx.discarded]) >> k) & 1 != 0
    on_meld = (int(ctx[FeatCtx.next_ranks]) >> k) & 1 != 0
    p = take_chance_nb(
        u,
        ctx[FeatCtx.frozen_next] != 0.0,
        on_meld,
        ctx[FeatCtx.next_melded] != 0.0,
        passed,
        discarded,
        ctx[FeatCtx.q],
        fwork.powers,
        ctx[FeatCtx.p_wild],
    )
    out[CandFeat.danger] = p
    out[CandFeat.danger_handed] = p * handed
    out[CandFeat.pair_break] = 1.0 if left_of_kind >= 2 else 0.0
    out[CandFeat.next_meld] = 1.0 if on_meld else 0.0
    out[CandFeat.passed] = 1.0 if passed else 0.0
