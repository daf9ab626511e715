"""What one seat knows, as one fixed-length integer array: the observation.

:func:`observe_nb` writes it from the deal state; the layout is the table
:data:`canasta_sim.nb.enums.OBS_LAYOUT` (slots :data:`~canasta_sim.nb.enums.ObsSlot`, documented
in ``docs/observation.md``). It reads only what the seat may know: its own hand, the cards known
to be in the other hands, the public table, and counts. The other hands' unknown cards and the
stock order are never read, so two deals that differ only in them give the same array.

Seat-relative: seats are counted from the observer (0 the observer, 1 the next player in turn
order, ...) and sides from the observer's side (with ``players`` a multiple of ``sides``, the
seat ``i`` places after the observer plays for side ``i % sides``). One length
(:data:`~canasta_sim.nb.enums.OBS_LEN`) for every table, sized for the largest (6 players, 3
sides, 162 cards): one layout, one kernel and batches that mix tables; a smaller table leaves
the rows of absent seats and sides, and the pile's free places, at their ``pad`` value.
"""

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    MAX_CARDS,
    MAX_PLAYERS,
    N_KINDS,
    OBS_RANKS,
    RED_THREE,
    DealSlot,
    MeldCol,
    MeldFlag,
    ObsSlot,
    Phase,
    RuleSlot,
    SeatSlot,
    SideSlot,
)
from ..jit import inline_kernel, kernel
from .deal import pack_count_nb


@kernel
def observe_nb(state, rules, seat, out):
    """Write what ``seat`` knows into ``out`` (layout :data:`~canasta_sim.nb.enums.OBS_LAYOUT`).

    Parameters
    ----------
    state : record of STATE_DTYPE
        The deal (read only; the other hands' unknown cards and the stock order are not read).
    rules : ndarray(int32, (RULES_LEN,))
    seat : int64
        The observer, ``0 .. players - 1``.
    out : ndarray(int32, (OBS_LEN,))
        Written in full (no allocation).
    """
    g, sides = state.g, state.sides
    players = rules[RuleSlot.players]
    n_sides = rules[RuleSlot.sides]
    n_cards = rules[RuleSlot.n_cards]
    side = rules[RuleSlot.side_of + seat]
    play = g[DealSlot.phase] == Phase.play
    turn = g[DealSlot.turn]
    current = g[DealSlot.current]
    pile_len = g[DealSlot.pile_len]
    out[:] = 0
    out[ObsSlot.players] = players
    out[ObsSlot.sides] = n_sides
    out[ObsSlot.phase] = g[DealSlot.phase]
    out[ObsSlot.current] = (current - seat + players) % players
    # the player to the dealer's left played turn 0 and turns pass left, so the dealer
    # follows from the turn; a position built by hand has no other dealer
    out[ObsSlot.dealer] = ((current - 1 - turn - seat) % players + players) % players
    out[ObsSlot.turn] = turn
    out[ObsSlot.max_turns] = rules[RuleSlot.max_turns]
    out[ObsSlot.stock_size] = n_cards - g[DealSlot.stock_pos]
    out[ObsSlot.pile_size] = pile_len
    top = state.pile[pile_len - 1] if pile_len > 0 else -1
    out[ObsSlot.pile_top] = top
    out[ObsSlot.pile_freeze] = g[DealSlot.pile_freeze]
    frozen = g[DealSlot.pile_freeze] > 0 or sides[side, SideSlot.melded] == 0
    out[ObsSlot.pile_frozen] = 1 if frozen else 0
    out[ObsSlot.pile_blocked] = 1 if top == BLACK_THREE else 0
    out[ObsSlot.upcard_cards] = g[DealSlot.upcard_cards]
    if play:
        out[ObsSlot.last_red_three] = 1 if g[DealSlot.last_red_three] != 0 else 0
        out[ObsSlot.touched_old] = 1 if g[DealSlot.touched_old] != 0 else 0
        for k in range(N_KINDS):
            out[ObsSlot.from_pile_counts + k] = g[DealSlot.pile_cards + k]
    for k in range(N_KINDS):
        out[ObsSlot.hand_counts + k] = state.hands[seat, k]
        out[ObsSlot.unseen_counts + k] = pack_count_nb(n_cards, k) - state.hands[seat, k]
    for i in range(pile_len):
        out[ObsSlot.pile_codes + i] = state.pile[i]
        out[ObsSlot.unseen_counts + state.pile[i]] -= 1
    for i in range(pile_len, MAX_CARDS):
        out[ObsSlot.pile_codes + i] = -1
    observe_seats_nb(state, rules, seat, out)
    observe_sides_nb(state, rules, side, out)


