"""The referee's rule checks (canasta_sim.referee.checks), each on its own: inputs written from
RULES.md, expected rule ids from the rule text."""

from __future__ import annotations

import pytest

from canasta_sim.cards import parse_cards
from canasta_sim.referee import checks
from canasta_sim.referee.table import PACKS

K, NINE, FIVE, B3, R3, DEUCE, JOKER = 11, 7, 3, 1, 0, 13, 14


def cards(text: str) -> list[int]:
    return [int(n) for n in parse_cards(text)]


@pytest.mark.parametrize("n_cards", [108, 162])
def test_pack_rule(n_cards):
    assert checks.pack_rule(list(PACKS[n_cards]), n_cards) is None
    five_jokers = list(PACKS[108])
    five_jokers[JOKER] += 1
    five_jokers[K] -= 1
    assert checks.pack_rule(five_jokers, 108) == "R-01"
    assert checks.pack_rule(list(PACKS[108]), 162) == "R-01"


def test_minimum_rule():
    assert checks.minimum_rule(90, {15, 50, 90, 120}) is None
    assert checks.minimum_rule(100, {15, 50, 90, 120}) == "R-64"


@pytest.mark.parametrize(
    "top, covers, needed",
    [(None, True, True), (DEUCE, True, True), (JOKER, False, True), (R3, False, True),
     (B3, True, True), (B3, False, False), (K, True, False)],
)  # fmt: skip
def test_needs_cover(top, covers, needed):
    assert checks.needs_cover(top, covers) is needed


def test_upcard_rule():
    assert checks.upcard_rule(DEUCE, K, K, True) is None  # a wild on top is covered
    assert checks.upcard_rule(K, NINE, NINE, True) == "R-12"  # a king needs no cover
    assert checks.upcard_rule(DEUCE, K, NINE, True) == "R-12"  # not the stock's top card


def test_freezes_at_upcard():
    assert checks.freezes_at_upcard(JOKER, False)
    assert checks.freezes_at_upcard(R3, True) and not checks.freezes_at_upcard(R3, False)
    assert not checks.freezes_at_upcard(K, True)


@pytest.mark.parametrize(
    "rank, text, rule",
    [(K, "K K 2", None), (K, "K Q 2", "R-60"), (R3, "R3 R3 R3", "R-63"),
     (B3, "B3 B3 B3", None), (B3, "B3 B3 2", "R-63"), (DEUCE, "2 2 2", "R-60")],
)  # fmt: skip
def test_meld_cards_rule(rank, text, rule):
    assert checks.meld_cards_rule(rank, cards(text)) == rule


@pytest.mark.parametrize(
    "rank, text, adding, at_most, rule",
    [
        (FIVE, "5 5 2", False, True, None),  # worked example 1
        (NINE, "9 9 9 2 2 JK", False, True, None),
        (FIVE, "5 2 2", False, True, "R-60"),  # one natural
        (NINE, "9 9 2 2 2 JK", False, True, "R-60"),  # wilds outnumber naturals
        (NINE, "9 9 2 2 2", False, True, "R-60"),
        (NINE, "9 9 2 2 2", False, False, None),  # hoyle: wilds_at_most_naturals off
        (2, "4 4 4 4 2 2 2 JK", False, False, "R-60"),  # four wild cards
        (K, "K K", False, True, "R-60"),  # two cards
        (K, "K K 2 2 2", True, True, "R-61"),  # adding breaks the meld
        (B3, "B3 B3 B3 B3", False, True, None),
        (B3, "B3 B3", False, True, "R-63"),
    ],
)
def test_meld_shape_rule(rank, text, adding, at_most, rule):
    assert checks.meld_shape_rule(rank, cards(text), adding, at_most) == rule


def test_pile_top_rule():
    assert checks.pile_top_rule(K, K, 5, 3) is None
    assert checks.pile_top_rule(None, K, 5, 0) == "R-30"  # empty pile
    assert checks.pile_top_rule(NINE, K, 5, 3) == "R-30"  # not the top card
    assert checks.pile_top_rule(DEUCE, DEUCE, 5, 3) == "R-30"  # worked example 6
    assert checks.pile_top_rule(B3, B3, 5, 3) == "R-30"
    assert checks.pile_top_rule(K, K, 1, 1) == "R-35"
    assert checks.pile_top_rule(K, K, 1, 2) is None


@pytest.mark.parametrize(
    "with_, frozen, has_meld, stock_empty, rule",
    [
        ("K K", True, False, False, None),  # the natural pair
        ("K K", False, False, True, None),  # R-44 allows the pair
        ("", False, False, False, "R-34"),  # the top card is not melded
        ("K 2", True, True, False, "R-32"),  # frozen: no pair (worked example 5)
        ("", False, True, False, None),  # R-33 (c)
        ("K JK", False, False, False, None),  # R-33 (b)
        ("K JK", False, False, True, "R-44"),
        ("", False, True, True, None),  # onto the side's meld
        ("K", False, False, False, "R-33"),
        ("2 JK", False, False, False, "R-33"),
    ],
)
def test_pickup_rule(with_, frozen, has_meld, stock_empty, rule):
    assert checks.pickup_rule(K, cards(with_), frozen, has_meld, stock_empty) == rule


def test_forced_take_rule():
    assert checks.forced_take_rule(K, False, True, 5, 3) == "R-44"
    assert checks.forced_take_rule(K, True, True, 5, 3) is None  # frozen for them
    assert checks.forced_take_rule(K, False, False, 5, 3) is None  # no meld of kings
    assert checks.forced_take_rule(DEUCE, False, True, 5, 3) is None
    assert checks.forced_take_rule(None, False, True, 5, 0) is None
    assert checks.forced_take_rule(K, False, True, 1, 1) is None


def test_goes_out():
    assert checks.goes_out(0, False) and checks.goes_out(0, True)
    assert checks.goes_out(1, False) and not checks.goes_out(1, True)  # no discard
    assert not checks.goes_out(2, False)


def test_going_out_and_black_threes_and_minimum_rules():
    assert checks.going_out_rule(0, 1) == "R-40" and checks.going_out_rule(2, 2) is None
    assert checks.black_threes_rule(True, False) == "R-63"
    assert checks.black_threes_rule(True, True) is None
    assert checks.black_threes_rule(False, False) is None
    assert checks.initial_meld_rule(65, 90) == "R-64"  # worked example 2: 6-6-6 + K-K-K-2
    assert checks.initial_meld_rule(95, 90) is None  # 6-6-6 + A-A-A-2


def test_minimum_waived():
    assert checks.minimum_waived(False, True, False)  # hand melds going out
    assert not checks.minimum_waived(True, True, False)  # a pickup reaches the minimum
    assert not checks.minimum_waived(False, False, False)  # does not go out
    assert not checks.minimum_waived(False, True, True)  # concealed_out_needs_minimum on


def test_concealed_out():
    assert checks.concealed_out(None, 3, False, True)
    assert checks.concealed_out(3, 3, False, True)
    assert not checks.concealed_out(2, 3, False, True)  # melded on an earlier turn
    assert not checks.concealed_out(3, 3, True, True)  # added to an older meld
    assert not checks.concealed_out(3, 3, False, False)  # no canasta made this turn


@pytest.mark.parametrize(
    "held, n_cards, points",
    [(1, 108, 100), (3, 108, 300), (4, 108, 800), (4, 162, 400), (5, 162, 1000),
     (6, 162, 1200)],
)  # fmt: skip
def test_red_three_score(held, n_cards, points):
    assert checks.red_three_score(held, n_cards, 100, 800) == points
