"""Hand-built positions for the rules of RULES.md (R-12 .. R-67), and every switch of section 8.

Positions are built with ``Deal.from_position``: the stock's first card is the top, the pile's
last card is the top, and the deal starts in the draw phase of ``current``. With 4 players side
0 = seats 0 and 2, side 1 = seats 1 and 3. Every expected value is computed by hand from the
rules (R-04 card values: joker 50, deuce/ace 20, 8..K 10, 4..7 and black three 5).
"""

import pytest

from canasta_sim import Deal, IllegalMove, Rules, is_legal_meld, minimum_count

WILDS = {"2", "JK"}
SEVEN_K = "K K K K K K K"
SEVEN_Q = "Q Q Q Q Q Q Q"
SEVEN_J = "J J J J J J J"


def pos(hands, stock="10 10 10 10", pile="4", rules=None, **kw):
    return Deal.from_position(rules or Rules(), hands=hands, stock=stock, pile=pile, **kw)


def illegal(move, *args, **kwargs):
    """Run an illegal move and return the rule id of the IllegalMove it raises."""
    with pytest.raises(IllegalMove) as info:
        move(*args, **kwargs)
    return info.value.rule


def snapshot(d):
    return (
        d.hands,
        d.pile,
        d.phase,
        d.current_player,
        d.stock_size,
        [d.melds(s) for s in range(d.rules.sides)],
        [d.red_threes(s) for s in range(d.rules.sides)],
    )


# ================================================================================================
# R-11 .. R-15: the start of a deal (Deal.new, checked over many seeds)
# ================================================================================================
SEEDS = range(400)


def _new_deals(rules, seeds=SEEDS):
    return [(s, Deal.new(rules, seed=s)) for s in seeds]


def test_r11_first_player_left_of_dealer():
    for players in (2, 3, 4, 6):
        for dealer in range(players):
            d = Deal.new(Rules(players=players), seed=3, dealer=dealer)
            assert d.current_player == (dealer + 1) % players
            assert d.phase == "draw" and d.turns == 0


def test_r12_upcard_covers_wild_red_and_black_three_default():
    covered = 0
    for _, d in _new_deals(Rules()):
        pile = d.pile.split()
        assert pile, "the upcard starts the pile"
        assert pile[-1] not in WILDS | {"R3", "B3"}
        assert all(c in WILDS | {"R3", "B3"} for c in pile[:-1])
        covered += len(pile) > 1
    assert covered > 0


def test_r12_black_three_upcard_not_covered_when_switch_off():
    rules = Rules(upcard_covers_black_three=False)
    b3_top = 0
    for seed, d in _new_deals(rules):
        pile = d.pile.split()
        assert pile[-1] not in WILDS | {"R3"}
        assert all(c in WILDS | {"R3"} for c in pile[:-1])
        if pile[-1] == "B3":
            b3_top += 1
            # same shuffle with the default: the black three gets covered
            on = Deal.new(Rules(), seed=seed).pile.split()
            assert on[: len(pile)] == pile and len(on) > len(pile)
    assert b3_top > 0


def test_r13_pile_frozen_by_wild_or_red_three_upcard():
    frozen = red = 0
    for _, d in _new_deals(Rules()):
        pile = d.pile.split()
        expected = any(c in WILDS or c == "R3" for c in pile)
        assert d.pile_frozen is expected
        frozen += expected
        red += "R3" in pile
    assert frozen > 0 and red > 0


def test_r13_red_three_upcard_does_not_freeze_when_switch_off():
    rules = Rules(red_three_upcard_freezes=False)
    red_only = 0
    for _, d in _new_deals(rules):
        pile = d.pile.split()
        assert d.pile_frozen is any(c in WILDS for c in pile)
        red_only += "R3" in pile and not any(c in WILDS for c in pile)
    assert red_only > 0


def test_r13_position_pile_frozen_by_red_three_switch():
    hands = ["4 5", "4 5", "4 5", "4 5"]
    assert pos(hands, pile="R3 8").pile_frozen is True
    assert pos(hands, pile="R3 8", rules=Rules(red_three_upcard_freezes=False)).pile_frozen is False
    assert pos(hands, pile="2 8").pile_frozen is True
    assert pos(hands, pile="JK 8", rules=Rules(red_three_upcard_freezes=False)).pile_frozen is True
    assert pos(hands, pile="B3 8").pile_frozen is False
    assert pos(hands, pile="5 8").pile_frozen is False


def test_r14_r15_red_threes_at_start():
    """Red threes turned up stay in the pile (R-14); dealt ones are laid out and replaced (R-15):
    no hand holds a red three and every hand has the dealt number of cards."""
    in_pile = laid_out = 0
    for _, d in _new_deals(Rules()):
        assert all(len(h.split()) == 11 and "R3" not in h.split() for h in d.hands)
        in_pile += d.pile.split().count("R3")
        laid_out += d.red_threes(0) + d.red_threes(1)
        assert d.red_threes(0) + d.red_threes(1) + d.pile.split().count("R3") <= 4
    assert in_pile > 0 and laid_out > 0


def test_r14_red_three_from_upcard_laid_out_by_taker_not_replaced():
    d = pos(["8 8 5 6", "4 4", "7 7", "9 9"], stock="Q Q Q", pile="R3 8", melds={0: ["K K K"]})
    d.take_pile("8 8")
    assert d.red_threes(0) == 1 and d.red_threes(1) == 0
    assert d.stock_size == 3
    assert d.hand(0) == "5 6"
    assert d.melds(0) == {"8": "8 8 8", "K": "K K K"}


# ================================================================================================
# a red three drawn during play
# ================================================================================================
def test_r16_drawn_red_three_laid_out_and_replaced():
    d = pos(["9 9 K", "4 4", "7 7", "6 6"], stock="R3 5 Q")
    d.draw()
    assert d.red_threes(0) == 1 and d.red_threes(1) == 0
    assert d.hand(0) == "5 9 9 K"
    assert d.stock_size == 1
    assert d.phase == "play"


def test_r16_replacement_red_three_replaced_too():
    d = pos(["9 9 K", "4 4", "7 7", "6 6"], stock="R3 R3 5 Q", current=1)
    d.draw()
    assert d.red_threes(1) == 2 and d.red_threes(0) == 0
    assert d.hand(1) == "4 4 5"
    assert d.stock_size == 1


def test_r16_two_players_red_three_draws_two_cards_into_hand():
    d = pos(["9 9 K", "4 4"], stock="5 R3 6 Q", rules=Rules(players=2))
    d.draw()
    assert d.red_threes(0) == 1
    assert d.hand(0) == "5 6 9 9 K"
    assert d.stock_size == 1


# ================================================================================================
# the turn and its phases
# ================================================================================================
def test_r20_turn_sequence():
    d = pos(["9 9 K", "4 4 5", "7 7 6", "6 6 A"], stock="Q J 10 8")
    assert d.current_player == 0 and d.phase == "draw"
    d.draw()
    assert d.phase == "play" and d.hand(0) == "9 9 Q K" and d.stock_size == 3
    d.discard("K")
    assert d.current_player == 1 and d.phase == "draw"
    assert d.pile == "4 K"
    assert d.turns == 1


def test_r20_phase_errors():
    d = pos(["9 9 9 K 5", "4 4 5", "7 7 6", "6 6 A"], stock="Q J 10 8", melds={0: ["A A A"]})
    # draw phase: no meld, no discard, no end_turn
    assert illegal(d.meld, "9 9 9") == "R-20"
    assert illegal(d.discard, "K") == "R-20"
    assert illegal(d.end_turn) in ("R-20", "R-45")
    d.draw()
    before = snapshot(d)
    # play phase: no second draw
    assert illegal(d.draw) == "R-20"
    assert snapshot(d) == before


def test_r20_cards_not_in_hand():
    d = pos(["9 9 9 K 5", "4 4 5", "7 7 6", "6 6 A"], stock="Q J 10 8", melds={0: ["A A A"]})
    d.draw()
    before = snapshot(d)
    assert illegal(d.meld, "J J J") == "R-20"
    assert illegal(d.meld, "9 9 9 9") == "R-20"
    assert illegal(d.discard, "A") == "R-20"
    assert snapshot(d) == before


