"""The moves of a turn (R-20..R-24, R-30..R-35, R-40..R-47) as check-then-apply kernels.

Each public move kernel validates the whole move first and returns a
:data:`~canasta_sim.nb.enums.MoveError` (``ok``, or the rule the move would break) without
touching the state when the move is illegal; only a legal move mutates the state. Bots call
the same kernels, so they cannot make illegal moves.
"""

import numpy as np

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    N_KINDS,
    PICKUP_BIN,
    PICKUP_BINS,
    RED_THREE,
    DealSlot,
    EndReason,
    Event,
    MeldCol,
    MoveError,
    Phase,
    RuleSlot,
    SeatSlot,
    SideSlot,
    Source,
)
from ..jit import inline_kernel, kernel
from .deal import freezes_pile_nb
from .melds import (
    apply_plan_nb,
    canasta_started_nb,
    check_plan_nb,
    empty_plan_nb,
    last_card_meld_nb,
    meld_size_nb,
)
from .state import forget_known_nb, log_event_nb


# --- ending the turn and the deal -------------------------------------------------------------
@kernel
def end_deal_nb(state, reason, log):
    g = state.g
    g[DealSlot.end] = reason
    g[DealSlot.phase] = Phase.over
    log_event_nb(g, log, Event.end, -1, g[DealSlot.turn], 0, 0, 0, reason)


@kernel
def go_out_nb(state, seat, concealed_out, log):
    """R-40, R-42: the seat went out (concealed or not); the deal ends."""
    g = state.g
    g[DealSlot.out_seat] = seat
    g[DealSlot.concealed_out] = 1 if concealed_out else 0
    log_event_nb(g, log, Event.go_out, seat, 0, 0, 0, 0, g[DealSlot.concealed_out])
    g[DealSlot.turn] += 1
    end_deal_nb(state, np.int64(EndReason.went_out), log)


@inline_kernel
def next_turn_nb(state, rules, log):
    """Pass the turn to the left; R-47 ends the deal at ``max_turns`` turns."""
    g = state.g
    g[DealSlot.turn] += 1
    g[DealSlot.touched_old] = 0
    g[DealSlot.pile_cards : DealSlot.pile_cards + N_KINDS] = 0
    g[DealSlot.current] = rules[RuleSlot.next_seat + g[DealSlot.current]]
    g[DealSlot.phase] = Phase.draw
    if g[DealSlot.turn] >= rules[RuleSlot.max_turns]:
        end_deal_nb(state, np.int64(EndReason.turn_limit), log)


# --- melding ------------------------------------------------------------------------------
@inline_kernel
def check_meld_nb(state, rules, plan):
    """The check of :func:`meld_nb` for the current player, state unchanged (R-20 step 2,
    R-22, R-40..R-42, R-45, R-60..R-64).

    Returns
    -------
    (int, bool, bool)
        MoveError, whether laying ``plan`` goes out, and whether concealed (R-42).
    """
    g = state.g
    if g[DealSlot.phase] != Phase.play:
        return MoveError.phase, False, False
    if g[DealSlot.last_red_three] != 0 and rules[RuleSlot.meld_after_last_red_three] == 0:
        return MoveError.last_red_three, False, False
    return check_plan_nb(state, rules, g[DealSlot.current], plan, np.int64(-1), np.int64(0))


@kernel
def meld_nb(state, rules, plan, log):
    """Meld from hand for the current player (R-20 step 2, R-60..R-64): every row of ``plan``
    creates or extends the side's meld of that rank; the rows count together toward the
    minimum count. Returns a MoveError (state unchanged unless ``ok``)."""
    g = state.g
    err, _going_out, concealed_out = check_meld_nb(state, rules, plan)
    if err != MoveError.ok:
        return err
    seat = g[DealSlot.current]
    g[DealSlot.move] += 1
    apply_plan_nb(state, rules, seat, plan, np.int64(-1), log)
    if state.hand_sizes[seat] == 0:
        go_out_nb(state, seat, concealed_out, log)
    return MoveError.ok


