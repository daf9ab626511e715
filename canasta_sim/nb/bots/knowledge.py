"""What a seat may read from the table, and the estimates bots draw from it.

Everything here reads only what a real player knows: the own hand, the melds on the table, the
red threes laid out, the discard pile's contents (public, R-20: everyone sees the discards), the
stock size and the other players' hand sizes (the running counts ``hand_sizes``,
``pile_counts`` and ``melded`` of the state). Other hands and the stock order are never read.
"""

from ..engine.deal import pack_count_nb
from ..engine.melds import meld_size_nb
from ..enums import (
    BLACK_THREE,
    DEUCE,
    FIRST_NATURAL,
    JOKER,
    LAST_NATURAL,
    DealSlot,
    MeldCol,
    RuleSlot,
    SideSlot,
)
from ..jit import inline_kernel


@inline_kernel
def pile_memory_nb(state, rules):
    """What the discard pile (public: every player sees the discards) tells of the next player,
    as two bit masks over kinds: the ranks they saw on top of the pile and did not take (they
    lacked a pair then), and the ranks they discarded. Every turn ends with one discard, so
    while the pile has not been taken its cards above the upcard came from consecutive players,
    the top one from the current player's right-hand neighbour."""
    pile, g = state.pile, state.g
    n = g[DealSlot.pile_len]
    players = rules[RuleSlot.players]
    # pile[n - b] came from the player b seats before the current one: b = players is the
    # current player (the next player passed on it), b = players - 1 the next player
    base = g[DealSlot.upcard_cards] if n == g[DealSlot.upcard_cards] + g[DealSlot.turn] else 0
    passed = 0
    discarded = 0
    i = n - players + 1  # while loops: a range with a variable step divides to count its steps
    while i > base:
        discarded |= 1 << pile[i]
        passed |= 1 << pile[i - 1]
        i -= players
    if i == base:
        discarded |= 1 << pile[i]
    return passed, discarded


@inline_kernel
def unseen_wilds_nb(state, rules, seat):
    """Wild cards that ``seat`` cannot see: deuces and jokers not in its hand, not on the
    table, not in the discard pile."""
    hands, pile_counts, melded = state.hands, state.pile_counts, state.melded
    deuces = (
        pack_count_nb(rules[RuleSlot.n_cards], DEUCE)
        - hands[seat, DEUCE]
        - pile_counts[DEUCE]
        - melded[DEUCE]
    )
    jokers = (
        pack_count_nb(rules[RuleSlot.n_cards], JOKER)
        - hands[seat, JOKER]
        - pile_counts[JOKER]
        - melded[JOKER]
    )
    return max(deuces, 0) + max(jokers, 0)


@inline_kernel
def unknown_cards_nb(state, rules, seat):
    """Cards ``seat`` cannot see: the stock plus the other players' hands (sizes are public)."""
    g = state.g
    n = rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]
    for p in range(rules[RuleSlot.players]):
        if p != seat:
            n += state.hand_sizes[p]
    return n


@inline_kernel
def next_player_odds_nb(state, rules, bot, seat):
    """``(q, p_wild)`` for :func:`~.discards.take_chance_nb`: the chance that one unseen card
    sits in the next player's hand (their hand size over the unknown cards) and that they hold
    at least one of the unseen wild cards. Fills ``bot.powers`` with ``(1 - q) ** i`` for
    ``i`` from 0 to the cards of a rank or of wild cards in the pack, whichever is more: a
    table, because chains of multiplications were a tenth of the discard choice's time."""
    powers = bot.powers
    nxt = rules[RuleSlot.next_seat + seat]
    unknown = unknown_cards_nb(state, rules, seat)
    h = state.hand_sizes[nxt]
    q = h / unknown if unknown > 0 else 0.0
    if q > 1.0:
        q = 1.0
    w = unseen_wilds_nb(state, rules, seat)
    decks = rules[RuleSlot.n_cards] // 54
    miss = 1.0 - q
    powers[0] = 1.0
    for i in range(1, 6 * decks + 1):  # 6 wild cards and 4 cards of a rank per deck
        powers[i] = powers[i - 1] * miss
    return q, 1.0 - powers[w]


@inline_kernel
def side_table_points_nb(state, rules, side):
    """Points a side has secured on the table (R-50, R-51, R-53): card values in its melds,
    canasta bonuses and red threes (negative while it has no meld)."""
    melds, sides = state.melds, state.sides
    pts = 0
    for r in range(BLACK_THREE, LAST_NATURAL + 1):
        d = melds[side, r, MeldCol.deuces]
        j = melds[side, r, MeldCol.jokers]
        n = melds[side, r, MeldCol.naturals]
        pts += (
            n * rules[RuleSlot.values + r]
            + d * rules[RuleSlot.values + DEUCE]
            + j * rules[RuleSlot.values + JOKER]
        )
        if r != BLACK_THREE and n + d + j >= 7:
            pts += (
                rules[RuleSlot.natural_canasta_bonus]
                if d + j == 0
                else rules[RuleSlot.mixed_canasta_bonus]
            )
    red = rules[
        RuleSlot.red_three_table
        + sides[side, SideSlot.r3_dealt]
        + sides[side, SideSlot.r3_drawn]
        + sides[side, SideSlot.r3_pile]
    ]
    pts += red if sides[side, SideSlot.melded] != 0 else -red
    return pts


@inline_kernel
def opponents_threaten_nb(state, rules, seat, max_cards):
    """Whether an opponent may go out soon: their side has the canastas needed to go out (or one
    fewer and a meld of 6) and one of its players holds at most ``max_cards`` cards."""
    melds = state.melds
    n_sides = rules[RuleSlot.sides]
    mine = rules[RuleSlot.side_of + seat]
    need = rules[RuleSlot.canastas_to_go_out]
    for s in range(n_sides):
        if s == mine:
            continue
        c = state.sides[s, SideSlot.canastas]
        if c < need - 1:
            continue
        if c < need:
            near = False
            for r in range(FIRST_NATURAL, LAST_NATURAL + 1):
                if meld_size_nb(melds, s, r) == 6:
                    near = True
            if not near:
                continue
        for p in range(s, rules[RuleSlot.players], n_sides):
            if state.hand_sizes[p] <= max_cards:
                return True
    return False


@inline_kernel
def stock_left_nb(state, rules):
    g = state.g
    return rules[RuleSlot.n_cards] - g[DealSlot.stock_pos]
