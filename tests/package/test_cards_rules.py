"""Card notation (R-01..R-04) and the rules configuration (RULES.md sections 2 and 8).

Every expected value below is written from RULES.md, not from the engine's output.
"""

import json

import numpy as np
import pytest

from canasta_sim import KINDS, N_KINDS, Deal, Rules, format_cards, parse_cards
from canasta_sim.cards import kind_index, parse_sequence
from canasta_sim.run.simulate import resolve_rules


# --- kinds and the count-array order ------------------------------------------------------
def test_kinds_order_r02():
    assert KINDS == ("R3", "B3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK")
    assert N_KINDS == 15


def test_parse_counts_each_kind():
    counts = parse_cards("R3 B3 4 5 6 7 8 9 10 J Q K A 2 JK")
    assert counts.tolist() == [1] * 15
    assert counts.dtype == np.int8


def test_parse_meld_example():
    counts = parse_cards("9 9 9 2 2 JK")
    expected = [0] * 15
    expected[KINDS.index("9")] = 3
    expected[KINDS.index("2")] = 2
    expected[KINDS.index("JK")] = 1
    assert counts.tolist() == expected


def test_hyphens_and_spaces_are_the_same():
    assert parse_cards("9-9-9-2-2-JK").tolist() == parse_cards("9 9 9 2 2 JK").tolist()
    assert parse_cards("5-5 -2").tolist() == parse_cards("5 5 2").tolist()


def test_case_insensitive():
    assert parse_cards("k q j jk r3 b3 a").tolist() == parse_cards("K Q J JK R3 B3 A").tolist()
    assert kind_index("jk") == 14
    assert kind_index("r3") == 0
    assert kind_index("b3") == 1


def test_t_is_ten():
    assert kind_index("T") == kind_index("10") == 8
    assert kind_index("t") == 8
    assert format_cards(parse_cards("T T 10")) == "10 10 10"


def test_joker_alias():
    assert kind_index("JOKER") == 14
    assert kind_index("joker") == 14


def test_format_uses_kind_order():
    assert format_cards(parse_cards("jk 2-9 9 9 2")) == "9 9 9 2 2 JK"
    assert format_cards(parse_cards("A R3 B3 4 K")) == "R3 B3 4 K A"


@pytest.mark.parametrize(
    "text",
    [
        "R3 B3 4 5 6 7 8 9 10 J Q K A 2 JK",
        "K K K K K K K",
        "B3 B3 B3",
        "4 4 2 JK JK",
        "",
    ],
)
def test_round_trip(text):
    assert format_cards(parse_cards(text)) == text
    assert parse_cards(format_cards(parse_cards(text))).tolist() == parse_cards(text).tolist()


def test_empty_text_is_no_cards():
    assert parse_cards("").tolist() == [0] * 15
    assert parse_cards("   ").tolist() == [0] * 15
    assert format_cards(np.zeros(15, np.int8)) == ""


def test_sequence_keeps_order():
    assert parse_sequence("K 4 JK R3").tolist() == [11, 2, 14, 0]


@pytest.mark.parametrize("token", ["X", "11", "3", "1", "JJ", "R4", "Kx"])
def test_unknown_token_named(token):
    with pytest.raises(ValueError) as info:
        parse_cards(f"K {token} Q")
    assert repr(token) in str(info.value) or token in str(info.value)


def test_unknown_token_in_position_is_value_error():
    with pytest.raises(ValueError) as info:
        Deal.from_position(hands=["K X", "", "", ""], stock="", pile="")
    assert "X" in str(info.value)


def test_format_rejects_bad_arrays():
    with pytest.raises(ValueError):
        format_cards(np.zeros(14, np.int8))
    bad = np.zeros(15, np.int8)
    bad[3] = -1
    with pytest.raises(ValueError):
        format_cards(bad)


# --- card values --------------------------------------------------------------------------
def test_default_card_values_r04():
    values = dict(zip(KINDS, Rules().card_values))
    assert values["JK"] == 50
    assert values["2"] == 20 and values["A"] == 20
    for k in ("K", "Q", "J", "10", "9", "8"):
        assert values[k] == 10
    for k in ("7", "6", "5", "4", "B3"):
        assert values[k] == 5
    assert values["R3"] == 0


