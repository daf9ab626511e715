"""Strategy authoring: bots per seat, starting scores, pile statistics, replays of run folders
and bots written in Python.

Positions are built with ``Deal.from_position`` (4 players: side 0 = seats 0 and 2, side 1 =
seats 1 and 3; the stock's first card is the top, the pile's last card the top).
"""

import pytest

import canasta_sim as cs
from canasta_sim import Deal


# --- bots per seat ---------------------------------------------------------------------------
def _pickup_position(current: int) -> Deal:
    """Side 0 has made its initial meld (K K K); the pile (5 9, top 9) is not frozen. The
    player to move holds one 9 and a deuce: greedy takes the pile with them (R-33 b, a
    natural and a wild card), careful takes the pile only with naturals, so it draws."""
    hand = "9 2 4 6 8 10 J"
    other = "4 5 6 7 8 10 Q"
    hands = [other] * 4
    hands[current] = hand
    return Deal.from_position(
        hands=hands,
        stock="7 7 7 Q Q Q",
        pile="5 9",
        melds={0: ["K K K"]},
        current=current,
    )


def _took_pile(d: Deal) -> bool:
    # a draw takes the stock's top card; a pickup leaves the stock and empties the pile
    # before the player's discard
    return d.stock_size == 6 and len(d.pile.split()) == 1


@pytest.mark.parametrize("seats", [("greedy", "careful"), ("careful", "greedy")])
def test_partners_play_their_own_bots(seats):
    first, second = seats  # bots of seat 0 and seat 2, partners on side 0
    spec = [first, "random", second, "random"]
    for seat, bot in ((0, first), (2, second)):
        d = _pickup_position(seat)
        d.play_turn(seats=spec)
        assert _took_pile(d) == (bot == "greedy"), (seat, bot)
        if bot == "careful":
            assert d.stock_size == 5  # drew the 7


def test_bots_and_seats_are_exclusive_and_seats_need_one_spec_per_seat():
    d = _pickup_position(0)
    with pytest.raises(ValueError, match="one of them"):
        d.play_turn("expert", seats=["expert"] * 4)
    with pytest.raises(ValueError, match="give 4 \\(one per seat"):
        d.play_turn(seats=["expert", "careful"])


def test_seat_labels_and_records_carry_each_seat():
    res = cs.simulate(8, seats="greedy,careful,expert,careful", seed=2, workers=1)
    assert res.manifest["bots"] == [["greedy/expert", "careful"]]
    assert res.manifest["seats"] == [["greedy", "careful", "expert", "careful"]]
    deals = res.deals
    assert list(deals["bot_seat_0"].unique()) == ["greedy"]
    assert list(deals["bot_seat_2"].unique()) == ["expert"]
    assert set(res.sides["bot"].unique()) == {"greedy/expert", "careful"}


def test_compare_rotation_moves_sides_and_keeps_seat_order():
    from canasta_sim.compare import rotation_table

    table = rotation_table(None, None, cs.Rules(), seats="expert,careful,greedy,careful")
    # team A = side 0's seats (expert at its first seat, greedy at its second), team B careful
    assert table.seat_specs == (
        ("expert", "careful", "greedy", "careful"),
        ("careful", "expert", "careful", "greedy"),
    )
    assert table.bot_specs == ("expert/greedy", "careful")
