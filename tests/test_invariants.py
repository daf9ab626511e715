"""Invariant harness: random-policy deals for every player count and preset, checked after
every turn (card conservation, phase, turn bound) and at the end (score parts add up, the
independent referee accepts every move)."""

import numpy as np
import pytest

from canasta_sim import Deal, Rules, trace_deal
from canasta_sim.cards import KIND_COUNTS_108
from canasta_sim.nb import layout as L
from canasta_sim.referee import check_trace

DEALS = 2000


def melded_counts(melds: np.ndarray) -> np.ndarray:
    """Cards per kind in all sides' melds: naturals by rank, deuces (kind 13), jokers (14)."""
    counts = melds[:, :, 0].sum(axis=0).astype(np.int64)
    counts[13] += melds[:, :, 1].sum()
    counts[14] += melds[:, :, 2].sum()
    return counts


def cards_everywhere(deal: Deal) -> np.ndarray:
    """Count array of every card of the deal: hands, stock, pile, melds, red threes laid out."""
    hands, stock, pile, melds, _mt, _cc, sides, _se, g, _rng, _sc = deal._arrays
    counts = hands.sum(axis=0).astype(np.int64)
    counts += np.bincount(stock[g[0] :], minlength=15)  # G_STOCK_POS
    counts += np.bincount(pile[: g[1]], minlength=15)  # G_PILE_LEN
    counts += melded_counts(melds)
    counts[0] += sides[:, 1:4].sum()  # red threes dealt, drawn, from the pile
    return counts


def running_counts_ok(deal: Deal) -> bool:
    """The state's running counts equal a recount: cards per hand, per kind in the pile and
    per kind in all melds; per side the canastas (7+ cards, not black threes) and the ranks
    melded (bit mask)."""
    hands, _st, pile, melds, _mt, _cc, sides, _se, g, _rng, _sc = deal._arrays
    state, players = deal._state, deal.rules.players
    sizes = melds.sum(axis=2)
    canastas = (sizes[:, 2:13] >= 7).sum(axis=1)
    ranks = ((sizes > 0) * (1 << np.arange(15))).sum(axis=1)
    return (
        (state["hand_sizes"][:players] == hands.sum(axis=1)).all()
        and (state["pile_counts"] == np.bincount(pile[: g[1]], minlength=15)).all()
        and (sides[:, L.S_CANASTAS] == canastas).all()
        and (sides[:, L.S_MELD_RANKS] == ranks).all()
        and (state["melded"] == melded_counts(melds)).all()
    )


@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_play_invariants(players, preset):
    rules = Rules.preset(preset, players=players)
    pack = KIND_COUNTS_108.astype(np.int64) * rules.n_cards // 108
    for k in range(DEALS):
        deal = Deal.new(rules, 1234, deal=k, dealer=k % players, trace=True)
        assert (cards_everywhere(deal) == pack).all()
        assert running_counts_ok(deal)
        while not deal.is_over:
            turn = deal.turns
            deal.play_turn("random")
            assert deal.is_over or deal.turns == turn + 1
            assert (cards_everywhere(deal) == pack).all(), f"deal {k}: cards not conserved"
            assert running_counts_ok(deal), f"deal {k}: running counts differ from a recount"
            assert (deal._arrays[0] >= 0).all()
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


@pytest.mark.parametrize("bot", ["greedy", "careful", "expert"])
@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_referee_accepts_every_bot(players, preset, bot):
    """1,000 deals per bot, player count and preset: the independent referee accepts every
    move and every score part, and no deal reaches the turn bound (R-47)."""
    rules = Rules.preset(preset, players=players)
    for k in range(1000):
        trace = trace_deal(rules, bot, 77, k)
        assert trace[-1 - rules.sides]["event"] == "end"
        assert trace[-1 - rules.sides]["reason"] != "turn_limit"
        verdict = check_trace(trace)
        assert verdict.ok, f"{bot}, deal {k}: {verdict}"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_bots_keep_running_counts(players):
    """Every move kernel keeps ``hand_sizes`` and ``pile_counts`` equal to a recount, under
    the bots' moves too (pickups, melds, going out); checked after every turn."""
    rules = Rules(players=players)
    for k in range(60):
        deal = Deal.new(rules, 99, deal=k, dealer=k % players)
        bot = ("greedy", "careful", "expert")[k % 3]
        while not deal.is_over:
            deal.play_turn(bot)
            assert running_counts_ok(deal), f"{bot}, deal {k}, turn {deal.turns}"