# --- section 2's table ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, sides, dealt, drawn, canastas, deck, target",
    [
        (2, 2, 15, 2, 2, 108, 5000),
        (3, 3, 13, 1, 1, 108, 5000),
        (4, 2, 11, 1, 1, 108, 5000),
        (6, 2, 13, 1, 2, 162, 10000),
    ],
)
def test_section2_table(players, sides, dealt, drawn, canastas, deck, target):
    r = Rules(players=players)
    assert r.sides == sides
    assert r.cards_dealt == dealt
    assert r.cards_drawn == drawn
    assert r.canastas_to_go_out == canastas
    assert r.n_cards == deck
    assert r.game_target == target


def test_side_of_seat_r10():
    r4 = Rules(players=4)
    assert [r4.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    r6 = Rules(players=6)
    assert [r6.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    r3 = Rules(players=3)
    assert [r3.side_of(s) for s in range(3)] == [0, 1, 2]
    r2 = Rules(players=2)
    assert [r2.side_of(s) for s in range(2)] == [0, 1]


@pytest.mark.parametrize(
    "players, dealt, deck", [(2, 15, 108), (3, 13, 108), (4, 11, 108), (6, 13, 162)]
)
def test_new_deal_follows_table(players, dealt, deck):
    """R-01, R-15: every hand holds the dealt number of cards after red-three replacement, no
    hand holds a red three, and every card of the pack is somewhere."""
    rules = Rules(players=players)
    for seed in range(20):
        d = Deal.new(rules, seed=seed)
        sizes = [len(h.split()) for h in d.hands]
        assert sizes == [dealt] * players
        assert all("R3" not in h.split() for h in d.hands)
        total = (
            sum(sizes)
            + len(d.pile.split())
            + d.stock_size
            + sum(d.red_threes(s) for s in range(rules.sides))
        )
        assert total == deck


def test_new_deal_first_player_r11():
    for dealer in range(4):
        d = Deal.new(Rules(), seed=7, dealer=dealer)
        assert d.current_player == (dealer + 1) % 4
        assert d.phase == "draw"


# --- section 8: validation -----------------------------------------------------------------------
def _error(**kw):
    with pytest.raises(ValueError) as info:
        Rules(**kw)
    return str(info.value)


def test_players_5_refused():
    assert "players" in _error(players=5)
    assert "players" in _error(players=1)
    assert "players" in _error(players=8)


def test_negative_card_value_refused():
    values = list(Rules().card_values)
    values[KINDS.index("K")] = -10
    assert "card_values" in _error(card_values=tuple(values))


def test_card_value_not_multiple_of_5_refused():
    values = list(Rules().card_values)
    values[KINDS.index("K")] = 12
    assert "card_values" in _error(card_values=tuple(values))


def test_card_values_wrong_length_refused():
    assert "card_values" in _error(card_values=(0, 5, 5))


def test_negative_minimum_not_multiple_of_5_refused():
    assert "negative_minimum" in _error(negative_minimum=12)
    assert "negative_minimum" in _error(negative_minimum=0)
    assert "negative_minimum" in _error(negative_minimum=-15)


def test_negative_bonus_refused():
    for name in (
        "concealed_canasta_bonus",
        "natural_canasta_bonus",
        "mixed_canasta_bonus",
        "going_out_bonus",
        "concealed_going_out_bonus",
        "red_three_bonus",
        "all_red_threes_bonus",
    ):
        assert name in _error(**{name: -100})


def test_bool_switch_wrong_type_refused():
    for name in (
        "upcard_covers_black_three",
        "red_three_upcard_freezes",
        "wilds_at_most_naturals",
        "concealed_out_needs_minimum",
        "meld_after_last_red_three",
    ):
        assert name in _error(**{name: 2})


def test_max_turns_and_game_target_refused():
    assert "max_turns" in _error(max_turns=0)
    assert "game_target" in _error(game_target=0)


def test_unknown_switch_in_from_dict_named():
    data = Rules().to_dict()
    data["jokers_are_wild"] = True
    with pytest.raises(ValueError) as info:
        Rules.from_dict(data)
    assert "jokers_are_wild" in str(info.value)


def test_unknown_preset_refused():
    with pytest.raises(ValueError) as info:
        Rules.preset("modern")
    assert "modern" in str(info.value)


# --- section 8: defaults and presets --------------------------------------------------------------
def test_classic_defaults_section8():
    r = Rules.preset("classic")
    assert r == Rules()
    assert r.players == 4
    assert r.upcard_covers_black_three is True
    assert r.red_three_upcard_freezes is True
    assert r.wilds_at_most_naturals is True
    assert r.concealed_canasta_bonus == 100
    assert r.concealed_out_needs_minimum is False
    assert r.negative_minimum == 15
    assert r.meld_after_last_red_three is True
    assert r.natural_canasta_bonus == 500
    assert r.mixed_canasta_bonus == 300
    assert r.going_out_bonus == 100
    assert r.concealed_going_out_bonus == 200
    assert r.red_three_bonus == 100
    assert r.all_red_threes_bonus == 800
    assert r.game_target == 5000
    assert r.max_turns == 2000


def test_hoyle_differs_only_in_two_switches():
    classic = Rules.preset("classic").to_dict()
    hoyle = Rules.preset("hoyle").to_dict()
    diff = {k for k in classic if classic[k] != hoyle[k]}
    assert diff == {"wilds_at_most_naturals", "concealed_canasta_bonus"}
    assert hoyle["wilds_at_most_naturals"] is False
    assert hoyle["concealed_canasta_bonus"] == 0


def test_preset_players_and_overrides():
    r = Rules.preset("hoyle", players=6)
    assert r.players == 6 and r.n_cards == 162 and r.game_target == 10000
    assert r.wilds_at_most_naturals is False
    r2 = Rules.preset("hoyle", concealed_canasta_bonus=50)
    assert r2.concealed_canasta_bonus == 50
    assert r2.wilds_at_most_naturals is False


@pytest.mark.parametrize(
    "name, wilds_at_most_naturals, concealed_canasta_bonus",
    [
        ("CLASSIC", True, 100),
        ("Hoyle", False, 0),
        (" hoyle ", False, 0),
    ],
)
def test_preset_names_ignore_case(name, wilds_at_most_naturals, concealed_canasta_bonus):
    r = Rules.preset(name, players=2)
    assert r.players == 2
    assert r.wilds_at_most_naturals is wilds_at_most_naturals
    assert r.concealed_canasta_bonus == concealed_canasta_bonus
    assert resolve_rules(name).concealed_canasta_bonus == concealed_canasta_bonus


def test_game_target_by_players_and_explicit():
    assert Rules(players=2).game_target == 5000
    assert Rules(players=3).game_target == 5000
    assert Rules(players=6).game_target == 10000
    assert Rules(players=4, game_target=3000).game_target == 3000


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.preset("hoyle", players=2),
        Rules(players=6, negative_minimum=25, max_turns=10, game_target=7000),
        Rules(
            players=3,
            concealed_out_needs_minimum=True,
            meld_after_last_red_three=False,
            upcard_covers_black_three=False,
            red_three_upcard_freezes=False,
            card_values=(0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 25, 20, 100),
        ),
    ],
)
def test_to_dict_from_dict_round_trip(rules):
    d = rules.to_dict()
    assert isinstance(d["card_values"], list)
    back = Rules.from_dict(json.loads(json.dumps(d)))
    assert back == rules
    assert back.to_dict() == d
    assert np.array_equal(back.to_array(), rules.to_array())


