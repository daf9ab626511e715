"""The learning environment's fine-grained actions: the legal-action mask and applying one id.

The action space is the table :data:`ACTION_LAYOUT` (ids by
:data:`ActionSlot`, documented in ``docs/environment.md``). A turn is a
sequence of ids: draw or take the pile, stage cards from hand onto meld rows one at a time
(and unstage them), then discard, go out or end the deal, which melds the staged cards in the
same move. The staged cards are the environment's, not the game's: ``staged``,
``ndarray(int8, (N_KINDS, 3))``, a meld plan (rows by rank, columns
:data:`~canasta_sim.nb.enums.MeldCol`) that only a committing id lays.

Every verdict on a move is the move kernels' own (:mod:`.engine.moves`,
:mod:`.engine.legal`): the mask asks their checks, and applying an id makes the moves with
them on ``scratch`` (a copy of the state) first when the move is two moves (meld the staged
cards, then discard), so a refused id never changes the state. Staging is checked here:
the card must be in hand and not yet staged, and a wild card needs naturals on its row.
"""

from collections import namedtuple
from typing import Any, NamedTuple

import numpy as np

from .engine.legal import check_draw_step_nb, check_pickup_nb
from .engine.melds import plan_rows_nb
from .engine.moves import (
    check_discard_nb,
    check_meld_nb,
    discard_nb,
    draw_nb,
    end_turn_nb,
    meld_last_card_nb,
    meld_nb,
    pile_top_nb,
    take_pile_nb,
)
from .engine.observation import OBS_LEN, OBS_RANKS, observe_nb
from .engine.state import copy_state_nb
from .enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    N_PICKUP_WAYS,
    DealSlot,
    MeldCol,
    MoveError,
    Phase,
    RuleSlot,
)
from .jit import inline_kernel, kernel


# --- the learning environment's fine-grained actions (canasta_sim.env, docs/environment.md) --
class ActionField(NamedTuple):
    """One block of the fine-grained action space: ``count`` ids from ``offset``, what id
    ``offset + i`` does (``index`` says what ``i`` counts), and the rule ids it implements."""

    name: str
    count: int
    index: str
    meaning: str
    rules: str
    offset: int = 0


#: Natural ranks (4 .. A): the rows a wild card can be staged on.
N_RANKS = LAST_NATURAL - FIRST_NATURAL + 1
#: Kinds a player can discard (black three .. joker; a red three is never held, R-14).
N_DISCARDS = N_KINDS - BLACK_THREE

_ACTION_FIELDS = (
    ActionField(
        "draw",
        1,
        "",
        "draw from the stock (with the stock empty: the deal ends, unless the pile must be "
        "taken); staged cards stay staged",
        "R-20, R-44, R-46",
    ),
    ActionField(
        "take",
        N_PICKUP_WAYS,
        "PickupWay: onto the side's meld, natural pair, natural and deuce, natural and joker",
        "take the discard pile, the top card used this way, the staged cards melded in the "
        "same move (they count toward the minimum count)",
        "R-30..R-35, R-64",
    ),
    ActionField(
        "stage_natural",
        OBS_RANKS,
        "meld row: black three, 4 .. A",
        "stage one natural of the row's rank from hand (draw phase: only with a natural on "
        "top of the pile)",
        "R-60, R-63",
    ),
    ActionField(
        "stage_deuce",
        N_RANKS,
        "rank 4 .. A",
        "stage one deuce from hand onto the rank's meld; only a row with naturals (the side's "
        "meld, staged ones or the pile's top card)",
        "R-60, R-61",
    ),
    ActionField(
        "stage_joker",
        N_RANKS,
        "rank 4 .. A",
        "stage one joker from hand onto the rank's meld; only a row with naturals",
        "R-60, R-61",
    ),
    ActionField(
        "unstage_natural", OBS_RANKS, "meld row: black three, 4 .. A", "unstage one natural", ""
    ),
    ActionField("unstage_deuce", N_RANKS, "rank 4 .. A", "unstage one deuce from the row", ""),
    ActionField("unstage_joker", N_RANKS, "rank 4 .. A", "unstage one joker from the row", ""),
    ActionField("clear", 1, "", "unstage every staged card", ""),
    ActionField(
        "discard",
        N_DISCARDS,
        "kind: black three, 4 .. A, deuce, joker",
        "meld the staged cards (if any) and discard one card of the kind: the turn ends "
        "(the last card goes out)",
        "R-20, R-23, R-24, R-40, R-60..R-64",
    ),
    ActionField(
        "go_out",
        1,
        "",
        "meld the staged cards and go out without a discard: they empty the hand, or leave one "
        "card that completes the canasta the side needs and is melded too",
        "R-40..R-42, R-63",
    ),
    ActionField(
        "end_deal",
        1,
        "",
        "after drawing a red three as the last stock card: meld the staged cards (if any, by "
        "switch) and end the deal without a discard",
        "R-45",
    ),
)


