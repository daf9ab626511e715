"""Whole deals, and chunks of deals played in blocks on parallel threads.

The chunk kernel takes its arguments as a few named groups: the deals' inputs (one record of
:data:`DEAL_INPUT_DTYPE` per deal), the seatings (:class:`Seating`), each block's records
(:class:`Blocks`), the search bot's work arrays (:class:`Search`, empty when no seat of the run
searches or plays the learned bot), the learned bot's weight sets and feature work
(:class:`Learned`, the work empty when no seat plays it) and the records written (:class:`Rows`).

There are five block kernels, and :func:`play_chunk` picks one in Python: numba compiles a kernel
with everything it calls, so a run compiles only the policies its kernel can play. The one that can
play the search bot (:func:`play_search_block_nb`) also compiles the search bot and its rollouts,
which took about two thirds of a cold start's compile time; runs where no seat searches but one
plays the learned bot use :func:`play_block_nb`, which plays every other policy; runs of the
other policies only (``compare expert greedy``) :func:`play_plain_block_nb`, which compiles
neither the learned bot nor the search bot (a cold ``compare expert greedy`` took 1.7 times
the CPU with the learned bot's paths in its kernel); runs where every
seat plays the learned bot with a head network (the default bots) use
:func:`play_apprentice_block_nb`, which compiles no other policy and not the full network's path of
earlier versions (a table of ``apprentice@11`` plays in :func:`play_block_nb`), and runs where
every seat plays the expert (`--bots expert`) :func:`play_expert_block_nb`, which compiles no other
policy. All play a turn through the same turn kernels (:mod:`.bots.turn`), so they give the same
deals.
"""

import threading
from typing import NamedTuple

import numba as nb
import numpy as np

from .bots.apprentice import NetSlot
from .bots.features import feature_work
from .bots.memory import BOT_DTYPE
from .bots.policies import (
    LEARNED_CODES,
    PLAIN_CODES,
    SEARCH_CODES,
    WORK_CODES,
    ApprenticeParam,
    PimcParam,
    PolicyCode,
)
from .bots.search_candidates import search_work
from .bots.turn import (
    expert_table_turn_nb,
    head_seat_turn_nb,
    learned_turn_nb,
    play_turn_nb,
    search_turn_nb,
)
from .engine.deal import start_deal_nb
from .engine.melds import meld_size_nb
from .engine.score import side_score_nb
from .engine.state import MAX_SIDES, STATE_DTYPE
from .enums import (
    BLACK_THREE,
    EV_LEN,
    FIRST_NATURAL,
    LAST_NATURAL,
    DealSlot,
    MeldCol,
    MeldFlag,
    Phase,
    RuleSlot,
    SeatSlot,
    SideSlot,
)
from .jit import inline_kernel

#: One deal's inputs to the chunk kernel: its seed (:func:`.engine.rng.deal_seed_nb`), dealer,
#: seating (row of :class:`Seating`), and per side its minimum count (points, R-64) and
#: cumulative score before the deal (points, which the seats read); sides past the table's
#: are unused.
DEAL_INPUT_DTYPE = np.dtype(
    [
        ("seed", np.uint64),
        ("dealer", np.int32),
        ("seating", np.int32),
        ("minimums", np.int32, (MAX_SIDES,)),
        ("scores", np.int32, (MAX_SIDES,)),
    ],
    align=True,
)


class Seating(NamedTuple):
    """The seatings of a run: policy code and parameters per seat, one row per seating."""

    policies: np.ndarray  # int32, (n_seatings, players): PolicyCode per seat
    params: np.ndarray  # float64, (n_seatings, players, N_PARAMS)


class Blocks(NamedTuple):
    """One record of each kind per block of deals (or rollouts), reused by its deals."""

    states: np.ndarray  # STATE_DTYPE, (n_blocks,): the deal states
    bots: np.ndarray  # BOT_DTYPE, (n_blocks,): the bots' working records (.bots.memory)


