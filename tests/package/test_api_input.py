"""Bad input to the Python API: clear errors that name the value (found by a user test)."""

import json

import numpy as np
import pytest

from canasta_sim import Deal, IllegalMove, Rules, simulate, sweep
from canasta_sim import minimum_count as cs_minimum_count
from canasta_sim.cards import parse_cards
from canasta_sim.players.specs import parse_bot
from canasta_sim.run.compare import sweep_specs


def four_hands(first="5 5 5 K"):
    return [first, "6 6 7 8", "9 9 10 J", "Q Q A A"]


def test_card_text_must_be_a_string():
    with pytest.raises(TypeError, match="None"):
        parse_cards(None)


def test_discard_of_a_non_card_names_it():
    d = Deal.from_position(hands=four_hands(), stock="4 4 4", pile="7")
    d.draw()
    with pytest.raises(TypeError, match="5"):
        d.discard(5)
    with pytest.raises(TypeError, match="None"):
        d.discard(None)


def test_seats_and_sides_out_of_range_are_value_errors():
    d = Deal.new(Rules(), 1)
    for call, bad in ((d.hand, 4), (d.hand, -1), (d.melds, 2), (d.canastas, 7), (d.red_threes, -1)):
        with pytest.raises(ValueError, match=f"={bad}"):
            call(bad)


def test_a_red_three_in_a_hand_is_refused():
    # red threes are laid out at once, never held
    with pytest.raises(ValueError, match="red three"):
        Deal.from_position(hands=four_hands("5 5 5 R3"), stock="4 4 4", pile="7")


def test_an_empty_meld_text_says_it_needs_cards():
    d = Deal.from_position(hands=four_hands(), stock="4 4 4", pile="7")
    d.draw()
    with pytest.raises(IllegalMove, match="needs cards"):
        d.meld("")


def test_a_black_three_on_top_is_r30_not_r32():
    # a pile topped by a black three cannot be taken, whatever cards are offered
    d = Deal.from_position(hands=four_hands("9 9 5 K"), stock="4 4 4", pile="7 B3")
    with pytest.raises(IllegalMove) as info:
        d.take_pile("9 9")
    assert info.value.rule == "R-30"


def test_take_pile_melds_must_be_a_list_not_one_str():
    # a str would be read character by character, as melds of one card each
    d = Deal.from_position(hands=four_hands("9 9 K K K 5"), stock="4 4 4", pile="7 9")
    with pytest.raises(TypeError, match=r"write \['K K K'\]"):
        d.take_pile("9 9", melds="K K K")


def test_rules_may_be_a_preset_name():
    assert Deal.new("hoyle", 3).rules == Rules.preset("hoyle")
    with pytest.raises(TypeError, match="42"):
        Deal.new(42)


def test_numpy_integers_in_rules_are_stored_as_int():
    r = Rules(players=np.int64(3), max_turns=np.int32(500))
    assert type(r.players) is int and type(r.max_turns) is int
    assert json.loads(json.dumps(r.to_dict()))["players"] == 3


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"chunk_size": 0}, "chunk_size"),
        ({"records": "no"}, "records"),
        ({"overwrite": "no"}, "overwrite"),
    ],
)
def test_simulate_refuses_zero_chunks_and_non_bool_flags(kwargs, name):
    with pytest.raises(ValueError, match=name):
        simulate(10, **kwargs)


def test_a_bot_parameter_given_twice_with_different_values_is_refused():
    with pytest.raises(
        ValueError,
        match=r"safety is given twice with different values "
        r"\(1 and 2\)",
    ):
        simulate(10, bots="expert:safety=1,safety=2")
    assert parse_bot("expert:safety=1,safety=1.0").spec == "expert:safety=1"


def test_sweep_refuses_a_parameter_the_bot_spec_sets():
    with pytest.raises(
        ValueError, match="the swept parameter safety is also set in the bot spec 'expert:safety=3'"
    ):
        sweep("expert:safety=3", "safety", [1, 2], "greedy", deals=4)
    assert sweep_specs("expert:hold_wilds=0", "safety", [1, 2.5]) == [
        "expert:hold_wilds=0,safety=1",
        "expert:hold_wilds=0,safety=2.5",
    ]


