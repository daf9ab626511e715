"""The start of a deal: shuffle, deal, turn the upcard and replace red threes (R-10..R-16),
and which cards cover the upcard or freeze the pile (R-12, R-13, R-24, R-31)."""

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    N_KINDS,
    RED_THREE,
    DealSlot,
    Event,
    RuleSlot,
    SideSlot,
    Source,
)
from ..jit import inline_kernel, kernel
from .rng import below_nb
from .state import log_event_nb, reset_state_nb


@inline_kernel
def pack_count_nb(n_cards, kind):
    """Cards of ``kind`` in a pack of ``n_cards`` cards (R-01, R-02): per 54-card deck 2 red
    threes, 2 black threes and 2 jokers, 4 of every other kind."""
    decks = n_cards // 54
    if kind == RED_THREE or kind == BLACK_THREE or kind == JOKER:
        return 2 * decks
    return 4 * decks


@inline_kernel
def fill_pack_nb(stock, n_cards):
    """Write the unshuffled pack into ``stock`` (R-01, R-02): the kinds in count-array order,
    :func:`pack_count_nb` cards of each."""
    i = 0
    for kind in range(N_KINDS):
        for _ in range(pack_count_nb(n_cards, kind)):
            stock[i] = kind
            i += 1


@inline_kernel
def shuffle_nb(stock, n_cards, rng):
    """Fisher-Yates shuffle of the first ``n_cards`` cards of ``stock`` in place, drawing from
    ``rng``."""
    for i in range(n_cards - 1, 0, -1):
        j = below_nb(rng, i + 1)
        stock[i], stock[j] = stock[j], stock[i]


@inline_kernel
def is_upcard_cover_nb(kind, rules):
    """R-12: the pile's top card must be covered while it is one of these kinds."""
    if kind == DEUCE or kind == JOKER or kind == RED_THREE:
        return True
    return kind == BLACK_THREE and rules[RuleSlot.upcard_covers_black_three] != 0


@inline_kernel
def freezes_pile_nb(kind, rules):
    """R-13, R-24, R-31: a wild card (or a red three, by switch) in the pile freezes it."""
    if kind == DEUCE or kind == JOKER:
        return True
    return kind == RED_THREE and rules[RuleSlot.red_three_upcard_freezes] != 0


@kernel
def turn_upcard_nb(state, rules, log):
    """R-12, R-13: turn stock cards onto the pile until the top may start it."""
    stock, pile, g = state.stock, state.pile, state.g
    n_cards = rules[RuleSlot.n_cards]
    while g[DealSlot.stock_pos] < n_cards:
        kind = stock[g[DealSlot.stock_pos]]
        g[DealSlot.stock_pos] += 1
        pile[g[DealSlot.pile_len]] = kind
        g[DealSlot.pile_len] += 1
        state.pile_counts[kind] += 1
        g[DealSlot.upcard_cards] += 1
        if freezes_pile_nb(kind, rules):
            g[DealSlot.pile_freeze] += 1
        log_event_nb(g, log, Event.upcard, -1, kind, 0, 0, 0, 0)
        if not is_upcard_cover_nb(kind, rules):
            break
    g[DealSlot.frozen_at_start] = 1 if g[DealSlot.pile_freeze] > 0 else 0


@kernel
def replace_red_threes_nb(state, rules, seat, log):
    """R-15: lay out the seat's dealt red threes and draw a replacement for each (a
    replacement red three is laid out, counted as drawn, and replaced in turn)."""
    hands, stock, sides, g = state.hands, state.stock, state.sides, state.g
    side = rules[RuleSlot.side_of + seat]
    dealt = hands[seat, RED_THREE]
    hands[seat, RED_THREE] = 0
    state.hand_sizes[seat] -= dealt
    sides[side, SideSlot.r3_dealt] += dealt
    for _ in range(dealt):
        log_event_nb(g, log, Event.red_three, seat, RED_THREE, 0, 0, 0, Source.dealt)
    for _ in range(dealt):
        while g[DealSlot.stock_pos] < rules[RuleSlot.n_cards]:
            kind = stock[g[DealSlot.stock_pos]]
            g[DealSlot.stock_pos] += 1
            log_event_nb(g, log, Event.draw, seat, kind, 0, 0, 0, 0)
            if kind != RED_THREE:
                hands[seat, kind] += 1
                state.hand_sizes[seat] += 1
                break
            sides[side, SideSlot.r3_drawn] += 1
            log_event_nb(g, log, Event.red_three, seat, RED_THREE, 0, 0, 0, Source.drawn)


@kernel
def start_deal_nb(state, rules, seed, dealer, minimums, log):
    """Shuffle, deal, turn the upcard and replace red threes (R-10..R-16).

    Parameters
    ----------
    state : record of STATE_DTYPE
        A state from :func:`new_state`, overwritten.
    rules : ndarray(int32, (RULES_LEN,))
    seed : uint64
        The deal's seed (see :func:`rng.deal_seed_nb`).
    dealer : int
        Dealer's seat; the player to the left, ``(dealer + 1) % players``, plays first.
    minimums : ndarray(int32, (n_sides,))
        Each side's minimum count for this deal (points, R-64).
    log : ndarray(int32, (max_events, EV_LEN))
        Trace log; zero rows to record nothing.
    """
    hands, stock, sides, g, rng = state.hands, state.stock, state.sides, state.g, state.rng
    reset_state_nb(state)
    players = rules[RuleSlot.players]
    rng[0] = seed
    fill_pack_nb(stock, rules[RuleSlot.n_cards])
    shuffle_nb(stock, rules[RuleSlot.n_cards], rng)
    for s in range(rules[RuleSlot.sides]):
        sides[s, SideSlot.minimum] = minimums[s]
    g[DealSlot.dealer] = dealer
    first = rules[RuleSlot.next_seat + dealer]
    seat = first
    for i in range(
        rules[RuleSlot.deal_size] * players
    ):  # one card at a time, from the dealer's left
        hands[seat, stock[i]] += 1
        state.hand_sizes[seat] += 1
        seat = rules[RuleSlot.next_seat + seat]
    g[DealSlot.stock_pos] = rules[RuleSlot.deal_size] * players
    turn_upcard_nb(state, rules, log)
    for _ in range(players):
        replace_red_threes_nb(state, rules, seat, log)
        seat = rules[RuleSlot.next_seat + seat]
    g[DealSlot.current] = first