def _action_offsets(fields: tuple[ActionField, ...]) -> tuple[ActionField, ...]:
    out, offset = [], 0
    for f in fields:
        out.append(f._replace(offset=offset))
        offset += f.count
    return tuple(out)


#: The fine-grained action space (:mod:`canasta_sim.nb.actions`): one entry per block of ids,
#: in id order. ``docs/environment.md`` is written from it.
ACTION_LAYOUT = _action_offsets(_ACTION_FIELDS)
#: First id of each block: ``ActionSlot.discard + kind - BLACK_THREE`` (folded into kernels).
ActionSlot: Any = namedtuple("ActionSlot", [f.name for f in ACTION_LAYOUT])(
    *(f.offset for f in ACTION_LAYOUT)
)
#: Number of fine-grained action ids.
N_ACTIONS = ACTION_LAYOUT[-1].offset + ACTION_LAYOUT[-1].count
#: The environment's observation: the observation array (:data:`OBS_LEN` slots) followed by the
#: staged cards, meld rows black three .. ace by naturals, deuces, jokers.
ENV_OBS_LEN = OBS_LEN + OBS_RANKS * 3


# --- the staged cards -----------------------------------------------------------------------
@inline_kernel
def staged_total_nb(staged):
    """Cards staged (all rows and columns)."""
    n = 0
    for k in range(N_KINDS):
        n += staged[k, 0] + staged[k, 1] + staged[k, 2]
    return n


@inline_kernel
def staged_wilds_nb(staged, col):
    """Wild cards of column ``col`` (deuces or jokers) staged over all rows."""
    n = 0
    for k in range(N_KINDS):
        n += staged[k, col]
    return n


@inline_kernel
def clear_staged_nb(staged):
    for k in range(N_KINDS):
        for c in range(3):
            staged[k, c] = 0


@inline_kernel
def stage_target_nb(action):
    """The row (kind) and column of a stage or unstage id, or ``(-1, -1)``; ``+1`` to stage,
    ``-1`` to unstage, ``0`` for another id."""
    a = action - ActionSlot.stage_natural
    sign = 1
    if a >= OBS_RANKS + 2 * N_RANKS:
        a -= OBS_RANKS + 2 * N_RANKS
        sign = -1
    if a < 0 or a >= OBS_RANKS + 2 * N_RANKS:
        return -1, -1, 0
    if a < OBS_RANKS:
        return BLACK_THREE + a, MeldCol.naturals, sign
    a -= OBS_RANKS
    if a < N_RANKS:
        return FIRST_NATURAL + a, MeldCol.deuces, sign
    return FIRST_NATURAL + a - N_RANKS, MeldCol.jokers, sign


@inline_kernel
def stage_error_nb(state, rules, staged, row, col):
    """Whether one more card may be staged on ``row`` in column ``col``: in the draw phase
    only with a natural on top of the pile (only a pickup can commit it); the card in hand
    beyond those staged; a wild card only on a row with naturals (the side's meld, staged
    naturals or the pile's top card in the draw phase). Returns a MoveError."""
    g = state.g
    seat = g[DealSlot.current]
    phase = g[DealSlot.phase]
    top = pile_top_nb(state) if phase == Phase.draw else -1
    if phase == Phase.over or (phase == Phase.draw and (top < FIRST_NATURAL or top > LAST_NATURAL)):
        return MoveError.phase
    hand = state.hands[seat]
    if col == MeldCol.naturals:
        return MoveError.ok if hand[row] > staged[row, col] else MoveError.not_in_hand
    kind = DEUCE if col == MeldCol.deuces else JOKER
    if hand[kind] <= staged_wilds_nb(staged, col):
        return MoveError.not_in_hand
    side = rules[RuleSlot.side_of + seat]
    if state.melds[side, row, MeldCol.naturals] + staged[row, MeldCol.naturals] == 0 and row != top:
        return MoveError.new_meld
    return MoveError.ok