def test_r21_draw_cannot_be_changed_for_the_pile():
    d = pos(["8 8 5 6", "4 4", "7 7", "9 9"], stock="Q Q Q", pile="5 8", melds={0: ["K K K"]})
    assert d.can_take_pile() is True
    d.draw()
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "8 8") == "R-20"
    assert d.pile == "5 8"


def test_r20_no_move_after_the_deal_is_over():
    d = pos(["4 5", "6 7", "8 9", "10 J"], stock="", pile="Q")
    d.draw()
    assert d.is_over
    assert illegal(d.draw) == "R-20"
    assert illegal(d.discard, "4") == "R-20"
    assert illegal(d.take_pile, "") in ("R-20", "R-30")
    assert illegal(d.play_turn) == "R-20"


# ================================================================================================
# keep two cards unless going out
# ================================================================================================
def test_r22_meld_keeping_two_cards():
    d = pos(["9 9 9 5", "4 4", "7 7", "6 6"], stock="Q J", melds={0: ["K K K"]})
    d.draw()
    d.meld("9 9 9")
    assert d.hand(0) == "5 Q"
    d.discard("Q")
    assert d.hand(0) == "5" and not d.is_over and d.current_player == 1


def test_r22_meld_leaving_one_card_without_canasta_refused():
    d = pos(["9 9 9", "4 4", "7 7", "6 6"], stock="Q J", melds={0: ["K K K"]})
    d.draw()
    before = snapshot(d)
    assert illegal(d.meld, "9 9 9") in ("R-22", "R-40")
    assert snapshot(d) == before


def test_r22_emptying_hand_by_melding_without_canasta_refused():
    d = pos(["9 9", "4 4", "7 7", "6 6"], stock="9 J", melds={0: ["K K K"]})
    d.draw()
    assert illegal(d.meld, "9 9 9") in ("R-22", "R-40")


def test_r22_meld_leaving_one_card_with_canasta_goes_out():
    d = pos(["9 9 9", "4 4", "7 7", "6 6"], stock="Q J", melds={0: [SEVEN_K]})
    d.draw()
    d.meld("9 9 9")
    assert d.hand(0) == "Q" and not d.is_over
    d.discard("Q")
    assert d.is_over and d.end_reason == "went_out" and d.went_out == 0


# ================================================================================================
# a black three blocks the pile for the next player only
# ================================================================================================
def test_r23_black_three_blocks_next_player_only():
    d = pos(
        ["B3 5 6 7", "B3 B3 9 9 J", "J 2 10 10", "6 6 5"],
        stock="A A 4 8",
        pile="8",
        melds={0: ["K K K"], 1: ["Q Q Q"]},
    )
    d.draw()
    d.discard("B3")
    assert d.pile == "8 B3"
    assert d.pile_frozen is False
    # seat 1 cannot take the pile
    assert d.current_player == 1
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "B3 B3") == "R-30"
    d.draw()
    d.discard("J")
    # seat 2 may take it, even with one natural and a wild card: it was never frozen
    assert d.current_player == 2
    assert d.can_take_pile() is True
    d.take_pile("J 2")
    assert d.melds(0)["J"] == "J J 2"
    assert d.hand(2) == "B3 8 10 10"


# ================================================================================================
# discarding a wild card freezes the pile
# ================================================================================================
def test_r24_discarding_wild_freezes_pile():
    d = pos(
        ["2 5 6 7", "9 4 4 4", "9 9 JK 5", "6 6 5"],
        stock="A A 4 8",
        pile="7 8",
        melds={0: ["K K K"], 1: ["Q Q Q"]},
    )
    assert d.pile_frozen is False
    d.draw()
    d.discard("2")
    assert d.pile_frozen is True
    assert d.pile == "7 8 2"
    # next player: a wild on top, cannot take
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "") == "R-30"
    d.draw()
    d.discard("9")
    # still frozen with a natural on top: a natural pair is needed
    assert d.pile_frozen is True
    assert d.current_player == 2
    assert illegal(d.take_pile, "9 JK") == "R-32"
    d.take_pile("9 9")
    assert d.melds(0)["9"] == "9 9 9"
    assert d.hand(2) == "5 7 8 2 JK"
    assert d.pile == "" and d.pile_frozen is False


# ================================================================================================
# R-30 .. R-35: taking the discard pile
# ================================================================================================
def test_r30_empty_pile():
    d = pos(["8 8 5", "4 4", "7 7", "9 9"], pile="", melds={0: ["K K K"]})
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "") == "R-30"


def test_r30_empty_pile_with_cards():
    """Taking an empty pile with cards from hand breaks R-30 (there is no top card), not R-32."""
    d = pos(["8 8 5", "4 4", "7 7", "9 9"], pile="", melds={0: ["K K K"]})
    assert illegal(d.take_pile, "8 8") == "R-30"


@pytest.mark.parametrize("top", ["2", "JK", "B3"])
def test_r30_wild_or_black_three_on_top(top):
    d = pos(["8 8 2 JK B3 B3 5", "4 4", "7 7", "9 9"], pile=f"8 {top}", melds={0: ["8 8 8"]})
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "") == "R-30"
    assert illegal(d.take_pile, f"{top} {top}") == "R-30"


def test_r31_frozen_for_side_without_initial_meld():
    d = pos(["8 8 JK A A A 5 6", "8 JK 4 4", "7 7", "9 9"], pile="5 9 8", melds={1: ["Q Q Q"]})
    assert d.pile_frozen is False  # not frozen for everyone ...
    assert illegal(d.take_pile, "8 JK", melds=["A A A"]) == "R-32"  # ... but for side 0
    d.take_pile("8 8", melds=["A A A"])  # 30 + 60 = 90 >= 50
    assert d.melds(0) == {"8": "8 8 8", "A": "A A A"}
    assert d.hand(0) == "5 5 6 9 JK"


def test_r31_same_pile_not_frozen_for_side_with_meld():
    d = pos(
        ["8 8 JK A A A 5 6", "8 JK 4 4", "7 7", "9 9"],
        pile="5 9 8",
        melds={1: ["Q Q Q"]},
        current=1,
    )
    d.take_pile("8 JK")
    assert d.melds(1) == {"8": "8 8 JK", "Q": "Q Q Q"}
    assert d.hand(1) == "4 4 5 9"


def test_r32_frozen_pile_needs_natural_pair():
    def deal():
        return pos(["8 8 2 JK 5 6", "4 4", "7 7", "9 9"], pile="5 2 9 8", melds={0: ["8 8 8"]})

    d = deal()
    assert d.can_take_pile() is True  # with the natural pair
    assert illegal(d.take_pile, "") == "R-32"  # the meld on the table does not help
    assert illegal(d.take_pile, "8 2") == "R-32"  # a wild cannot be one of the pair
    assert illegal(d.take_pile, "8 JK") == "R-32"
    d.take_pile("8 8")
    assert d.melds(0) == {"8": "8 8 8 8 8 8"}
    assert d.hand(0) == "5 5 6 9 2 2 JK"
    assert d.pile == "" and d.pile_frozen is False


def test_r32_frozen_pile_without_pair_cannot_be_taken():
    d = pos(["8 2 JK 5 6", "4 4", "7 7", "9 9"], pile="5 2 9 8", melds={0: ["8 8 8"]})
    assert d.can_take_pile() is False


def _unfrozen(hand, melds):
    return pos([hand, "4 4", "7 7", "9 9"], pile="5 9 8", melds={0: melds})


def test_r33a_two_naturals():
    d = _unfrozen("8 8 6 K", ["A A A"])
    d.take_pile("8 8")
    assert d.melds(0) == {"8": "8 8 8", "A": "A A A"}
    assert d.hand(0) == "5 6 9 K"


def test_r33b_natural_and_wild():
    d = _unfrozen("8 2 6 K", ["A A A"])
    assert d.can_take_pile() is True
    d.take_pile("8 2")
    assert d.melds(0) == {"8": "8 8 2", "A": "A A A"}
    assert d.hand(0) == "5 6 9 K"


def test_r33c_onto_existing_meld():
    d = _unfrozen("6 K", ["8 8 8"])
    assert d.can_take_pile() is True
    d.take_pile("")
    assert d.melds(0) == {"8": "8 8 8 8"}
    assert d.hand(0) == "5 6 9 K"


