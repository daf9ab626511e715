"""RULES.md section 9: every worked example as a test.

Expected values are computed by hand from the rules (R-04 card values, R-50..R-54 scoring).
Positions are built with ``Deal.from_position``: the stock's first card is the top, the pile's
last card is the top; 4 players unless said otherwise (side 0 = seats 0 and 2).
"""

import pytest

from canasta_sim import Deal, IllegalMove, Rules, is_legal_meld, minimum_count


# --- Example 1: meld legality (R-60, R-63) -------------------------------------------------------
@pytest.mark.parametrize(
    "cards, legal",
    [
        ("5-5-2", True),
        ("9-9-9-2-2-JK", True),
        ("5-2-2", False),  # one natural
        ("9-9-2-2-2-JK", False),  # wilds outnumber naturals (and 4 wilds)
        ("9-9-2-2-2", False),  # default: more wilds than naturals
        ("4-4-4-4-2-2-2-JK", False),  # 4 wild cards
    ],
)
def test_example1_classic(cards, legal):
    assert is_legal_meld(cards, Rules()) == legal


def test_example1_hoyle_allows_more_wilds_than_naturals():
    hoyle = Rules.preset("hoyle")
    assert is_legal_meld("9-9-2-2-2", hoyle) == True  # noqa: E712
    # still at most 3 wild cards and at least 2 naturals
    assert is_legal_meld("9-9-2-2-2-JK", hoyle) == False  # noqa: E712
    assert is_legal_meld("4-4-4-4-2-2-2-JK", hoyle) == False  # noqa: E712
    assert is_legal_meld("5-2-2", hoyle) == False  # noqa: E712
    assert is_legal_meld("5-5-2", hoyle) == True  # noqa: E712


def test_example1_black_threes_only_when_going_out():
    assert is_legal_meld("B3-B3-B3", Rules()) == False  # noqa: E712
    assert is_legal_meld("B3-B3-B3", Rules(), going_out=True) == True  # noqa: E712
    assert is_legal_meld("B3-B3-B3-B3", Rules(), going_out=True) == True  # noqa: E712
    assert is_legal_meld("B3-B3-B3-2", Rules(), going_out=True) == False  # noqa: E712
    assert is_legal_meld("B3-B3", Rules(), going_out=True) == False  # noqa: E712


def test_example1_via_meld_moves():
    """The same melds played by seat 0 of a side that has already melded (no minimum)."""

    def deal():
        return Deal.from_position(
            hands=["5 5 9 9 9 2 2 2 JK 4 4 4 4 B3 B3 B3 K Q", "6 6", "7 7", "8 8"],
            stock="10 10 10",
            pile="J",
            melds={0: ["A A A"]},
        )

    d = deal()
    d.draw()
    d.meld("5 5 2")
    assert d.melds(0)["5"] == "5 5 2"
    d.meld("9 9 9 2 JK")
    assert d.melds(0)["9"] == "9 9 9 2 JK"

    d = deal()
    d.draw()
    with pytest.raises(IllegalMove) as info:
        d.meld("5 2 2")
    assert info.value.rule == "R-60"
    with pytest.raises(IllegalMove) as info:
        d.meld("9 9 2 2 2")
    assert info.value.rule == "R-60"
    with pytest.raises(IllegalMove) as info:
        d.meld("4 4 4 4 2 2 2 JK")
    assert info.value.rule == "R-60"
    with pytest.raises(IllegalMove) as info:
        d.meld("B3 B3 B3")  # not going out: 16 cards would stay in hand
    assert info.value.rule == "R-63"
    assert d.melds(0) == {"A": "A A A"}