# --- the mask ---------------------------------------------------------------------------------
@kernel
def action_mask_nb(state, rules, staged, scratch, plan, no_log, mask):
    """Write the legal-action mask of the seat to play into ``mask``.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    staged : ndarray(int8, (N_KINDS, 3))
        The staged cards.
    scratch : record of STATE_DTYPE, overwritten
        Where the staged cards are melded to judge the moves after them.
    plan : ndarray(int8, (N_KINDS, 3)), overwritten
        Work plan of the pickups.
    no_log : ndarray(int32, (0, EV_LEN))
        No rows: the trial moves record nothing.
    mask : ndarray(bool, (N_ACTIONS,)), written

    Returns
    -------
    int
        Legal ids.
    """
    g = state.g
    for a in range(N_ACTIONS):
        mask[a] = False
    phase = g[DealSlot.phase]
    if phase == Phase.over:
        return 0
    n = 0
    if phase == Phase.draw:
        if check_draw_step_nb(state, rules) == MoveError.ok:
            mask[ActionSlot.draw] = True
            n += 1
        top = pile_top_nb(state)
        if FIRST_NATURAL <= top <= LAST_NATURAL:
            for way in range(N_PICKUP_WAYS):
                if check_pickup_nb(state, rules, np.int64(way), staged, plan) == MoveError.ok:
                    mask[ActionSlot.take + way] = True
                    n += 1
    else:
        n += play_mask_nb(state, rules, staged, scratch, no_log, mask)
    for a in range(ActionSlot.stage_natural, ActionSlot.unstage_natural):
        row, col, _sign = stage_target_nb(a)
        if stage_error_nb(state, rules, staged, row, col) == MoveError.ok:
            mask[a] = True
            n += 1
    for a in range(ActionSlot.unstage_natural, ActionSlot.clear):
        row, col, _sign = stage_target_nb(a)
        if staged[row, col] > 0:
            mask[a] = True
            n += 1
    if staged_total_nb(staged) > 0:
        mask[ActionSlot.clear] = True
        n += 1
    return n


@inline_kernel
def play_mask_nb(state, rules, staged, scratch, no_log, mask):
    """The play phase's committing ids of :func:`action_mask_nb`: discards, going out and
    ending the deal, each after melding the staged cards (on ``scratch``)."""
    g = state.g
    seat = g[DealSlot.current]
    total = staged_total_nb(staged)
    after = state  # the state the discard is judged in: after the staged melds
    if total > 0:
        err, _out, _concealed = check_meld_nb(state, rules, staged)
        if err != MoveError.ok:
            return 0
        copy_state_nb(scratch, state)
        meld_nb(scratch, rules, staged, no_log)
        after = scratch
    n = 0
    if after.g[DealSlot.phase] == Phase.play:
        for i in range(N_DISCARDS):
            if check_discard_nb(after, rules, np.int64(BLACK_THREE + i)) == MoveError.ok:
                mask[ActionSlot.discard + i] = True
                n += 1
        if after.g[DealSlot.last_red_three] != 0:
            mask[ActionSlot.end_deal] = True
            n += 1
    if state.hand_sizes[seat] - total <= 1 and (total > 0 or state.hand_sizes[seat] == 1):
        if total == 0:
            copy_state_nb(scratch, state)
        if scratch.g[DealSlot.phase] == Phase.play:
            meld_last_card_nb(scratch, rules, no_log)
        if scratch.g[DealSlot.out_seat] == seat:
            mask[ActionSlot.go_out] = True
            n += 1
    return n


