"""`review` (issue 19 item 3): the regret of a seat's decisions, checked against the rules of
its construction (one row per decision of the seat, regret 0 where nothing else is legal, the
best's own regret 0) and the command line's checks."""

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim import Rules, review, trace_deal
from canasta_sim.cli import main
from canasta_sim.search.review import COLUMNS, TYPES, cap_note, deal_summary, own_rollout

RULES = Rules(players=2)
EXAMPLE_BOTS = Path(__file__).resolve().parents[2] / "docs" / "example_bots.py"
DEALS = 2


@pytest.fixture(scope="module")
def result():
    return review(RULES, deals=DEALS, bots="expert", seed=4, worlds=6, rescore_worlds=6)


def seat_turns(deal: int) -> tuple[int, int]:
    """Seat 0's turns in deal ``deal`` of seed 4 (first moves), and those with a discard or a
    going out (the second decision), counted from the deal's trace."""
    turns = plays = 0
    done = False
    for e in trace_deal(RULES, "expert", 4, deal):
        if e["event"] in ("discard", "go_out", "end_turn"):
            if e["seat"] == 0 and not done:
                turns += 1
                plays += e["event"] != "end_turn"
            done = True
        elif e["event"] in ("draw", "take_pile"):
            done = False
    return turns, plays


def test_one_row_per_decision_with_the_columns(result):
    d = result.decisions
    assert list(d.columns) == list(COLUMNS)
    assert set(d["type"]) <= set(TYPES)
    assert (d["seat"] == 0).all()
    for deal in range(DEALS):
        turns, plays = seat_turns(deal)
        rows = d[d["deal"] == deal]
        # every turn of seat 0 has its first move; the deal may end on seat 0's draw from an
        # empty stock (a first move without a turn completed)
        assert turns <= (rows["decision"] == 0).sum() <= turns + 1
        assert (rows["decision"] == 1).sum() == plays
        assert (rows[rows["decision"] == 0]["type"] == "pickup").all()
        assert (rows[rows["decision"] == 1]["type"] != "pickup").all()
    s = result.summary.set_index("type")
    assert s.loc["all", "decisions"] == len(d)
    for kind in TYPES:
        assert s.loc[kind, "decisions"] == (d["type"] == kind).sum()
        assert s.loc[kind, "per_deal"] == pytest.approx((d["type"] == kind).sum() / DEALS)
        per_deal = d[d["type"] == kind].groupby("deal")["rescored"].sum()
        assert s.loc[kind, "rescored"] == pytest.approx(per_deal.sum() / DEALS)


def test_regret_is_zero_when_the_bot_has_no_other_choice(result):
    d = result.decisions
    forced = d[d["candidates"] == 1]
    # a 2-player deal: seat 0's first draw with a pile it cannot take happens in every deal
    assert len(forced) > 0
    assert (forced["bot_choice"] == forced["best"]).all()
    assert (forced[["regret", "rescored", "regret_lo", "rescored_hi"]] == 0).all().all()
    assert (forced["worlds"] == 0).all()


def test_regret_is_the_best_mean_minus_the_bot_mean(result):
    d = result.decisions[result.decisions["candidates"] > 1]
    assert (d["worlds"] == 6).all()
    assert d["regret"].to_numpy() == pytest.approx((d["best_mean"] - d["bot_mean"]).to_numpy())
    assert (d["regret"] >= 0).all()  # the best has the highest mean
    assert (d["regret_lo"] <= d["regret"]).all() and (d["regret"] <= d["regret_hi"]).all()


