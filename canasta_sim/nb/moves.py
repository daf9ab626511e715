"""The moves of a turn (R-20..R-24, R-30..R-35, R-40..R-47) as check-then-apply kernels.

Each public move kernel validates the whole move first and returns an error code (0, or the
rule id the move would break) without touching the state when the move is illegal; only a legal
move mutates the state. Bots call the same kernels, so they cannot make illegal moves.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: lowest set bit

from .jit import inline_kernel, kernel
from .layout import (
    BLACK_THREE,
    DEUCE,
    E_DISCARD,
    E_DRAW,
    E_END,
    E_END_TURN,
    E_GO_OUT,
    E_MELD,
    E_RED_THREE,
    E_TAKE_PILE,
    END_LAST_RED_THREE,
    END_STOCK_EXHAUSTED,
    END_TURN_LIMIT,
    END_WENT_OUT,
    ERR_NOT_IN_HAND,
    ERR_PHASE,
    FLAG_CONCEALED,
    FLAG_PILE_CARDS,
    G_CONCEALED_OUT,
    G_CURRENT,
    G_END,
    G_FIRST_CANASTA_TURN,
    G_LAST_RED_THREE,
    G_MOVE,
    G_OUT_SEAT,
    G_PHASE,
    G_PILE_CARDS,
    G_PILE_FREEZE,
    G_PILE_LEN,
    G_STOCK_POS,
    G_TOUCHED_OLD,
    G_TURN,
    JOKER,
    M_DEUCES,
    M_JOKERS,
    M_NATURALS,
    N_KINDS,
    OK,
    P_FIRST_MELD_TURN,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    R_CANASTAS_TO_GO_OUT,
    R_DRAW_COUNT,
    R_MAX_TURNS,
    R_MELD_AFTER_LAST_RED_THREE,
    R_N_CARDS,
    R_NEXT_SEAT,
    R_SIDE_OF,
    RED_THREE,
    S_CANASTAS,
    S_MELD_RANKS,
    S_MELDED,
    S_R3_DRAWN,
    S_R3_PILE,
    SOURCE_DRAWN,
    SOURCE_PILE,
)
from .melds import (
    canasta_started_nb,
    check_plan_nb,
    last_card_meld_nb,
    meld_size_nb,
    plan_rows_nb,
)
from .state import freezes_pile_nb, log_event_nb


# --- ending the turn and the deal -------------------------------------------------------------
@kernel
def end_deal_nb(state, reason, log):
    g = state.g
    g[G_END] = reason
    g[G_PHASE] = PHASE_OVER
    log_event_nb(g, log, E_END, -1, g[G_TURN], 0, 0, 0, reason)


@kernel
def go_out_nb(state, seat, concealed_out, log):
    """R-40, R-42: the seat went out (concealed or not); the deal ends."""
    g = state.g
    g[G_OUT_SEAT] = seat
    g[G_CONCEALED_OUT] = 1 if concealed_out else 0
    log_event_nb(g, log, E_GO_OUT, seat, 0, 0, 0, 0, g[G_CONCEALED_OUT])
    g[G_TURN] += 1
    end_deal_nb(state, np.int64(END_WENT_OUT), log)


@inline_kernel
def next_turn_nb(state, rules, log):
    """Pass the turn to the left; R-47 ends the deal at ``max_turns`` turns."""
    g = state.g
    g[G_TURN] += 1
    g[G_TOUCHED_OLD] = 0
    g[G_PILE_CARDS : G_PILE_CARDS + N_KINDS] = 0
    g[G_CURRENT] = rules[R_NEXT_SEAT + g[G_CURRENT]]
    g[G_PHASE] = PHASE_DRAW
    if g[G_TURN] >= rules[R_MAX_TURNS]:
        end_deal_nb(state, np.int64(END_TURN_LIMIT), log)


# --- melding ------------------------------------------------------------------------------
@inline_kernel
def from_pile_nb(g, hand, kind, used):
    """How many of ``used`` cards of ``kind`` must have come from the pile taken this turn,
    taking the player's own cards first; those are booked out of ``G_PILE_CARDS``."""
    own = hand[kind] - g[G_PILE_CARDS + kind]
    extra = used - own if used > own else 0
    g[G_PILE_CARDS + kind] -= extra
    return extra