@kernel
def meld_last_card_nb(state, rules, log):
    """R-40 judged on the whole turn: when the current player holds one card that the side
    cannot discard yet (too few canastas) but that completes the canasta it lacks on one of
    its melds, add it there and go out. Returns True if it did.

    A legal turn can leave this position (a pickup whose rest of the pile leaves one card, or
    melds down to one card): the move kernels allow it only when this move exists.
    """
    g = state.g
    if g[DealSlot.phase] != Phase.play or g[DealSlot.last_red_three] != 0:
        return False
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    if (
        state.hand_sizes[seat] != 1
        or state.sides[side, SideSlot.canastas] >= rules[RuleSlot.canastas_to_go_out]
    ):
        return False
    hand = state.hands[seat]
    plan = empty_plan_nb()
    r = last_card_meld_nb(state, rules, side, hand, plan, np.int64(-1), np.int64(0), np.int64(0))
    if r < 0:
        return False
    if hand[DEUCE] > 0:
        col = MeldCol.deuces
    elif hand[JOKER] > 0:
        col = MeldCol.jokers
    else:
        col = MeldCol.naturals
    plan[r, col] = 1
    return meld_nb(state, rules, plan, log) == MoveError.ok


# --- drawing --------------------------------------------------------------------------------
@kernel
def pile_top_nb(state):
    pile, g = state.pile, state.g
    if g[DealSlot.pile_len] == 0:
        return -1
    return pile[g[DealSlot.pile_len] - 1]


@kernel
def must_take_pile_nb(state, rules, seat):
    """R-44: with the stock empty, must ``seat`` take the pile? Yes when putting the top card
    on the side's meld is a legal pickup (unfrozen for them, a meld of its rank, R-33 c, and
    the rest of the move legal, R-35, R-40). Otherwise the player cannot take it and the deal
    ends, rather than leaving them no legal move."""
    err, _out, _conc = check_take_nb(state, rules, seat, empty_plan_nb())
    return err == MoveError.ok


@inline_kernel
def check_draw_nb(state, rules):
    """The check of :func:`draw_nb` for the current player, state unchanged (R-20, R-44):
    ``phase`` outside the draw phase, ``forced_pickup`` when the stock is empty and the pile
    must be taken, else ``ok`` (with the stock empty, drawing ends the deal)."""
    g = state.g
    if g[DealSlot.phase] != Phase.draw:
        return MoveError.phase
    if g[DealSlot.stock_pos] >= rules[RuleSlot.n_cards] and must_take_pile_nb(
        state, rules, g[DealSlot.current]
    ):
        return MoveError.forced_pickup
    return MoveError.ok


@kernel
def draw_nb(state, rules, log):
    """Draw from the stock (R-16, R-20, R-44..R-46) for the current player.

    With an empty stock the deal ends (``stock_exhausted``) unless R-44 forces the player to
    take the pile (error 44). A drawn red three is laid out and replaced; a red three as the
    last stock card leaves the player able to meld only (R-45). Returns a MoveError."""
    hands, stock, sides, g = state.hands, state.stock, state.sides, state.g
    err = check_draw_nb(state, rules)
    if err != MoveError.ok:
        return err
    seat = g[DealSlot.current]
    n_cards = rules[RuleSlot.n_cards]
    if g[DealSlot.stock_pos] >= n_cards:
        end_deal_nb(state, np.int64(EndReason.stock_exhausted), log)
        return MoveError.ok
    g[DealSlot.move] += 1
    side = rules[RuleSlot.side_of + seat]
    need = rules[RuleSlot.draw_count]
    while need > 0 and g[DealSlot.stock_pos] < n_cards:
        kind = stock[g[DealSlot.stock_pos]]
        g[DealSlot.stock_pos] += 1
        log_event_nb(g, log, Event.draw, seat, kind, 0, 0, 0, 0)
        if kind == RED_THREE:
            sides[side, SideSlot.r3_drawn] += 1
            log_event_nb(g, log, Event.red_three, seat, RED_THREE, 0, 0, 0, Source.drawn)
            if g[DealSlot.stock_pos] >= n_cards:
                if rules[RuleSlot.meld_after_last_red_three] == 0:
                    # the turn ends at once, without a discard: a turn like any other
                    log_event_nb(g, log, Event.end_turn, seat, 0, 0, 0, 0, 0)
                    g[DealSlot.turn] += 1
                    end_deal_nb(state, np.int64(EndReason.last_red_three), log)
                    return MoveError.ok
                g[DealSlot.last_red_three] = 1
        else:
            hands[seat, kind] += 1
            state.hand_sizes[seat] += 1
            need -= 1
    g[DealSlot.phase] = Phase.play
    return MoveError.ok


