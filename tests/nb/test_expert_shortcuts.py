"""The expert's shortcuts before building a meld (canasta_sim/nb/bots/expert.py): the bound
on what an initial meld from hand can count (R-04, R-64) and the cheap going-out test
(R-40, R-41). Each only skips work whose outcome is known; the goldens check that no move
changes, these tests that each bound holds."""

import numpy as np
import pytest

from canasta_sim import Deal, Rules
from canasta_sim.nb.bots.melding import can_go_out_nb, out_possible_nb
from canasta_sim.nb.bots.memory import new_bot
from canasta_sim.nb.enums import N_KINDS, DealSlot, RuleSlot, SideSlot
from canasta_sim.nb.plans import initial_plan_nb, initial_reach_nb, plan_points_nb


def _reach(hand_text: str) -> int:
    d = Deal.from_position(hands=[hand_text, "4 4", "6 6", "8 8"], stock="9 9 9 9", pile="Q")
    return int(initial_reach_nb(d.rules_array, d.state["hands"][0]))


def test_initial_reach_counts_triples_pairs_with_a_wild_and_wild_cards_r64():
    # R-04 values: 7 = 5, K = 10, A = 20, deuce = 20, joker = 50. Three sevens (15), the two
    # kings with a wild card (20), the deuce (20); the single five and the black three never
    # go into an initial meld from hand
    assert _reach("7 7 7 K K 2 5 B3") == 15 + 20 + 20
    # no wild card: the pair of kings cannot be melded, only the sevens count
    assert _reach("7 7 7 K K 5 B3") == 15
    # four aces and a joker: 80 + 50; the pair of nines counts with the joker (20)
    assert _reach("A A A A JK 9 9") == 80 + 50 + 20


def _play_positions(rules: Rules, deals: int, seed: int):
    """``(deal, seat)`` after each draw from the stock of expert play (the play phase)."""
    for k in range(deals):
        d = Deal.new(rules, seed=seed, deal=k)
        while not d.is_over:
            if d.stock_size > 0:  # with the stock empty R-44 may force a pickup: the bot plays
                d.draw()
                if d.phase == "play":
                    yield d, int(d.state["g"][DealSlot.current])
            if not d.is_over:
                d.play_turn("expert")


@pytest.mark.parametrize("players", [2, 4])
def test_no_initial_plan_counts_more_than_the_reach_r64(players):
    """initial_plan_nb (no pile card) lays a subset of what initial_reach_nb counts, for every
    cards-to-keep: the bound the expert uses to skip building a plan that cannot reach the
    minimum count."""
    rules = Rules(players=players)
    seen = 0
    for d, seat in _play_positions(rules, 40, 11):
        side = d.rules_array[RuleSlot.side_of + seat]
        if d.state["sides"][side, SideSlot.melded] != 0:
            continue
        hand = d.state["hands"][seat]
        reach = int(initial_reach_nb(d.rules_array, hand))
        for keep in (2, 5, 8):
            plan = np.zeros((N_KINDS, 3), np.int8)
            initial_plan_nb(
                d.state, d.rules_array, np.int64(seat), plan, np.int64(-1), np.int64(0),
                np.int64(keep),
            )  # fmt: skip
            assert int(plan_points_nb(d.rules_array, plan, np.int64(-1))) <= reach
        seen += 1
    assert seen > 100  # enough pre-meld decisions were checked


def test_out_possible_is_false_only_where_going_out_is():
    """R-40, R-41: wherever the cheap test says a seat cannot go out, the full test
    (can_go_out_nb, which builds and checks the plan) agrees; and the cheap test passes some
    positions, so it is not trivially false."""
    rules = Rules(players=4)
    bot = new_bot()
    passed = 0
    for d, seat in _play_positions(rules, 30, 5):
        possible = bool(out_possible_nb(d.state, d.rules_array, np.int64(seat)))
        can = bool(can_go_out_nb(d.state, d.rules_array, bot, np.int64(seat)))
        assert possible or not can
        passed += possible
    assert passed > 0


def test_the_expert_meld_plan_reads_the_state_and_names_what_the_move_lays_r60():
    """expert_meld_plan_nb builds the expert's melds from the counts without changing the
    state (the apprentice's candidates call it without a copy), and laying the plan it names
    moves exactly that plan's cards from the hand to the side's melds (R-60..R-64)."""
    from canasta_sim.nb.bots.expert import ExpertMeld, expert_meld_nb, expert_meld_plan_nb
    from canasta_sim.nb.enums import EV_LEN, MoveError

    rules = Rules(players=4)
    no_params, no_log = np.zeros(0), np.zeros((0, EV_LEN), np.int32)
    codes = []
    for d, seat in _play_positions(rules, 40, 11):
        state = d.state.copy()
        before = state.tobytes()
        bot = new_bot()
        which = int(expert_meld_plan_nb(state, d.rules_array, bot, no_params))
        assert state.tobytes() == before  # read only
        codes.append(which)
        if which == ExpertMeld.none:
            continue
        plan = (bot["out_plan"] if which == ExpertMeld.out else bot["meld_plan"]).astype(int)
        side = d.rules_array[RuleSlot.side_of + seat]
        assert expert_meld_nb(state, d.rules_array, bot, which, no_log) == MoveError.ok
        grown = state["melds"][side].astype(int) - d.state["melds"][side].astype(int)
        assert (grown == plan).all()
        assert d.state["hand_sizes"][seat] - state["hand_sizes"][seat] == plan.sum()
    # most turns meld nothing; some lay melds (the test sees both)
    assert codes.count(ExpertMeld.none) > codes.count(ExpertMeld.melds) > 0
