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


# --- starting scores -------------------------------------------------------------------------
VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10}


def _points(cards: str) -> int:
    """Card values (R-04): joker 50, deuce and ace 20, K..8 10, 7..4 and black three 5."""
    return sum(VALUES.get(c, 5) for c in cards.split())


def initial_meld_points(trace: list[dict], sides: int) -> dict[int, int]:
    """Points of each side's initial meld, counted by hand from a trace: every card laid in
    the move (``move``) of the side's first meld or pickup, the pile's top card included."""
    first: dict[int, tuple[int, int]] = {}
    points: dict[int, int] = {}
    for e in trace:
        if e["event"] not in ("meld", "take_pile"):
            continue
        side = e["seat"] % sides
        first.setdefault(side, (e["seat"], e["move"]))
        if first[side] != (e["seat"], e["move"]):
            continue
        if e["event"] == "meld":
            points[side] = points.get(side, 0) + _points(e["cards"])
        else:
            laid = [e["top"], e["with"]] + [m["cards"] for m in e["melds"]]
            points[side] = points.get(side, 0) + _points(" ".join(laid))
    return points


def test_a_side_at_3000_needs_120_for_its_initial_meld_in_simulate():
    rules = cs.Rules()
    res = cs.simulate(40, bots="greedy", scores=[3000, 0], seed=11, workers=1)
    assert (res.sides.query("side == 0")["score_before"] == 3000).all()
    low = {0: [], 1: []}
    for k in range(40):
        trace = cs.trace_deal(rules, "greedy", 11, k, scores=[3000, 0])
        assert trace[0]["minimums"] == [120, 50]  # 3,000 and more needs 120
        # the deal simulate played is this one
        scores = [e["total"] for e in trace if e["event"] == "score"]
        assert scores == res.sides.query(f"deal == {k}")["score"].tolist()
        for side, pts in initial_meld_points(trace, 2).items():
            low[side].append(pts)
    assert low[0] and min(low[0]) >= 120
    # greedy melds as soon as it may: side 1 (at 0) makes initial melds under 120 points
    assert min(low[1]) < 120 and min(low[1]) >= 50


def test_scores_are_checked():
    with pytest.raises(ValueError, match="one cumulative score per side"):
        cs.simulate(2, scores=[3000], workers=1)


def test_games_from_4900_end_in_under_two_deals():
    near = cs.play_games(600, scores=[4900, 0], seed=4, workers=1, records=False).totals
    fresh = cs.play_games(600, seed=4, workers=1, records=False).totals
    assert near.deals / near.games < 2
    assert fresh.deals / fresh.games > 3
    assert near.wins[0] > 0.75 * near.games  # 100 points more win side 0 the game


def _out_position(score: int) -> Deal:
    """Seat 0 (side 0, a natural canasta of kings on the table) holds 9 9 9 and draws a 4: it
    may go out (meld 9 9 9, discard 4). Its estimated deal score if it goes out is about 700
    points (kings 70 + 500, nines 30, going out 100, less its partner's 5 hidden cards at 8),
    far below the expert's out_lead of 3,000, and no opponent threatens to go out."""
    return Deal.from_position(
        hands=["9 9 9", "4 5 6 7 8", "4 5 6 7 8", "4 5 6 7 8"],
        stock="4 10 10 10 J J J Q Q Q A A A",
        pile="6",
        melds={0: ["K K K K K K K"], 1: ["Q Q Q"]},
        scores={0: score},
    )


def test_expert_goes_out_when_that_wins_the_game():
    d = _out_position(4500)  # 4,500 + about 700 reaches 5,000
    d.play_turn("expert")
    assert d.went_out == 0
    d = _out_position(0)  # the same hand at 0 points holds back to build canastas
    d.play_turn("expert")
    assert not d.is_over and d.went_out == -1