def test_r33_one_natural_alone_refused():
    d = _unfrozen("8 6 K", ["A A A"])
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "8") == "R-33"
    assert illegal(d.take_pile, "") == "R-33"
    assert illegal(d.take_pile, "2") in ("R-33", "R-20")  # no deuce in hand either


def test_r33_two_wilds_only_refused():
    d = _unfrozen("2 JK 6 K", ["A A A"])
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "2 JK") == "R-33"


def test_r34_red_threes_in_pile_laid_out_not_replaced():
    d = pos(
        ["8 8 4 6", "4 4", "7 7", "9 9"],
        stock="Q Q Q",
        pile="R3 5 R3 9 8",
        melds={0: ["K K K"]},
        red_threes={0: 1},
    )
    assert d.pile_frozen is True  # red threes freeze it (R-13, default)
    d.take_pile("8 8")
    assert d.red_threes(0) == 3
    assert d.stock_size == 3
    assert d.hand(0) == "4 5 6 9"
    assert d.melds(0) == {"8": "8 8 8", "K": "K K K"}
    assert d.pile == "" and d.phase == "play"
    # taking the pile replaced the draw
    assert illegal(d.draw) == "R-20"
    assert d.score()[0]["red_threes"] == 300


def test_r34_red_three_in_pile_not_freezing_when_switch_off():
    rules = Rules(red_three_upcard_freezes=False)
    d = pos(
        ["8 JK 4 6", "4 4", "7 7", "9 9"],
        stock="Q Q Q",
        pile="R3 5 9 8",
        melds={0: ["K K K"]},
        rules=rules,
    )
    assert d.pile_frozen is False
    d.take_pile("8 JK")
    assert d.red_threes(0) == 1
    assert d.hand(0) == "4 5 6 9"


def test_r34_meld_further_after_taking():
    d = pos(["8 8 5 5 6", "4 4", "7 7", "9 9"], stock="Q Q Q", pile="5 9 8", melds={0: ["K K K"]})
    d.take_pile("8 8")
    d.meld("5 5 5")
    assert d.melds(0) == {"5": "5 5 5", "8": "8 8 8", "K": "K K K"}
    assert d.hand(0) == "6 9"


def test_r34_two_players_pickup_replaces_draw():
    d = pos(
        ["8 8 4 6", "4 4"],
        stock="Q Q Q",
        pile="5 9 8",
        melds={0: ["K K K"]},
        rules=Rules(players=2),
    )
    d.take_pile("8 8")
    assert d.hand(0) == "4 5 6 9"
    assert d.stock_size == 3
    assert illegal(d.draw) == "R-20"


def test_r35_one_card_cannot_take_one_card_pile():
    d = pos(["9", "4 4", "7 7", "6 6"], pile="8", melds={0: ["8 8 8"]})
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "") == "R-35"


def test_r35_one_card_may_take_larger_pile():
    d = pos(["9", "4 4", "7 7", "6 6"], pile="5 8", melds={0: ["8 8 8"]})
    assert d.can_take_pile() is True
    d.take_pile("")
    assert d.hand(0) == "5 9"
    assert d.melds(0) == {"8": "8 8 8 8"}


def test_r35_two_cards_may_take_one_card_pile():
    d = pos(["9 6", "4 4", "7 7", "6 6"], pile="8", melds={0: ["8 8 8"]})
    d.take_pile("")
    assert d.hand(0) == "6 9"


def test_r30_can_take_pile_false_when_minimum_unreachable():
    # side 0 has not melded: 8 8 + top 8 = 30 < 50 and nothing else to meld
    d = pos(["8 8 5 6", "4 4", "7 7", "9 9"], pile="5 9 8")
    assert d.can_take_pile() is False
    assert illegal(d.take_pile, "8 8") == "R-64"


def test_r40_going_out_by_taking_the_pile():
    d = pos(["8 8", "4 4", "7 7", "9 9"], pile="8", melds={0: [SEVEN_K]})
    d.take_pile("8 8")
    assert d.is_over and d.end_reason == "went_out" and d.went_out == 0
    assert d.hand(0) == ""
    s = d.score()[0]
    assert s["going_out_bonus"] == 100
    assert s["meld_points"] == 70 + 30
    assert s["hand_penalty"] == 10


def test_r40_taking_the_pile_into_empty_hand_needs_canasta():
    d = pos(["8 8", "4 4", "7 7", "9 9"], pile="8", melds={0: ["K K K"]})
    before = snapshot(d)
    assert illegal(d.take_pile, "8 8") in ("R-22", "R-40")
    assert snapshot(d) == before


# ================================================================================================
# R-40 .. R-47: going out and the end of the deal
# ================================================================================================
def test_r40_four_players_need_one_canasta():
    d = pos(["Q", "4 4", "7 7", "6 6"], stock="5 10", melds={0: ["Q Q Q"]})
    d.draw()
    assert illegal(d.meld, "Q") == "R-40"

    d = pos(["Q", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "Q Q Q"]})
    d.draw()
    d.meld("Q")
    d.discard("5")
    assert d.is_over and d.end_reason == "went_out" and d.went_out == 0
    assert d.concealed_out is False
    s = d.score()[0]
    assert s["going_out_bonus"] == 100
    assert s["canasta_bonus"] == 500
    assert s["meld_points"] == 70 + 40
    assert s["hand_penalty"] == 10  # partner's 7 7
    assert s["total"] == 500 + 100 + 110 - 10
    assert d.score()[1]["going_out_bonus"] == 0


def test_r40_discarding_last_card_needs_canasta():
    d = pos(["", "4 4", "7 7", "6 6"], stock="5 10", melds={0: ["Q Q Q"]})
    d.draw()
    assert illegal(d.discard, "5") == "R-40"
    assert not d.is_over and d.hand(0) == "5"

    d = pos(["", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K]})
    d.draw()
    d.discard("5")
    assert d.is_over and d.end_reason == "went_out"


@pytest.mark.parametrize("players", [2, 6])
def test_r40_two_canastas_needed_for_2_and_6_players(players):
    rules = Rules(players=players)
    hands = ["9"] + ["4 4"] * (players - 1)
    d = pos(hands, stock="9 5 10 10", melds={0: [SEVEN_K, "9 9 9"]}, rules=rules)
    d.draw()
    if players == 2:
        assert d.hand(0) == "5 9 9"  # two cards drawn
        assert illegal(d.meld, "9 9") == "R-40"
    else:
        assert d.hand(0) == "9 9"
        assert illegal(d.meld, "9") == "R-40"

    d = pos(hands, stock="9 5 10 10", melds={0: [SEVEN_K, SEVEN_Q, "9 9 9"]}, rules=rules)
    d.draw()
    if players == 2:
        d.meld("9 9")  # drew 9 and 5
    else:
        d.meld("9")  # drew 9
        assert d.hand(0) == "9"
        d.meld("9")
        # melding everything also goes out
    if not d.is_over:
        d.discard("5")
    assert d.is_over and d.end_reason == "went_out" and d.went_out == 0


def test_r40_three_players_one_canasta():
    rules = Rules(players=3)
    d = pos(["4 4", "6 6", "Q"], stock="5 10", melds={2: ["Q Q Q"]}, rules=rules, current=2)
    d.draw()
    assert illegal(d.meld, "Q") == "R-40"
    d = pos(
        ["4 4", "6 6", "Q"], stock="5 10", melds={2: [SEVEN_K, "Q Q Q"]}, rules=rules, current=2
    )
    d.draw()
    d.meld("Q")
    d.discard("5")
    assert d.is_over and d.went_out == 2
    s = d.score()
    assert s[2]["going_out_bonus"] == 100
    assert s[0]["going_out_bonus"] == 0 and s[1]["going_out_bonus"] == 0
    assert s[0]["hand_penalty"] == 10 and s[1]["hand_penalty"] == 10


def test_r41_one_black_three_as_final_discard():
    d = pos(["B3", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "5 5 5"]})
    d.draw()
    d.meld("5")
    assert d.hand(0) == "B3"
    d.discard("B3")
    assert d.is_over and d.end_reason == "went_out"
    assert d.pile.split()[-1] == "B3"


