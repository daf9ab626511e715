"""The ``apprentice`` policy: pimc's candidates scored by a learned model instead of rollouts.

At the draw decision the candidates are the draw and every legal pickup (R-20, R-30..R-35);
at the play decision they are the expert's melds of the turn, or holding them, each followed
by the top discards the expert ranks, and its going out (R-20 steps 2 and 3, R-40): the
candidates of :func:`.search_candidates.draw_candidates_nb` and
:func:`.search_candidates.play_candidates_nb`. Each is
scored by a small network of the state features ``s`` and the candidate features ``c``
(:mod:`.features`), ``score = v . relu(A s + B c + b1) + b2`` (points, NET_HIDDEN hidden
units), trained on pimc's rollout values; the state half ``A s + b1`` is computed once per
decision.

A *head network* (bots version 12's files) plays faster: its draw decision is the expert's,
and at the play decision its candidates are the expert's melds of the turn (built from the
counts, :func:`.expert.expert_meld_plan_nb`) followed by each kind held after them, or going
out with them, and holding every meld followed by each kind held. It scores them by one
hidden layer of the state alone, once a decision, and one output row a candidate:
``score = U[r] . relu(A s + b1) + u[r]`` (points), ``r`` the candidate's :func:`head_row_nb`.
No candidate is played on a copy and none has features of its own (:func:`head_play_nb`).

The weight sets are a kernel argument (``float32[n_sets, NET_LEN]``, each a packed network:
:data:`NetSlot`), each seat naming its set by index
(``ApprenticeParam.weight_set``): never a module global.
"""

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit
from numba.extending import intrinsic

from ..engine.deal import pack_count_nb
from ..engine.moves import draw_nb, end_turn_nb, meld_nb, take_pile_nb
from ..engine.rng import next_u64_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    DealSlot,
    MoveError,
    Phase,
    RuleSlot,
)
from ..jit import inline_kernel, kernel
from ..worlds import CandKind, apply_candidate_nb
from .discards import discard_or_any_nb, rank_danger_nb
from .expert import ExpertMeld, expert_draw_nb, expert_meld_plan_nb, expert_melds_nb
from .features import (
    HELD_KINDS,
    N_CAND_FEAT,
    N_STATE_FEAT,
    NET_HIDDEN,
    PILE_SCALE,
    CandFeat,
    FeatCtx,
    candidate_features_nb,
    rank_change_nb,
    ranks_held_nb,
    state_features_nb,
)
from .pickups import take_forced_pile_nb
from .policies import ApprenticeParam
from .search_candidates import (
    N_EXPERT,
    draw_candidates_nb,
    expert_ranking_nb,
    play_candidates_nb,
)


class _NetSlot(NamedTuple):
    # A and B are packed transposed (one feature's NET_HIDDEN weights side by side), so that
    # the kernel sums the hidden units side by side over contiguous weights
    a: int = 0  # A transposed, (N_STATE_FEAT, NET_HIDDEN): state features -> hidden
    b: int = NET_HIDDEN * N_STATE_FEAT  # B transposed, (N_CAND_FEAT, NET_HIDDEN): candidate
    b1: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT)  # hidden biases (NET_HIDDEN)
    v: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 1)  # output weights (NET_HIDDEN)
    b2: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2)  # output bias (points)
    # the state features' blocks it does not read (.features.Skip bits; 0: it reads them all),
    # written by canasta_sim.players.weights.pack
    skips: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2) + 1
    # 1.0 for a head network (A and b1 as above, B, v and b2 unread), 0.0 for the network above
    head: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2) + 2
    # a head network's output rows U transposed, (NET_HIDDEN, N_HEADS): a hidden unit's
    # weights to every row side by side, as A's
    head_u: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2) + 3
    head_b: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2 + NET_HIDDEN) + 3  # u: (N_HEADS,)
    # W, (2, N_HEAD_TERMS): the meld rows' and the hold rows' weights of a candidate's terms
    head_w: int = NET_HIDDEN * (N_STATE_FEAT + N_CAND_FEAT + 2 + NET_HIDDEN + 1) + 3