def test_a_bot_choice_that_is_the_best_has_no_regret_on_fresh_worlds(result):
    d = result.decisions
    same = d[(d["candidates"] > 1) & (d["bot_choice"] == d["best"])]
    assert len(same) > 0
    # the best against itself on the same fresh worlds: the paired difference is 0 in each
    assert (same["regret"] == 0).all()
    assert (same["rescored"] == 0).all()
    assert ((same["rescored_lo"] <= 0) & (same["rescored_hi"] >= 0)).all()
    other = d[(d["candidates"] > 1) & (d["bot_choice"] != d["best"])]
    assert (other["rescored_lo"] <= other["rescored"]).all()
    assert (other["rescored"] <= other["rescored_hi"]).all()


def test_the_references_replay_to_the_decision(result):
    row = result.decisions.iloc[1]
    assert row["reference"] == f"seed 4 deal {row['deal']}:{row['turn']}:{row['decision']}"


def invoke(*args):
    return CliRunner().invoke(main, ["review", *map(str, args)])


@pytest.mark.parametrize(
    "args, words",
    [
        (["--seat", "4"], ["--seat", "0 to 3"]),
        (["--players", "2", "--seat", "2"], ["--seat", "0 to 1"]),
        (["--bots", "nosuch"], ["--bots", "nosuch"]),
        (["--rollout", "nosuch"], ["--rollout", "nosuch"]),
        (["--rollout", "pimc"], ["--rollout", "'pimc' is the search bot", "expert spec"]),
        (["--rollout", "pimc:melds=1"], ["--rollout", "'pimc:melds=1' is the search bot"]),
        (  # a bot written in Python plays no rollouts: the default needs --rollout
            ["--bots", f"py:{EXAMPLE_BOTS}:EagerMelder,expert"],
            ["Invalid value for '--bots':", "EagerMelder' is written in Python", "('--rollout')"],
        ),
        (["--worlds", "0"], ["--worlds"]),
        (["--deals", "0"], ["--deals"]),
        (["no/such/folder"], ["RUN_FOLDER", "not a folder"]),
        (["--top-candidates", "0"], ["--top-candidates"]),
        ([".", "--bots", "expert"], ["--bots", "RUN_FOLDER"]),
        ([".", "--seed", "3"], ["--seed", "RUN_FOLDER"]),
    ],
)
def test_bad_input_is_a_usage_error(args, words):
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    for w in words:
        assert w in r.output
    assert "Traceback" not in r.output


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run") / "run"
    r = CliRunner().invoke(
        main, ["simulate", "--deals", "3", "--players", "2", "--quiet", "--out", str(folder)]
    )
    assert r.exit_code == 0, r.output
    return folder


@pytest.mark.parametrize(
    "args, words",
    [
        (["--deals", "9"], ["--deals", "holds 3"]),
        (["--seat", "2"], ["--seat", "0 to 1"]),
        (["--rollout", "nosuch"], ["--rollout", "nosuch"]),
    ],
)
def test_bad_input_with_a_run_folder_names_the_option(run_folder, args, words):
    r = invoke(run_folder, *args)
    assert r.exit_code == 2, r.output
    for w in words:
        assert w in r.output
    assert "RUN_FOLDER/" not in r.output


def test_a_folder_that_is_no_run_is_refused_before_any_progress(tmp_path):
    r = invoke(tmp_path, "--deals", "3")
    assert r.exit_code == 2 and "RUN_FOLDER" in r.output and "manifest.json" in r.output
    assert "deal/s" not in r.output  # no progress bar was started


def test_a_search_bot_rolls_out_with_its_own_rollout_bot():
    # pimc cannot be a rollout bot (docs/pimc.md): its rollouts are its rollout= expert's
    specs = ["pimc:worlds=8,rollout=expert@1,rollout.safety=80", "careful"]
    assert own_rollout(specs, 2) == ["expert@1:safety=80", "careful"]
    assert own_rollout(["pimc:melds=1", "pimc:rollout=expert@2"], 2) == ["expert", "expert@2"]
    # rolling out with the learned bot, its rollouts are the apprentice's
    assert own_rollout(["pimc:rollout=apprentice", "expert"], 2) == ["apprentice", "expert"]