# --- taking the discard pile ---------------------------------------------------------------
@kernel
def check_take_nb(state, rules, seat, with_plan):
    """Check a pickup of the discard pile (R-30..R-35, R-44, R-64).

    Parameters
    ----------
    with_plan : ndarray(int8, (N_KINDS, 3))
        Cards from hand: the row of the top card's rank holds the cards melded with the top card
        (all zero to put the top card on the side's meld, R-33 c); other rows are further melds
        laid down in the same move, counted toward the minimum together.

    Returns
    -------
    (int, bool, bool)
        MoveError, going out, concealed going out.
    """
    hands, melds, sides, g = state.hands, state.melds, state.sides, state.g
    if g[DealSlot.phase] != Phase.draw:
        return MoveError.phase, False, False
    top = pile_top_nb(state)
    if top < 0 or top == BLACK_THREE or top == DEUCE or top == JOKER or top == RED_THREE:
        return MoveError.pile_top, False, False
    side = rules[RuleSlot.side_of + seat]
    if state.hand_sizes[seat] == 1 and g[DealSlot.pile_len] == 1:
        return MoveError.one_card_pile, False, False
    nat = with_plan[top, MeldCol.naturals]
    wild = with_plan[top, MeldCol.deuces] + with_plan[top, MeldCol.jokers]
    if nat > hands[seat, top]:
        return MoveError.not_in_hand, False, False
    frozen = g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0
    has_meld = meld_size_nb(melds, side, top) > 0
    if frozen and nat < 2:
        return MoveError.frozen_pile, False, False
    if not frozen and not (nat >= 2 or (nat >= 1 and wild >= 1) or has_meld):
        return MoveError.pile_pickup, False, False
    if g[DealSlot.stock_pos] >= rules[RuleSlot.n_cards] and not (nat >= 2 or has_meld):
        return MoveError.forced_pickup, False, False
    # the rest of the pile reaches the hand, less its red threes (laid out, R-34); the top is
    # no red three here
    incoming = g[DealSlot.pile_len] - 1 - state.pile_counts[RED_THREE]
    return check_plan_nb(state, rules, seat, with_plan, top, np.int64(incoming))