#: Offsets of the network's parts in one packed weight set (``float32[NET_LEN]``).
NetSlot = _NetSlot()
#: A head network's output rows (:func:`head_row_nb`): a play candidate's discard (each
#: kind held, black three .. joker, then none: going out) after the expert's melds, then the
#: same holding them; the last two rows, to the vector width, are never read (their weights 0).
N_HEADS = NET_HIDDEN
HEAD_ROWS = 2 * (HELD_KINDS + 1)


class _HeadTerm(NamedTuple):
    pairs_left: int = 0
    singles_left: int = 1
    danger_handed: int = 2
    danger: int = 3
    pair_break: int = 4
    next_known: int = 5


#: A head network's candidate terms (:func:`head_terms_nb`), each a candidate feature of
#: :data:`HEAD_TERMS`' slot: the natural ranks left in pairs and singly, the chance the next
#: player takes the pile with the discard, times the pile handed and alone, a pair broken,
#: the next player known to hold the kind.
HeadTerm = _HeadTerm()
N_HEAD_TERMS = len(HeadTerm)
#: The candidate feature slot of each head term (:data:`.features.CandFeat`), for a trainer.
HEAD_TERMS = tuple(getattr(CandFeat, name) for name in HeadTerm._fields)
NET_LEN = NetSlot.head_w + 2 * N_HEAD_TERMS

#: Features one :func:`sparse_affine_nb` sums at most (the bits of its mask); the state
#: features are summed as a head of MASK_WIDTH and a tail of STATE_TAIL.
MASK_WIDTH = 64
STATE_TAIL = N_STATE_FEAT - MASK_WIDTH


class _ValueSlot(NamedTuple):
    # A transposed as in NetSlot: the state features' weights to the hidden units side by side
    a: int = 0  # A transposed, (N_STATE_FEAT, NET_HIDDEN): state features -> hidden
    b1: int = NET_HIDDEN * N_STATE_FEAT  # hidden biases (NET_HIDDEN)
    v: int = NET_HIDDEN * (N_STATE_FEAT + 1)  # output weights (NET_HIDDEN)
    b2: int = NET_HIDDEN * (N_STATE_FEAT + 2)  # output bias (points)


#: Offsets of the value output's parts in one packed value network (``float32[VALUE_LEN]``).
ValueSlot = _ValueSlot()
VALUE_LEN = ValueSlot.b2 + 1


@inline_kernel
def decision_features_nb(state, rules, work, fwork, n, skips):
    """State features and the features of candidates ``0 .. n - 1`` of ``work`` (a record of
    :data:`.search_candidates.WORK_DTYPE`) into ``fwork`` (:data:`.features.FEATURE_WORK_DTYPE`),
    the state's blocks of ``skips`` (``int64``, :data:`.features.Skip` bits) as 0.
    Inlined: as a kernel of its own it was one more level of linked code for two calls
    (:mod:`..jit`)."""
    state_features_nb(state, rules, fwork, skips)
    candidate_features_nb(state, rules, work, fwork, n)


@kernel
def score_candidates_nb(weights, fwork, n):
    """``fwork.scores[c] = v . relu(A s + B c + b1) + b2`` for ``c < n`` (points), with ``s``
    the state features and ``c`` candidate ``c``'s: ``weights`` is one packed network,
    ``float32[NET_LEN]`` (parts at :data:`NetSlot`, ``A`` and ``B``
    transposed); the state half ``A s + b1`` goes to ``fwork.half`` once per decision, each
    candidate's hidden units to its row of ``fwork.hidden``.

    The hidden units are summed side by side, feature after feature
    (:func:`sparse_affine_nb`: vector instructions over each feature's contiguous weights),
    each unit's sum in feature order as a sum along one row would be, so the ``float32``
    results are the same. Features at 0 are skipped (most of a candidate's are: a draw sets 3
    to 6 of its N_CAND_FEAT; many of the state's): a product of 0 changes at most the
    sign of a sum that is 0, and the ``relu`` reads either as 0. So a network of an earlier
    feature version, its weights of the later slots 0
    (:func:`canasta_sim.players.weights.widen`), scores as it did before those slots were
    appended, bit for bit."""
    half = fwork.half[:]
    state_half_nb(half, weights, np.int64(NetSlot.a), np.int64(NetSlot.b1), fwork.state[:])
    # every candidate's hidden units first, then every output: the loop exits of the sums
    # then hang on the features' masks only, so the candidates' sums overlap
    for c in range(n):
        hidden = fwork.hidden[c][:]
        sparse_affine_nb(hidden, half, weights, np.int64(NetSlot.b), fwork.cands[c][:], N_CAND_FEAT)
    for c in range(n):
        hidden = fwork.hidden[c][:]
        out = weights[NetSlot.b2]
        active = positive_mask_nb(hidden, NET_HIDDEN)  # the units the relu passes
        while active != 0:  # lowest first: the sum in the order of the units
            j = trailing_zeros(active)
            out += weights[NetSlot.v + j] * hidden[j]
            active &= active - 1
        fwork.scores[c] = out