def test_to_dict_has_every_switch():
    keys = set(Rules().to_dict())
    assert {
        "players",
        "upcard_covers_black_three",
        "red_three_upcard_freezes",
        "wilds_at_most_naturals",
        "concealed_canasta_bonus",
        "concealed_out_needs_minimum",
        "negative_minimum",
        "meld_after_last_red_three",
        "natural_canasta_bonus",
        "mixed_canasta_bonus",
        "going_out_bonus",
        "concealed_going_out_bonus",
        "red_three_bonus",
        "all_red_threes_bonus",
        "card_values",
        "game_target",
        "max_turns",
    } <= keys


def test_from_dict_partial():
    assert Rules.from_dict({"players": 2}) == Rules(players=2)
    assert Rules.from_dict({}) == Rules()


# --- R-50 via Rules.red_three_score --------------------------------------------------------------
def test_red_three_score_108():
    r = Rules()
    assert [r.red_three_score(n) for n in range(5)] == [0, 100, 200, 300, 800]


def test_red_three_score_162():
    r = Rules(players=6)
    assert [r.red_three_score(n) for n in range(7)] == [0, 100, 200, 300, 400, 1000, 1200]


# --- public helpers return plain Python values ---------------------------------------------------
@pytest.mark.parametrize(
    "cards, going_out",
    [
        ("5 5 2", False),
        ("5 2 2", False),
        ("B3 B3 B3", True),
        ("B3 B3 B3", False),
        ("R3 R3 R3", False),
        ("K Q J", False),
    ],
)
def test_is_legal_meld_returns_bool(cards, going_out):
    from canasta_sim import is_legal_meld

    assert type(is_legal_meld(cards, Rules(), going_out=going_out)) is bool


