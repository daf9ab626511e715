"""The expert's pickup knobs (hand-built positions) and the tuner (canasta_sim.search.tune).

Positions are built with ``Deal.from_position`` (see tests/players/test_bots.py for its
conventions).
"""

import hashlib
import json
import re

import goldens as G
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim import Deal, Rules, compare, simulate
from canasta_sim.cli import main
from canasta_sim.players.specs import parse_bot, search_rollout_bot, seat_arrays
from canasta_sim.search.tune import FINAL, SEARCH, parse_ranges, search_space, stage_seeds, tune

# --- the expert's pickup knobs (hand-built positions, R-33) ----------------------------------
# 4 players: side 0 = seats 0 and 2; seat 0 plays first; the stock's first card is the top, the
# pile's last card is the top. 20 stock cards: not yet the end game.
STOCK = "J J Q Q 4 4 4 6 6 6 7 7 10 10 10 J J Q Q K"
OTHERS = ["4 4 5", "6 6 7", "8 8 10"]


def _turn(spec: str, hand: str, pile: str, melds: list[str]) -> Deal:
    d = Deal.from_position(hands=[hand, *OTHERS], stock=STOCK, pile=pile, melds={0: melds})
    d.play_turn(spec)
    return d


def test_meld_pile_sets_the_onto_meld_threshold():
    """A pile of 3 with a nine on top and side 0's meld of nines (R-33 c): below the default
    threshold of 5 (meld_pile 0 follows pile_threshold) expert draws; meld_pile=3 takes it;
    meld_pile=4 draws again."""
    hand, pile, melds = "4 5 K 8 10", "7 J 9", ["9 9 9", "A A A"]
    assert _turn("expert", hand, pile, melds).stock_size == 19
    taken = _turn("expert:meld_pile=3", hand, pile, melds)
    assert taken.stock_size == 20 and len(taken.pile.split()) == 1  # its discard only
    assert _turn("expert:meld_pile=4", hand, pile, melds).stock_size == 19


def test_meld_pile_below_the_pair_threshold_takes_with_a_pair_in_hand():
    """The hand holds a pair of nines too: a pair pickup needs pile_threshold (5) cards, but the
    top nine goes onto the meld from meld_pile=2 on."""
    hand, pile, melds = "9 9 4 5 K", "7 9", ["9 9 9", "A A A"]
    assert _turn("expert", hand, pile, melds).stock_size == 19
    assert _turn("expert:meld_pile=2", hand, pile, melds).stock_size == 20


def test_meld_pile_leaves_pair_pickups_alone():
    """No meld of nines: a pair pickup of 2 cards stays below pile_threshold (5) whatever
    meld_pile says."""
    d = _turn("expert:meld_pile=1", "9 9 4 5 K", "7 9", ["A A A"])
    assert d.stock_size == 19 and "9" not in d.melds(0)


def test_wild_factor_sets_the_wild_card_pickup_threshold():
    """A pile of 6 with a nine on top, one nine and a deuce in hand (R-33 b), pile_threshold 6:
    factor 3 needs 18 cards (draws); factor 1 needs 6 (takes); factor 1.3 needs ceil(7.8) = 8
    (draws); factor 1.2 with pile_threshold 4 needs ceil(4.8) = 5 (takes)."""
    hand, pile, melds = "9 2 4 5 K", "7 J 8 6 5 9", ["A A A"]
    assert _turn("expert:wild_factor=3", hand, pile, melds).stock_size == 19
    taken = _turn("expert:wild_factor=1", hand, pile, melds)
    assert taken.stock_size == 20 and "9" in taken.melds(0)
    assert _turn("expert:wild_factor=1.3", hand, pile, melds).stock_size == 19
    assert _turn("expert:wild_factor=1.2,pile_threshold=4", hand, pile, melds).stock_size == 20