# --- Example 2: initial meld at score 1600 (R-64) ------------------------------------------------
def test_example2_minimum_90():
    assert minimum_count(1600, Rules()) == 90
    d = Deal.from_position(
        hands=["6 6 6 K K K 2 A A A 2 9 9", "4 4", "5 5", "7 7"],
        stock="8 8 8",
        pile="J",
        scores={0: 1600},
    )
    d.draw()
    hand_before = d.hand(0)
    # 6-6-6 + K-K-K-2 = 15 + 50 = 65 < 90
    with pytest.raises(IllegalMove) as info:
        d.meld("6 6 6", "K K K 2")
    assert info.value.rule == "R-64"
    assert d.hand(0) == hand_before
    assert d.melds(0) == {}
    # 6-6-6 + A-A-A-2 = 15 + 80 = 95 >= 90
    d.meld("6 6 6", "A A A 2")
    assert d.melds(0) == {"6": "6 6 6", "A": "A A A 2"}
    assert d.hand(0) == "8 9 9 K K K 2"
    assert d.score()[0]["meld_points"] == 95


def test_example2_same_melds_enough_at_score_0():
    """At score 0 (minimum 50) the 65-point meld of example 2 is enough."""
    d = Deal.from_position(
        hands=["6 6 6 K K K 2 A A A 2 9 9", "4 4", "5 5", "7 7"],
        stock="8 8 8",
        pile="J",
        scores={0: 0},
    )
    d.draw()
    d.meld("6 6 6", "K K K 2")
    assert d.melds(0) == {"6": "6 6 6", "K": "K K K 2"}


# --- Example 3: natural canasta of kings, 570 vs 670 (R-51, R-53, R-66) --------------------------
def test_example3_kings_over_two_turns_570():
    # side 0 below 0: minimum 15, so K-K-K (30) opens
    d = Deal.from_position(
        hands=["K K K K K K K 5 6 9", "4 4 4", "8 8 8", "Q Q Q"],
        stock="J J J J J 10",
        pile="10",
        scores={0: -50},
    )
    d.draw()  # seat 0 draws J
    d.meld("K K K")
    d.discard("J")
    for seat in (1, 2, 3):
        assert d.current_player == seat
        d.draw()
        d.discard("J")
    assert d.current_player == 0
    d.draw()  # 10
    d.meld("K K K K")
    assert d.melds(0)["K"] == "K K K K K K K"
    assert d.canastas(0) == 1
    s = d.score()[0]
    assert s["canasta_bonus"] == 500
    assert s["meld_points"] == 70
    assert s["canasta_bonus"] + s["meld_points"] == 570
    # seat 0 still holds 5 6 9 10 (5+5+10+10), seat 2 holds 8 8 8 (30)
    assert s["hand_penalty"] == 60
    assert s["red_threes"] == 0 and s["going_out_bonus"] == 0
    assert s["total"] == 570 - 60


def test_example3_kings_in_one_turn_670():
    d = Deal.from_position(
        hands=["K K K K K K K 5 6 9", "4 4 4", "8 8 8", "Q Q Q"], stock="J J J", pile="10"
    )
    d.draw()
    d.meld("K K K K K K K")  # 70 >= 50
    s = d.score()[0]
    assert s["canasta_bonus"] == 600
    assert s["meld_points"] == 70
    assert s["canasta_bonus"] + s["meld_points"] == 670
    assert s["hand_penalty"] == 5 + 5 + 10 + 10 + 30
    assert s["total"] == 670 - 60


def test_example3_kings_on_partners_meld_not_concealed():
    """Kings completed on a meld already on the table (partner's) are not concealed: 570."""
    d = Deal.from_position(
        hands=["K K K K 5 6 9", "4 4 4", "8 8 8", "Q Q Q"],
        stock="J J J",
        pile="10",
        melds={0: ["K K K"]},
    )
    d.draw()
    d.meld("K K K K")
    s = d.score()[0]
    assert s["canasta_bonus"] + s["meld_points"] == 570


# --- Example 4: all four red threes without a meld (R-50) ----------------------------------------
def test_example4_four_red_threes_no_meld_minus_800():
    d = Deal.from_position(
        hands=["4 5", "6 7", "8 9", "10 J"],
        stock="",
        pile="Q",
        melds={0: ["A A A"]},
        red_threes={1: 4},
        current=1,
    )
    d.draw()  # stock empty, nothing forces a pickup: the deal ends
    assert d.is_over and d.end_reason == "stock_exhausted"
    s = d.score()
    assert s[1]["red_threes"] == -800
    assert s[1]["hand_penalty"] == 5 + 5 + 10 + 10
    assert s[1]["total"] == -800 - 30
    assert s[0]["red_threes"] == 0
    assert s[0]["total"] == 60 - (5 + 5 + 10 + 10)