class Search(NamedTuple):
    """The search bot's work arrays (:func:`.bots.search_candidates.search_work`), two per
    block (the seat's own and its rollout apprentice's, :func:`.bots.turn.search_turn_nb`):
    ``(2 * n_blocks,)`` when a seat of the run searches or plays the learned bot (whose
    candidates are the search bot's, :data:`~.bots.policies.WORK_CODES`), else ``(0,)``,
    never touched."""

    rstates: np.ndarray  # STATE_DTYPE: rollout states
    works: np.ndarray  # WORK_DTYPE


class Learned(NamedTuple):
    """The learned bot's weight sets (:func:`canasta_sim.players.specs.weight_sets`: a seat's
    ``ApprenticeParam.weight_set`` or ``PimcParam.weight_set`` indexes them; one unused set
    without a learned seat) and its feature work records per block
    (:func:`.bots.features.feature_work`): ``(n_blocks,)`` when a seat of the run plays it or
    searches with it as rollout bot (:func:`learns`), else ``(0,)``, never touched."""

    weights: np.ndarray  # float32, (n_sets, NET_LEN): packed networks
    fworks: np.ndarray  # FEATURE_WORK_DTYPE


class Rows(NamedTuple):
    """The records a chunk writes (:mod:`canasta_sim.results.records`)."""

    deals: np.ndarray  # deal_dtype, (n,)
    sides: np.ndarray  # side_dtype, (n, n_sides)


#: Bytes of a cache line: each block's records start on their own (:func:`line_records`).
CACHE_LINE = 64
#: Blocks per thread of a chunk: at least the first, up to the second while blocks keep
#: :data:`MIN_BLOCK_DEALS` deals (:func:`block_count`).
BLOCKS_PER_THREAD = (8, 32)
MIN_BLOCK_DEALS = 1_000