def test_meld_texts_of_one_rank_are_checked_together():
    """Four texts of K K + wild each add up to one K meld of 8 naturals and 4 wild cards,
    more wild cards than R-61 allows (3); a rank prefix on a wild-only text is read as in
    Deal.meld: 7 kings and 'K: 2' are one mixed canasta of 8 cards."""
    with pytest.raises(ValueError, match=r"melds\[0\]: 'K K K K K K K K 2 2 JK JK'"):
        Deal.from_position(
            hands=four_hands(),
            stock="4 4 4",
            pile="7",
            melds={0: ["K K 2", "K K 2", "K K JK", "K K JK"]},
        )
    d = Deal.from_position(
        hands=four_hands(), stock="4 4 4", pile="7", melds={0: ["K K K K K K K", "K: 2"]}
    )
    assert d.canastas(0) == 1 and d.canastas(1) == 0


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"melds": ["K K K"]}, "melds must map each side"),
        ({"melds": {0: "K K K"}}, "not the str 'K K K'"),
        ({"hands": "4 5 6"}, "hands must be a list of texts"),
        ({"hands": None}, "not None"),
        ({"hands": ["4 5", 6, "7 8", "9 10"]}, r"hands\[1\] must be a card text"),
    ],
)
def test_position_arguments_of_the_wrong_type_are_named(kwargs, needle):
    args = {"hands": four_hands(), "stock": "4 4 4", "pile": "7", **kwargs}
    with pytest.raises(TypeError, match=needle):
        Deal.from_position(**args)


def test_meld_of_a_non_text_names_it():
    d = Deal.from_position(hands=four_hands(), stock="4 4 4", pile="7")
    d.draw()
    with pytest.raises(TypeError, match="not 5"):
        d.meld(5)


@pytest.mark.parametrize("score", ["x", 2**70, 1.5])
def test_minimum_count_names_a_bad_score(score):
    with pytest.raises(ValueError, match="score="):
        cs_minimum_count(score)


@pytest.mark.parametrize("bot", ["random", "greedy", "careful", "expert"])
def test_a_bot_that_cannot_move_is_an_error_not_a_hang(bot):
    """A position built by hand with seat 0's hand empty (found by a user test: play_out
    looped for ever): the bot draws a 4 but can neither meld it nor discard its last card
    without a canasta (R-40), so the turn cannot end and play_turn must raise."""
    d = Deal.from_position(hands=["", "4 5 6", "7 7 9", "J Q A"], stock="4 9 10 J Q", pile="4")
    with pytest.raises(RuntimeError, match="seat 0 found no legal move"):
        d.play_out(bot)
    assert d.hand(0) == "4" and d.phase == "play"


def test_sweep_ranges_give_the_decimal_values():
    """0.1:0.5:0.1 is 0.1, 0.2, 0.3, 0.4, 0.5 exactly (float steps alone give
    0.30000000000000004, which reached sweep.csv in a user test)."""
    from canasta_sim.run.compare import parse_range

    assert parse_range("0.1:0.5:0.1") == [0.1, 0.2, 0.3, 0.4, 0.5]
    assert parse_range("2:12:5") == [2.0, 7.0, 12.0]


@pytest.mark.parametrize(
    "melds, needle",
    [
        ({0: ["K K K K"] * 64}, "at most 127"),  # 256 kings wrapped round to 0 in int8
        ({0: ["K K K"] * 43 + ["K"]}, "at most 127"),
        # 10 kings melded and 1 in hands[0]: 11 of the pack's 8
        ({0: ["K K K K K", "K K K K K"]}, "11 cards of kind K, the 108-card pack has 8"),
        ({0: ["B3 B3 B3"]}, "R-63"),  # black threes are melded only when going out
    ],
)
def test_position_melds_beyond_the_pack_or_the_rules_are_refused(melds, needle):
    with pytest.raises(ValueError, match=needle):
        Deal.from_position(hands=four_hands(), stock="4 4 4", pile="7", melds=melds)


