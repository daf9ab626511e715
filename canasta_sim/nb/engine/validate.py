"""A state validator for tests: card conservation and the running counts, checked in a kernel
so the invariant tests can call it after every move."""

from ..enums import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    LAST_NATURAL,
    N_KINDS,
    RED_THREE,
    DealSlot,
    MeldCol,
    RuleSlot,
    SideSlot,
    StateFault,
)
from ..jit import kernel
from .deal import pack_count_nb


@kernel
def check_state_nb(state, rules):
    """Check a deal state: every card of the pack is somewhere, once, and every running count
    equals a recount.

    Card conservation (R-01, R-02): for every kind, the cards in hands, in the stock (from
    ``g[DealSlot.stock_pos]``), in the discard pile, in all sides' melds (naturals by rank,
    deuces and jokers from every meld) and, for red threes, those laid out (dealt, drawn, from
    the pile) add up to the pack. Running counts (:mod:`.state`): ``hand_sizes``,
    ``pile_counts``, ``melded``, and per side ``SideSlot.canastas`` (melds of 7+ cards, not
    black threes, R-65) and ``SideSlot.meld_ranks``.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only.
    rules : ndarray(int32, (RULES_LEN,))

    Returns
    -------
    (int, int)
        The first :data:`~canasta_sim.nb.enums.StateFault` found (``ok``: none) and where (a
        kind, seat or side, as the fault says; -1 for ``ok``).
    """
    hands, stock, pile, melds, sides, g = (
        state.hands,
        state.stock,
        state.pile,
        state.melds,
        state.sides,
        state.g,
    )
    players = rules[RuleSlot.players]
    n_sides = rules[RuleSlot.sides]
    n_cards = rules[RuleSlot.n_cards]
    for p in range(players):
        size = 0
        for k in range(N_KINDS):
            if hands[p, k] < 0:
                return StateFault.negative, p
            size += hands[p, k]
        if state.hand_sizes[p] != size:
            return StateFault.hand_sizes, p
    for k in range(N_KINDS):
        in_pile = 0
        for i in range(g[DealSlot.pile_len]):
            in_pile += pile[i] == k
        if state.pile_counts[k] != in_pile:
            return StateFault.pile_counts, k
        melded = 0
        for s in range(n_sides):
            for r in range(BLACK_THREE, LAST_NATURAL + 1):
                if k == DEUCE:
                    melded += melds[s, r, MeldCol.deuces]
                elif k == JOKER:
                    melded += melds[s, r, MeldCol.jokers]
                elif k == r:
                    melded += melds[s, r, MeldCol.naturals]
        if state.melded[k] != melded:
            return StateFault.melded, k
        count = in_pile + melded
        for p in range(players):
            count += hands[p, k]
        for i in range(g[DealSlot.stock_pos], n_cards):
            count += stock[i] == k
        if k == RED_THREE:
            for s in range(n_sides):
                count += sides[s, SideSlot.r3_dealt] + sides[s, SideSlot.r3_drawn]
                count += sides[s, SideSlot.r3_pile]
        if count != pack_count_nb(n_cards, k):
            return StateFault.cards, k
    for s in range(n_sides):
        canastas = 0
        ranks = 0
        for r in range(BLACK_THREE, LAST_NATURAL + 1):
            size = (
                melds[s, r, MeldCol.naturals]
                + melds[s, r, MeldCol.deuces]
                + melds[s, r, MeldCol.jokers]
            )
            if size > 0:
                ranks |= 1 << r
            if size >= 7 and r != BLACK_THREE:
                canastas += 1
        if sides[s, SideSlot.canastas] != canastas:
            return StateFault.canastas, s
        if sides[s, SideSlot.meld_ranks] != ranks:
            return StateFault.meld_ranks, s
    return StateFault.ok, -1