def test_r41_two_black_threes_cannot_go_out():
    d = pos(["B3 B3", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "5 5 5"]})
    d.draw()
    assert illegal(d.meld, "B3 B3") == "R-63"
    assert illegal(d.meld, "B3 B3", "5") == "R-63"
    d.meld("5")
    assert d.hand(0) == "B3 B3"
    d.discard("B3")
    assert not d.is_over and d.hand(0) == "B3" and d.current_player == 1


def test_r41_three_black_threes_melded_going_out():
    d = pos(["B3 B3 B3", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "5 5 5"]})
    d.draw()
    d.meld("B3 B3 B3", "5")
    assert d.is_over and d.end_reason == "went_out"
    assert d.melds(0)["B3"] == "B3 B3 B3"
    s = d.score()[0]
    assert s["meld_points"] == 70 + 20 + 15
    assert s["canasta_bonus"] == 500
    assert s["going_out_bonus"] == 100


def test_r41_black_threes_melded_then_final_discard():
    d = pos(["B3 B3 B3 B3", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K]})
    d.draw()
    d.meld("B3 B3 B3 B3")
    assert d.hand(0) == "5"
    d.discard("5")
    assert d.is_over and d.end_reason == "went_out"
    assert d.score()[0]["meld_points"] == 70 + 20


# --- concealed going out ------------------------------------------------------------------
def test_r42_concealed_out_minimum_waived():
    d = pos(["4 4 4 4 4 4 4", "9 9", "Q", "6 6"], stock="J 10")
    d.draw()
    d.meld("4 4 4 4 4 4 4")  # 35 < 50, waived when going out concealed
    d.discard("J")
    assert d.is_over and d.concealed_out is True and d.went_out == 0
    s = d.score()[0]
    assert s["going_out_bonus"] == 200
    assert s["canasta_bonus"] == 600
    assert s["meld_points"] == 35
    assert s["hand_penalty"] == 10
    assert s["total"] == 200 + 600 + 35 - 10


def test_r42_concealed_out_needs_minimum_switch_on():
    rules = Rules(concealed_out_needs_minimum=True)
    d = pos(["4 4 4 4 4 4 4", "9 9", "Q", "6 6"], stock="J 10", rules=rules)
    d.draw()
    assert illegal(d.meld, "4 4 4 4 4 4 4") == "R-64"
    # with enough points it is fine under the switch too
    d = pos(["A A A A A A A", "9 9", "Q", "6 6"], stock="J 10", rules=rules)
    d.draw()
    d.meld("A A A A A A A")  # 140 >= 50
    d.discard("J")
    assert d.concealed_out is True
    assert d.score()[0]["going_out_bonus"] == 200


def test_r42_minimum_still_applies_when_not_going_out():
    d = pos(["4 4 4 4 4 4 4 5 6", "9 9", "Q", "6 6"], stock="J 10")
    d.draw()
    assert illegal(d.meld, "4 4 4 4 4 4 4") == "R-64"  # 35 < 50, 3 cards left


def test_r42_not_concealed_after_earlier_meld():
    d = pos(
        ["5 5 5 7 7 7 7 7 7 7", "9 9 9", "Q Q Q", "6 6 6"], stock="J J J J 10", scores={0: -100}
    )  # minimum 15
    d.draw()
    d.meld("5 5 5")
    d.discard("J")
    for _ in range(3):
        d.draw()
        d.discard("J")
    assert d.current_player == 0
    d.draw()  # 10
    d.meld("7 7 7 7 7 7 7")
    d.discard("10")
    assert d.is_over and d.went_out == 0
    assert d.concealed_out is False
    s = d.score()[0]
    assert s["going_out_bonus"] == 100
    assert s["canasta_bonus"] == 600  # the sevens themselves are a concealed canasta
    assert s["meld_points"] == 15 + 35


def test_r42_not_concealed_when_adding_to_partners_meld():
    d = pos(["7 7 7 7 7 7 7 Q", "9 9", "4", "6 6"], stock="J 10", melds={0: ["Q Q Q"]})
    d.draw()
    d.meld("7 7 7 7 7 7 7", "Q")
    d.discard("J")
    assert d.is_over and d.concealed_out is False
    assert d.score()[0]["going_out_bonus"] == 100


def test_r42_concealed_with_partners_melds_untouched():
    d = pos(["7 7 7 7 7 7 7", "9 9", "4", "6 6"], stock="J 10", melds={0: ["Q Q Q"]})
    d.draw()
    d.meld("7 7 7 7 7 7 7")
    d.discard("J")
    assert d.is_over and d.concealed_out is True
    assert d.score()[0]["going_out_bonus"] == 200


def test_r42_concealed_needs_a_canasta_among_own_melds():
    """Going out in one turn, first meld of the player, partner's canasta untouched, but no
    canasta among the player's own melds: not concealed."""
    d = pos(["9 9 9", "4 4", "5", "6 6"], stock="J 10", melds={0: [SEVEN_K]})
    d.draw()
    d.meld("9 9 9")
    d.discard("J")
    assert d.is_over and d.went_out == 0 and d.concealed_out is False
    assert d.score()[0]["going_out_bonus"] == 100


def test_r42_adding_to_partners_canasta_not_concealed():
    d = pos(["K 9 9 9 9 9 9 9", "4 4", "5", "6 6"], stock="J 10", melds={0: [SEVEN_K]})
    d.draw()
    d.meld("K", "9 9 9 9 9 9 9")
    d.discard("J")
    assert d.is_over and d.concealed_out is False
    s = d.score()[0]
    assert s["going_out_bonus"] == 100
    assert s["canasta_bonus"] == 500 + 600  # the nines are a concealed canasta


# --- stock exhausted -----------------------------------------------------------------------
def test_r44_empty_stock_ends_deal():
    d = pos(["4 5", "6 7", "8 9", "10 J"], stock="", pile="Q", melds={0: ["A A A"]})
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"
    assert d.went_out == -1
    s = d.score()
    assert s[0]["going_out_bonus"] == 0 and s[1]["going_out_bonus"] == 0
    assert s[0]["total"] == 60 - (5 + 5 + 10 + 10)
    assert s[1]["total"] == -(5 + 5 + 10 + 10)


def test_r44_forced_pickup_when_top_matches_meld():
    d = pos(["4 5", "6 7", "8 9", "10 J"], stock="", pile="5 8", melds={0: ["8 8 8"]})
    before = snapshot(d)
    assert illegal(d.draw) == "R-44"
    assert snapshot(d) == before and not d.is_over
    assert d.can_take_pile() is True
    d.take_pile("")
    assert d.melds(0) == {"8": "8 8 8 8"}
    assert d.hand(0) == "4 5 5"


def test_r44_natural_pair_may_take_but_draw_ends():
    def deal():
        return pos(["9 9 4", "6 7", "8 8", "10 J"], stock="", pile="5 9", melds={0: ["K K K"]})

    d = deal()
    d.take_pile("9 9")
    assert d.melds(0)["9"] == "9 9 9" and d.hand(0) == "4 5"
    d = deal()
    d.draw()  # not forced: no meld of nines
    assert d.is_over and d.end_reason == "stock_exhausted"


def test_r44_natural_and_wild_not_allowed_with_empty_stock():
    d = pos(["9 JK 4", "6 7", "8 8", "10 J"], stock="", pile="5 9", melds={0: ["K K K"]})
    assert illegal(d.take_pile, "9 JK") == "R-44"
    # the same pickup is fine while the stock lasts (R-33 b)
    d = pos(["9 JK 4", "6 7", "8 8", "10 J"], stock="Q", pile="5 9", melds={0: ["K K K"]})
    d.take_pile("9 JK")
    assert d.melds(0)["9"] == "9 9 JK"


def test_r44_frozen_pile_not_forced():
    d = pos(["4 5", "6 7", "8 9", "10 J"], stock="", pile="2 8", melds={0: ["8 8 8"]})
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"


def test_r44_side_without_meld_not_forced():
    d = pos(["8 8 4", "6 7", "9 9", "10 J"], stock="", pile="5 8", melds={1: ["8 8 8"]})
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"


def test_r44_r35_single_card_not_forced():
    d = pos(["4", "6 7", "8 9", "10 J"], stock="", pile="8", melds={0: ["8 8 8"]})
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"