# --- the initial meld's wait (initial_cards) --------------------------------------------------
def _first_turn(spec: str, hand: str, scores=None) -> Deal:
    """Seat 0 (side 0 without melds) plays one turn: it draws the stock's J (the pile's 6 on
    top matches no pair of the hand) and has 12 cards, the deal's 11 plus one draw."""
    d = Deal.from_position(hands=[hand, *OTHERS], stock=STOCK, pile="7 5 6", scores=scores)
    d.play_turn(spec)
    assert d.stock_size == 19
    return d


def test_initial_cards_holds_back_a_big_initial_meld():
    """K K K Q Q Q is 60 points, the minimum count 50 (R-64) needs both (6 cards): the default
    allows 3 * 50 / 50 = 3 cards from a 12-card hand and waits; 6 cards per 50 points, or 100
    (expert@2's no wait), lay it. A A A alone (60 points, 3 cards) is laid at once."""
    hand = "K K K Q Q Q 4 5 7 8 9"
    assert _first_turn("expert", hand).melds(0) == {}
    assert set(_first_turn("expert:initial_cards=6", hand).melds(0)) == {"K", "Q"}
    assert set(_first_turn("expert@2", hand).melds(0)) == {"K", "Q"}
    assert set(_first_turn("expert", "A A A Q 4 5 7 8 9 10 K").melds(0)) == {"A"}


def test_initial_cards_grows_with_the_minimum_count():
    """At 1,500 points the minimum count is 90 (R-64): A A A K K K (90 points, 6 cards) is
    within 4 * 90 / 50 = 7.2 cards but not the default's 3 * 90 / 50 = 5.4; at 0 points the
    minimum 50 needs A A A only (3 cards), laid with the default."""
    hand = "A A A K K K 4 5 7 8 9"
    assert _first_turn("expert", hand, scores={0: 1500}).melds(0) == {}
    assert set(_first_turn("expert:initial_cards=4", hand, scores={0: 1500}).melds(0)) == {
        "A",
        "K",
    }
    assert set(_first_turn("expert", hand).melds(0)) == {"A"}


# --- the earlier defaults, as a preset ----------------------------------------------------------
#: sha256 (first 32 hex digits) over the sorted ``frame.column:digest`` lines of bots version 1's
#: golden cell ``4p-classic-expert`` (tests/data/goldens.json at bots version 1), every column
#: but the bot's name
V1_EXPERT_CELL = "63df28e1ca96d1fc9a917867652d79a7"
#: The record columns of bots version 1 (later versions add columns, which are not behaviour)
V1_COLUMNS = {
    "deals": {
        "concealed_out",
        "deal",
        "dealer",
        "end_reason",
        "first_canasta_turn",
        "pile_frozen_at_start",
        "players",
        "seed",
        "turns",
        "upcard_cards",
        "went_out_seat",
    },
    "sides": {
        "canasta_bonus",
        "canasta_ranks",
        "concealed_canastas",
        "deal",
        "going_out_bonus",
        "hand_penalty",
        "meld_points",
        "melds",
        "mixed_canastas",
        "natural_canastas",
        "red_three_score",
        "red_threes",
        "red_threes_dealt",
        "red_threes_drawn",
        "red_threes_from_pile",
        "score",
        "side",
        "went_out",
    },
}


def test_expert_at_1_plays_as_bots_version_1():
    """``expert@1`` reproduces the records of bots version 1's ``expert`` golden cell exactly."""
    cell = {"name": "v1", "players": 4, "preset": "classic", "bots": ["expert@1"]}
    now = G.run_cell(cell)
    lines = [
        f"{frame}.{column}:{digest}"
        for frame in ("deals", "sides")
        for column, digest in sorted(now[frame].items())
        if column in V1_COLUMNS[frame]
    ]
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest()[:32] == V1_EXPERT_CELL