@inline_kernel
def state_half_nb(half, weights, a, b1, state):
    """``half = A s + b1`` (``float32[NET_HIDDEN]``) for the state features ``state`` and a
    packed network's ``A`` (transposed) at ``a`` and ``b1`` at ``b1`` of ``weights``: the
    features in two blocks, each one bit mask (the head, then the tail: feature order), the
    features at 0 skipped (many are: the pile's kinds, the cards known, the ranks passed on)."""
    bias = weights[b1 : b1 + NET_HIDDEN]  # the sum starts from the biases, read in place
    sparse_affine_nb(half, bias, weights, a, state[:MASK_WIDTH], MASK_WIDTH)
    sparse_affine_nb(
        half, half, weights, a + NET_HIDDEN * MASK_WIDTH, state[MASK_WIDTH:], STATE_TAIL
    )


@kernel
def position_value_nb(vweights, fwork):
    """The value output of the state features in ``fwork.state``
    (:data:`.features.FEATURE_WORK_DTYPE`): ``v . relu(A s + b1) + b2``, the deal's expected
    score difference for the seat's side (points, R-50..R-54), ``vweights`` one packed value
    network (``float32[VALUE_LEN]``, parts at :data:`ValueSlot`, ``A`` transposed); the
    hidden units go to ``fwork.hidden[0]``."""
    hidden = fwork.hidden[0][:]
    state_half_nb(hidden, vweights, np.int64(ValueSlot.a), np.int64(ValueSlot.b1), fwork.state[:])
    out = vweights[ValueSlot.b2]
    for j in range(NET_HIDDEN):
        if hidden[j] > 0.0:
            out += vweights[ValueSlot.v + j] * hidden[j]
    return out


def _f32_vector(ty):
    """Whether ``ty`` is a numba type of a 1-d C array of ``float32`` (read-only or not)."""
    return (
        isinstance(ty, types.Array)
        and ty.dtype == types.float32
        and ty.ndim == 1
        and ty.layout == "C"
    )


def _affine_signature(out, base, weights, start, x, count):
    """The intrinsic's signature, or None (numba then reports no matching definition) unless
    the arrays are 1-d C ``float32``, ``start`` an integer and ``count`` a constant of at most
    MASK_WIDTH."""
    if not (
        all(_f32_vector(a) for a in (out, base, weights, x))
        and isinstance(start, types.Integer)
        and isinstance(count, types.IntegerLiteral)
        and count.literal_value <= MASK_WIDTH
    ):
        return None
    return types.void(out, base, weights, start, x, count)


class _Affine:
    """LLVM code of :func:`sparse_affine_nb`: one NET_HIDDEN-wide vector sum."""

    def __init__(self, context, builder, signature, args):
        def data(i):
            return context.make_array(signature.args[i])(context, builder, args[i]).data

        self.builder = builder
        self.vec = ir.VectorType(ir.FloatType(), NET_HIDDEN)
        self.out, self.base, self.w, self.x = data(0), data(1), data(2), data(4)
        self.start = args[3]

    def load_base(self):
        return self.builder.load(self.builder.bitcast(self.base, self.vec.as_pointer()), align=4)

    def store(self, acc):
        self.builder.store(acc, self.builder.bitcast(self.out, self.vec.as_pointer()), align=4)

    def add_feature(self, acc, i):
        """``acc + weights[start + i H : start + (i + 1) H] * x[i]`` (``i`` an i64 value),
        each product and sum rounded to ``float32`` (no fused multiply-add)."""
        b, vec = self.builder, self.vec
        xi = b.load(b.gep(self.x, [i]))
        xs = b.insert_element(ir.Constant(vec, ir.Undefined), xi, ir.Constant(ir.IntType(32), 0))
        splat = ir.Constant(ir.VectorType(ir.IntType(32), NET_HIDDEN), [0] * NET_HIDDEN)
        xv = b.shuffle_vector(xs, ir.Constant(vec, ir.Undefined), splat)
        ty = self.start.type
        i = i if i.type == ty else b.sext(i, ty)
        at = b.add(self.start, b.mul(i, ir.Constant(ty, NET_HIDDEN)))
        w = b.load(b.bitcast(b.gep(self.w, [at]), vec.as_pointer()), align=4)
        return b.fadd(acc, b.fmul(w, xv))