# --- last stock card a red three -----------------------------------------------------------
def test_r45_last_red_three_meld_then_end_turn():
    d = pos(["K 5 6", "6 7", "8 9", "10 J"], stock="R3", pile="Q", melds={0: ["K K K"]})
    d.draw()
    assert d.red_threes(0) == 1
    assert d.hand(0) == "5 6 K"
    assert d.stock_size == 0 and d.phase == "play" and not d.is_over
    assert illegal(d.discard, "5") == "R-45"
    d.meld("K")
    assert d.melds(0)["K"] == "K K K K"
    d.end_turn()
    assert d.is_over and d.end_reason == "last_red_three"
    s = d.score()[0]
    assert s["red_threes"] == 100
    assert s["going_out_bonus"] == 0
    assert s["meld_points"] == 40
    assert s["hand_penalty"] == 10 + 10 + 5 + 5  # 5 6 (seat 0), 8 9 (seat 2)


def test_r45_switch_off_deal_ends_at_draw():
    rules = Rules(meld_after_last_red_three=False)
    d = pos(
        ["K 5 6", "6 7", "8 9", "10 J"], stock="R3", pile="Q", melds={0: ["K K K"]}, rules=rules
    )
    d.draw()
    assert d.is_over and d.end_reason == "last_red_three"
    assert d.red_threes(0) == 1
    assert d.hand(0) == "5 6 K"
    assert illegal(d.meld, "K") in ("R-20", "R-45")


def test_r45_end_turn_refused_elsewhere():
    d = pos(["K 5 6", "6 7", "8 9", "10 J"], stock="Q R3", pile="Q", melds={0: ["K K K"]})
    d.draw()
    assert illegal(d.end_turn) == "R-45"
    d.discard("Q")
    assert d.current_player == 1
    d.draw()  # the last card, a red three
    assert d.red_threes(1) == 1
    d.end_turn()
    assert d.end_reason == "last_red_three"


def test_r45_two_players_red_three_as_second_card():
    d = pos(["K 5 6", "6 7"], stock="9 R3", pile="Q", melds={0: ["K K K"]}, rules=Rules(players=2))
    d.draw()
    assert d.hand(0) == "5 6 9 K" and d.red_threes(0) == 1
    assert illegal(d.discard, "9") == "R-45"
    d.end_turn()
    assert d.end_reason == "last_red_three"


# --- two players, one stock card ------------------------------------------------------------
def test_r46_two_players_last_single_card():
    d = pos(["K 5 6", "6 7"], stock="9", pile="Q", rules=Rules(players=2))
    d.draw()
    assert d.hand(0) == "5 6 9 K" and d.stock_size == 0 and d.phase == "play"
    d.discard("9")
    assert d.current_player == 1 and not d.is_over
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"


def test_r46_two_players_draw_two():
    d = pos(["K 5 6", "6 7"], stock="9 8 4", pile="Q", rules=Rules(players=2))
    d.draw()
    assert d.hand(0) == "5 6 8 9 K" and d.stock_size == 1


# --- max_turns ------------------------------------------------------------------------------
def test_r47_turn_limit_position():
    d = pos(["K 5 6", "6 7", "8 9", "10 J"], stock="4 4 4 4 4", pile="Q", rules=Rules(max_turns=3))
    for seat in range(3):
        assert not d.is_over and d.current_player == seat
        d.draw()
        d.discard("4")
    assert d.is_over and d.end_reason == "turn_limit" and d.turns == 3
    assert d.went_out == -1
    assert d.score()[0]["going_out_bonus"] == 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_r47_turn_limit_random_play(seed):
    d = Deal.new(Rules(max_turns=3), seed=seed)
    n = 0
    while not d.is_over:
        d.play_turn()
        n += 1
    assert d.end_reason == "turn_limit"
    assert d.turns == 3 and n == 3


@pytest.mark.parametrize("seed", range(5))
def test_r47_default_limit_not_reached(seed):
    d = Deal.new(Rules(), seed=seed)
    d.play_out()
    assert d.end_reason in ("went_out", "stock_exhausted", "last_red_three")
    assert d.turns < 2000


# ================================================================================================
# R-50 .. R-54: scoring
# ================================================================================================
@pytest.mark.parametrize("n, points", [(0, 0), (1, 100), (2, 200), (3, 300), (4, 800)])
def test_r50_red_threes_with_meld(n, points):
    d = pos(["4", "5", "6", "7"], melds={0: ["A A A"]}, red_threes={0: n})
    assert d.score()[0]["red_threes"] == points


@pytest.mark.parametrize("n, points", [(1, -100), (3, -300), (4, -800)])
def test_r50_red_threes_without_meld_negative(n, points):
    d = pos(["4", "5", "6", "7"], melds={1: ["A A A"]}, red_threes={0: n})
    assert d.score()[0]["red_threes"] == points
    assert d.score()[0]["total"] == points - 10  # hands 4 and 6


def test_r50_split_red_threes():
    d = pos(["4", "5", "6", "7"], melds={0: ["A A A"], 1: ["K K K"]}, red_threes={0: 2, 1: 2})
    s = d.score()
    assert s[0]["red_threes"] == 200 and s[1]["red_threes"] == 200


@pytest.mark.parametrize("n, points", [(1, 100), (4, 400), (5, 1000), (6, 1200)])
def test_r50_six_players(n, points):
    rules = Rules(players=6)
    d = pos(["4"] * 6, melds={0: ["A A A"]}, red_threes={0: n}, rules=rules)
    assert d.score()[0]["red_threes"] == points
    d = pos(["4"] * 6, melds={1: ["A A A"]}, red_threes={0: n}, rules=rules)
    assert d.score()[0]["red_threes"] == -points


def test_r50_three_players_all_four():
    d = pos(["4", "5", "6"], melds={1: ["A A A"]}, red_threes={1: 4}, rules=Rules(players=3))
    assert d.score()[1]["red_threes"] == 800


def test_r50_bonus_switches():
    rules = Rules(red_three_bonus=50, all_red_threes_bonus=1000)
    d = pos(["4", "5", "6", "7"], melds={0: ["A A A"]}, red_threes={0: 3}, rules=rules)
    assert d.score()[0]["red_threes"] == 150
    d = pos(["4", "5", "6", "7"], melds={0: ["A A A"]}, red_threes={0: 4}, rules=rules)
    assert d.score()[0]["red_threes"] == 1000
    d = pos(["4", "5", "6", "7"], melds={1: ["A A A"]}, red_threes={0: 4}, rules=rules)
    assert d.score()[0]["red_threes"] == -1000


def test_r50_drawn_red_threes_count():
    d = pos(["9 9 K", "4 4", "7 7", "6 6"], stock="R3 5 Q", melds={0: ["A A A"]}, red_threes={0: 3})
    d.draw()
    assert d.red_threes(0) == 4
    assert d.score()[0]["red_threes"] == 800


def test_r51_canasta_bonuses_default():
    d = pos(
        ["4", "5", "6", "7"],
        melds={0: [SEVEN_K, "Q Q Q Q Q 2 JK", "A A A"], 1: ["J J J J J J J J", "9 9 9 9 2 2 2"]},
    )
    s = d.score()
    assert d.canastas(0) == 2 and d.canastas(1) == 2
    assert s[0]["canasta_bonus"] == 500 + 300
    assert s[1]["canasta_bonus"] == 500 + 300
    assert s[0]["meld_points"] == 70 + 50 + 20 + 50 + 60
    assert s[1]["meld_points"] == 80 + 40 + 60


def test_r51_canasta_bonus_switches():
    rules = Rules(natural_canasta_bonus=400, mixed_canasta_bonus=250)
    d = pos(["4", "5", "6", "7"], melds={0: [SEVEN_K, "Q Q Q Q Q 2 JK"]}, rules=rules)
    assert d.score()[0]["canasta_bonus"] == 650


def test_r51_six_card_meld_is_no_canasta():
    d = pos(["4", "5", "6", "7"], melds={0: ["K K K K K K", "Q Q Q Q 2 JK"]})
    assert d.canastas(0) == 0
    assert d.score()[0]["canasta_bonus"] == 0