def line_records(n: int, dtype: np.dtype) -> np.ndarray:
    """``n`` zeroed records of ``dtype``, each starting on a cache line of its own
    (``ndarray(dtype, (n,))``, strided): threads writing neighbouring records (the blocks'
    states and bot records) never write the same cache line, which would make the two cores
    pass it back and forth."""
    stride = -(-dtype.itemsize // CACHE_LINE) * CACHE_LINE
    raw = np.zeros(n * stride + CACHE_LINE, np.uint8)
    offset = -raw.ctypes.data % CACHE_LINE
    return np.ndarray((n,), dtype, buffer=raw, offset=offset, strides=(stride,))


def new_blocks(n_blocks: int) -> Blocks:
    """Records for ``n_blocks`` blocks, zeroed, each on cache lines of its own
    (:func:`line_records`; every deal or rollout clears or overwrites its state first).

    At least two records each: numpy calls a strided array of one record contiguous, which
    numba types as another array layout, so a one-block chunk would compile the block kernel
    a second time."""
    n = max(n_blocks, 2)
    return Blocks(line_records(n, STATE_DTYPE), line_records(n, BOT_DTYPE))


def block_count(n: int, threads: int) -> int:
    """Blocks for a chunk of ``n`` deals on ``threads`` threads: a few per thread, so that a
    thread that finishes early (or was paused by other jobs) takes more, and the last block
    leaves the other threads idle briefly; results do not depend on it."""
    fewest, most = BLOCKS_PER_THREAD
    return max(1, min(n, fewest * threads), min(n // MIN_BLOCK_DEALS, most * threads))


@inline_kernel
def start_play_deal_nb(state, rules, deal, log):
    """Deal ``deal`` (a record of :data:`DEAL_INPUT_DTYPE`) in ``state``: shuffle and deal it,
    and set the sides' cumulative scores before it, which every seat may read
    (``SideSlot.score``)."""
    start_deal_nb(state, rules, deal.seed, deal.dealer, deal.minimums[:], log)
    for s in range(rules[RuleSlot.sides]):
        state.sides[s, SideSlot.score] = deal.scores[s]


@inline_kernel
def play_deal_nb(state, rules, bot, deal, seating, search, learned, block, log):
    """Play one deal (``deal``, a record of :data:`DEAL_INPUT_DTYPE`) to its end with the
    seats' policies, none of them the search bot (see :func:`.bots.turn.learned_turn_nb`;
    ``bot`` is the bots' working record, ``search`` the search work arrays and ``learned`` the
    learned bot's weights and work, used at index ``block``)."""
    policies = seating.policies[deal.seating]
    params = seating.params[deal.seating]
    start_play_deal_nb(state, rules, deal, log)
    while state.g[DealSlot.phase] != Phase.over:
        learned_turn_nb(state, rules, bot, policies, params, search, learned, block, log)


@inline_kernel
def play_expert_deal_nb(state, rules, bot, deal, seating, log):
    """:func:`play_deal_nb` for a table where every seat plays the expert
    (:func:`.bots.turn.expert_table_turn_nb`)."""
    params = seating.params[deal.seating]
    start_play_deal_nb(state, rules, deal, log)
    while state.g[DealSlot.phase] != Phase.over:
        expert_table_turn_nb(state, rules, bot, params, log)


@inline_kernel
def play_plain_deal_nb(state, rules, bot, deal, seating, log):
    """:func:`play_deal_nb` for a table of the policies that need no work arrays
    (:data:`~.bots.policies.PLAIN_CODES`: neither the learned bot nor the search bot;
    :func:`.bots.turn.play_turn_nb`)."""
    policies = seating.policies[deal.seating]
    params = seating.params[deal.seating]
    start_play_deal_nb(state, rules, deal, log)
    while state.g[DealSlot.phase] != Phase.over:
        play_turn_nb(state, rules, bot, policies, params, log)


@inline_kernel
def play_apprentice_deal_nb(state, rules, bot, deal, seating, search, learned, block, log):
    """:func:`play_deal_nb` for a table where every seat plays the learned bot with a head
    network (:func:`.bots.turn.head_seat_turn_nb`)."""
    params = seating.params[deal.seating]
    start_play_deal_nb(state, rules, deal, log)
    while state.g[DealSlot.phase] != Phase.over:
        head_seat_turn_nb(state, rules, bot, params, search, learned, block, log)


@inline_kernel
def play_search_deal_nb(state, rules, bot, deal, seating, search, learned, block, log):
    """:func:`play_deal_nb` for seats of every policy, the search bot's included
    (:func:`.bots.turn.search_turn_nb`)."""
    policies = seating.policies[deal.seating]
    params = seating.params[deal.seating]
    start_play_deal_nb(state, rules, deal, log)
    while state.g[DealSlot.phase] != Phase.over:
        search_turn_nb(state, rules, bot, policies, params, search, learned, block, log)


@inline_kernel
def record_deal_nb(state, rules, deal_row, side_rows):
    """Write the finished deal's record (``deal_row``, a record of
    :data:`canasta_sim.results.records.deal_dtype`) and its sides' records (``side_rows``,
    ``ndarray(side_dtype, (n_sides,))``, including the score parts, points)."""
    melds, meld_flags, sides, g = state.melds, state.meld_flags, state.sides, state.g
    deal_row.dealer = g[DealSlot.dealer]
    deal_row.turns = g[DealSlot.turn]
    deal_row.end_reason = g[DealSlot.end]
    deal_row.went_out_seat = g[DealSlot.out_seat]
    deal_row.concealed_out = g[DealSlot.concealed_out] != 0
    deal_row.upcard_cards = g[DealSlot.upcard_cards]
    deal_row.pile_frozen_at_start = g[DealSlot.frozen_at_start] != 0
    deal_row.first_canasta_turn = g[DealSlot.first_canasta_turn]
    for side in range(rules[RuleSlot.sides]):
        row = side_rows[side]
        dealt = sides[side, SideSlot.r3_dealt]
        drawn = sides[side, SideSlot.r3_drawn]
        from_pile = sides[side, SideSlot.r3_pile]
        n_melds = 0
        natural = 0
        mixed = 0
        concealed = 0
        canasta_ranks = 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            size = meld_size_nb(melds, side, r)
            if size > 0:
                n_melds += 1
            if size >= 7 and r >= FIRST_NATURAL:
                canasta_ranks |= 1 << (r - FIRST_NATURAL)
                if melds[side, r, MeldCol.deuces] + melds[side, r, MeldCol.jokers] == 0:
                    natural += 1
                else:
                    mixed += 1
                concealed += meld_flags[side, r] & MeldFlag.concealed
        row.red_threes = dealt + drawn + from_pile
        row.red_threes_dealt = dealt
        row.red_threes_drawn = drawn
        row.red_threes_from_pile = from_pile
        row.natural_canastas = natural
        row.mixed_canastas = mixed
        row.concealed_canastas = concealed
        row.melds = n_melds
        row.canasta_ranks = canasta_ranks
        red, bonus, going_out, points, penalty, total = side_score_nb(state, rules, side)
        row.meld_points = points
        row.canasta_bonus = bonus
        row.red_three_score = red
        row.going_out_bonus = going_out
        row.hand_penalty = penalty
        row.score = total
        row.went_out = (
            g[DealSlot.out_seat] >= 0 and g[DealSlot.out_seat] % rules[RuleSlot.sides] == side
        )
        mixed = sides[side, SideSlot.canasta_mixed]
        row.canasta_1_turn = sides[side, SideSlot.canasta_turn_1]
        row.canasta_2_turn = sides[side, SideSlot.canasta_turn_2]
        row.canasta_3_turn = sides[side, SideSlot.canasta_turn_3]
        row.canasta_1_mixed = mixed & 1 != 0
        row.canasta_2_mixed = mixed & 2 != 0
        row.canasta_3_mixed = mixed & 4 != 0
        row.score_before = sides[side, SideSlot.score]
        record_pile_nb(state, rules, side, row)


@inline_kernel
def record_pile_nb(state, rules, side, row):
    """The pile and timeline fields of ``side``'s record ``row`` (see
    :data:`canasta_sim.results.records.side_dtype`): its pickups by kind and pile size, wild-card
    freezes, black-three blocks and the turn of its initial meld (its players' first melds,
    the earliest; -1 if none)."""
    sides = state.sides
    row.pickups = sides[side, SideSlot.pickups]
    row.pickups_pair = sides[side, SideSlot.pickups_pair]
    row.pickups_wild = sides[side, SideSlot.pickups_wild]
    row.pickups_onto_meld = sides[side, SideSlot.pickups_meld]
    row.pile_cards_taken = sides[side, SideSlot.pile_taken]
    row.pickups_0_4 = sides[side, SideSlot.pickup_sizes]
    row.pickups_5_9 = sides[side, SideSlot.pickup_sizes + 1]
    row.pickups_10_14 = sides[side, SideSlot.pickup_sizes + 2]
    row.pickups_15_19 = sides[side, SideSlot.pickup_sizes + 3]
    row.pickups_20_24 = sides[side, SideSlot.pickup_sizes + 4]
    row.pickups_25_up = sides[side, SideSlot.pickup_sizes + 5]
    row.wild_freezes = sides[side, SideSlot.wild_freezes]
    row.black_three_blocks = sides[side, SideSlot.black_three_blocks]
    first = -1
    for p in range(side, rules[RuleSlot.players], rules[RuleSlot.sides]):
        t = state.seats[p, SeatSlot.first_meld_turn]
        if t >= 0 and (first < 0 or t < first):
            first = t
    row.initial_meld_turn = first


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_block_nb(block, n_blocks, rules, deals, seating, blocks, search, learned, rows, log):
    """Play and record block ``block`` of ``n_blocks`` of a chunk's deals (``deals``:
    ``ndarray(DEAL_INPUT_DTYPE, (n,))``, see :func:`play_chunk`; no seat the search bot) one
    after another in the block's records of ``blocks`` (the learned bot's candidates in
    ``search``, its weights and features in ``learned``, at index ``block``), writing
    ``rows``. Releases the GIL, so blocks run in parallel threads."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    n = deals.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_deal_nb(state, rules, bot, deals[i], seating, search, learned, block, log)
        record_deal_nb(state, rules, rows.deals[i], rows.sides[i])


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_expert_block_nb(block, n_blocks, rules, deals, seating, blocks, rows, log):
    """:func:`play_block_nb` for seatings where every seat plays the expert."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    n = deals.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_expert_deal_nb(state, rules, bot, deals[i], seating, log)
        record_deal_nb(state, rules, rows.deals[i], rows.sides[i])


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_plain_block_nb(block, n_blocks, rules, deals, seating, blocks, rows, log):
    """:func:`play_block_nb` for seatings of the policies that need no work arrays (no
    learned bot, no search bot)."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    n = deals.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_plain_deal_nb(state, rules, bot, deals[i], seating, log)
        record_deal_nb(state, rules, rows.deals[i], rows.sides[i])


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_apprentice_block_nb(
    block, n_blocks, rules, deals, seating, blocks, search, learned, rows, log
):
    """:func:`play_block_nb` for seatings where every seat plays the learned bot with a head
    network (:func:`heads_only`)."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    n = deals.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_apprentice_deal_nb(state, rules, bot, deals[i], seating, search, learned, block, log)
        record_deal_nb(state, rules, rows.deals[i], rows.sides[i])


@nb.njit(cache=True, _nrt=False, nogil=True)
def play_search_block_nb(
    block, n_blocks, rules, deals, seating, blocks, search, learned, rows, log
):
    """:func:`play_block_nb` for seatings with the search bot, whose rollouts use the work
    arrays of ``search`` at index ``block``."""
    state = blocks.states[block]
    bot = blocks.bots[block]
    n = deals.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        play_search_deal_nb(state, rules, bot, deals[i], seating, search, learned, block, log)
        record_deal_nb(state, rules, rows.deals[i], rows.sides[i])


def play_chunk(
    rules,
    seeds,
    dealers,
    minimums,
    scores,
    seatings,
    policies,
    params,
    weights,
    threads,
    deal_rows,
    side_rows,
):
    """Play a chunk of independent deals (one per element of ``seeds``) on ``threads``
    threads.

    The parallel loop runs in Python threads over blocks of deals (:func:`play_block_nb`,
    :func:`play_plain_block_nb`, :func:`play_expert_block_nb`, :func:`play_apprentice_block_nb`
    or :func:`play_search_block_nb`, as the seats' policies need; each releases the GIL), not
    in a ``parallel=True`` kernel: numba links the whole program into such a kernel and into
    each of its two loop wrappers and optimises and compiles it again each time, about 15 s
    more of a cold start.

    Parameters
    ----------
    rules : ndarray(int32, (RULES_LEN,))
    seeds : ndarray(uint64, (n,))
        Each deal's own seed (:func:`.engine.rng.deal_seed_nb`), so results do not depend on how
        deals are split into chunks or threads.
    dealers : ndarray(int32, (n,))
    minimums : ndarray(int32, (n, n_sides))
        Minimum count per deal and side (points, R-64).
    scores : ndarray(int32, (n, n_sides))
        Cumulative score per deal and side before the deal (points), which the seats read.
    seatings : ndarray(int32, (n,))
        Row of ``policies``/``params`` each deal uses.
    policies : ndarray(int32, (n_seatings, players))
        Policy code per seat.
    params : ndarray(float64, (n_seatings, players, n_params))
    weights : ndarray(float32, (n_sets, NET_LEN))
        The learned bot's weight sets (``ApprenticeParam.weight_set`` of a seat indexes them).
    threads : int
        Threads to run on. Deals are split into blocks of consecutive deals, a few per thread
        to balance the load, each reusing one state (no allocation per deal). Results do not
        depend on it.
    deal_rows : ndarray(deal_dtype, (n,)), written
        :data:`canasta_sim.results.records.deal_dtype` rows.
    side_rows : ndarray(side_dtype, (n, n_sides)), written
        :data:`canasta_sim.results.records.side_dtype` rows.
    """
    n = seeds.shape[0]
    n_blocks = block_count(n, threads)
    deals = deal_inputs(seeds, dealers, minimums, scores, seatings)
    seating = Seating(policies, params)
    blocks = new_blocks(n_blocks)
    # the work arrays only when a seat needs them (the others never touch them)
    search = Search(*search_work(2 * n_blocks if np.isin(policies, WORK_CODES).any() else 0))
    learned = Learned(weights, feature_work(n_blocks if learns(policies, params) else 0))
    rows = Rows(deal_rows, side_rows)
    no_log = np.zeros((0, EV_LEN), np.int32)
    total = np.int64(n_blocks)
    experts = bool((policies == PolicyCode.expert).all())
    if experts or np.isin(policies, PLAIN_CODES).all():
        plain = play_expert_block_nb if experts else play_plain_block_nb

        def block(b):
            plain(np.int64(b), total, rules, deals, seating, blocks, rows, no_log)

    else:
        # the search bot's kernel only when a seat plays it
        if np.isin(policies, SEARCH_CODES).any():
            kernel = play_search_block_nb
        elif heads_only(policies, params, weights):
            kernel = play_apprentice_block_nb
        else:
            kernel = play_block_nb

        def block(b):
            kernel(np.int64(b), total, rules, deals, seating, blocks, search, learned, rows, no_log)

    run_blocks(block, n_blocks, threads)


def learns(policies, params) -> bool:
    """Whether a seat of ``policies`` (``int32[..., players]``, with ``params``
    ``float64[..., players, N_PARAMS]``) plays the learned bot or searches with it as its
    rollout bot (``pimc:rollout=apprentice``), so needs the feature work records."""
    rollout = params[..., PimcParam.rollout]
    searching = (policies == PolicyCode.pimc) & (rollout == PolicyCode.apprentice)
    return bool(np.isin(policies, LEARNED_CODES).any() or searching.any())


def heads_only(policies, params, weights) -> bool:
    """Whether every seat of ``policies`` (``int32[n_seatings, players]``, with ``params``
    ``float64[n_seatings, players, N_PARAMS]``) plays the learned bot with a head network
    (``NetSlot.head`` of its weight set in ``weights``, ``float32[n_sets, NET_LEN]``): the
    default bots, whose table kernel compiles only the head's path. A table of an earlier
    version's network (``apprentice@11``) plays in :func:`play_block_nb`."""
    if not (policies == PolicyCode.apprentice).all():
        return False
    sets = params[..., ApprenticeParam.weight_set].astype(np.int64)
    return bool((weights[sets, NetSlot.head] != 0.0).all())


def deal_inputs(seeds, dealers, minimums, scores, seatings) -> np.ndarray:
    """The deals' inputs as records of :data:`DEAL_INPUT_DTYPE`, ``(n,)``, from one array
    per field (``minimums`` and ``scores``: ``(n, n_sides)``; see :func:`play_chunk`)."""
    deals = np.zeros(len(seeds), DEAL_INPUT_DTYPE)
    deals["seed"] = seeds
    deals["dealer"] = dealers
    deals["seating"] = seatings
    deals["minimums"][:, : minimums.shape[1]] = minimums
    deals["scores"][:, : scores.shape[1]] = scores
    return deals


def run_blocks(block, n_blocks: int, threads: int) -> None:
    """Call ``block(b)`` for ``b`` in ``0 .. n_blocks - 1`` on up to ``threads`` threads (the
    block kernels release the GIL): this thread and ``threads - 1`` more, each taking the next
    block not yet started until none is left; in this thread alone when ``threads`` is 1.
    The first exception in a block is raised here once the running blocks are done, and the
    blocks not yet started are not run.

    Plain threads, not a ``ThreadPoolExecutor``: making and shutting down a pool and a future
    per block cost a call about 1 ms, a twentieth of a 3,000-rollout call of an analysis.
    """
    todo = iter(range(n_blocks))  # next() on a range iterator holds the GIL: no block twice
    errors: list[BaseException] = []

    def work() -> None:
        for b in todo:
            if errors:
                return
            try:
                block(b)
            except BaseException as exc:  # raised in the calling thread below
                errors.append(exc)
                return

    helpers = [threading.Thread(target=work) for _ in range(min(threads, n_blocks) - 1)]
    for t in helpers:
        t.start()
    work()
    for t in helpers:
        t.join()
    if errors:
        raise errors[0]