def test_expert_at_1_is_a_spec_like_a_policy():
    bot = parse_bot("Expert@1:meld_keep=9")
    assert bot.spec == "expert@1:meld_keep=9"
    assert bot.parameters == {
        "pile_threshold": 5,
        "meld_keep": 9,
        "hold_wilds": 1,
        "freeze_risk": 0.05,
        "safety": 100,
        "block_at": 0,
        "out_lead": 3000,
        "natural_wait": 7,
        "wild_factor": 3,
        "meld_pile": 0,
        "initial_cards": 100,
    }
    assert bot.policy.code == parse_bot("expert").policy.code
    assert parse_bot("expert@1:meld_keep=8").spec == "expert@1"
    assert parse_bot(bot.spec) == bot
    with pytest.raises(ValueError, match="'expert@4'.*allowed: .*expert.*expert@1.*expert@3"):
        parse_bot("expert@4")


def test_expert_at_2_plays_as_bots_version_2():
    """``expert@2`` reproduces every record column of bots version 2's ``expert`` golden cells
    (``tests/data/goldens_expert_v2.json``: the digests of tests/data/goldens.json at bots
    version 2, the bot-name columns left out)."""
    old = json.loads((G.DATA / "goldens_expert_v2.json").read_text())
    assert old["bots_version"] == 2 and (old["deals"], old["seed"]) == (G.DEALS, G.SEED)
    for name, kept in old["cells"].items():
        now = G.run_cell({**kept["cell"], "bots": ["expert@2"]})
        for frame in ("deals", "sides"):
            assert {c: now[frame][c] for c in kept[frame]} == kept[frame], (name, frame)


def test_expert_at_3_plays_as_bots_version_3():
    """``expert@3`` reproduces every record column of bots version 3's ``expert`` golden cells
    at 2, 3 and 6 players (``tests/data/goldens_expert_v3.json``: the digests of
    tests/data/goldens.json at bots version 3, the bot-name columns left out), whose defaults
    were the 4-player ones at every player count."""
    old = json.loads((G.DATA / "goldens_expert_v3.json").read_text())
    assert old["bots_version"] == 3 and (old["deals"], old["seed"]) == (G.DEALS, G.SEED)
    assert {kept["cell"]["players"] for kept in old["cells"].values()} == {2, 3, 6}
    for name, kept in old["cells"].items():
        now = G.run_cell({**kept["cell"], "bots": ["expert@3"]})
        for frame in ("deals", "sides"):
            assert {c: now[frame][c] for c in kept[frame]} == kept[frame], (name, frame)


# --- defaults by player count (docs/tune.md, "The expert per player count") ------------------
#: The defaults tuned per player count, as docs/tune.md's table of the chosen settings gives
#: them; every other parameter keeps its 4-player default.
TUNED = {
    2: {"freeze_risk": 4, "safety": 30},
    3: {"pile_threshold": 5, "hold_wilds": 0, "freeze_risk": 4, "initial_cards": 2},
    4: {},
    6: {"pile_threshold": 3, "hold_wilds": 0},
}
FOUR = {
    "pile_threshold": 6,
    "meld_keep": 53,
    "hold_wilds": 1,
    "freeze_risk": 0.263,
    "safety": 90.82,
    "block_at": 40,
    "out_lead": 1958,
    "natural_wait": 7,
    "wild_factor": 1,
    "meld_pile": 0,
    "initial_cards": 3,
}


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_expert_defaults_depend_on_the_player_count(players):
    """``expert`` plays the tuned defaults of its player count, ``expert@3`` the 4-player ones
    at every count; a value given in a spec holds at every count, also when it equals the
    4-player default (so the spec keeps it)."""
    assert parse_bot("expert").parameters_at(players) == {**FOUR, **TUNED[players]}
    assert parse_bot("expert@3").parameters_at(players) == FOUR
    fixed = parse_bot("expert:pile_threshold=6,hold_wilds=1")
    assert fixed.spec == "expert:pile_threshold=6,hold_wilds=1"
    assert fixed.parameters_at(players) == {
        **FOUR,
        **TUNED[players],
        "pile_threshold": 6,
        "hold_wilds": 1,
    }
    names = list(FOUR)
    policies, params = seat_arrays([parse_bot("expert"), parse_bot("expert@3")], players)
    assert dict(zip(names, params[0, : len(names)])) == {**FOUR, **TUNED[players]}
    assert dict(zip(names, params[1, : len(names)])) == FOUR