@intrinsic
def sparse_affine_nb(typingctx, out, base, weights, start, x, count):
    """``out[:H] = base[:H] + sum(weights[start + i H : start + (i + 1) H] * x[i] for i <
    count if x[i] != 0)`` with ``H`` = NET_HIDDEN (``float32`` C arrays, ``weights``
    read-only or not; ``start`` an integer, ``count`` a constant, at most MASK_WIDTH); ``out``
    may be ``base``. One vector compare gives the features that are not 0 as a bit mask, and a
    loop adds one feature a set bit, lowest first (the order of ``i``), with no branch on the
    features themselves; the sum stays in vector registers, each product and sum rounded to
    ``float32`` as the scalar loop rounds it (no fused multiply-add). Equal to the sum over
    every feature but for the sign of a sum that is 0. numba neither vectorises such a loop
    nor keeps a 32-wide sum out of memory between its steps (a load and a store per feature
    cost more than the arithmetic)."""
    sig = _affine_signature(out, base, weights, start, x, count)
    if sig is None:
        return None
    n = count.literal_value

    def codegen(context, builder, signature, args):
        code = _Affine(context, builder, signature, args)
        i64 = ir.IntType(64)
        xvec = ir.VectorType(ir.FloatType(), n)
        xs = builder.load(builder.bitcast(code.x, xvec.as_pointer()), align=4)
        nonzero = builder.fcmp_unordered("!=", xs, ir.Constant(xvec, [0.0] * n))
        mask = builder.zext(builder.bitcast(nonzero, ir.IntType(n)), i64)
        entry = builder.block
        acc0 = code.load_base()
        head = builder.append_basic_block("sparse.head")
        body = builder.append_basic_block("sparse.body")
        done = builder.append_basic_block("sparse.done")
        builder.branch(head)
        builder.position_at_end(head)
        acc = builder.phi(code.vec)
        bits = builder.phi(i64)
        acc.add_incoming(acc0, entry)
        bits.add_incoming(mask, entry)
        builder.cbranch(builder.icmp_unsigned("!=", bits, ir.Constant(i64, 0)), body, done)
        builder.position_at_end(body)
        i = builder.cttz(bits, ir.Constant(ir.IntType(1), 1))
        acc1 = code.add_feature(acc, i)
        bits1 = builder.and_(bits, builder.sub(bits, ir.Constant(i64, 1)))
        acc.add_incoming(acc1, builder.block)
        bits.add_incoming(bits1, builder.block)
        builder.branch(head)
        builder.position_at_end(done)
        code.store(acc)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def positive_mask_nb(typingctx, x, count):
    """The bit mask (``int64``) of the features ``i < count`` of ``x`` (a 1-d C ``float32``
    array; ``count`` a constant of at most MASK_WIDTH) above 0, bit ``i`` for ``x[i]``: one
    vector compare, not a branch a feature (NaN is not above 0)."""
    if not (
        _f32_vector(x)
        and isinstance(count, types.IntegerLiteral)
        and count.literal_value <= MASK_WIDTH
    ):
        return None
    n = count.literal_value

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        xvec = ir.VectorType(ir.FloatType(), n)
        xs = builder.load(builder.bitcast(data, xvec.as_pointer()), align=4)
        above = builder.fcmp_ordered(">", xs, ir.Constant(xvec, [0.0] * n))
        return builder.zext(builder.bitcast(above, ir.IntType(n)), ir.IntType(64))

    return types.int64(x, count), codegen


