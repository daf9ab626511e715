"""The ``expert`` policy: a parameterised heuristic after the standard strategy advice (Parlett,
Hoyle, pagat.com's strategy pages), its defaults tuned against a field of bots (docs/tune.md).

A turn: take the pile when it holds at least ``pile_threshold`` cards and the hand can take it
with naturals (a natural pair, or the top card onto the side's meld); draw otherwise. Lay the
initial meld from hand (spending few wild cards) once it needs at most ``initial_cards`` cards
per 50 points of the minimum count, else hold its cards back to take the pile with them; then
hold a full hand: meld only what leaves ``meld_keep`` cards, never put loose wild cards down unless
``hold_wilds`` is 0, complete canastas with wild cards (melds that already hold one first).
Go out only when an opponent threatens to go out, in the end game (the stock down to
``ENDGAME_ROUNDS`` rounds of draws; then also shed cards down to ``THREAT_KEEP``), when going
out wins the game (the sides' cumulative scores are public, R-55), or when the side leads by
``out_lead`` points. Discard the card least useful to the next opponent
(:func:`.discards.choose_discard_nb`): black threes, ranks they cannot take the pile with, a wild
card to freeze a pile that every other discard would hand them.

The knobs (``params``: ``float64[N_PARAMS]``, slots :data:`~.policies.ExpertParam`; names,
ranges, defaults and docs in :data:`~.policies.EXPERT_PARAMS`):

- ``pile_threshold``: smallest pile (cards) taken with a natural pair (R-33 a), and onto one
  of the side's melds while ``meld_pile`` is 0.
- ``wild_factor``: a pickup spending a wild card (one natural and a wild, R-33 b) needs this
  many times ``pile_threshold`` cards (rounded up).
- ``meld_pile``: smallest pile taken by laying its top card onto one of the side's melds (R-33
  c; no card of the hand is spent); 0 means ``pile_threshold``.
- ``meld_keep``: cards kept in hand when melding without going out (the rules'
  floor is 2, R-22): a fuller hand keeps pairs for pickups and safe discards.
- ``hold_wilds``: 1 keeps wild cards for completing canastas, the minimum count,
  going out and freezing the pile; 0 also starts melds from a natural pair and a wild card and
  puts spare wild cards on melds, as ``greedy`` does.
- ``freeze_risk``: a wild card is discarded, freezing the pile (R-24, R-31),
  when the safest other discard would hand the next opponent about this many pile cards in
  expectation or more.
- ``safety``: weight of that danger against how much a card is worth keeping.
- ``block_at``: pile size from which a black three is discarded at once to block
  the next player (R-23); below it the black three is kept back for a bigger pile.
- ``out_lead``: going out (R-40) without a threat needs the side's estimated deal
  score to lead the best opponent's by this many points; otherwise it holds back to build more
  canastas.
- ``natural_wait``: a wild-free meld of at least this many naturals gets no
  wild card except when going out (it can become, or stay, a natural canasta, R-51).
- ``initial_cards``: the most cards the initial meld from hand may lay (R-64), per 50 points
  of the side's minimum count, counted from a hand of the deal's size after one draw; a
  bigger meld waits unless under a threat or in the end game (``NO_WAIT``: never waits).

It reads only public information and its own hand (see :mod:`.knowledge`), tests cheaply whether a
pickup or a meld is possible before building anything, builds one plan per step in its
working record's plan fields (:data:`.memory.BOT_DTYPE`: ``take_plan``, ``meld_plan``,
``out_plan``) and lets the move kernels validate it.
"""

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros  # LLVM's ctlz: highest set bit