@pytest.mark.parametrize("players", [2, 6])
def test_pimc_and_the_apprentice_follow_the_expert(players):
    """The search bot's rollout expert follows the player count as ``expert`` does, and so
    does the apprentice's candidate expert (since bots version 6 at 2 and 6 players: its
    weights there were fitted on those candidates); ``rollout=expert@3`` keeps the 4-player
    defaults."""
    tuned = {**FOUR, **TUNED[players]}
    pimc = parse_bot("pimc").parameters_at(players)
    assert {n: pimc["rollout." + n] for n in FOUR} == tuned
    apprentice = parse_bot("apprentice").parameters_at(players)
    assert {n: apprentice["expert." + n] for n in FOUR} == tuned
    old = parse_bot("pimc:rollout=expert@3").parameters_at(players)
    assert {n: old["rollout." + n] for n in FOUR} == FOUR
    assert search_rollout_bot(parse_bot("pimc")).spec == "expert"
    assert search_rollout_bot(parse_bot("pimc:rollout=expert@3")).spec == "expert@3"


def test_expert_plays_as_expert_at_3_with_4_players_only():
    """With 4 players the two are the same bot (identical records); with 6 players the
    manifest records the 6-player defaults and the deals differ."""
    four = compare("expert", "expert@3", deals=200, seed=3, workers=1)[0]
    assert four["mean_diff"].tolist() == [0.0, 0.0]
    assert four["wins"].tolist() == four["losses"].tolist()[::-1]
    run = simulate(60, bots="expert", rules=Rules(players=6), seed=3, workers=1)
    assert run.manifest["bot_parameters"]["expert"] == {**FOUR, **TUNED[6]}
    old = simulate(60, bots="expert@3", rules=Rules(players=6), seed=3, workers=1)
    assert not run.sides["score"].equals(old.sides["score"])


# --- the tuner ---------------------------------------------------------------------------------
SMALL = {"deals": 200, "final_deals": 400, "final_games": 10}


def _tune(bot="expert", **kw):
    return tune(bot, **{"trials": 4, "seed": 3, **SMALL, **kw})


def test_tuning_at_6_players_starts_from_the_6_player_defaults():
    """Trial 0 is the expert's own setting at the tuned player count (``pile_threshold=3``
    with 6 players), so its spec is the bot's name and it plays the field's ``expert`` evenly;
    a searched value equal to the 4-player default stays in a candidate's spec."""
    r = _tune(trials=2, params=["pile_threshold"], rules=Rules(players=6), field=["expert"])
    first = r.history.iloc[0]
    assert (first["spec"], first["pile_threshold"], first["objective"]) == ("expert", 3, 0)
    assert parse_bot("expert:pile_threshold=6").spec == "expert:pile_threshold=6"


def test_history_has_the_asked_trials_with_the_baseline_first():
    """Trial 0 plays the bot's own setting; against itself (the field's ``expert``) the seat
    rotation makes it an even match: difference 0 exactly. The field objective is the mean of
    the per-opponent ones."""
    r = _tune(trials=5)
    h = r.history
    assert list(h["trial"]) == [0, 1, 2, 3, 4]
    assert h.loc[0, "spec"] == "expert"
    assert h.loc[0, "vs_expert"] == 0.0
    assert np.allclose(h["objective"], (h["vs_expert"] + h["vs_careful"]) / 2)
    assert (h["low"] < h["objective"]).all() and (h["objective"] < h["high"]).all()
    assert r.best.spec == h.loc[h["objective"].idxmax(), "spec"]