def test_the_bots_keep_the_order_given():
    result = review(RULES, deals=1, bots="greedy,expert", seed=4, worlds=2)
    assert result.settings["bots"] == ["greedy", "expert"]


def test_the_plans_the_cap_left_out_are_counted_per_decision(result):
    d = result.decisions
    assert result.settings["max_candidates"] == 64
    assert (d[d["decision"] == 0]["plans_left_out"] == 0).all()  # the draw phase lists all
    small = review(RULES, deals=1, bots="expert", seed=4, worlds=2, max_candidates=2)
    plays = small.decisions[small.decisions["decision"] == 1]
    cut = plays[plays["plans_left_out"] > 0]
    assert len(cut) > 0 and small.settings["max_candidates"] == 2
    note = f"The cap of 2 candidates left out meld plans at {len(cut)} of {len(small.decisions)}"
    assert note in str(small)
    assert ("The cap of" in str(result)) == bool((d["plans_left_out"] > 0).any())


def test_the_command_line_prints_where_the_cap_cut(tmp_path):
    args = ["--deals", "1", "--players", "2", "--worlds", "2", "--max-candidates", "2"]
    r = invoke(*args, "--quiet", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert "The cap of 2 candidates left out meld plans at" in r.output
    d = pd.read_parquet(tmp_path / "r" / "decisions.parquet")
    assert (d["plans_left_out"] > 0).any()
    assert invoke("--deals", "1", "--max-candidates", "0").exit_code == 2


def test_an_existing_out_folder_is_refused(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("")
    r = invoke("--deals", "1", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "--out" in r.output


def test_out_writes_one_row_per_decision(tmp_path):
    r = invoke(
        "--deals", "1", "--players", "2", "--worlds", "4", "--quiet", "--out", tmp_path / "r"
    )
    assert r.exit_code == 0, r.output
    d = pd.read_parquet(tmp_path / "r" / "decisions.parquet")
    assert list(d.columns) == list(COLUMNS)
    summary = pd.read_csv(tmp_path / "r" / "summary.csv")
    assert summary.set_index("type").loc["all", "decisions"] == len(d)


def test_the_summary_prints_a_dash_for_nothing_measured_and_aligns_its_columns():
    from canasta_sim.search.review import format_summary

    nan = float("nan")
    summary = pd.DataFrame(
        {
            "type": ["pickup", "meld_timing", "all"],
            "decisions": [14, 0, 14],
            "per_deal": [14.0, 0.0, 14.0],
            "not_best": [0.143, nan, 0.143],  # no meld_timing decision: no share
            "regret": [1066.0, 0.0, 1066.0],
            "rescored": [775.5, 0.0, 775.5],
            "rescored_lo": [nan, nan, nan],  # one deal: no interval
            "rescored_hi": [nan, nan, nan],
        }
    )
    lines = format_summary(summary).splitlines()
    assert "nan" not in "\n".join(lines)
    assert lines[2].split() == ["meld_timing", "0", "0.00", "-", "+0.00", "+0.00", "[-,", "-]"]
    assert len({len(line) for line in lines}) == 1  # every row as wide as the header
    # each column's cells end where its header ends ('count' right-aligned after the types)
    end = lines[0].index("count") + len("count")
    assert [line[:end].split()[-1] for line in lines[1:]] == ["14", "0", "14"]


def test_one_deals_summary_adds_its_decisions_intervals_in_quadrature():
    """The board's review of one deal (issue 39): each decision's re-scoring has worlds of
    its own, so the deal's interval half-width is the root of the sum of the decisions'
    squared half-widths: discard +10 [4, 16] (half 6) and pickup -2 [-10, 6] (half 8) give
    all +8 with half 10; a type without decisions is 0 [0, 0]."""
    rows = [
        {"deal": 0, "type": "discard", "bot_choice": "a", "best": "b", "regret": 12.0,
         "rescored": 10.0, "rescored_lo": 4.0, "rescored_hi": 16.0},
        {"deal": 0, "type": "pickup", "bot_choice": "c", "best": "d", "regret": 3.0,
         "rescored": -2.0, "rescored_lo": -10.0, "rescored_hi": 6.0},
    ]  # fmt: skip
    summary = deal_summary(pd.DataFrame(rows)).set_index("type")
    assert list(summary.loc["all", ["rescored", "rescored_lo", "rescored_hi"]]) == [8, -2, 18]
    assert list(summary.loc["discard", ["rescored_lo", "rescored_hi"]]) == [4, 16]
    assert list(summary.loc["meld_timing", ["rescored", "rescored_lo", "rescored_hi"]]) == [0, 0, 0]
    rows[0]["rescored_lo"] = rows[0]["rescored_hi"] = float("nan")  # one world: no spread
    assert summary.loc["pickup", "rescored_lo"] == -10
    nan = deal_summary(pd.DataFrame(rows)).set_index("type")
    assert pd.isna(nan.loc["all", "rescored_lo"]) and nan.loc["pickup", "rescored_lo"] == -10


# --- what a review says --------------------------------------------------------------------------
def test_review_writes_no_carriage_return_bar_into_a_log():
    # CliRunner's stderr is no terminal: a log gets plain lines (none for so short a run)
    r = invoke("--deals", 1, "--players", 2, "--worlds", 2, "--rescore-worlds", 2)
    assert r.exit_code == 0, r.output
    assert "\r" not in r.stderr and "it/s" not in r.stderr and "deal/s" not in r.stderr


def test_the_review_cap_note_separates_thousands():
    decisions = pd.DataFrame({"plans_left_out": [2000, 809] + [0] * 1198})
    note = cap_note(decisions, 64)
    assert "at 2 of 1,200 decisions (2,809 plans in all;" in note


def test_review_writes_the_rollout_bot_it_used():
    result = review(Rules(players=2), deals=1, bots="greedy,expert", seed=4, worlds=2)
    assert result.settings["rollout"] == "greedy,expert"  # each side's own bot
    result = review(Rules(players=2), deals=1, bots="expert", seed=4, worlds=2)
    assert result.settings["rollout"] == "expert"
    given = review(Rules(players=2), deals=1, bots="expert", seed=4, worlds=2, rollout="greedy")
    assert given.settings["rollout"] == "greedy"


def test_the_summary_header_cells_stand_right_aligned_over_their_columns():
    """Columns two spaces apart, as every table of the project: a header of several words
    ('per deal', 'not best') reads as one cell, and ends where its numbers end."""
    import re

    from canasta_sim.search.review import format_summary

    nan = float("nan")
    summary = pd.DataFrame(
        {
            "type": ["pickup", "discard", "all"],
            "decisions": [12, 1_500, 1_512],
            "per_deal": [12.0, 1500.0, 1512.0],
            "not_best": [0.25, nan, 0.5],
            "regret": [1.5, -12.25, 3.0],
            "rescored": [0.5, -3.25, 12.0],
            "rescored_lo": [-1.0, -20.0, 1.0],
            "rescored_hi": [2.0, 13.5, 23.0],
        }
    )
    lines = format_summary(summary).splitlines()
    head = ["decision", "count", "per deal", "not best", "raw regret, points"]
    head.append("re-scored regret, points per deal [95%]")
    assert re.split(r"\s{2,}", lines[0]) == head
    assert re.split(r"\s{2,}", lines[2]) == [
        "discard", "1,500", "1500.00", "-", "-12.25", "-3.25 [-20.00, +13.50]"
    ]  # fmt: skip

    def ends(line):  # where each cell after the label ends
        return [m.end() for m in re.finditer(r"\S+(?: \S+)*", line)][1:]

    assert {tuple(ends(line)) for line in lines} == {tuple(ends(lines[0]))}