@inline_kernel
def tally_pickup_nb(sides, side, cards, naturals):
    """Count a pickup of a pile of ``cards`` cards for ``side`` (records only): with a natural
    pair or more (``naturals`` >= 2), with one natural and wild cards, or onto the side's
    meld (no naturals from hand), and its size bin."""
    sides[side, SideSlot.pickups] += 1
    if naturals >= 2:
        sides[side, SideSlot.pickups_pair] += 1
    elif naturals == 1:
        sides[side, SideSlot.pickups_wild] += 1
    else:
        sides[side, SideSlot.pickups_meld] += 1
    sides[side, SideSlot.pile_taken] += cards
    sides[side, SideSlot.pickup_sizes + min(cards // PICKUP_BIN, PICKUP_BINS - 1)] += 1


@kernel
def take_pile_nb(state, rules, with_plan, log):
    """Take the discard pile for the current player (R-34): meld the top card as
    ``with_plan`` says, then the rest of the pile goes to the hand and its red threes are laid
    out. Returns a MoveError (state unchanged unless ``ok``)."""
    hands, pile, sides, g = state.hands, state.pile, state.sides, state.g
    seat = g[DealSlot.current]
    err, going_out, concealed_out = check_take_nb(state, rules, seat, with_plan)
    if err != MoveError.ok:
        return err
    side = rules[RuleSlot.side_of + seat]
    top = pile_top_nb(state)
    g[DealSlot.move] += 1
    log_event_nb(
        g,
        log,
        Event.take_pile,
        seat,
        top,
        with_plan[top, MeldCol.naturals],
        with_plan[top, MeldCol.deuces],
        with_plan[top, MeldCol.jokers],
        g[DealSlot.pile_len],
    )
    tally_pickup_nb(sides, side, g[DealSlot.pile_len], with_plan[top, MeldCol.naturals])
    apply_plan_nb(state, rules, seat, with_plan, top, log)
    for i in range(g[DealSlot.pile_len] - 1):
        kind = pile[i]
        if kind == RED_THREE:  # laid out, not replaced
            sides[side, SideSlot.r3_pile] += 1
            log_event_nb(g, log, Event.red_three, seat, RED_THREE, 0, 0, 0, Source.pile)
        else:
            hands[seat, kind] += 1
            state.hand_sizes[seat] += 1
            g[DealSlot.pile_cards + kind] += 1
            state.known[seat, kind] += 1
    g[DealSlot.pile_len] = 0
    state.pile_counts[:] = 0
    g[DealSlot.pile_freeze] = 0
    g[DealSlot.phase] = Phase.play
    if state.hand_sizes[seat] == 0:
        go_out_nb(state, seat, concealed_out, log)
    return MoveError.ok


# --- discarding -------------------------------------------------------------------------
@inline_kernel
def concealed_now_nb(state, rules, seat):
    """R-42 for a player going out by discarding: first meld this turn, nothing added to older
    melds, and a canasta among the melds started this turn."""
    seats, g = state.seats, state.g
    turn = g[DealSlot.turn]
    if seats[seat, SeatSlot.first_meld_turn] != turn or g[DealSlot.touched_old] != 0:
        return False
    return canasta_started_nb(state, rules[RuleSlot.side_of + seat], turn)


@inline_kernel
def check_discard_nb(state, rules, kind):
    """The check of :func:`discard_nb` for the current player, state unchanged (R-20 step 3,
    R-40, R-45): the card in hand, no discard after a last-card red three, and discarding the
    last card (going out) only with the side's canastas. Returns a MoveError."""
    g = state.g
    if g[DealSlot.phase] != Phase.play:
        return MoveError.phase
    seat = g[DealSlot.current]
    if kind < 0 or kind >= N_KINDS or state.hands[seat, kind] <= 0:
        return MoveError.not_in_hand
    if g[DealSlot.last_red_three] != 0:
        return MoveError.last_red_three
    side = rules[RuleSlot.side_of + seat]
    last = state.hand_sizes[seat] == 1
    if last and state.sides[side, SideSlot.canastas] < rules[RuleSlot.canastas_to_go_out]:
        return MoveError.going_out
    return MoveError.ok


@kernel
def discard_nb(state, rules, kind, log):
    """Discard one card of ``kind`` (R-20 step 3, R-23, R-24); discarding the last card goes
    out (R-40, needs the side's canastas). Returns a MoveError."""
    hands, pile, g = state.hands, state.pile, state.g
    err = check_discard_nb(state, rules, kind)
    if err != MoveError.ok:
        return err
    seat = g[DealSlot.current]
    side = rules[RuleSlot.side_of + seat]
    last = state.hand_sizes[seat] == 1
    g[DealSlot.move] += 1
    if (kind == DEUCE or kind == JOKER) and g[DealSlot.pile_freeze] == 0 and not last:
        state.sides[side, SideSlot.wild_freezes] += 1  # records only
    if kind == BLACK_THREE and not last:
        state.sides[side, SideSlot.black_three_blocks] += 1  # records only
    hands[seat, kind] -= 1
    state.hand_sizes[seat] -= 1
    forget_known_nb(state.known[seat], kind, np.int64(1))
    pile[g[DealSlot.pile_len]] = kind
    g[DealSlot.pile_len] += 1
    state.pile_counts[kind] += 1
    if freezes_pile_nb(kind, rules):
        g[DealSlot.pile_freeze] += 1
    log_event_nb(g, log, Event.discard, seat, kind, 0, 0, 0, 0)
    if last:
        go_out_nb(state, seat, concealed_now_nb(state, rules, seat), log)
    else:
        next_turn_nb(state, rules, log)
    return MoveError.ok


@inline_kernel
def check_end_turn_nb(state):
    """The check of :func:`end_turn_nb`, state unchanged (R-45): ``ok`` only in the play
    phase of a player who drew a red three as the last stock card."""
    g = state.g
    if g[DealSlot.phase] != Phase.play:
        return MoveError.phase
    if g[DealSlot.last_red_three] == 0:
        return MoveError.last_red_three
    return MoveError.ok


@kernel
def end_turn_nb(state, rules, log):
    """R-45: after drawing a red three as the last stock card, end the deal without a
    discard. Returns ``ok``, or ``last_red_three`` when the player is not in that position."""
    g = state.g
    err = check_end_turn_nb(state)
    if err != MoveError.ok:
        return err
    log_event_nb(g, log, Event.end_turn, g[DealSlot.current], 0, 0, 0, 0, 0)
    g[DealSlot.turn] += 1
    end_deal_nb(state, np.int64(EndReason.last_red_three), log)
    return MoveError.ok