from ..engine.melds import meld_ok_nb
from ..engine.moves import draw_nb, meld_nb
from ..enums import (
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    NO_LIMIT,
    DealSlot,
    MeldCol,
    MoveError,
    Phase,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from ..plans import (
    clear_plan_nb,
    fill_plan_nb,
    initial_plan_nb,
    initial_reach_nb,
    pairs_then_spread_nb,
    plan_points_nb,
    row_total_nb,
)
from .discards import discard_safe_nb
from .knowledge import opponents_threaten_nb, side_table_points_nb, stock_left_nb
from .melding import can_go_out_nb, meld_material_nb, out_possible_nb
from .pickups import take_forced_pile_nb, take_possible_nb, try_take_nb
from .policies import EXPERT_DEFAULTS, ExpertParam

PAIR_KEEP = 0.6  # keep value of a natural pair in the discard choice (careful: never break)
THREAT_CARDS = 5  # an opponent side with its canastas and a player this short may go out soon
ENDGAME_ROUNDS = 2  # stock left for this many rounds of draws: the end game
THREAT_KEEP = 3  # cards kept when melding under a threat or in the end game
HAND_CARD_POINTS = 8  # estimated points of a hidden card (deal score estimate)
NO_WAIT = 100  # initial_cards from which the initial meld from hand never waits


@inline_kernel
def param_nb(params, i):
    """Parameter ``i`` of ``params``; every parameter takes its default when the vector is
    shorter than :data:`~.policies.EXPERT_DEFAULTS` (a caller that passed no parameters)."""
    if params.shape[0] >= len(EXPERT_DEFAULTS):
        return params[i]
    return EXPERT_DEFAULTS[i]


@kernel
def out_outlook_nb(state, rules, seat):
    """What going out now would bring ``seat``'s side: ``(lead, wins)``.

    ``lead`` is its estimated deal score minus the best opponent's (points, R-50..R-54:
    table points, the going-out bonus, hidden hands at ``HAND_CARD_POINTS`` a card);
    ``wins`` whether that ends the game in its favour (R-55): its cumulative score
    (``SideSlot.score``, public) plus its estimate reaches the game target and beats every
    opponent's cumulative score plus theirs."""
    n_sides = rules[RuleSlot.sides]
    players = rules[RuleSlot.players]
    sides = state.sides
    mine = rules[RuleSlot.side_of + seat]
    best_opp = -(1 << 30)
    best_total = -(1 << 40)
    own = side_table_points_nb(state, rules, mine) + rules[RuleSlot.going_out_bonus]
    for s in range(n_sides):
        hidden = 0
        for p in range(s, players, n_sides):
            if p != seat:
                hidden += state.hand_sizes[p]
        if s == mine:
            own -= HAND_CARD_POINTS * hidden
        else:
            est = side_table_points_nb(state, rules, s) - HAND_CARD_POINTS * hidden
            best_opp = max(best_opp, est)
            best_total = max(best_total, est + sides[s, SideSlot.score])
    own_total = own + sides[mine, SideSlot.score]
    wins = own_total >= rules[RuleSlot.game_target] and own_total > best_total
    return own - best_opp, wins


@inline_kernel
def should_go_out_nb(state, rules, seat, params, threat):
    """Go out when ``threat`` (an opponent may go out first, or the end game), when going
    out wins the game (R-55), or when ahead by at least ``out_lead`` points
    (:func:`out_outlook_nb`)."""
    if threat:
        return True
    lead, wins = out_outlook_nb(state, rules, seat)
    return wins or lead >= param_nb(params, ExpertParam.out_lead)


@inline_kernel
def completable_nb(melds, side, plan, wilds):
    """Bit mask of the ranks whose meld of ``side`` (on the table plus ``plan``) ``wilds`` wild
    cards could make a canasta (R-65): it holds 7 - ``wilds`` to 6 cards (at least 4, the
    search's smallest). No other meld can come into reach while the search adds wild cards."""
    smallest = max(4, 7 - wilds)
    ranks = 0
    for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
        n, d, j = row_total_nb(melds, side, plan, r, -1)
        ranks |= (1 if (smallest <= n + d + j) & (n + d + j <= 6) else 0) << r
    return ranks


@kernel
def add_wilds_nb(state, rules, seat, plan, left, keep, hold, natural_wait):
    """Put the hand's spare wild cards into ``plan``: first where they complete a canasta
    (R-65), then, unless ``hold``, on new melds of a natural pair and on the melds. A wild-free
    meld of at least ``natural_wait`` naturals gets none. ``plan`` holds no wild cards yet.
    Returns ``left``, the cards the hand keeps, less the wild cards placed."""
    hands, melds = state.hands, state.melds
    hand = hands[seat]
    side = rules[RuleSlot.side_of + seat]
    deuces, jokers = hand[DEUCE], hand[JOKER]
    if deuces + jokers == 0:
        return left
    # complete canastas: largest melds first, melds that already hold a wild card first; each
    # step visits the candidate ranks only, highest first
    ranks = completable_nb(melds, side, plan, deuces + jokers)
    for step in range(6 if ranks != 0 else 0):
        size = 6 - step // 2
        todo = ranks
        while todo != 0:
            r = 63 - leading_zeros(todo)
            todo ^= 1 << r
            n = melds[side, r, MeldCol.naturals] + plan[r, MeldCol.naturals]
            d = melds[side, r, MeldCol.deuces] + plan[r, MeldCol.deuces]
            j = melds[side, r, MeldCol.jokers] + plan[r, MeldCol.jokers]
            if n + d + j != size or (step % 2 == 0) == (d + j == 0):
                continue
            if d + j == 0 and n >= natural_wait:
                continue
            need = 7 - size
            if need > deuces + jokers or left - need < keep:
                continue
            uj = need if need <= jokers else jokers
            ud = need - uj
            if not meld_ok_nb(n, d + ud, j + uj, rules):
                continue
            plan[r, MeldCol.jokers] += uj
            plan[r, MeldCol.deuces] += ud
            jokers -= uj
            deuces -= ud
            left -= need
    if hold or deuces + jokers == 0:
        return left
    return pairs_then_spread_nb(
        state,
        rules,
        seat,
        plan,
        np.int64(-1),
        left,
        keep,
        np.int64(NO_LIMIT),
        np.bool_(False),
        natural_wait,
    )


class _ExpertMeld(NamedTuple):
    none: int = 0  # no meld this turn
    out: int = 1  # going out: the plan in the working record's ``out_plan``
    melds: int = 2  # the plan in its ``meld_plan``


#: What :func:`expert_meld_plan_nb` chose: which plan of the working record to lay.
ExpertMeld = _ExpertMeld()


@kernel
def expert_meld_plan_nb(state, rules, bot, params):
    """The expert's melds of the turn as a plan, the state unchanged (its hand and the public
    cards read; the plan built in ``bot``, :data:`.memory.BOT_DTYPE`): going out if allowed and
    :func:`should_go_out_nb` agrees (``bot.out_plan``, checked by :func:`.melding.can_go_out_nb`);
    else the initial meld (few wild cards) when it keeps the cards ``initial_cards`` asks for
    (two under a threat or in the end game), or naturals added to the melds, melds of three
    naturals started and wild cards placed (:func:`add_wilds_nb`), keeping ``meld_keep`` cards
    (``THREAT_KEEP`` under a threat or in the end game), in ``bot.meld_plan`` (the move kernel
    checks it, R-22, R-60..R-64). Returns an :data:`ExpertMeld` code."""
    hands, sides, g = state.hands, state.sides, state.g
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    hand = hands[seat]
    # an opponent may go out soon: time to go out or shed cards; likewise near the stock's end
    threat = opponents_threaten_nb(state, rules, seat, np.int64(THREAT_CARDS))
    endgame = (
        stock_left_nb(state, rules)
        <= ENDGAME_ROUNDS * rules[RuleSlot.draw_count] * rules[RuleSlot.players]
    )
    if (
        out_possible_nb(state, rules, seat)  # the cheap tests first: most turns end here
        and can_go_out_nb(state, rules, bot, seat)
        and should_go_out_nb(state, rules, seat, params, threat or endgame)
    ):
        return ExpertMeld.out
    melded = sides[side, SideSlot.melded] != 0
    if melded:
        keep = max(2, np.int64(param_nb(params, ExpertParam.meld_keep)))
        if threat or endgame:  # shed the cards that would count against the side
            keep = min(keep, THREAT_KEEP)
    else:
        keep = 2
        per_50 = param_nb(params, ExpertParam.initial_cards)
        if not (threat or endgame) and per_50 < NO_WAIT:
            # a fuller hand keeps its melds back to take the pile with them; a higher minimum
            # count needs more cards, from hand or with the pile
            full = rules[RuleSlot.deal_size] + rules[RuleSlot.draw_count]
            keep = max(2, full - np.int64(per_50 * sides[side, SideSlot.minimum] / 50.0))
    if state.hand_sizes[seat] <= keep or not meld_material_nb(
        hand, sides[side, SideSlot.meld_ranks]
    ):
        return ExpertMeld.none
    minimum = sides[side, SideSlot.minimum]
    if not melded and initial_reach_nb(rules, hand) < minimum:
        return ExpertMeld.none  # no initial meld from hand reaches the minimum count
    plan = bot.meld_plan[:]
    clear_plan_nb(plan)
    if not melded:
        left = initial_plan_nb(state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(keep))
        # the move kernel would refuse a plan short of the minimum count: keeping at
        # least two cards, it does not go out, which alone could waive it
        if plan_points_nb(rules, plan, np.int64(-1)) < minimum:
            return ExpertMeld.none
    else:
        left = fill_plan_nb(
            state, rules, seat, plan, np.int64(-1), np.int64(0), np.int64(keep), np.bool_(False)
        )
        hold = param_nb(params, ExpertParam.hold_wilds) >= 0.5
        left = add_wilds_nb(
            state,
            rules,
            seat,
            plan,
            left,
            keep,
            hold,
            np.int64(param_nb(params, ExpertParam.natural_wait)),
        )
    return ExpertMeld.melds if left < state.hand_sizes[seat] else ExpertMeld.none


@inline_kernel
def expert_meld_nb(state, rules, bot, which, log):
    """Lay the plan of ``bot`` that ``which`` (an :data:`ExpertMeld` code of
    :func:`expert_meld_plan_nb`) names, through the move kernel, which checks it; returns its
    MoveError (``ok`` for no meld). A going-out plan passed the same check
    (:func:`.melding.can_go_out_nb`) in the play phase, so the move accepts it."""
    if which == ExpertMeld.none:
        return MoveError.ok
    plan = bot.out_plan[:] if which == ExpertMeld.out else bot.meld_plan[:]
    return meld_nb(state, rules, plan, log)


@inline_kernel
def expert_melds_nb(state, rules, bot, params, log):
    """The expert's melds of the turn (:func:`expert_meld_plan_nb`), laid."""
    expert_meld_nb(state, rules, bot, expert_meld_plan_nb(state, rules, bot, params), log)


@inline_kernel
def expert_discard_nb(state, rules, bot, params, log):
    """The expert's discard (R-20 step 3) with parameters ``params`` (``float64[N_PARAMS]``):
    :func:`.discards.discard_safe_nb` with its safety, blocking and freezing knobs."""
    discard_safe_nb(
        state,
        rules,
        bot,
        log,
        param_nb(params, ExpertParam.safety),
        np.int64(param_nb(params, ExpertParam.block_at)),
        param_nb(params, ExpertParam.freeze_risk),
        np.int64(0),
        PAIR_KEEP,
    )


@inline_kernel
def expert_draw_nb(state, rules, bot, params, log):
    """The expert's draw decision (R-20 step 1, R-30..R-35, R-44): take the pile when it is
    big enough for its thresholds and :func:`.pickups.try_take_nb` can take it, else draw
    (or take the pile R-44 forces); ``bot`` is the working record (:data:`.memory.BOT_DTYPE`)."""
    g = state.g
    pile_min = np.int64(param_nb(params, ExpertParam.pile_threshold))
    wild_min = np.int64(np.ceil(param_nb(params, ExpertParam.wild_factor) * pile_min))
    meld_min = np.int64(param_nb(params, ExpertParam.meld_pile))
    if meld_min <= 0:
        meld_min = pile_min
    if not (
        take_possible_nb(state, rules, g[DealSlot.current], meld_min, pile_min, wild_min)
        and try_take_nb(state, rules, bot, log, meld_min, pile_min, wild_min)
    ):
        if draw_nb(state, rules, log) != MoveError.ok:
            take_forced_pile_nb(state, rules, bot, log)


@kernel
def expert_turn_nb(state, rules, bot, params, log):
    """One whole turn of the expert policy with parameters ``params`` (``float64[N_PARAMS]``;
    a shorter vector means the defaults) and its working record ``bot``
    (:data:`.memory.BOT_DTYPE`): pickup or draw, melds, discard (or R-45's end)."""
    g = state.g
    if g[DealSlot.phase] == Phase.draw:
        expert_draw_nb(state, rules, bot, params, log)
    if g[DealSlot.phase] == Phase.play:
        expert_melds_nb(state, rules, bot, params, log)
    if g[DealSlot.phase] == Phase.play:
        expert_discard_nb(state, rules, bot, params, log)