def test_final_seeds_are_fresh_and_used():
    """The final stage plays on seeds the search never saw; its figures are exactly those of
    compare() on those seeds (and the search's trial 0 those on the search seeds)."""
    r = _tune(trials=2)
    info = r.manifest["tune"]
    assert set(info["search_seeds"]).isdisjoint(info["final_seeds"])
    assert info["search_seeds"] == stage_seeds(3, SEARCH, 2)
    assert info["final_seeds"] == stage_seeds(3, FINAL, 2)
    table, _ = compare("expert", "careful", deals=200, seed=info["search_seeds"][1])
    assert r.history.loc[0, "vs_careful"] == table.loc[0, "mean_diff"]
    final = r.final.set_index("opponent")
    table, _ = compare(r.best, "careful", deals=400, seed=info["final_seeds"][1])
    assert final.loc["careful", "mean_diff"] == table.loc[0, "mean_diff"]
    games, _ = compare(r.best, "careful", games=10, seed=info["final_seeds"][1])
    assert final.loc["careful", "wins"] == games.loc[0, "wins"]
    assert list(final.index) == ["expert", "careful", "field"]
    assert final.loc["field", "wins"] == final.loc["expert", "wins"] + final.loc["careful", "wins"]
    assert final.loc["field", "games"] == 20 and final.loc["field", "deals"] == 800


def test_field_interval_combines_independent_opponents():
    """Field half-width = sqrt(h1**2 + h2**2) / 2 from the two opponents' intervals."""
    r = _tune(trials=1, field=["careful", "greedy"])
    f = r.final.set_index("opponent")
    h = (f["diff_high"] - f["mean_diff"]).to_numpy()
    assert f.loc["field", "mean_diff"] == pytest.approx((f["mean_diff"][:2]).mean())
    assert h[2] == pytest.approx(np.hypot(h[0], h[1]) / 2)


def test_same_seed_same_search():
    a, b = _tune(trials=6, seed=11), _tune(trials=6, seed=11)
    assert list(a.history["spec"]) == list(b.history["spec"])
    c = _tune(trials=6, seed=12)
    assert list(a.history["spec"])[1:] != list(c.history["spec"])[1:]


def test_fixed_parameters_stay_fixed_and_ranges_hold():
    r = _tune(
        "expert:meld_keep=20,hold_wilds=0,freeze_risk=0.123456789",
        trials=8,
        ranges={"pile_threshold": (3, 4), "safety": (5, 6), "wild_factor": (1, 1.5)},
    )
    h = r.history
    assert "meld_keep" not in h.columns and "hold_wilds" not in h.columns
    for spec in h["spec"]:
        values = parse_bot(spec).parameters
        assert values["meld_keep"] == 20 and values["hold_wilds"] == 0
        assert values["freeze_risk"] == 0.123456789
    assert set(h["pile_threshold"]) <= {3.0, 4.0}
    assert h["safety"].between(5, 6).all() and h["wild_factor"].between(1, 1.5).all()
    # the baseline (pile_threshold 5, safety 100) lies outside the ranges: not played
    assert h.loc[0, "pile_threshold"] in (3.0, 4.0)
    assert r.best.parameters["meld_keep"] == 20
    assert r.manifest["tune"]["fixed"] == {
        "meld_keep": 20.0,
        "hold_wilds": 0.0,
        "freeze_risk": 0.123456789,
    }


def test_start_sets_trial_0():
    """A warm start: trial 0 plays start's values of the searched parameters (a preset of the
    same policy is fine), the fixed ones from the bot spec."""
    h = _tune("expert:hold_wilds=0", start="expert@1:meld_keep=12", trials=2).history
    assert h.loc[0, "meld_keep"] == 12 and h.loc[0, "pile_threshold"] == 5
    assert parse_bot(h.loc[0, "spec"]).parameters == {
        **parse_bot("expert@1:meld_keep=12").parameters,
        "hold_wilds": 0,
    }