@kernel
def apply_plan_nb(state, rules, seat, plan, top, log):
    """Move a checked plan's cards (plus the pile's top card ``top``, or -1) to the melds, and
    keep the bookkeeping of R-42 (melds started this turn, additions to older melds) and R-66
    (a canasta is concealed if started and completed this turn from the hand, using at most
    the pile's top card)."""
    hands, melds, meld_turn, meld_flags, sides, seats, g = (
        state.hands,
        state.melds,
        state.meld_turn,
        state.meld_flags,
        state.sides,
        state.seats,
        state.g,
    )
    melded = state.melded
    side = rules[R_SIDE_OF + seat]
    turn = g[G_TURN]
    hand = hands[seat]
    rows = plan_rows_nb(plan, top)
    while rows != 0:
        r = trailing_zeros(rows)
        rows &= rows - 1
        t = 1 if r == top else 0
        a, d, j = plan[r, M_NATURALS], plan[r, M_DEUCES], plan[r, M_JOKERS]
        old = meld_size_nb(melds, side, r)
        if old == 0:
            meld_turn[side, r] = turn
            meld_flags[side, r] = 0
            sides[side, S_MELD_RANKS] |= 1 << r
        elif meld_turn[side, r] < turn:
            g[G_TOUCHED_OLD] = 1
        pile_cards = from_pile_nb(g, hand, r, a) + from_pile_nb(g, hand, DEUCE, d)
        if pile_cards + from_pile_nb(g, hand, JOKER, j) > 0:
            meld_flags[side, r] |= FLAG_PILE_CARDS
        hand[r] -= a
        hand[DEUCE] -= d
        hand[JOKER] -= j
        state.hand_sizes[seat] -= a + d + j
        melds[side, r, M_NATURALS] += a + t
        melds[side, r, M_DEUCES] += d
        melds[side, r, M_JOKERS] += j
        melded[r] += a + t
        melded[DEUCE] += d
        melded[JOKER] += j
        if old < 7 and old + a + d + j + t >= 7 and r != BLACK_THREE:
            sides[side, S_CANASTAS] += 1
            if meld_turn[side, r] == turn and not meld_flags[side, r] & FLAG_PILE_CARDS:
                meld_flags[side, r] |= FLAG_CONCEALED
            if g[G_FIRST_CANASTA_TURN] < 0:
                g[G_FIRST_CANASTA_TURN] = turn
        if t == 0:
            log_event_nb(g, log, E_MELD, seat, r, a, d, j, 0)
    sides[side, S_MELDED] = 1
    if seats[seat, P_FIRST_MELD_TURN] < 0:
        seats[seat, P_FIRST_MELD_TURN] = turn


@kernel
def meld_nb(state, rules, plan, log):
    """Meld from hand for the current player (R-20 step 2, R-60..R-64): every row of ``plan``
    creates or extends the side's meld of that rank; the rows count together toward the
    minimum count. Returns 0 or the rule id broken (state unchanged)."""
    g = state.g
    if g[G_PHASE] != PHASE_PLAY:
        return ERR_PHASE
    seat = g[G_CURRENT]
    if g[G_LAST_RED_THREE] != 0 and rules[R_MELD_AFTER_LAST_RED_THREE] == 0:
        return 45
    err, going_out, concealed_out = check_plan_nb(
        state, rules, seat, plan, np.int64(-1), np.int64(0)
    )
    if err != OK:
        return err
    g[G_MOVE] += 1
    apply_plan_nb(state, rules, seat, plan, np.int64(-1), log)
    if state.hand_sizes[seat] == 0:
        go_out_nb(state, seat, concealed_out, log)
    return OK


@kernel
def meld_last_card_nb(state, rules, log):
    """R-40 judged on the whole turn: when the current player holds one card that the side
    cannot discard yet (too few canastas) but that completes the canasta it lacks on one of
    its melds, add it there and go out. Returns True if it did.

    A legal turn can leave this position (a pickup whose rest of the pile leaves one card, or
    melds down to one card): the move kernels allow it only when this move exists.
    """
    g = state.g
    if g[G_PHASE] != PHASE_PLAY or g[G_LAST_RED_THREE] != 0:
        return False
    seat = g[G_CURRENT]
    side = rules[R_SIDE_OF + seat]
    if state.hand_sizes[seat] != 1 or state.sides[side, S_CANASTAS] >= rules[R_CANASTAS_TO_GO_OUT]:
        return False
    hand = state.hands[seat]
    plan = state.zero_plan  # kernels cannot allocate: the empty plan is borrowed, then emptied
    r = last_card_meld_nb(state, rules, side, hand, plan, np.int64(-1), np.int64(0), np.int64(0))
    if r < 0:
        return False
    col = M_DEUCES if hand[DEUCE] > 0 else (M_JOKERS if hand[JOKER] > 0 else M_NATURALS)
    plan[r, col] = 1
    err = meld_nb(state, rules, plan, log)
    plan[r, col] = 0
    return err == OK


