"""Canasta timing and the red-three value: the aggregates equal what the per-deal records give,
the curves and fits equal hand-derived values, and the games' red-three cells."""

import math

import numpy as np
import pandas as pd
import pytest

from canasta_sim import Rules, simulate
from canasta_sim.results.aggregate import RED_CELLS, Aggregates
from canasta_sim.results.intervals import Z95
from canasta_sim.results.study_stats import (
    GameRedThree,
    canasta_timing,
    cell_regression,
    red_three_value,
    timing_curves,
)
from canasta_sim.run.games import game_red_three, play_games


@pytest.fixture(scope="module", params=[2, 3])
def run(request):
    return simulate(1500, rules=Rules(players=request.param), seed=11, workers=1)


def test_side_first_canasta_is_the_deals_first(run):
    # the deal's first canasta (an existing column) is the earliest of the sides' first ones
    sides = run.sides
    first = sides["canasta_1_turn"].where(sides["canasta_1_turn"] >= 0).groupby(sides["deal"]).min()
    expected = run.deals.set_index("deal")["first_canasta_turn"]
    assert (first.fillna(-1).astype(int) == expected).all()


def test_timed_canastas_match_the_canasta_counts(run):
    s = run.sides
    timed = sum((s[f"canasta_{k}_turn"] >= 0).astype(int) for k in (1, 2, 3))
    total = s["natural_canastas"].astype(int) + s["mixed_canastas"]
    assert (timed == np.minimum(total, 3)).all()
    # completed in order, within the deal
    t1, t2, t3 = (s[f"canasta_{k}_turn"] for k in (1, 2, 3))
    assert ((t2 < 0) | (t2 >= t1)).all() and ((t3 < 0) | (t3 >= t2)).all()
    turns = s["deal"].map(run.deals.set_index("deal")["turns"])
    assert (t1 < turns).all()
    # a canasta natural when completed and never touched again stays natural: a side with no
    # mixed canasta at the end had no mixed one when completed
    no_mixed = s["mixed_canastas"] == 0
    assert (
        not s.loc[no_mixed, ["canasta_1_mixed", "canasta_2_mixed", "canasta_3_mixed"]].any().any()
    )


def test_timing_aggregates_equal_the_records(run):
    rules, c, s = run.rules, run.aggregates.counts, run.sides
    turns = s["deal"].map(run.deals.set_index("deal")["turns"]).to_numpy()
    T = rules.max_turns + 2
    for side in range(rules.sides):
        mine = s["side"].to_numpy() == side
        for k in (1, 2, 3):
            t = s[f"canasta_{k}_turn"].to_numpy()[mine]
            m = s[f"canasta_{k}_mixed"].to_numpy()[mine]
            done = np.zeros((2, T), np.int64)
            for turn, mixed in zip(t, m):
                if turn >= 0:
                    done[int(mixed), turn] += 1
            censored = np.bincount(turns[mine][t < 0], minlength=T)
            assert (c["canasta_done"][side, k - 1] == done).all()
            assert (c["canasta_censored"][side, k - 1] == censored).all()