def test_example4_four_red_threes_with_meld_plus_800():
    d = Deal.from_position(
        hands=["4 5", "6 7", "8 9", "10 J"],
        stock="",
        pile="Q",
        melds={1: ["A A A"]},
        red_threes={1: 4},
    )
    assert d.score()[1]["red_threes"] == 800


# --- Example 5: frozen vs unfrozen pile, top 8, hand 8 + joker, side has a meld of eights --------
def _example5(pile):
    return Deal.from_position(
        hands=["8 JK 4 6 K", "5 5", "7 7", "9 9"], stock="Q Q Q", pile=pile, melds={0: ["8 8 8"]}
    )


def test_example5_frozen_cannot_take():
    d = _example5("5 2 9 8")  # a deuce inside: frozen for everyone
    assert d.pile_frozen is True
    assert d.can_take_pile() is False
    with pytest.raises(IllegalMove) as info:
        d.take_pile("8 JK")
    assert info.value.rule == "R-32"
    with pytest.raises(IllegalMove) as info:
        d.take_pile("")  # the meld on the table does not help
    assert info.value.rule == "R-32"
    assert d.phase == "draw" and d.pile == "5 2 9 8" and d.melds(0) == {"8": "8 8 8"}


def test_example5_unfrozen_take_with_natural_and_wild():
    d = _example5("5 9 8")
    assert d.pile_frozen is False
    assert d.can_take_pile() is True
    d.take_pile("8 JK")  # R-33 b (the cards go onto the side's meld of eights, R-62)
    assert d.melds(0) == {"8": "8 8 8 8 8 JK"}
    assert d.hand(0) == "4 5 6 9 K"
    assert d.pile == ""
    assert d.phase == "play"


def test_example5_unfrozen_take_onto_meld():
    d = _example5("5 9 8")
    d.take_pile("")  # R-33 c
    assert d.melds(0) == {"8": "8 8 8 8"}
    assert d.hand(0) == "4 5 6 8 9 K JK"
    assert d.pile == ""


# --- Example 6: top card a black three or a wild card: nobody can take the pile -------------------
@pytest.mark.parametrize("top", ["B3", "2", "JK"])
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_example6_nobody_takes(top, seat):
    hands = ["8 8 2 JK B3", "8 8 2 B3", "9 9 2", "9 9 2"]
    d = Deal.from_position(
        hands=hands,
        stock="Q Q Q",
        pile=f"8 {top}",
        melds={0: ["8 8 8"], 1: ["9 9 9"]},
        current=seat,
    )
    assert d.can_take_pile() is False
    for with_ in ("", "8 8", top + " " + top if top in ("B3", "2") else "JK"):
        with pytest.raises(IllegalMove) as info:
            d.take_pile(with_)
        assert info.value.rule in ("R-30", "R-32")
    assert d.pile == f"8 {top}" and d.phase == "draw"


# --- Example 7: 4 players, concealed going out ---------------------------------------------------
def test_example7_concealed_out_850():
    d = Deal.from_position(
        hands=["7 7 7 7 7 7 7 K K K", "9 9 J", "Q 4", "6 6"], stock="5 10 10", pile="A 8"
    )
    d.draw()  # the 5: the card to discard
    d.meld("7 7 7 7 7 7 7", "K K K")
    d.discard("5")
    assert d.is_over and d.end_reason == "went_out"
    assert d.went_out == 0 and d.concealed_out is True
    s = d.score()[0]
    assert s["canasta_bonus"] == 500 + 100
    assert s["going_out_bonus"] == 200
    assert s["meld_points"] == 35 + 30
    assert s["hand_penalty"] == 10 + 5  # partner's Q and 4
    assert s["red_threes"] == 0
    assert s["total"] == 850
    o = d.score()[1]
    assert o["hand_penalty"] == 10 + 10 + 10 + 5 + 5
    assert o["total"] == -40