@inline_kernel
def observe_seats_nb(state, rules, seat, out):
    """The per-seat blocks of :func:`observe_nb` (hand sizes, known cards, first melds), seats
    counted from ``seat``; the known cards leave the unseen counts."""
    players = rules[RuleSlot.players]
    for i in range(MAX_PLAYERS):
        if i >= players:
            out[ObsSlot.seat_first_meld_turns + i] = -1
            continue
        p = (seat + i) % players
        out[ObsSlot.seat_hand_sizes + i] = state.hand_sizes[p]
        out[ObsSlot.seat_first_meld_turns + i] = state.seats[p, SeatSlot.first_meld_turn]
        if i > 0:  # the observer's whole hand is in hand_counts
            for k in range(N_KINDS):
                out[ObsSlot.seat_known_counts + i * N_KINDS + k] = state.known[p, k]
                out[ObsSlot.unseen_counts + k] -= state.known[p, k]


@inline_kernel
def observe_sides_nb(state, rules, side, out):
    """The per-side blocks of :func:`observe_nb` (melds and their flags, canastas, red
    threes, scores, minimum counts, initial meld), sides counted from ``side``; the cards
    laid out leave the unseen counts."""
    g, sides, melds = state.g, state.sides, state.melds
    n_sides = rules[RuleSlot.sides]
    play = g[DealSlot.phase] == Phase.play
    turn = g[DealSlot.turn]
    for j in range(n_sides):
        s = (side + j) % n_sides
        out[ObsSlot.side_canastas + j] = sides[s, SideSlot.canastas]
        red_threes = (
            sides[s, SideSlot.r3_dealt] + sides[s, SideSlot.r3_drawn] + sides[s, SideSlot.r3_pile]
        )
        out[ObsSlot.side_red_threes + j] = red_threes
        out[ObsSlot.unseen_counts + RED_THREE] -= red_threes
        out[ObsSlot.side_scores + j] = sides[s, SideSlot.score]
        out[ObsSlot.side_minimums + j] = sides[s, SideSlot.minimum]
        out[ObsSlot.side_melded + j] = 1 if sides[s, SideSlot.melded] != 0 else 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            nat = melds[s, r, MeldCol.naturals]
            deu = melds[s, r, MeldCol.deuces]
            jok = melds[s, r, MeldCol.jokers]
            if nat + deu + jok == 0:
                continue
            out[ObsSlot.unseen_counts + r] -= nat
            out[ObsSlot.unseen_counts + DEUCE] -= deu
            out[ObsSlot.unseen_counts + JOKER] -= jok
            row = j * OBS_RANKS + r - BLACK_THREE
            out[ObsSlot.side_melds + 3 * row + MeldCol.naturals] = nat
            out[ObsSlot.side_melds + 3 * row + MeldCol.deuces] = deu
            out[ObsSlot.side_melds + 3 * row + MeldCol.jokers] = jok
            flags = state.meld_flags[s, r]
            if flags & MeldFlag.concealed:
                out[ObsSlot.side_concealed_canastas + row] = 1
            if play and state.meld_turn[s, r] == turn:
                out[ObsSlot.side_melds_this_turn + row] = 1
                if flags & MeldFlag.pile_cards:
                    out[ObsSlot.side_pile_melds + row] = 1