def _km_from_records(run, k: int, side: int, kind: str) -> np.ndarray:
    """P(k-th canasta of ``kind`` by the end of each round), counted deal by deal."""
    P = run.rules.players
    s = run.sides[run.sides["side"] == side]
    turns = s["deal"].map(run.deals.set_index("deal")["turns"]).to_numpy()
    t = s[f"canasta_{k}_turn"].to_numpy()
    mixed = s[f"canasta_{k}_mixed"].to_numpy()
    event_round = np.where(t >= 0, t // P, -1)
    end_round = (turns - 1) // P
    rounds = int(end_round.max()) + 1
    surv, cif, out = 1.0, 0.0, []
    for r in range(rounds):
        at_risk = ((event_round < 0) | (event_round >= r)) & (end_round >= r)
        events = at_risk & (event_round == r)
        n, d = at_risk.sum(), events.sum()
        if kind != "any":
            d_kind = (events & (mixed == (kind == "mixed"))).sum()
            cif += surv * d_kind / n if n else 0.0
        surv *= 1 - d / n if n else 1.0
        out.append(1 - surv if kind == "any" else cif)
    return np.array(out)


def test_timing_curves_equal_a_deal_by_deal_count(run):
    table = canasta_timing(run.aggregates, run.rules)
    S = run.rules.sides
    for k in (1, 2, 3):
        for kind in ("any", "natural", "mixed"):
            expected = np.mean([_km_from_records(run, k, side, kind) for side in range(S)], axis=0)
            got = table[(table["canasta"] == k) & (table["kind"] == kind)]["value"].to_numpy()
            n = min(len(got), len(expected))
            assert len(got) >= len(expected) - 1
            np.testing.assert_allclose(got[:n], expected[:n], rtol=0, atol=1e-12)
    # the kinds add up to any kind
    for k in (1, 2, 3):
        by = {
            kd: table[(table.canasta == k) & (table.kind == kd)]["value"].to_numpy()
            for kd in ("any", "natural", "mixed")
        }
        np.testing.assert_allclose(by["natural"] + by["mixed"], by["any"], atol=1e-12)


def test_mean_turn_of_each_canasta_equals_the_records(run):
    # the k-th canasta's mean turn is over the sides that made at least k canastas, and its
    # label says so
    table = run.summary().set_index("statistic")
    for k, count in ((1, "one"), (2, "two"), (3, "three")):
        t = run.sides[f"canasta_{k}_turn"]
        ordinal = ("first", "second", "third")[k - 1]
        label = f"turn of a side's {ordinal} canasta (0-based, sides that made at least {count})"
        assert table.loc[label, "value"] == pytest.approx(t[t >= 0].mean(), abs=1e-9)
        assert table.loc[label, "n"] == (t >= 0).sum()


def test_timing_curves_by_hand():
    # 4 deals: round 1: one natural canasta, one deal ends; round 2: one mixed, one ends
    done = np.array([[1, 0], [0, 1]])
    censored = np.array([1, 1])
    c = timing_curves(done, censored)
    assert list(c["at_risk"]) == [4, 2]
    np.testing.assert_allclose(c["any"], [1 / 4, 1 - 3 / 4 * 1 / 2])
    np.testing.assert_allclose(c["natural"], [1 / 4, 1 / 4])
    np.testing.assert_allclose(c["mixed"], [0, 3 / 4 * 1 / 2])
    # Greenwood at round 1: S sqrt(d / (n (n - d))) = 3/4 sqrt(1/12); the natural incidence
    # at round 1 is a plain proportion 1/4 of 4: sqrt(p (1 - p) / n) = sqrt(3) / 8
    assert c["se_any"][0] == pytest.approx(0.75 * math.sqrt(1 / 12))
    assert c["se_natural"][0] == pytest.approx(math.sqrt(3) / 8)


def test_cell_regression_exact_fit_and_against_observations():
    rng = np.random.default_rng(3)
    n = rng.integers(1, 30, (RED_CELLS, RED_CELLS))
    a, b = np.meshgrid(np.arange(RED_CELLS), np.arange(RED_CELLS), indexing="ij")
    y = 10 + 3 * a - 2 * b
    beta, cov = cell_regression(n, n * y, n * y * y)
    np.testing.assert_allclose(beta, [10, 3, -2], atol=1e-9)
    np.testing.assert_allclose(cov, 0, atol=1e-9)
    # with noise: the same fit and HC0 covariance as on the expanded observations
    obs = [(i, j, v) for i in range(RED_CELLS) for j in range(RED_CELLS)
           for v in rng.integers(-50, 50, n[i, j])]  # fmt: skip
    X = np.array([[1, i, j] for i, j, _ in obs], float)
    Y = np.array([v for *_, v in obs], float)
    total = np.zeros_like(n)
    total_sq = np.zeros_like(n)
    for i, j, v in obs:
        total[i, j] += v
        total_sq[i, j] += v * v
    beta, cov = cell_regression(n, total, total_sq)
    ref = np.linalg.lstsq(X, Y, rcond=None)[0]
    e = Y - X @ ref
    inv = np.linalg.inv(X.T @ X)
    ref_cov = inv @ (X.T * e**2) @ X @ inv
    np.testing.assert_allclose(beta, ref, rtol=1e-9)
    np.testing.assert_allclose(cov, ref_cov, rtol=1e-7)


def test_red_three_cells_equal_the_records(run):
    c, s, S = run.aggregates.counts, run.sides, run.rules.sides
    score = s["score"].to_numpy(np.int64).reshape(-1, S)
    r3 = s["red_three_score"].to_numpy(np.int64).reshape(-1, S)
    dealt = s["red_threes_dealt"].to_numpy(np.int64).reshape(-1, S)
    lead = S * score - score.sum(1, keepdims=True)
    net = S * (score - r3) - (score - r3).sum(1, keepdims=True)
    for side in range(S):
        own, others = dealt[:, side], dealt.sum(1) - dealt[:, side]
        frame = pd.DataFrame({"a": own, "b": others, "lead": lead[:, side], "net": net[:, side]})
        for (a, b), grp in frame.groupby(["a", "b"]):
            assert c["r3_cells"][side, a, b] == len(grp)
            assert c["r3_lead_sum"][side, a, b] == grp["lead"].sum()
            assert c["r3_lead_sumsq"][side, a, b] == (grp["lead"] ** 2).sum()
            assert c["r3_net_sum"][side, a, b] == grp["net"].sum()
        assert c["r3_cells"][side].sum() == len(frame)


def test_red_three_value_difference_of_means_by_hand():
    # two sides, four deals. Side 0 is dealt 1 red three in two deals (leads 200 and 400
    # points) and none in the other two (leads 0 and 0); side 1's leads mirror side 0's.
    rules = Rules(players=4)
    agg = Aggregates.empty(4, 2, rules.max_turns, ["expert"])
    c = agg.counts
    c["deals"][0] = 4
    c["r3_cells"][0, 1, 0] = c["r3_cells"][0, 0, 1] = 2
    c["r3_cells"][1, 0, 1] = c["r3_cells"][1, 1, 0] = 2
    c["r3_lead_sum"][0, 1, 0], c["r3_lead_sumsq"][0, 1, 0] = 600, 200**2 + 400**2
    c["r3_lead_sum"][1, 0, 1], c["r3_lead_sumsq"][1, 0, 1] = -600, 200**2 + 400**2
    v = red_three_value(agg, rules).set_index("key")
    # each side: mean lead dealt one minus dealt none = 300 - 0 (side 1: 0 - (-300)); the
    # standard error sqrt(var / 2 + 0) with var = sd(200, 400)^2 = 20000: 100
    assert v.loc["lead_h1", "value"] == pytest.approx(300)
    assert v.loc["lead_h1", "ci_high"] - 300 == pytest.approx(Z95 * 100)
    assert v.loc["lead_h1", "n"] == 8  # side x deals in the two groups


def test_game_red_three_cells_equal_the_first_deals():
    res = play_games(60, rules=Rules(players=4), bots="greedy", seed=5, workers=1)
    cells = GameRedThree.from_frames(res.games, res.sides, 2)
    first = res.sides[res.sides["deal"] == 0]
    for side in (0, 1):
        mine = first[first["side"] == side].set_index("game")["red_threes_dealt"]
        other = first[first["side"] != side].set_index("game")["red_threes_dealt"]
        won = res.games.set_index("game")["winner"] == side
        expected = np.zeros((RED_CELLS, RED_CELLS), int)
        wins = np.zeros((RED_CELLS, RED_CELLS), int)
        for g in mine.index:
            expected[mine[g], other[g]] += 1
            wins[mine[g], other[g]] += int(won[g])
        assert (cells.cells[side] == expected).all()
        assert (cells.wins[side] == wins).all()
    # the chunked, reduced-where-played path gives the same cells (merged across chunks)
    chunked = game_red_three(60, rules=Rules(players=4), bots="greedy", seed=5, chunk_size=25)
    assert (chunked.cells == cells.cells).all() and (chunked.wins == cells.wins).all()


def test_aggregates_merge_exactly_across_chunks():
    rules = Rules(players=3)
    one = simulate(900, rules=rules, seed=2, workers=1, records=False, chunk_size=900)
    many = simulate(900, rules=rules, seed=2, workers=1, records=False, chunk_size=170)
    for key in ("canasta_done", "canasta_censored", "r3_cells", "r3_lead_sumsq", "r3_wins"):
        assert (one.aggregates.counts[key] == many.aggregates.counts[key]).all()