def test_r52_going_out_bonus_switches():
    rules = Rules(going_out_bonus=150, concealed_going_out_bonus=250)
    d = pos(["Q", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "Q Q Q"]}, rules=rules)
    d.draw()
    d.meld("Q")
    d.discard("5")
    assert d.score()[0]["going_out_bonus"] == 150

    d = pos(["4 4 4 4 4 4 4", "9 9", "Q", "6 6"], stock="J 10", rules=rules)
    d.draw()
    d.meld("4 4 4 4 4 4 4")
    d.discard("J")
    assert d.concealed_out is True
    assert d.score()[0]["going_out_bonus"] == 250


def test_r53_meld_points():
    d = pos(["4", "5", "6", "7"], melds={0: ["K K K 2", "5 5 JK", "A A A A"]})
    assert d.score()[0]["meld_points"] == 30 + 20 + 10 + 50 + 80


def test_r54_hand_penalty():
    d = pos(["B3 JK 2 A K 7", "4", "Q 4", "6"], melds={0: ["9 9 9"]})
    s = d.score()[0]
    assert s["hand_penalty"] == 5 + 50 + 20 + 20 + 10 + 5 + 10 + 5
    assert s["total"] == 30 - 125
    assert d.score()[1]["hand_penalty"] == 10


def test_r53_r54_custom_card_values():
    # order: R3 B3 4 5 6 7 8 9 10 J Q K A 2 JK
    values = (0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15, 25, 20, 100)
    rules = Rules(card_values=values)
    d = pos(["JK A K B3", "4", "6", "5"], melds={0: ["K K K JK", "A A A"]}, rules=rules)
    s = d.score()[0]
    assert s["meld_points"] == 45 + 100 + 75
    assert s["hand_penalty"] == 100 + 25 + 15 + 5 + 5
    # the minimum count uses the card values too: K K K = 45 < 50, A A 2 = 70
    d = pos(["K K K A A 2 5 6", "4", "6", "5"], stock="9 9", rules=rules)
    d.draw()
    assert illegal(d.meld, "K K K") == "R-64"
    d.meld("A A 2")
    assert d.melds(0) == {"A": "A A 2"}


def test_r50_to_r54_total_is_sum_of_parts():
    d = pos(
        ["7 7 7 7 7 7 7 K K K", "9 9 J", "Q 4", "6 6"],
        stock="5 10 10",
        pile="A 8",
        red_threes={0: 2, 1: 1},
        melds={1: ["J J J 2"]},
    )
    d.draw()
    d.meld("7 7 7 7 7 7 7", "K K K")
    d.discard("5")
    s = d.score()
    assert s[0] == {
        "red_threes": 200,
        "canasta_bonus": 600,
        "going_out_bonus": 200,
        "meld_points": 65,
        "hand_penalty": 15,
        "total": 200 + 600 + 200 + 65 - 15,
    }
    assert s[1] == {
        "red_threes": 100,
        "canasta_bonus": 0,
        "going_out_bonus": 0,
        "meld_points": 50,
        "hand_penalty": 40,
        "total": 100 + 50 - 40,
    }


# ================================================================================================
# R-60 .. R-67: melds and canastas
# ================================================================================================
@pytest.mark.parametrize(
    "cards, classic, hoyle",
    [
        ("K K K", True, True),
        ("K K", False, False),
        ("K K 2", True, True),
        ("K 2 2", False, False),
        ("K K 2 2", True, True),
        ("K K K 2 2 JK", True, True),
        ("K K 2 2 JK", False, True),
        ("K K K K 2 2 2 JK", False, False),
        ("K K K K K K K K K K K 2 2 2", True, True),
        ("K Q J", False, False),
        ("K K Q Q", False, False),
        ("2 2 2", False, False),
        ("JK JK 2", False, False),
        ("R3 R3 R3", False, False),
        ("4 4 4", True, True),
        ("A A JK", True, True),
    ],
)
def test_r60_is_legal_meld(cards, classic, hoyle):
    assert is_legal_meld(cards, Rules()) == classic
    assert is_legal_meld(cards, Rules(wilds_at_most_naturals=False)) == hoyle
    assert is_legal_meld(cards, Rules.preset("hoyle")) == hoyle


def _melder(hand, melds=None, rules=None):
    d = pos([hand, "4 4", "7 7", "6 6"], stock="10 10", melds=melds or {0: ["A A A"]}, rules=rules)
    d.draw()
    return d


def test_r60_meld_moves():
    d = _melder("K K 2 2 2 JK Q Q 5 6")
    assert illegal(d.meld, "K 2 2") == "R-60"
    assert illegal(d.meld, "K K") == "R-60"
    assert illegal(d.meld, "K K 2 2 2") == "R-60"
    assert illegal(d.meld, "K K 2 2 2 JK") == "R-60"
    assert illegal(d.meld, "K: 2 2 2") == "R-60"
    assert illegal(d.meld, "2 2 2") == "R-60"
    assert d.melds(0) == {"A": "A A A"}
    d.meld("K K 2 2")
    assert d.melds(0)["K"] == "K K 2 2"


def test_r60_hoyle_allows_more_wilds_by_move():
    d = _melder("K K 2 2 2 JK Q Q 5 6", rules=Rules.preset("hoyle"))
    assert illegal(d.meld, "K K 2 2 2 JK") == "R-60"  # still at most 3 wild cards
    d.meld("K K 2 2 2")
    assert d.melds(0)["K"] == "K K 2 2 2"


def test_r60_mixed_ranks_refused():
    d = _melder("K K Q Q 2 5 6")
    assert illegal(d.meld, "K K Q") == "R-62"
    assert illegal(d.meld, "R3 R3 R3") in ("R-63", "R-60")


def test_r61_adding_keeps_meld_legal():
    d = _melder("9 2 JK JK 5 6 Q", melds={0: ["9 9 9 2 2"]})
    d.meld("9: JK")
    assert d.melds(0)["9"] == "9 9 9 2 2 JK"
    assert illegal(d.meld, "9: 2") == "R-61"  # a fourth wild card
    assert illegal(d.meld, "9: JK") == "R-61"
    d.meld("9")
    assert d.melds(0)["9"] == "9 9 9 9 2 2 JK"


def test_r61_wilds_at_most_naturals_on_add():
    d = _melder("2 JK 5 6 Q", melds={0: ["9 9 2 2"]})
    assert illegal(d.meld, "9: JK") == "R-61"  # 2 naturals, 3 wild cards
    d = _melder("2 JK 5 6 Q", melds={0: ["9 9 2 2"]}, rules=Rules(wilds_at_most_naturals=False))
    d.meld("9: JK")
    assert d.melds(0)["9"] == "9 9 2 2 JK"


def test_r61_wild_only_add_needs_rank_prefix():
    d = _melder("2 5 6 Q", melds={0: ["9 9 9"]})
    assert illegal(d.meld, "2") == "R-60"
    d.meld("9: 2")
    assert d.melds(0)["9"] == "9 9 9 2"


def test_r62_same_rank_goes_onto_existing_meld():
    d = _melder("K K K 5 6 Q", melds={0: ["K K K"], 1: ["K K 2"]})
    d.meld("K K K")
    assert d.melds(0) == {"K": "K K K K K K"}
    assert d.melds(1) == {"K": "K K 2"}  # both sides may hold kings


def test_r62_two_texts_same_rank_one_meld():
    d = _melder("K K K K K K 5 6")
    d.meld("K K K", "K K K")
    assert d.melds(0) == {"A": "A A A", "K": "K K K K K K"}


def test_r62_one_meld_per_rank_by_pickup():
    d = pos(["8 8 5 6", "4 4", "7 7", "9 9"], pile="5 9 8", melds={0: ["8 8 8"]})
    d.take_pile("8 8")
    assert d.melds(0) == {"8": "8 8 8 8 8 8"}


def test_r63_black_threes_only_going_out():
    d = _melder("B3 B3 B3 5 6 Q", melds={0: [SEVEN_K]})
    assert illegal(d.meld, "B3 B3 B3") == "R-63"  # 4 cards left
    d = _melder("B3 B3 B3 2", melds={0: [SEVEN_K]})
    assert illegal(d.meld, "B3 B3 B3 2") == "R-63"  # no wild cards with black threes
    d = _melder("B3 B3 B3", melds={0: [SEVEN_K]})
    d.meld("B3 B3 B3")  # the drawn 10 is left to discard
    d.discard("10")
    assert d.is_over and d.melds(0)["B3"] == "B3 B3 B3"