# --- applying an id ---------------------------------------------------------------------------
@kernel
def apply_action_nb(state, rules, staged, scratch, plan, action, log):
    """Apply fine-grained action ``action`` for the seat to play (R-20..R-24, R-30..R-35,
    R-40..R-47, R-60..R-64): the state and the staged cards change only when it is legal.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Changed in place.
    rules : ndarray(int32, (RULES_LEN,))
    staged : ndarray(int8, (N_KINDS, 3))
        The staged cards, changed in place (cleared when a move commits them).
    scratch : record of STATE_DTYPE, overwritten
    plan : ndarray(int8, (N_KINDS, 3)), overwritten
    action : int64
        An id, ``0 .. N_ACTIONS - 1``.
    log : ndarray(int32, (max_events, EV_LEN))
        Trace log (no rows: nothing recorded).

    Returns
    -------
    int
        MoveError: ``ok``, or why the id is refused (the rule broken; ``phase`` for an id of
        the other phase or a finished deal; ``new_meld`` for a wild card staged on a row
        without naturals; ``nothing_staged`` for unstaging or clearing what is not staged).
    """
    g = state.g
    if g[DealSlot.phase] == Phase.over or action < 0 or action >= N_ACTIONS:
        return MoveError.phase
    row, col, sign = stage_target_nb(action)
    if sign > 0:
        err = stage_error_nb(state, rules, staged, row, col)
        if err == MoveError.ok:
            staged[row, col] += 1
        return err
    if sign < 0:
        if staged[row, col] == 0:
            return MoveError.nothing_staged
        staged[row, col] -= 1
        return MoveError.ok
    if action == ActionSlot.clear:
        if staged_total_nb(staged) == 0:
            return MoveError.nothing_staged
        clear_staged_nb(staged)
        return MoveError.ok
    if action == ActionSlot.draw:
        err = draw_nb(state, rules, log)
    elif action < ActionSlot.take + N_PICKUP_WAYS:
        err = check_pickup_nb(state, rules, np.int64(action - ActionSlot.take), staged, plan)
        if err == MoveError.ok:
            err = take_pile_nb(state, rules, plan, log)
        if err == MoveError.ok:
            clear_staged_nb(staged)
    else:
        err = commit_nb(state, rules, staged, scratch, action, log)
    if g[DealSlot.phase] == Phase.over:
        clear_staged_nb(staged)
    return err


@inline_kernel
def commit_nb(state, rules, staged, scratch, action, log):
    """A discard, going out or ending the deal, after melding the staged cards in the same
    move: made on ``scratch`` and copied back only when every move is legal."""
    g = state.g
    if g[DealSlot.phase] != Phase.play:
        return MoveError.phase
    seat = g[DealSlot.current]
    copy_state_nb(scratch, state)
    if plan_rows_nb(staged, np.int64(-1)) != 0:
        err = meld_nb(scratch, rules, staged, log)
        if err != MoveError.ok:
            return err
    if action == ActionSlot.go_out:
        if scratch.g[DealSlot.phase] == Phase.play:
            meld_last_card_nb(scratch, rules, log)
        err = MoveError.ok if scratch.g[DealSlot.out_seat] == seat else MoveError.going_out
    elif action == ActionSlot.end_deal:
        err = end_turn_nb(scratch, rules, log)
    else:
        err = discard_nb(scratch, rules, np.int64(BLACK_THREE + action - ActionSlot.discard), log)
    if err == MoveError.ok:
        copy_state_nb(state, scratch)
        clear_staged_nb(staged)
    return err


# --- the environment's observation ------------------------------------------------------------
@kernel
def env_observe_nb(state, rules, staged, seat, out):
    """Write what ``seat`` knows into ``out``: the observation array
    (:func:`.engine.observation.observe_nb`, the first ``OBS_LEN`` slots), then the staged
    cards by meld row black three .. ace and column naturals, deuces, jokers, which only the
    seat to play sees (its own hand's cards; zero for every other seat).

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))
    staged : ndarray(int8, (N_KINDS, 3))
    seat : int64
    out : ndarray(int32, (ENV_OBS_LEN,)), written in full
    """
    observe_nb(state, rules, seat, out[:OBS_LEN])
    own = seat == state.g[DealSlot.current] and state.g[DealSlot.phase] != Phase.over
    for i in range(OBS_RANKS):
        for c in range(3):
            out[OBS_LEN + 3 * i + c] = staged[BLACK_THREE + i, c] if own else 0