@inline_kernel
def pick_nb(state, fwork, n, temperature):
    """The candidate to play: the best score (ties: the lower index, the expert's own
    candidates first), or with ``temperature`` > 0 (points) one drawn with probability
    proportional to ``exp(score / temperature)`` from the deal's random stream."""
    scores = fwork.scores
    best = 0
    for c in range(1, n):
        if scores[c] > scores[best]:
            best = c
    if temperature <= 0.0 or n < 2:
        return best
    total = 0.0
    for c in range(n):
        total += np.exp((scores[c] - scores[best]) / temperature)
    u = (next_u64_nb(state.rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    for c in range(n):
        u -= np.exp((scores[c] - scores[best]) / temperature)
        if u < 0.0:
            return c
    return n - 1


@kernel
def choose_nb(state, rules, params, weights, work, fwork, n, every):
    """Features, scores and the pick among candidates ``0 .. n - 1`` (a call: inlined at
    the draw and at the play decision, numba compiled it twice). The state features the
    weight set does not read are not counted (0) unless ``every`` (``bool``: self-play logs
    every feature for its learner's critic)."""
    net = weights[int(params[ApprenticeParam.weight_set])]
    skips = np.int64(0) if every else np.int64(net[NetSlot.skips])
    decision_features_nb(state, rules, work, fwork, n, skips)
    score_candidates_nb(net, fwork, n)
    return pick_nb(state, fwork, n, params[ApprenticeParam.temperature])


@inline_kernel
def head_row_nb(hold, discard):
    """A play candidate's output row of a head network (:data:`HEAD_ROWS`):
    ``(HELD_KINDS + 1) hold + d``, ``hold`` 1 when it lays no meld and ``d`` its discard's place
    among the kinds held (black three 0 .. joker 13), or HELD_KINDS without a discard (going
    out, R-40)."""
    d = discard - BLACK_THREE if discard >= 0 else HELD_KINDS
    return (HELD_KINDS + 1) * hold + d


@inline_kernel
def head_logits_nb(net, fwork):
    """Every output row of the head network ``net`` (``float32[NET_LEN]``) at the state
    features of ``fwork.state``, into ``fwork.hidden[0]`` (points): ``U relu(A s + b1) + u``,
    the hidden layer in ``fwork.half``."""
    half, logits = fwork.half[:], fwork.hidden[0][:]
    state_half_nb(half, net, np.int64(NetSlot.a), np.int64(NetSlot.b1), fwork.state[:])
    for j in range(NET_HIDDEN):
        half[j] = max(half[j], np.float32(0.0))
    bias = net[NetSlot.head_b : NetSlot.head_b + N_HEADS]
    sparse_affine_nb(logits, bias, net, np.int64(NetSlot.head_u), half, NET_HIDDEN)
    return logits


@inline_kernel
def head_candidates_nb(state, rules, bot, rparams, work):
    """The play candidates of a head network, each a discard into ``work.discard`` (a kind, or
    -1 to go out): the expert's melds of the turn (:func:`.expert.expert_meld_plan_nb`, built
    from the counts into ``bot``, not played) followed by each kind held after them, or going
    out with no card left; then each kind held, holding every meld (R-20 steps 2 and 3, R-40).
    Returns the number of candidates, how many of the first lay the melds, and the plan they
    lay (an :data:`~.expert.ExpertMeld` code)."""
    seat = state.g[DealSlot.current]
    hand = state.hands[seat]
    which = expert_meld_plan_nb(state, rules, bot, rparams)
    n = 0
    if which != ExpertMeld.none:
        src = bot.out_plan[:] if which == ExpertMeld.out else bot.meld_plan[:]
        deuces, jokers, naturals = 0, 0, 0
        for r in range(N_KINDS):
            naturals += src[r, 0]
            deuces += src[r, 1]
            jokers += src[r, 2]
        left = state.hand_sizes[seat] - naturals - deuces - jokers
        if left == 0:
            n = head_candidate_nb(work, n, -1, True)
        elif naturals + deuces + jokers != 0:
            for k in range(BLACK_THREE, N_KINDS):
                c = hand[k] - src[k, 0]
                c -= deuces if k == DEUCE else (jokers if k == JOKER else 0)
                n = head_candidate_nb(work, n, k, c > 0)
    melds = n
    for k in range(BLACK_THREE, N_KINDS):
        n = head_candidate_nb(work, n, k, hand[k] > 0)
    return n, melds, which


@inline_kernel
def head_scores_nb(state, rules, net, plan, work, fwork, n, melds):
    """The head network ``net``'s scores (``float32[NET_LEN]``, parts at :data:`NetSlot`) of
    its play candidates ``0 .. n - 1`` of ``work`` (:func:`head_candidates_nb`, the first
    ``melds`` laying ``plan``, ``int8[N_KINDS, 3]``) into ``fwork.scores`` (points): each
    candidate's row (:func:`head_row_nb`) of the output (:func:`head_logits_nb`) plus its
    group's weights (``NetSlot.head_w``: the rows after the melds, then holding them) of its
    terms (:data:`HEAD_TERMS`, :func:`head_terms_nb`). Returns the first best candidate."""
    state_features_nb(state, rules, fwork, np.int64(net[NetSlot.skips]))
    logits = head_logits_nb(net, fwork)
    seat = state.g[DealSlot.current]
    hand = state.hands[seat]
    # the natural ranks held in pairs and singly holding every meld, and after the melds
    pairs_h, singles_h = ranks_held_nb(state, seat, np.int64(-1))
    pairs_m, singles_m = pairs_h, singles_h
    if melds > 0:
        for k in range(FIRST_NATURAL, LAST_NATURAL + 1):
            dp, ds = rank_change_nb(hand[k], hand[k] - plan[k, 0])
            pairs_m += dp
            singles_m += ds
    tctx = term_context_nb(state, rules, fwork)
    best, best_score = 0, np.float32(-np.inf)
    for c in range(n):
        k = np.int64(work.discard[c])
        meld = c < melds
        w = NetSlot.head_w + (0 if meld else N_HEAD_TERMS)
        ranks = (pairs_m, singles_m) if meld else (pairs_h, singles_h)
        used = plan[k, 0] if meld and k >= 0 else 0
        score = logits[head_row_nb(0 if meld else 1, k)]
        score += head_terms_nb(state, net, w, fwork, tctx, k, used, ranks[0], ranks[1])
        fwork.scores[c] = score
        better = score > best_score  # the first best, as pick_nb's; selects, not a branch
        best = c if better else best
        best_score = score if better else best_score
    return best


@inline_kernel
def term_context_nb(state, rules, fwork):
    """What every candidate's terms read, once a decision: the next player, the unseen cards'
    count a natural rank starts from (R-01), the pile handed with a discard, and the candidate
    features' context in ``fwork`` (:data:`.features.FeatCtx`; the bit masks as integers)."""
    ctx = fwork.ctx
    seat = state.g[DealSlot.current]
    return (
        rules[RuleSlot.next_seat + seat],
        pack_count_nb(rules[RuleSlot.n_cards], FIRST_NATURAL),
        (state.g[DealSlot.pile_len] + 1) / PILE_SCALE,
        ctx[FeatCtx.frozen_next] != 0.0,
        int(ctx[FeatCtx.next_ranks]),
        ctx[FeatCtx.next_melded] != 0.0,
        int(ctx[FeatCtx.passed]),
        int(ctx[FeatCtx.discarded]),
        ctx[FeatCtx.q],
        ctx[FeatCtx.p_wild],
    )


@inline_kernel
def head_terms_nb(state, net, w, fwork, tctx, k, used, pairs, singles):
    """The weights at ``w`` of ``net`` times a candidate's terms (:data:`HEAD_TERMS`, the
    candidate features of those slots, as :mod:`.features` computes them), ``float32``
    points: it discards kind ``k`` (-1: none) after melding ``used`` naturals of it, with
    ``pairs`` and ``singles`` natural ranks held before the discard; ``tctx`` is
    :func:`term_context_nb`'s. R-23, R-32, R-33."""
    nxt, per_rank, handed, frozen, next_ranks, melded, passed, discarded, q, p_wild = tctx
    hand = state.hands[state.g[DealSlot.current]]
    danger, pair_break = 0.0, 0.0
    if FIRST_NATURAL <= k <= LAST_NATURAL:
        before = hand[k] - used
        dp, ds = rank_change_nb(before, before - 1)
        pairs += dp
        singles += ds
        danger = rank_danger_nb(
            state, k, hand[k], per_rank, frozen, next_ranks, melded, passed, discarded, q,
            fwork.powers, p_wild,
        )[1]  # fmt: skip
        pair_break = 1.0 if before >= 2 else 0.0
    known = 1.0 if state.known[nxt, max(k, 0)] > 0 and k >= 0 else 0.0
    out = net[w + HeadTerm.pairs_left] * np.float32(pairs / 5.0)
    out += net[w + HeadTerm.singles_left] * np.float32(singles / 5.0)
    out += net[w + HeadTerm.danger_handed] * np.float32(danger * handed)
    out += net[w + HeadTerm.danger] * np.float32(danger)
    out += net[w + HeadTerm.pair_break] * np.float32(pair_break)
    out += net[w + HeadTerm.next_known] * np.float32(known)
    return out


@inline_kernel
def head_candidate_nb(work, n, discard, held):
    """Candidate ``n`` discards ``discard`` if ``held``; returns the candidates then. Written
    either way and counted by a select: whether a kind is held is too irregular to predict
    (``work.discard`` has room for every kind twice and going out)."""
    work.discard[n] = discard
    return n + (1 if held else 0)


@kernel
def head_play_nb(state, rules, bot, params, net, work, fwork, log):
    """A head network's play decision (R-20 steps 2 and 3, R-40): its candidates
    (:func:`head_candidates_nb`) scored by their rows (:func:`head_logits_nb`), the best (or
    one sampled at ``params``' temperature, :func:`pick_nb`) laid through the move kernels,
    which check it; a meld the move refuses is dropped for the discard alone, a discard
    refused for the first kind the move accepts. The expert's parameters are in
    ``work.rparams``. A kernel, not inlined into the turn: numba's inlining copies a function's
    IR block by block, each copy with every variable of the function, so inlining code this
    long (its candidates, scores and terms inlined into it) cost about 3 CPU s of a cold
    start (:mod:`..jit`)."""
    n, melds, which = head_candidates_nb(state, rules, bot, work.rparams[:], work)
    plan = bot.out_plan[:] if which == ExpertMeld.out else bot.meld_plan[:]
    best = head_scores_nb(state, rules, net, plan, work, fwork, n, melds)
    if params[ApprenticeParam.temperature] > 0.0:
        best = pick_nb(state, fwork, n, params[ApprenticeParam.temperature])
    if best < melds:
        meld_nb(state, rules, plan, log)
    if state.g[DealSlot.phase] == Phase.play:
        discard_or_any_nb(state, rules, state.g[DealSlot.current], work.discard[best], log)


@kernel
def apprentice_turn_nb(state, rules, bot, params, weights, rstate, work, fwork, log):
    """One whole turn of the apprentice with the bots' working record ``bot``
    (:data:`.memory.BOT_DTYPE`), parameters ``params`` (``float64[N_PARAMS]``,
    slots :data:`~.policies.ApprenticeParam`) and weight sets ``weights``
    (``float32[n_sets, NET_LEN]``); ``rstate`` (a record of
    ``STATE_DTYPE``, where the expert's melds are tried), ``work``
    (:data:`.search_candidates.WORK_DTYPE`) and ``fwork`` (:data:`.features.FEATURE_WORK_DTYPE`) are
    scratch. R-45's end after a last-card red three is the expert's."""
    net = weights[int(params[ApprenticeParam.weight_set])]
    if net[NetSlot.head] != 0.0:
        head_turn_nb(state, rules, bot, params, net, work, fwork, log)
        return
    expert_params_nb(params, work)
    if state.g[DealSlot.phase] == Phase.draw:
        apprentice_draw_nb(state, rules, bot, params, weights, work, fwork, log)
    if state.g[DealSlot.phase] == Phase.play:
        apprentice_play_nb(state, rules, bot, params, weights, rstate, work, fwork, log)


@inline_kernel
def head_turn_nb(state, rules, bot, params, net, work, fwork, log):
    """A head network's whole turn: the expert's draw decision (R-20 step 1, R-30..R-35,
    R-44), then :func:`head_play_nb`, or R-45's end after a last-card red three as the
    apprentice's. ``net`` is the seat's head network (``float32[NET_LEN]``), the other
    arguments as :func:`apprentice_turn_nb`'s. Inlined into the head's table turn and into
    :func:`apprentice_turn_nb`: one level of linked code less (:mod:`..jit`)."""
    rparams = expert_params_nb(params, work)
    if state.g[DealSlot.phase] == Phase.draw:
        expert_draw_nb(state, rules, bot, rparams, log)
    if state.g[DealSlot.phase] != Phase.play:
        return
    if state.g[DealSlot.last_red_three] != 0:
        last_red_three_end_nb(state, rules, bot, rparams, log)
    else:
        head_play_nb(state, rules, bot, params, net, work, fwork, log)


@inline_kernel
def expert_params_nb(params, work):
    """The expert's parameters among the apprentice's ``params`` (``float64[N_PARAMS]``, from
    ``ApprenticeParam.expert``) into ``work.rparams``, returned as a plain C array (a slice:
    numba types the record's field as a nested array, :mod:`..jit`), as in the search bot."""
    rparams = work.rparams[:]
    for i in range(N_EXPERT):
        rparams[i] = params[ApprenticeParam.expert + i]
    return rparams


@inline_kernel
def apprentice_draw_nb(state, rules, bot, params, weights, work, fwork, log):
    """The apprentice's draw decision (R-20 step 1, R-30..R-35, R-44): the best of the draw
    and every legal pickup, or what R-44 forces when there is no choice."""
    n = draw_candidates_nb(state, rules, work)
    best = -1
    if n > 0:
        best = choose_nb(state, rules, params, weights, work, fwork, n, np.bool_(False))
    play_draw_candidate_nb(state, rules, bot, work, n, best, log)


@inline_kernel
def play_draw_candidate_nb(state, rules, bot, work, n, best, log):
    """Play draw candidate ``best`` of the ``n`` of ``work``
    (:func:`.search_candidates.draw_candidates_nb`): the draw, or its pickup (the draw if the
    pickup fails); with no candidate (``n`` 0) what R-44 forces."""
    if n == 0:
        if draw_nb(state, rules, log) != MoveError.ok:
            take_forced_pile_nb(state, rules, bot, log)
        return
    if (
        work.kind[best] == CandKind.draw
        or take_pile_nb(state, rules, work.plans[:][best], log) != MoveError.ok
    ):
        draw_nb(state, rules, log)


@inline_kernel
def apprentice_play_nb(state, rules, bot, params, weights, rstate, work, fwork, log):
    """The apprentice's play decision (R-20 steps 2 and 3, R-40): the best of its play
    candidates, with the rollout expert's parameters already in ``work.rparams``; R-45's end
    after a last-card red three is the expert's."""
    rparams = work.rparams[:]
    if state.g[DealSlot.last_red_three] != 0:
        last_red_three_end_nb(state, rules, bot, rparams, log)
        return
    top = int(params[ApprenticeParam.top])
    n = play_candidates_nb(state, rules, bot, rparams, rstate, work, top, log)
    best = 0 if n < 2 else choose_nb(state, rules, params, weights, work, fwork, n, np.bool_(False))
    play_candidate_nb(state, rules, bot, work, n, best, log)


@inline_kernel
def last_red_three_end_nb(state, rules, bot, rparams, log):
    """The turn's end after a red three as the stock's last card (R-45): the expert's melds
    (parameters ``rparams``), then the deal's end without a discard, as the expert's discard
    kernel ends it there (:func:`.discards.discard_safe_nb`)."""
    expert_melds_nb(state, rules, bot, rparams, log)
    if state.g[DealSlot.phase] == Phase.play:
        end_turn_nb(state, rules, log)


@inline_kernel
def play_candidate_nb(state, rules, bot, work, n, best, log):
    """Play play candidate ``best`` of the ``n`` of ``work``
    (:func:`.search_candidates.play_candidates_nb`, the expert's parameters in
    ``work.rparams``); with none, or when it fails, the expert's melds and discard."""
    rparams = work.rparams[:]
    if n > 0:
        kind, discard = work.kind[best], work.discard[best]
        plan = work.plans[:][best]
        if apply_candidate_nb(state, rules, kind, plan, discard, log) == MoveError.ok:
            return
    else:
        expert_melds_nb(state, rules, bot, rparams, log)
    if state.g[DealSlot.phase] == Phase.play:  # a failed candidate or the expert's melds
        # the expert's discard as the first of its ranking, which the candidates compile
        # anyway (its first kind is choose_discard_nb's: tests/nb/test_features.py), so that
        # the learned path compiles no second discard heuristic; R-45 is handled before
        m = expert_ranking_nb(state, rules, bot, rparams, np.int64(1), work)
        k = work.ranked[0] if m > 0 else -1
        discard_or_any_nb(state, rules, state.g[DealSlot.current], k, log)
