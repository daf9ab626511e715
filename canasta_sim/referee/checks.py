"""The referee's rule checks as pure functions: each returns the id of the rule broken
(``"R-xx"``) or None.

They take plain values (count arrays indexed by kind, R-02; booleans; points) and read no
state, so each is tested on its own (tests/referee/test_referee_checks.py). The replay
(:mod:`.replay`) calls them and writes the message that describes the position.
"""

from __future__ import annotations

from collections.abc import Sequence

from .table import BLACK_THREE, DEUCE, JOKER, NATURALS, PACKS, RED_THREE, WILDS


def pack_rule(kind_counts: Sequence[int], n_cards: int) -> str | None:
    """R-01: the deck is the pack of ``n_cards`` (108 or 162) cards, kinds as R-02 counts."""
    if sum(kind_counts) != n_cards or tuple(kind_counts) != PACKS[n_cards]:
        return "R-01"
    return None


def minimum_rule(minimum: int, allowed: set[int]) -> str | None:
    """R-64: a side's minimum count (points) is one of the table's values."""
    return None if minimum in allowed else "R-64"


def needs_cover(top: int | None, covers_black_three: bool) -> bool:
    """R-12: whether the pile's top card (None: no upcard yet) must be covered by another
    stock card: a wild card, a red three, or a black three under
    ``upcard_covers_black_three``."""
    if top is None or top in WILDS or top == RED_THREE:
        return True
    return top == BLACK_THREE and covers_black_three


def upcard_rule(top: int | None, card: int, stock_top: int | None, covers: bool) -> str | None:
    """R-12: an upcard is turned only onto a top that needs covering, from the stock's top."""
    if not needs_cover(top, covers) or card != stock_top:
        return "R-12"
    return None


def freezes_at_upcard(card: int, red_three_freezes: bool) -> bool:
    """R-13: whether an upcard freezes the pile (a wild card, or a red three by the switch)."""
    return card in WILDS or (card == RED_THREE and red_three_freezes)


def meld_cards_rule(rank: int, cards: Sequence[int]) -> str | None:
    """R-60/R-63: the cards of a meld of ``rank`` are naturals of that rank and wild cards (a
    black-three meld only black threes); red threes and wild cards are never a meld's rank."""
    if rank == RED_THREE:
        return "R-63"
    if rank == BLACK_THREE:
        return "R-63" if any(n for k, n in enumerate(cards) if k != BLACK_THREE) else None
    if rank in WILDS:
        return "R-60"
    if any(n for k, n in enumerate(cards) if k != rank and k not in WILDS):
        return "R-60"
    return None


def meld_shape_rule(
    rank: int, after: Sequence[int], adding: bool, wilds_at_most_naturals: bool
) -> str | None:
    """R-60/R-61/R-63: the meld of ``rank`` as it is with the new cards (``after``, counts).

    A meld has 3 or more cards, at least 2 naturals, at most 3 wild cards and (switch) no more
    wild cards than naturals: R-60 for a new meld, R-61 when ``adding`` to one. A black-three
    meld holds 3 or 4 black threes (R-63).
    """
    if rank == BLACK_THREE:
        return None if 3 <= after[BLACK_THREE] <= 4 else "R-63"
    naturals, wilds = after[rank], after[DEUCE] + after[JOKER]
    rule = "R-61" if adding else "R-60"
    if naturals + wilds < 3 or naturals < 2 or wilds > 3:
        return rule
    if wilds > naturals and wilds_at_most_naturals:
        return rule
    return None


def pile_top_rule(
    pile_top: int | None, named_top: int, hand_size: int, pile_size: int
) -> str | None:
    """R-30/R-35: the pile can be taken at all: not empty, the named top is its top, which is
    not a wild card or a three; not a one-card pile by a player holding one card."""
    if pile_top is None or named_top != pile_top:
        return "R-30"
    if named_top in WILDS or named_top in (BLACK_THREE, RED_THREE):
        return "R-30"
    if hand_size == 1 and pile_size == 1:
        return "R-35"
    return None


def pickup_rule(
    top: int, with_cards: Sequence[int], frozen: bool, has_meld: bool, stock_empty: bool
) -> str | None:
    """R-32/R-33/R-34/R-44: how the top card is melded.

    A natural pair from hand always works. Otherwise the top card is melded first (R-34: with
    ``with_cards`` empty it goes onto the side's meld of its rank, which must exist); a frozen
    pile needs the pair (R-32); with the stock empty only the pair or the side's meld (R-44);
    otherwise one natural plus one wild card, or the side's meld (R-33).
    """
    if with_cards[top] >= 2:
        return None
    if sum(with_cards) == 0 and not has_meld:
        return "R-34"
    if frozen:
        return "R-32"
    if has_meld:
        return None
    if stock_empty:
        return "R-44"
    if with_cards[top] >= 1 and with_cards[DEUCE] + with_cards[JOKER] >= 1:
        return None
    return "R-33"


def forced_take_rule(
    pile_top: int | None, frozen: bool, has_meld_of_top: bool, hand_size: int, pile_size: int
) -> str | None:
    """R-44: with the stock empty, ending the deal breaks R-44 when the player must take the
    pile: it is not frozen for them and its top matches a meld of their side (unless R-35
    forbids the pickup)."""
    if pile_top is None or frozen or pile_top not in NATURALS or not has_meld_of_top:
        return None
    if hand_size == 1 and pile_size == 1:
        return None
    return "R-44"


def goes_out(cards_left: int, last_red_three: bool) -> bool:
    """R-22/R-40: whether a laying-down that leaves ``cards_left`` cards in hand goes out: none
    left, or one to discard (not after a last-card red three, R-45, where no discard follows)."""
    return cards_left == 0 or (cards_left == 1 and not last_red_three)


def going_out_rule(canastas: int, needed: int) -> str | None:
    """R-40: going out needs the side's canastas (section 2's table)."""
    return "R-40" if canastas < needed else None


def black_threes_rule(melds_black_threes: bool, laying_down_goes_out: bool) -> str | None:
    """R-63: black threes are melded only in a laying-down that goes out (leaves at most one
    card); a turn may split them over several such laying-downs."""
    return "R-63" if melds_black_threes and not laying_down_goes_out else None


def initial_meld_rule(points: int, minimum: int) -> str | None:
    """R-64: a side's first laying-down reaches its minimum count (points)."""
    return "R-64" if points < minimum else None


def minimum_waived(pickup: bool, laying_down_goes_out: bool, needs_minimum_switch: bool) -> bool:
    """R-42: the minimum does not apply to melds from the hand laid down in going out concealed
    (unless ``concealed_out_needs_minimum``); a pickup always reaches it (R-64). Whether the
    turn does go out concealed is known at its end."""
    return not pickup and laying_down_goes_out and not needs_minimum_switch


def concealed_out(
    first_meld_turn: int | None, turn: int, touched_old: bool, new_canasta: bool
) -> bool:
    """R-42: going out concealed: no meld before this turn, nothing added to a meld made
    before it, and a canasta among the melds made in it."""
    if first_meld_turn is not None and first_meld_turn < turn:
        return False
    return not touched_old and new_canasta


def red_three_score(held: int, n_cards: int, bonus: int, all_bonus: int) -> int:
    """R-50 in points for ``held`` red threes, before the sign for a side without melds."""
    everything = 4 if n_cards == 108 else 5
    if held >= everything:
        return all_bonus if n_cards == 108 else held * all_bonus // 4
    return held * bonus