@pytest.mark.parametrize(
    "kwargs, error, needle",
    [
        ({"pile": " ".join(["5"] * 200)}, ValueError, "pile: 200 cards, the pack has 108"),
        ({"red_threes": [1, 0]}, TypeError, "red_threes must map each side"),
        ({"scores": 5}, TypeError, "scores must map each side"),
        ({"melds": {0: {"K": "K K K"}}}, TypeError, "not the mapping"),
        ({"melds": {0: ["K:"]}}, ValueError, "a meld needs cards"),
    ],
)
def test_position_arguments_are_checked(kwargs, error, needle):
    args = {"hands": four_hands(), "stock": "4 4 4", "pile": "7", **kwargs}
    with pytest.raises(error, match=needle):
        Deal.from_position(**args)


@pytest.mark.parametrize("text", ["0:0.0000000001:0.00000000001", "0.1,0.10000000001"])
def test_sweep_values_equal_after_rounding_are_refused(text):
    from canasta_sim.run.compare import parse_range

    with pytest.raises(ValueError, match="repeats a value"):
        parse_range(text)


@pytest.mark.parametrize(
    "value", [True, np.bool_(False), 2.0, "3", None, -1, 11, np.int64(11), np.uint8(0)]
)
def test_the_integer_check_names_the_value_and_the_range(value):
    from canasta_sim.errors import BadArgument
    from canasta_sim.game.notation import check_int

    with pytest.raises(BadArgument) as info:
        check_int("worlds", value, 1, 10)
    assert info.value.argument == "worlds"
    assert str(info.value) == f"worlds={value!r} is not allowed; allowed: an integer from 1 to 10"


def test_the_integer_check_gives_a_python_int_and_writes_large_bounds_in_groups():
    from canasta_sim.game.notation import check_int

    checked = check_int("seed", np.uint64(2**64 - 1), 0, 2**64 - 1)
    assert checked == 2**64 - 1 and type(checked) is int
    with pytest.raises(ValueError, match=r"^deals=0 .* from 1 to 1,000,000,000,000$"):
        check_int("deals", 0, 1, 10**12)


@pytest.mark.parametrize(
    "call",
    [
        lambda: simulate(deals=True),
        lambda: Deal.new(Rules(), -1),
    ],
)
def test_deals_and_runs_share_the_integer_check(call):
    from canasta_sim.errors import BadArgument

    with pytest.raises(BadArgument, match=r"is not allowed; allowed: an integer from"):
        call()


@pytest.mark.parametrize("max_deals", [0, -1, 2**15])
def test_play_games_names_a_max_deals_no_game_could_use(max_deals, monkeypatch):
    import canasta_sim as cs
    from canasta_sim.run import games

    def played(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr(games, "game_table", played)
    # a game plays at least one deal; its deal count is int16 in games.csv
    with pytest.raises(ValueError, match=f"max_deals={max_deals} is not allowed; allowed: an "):
        cs.play_games(3, max_deals=max_deals)
    with pytest.raises(ValueError, match="from 1 to 32,767"):
        cs.play_games(3, max_deals=max_deals)


@pytest.mark.parametrize("value", ["a", None, True])
def test_sweep_names_a_value_that_is_not_a_number(value):
    with pytest.raises(ValueError, match=rf"values: {value!r} is not a number; allowed: numbers"):
        sweep("expert", "pile_threshold", [value], "greedy", deals=4)


@pytest.mark.parametrize("info_set", [None, "position.toml"])
def test_analyse_of_something_else_than_an_info_set_says_what_it_takes(info_set):
    import canasta_sim as cs

    with pytest.raises(TypeError, match="is not an InfoSet; allowed: an InfoSet, from"):
        cs.analyse(info_set)