def test_minimum_count_returns_int():
    from canasta_sim import minimum_count

    assert type(minimum_count(0, Rules())) is int


def test_illegal_move_is_value_error_with_rule():
    from canasta_sim import IllegalMove

    e = IllegalMove("R-32", "frozen")
    assert isinstance(e, ValueError)
    assert e.rule == "R-32"
    assert str(e).startswith("R-32")


# --- from_position validation (R-01 pack, R-60 melds on the table) -------------------------------
def test_from_position_wrong_number_of_hands():
    with pytest.raises(ValueError) as info:
        Deal.from_position(Rules(players=4), hands=["4", "5", "6"], stock="", pile="")
    assert "hands" in str(info.value)


def test_from_position_more_cards_than_pack():
    with pytest.raises(ValueError) as info:
        Deal.from_position(hands=["JK JK JK", "JK JK", "", ""], stock="", pile="")
    assert "JK" in str(info.value)
    with pytest.raises(ValueError):
        Deal.from_position(hands=["", "", "", ""], stock="", pile="", red_threes={0: 5})
    # a 162-card pack has 6 red threes and 6 jokers
    Deal.from_position(
        Rules(players=6),
        hands=["JK JK JK", "JK JK JK", "", "", "", ""],
        stock="",
        pile="",
        red_threes={0: 6},
    )
    with pytest.raises(ValueError):
        Deal.from_position(
            Rules(players=6),
            hands=["", "", "", "", "", ""],
            stock="",
            pile="",
            red_threes={0: 4, 1: 3},
        )


def test_from_position_illegal_meld_on_table():
    with pytest.raises(ValueError):
        Deal.from_position(hands=["4", "5", "6", "7"], stock="", pile="", melds={0: ["5 2 2"]})
    with pytest.raises(ValueError):
        Deal.from_position(hands=["4", "5", "6", "7"], stock="", pile="", melds={0: ["9 9 2 2 2"]})
    Deal.from_position(
        Rules.preset("hoyle"),
        hands=["4", "5", "6", "7"],
        stock="",
        pile="",
        melds={0: ["9 9 2 2 2"]},
    )


def test_new_rejects_bad_arguments():
    with pytest.raises(ValueError):
        Deal.new(Rules(), seed=-1)
    with pytest.raises(ValueError):
        Deal.new(Rules(), seed=0, dealer=4)


def test_new_accepts_large_seeds():
    for seed in (2**63 - 1, 2**63, 2**64 - 1):
        d = Deal.new(Rules(), seed=seed)
        assert len(d.hands) == 4
