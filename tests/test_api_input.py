"""Bad input to the Python API: clear errors that name the value (found by a user test)."""

import json

import numpy as np
import pytest

from canasta_sim import Deal, IllegalMove, Rules, simulate, sweep
from canasta_sim.bots import parse_bot
from canasta_sim.cards import parse_cards
from canasta_sim.compare import sweep_specs


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
    for call, bad in ((d.hand, 4), (d.hand, -1), (d.melds, 2), (d.canastas, 7),
                      (d.red_threes, -1)):
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


@pytest.mark.parametrize("kwargs, name", [({"chunk_size": 0}, "chunk_size"),
                                          ({"records": "no"}, "records"),
                                          ({"overwrite": "no"}, "overwrite")])
def test_simulate_refuses_zero_chunks_and_non_bool_flags(kwargs, name):
    with pytest.raises(ValueError, match=name):
        simulate(10, **kwargs)


def test_a_bot_parameter_given_twice_with_different_values_is_refused():
    with pytest.raises(ValueError, match=r"safety is given twice with different values "
                                         r"\(1 and 2\)"):
        simulate(10, bots="expert:safety=1,safety=2")
    assert parse_bot("expert:safety=1,safety=1.0").spec == "expert:safety=1"


def test_sweep_refuses_a_parameter_the_bot_spec_sets():
    with pytest.raises(ValueError, match="the swept parameter safety is also set in the bot "
                                         "spec 'expert:safety=3'"):
        sweep("expert:safety=3", "safety", [1, 2], "greedy", deals=4)
    assert sweep_specs("expert:hold_wilds=0", "safety", [1, 2.5]) == [
        "expert:hold_wilds=0,safety=1", "expert:hold_wilds=0,safety=2.5"]