def test_params_limits_the_search():
    h = _tune(params=["meld_keep"], trials=5).history
    assert [c for c in h.columns if c in parse_bot("expert").parameters] == ["meld_keep"]
    for spec in h["spec"]:
        values = parse_bot(spec).parameters
        assert {k: v for k, v in values.items() if k != "meld_keep"} == {
            k: v for k, v in parse_bot("expert").parameters.items() if k != "meld_keep"
        }


def test_wins_objective_is_the_pooled_game_win_rate():
    """Against itself alone, the baseline wins exactly half the games (each board's two games
    are mirror images); the history records win rates."""
    r = tune(
        "expert",
        field=["expert"],
        objective="wins",
        trials=2,
        games=6,
        final_deals=20,
        final_games=6,
        seed=1,
    )
    h = r.history
    assert h.loc[0, "objective"] == 0.5
    assert h["objective"].between(0, 1).all()
    assert r.manifest["tune"]["per_trial"] == {"games": 6}


def test_the_final_check_is_five_times_a_trial_by_default():
    # a smoke-sized search (20 deals a trial) ran the 50,000-deal final check of the defaults
    r = tune("expert", field=["careful"], trials=1, deals=20, games=2, seed=1, objective="wins")
    assert (r.manifest["tune"]["final_deals"], r.manifest["tune"]["final_games"]) == (100, 10)
    # objective diff plays no games a trial: the final games follow the deals (150 / 25 = 6
    # games a trial, 30 in the final check), not --games' default of 400
    r = tune("expert", field=["careful"], trials=1, deals=150, seed=1)
    assert (r.manifest["tune"]["final_deals"], r.manifest["tune"]["final_games"]) == (750, 30)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bot": "nobot"}, "nobot"),
        ({"bot": "greedy"}, "greedy.*allowed: expert"),
        ({"params": ["bogus"]}, "'bogus'.*allowed: pile_threshold"),
        ({"bot": "expert:meld_keep=9", "params": ["meld_keep"]}, "meld_keep is fixed"),
        ({"ranges": {"meld_keep": (9, 3)}}, "meld_keep=9:3 is empty"),
        ({"ranges": {"meld_keep": (4, 4)}}, "meld_keep=4:4 is empty or a single value"),
        ({"ranges": {"meld_keep": (1, 10)}}, "meld_keep=1:10 leaves the allowed range 2 to 100"),
        ({"ranges": {"meld_keep": (2.5, 9)}}, "meld_keep=2.5:9.*whole"),
        ({"params": ["safety"], "ranges": {"meld_keep": (2, 9)}}, "'meld_keep', which is not"),
        ({"objective": "points"}, "'points'.*allowed: diff, wins"),
        ({"trials": 0}, "trials=0"),
        ({"trials": 2.5}, "trials=2.5"),
        ({"deals": 1001}, "deals=1001.*multiple of the 2 sides"),
        ({"deals": 0}, "deals=0"),
        ({"final_games": 3}, "final_games=3"),
        ({"field": []}, "field is empty"),
        ({"field": ["careful", "careful"]}, "'careful' twice"),
        ({"field": ["careful", "nobot"]}, "nobot"),
        ({"start": "careful"}, "start 'careful' is not a setting of expert"),
        ({"start": "expert:meld_keep=50", "ranges": {"meld_keep": (2, 40)}}, "meld_keep outside"),
    ],
)
def test_bad_input_names_the_value(kwargs, match):
    kw = {"bot": "expert", "trials": 2, **SMALL, **kwargs}
    with pytest.raises(ValueError, match=match):
        tune(kw.pop("bot"), **kw)