# --- drawing --------------------------------------------------------------------------------
@kernel
def pile_top_nb(state):
    pile, g = state.pile, state.g
    if g[G_PILE_LEN] == 0:
        return -1
    return pile[g[G_PILE_LEN] - 1]


@kernel
def forced_take_nb(state, rules, seat):
    """R-44: with the stock empty, must ``seat`` take the pile? Yes when putting the top card
    on the side's meld is a legal pickup (unfrozen for them, a meld of its rank, R-33 c, and
    the rest of the move legal, R-35, R-40). Otherwise the player cannot take it and the deal
    ends, rather than leaving them no legal move."""
    err, _out, _conc = check_take_nb(state, rules, seat, state.zero_plan)
    return err == OK


@kernel
def draw_nb(state, rules, log):
    """Draw from the stock (R-16, R-20, R-44..R-46) for the current player.

    With an empty stock the deal ends (``stock_exhausted``) unless R-44 forces the player to
    take the pile (error 44). A drawn red three is laid out and replaced; a red three as the
    last stock card leaves the player able to meld only (R-45). Returns 0 or the rule id."""
    hands, stock, sides, g = state.hands, state.stock, state.sides, state.g
    if g[G_PHASE] != PHASE_DRAW:
        return ERR_PHASE
    seat = g[G_CURRENT]
    n_cards = rules[R_N_CARDS]
    if g[G_STOCK_POS] >= n_cards:
        if forced_take_nb(state, rules, seat):
            return 44
        end_deal_nb(state, np.int64(END_STOCK_EXHAUSTED), log)
        return OK
    g[G_MOVE] += 1
    side = rules[R_SIDE_OF + seat]
    need = rules[R_DRAW_COUNT]
    while need > 0 and g[G_STOCK_POS] < n_cards:
        kind = stock[g[G_STOCK_POS]]
        g[G_STOCK_POS] += 1
        log_event_nb(g, log, E_DRAW, seat, kind, 0, 0, 0, 0)
        if kind == RED_THREE:
            sides[side, S_R3_DRAWN] += 1
            log_event_nb(g, log, E_RED_THREE, seat, RED_THREE, 0, 0, 0, SOURCE_DRAWN)
            if g[G_STOCK_POS] >= n_cards:
                if rules[R_MELD_AFTER_LAST_RED_THREE] == 0:
                    # the turn ends at once, without a discard: a turn like any other
                    log_event_nb(g, log, E_END_TURN, seat, 0, 0, 0, 0, 0)
                    g[G_TURN] += 1
                    end_deal_nb(state, np.int64(END_LAST_RED_THREE), log)
                    return OK
                g[G_LAST_RED_THREE] = 1
        else:
            hands[seat, kind] += 1
            state.hand_sizes[seat] += 1
            need -= 1
    g[G_PHASE] = PHASE_PLAY
    return OK


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
        Error code (0 or rule id), going out, concealed going out.
    """
    hands, pile, melds, sides, g = state.hands, state.pile, state.melds, state.sides, state.g
    if g[G_PHASE] != PHASE_DRAW:
        return ERR_PHASE, False, False
    top = pile_top_nb(state)
    if top < 0 or top == BLACK_THREE or top == DEUCE or top == JOKER or top == RED_THREE:
        return 30, False, False
    side = rules[R_SIDE_OF + seat]
    if state.hand_sizes[seat] == 1 and g[G_PILE_LEN] == 1:
        return 35, False, False
    nat = with_plan[top, M_NATURALS]
    wild = with_plan[top, M_DEUCES] + with_plan[top, M_JOKERS]
    if nat > hands[seat, top]:
        return ERR_NOT_IN_HAND, False, False
    frozen = g[G_PILE_FREEZE] > 0 or sides[side, S_MELDED] == 0
    has_meld = meld_size_nb(melds, side, top) > 0
    if frozen and nat < 2:
        return 32, False, False
    if not frozen and not (nat >= 2 or (nat >= 1 and wild >= 1) or has_meld):
        return 33, False, False
    if g[G_STOCK_POS] >= rules[R_N_CARDS] and not (nat >= 2 or has_meld):
        return 44, False, False
    incoming = 0
    for i in range(g[G_PILE_LEN] - 1):
        if pile[i] != RED_THREE:
            incoming += 1
    return check_plan_nb(state, rules, seat, with_plan, top, np.int64(incoming))


@kernel
def take_pile_nb(state, rules, with_plan, log):
    """Take the discard pile for the current player (R-34): meld the top card as
    ``with_plan`` says, then the rest of the pile goes to the hand and its red threes are laid
    out. Returns 0 or the rule id broken (state unchanged)."""
    hands, pile, sides, g = state.hands, state.pile, state.sides, state.g
    seat = g[G_CURRENT]
    err, going_out, concealed_out = check_take_nb(state, rules, seat, with_plan)
    if err != OK:
        return err
    side = rules[R_SIDE_OF + seat]
    top = pile_top_nb(state)
    g[G_MOVE] += 1
    log_event_nb(
        g,
        log,
        E_TAKE_PILE,
        seat,
        top,
        with_plan[top, M_NATURALS],
        with_plan[top, M_DEUCES],
        with_plan[top, M_JOKERS],
        g[G_PILE_LEN],
    )
    apply_plan_nb(state, rules, seat, with_plan, top, log)
    for i in range(g[G_PILE_LEN] - 1):
        kind = pile[i]
        if kind == RED_THREE:  # laid out, not replaced
            sides[side, S_R3_PILE] += 1
            log_event_nb(g, log, E_RED_THREE, seat, RED_THREE, 0, 0, 0, SOURCE_PILE)
        else:
            hands[seat, kind] += 1
            state.hand_sizes[seat] += 1
            g[G_PILE_CARDS + kind] += 1
    g[G_PILE_LEN] = 0
    state.pile_counts[:] = 0
    g[G_PILE_FREEZE] = 0
    g[G_PHASE] = PHASE_PLAY
    if state.hand_sizes[seat] == 0:
        go_out_nb(state, seat, concealed_out, log)
    return OK


# --- discarding -------------------------------------------------------------------------
@inline_kernel
def concealed_now_nb(state, rules, seat):
    """R-42 for a player going out by discarding: first meld this turn, nothing added to older
    melds, and a canasta among the melds started this turn."""
    seats, g = state.seats, state.g
    turn = g[G_TURN]
    if seats[seat, P_FIRST_MELD_TURN] != turn or g[G_TOUCHED_OLD] != 0:
        return False
    return canasta_started_nb(state, rules[R_SIDE_OF + seat], turn)


@kernel
def discard_nb(state, rules, kind, log):
    """Discard one card of ``kind`` (R-20 step 3, R-23, R-24); discarding the last card goes
    out (R-40, needs the side's canastas). Returns 0 or the rule id broken."""
    hands, pile, g = state.hands, state.pile, state.g
    if g[G_PHASE] != PHASE_PLAY:
        return ERR_PHASE
    seat = g[G_CURRENT]
    if kind < 0 or kind >= N_KINDS or hands[seat, kind] <= 0:
        return ERR_NOT_IN_HAND
    if g[G_LAST_RED_THREE] != 0:
        return 45
    side = rules[R_SIDE_OF + seat]
    last = state.hand_sizes[seat] == 1
    if last and state.sides[side, S_CANASTAS] < rules[R_CANASTAS_TO_GO_OUT]:
        return 40
    g[G_MOVE] += 1
    hands[seat, kind] -= 1
    state.hand_sizes[seat] -= 1
    pile[g[G_PILE_LEN]] = kind
    g[G_PILE_LEN] += 1
    state.pile_counts[kind] += 1
    if freezes_pile_nb(kind, rules):
        g[G_PILE_FREEZE] += 1
    log_event_nb(g, log, E_DISCARD, seat, kind, 0, 0, 0, 0)
    if last:
        go_out_nb(state, seat, concealed_now_nb(state, rules, seat), log)
    else:
        next_turn_nb(state, rules, log)
    return OK


@kernel
def end_turn_nb(state, rules, log):
    """R-45: after drawing a red three as the last stock card, end the deal without a
    discard. Returns 0, or 45 when the player is not in that position."""
    g = state.g
    if g[G_PHASE] != PHASE_PLAY:
        return ERR_PHASE
    if g[G_LAST_RED_THREE] == 0:
        return 45
    log_event_nb(g, log, E_END_TURN, g[G_CURRENT], 0, 0, 0, 0, 0)
    g[G_TURN] += 1
    end_deal_nb(state, np.int64(END_LAST_RED_THREE), log)
    return OK