def test_r63_black_threes_split_over_the_laying_downs_of_the_turn_going_out():
    """Three black threes laid with the drawn 5, leaving the fourth (one card), then the
    fourth: the turn goes out with the meld of four black threes."""
    d = pos(["B3 B3 B3 B3", "4 4", "7 7", "6 6"], stock="5 10", melds={0: [SEVEN_K, "5 5 5"]})
    d.draw()
    d.meld("B3 B3 B3", "5")
    assert not d.is_over and d.hand(0) == "B3"
    d.meld("B3")
    assert d.is_over and d.end_reason == "went_out" and d.went_out == 0
    assert d.melds(0)["B3"] == "B3 B3 B3 B3"
    assert d.score()[0]["meld_points"] == 70 + 20 + 20  # K x 7, 5 x 4, B3 x 4


def test_r63_red_threes_never_melded():
    d = _melder("5 6 Q K")
    assert illegal(d.meld, "R3 R3 R3") in ("R-63", "R-60")
    assert is_legal_meld("R3 R3 R3", Rules(), going_out=True) == False  # noqa: E712


def test_r63_black_threes_need_canasta_to_go_out():
    d = _melder("B3 B3 B3", melds={0: ["K K K"]})
    assert illegal(d.meld, "B3 B3 B3") in ("R-40", "R-63")


# --- the initial meld ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "score, minimum",
    [
        (-5, 15),
        (-1000, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (7500, 120),
        (12000, 120),
        (2**30, 120),
        (2**31 - 1, 120),
    ],
)
def test_r64_minimum_table_four_players(score, minimum):
    assert minimum_count(score, Rules()) == minimum
    assert minimum_count(score, Rules(players=2)) == minimum
    assert minimum_count(score, Rules(players=3)) == minimum


@pytest.mark.parametrize(
    "score, minimum",
    [
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (3000, 120),
        (7495, 120),
        (7500, 150),
        (20000, 150),
    ],
)
def test_r64_minimum_table_six_players(score, minimum):
    assert minimum_count(score, Rules(players=6)) == minimum


def test_r64_negative_minimum_switch():
    assert minimum_count(-5, Rules(negative_minimum=25)) == 25
    assert minimum_count(0, Rules(negative_minimum=25)) == 50
    d = pos(
        ["5 5 5 6 7 8", "4 4", "7 7", "6 6"],
        stock="9 9",
        scores={0: -10},
        rules=Rules(negative_minimum=20),
    )
    d.draw()
    assert illegal(d.meld, "5 5 5") == "R-64"  # 15 < 20
    d = pos(["5 5 5 6 7 8", "4 4", "7 7", "6 6"], stock="9 9", scores={0: -10})
    d.draw()
    d.meld("5 5 5")  # 15 >= 15
    assert d.melds(0) == {"5": "5 5 5"}


def test_r64_minimum_50_by_meld():
    d = pos(["K K K A A 2 5 6", "4 4", "7 7", "6 6"], stock="9 9")
    d.draw()
    before = snapshot(d)
    assert illegal(d.meld, "K K K") == "R-64"  # 30 < 50
    assert snapshot(d) == before
    d.meld("A A 2")  # 60 >= 50
    d.meld("K K K")  # no minimum after the initial meld
    assert d.melds(0) == {"K": "K K K", "A": "A A 2"}


def test_r64_combined_melds_count():
    d = pos(["K K K 5 5 5 6 6 6 7", "4 4", "7 7", "6 6"], stock="9 9")
    d.draw()
    assert illegal(d.meld, "K K K", "5 5 5") == "R-64"  # 30 + 15 = 45 < 50
    d.meld("K K K", "5 5 5", "6 6 6")  # 30 + 15 + 15 = 60
    assert d.melds(0) == {"5": "5 5 5", "6": "6 6 6", "K": "K K K"}


def test_r64_minimum_by_score():
    hand = "A A A K K K 2 JK 5 6"
    for score, ok in ((1495, True), (1500, False), (3000, False)):
        d = pos([hand, "4 4", "7 7", "6 6"], stock="9 9", scores={0: score})
        d.draw()
        if ok:
            d.meld("A A A")  # 60 >= 50
        else:
            assert illegal(d.meld, "A A A") == "R-64"  # 60 < 90 / 120
    d = pos([hand, "4 4", "7 7", "6 6"], stock="9 9", scores={0: 1500})
    d.draw()
    d.meld("A A A", "K K K")  # 60 + 30 = 90 >= 90
    d = pos([hand, "4 4", "7 7", "6 6"], stock="9 9", scores={0: 3000})
    d.draw()
    assert illegal(d.meld, "A A A", "K K K 2") == "R-64"  # 60 + 50 = 110 < 120
    d.meld("A A A", "K K K JK")  # 60 + 80 = 140 >= 120
    assert d.melds(0) == {"K": "K K K JK", "A": "A A A"}


def test_r64_minimum_per_side():
    """Side 1's score sets side 1's minimum only."""
    hand = "A A A 5 6"
    d = pos(["4 4", hand, "7 7", "6 6"], stock="9 9", scores={0: 3000, 1: 0}, current=1)
    d.draw()
    d.meld("A A A")  # 60 >= 50 for side 1
    d = pos([hand, "4 4", "7 7", "6 6"], stock="9 9", scores={0: 3000, 1: 0})
    d.draw()
    assert illegal(d.meld, "A A A") == "R-64"  # 60 < 120 for side 0


def test_r64_six_players_150():
    rules = Rules(players=6)
    hand = "A A A K K K 2 JK 5 6"
    d = pos([hand] + ["4"] * 5, stock="9 9", scores={0: 7500}, rules=rules)
    d.draw()
    assert illegal(d.meld, "A A A", "K K K JK") == "R-64"  # 140 < 150
    d.meld("A A A 2", "K K K JK")  # 80 + 80 = 160
    d = pos([hand, "4", "4", "4"], stock="9 9", scores={0: 7500})  # 4 players: 120
    d.draw()
    d.meld("A A A", "K K K JK")


def test_r64_pile_top_counts_rest_does_not():
    # minimum 50: A A + top A = 60 (the top card counts)
    d = pos(["A A 5 6", "4 4", "7 7", "6 6"], pile="4 A")
    d.take_pile("A A")
    assert d.melds(0) == {"A": "A A A"}
    # K K + top K = 30 < 50 although the pile holds aces and a joker (they do not count)
    d = pos(["K K 5 6", "4 4", "7 7", "6 6"], pile="A A JK K")
    before = snapshot(d)
    assert illegal(d.take_pile, "K K") == "R-64"
    assert snapshot(d) == before


def test_r64_pile_top_with_further_melds():
    d = pos(["K K Q Q Q 5 6", "4 4", "7 7", "6 6"], pile="A A K")
    assert illegal(d.take_pile, "K K") == "R-64"  # 30
    assert d.can_take_pile() is True  # with Q Q Q added: 60
    d.take_pile("K K", melds=["Q Q Q"])
    assert d.melds(0) == {"Q": "Q Q Q", "K": "K K K"}
    assert d.hand(0) == "5 6 A A"


def test_r64_bonuses_do_not_count():
    # four red threes (800) do not help the minimum
    d = pos(["K K K 5 6", "4 4", "7 7", "6 6"], stock="9 9", red_threes={0: 4})
    d.draw()
    assert illegal(d.meld, "K K K") == "R-64"
    # nor does a canasta's bonus: seven 4s count 35
    d = pos(["4 4 4 4 4 4 4 5 6", "5", "7 7", "6 6"], stock="9 9", pile="8")
    d.draw()
    assert illegal(d.meld, "4 4 4 4 4 4 4") == "R-64"


def test_r64_side_with_meld_has_no_minimum():
    d = pos(["5 5 5 6 7", "4 4", "7 7", "6 6"], stock="9 9", melds={0: ["A A A"]}, scores={0: 3000})
    d.draw()
    d.meld("5 5 5")
    assert d.melds(0) == {"5": "5 5 5", "A": "A A A"}


