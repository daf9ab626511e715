"""Invariant harness: random-policy deals for every player count and preset, checked after
every turn (card conservation, phase, turn bound) and at the end (score parts add up, the
independent referee accepts every move)."""

import pytest

from canasta_sim import Deal, Rules, trace_deal
from canasta_sim.nb.engine.validate import check_state_nb
from canasta_sim.nb.enums import StateFault, label
from canasta_sim.referee import check_trace

#: Deals per case: the normal tier plays a few (every bot, player count and preset), the slow
#: tier the full volume.
TIERS = [
    pytest.param(120, id="fast"),
    pytest.param(2000, id="slow", marks=pytest.mark.slow),
]
BOT_TIERS = [
    pytest.param(60, id="fast"),
    pytest.param(1000, id="slow", marks=pytest.mark.slow),
]


def state_ok(deal: Deal) -> None:
    """The state validator finds nothing wrong: every card of the pack in exactly one place
    (hands, stock, pile, melds, red threes laid out) and every running count equal to a
    recount (:func:`check_state_nb`)."""
    fault, where = check_state_nb(deal.state, deal.rules_array)
    assert fault == StateFault.ok, f"{label(StateFault, fault)} (at {where})"


@pytest.mark.parametrize("deals", TIERS)
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_play_invariants(players, preset, deals):
    rules = Rules.preset(preset, players=players)
    for k in range(deals):
        deal = Deal.new(rules, 1234, deal=k, dealer=k % players, trace=True)
        state_ok(deal)
        while not deal.is_over:
            turn = deal.turns
            deal.play_turn("random")
            assert deal.is_over or deal.turns == turn + 1
            state_ok(deal)
        assert deal.end_reason in ("went_out", "stock_exhausted", "last_red_three")
        assert deal.turns < rules.max_turns
        for parts in deal.score().values():
            assert parts["total"] == (
                parts["red_threes"]
                + parts["canasta_bonus"]
                + parts["going_out_bonus"]
                + parts["meld_points"]
                - parts["hand_penalty"]
            )
        verdict = check_trace(deal.trace())
        assert verdict.ok, f"deal {k}: {verdict}"


@pytest.mark.parametrize("deals", BOT_TIERS)
@pytest.mark.parametrize("bot", ["greedy", "careful", "expert"])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_referee_accepts_every_bot(players, preset, bot, deals):
    """Per bot, player count and preset: the independent referee accepts every move and every
    score part, and no deal reaches the turn bound (R-47)."""
    rules = Rules.preset(preset, players=players)
    for k in range(deals):
        trace = trace_deal(rules, bot, 77, k)
        assert trace[-1 - rules.sides]["event"] == "end"
        assert trace[-1 - rules.sides]["reason"] != "turn_limit"
        verdict = check_trace(trace)
        assert verdict.ok, f"{bot}, deal {k}: {verdict}"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_bots_keep_running_counts(players):
    """Every move kernel conserves the cards and keeps the running counts equal to a recount,
    under the bots' moves too (pickups, melds, going out); checked after every turn."""
    rules = Rules(players=players)
    for k in range(60):
        deal = Deal.new(rules, 99, deal=k, dealer=k % players)
        bot = ("greedy", "careful", "expert")[k % 3]
        while not deal.is_over:
            deal.play_turn(bot)
            state_ok(deal)
