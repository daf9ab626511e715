"""Simulated statistics against exact values from the rules' arithmetic (DESIGN.md test layer 4).

Exact values, worked out by hand (108 cards: 4 red threes, 4 black threes, 8 deuces, 4 jokers):

* Red threes dealt per deal (R-15): every one of the D = players x cards_dealt dealt cards is a
  red three with probability 4/108, so the mean is 4 D / 108: 4 players 4 x 44 / 108 = 44/27,
  2 players 4 x 30 / 108 = 10/9, 3 players 4 x 39 / 108 = 13/9 (per side: half, half, a third).
* Cards turned for the upcard (R-12): the stock left after the deal is a uniformly shuffled
  remainder, and its first cards have the law of the first cards of the whole pack; it is longer
  than the 20 covering cards, so the count is the position of the first stopping card in a
  random permutation of 108 cards with G stopping cards: (108 + 1) / (G + 1). With black threes
  covered G = 108 - 12 wild - 4 red - 4 black = 88: 109/89. Without: G = 92: 109/93.
* Pile frozen at start (R-13): frozen unless the first card that is stopping or freezing is a
  stopping one: F / (F + G) with F = 12 wild + 4 red threes = 16: 16/104 = 2/13 (covered), and
  16/108 = 4/27 when black threes stop the upcard.
* At least one red three dealt to anyone, 4 players: 1 - C(64, 4) / C(108, 4)
  = 1 - 635376 / 5359095 = 4723719 / 5359095 = 224939 / 255195.

Tolerance: 4 standard errors, the SE from the sample's own standard deviation. Each test also
checks that 4 SE is a small fraction of the value, so the check is meaningful.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from canasta_sim.game.rules import Rules
from canasta_sim.results.statistics import summary
from canasta_sim.results.stats import exact_any_red_three_dealt
from canasta_sim.run.simulate import simulate


def stat(result, statistic):
    df = summary(result.aggregates, result.rules)
    hit = df[df["statistic"] == statistic]
    assert len(hit) == 1, statistic
    return hit.iloc[0]


def assert_mean_near(sample, exact, max_rel_tol):
    """``mean(sample)`` within 4 SE of ``exact``; 4 SE below ``max_rel_tol`` of ``exact``."""
    sample = np.asarray(sample, np.float64)
    se = sample.std(ddof=1) / math.sqrt(sample.size)
    assert 4 * se < max_rel_tol * float(exact), f"4 SE = {4 * se:.4g} is too wide a tolerance"
    assert abs(sample.mean() - float(exact)) <= 4 * se, (
        f"mean {sample.mean():.5f} vs exact {float(exact):.5f} ({exact}), SE {se:.2g}"
    )


def red_threes_dealt_per_deal(result) -> np.ndarray:
    sides = result.sides
    return sides["red_threes_dealt"].astype(np.int64).groupby(sides["deal"]).sum().to_numpy()


@pytest.fixture(scope="module")
def four_players():
    """100,000 deals, classic rules, 4 players, random bots (about 20 s on 2 cores)."""
    return simulate(100_000, seed=271828)


def test_exact_column_values():
    """summary()'s exact column holds the fractions above (no simulation needed)."""
    from canasta_sim.results.aggregate import Aggregates

    def exact(rules, statistic):
        agg = Aggregates.empty(rules.players, rules.sides, rules.max_turns, ["random"])
        df = summary(agg, rules)
        return df.loc[df["statistic"] == statistic, "exact"].item()

    dealt = "red threes dealt per side per deal"
    assert exact(Rules(), dealt) * 2 == pytest.approx(44 / 27, rel=1e-12)
    assert exact(Rules(players=2), dealt) * 2 == pytest.approx(10 / 9, rel=1e-12)
    assert exact(Rules(players=3), dealt) * 3 == pytest.approx(13 / 9, rel=1e-12)
    up = "cards turned for the upcard"
    assert exact(Rules(), up) == pytest.approx(109 / 89, rel=1e-12)
    assert exact(Rules(upcard_covers_black_three=False), up) == pytest.approx(109 / 93, rel=1e-12)
    assert exact(Rules(), "pile frozen at start") == pytest.approx(2 / 13, rel=1e-12)
    assert exact_any_red_three_dealt(Rules()) == Fraction(224939, 255195)


@pytest.mark.slow
def test_red_threes_dealt_four_players(four_players):
    per_deal = red_threes_dealt_per_deal(four_players)
    assert per_deal.size == 100_000
    assert_mean_near(per_deal, Fraction(44, 27), 0.01)
    row = stat(four_players, "red threes dealt per side per deal")
    assert row["exact"] == pytest.approx(22 / 27, rel=1e-12)
    assert row["n"] == 200_000
    # the aggregates (per-side histograms) agree with the records
    assert row["value"] == pytest.approx(per_deal.mean() / 2, rel=1e-12)


@pytest.mark.slow
def test_upcard_four_players(four_players):
    cards = four_players.deals["upcard_cards"].to_numpy()
    assert_mean_near(cards, Fraction(109, 89), 0.01)
    row = stat(four_players, "cards turned for the upcard")
    assert row["exact"] == pytest.approx(109 / 89, rel=1e-12)
    assert row["value"] == pytest.approx(cards.mean(), rel=1e-12)
    frozen = four_players.deals["pile_frozen_at_start"].to_numpy()
    assert_mean_near(frozen, Fraction(2, 13), 0.05)
    assert stat(four_players, "pile frozen at start")["exact"] == pytest.approx(2 / 13)


@pytest.mark.slow
def test_any_red_three_dealt_four_players(four_players):
    any_dealt = red_threes_dealt_per_deal(four_players) > 0
    assert_mean_near(any_dealt, Fraction(224939, 255195), 0.01)


@pytest.mark.slow
@pytest.mark.parametrize("players, exact", [(2, Fraction(10, 9)), (3, Fraction(13, 9))])
def test_red_threes_dealt_two_and_three_players(players, exact):
    result = simulate(12_000, rules=Rules(players=players), seed=314159 + players)
    per_deal = red_threes_dealt_per_deal(result)
    assert_mean_near(per_deal, exact, 0.035)
    row = stat(result, "red threes dealt per side per deal")
    assert row["exact"] * result.rules.sides == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.slow
def test_upcard_black_three_not_covered():
    result = simulate(20_000, rules=Rules(upcard_covers_black_three=False), seed=161803)
    cards = result.deals["upcard_cards"].to_numpy()
    # 109/89 - 109/93 = 0.0527: 4 SE (about 0.0126) tells the two laws apart
    assert_mean_near(cards, Fraction(109, 93), 0.015)
    assert stat(result, "cards turned for the upcard")["exact"] == pytest.approx(109 / 93)
    frozen = result.deals["pile_frozen_at_start"].to_numpy()
    assert_mean_near(frozen, Fraction(4, 27), 0.1)