# --- canastas -------------------------------------------------------------------------
def test_r65_natural_and_mixed():
    d = pos(["4", "5", "6", "7"], melds={0: [SEVEN_K], 1: ["Q Q Q Q 2 2 JK"]})
    assert d.canastas(0) == 1 and d.canastas(1) == 1
    assert d.score()[0]["canasta_bonus"] == 500
    assert d.score()[1]["canasta_bonus"] == 300
    assert d.score()[1]["meld_points"] == 40 + 40 + 50


def test_r65_mixed_canasta_needs_four_naturals():
    assert is_legal_meld("Q Q Q 2 2 2 JK", Rules()) == False  # noqa: E712
    assert is_legal_meld("Q Q Q 2 2 2 JK", Rules.preset("hoyle")) == False  # noqa: E712
    assert is_legal_meld("Q Q Q Q 2 2 JK", Rules()) == True  # noqa: E712


def test_r65_r67_wild_added_to_natural_canasta_makes_it_mixed():
    d = pos(["2 5 6 Q", "4 4", "7 7", "6 6"], stock="9 9", melds={0: [SEVEN_K]})
    assert d.score()[0]["canasta_bonus"] == 500
    d.draw()
    d.meld("K: 2")
    assert d.melds(0)["K"] == "K K K K K K K 2"
    assert d.canastas(0) == 1
    s = d.score()[0]
    assert s["canasta_bonus"] == 300
    assert s["meld_points"] == 70 + 20


def test_r65_natural_added_keeps_natural():
    d = pos(["K 5 6 Q", "4 4", "7 7", "6 6"], stock="9 9", melds={0: [SEVEN_K]})
    d.draw()
    d.meld("K")
    assert d.score()[0]["canasta_bonus"] == 500
    assert d.score()[0]["meld_points"] == 80


def test_r65_canasta_reached_by_adding():
    d = pos(["Q Q 2 5 6", "4 4", "7 7", "6 6"], stock="9 9", melds={0: ["Q Q Q Q"]})
    assert d.canastas(0) == 0
    d.draw()
    d.meld("Q Q 2")
    assert d.canastas(0) == 1
    assert d.score()[0]["canasta_bonus"] == 300  # mixed, not concealed (built over turns)


# --- concealed canastas ------------------------------------------------------------------
def test_r66_concealed_natural_canasta_classic():
    d = pos(["Q Q Q Q Q Q Q 5 6", "4 4", "7 7", "6 6"], stock="9 9")
    d.draw()
    d.meld(SEVEN_Q)
    assert d.score()[0]["canasta_bonus"] == 600


def test_r66_concealed_mixed_canasta_classic():
    d = pos(["Q Q Q Q Q 2 JK 5 6", "4 4", "7 7", "6 6"], stock="9 9")
    d.draw()
    d.meld("Q Q Q Q Q 2 JK")
    assert d.score()[0]["canasta_bonus"] == 400


def test_r66_hoyle_no_concealed_bonus():
    rules = Rules.preset("hoyle")
    d = pos(["Q Q Q Q Q Q Q 5 6", "4 4", "7 7", "6 6"], stock="9 9", rules=rules)
    d.draw()
    d.meld(SEVEN_Q)
    assert d.score()[0]["canasta_bonus"] == 500
    d = pos(["Q Q Q Q Q 2 JK 5 6", "4 4", "7 7", "6 6"], stock="9 9", rules=rules)
    d.draw()
    d.meld("Q Q Q Q Q 2 JK")
    assert d.score()[0]["canasta_bonus"] == 300


def test_r66_custom_concealed_bonus():
    rules = Rules(concealed_canasta_bonus=50)
    d = pos(["Q Q Q Q Q Q Q 5 6", "4 4", "7 7", "6 6"], stock="9 9", rules=rules)
    d.draw()
    d.meld(SEVEN_Q)
    assert d.score()[0]["canasta_bonus"] == 550


def test_r66_concealed_over_several_meld_calls_in_one_turn():
    d = pos(["Q Q Q Q Q Q Q 5 6", "4 4", "7 7", "6 6"], stock="9 9", melds={0: ["A A A"]})
    d.draw()
    d.meld("Q Q Q")
    d.meld("Q Q Q Q")
    assert d.score()[0]["canasta_bonus"] == 600


def test_r66_concealed_with_pile_top_card():
    """Six queens from hand plus the pile's top queen: concealed (at most the top card)."""
    d = pos(["Q Q Q Q Q Q 5 6", "4 4", "7 7", "6 6"], pile="4 Q")
    d.take_pile("Q Q Q Q Q Q")
    assert d.melds(0) == {"Q": SEVEN_Q}
    assert d.score()[0]["canasta_bonus"] == 600


def test_r66_not_concealed_with_other_pile_cards():
    """Two queens from hand + the top queen + four queens from below the top of the pile:
    the canasta uses pile cards other than the top card, so it is not concealed (R-66)."""
    d = pos(["Q Q 5 6", "4 4", "7 7", "6 6"], pile="Q Q Q Q Q", melds={0: ["A A A"]})
    d.take_pile("Q Q")
    assert d.hand(0) == "5 6 Q Q Q Q"
    d.meld("Q Q Q Q")
    assert d.melds(0)["Q"] == SEVEN_Q
    assert d.score()[0]["canasta_bonus"] == 500


def test_r66_not_concealed_when_built_over_two_turns():
    d = pos(
        ["Q Q Q Q Q Q 5 6", "4 4 4", "7 7 7", "6 6 6"], stock="9 10 10 10 Q", melds={0: ["A A A"]}
    )
    d.draw()  # 9
    d.meld("Q Q Q Q")
    d.discard("9")
    for _ in range(3):
        d.draw()
        d.discard("10")
    assert d.current_player == 0
    d.draw()  # Q
    d.meld("Q Q Q")
    assert d.melds(0)["Q"] == SEVEN_Q
    assert d.hand(0) == "5 6"
    s = d.score()[0]
    assert s["canasta_bonus"] == 500
    assert s["meld_points"] == 60 + 70


# --- sides ---------------------------------------------------------------------------------
def test_r10_partners_share_melds():
    d = pos(["4 4", "5 5", "K K K 6 7", "8 8"], stock="9 9", melds={0: ["A A A"]}, current=2)
    d.draw()
    d.meld("K K K")
    assert d.melds(0) == {"K": "K K K", "A": "A A A"}
    assert d.melds(1) == {}


def test_r10_three_players_each_alone():
    rules = Rules(players=3)
    d = pos(
        ["4 4", "5 5", "K K K A A A 7"], stock="9 9", melds={0: ["A A A"]}, current=2, rules=rules
    )
    d.draw()
    assert illegal(d.meld, "K K K") == "R-64"  # side 2 has not melded: 30 < 50
    d.meld("K K K", "A A A")  # 90
    assert d.melds(2) == {"K": "K K K", "A": "A A A"}
    assert d.melds(0) == {"A": "A A A"} and d.melds(1) == {}
    assert d.hand(2) == "7 9"


def test_r10_six_players_alternating_sides():
    rules = Rules(players=6)
    d = pos(
        ["4", "5", "6", "7", "K K K 8 9", "10"],
        stock="9 9",
        melds={0: ["A A A"]},
        current=4,
        rules=rules,
    )
    d.draw()
    d.meld("K K K")
    assert d.melds(0) == {"K": "K K K", "A": "A A A"}
    assert d.melds(1) == {}
    d.discard("8")
    assert d.current_player == 5
    # seats 0, 2, 4 pay for side 0's hands: 4 (5) + 6 (5) + 9 9 (20)
    assert d.score()[0]["hand_penalty"] == 30
    assert d.score()[1]["hand_penalty"] == 5 + 5 + 10


@pytest.mark.parametrize(
    "hands, pile, rules",
    [
        # one card left after the pickup and no canasta: the take would go out illegally
        (["6", "7", "6", "7"], "R3 5", Rules(red_three_upcard_freezes=False)),
        (["", "7", "6", "7"], "5", Rules()),
    ],
)
def test_r44_a_pickup_that_is_not_legal_is_not_forced(hands, pile, rules):
    """R-44 forces the pickup onto a meld only when that pickup is legal; when it is not, the
    player cannot take the pile and the deal ends (otherwise neither draw nor take_pile would be
    legal and no turn could end)."""
    d = pos(hands, stock="", pile=pile, melds={0: ["5 5 5"]}, rules=rules)
    d.draw()
    assert d.is_over and d.end_reason == "stock_exhausted"