def test_parse_ranges():
    assert parse_ranges(["meld_keep=2:40", "safety=0.5:9"]) == {
        "meld_keep": (2.0, 40.0),
        "safety": (0.5, 9.0),
    }
    for bad in (["meld_keep=2"], ["meld_keep:2:4"], ["meld_keep=a:4"], ["x=1:2", "x=1:3"]):
        with pytest.raises(ValueError):
            parse_ranges(bad)


def test_cli_tune_writes_history_and_final(tmp_path):
    out = tmp_path / "t"
    args = ["tune", "--trials", "3", "--deals", "200", "--final-deals", "400"]
    args += ["--final-games", "10", "--quiet", "--out", str(out), "--vs", "careful"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    history = pd.read_csv(out / "history.csv")
    final = pd.read_csv(out / "final.csv")
    assert len(history) == 3 and list(final["opponent"]) == ["careful", "field"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["bots"]["field"] == ["careful"] and manifest["tune"]["trials"] == 3


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--deals", "1001"], "deals=1001"),
        (["--range", "meld_keep=9:3"], "meld_keep=9:3"),
        (["--range", "meld_keep"], "'meld_keep' is not NAME=LOW:HIGH"),
        (["--param", "bogus"], "'bogus'"),
        (["--vs", "nobot"], "'nobot'"),
        (["greedy"], "'greedy' cannot be tuned; allowed: expert"),
        (["--trials", "0"], "0 is not allowed; allowed: 1 to 100,000"),
        (["--start", "greedy"], "start 'greedy' is not a setting of expert"),
    ],
)
def test_cli_tune_bad_input_is_a_usage_error(tmp_path, args, match):
    out = tmp_path / "t"
    res = CliRunner().invoke(main, ["tune", "--trials", "2", "--out", str(out), *args])
    assert res.exit_code == 2
    assert re.search(match, res.output.replace("\n", " ")), res.output
    assert "Traceback" not in res.output and not out.exists()


def test_the_search_bot_is_not_tuned():
    """pimc's rollout parameter is a bot, not a number, and its decisions cost rollouts."""
    with pytest.raises(ValueError, match="'pimc' cannot be tuned; allowed: expert"):
        tune("pimc", trials=2, deals=4, final_deals=4)


def test_the_learned_bots_weight_set_is_never_searched():
    """``weight_set`` indexes the run's weight files (``weights=PATH`` chooses them): the
    default search leaves it out, and naming it is an unknown parameter whose allowed list
    leaves it out too."""
    _, _, searched, _ = search_space("apprentice")
    names = [p.name for p in searched]
    assert "weight_set" not in names and {"temperature", "top"} <= set(names)
    with pytest.raises(ValueError, match="unknown parameter 'weight_set'") as err:
        search_space("apprentice", ["weight_set"])
    assert "weight_set" not in str(err.value).split("allowed:")[1]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["nosuch"], "BOT"),
        (["expert", "--param", "nosuch"], "--param"),
        (["expert", "--range", "meld_keep=40:2"], "--range"),
    ],
)
def test_a_bad_search_space_is_an_error_of_its_option(args, option):
    r = CliRunner().invoke(main, ["tune", *args, "--trials", "1"])
    assert r.exit_code == 2
    assert f"Invalid value for '{option}'" in r.output


# --- what a tune folder says ---------------------------------------------------------------------
def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "t"
    args = ["tune", "--trials", 2, "--deals", 20, "--final-deals", 20, "--final-games", 2]
    r = invoke(*args, "--vs", "greedy", "--out", out)
    assert r.exit_code == 0, r.output
    return out, r


def test_tune_writes_no_carriage_return_bar_into_a_log(tuned):
    _, r = tuned
    assert "\r" not in r.stderr and "trial/s" not in r.stderr


def test_replay_of_a_tune_folder_says_what_the_folder_is(tuned):
    out, _ = tuned
    r = invoke("replay", out, "--deal", 0)
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "is a tune folder (a search of expert's parameters" in text
    assert "allowed: a run folder of simulate, compare, sweep or games" in text
    assert "partial" not in text
