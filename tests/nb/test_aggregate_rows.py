"""Aggregates.from_rows (one numba pass, canasta_sim.nb.chunk_counts) against a plain reference.

The reference below is written from what each count means (COUNTS in chunk_counts.py, R-15,
R-50, R-65) with Python loops over deals, independently of the kernel: histograms clip their
index to the first and last bin; sums and squares are exact integers. It is checked on
synthetic rows full of edge values and on real runs at every player count and both presets.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from canasta_sim.game.rules import Rules
from canasta_sim.nb.chunk_counts import COUNT_KEYS, Count, CountCol
from canasta_sim.players.specs import table_bots
from canasta_sim.results.aggregate import (
    MAX_COUNT,
    PICKUP_KINDS,
    RED_CELLS,
    SCORE_OFFSET,
    SCORE_STEP,
    Aggregates,
    count_layout,
    count_views,
)
from canasta_sim.results.records import (
    CANASTA_TIMING,
    PICKUP_SIZE_FIELDS,
    deal_dtype,
    side_dtype,
)
from canasta_sim.run.seating import Table, play_rows

COUNTED = (
    "red_threes",
    "red_threes_dealt",
    "red_threes_drawn",
    "red_threes_from_pile",
    "natural_canastas",
    "mixed_canastas",
    "concealed_canastas",
    "melds",
)
SUMMED = ("meld_points", "canasta_bonus", "going_out_bonus", "hand_penalty")


def clip(value, length):
    return min(max(int(value), 0), length - 1)


def result(scores, s):
    """0 = sole highest score, 1 = highest together with another side, 2 = below the highest."""
    best = max(scores)
    if scores[s] < best:
        return 2
    return 1 if scores.count(best) > 1 else 0


def reference(rules, bots, deal_rows, side_rows, bot_codes):
    """Every count of Aggregates.empty, deal by deal."""
    agg = Aggregates.empty(rules.players, rules.sides, rules.max_turns, bots)
    c = agg.counts
    S, T = rules.sides, rules.max_turns + 2
    for deal, sides, codes in zip(deal_rows, side_rows, bot_codes):
        c["deals"][0] += 1
        c["end_reason"][clip(deal["end_reason"] - 1, 4)] += 1
        c["turns"][clip(deal["turns"], T)] += 1
        c["upcard_cards"][clip(deal["upcard_cards"], 2 * MAX_COUNT)] += 1
        c["pile_frozen_at_start"][0] += bool(deal["pile_frozen_at_start"])
        c["concealed_out"][0] += bool(deal["concealed_out"])
        c["first_canasta_turn"][clip(deal["first_canasta_turn"] + 1, T)] += 1
        scores = [int(row["score"]) for row in sides]
        net_scores = [int(row["score"]) - int(row["red_three_score"]) for row in sides]
        dealt = [int(row["red_threes_dealt"]) for row in sides]
        c["red_threes_dealt_any"][clip(sum(dealt), MAX_COUNT)] += 1
        # the seat left of the dealer plays first; seat p belongs to side p % sides
        first = (int(deal["dealer"]) + 1) % rules.players % S
        diff = (S - 1) * scores[first] - (sum(scores) - scores[first])
        c["position_diff_sum"][0] += diff
        c["position_diff_sumsq"][0] += diff * diff
        for s, row in enumerate(sides):
            score, won = scores[s], result(scores, s)
            for key in COUNTED:
                c[key][s, clip(row[key], MAX_COUNT)] += 1
            canastas = int(row["natural_canastas"]) + int(row["mixed_canastas"])
            c["canastas"][s, clip(canastas, MAX_COUNT)] += 1
            for r in range(11):  # bit r: a canasta of rank r + 4
                c["canasta_rank"][s, r] += (int(row["canasta_ranks"]) >> r) & 1
            c["red_threes_outcome"][s, clip(row["red_threes"], MAX_COUNT), won] += 1
            c["red_three_score_sum"][s] += int(row["red_three_score"])
            c["red_three_score_negative"][s] += int(row["red_three_score"]) < 0
            score_bin = (score + SCORE_OFFSET) // SCORE_STEP
            c["score"][s, clip(score_bin, c["score"].shape[1])] += 1
            c["score_sum"][s] += score
            c["score_sumsq"][s] += score * score
            c["outcome"][s, won] += 1
            for key in SUMMED:
                c[key + "_sum"][s] += int(row[key])
            c["went_out"][s] += bool(row["went_out"])
            for k, (turn_key, mixed_key) in enumerate(CANASTA_TIMING):
                turn = int(row[turn_key])
                if turn >= 0:
                    c["canasta_done"][s, k, int(row[mixed_key]), min(turn, T - 1)] += 1
                else:
                    c["canasta_censored"][s, k, clip(deal["turns"], T)] += 1
            cell = (s, clip(dealt[s], RED_CELLS), clip(sum(dealt) - dealt[s], RED_CELLS))
            lead = (S - 1) * score - (sum(scores) - score)
            net = (S - 1) * net_scores[s] - (sum(net_scores) - net_scores[s])
            c["r3_cells"][cell] += 1
            c["r3_lead_sum"][cell] += lead
            c["r3_lead_sumsq"][cell] += lead * lead
            c["r3_net_sum"][cell] += net
            c["r3_net_sumsq"][cell] += net * net
            c["r3_wins"][cell] += won == 0
            for i, key in enumerate(PICKUP_KINDS):
                c["pickups_sum"][s, i] += int(row[key])
                c["pickups_sumsq"][s, i] += int(row[key]) ** 2
            cards = int(row["pile_cards_taken"])
            c["pile_taken_sum"][s] += cards
            c["pile_taken_sumsq"][s] += cards * cards
            c["pile_taken_cross"][s] += cards * int(row["pickups"])
            for i, key in enumerate(PICKUP_SIZE_FIELDS):
                c["pickup_size"][s, i] += int(row[key])
            for key in ("wild_freezes", "black_three_blocks"):
                c[key + "_sum"][s] += int(row[key])
                c[key + "_sumsq"][s] += int(row[key]) ** 2
            c["initial_meld_turn"][s, clip(row["initial_meld_turn"] + 1, T)] += 1
            pos = (first + s) % S  # position 0: the side that plays first
            c["position_outcome"][s, result(scores, pos)] += 1
            c["position_score_sum"][s] += scores[pos]
            c["position_score_sumsq"][s] += scores[pos] ** 2
            bot = int(codes[s])
            c["bot_sides"][bot] += 1
            c["bot_outcome"][bot, won] += 1
            c["bot_score_sum"][bot] += score
            c["bot_score_sumsq"][bot] += score * score
    return agg


def assert_same(got: Aggregates, want: Aggregates):
    assert got.counts.keys() == want.counts.keys()
    for key, value in want.counts.items():
        assert got.counts[key].dtype == np.int64, key
        np.testing.assert_array_equal(got.counts[key], value, err_msg=key)


def test_kernel_counts_are_the_aggregate_keys():
    # the kernel's named counts are exactly Aggregates.empty's, in its order
    assert COUNT_KEYS == Count._fields == tuple(Aggregates.empty(4, 2, 100, ["a"]).counts)


@pytest.mark.parametrize("sides, max_turns, n_bots", [(2, 100, 1), (3, 7, 4)])
def test_count_layout_places_each_count_apart_in_one_flat_array(sides, max_turns, n_bots):
    layout = count_layout(sides, max_turns, n_bots)
    flat = np.zeros(layout.size, np.int64)
    views = count_views(flat, layout)
    # each view has its shape and shares the flat array; the blocks tile it in key order
    start = 0
    for k, key in enumerate(COUNT_KEYS):
        view = views[key]
        assert view.shape == layout.shapes[key] and np.shares_memory(view, flat), key
        assert layout.table[CountCol.start, k] == start, key
        assert layout.table[CountCol.bins, k] == view.shape[-1], key
        assert layout.table[CountCol.row, k] == view[0].size, key
        start += view.size
    assert start == layout.size == flat.size
    # element [i, j] of a count (j flat over its other axes) is where the table says
    cell = (1, 2, 3)  # r3_cells[side 1, 2 dealt to the side, 3 to the others]
    views["r3_cells"][cell] = 7
    at, row = layout.table[CountCol.start], layout.table[CountCol.row]
    j = cell[1] * layout.shapes["r3_cells"][2] + cell[2]
    assert flat[at[Count.r3_cells] + cell[0] * row[Count.r3_cells] + j] == 7
    assert flat.sum() == 7
    # the shapes by hand: sides, max_turns + 2 turn bins, n_bots bots
    T = max_turns + 2
    assert layout.shapes["canasta_done"] == (sides, 3, 2, T)
    assert layout.shapes["bot_outcome"] == (n_bots, 3)
    assert layout.shapes["score"] == (sides, 2 * SCORE_OFFSET // SCORE_STEP + 1)


def synthetic_rows(rules: Rules, n: int, n_bots: int, seed: int):
    """Rows with edge values: counts past MAX_COUNT, -1 turns, turns past the limit, scores
    far below zero and past the score histogram, every end reason."""
    rng = np.random.default_rng(seed)
    S, T = rules.sides, rules.max_turns + 2
    deal_rows = np.zeros(n, deal_dtype)
    deal_rows["dealer"] = rng.integers(0, rules.players, n)
    deal_rows["turns"] = rng.integers(0, T + 5, n)
    deal_rows["end_reason"] = rng.integers(1, 5, n)
    deal_rows["concealed_out"] = rng.random(n) < 0.3
    deal_rows["upcard_cards"] = rng.integers(0, 2 * MAX_COUNT + 3, n)
    deal_rows["pile_frozen_at_start"] = rng.random(n) < 0.3
    deal_rows["first_canasta_turn"] = rng.integers(-1, T + 3, n)
    deal_rows["turns"][::13] = T + 2  # past the turn histogram: last bin
    deal_rows["first_canasta_turn"][::9] = -1  # no canasta: bin 0
    side_rows = np.zeros((n, S), side_dtype)
    for name in side_dtype.names:
        kind = side_dtype[name]
        if kind == np.bool_:
            side_rows[name] = rng.random((n, S)) < 0.4
        elif name.endswith("_turn"):
            side_rows[name] = rng.integers(-1, T + 3, (n, S))
        else:
            side_rows[name] = rng.integers(0, MAX_COUNT + 4, (n, S))
    for name in ("canasta_1_turn", "canasta_2_turn", "canasta_3_turn", "initial_meld_turn"):
        side_rows[name][::3] = -1  # not done: censored at the turns played
        side_rows[name][1::9] = T + 1  # past the turn histogram: last bin
    side_rows["red_threes_dealt"] = rng.integers(0, 5, (n, S))
    side_rows["canasta_ranks"] = rng.integers(0, 2**11, (n, S))
    side_rows["red_three_score"] = rng.choice([-800, -100, 0, 100, 800], (n, S))
    scores = rng.integers(-2000, 2000, (n, S)) * SCORE_STEP
    scores[::7, 0] = -SCORE_OFFSET - 500  # below the histogram: first bin
    scores[::11, -1] = SCORE_OFFSET + 500  # above it: last bin
    scores[::5, :] = 100  # every side tied
    side_rows["score"] = scores
    bot_codes = rng.integers(0, n_bots, (n, S)).astype(np.int8)
    return deal_rows, side_rows, bot_codes


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_from_rows_on_edge_values_equals_the_reference(players):
    rules = Rules(players=players)
    bots = ["a", "b", "c"]
    deal_rows, side_rows, bot_codes = synthetic_rows(rules, 600, len(bots), seed=players)
    got = Aggregates.from_rows(rules, bots, deal_rows, side_rows, bot_codes)
    assert_same(got, reference(rules, bots, deal_rows, side_rows, bot_codes))
    # the edges reached the edge bins (so the clipping was exercised)
    assert got.counts["score"][:, 0].sum() > 0 and got.counts["score"][:, -1].sum() > 0
    assert got.counts["red_threes"][:, MAX_COUNT - 1].sum() > 0
    assert got.counts["first_canasta_turn"][0] > 0  # first_canasta_turn -1: no canasta
    assert got.counts["turns"][-1] > 0 and got.counts["canasta_done"][..., -1].sum() > 0
    assert got.counts["canasta_censored"].sum() > 0


@pytest.mark.parametrize("preset", ["classic", "hoyle"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_from_rows_on_played_deals_equals_the_reference(players, preset):
    rules = Rules.preset(preset, players=players)
    specs = ("expert", "greedy", "careful")[: rules.sides]  # two bots at least: bot counts
    table = Table(rules, (table_bots(specs, None, rules),), None)
    _, seatings, deal_rows, side_rows = play_rows(table, 7, 0, 150)
    bots, bot_codes = list(table.bot_specs), table.bot_codes[seatings]
    got = Aggregates.from_rows(rules, bots, deal_rows, side_rows, bot_codes)
    assert got.n_deals == 150
    assert_same(got, reference(rules, bots, deal_rows, side_rows, bot_codes))


def test_from_rows_refuses_a_bot_code_outside_bots():
    rules = Rules(players=4)
    deal_rows, side_rows, bot_codes = synthetic_rows(rules, 10, 2, seed=1)
    bot_codes[3, 1] = 2  # two bots: codes 0 and 1
    with pytest.raises(ValueError, match="bot_codes from 0 to 2; allowed: 0 to 1"):
        Aggregates.from_rows(rules, ["a", "b"], deal_rows, side_rows, bot_codes)


def test_aggregates_json_of_separate_arrays_reads_and_merges_into_the_flat_counts():
    # an aggregates.json as runs before the flat layout wrote it: one list per count, by name
    rules = Rules(players=4)
    bots = ["a", "b"]
    deal_rows, side_rows, bot_codes = synthetic_rows(rules, 200, len(bots), seed=5)
    want = reference(rules, bots, deal_rows, side_rows, bot_codes)
    text = json.dumps(
        {
            "players": 4,
            "sides": 2,
            "max_turns": rules.max_turns,
            "bots": bots,
            "counts": {key: value.tolist() for key, value in want.counts.items()},
        }
    )
    old = Aggregates.from_json(text)
    assert_same(old, want)
    assert old.to_json() == text  # written back the same, byte for byte
    # merged with a chunk counted into the flat array: every count doubles
    merged = Aggregates.from_rows(rules, bots, deal_rows, side_rows, bot_codes)
    merged += old
    for key, value in want.counts.items():
        np.testing.assert_array_equal(merged.counts[key], 2 * value, err_msg=key)
