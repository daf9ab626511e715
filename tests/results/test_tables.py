"""Tables for people, formats for programs (issue 25 item 3): aligned tables with units and 95%
intervals, the reading under a comparison, ``--format table|csv|json``, no ``nan`` shown, and
``sweep``/``study``/``tune`` writing a folder only with ``--out``."""

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim._version import BOTS_VERSION
from canasta_sim.cli import main
from canasta_sim.game.rules import Rules
from canasta_sim.players.specs import parse_bot
from canasta_sim.results.paired import (
    COLUMNS,
    PairSums,
    comparison_reading,
    comparison_table,
    format_comparison,
)
from canasta_sim.results.tables import align_columns, interval, json_document, number
from canasta_sim.run.seating import SLOW_DEALS, Table
from canasta_sim.search.review import format_top

GO_OUT = Path(__file__).resolve().parents[2] / "docs" / "positions" / "go_out_2p.json"
NAN = float("nan")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def header_cells(line: str) -> list[str]:
    """The titles of an aligned header line (separated by two spaces or more)."""
    return [c.strip() for c in line.split("  ") if c.strip()]


# --- the shared module ----------------------------------------------------------------------------
def test_nothing_measured_is_a_dash():
    assert number(NAN, "+.1f") == "-" and number(None, ".1%") == "-"
    assert number(-3.25, "+.1f") == "-3.2"  # round half to even, as format() does
    assert interval(12.34, 8.06, 16.5, "+.1f") == "+12.3 [+8.1, +16.5]"
    assert interval(0.0, NAN, NAN, "+.2f") == "+0.00 [-, -]"
    assert interval(NAN, NAN, NAN, "+.2f") == "-"


def test_an_exact_tie_prints_zero_without_a_minus_sign():
    """Two bots that score alike on every deal: both differences are 0 (B's is A's negated,
    -0.0), printed alike."""
    assert number(-0.0, "+.1f") == "+0.0" and number(-0.0, ",.1f") == "0.0"
    assert number(-0.04, "+.1f") == "-0.0"  # a value rounded to zero keeps its sign
    scores = np.array([[100, 100], [250, 250], [-40, -40], [5, 5]], np.int64)
    sums = PairSums.from_scores(scores, np.full(4, -1, np.int64), 0)
    text = format_comparison(comparison_table(sums, ("expert", "careful")))
    rows = [line for line in text.splitlines() if line.startswith(("expert ", "careful "))]
    assert len(rows) == 2 and all(r.endswith("+0.0 [+0.0, +0.0]") for r in rows)
    assert "-0.0" not in text


def test_columns_align_labels_left_and_numbers_right():
    text = align_columns([["bot", "wins"], ["expert", "7"], ["pimc", "1,234"]])
    assert text.splitlines() == ["bot      wins", "expert      7", "pimc    1,234"]
    two = align_columns([["a", "b", "n"], ["xx", "y", "1"]], sep=" ", left=2)
    assert two.splitlines() == ["a  b n", "xx y 1"]


def test_json_is_strict_with_null_for_nan():
    frame = pd.DataFrame({"x": [1.5, NAN], "n": np.array([3, 4], np.int64)})
    doc = json.loads(json_document("demo", {"seed": np.uint64(7), "r": NAN}, rows=frame))
    assert doc == {
        "command": "demo",
        "settings": {"seed": 7, "r": None},
        "rows": [{"x": 1.5, "n": 3}, {"x": None, "n": 4}],
    }


# --- compare --------------------------------------------------------------------------------------
def test_compare_table_reading_and_formats_agree(tmp_path):
    out = tmp_path / "cmp"
    args = ("compare", "greedy", "random", "--deals", 40, "--seed", 3, "--quiet")
    r = run(*args, "--out", out)
    saved = pd.read_csv(out / "compare.csv")
    lines = r.output.splitlines()
    assert lines[0] == "40 deals, 4 players, seed 3"
    assert header_cells(lines[1]) == [
        "bot",
        "deals",
        "wins",
        "losses",
        "ties",
        "win rate [95%]",
        "score, points per deal [95%]",
        "difference, points per deal [95%]",
    ]
    a, b = saved.iloc[0], saved.iloc[1]
    cells = lines[2].split()
    assert cells[:5] == ["greedy", "40", str(a.wins), str(a.losses), str(a.ties)]
    assert cells[5] == f"{a.wins / 40:.1%}"  # the win rate is wins over deals
    diff = f"{a.mean_diff:+,.1f} [{a.diff_low:+,.1f}, {a.diff_high:+,.1f}]"
    assert lines[2].endswith(diff)
    # B's difference is A's negated, its interval mirrored
    assert lines[3].endswith(f"{-a.mean_diff:+,.1f} [{-a.diff_high:+,.1f}, {-a.diff_low:+,.1f}]")
    assert (a.wins, a.losses) == (b.losses, b.wins)
    assert lines[4].startswith(f"reading: greedy scores {diff} points a deal more than random")
    assert "(even: 50.0%)" in lines[4]

    csv = pd.read_csv(io.StringIO(run(*args, "--format", "csv").stdout))
    assert list(csv.columns) == list(COLUMNS)
    pd.testing.assert_frame_equal(csv, saved)

    r = run(*args, "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["command"] == "compare"
    assert {k: doc["settings"][k] for k in ("unit", "count", "players", "seed", "bots")} == {
        "unit": "deals",
        "count": 40,
        "players": 4,
        "seed": 3,
        "bots": ["greedy", "random"],
    }
    assert doc["settings"]["reading"] == lines[4]
    assert pd.DataFrame(doc["table"]).equals(saved)
    assert "40 deals, 4 players, seed 3" in r.stderr  # the note is not in the JSON's way


def comparison(diff, low, high, win_rate, win_low, win_high, fair=0.5):
    row = dict.fromkeys(COLUMNS, 0)
    a = {**row, "bot": "weak", "fair_share": fair, "mean_diff": diff, "diff_low": low}
    a.update(diff_high=high, win_rate=win_rate, win_low=win_low, win_high=win_high)
    return pd.DataFrame([a, {**row, "bot": "strong", "fair_share": 1 - fair}])


def test_the_reading_says_to_trust_the_points_when_the_deal_win_rate_disagrees():
    # issue 25: a weak bot "wins" 52% of deals while losing 1,188 points a deal
    frame = comparison(-1188.0, -1250.5, -1125.5, 0.52, 0.51, 0.53)
    line = comparison_reading(frame, "deals")
    assert line.startswith(
        "reading: weak scores 1,188.0 [1,125.5, 1,250.5] points a deal less than strong "
        "and wins 52.0% [51.0%, 53.0%] of deals (even: 50.0%)"
    )
    assert "trust the points for strength" in line
    assert line.endswith("(here the two disagree: trust the points)")
    # within noise on the win rate: nothing to disagree about
    assert "disagree" not in comparison_reading(comparison(-10, -20, -1, 0.51, 0.49, 0.53))


def test_the_reading_says_less_for_a_negative_difference():
    # a bot behind by 926.6 points "scores 926.6 points less", its interval mirrored
    line = comparison_reading(comparison(-926.6, -1179.7, -673.6, 0.55, 0.493, 0.605))
    assert "scores 926.6 [673.6, 1,179.7] points a deal less than strong" in line
    line = comparison_reading(comparison(-5, -20, 10, 0.5, 0.45, 0.55), "games")
    assert "scores 5.0 [-10.0, 20.0] points a game less:" in line
    ahead = comparison_reading(comparison(5, 1, 9, 0.5, 0.4, 0.6))
    assert "scores +5.0 [+1.0, +9.0] points a deal more than strong" in ahead


def test_the_reading_of_games_trusts_the_game_win_rate():
    line = comparison_reading(comparison(2407, 2210, 2605, 0.757, 0.729, 0.783), "games")
    assert line.startswith("reading: weak wins 75.7% [72.9%, 78.3%] of games against strong")
    assert "the game win rate is the result that counts" in line


def test_one_board_measures_no_interval_and_no_format_shows_nan():
    # 2 deals with 2 sides are one board: no interval of the difference, no correlation
    for fmt in ("table", "csv", "json"):
        r = run("compare", "greedy", "random", "--deals", 2, "--quiet", "--format", fmt)
        assert "nan" not in r.output.lower(), r.output
    table = run("compare", "greedy", "random", "--deals", 2, "--quiet").output
    assert " [-, -]" in table and "one board gives none" in table
    doc = json.loads(run("compare", "greedy", "random", "--deals", 2, "--quiet", "--format",
                         "json").stdout)  # fmt: skip
    assert doc["table"][0]["diff_low"] is None and doc["settings"]["rotation_correlation"] is None


def test_review_shows_a_dash_for_a_decision_with_nothing_measured():
    top = pd.DataFrame(
        [
            {
                "reference": "deal 0 turn 3",
                "type": "pickup",
                "rescored": 0.0,
                "rescored_lo": NAN,  # one candidate: no rollouts, no interval
                "rescored_hi": NAN,
                "regret": 0.0,
                "hand": "9 9 K",
                "pile_top": "",
                "bot_choice": "draw",
                "bot_mean": NAN,
                "best": "draw",
                "best_mean": NAN,
            }
        ]
    )
    text = format_top(top)
    assert "nan" not in text
    assert text.splitlines() == [
        "deal 0 turn 3  pickup  re-scored regret +0.0 [-, -] (raw +0.0)",
        "    hand 9 9 K | pile top -",
        "    bot: draw  (-)",
        "    best: draw  (-)",
    ]


# --- games, sweep, study, simulate, analyse, review, tune -----------------------------------
def test_games_table_and_formats_agree():
    args = ("games", "--games", 10, "--bots", "expert,greedy", "--seed", 4, "--quiet")
    lines = run(*args).output.splitlines()
    assert header_cells(lines[1]) == [
        "side",
        "bot",
        "wins",
        "game win rate [95%]",
        "mean final score, points [95%]",
    ]
    csv = pd.read_csv(io.StringIO(run(*args, "--format", "csv").stdout))
    assert list(csv["bot"]) == ["expert", "greedy"] and (csv["games"] == 10).all()
    assert csv["wins"].sum() <= 10
    for side, line in zip(csv.itertuples(), lines[2:4]):
        cells = line.split()
        assert cells[:3] == [str(side.side), side.bot, str(side.wins)]
        assert cells[3] == f"{side.win_rate:.1%}"  # the win rate is wins / games
        assert side.win_rate == side.wins / 10
    doc = json.loads(run(*args, "--format", "json").stdout)
    assert doc["settings"]["games"] == 10 and doc["settings"]["target"] == 5000
    pd.testing.assert_frame_equal(pd.DataFrame(doc["sides"]), csv)


def test_games_show_the_start_scores_in_the_table_and_the_json():
    """``games --scores`` starts each side from a cumulative score: the table shows it (a
    column, only when some side starts above 0) and so do the JSON's settings and sides."""
    args = ("games", "--games", 4, "--bots", "expert,greedy", "--seed", 4, "--quiet")
    lines = run(*args, "--scores", "1000,-50").output.splitlines()
    assert header_cells(lines[1])[:4] == ["side", "bot", "start score", "wins"]
    assert lines[2].split()[:3] == ["0", "expert", "1,000"]
    assert lines[3].split()[:3] == ["1", "greedy", "-50"]
    doc = json.loads(run(*args, "--scores", "1000,-50", "--format", "json").stdout)
    assert doc["settings"]["scores"] == [1000, -50]
    assert [side["start_score"] for side in doc["sides"]] == [1000, -50]
    assert "start score" not in run(*args).output  # from 0-0: no column


def test_sweep_without_out_prints_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("sweep", "expert", "--param", "pile_threshold=2,4", "--vs", "greedy", "--deals", 4)
    r = run(*args, "--quiet")
    lines = r.output.splitlines()
    assert lines[0].startswith("sweep of pile_threshold for expert against greedy")
    assert header_cells(lines[1])[:3] == ["pile_threshold", "deals", "win rate [95%]"]
    assert [line.split()[0] for line in lines[2:4]] == ["2", "4"]
    assert "baseline" not in r.output  # no value equals the opponent
    doc = json.loads(run(*args, "--quiet", "--format", "json").stdout)
    assert doc["settings"] == {
        "bot": "expert",
        "param": "pile_threshold",
        "vs": "greedy",
        "deals": 4,
        "players": 4,
        "seed": 0,
    }
    csv = pd.read_csv(io.StringIO(run(*args, "--quiet", "--format", "csv").stdout))
    assert list(csv["value"]) == [2, 4] and list(csv.columns[:3]) == ["value", "baseline", "bot"]
    pd.testing.assert_frame_equal(pd.DataFrame(doc["table"]), csv, check_dtype=False)
    assert list(tmp_path.iterdir()) == []


def test_a_sweep_baseline_reads_even(tmp_path, monkeypatch):
    # the baseline bot equals the opponent: in the two rotations of a shuffle the same deal is
    # played with the bots' sides swapped, so the difference is exactly 0 and every deal one
    # bot wins once the other wins once
    monkeypatch.chdir(tmp_path)
    r = run("sweep", "expert", "--param", "pile_threshold=4,6", "--vs", "expert:pile_threshold=6",
            "--deals", 40, "--quiet")  # fmt: skip
    lines = r.output.splitlines()
    assert header_cells(lines[1])[:3] == ["pile_threshold", "baseline", "deals"]
    base = lines[3].split()
    assert base[:3] == ["6", "yes", "40"] and lines[3].endswith("+0.0 [+0.0, +0.0]")
    assert lines[4].startswith("baseline: the row whose bot equals the opponent")
    assert list(tmp_path.iterdir()) == []


def test_study_without_out_prints_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["study", "--axis", "players=2|4", "--deals", "10", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "study of 2 cells, 10 deals per cell" in r.output and "results written" not in r.output
    assert list(tmp_path.iterdir()) == []
    r = CliRunner().invoke(main, ["study", "--axis", "players=2", "--deals", "10", "--resume"])
    assert r.exit_code == 2 and "'--resume' needs '--out'" in r.output


def test_simulate_summary_as_csv_and_json():
    args = ("simulate", "--deals", 20, "--seed", 2, "--quiet")
    csv = pd.read_csv(io.StringIO(run(*args, "--format", "csv").stdout))
    assert list(csv.columns) == ["group", "statistic", "value", "ci_low", "ci_high", "n", "exact"]
    red = csv.set_index("statistic").loc["red threes dealt per side per deal"]
    assert red["n"] == 40 and red["exact"] == pytest.approx(22 / 27)  # 44/27 per deal, 2 sides
    doc = json.loads(run(*args, "--format", "json").stdout)
    # the default bot (bots version 8 on) is the apprentice on every side
    assert doc["settings"]["deals"] == 20 and doc["settings"]["bots"] == ["apprentice"] * 2
    assert len(doc["summary"]) == len(csv)


def test_analyse_as_json_lists_every_candidate():
    args = ("analyse", GO_OUT, "--worlds", 20, "--top", 2)
    doc = json.loads(run(*args, "--format", "json").stdout)
    csv = pd.read_csv(io.StringIO(run(*args, "--format", "csv").stdout))
    assert doc["command"] == "analyse" and doc["settings"]["line"].startswith("seed 0, 20 worlds")
    assert [c["candidate"] for c in doc["candidates"]] == list(csv["candidate"])
    assert all(c["worlds"] == 20 for c in doc["candidates"])


def test_review_as_json_holds_the_summary_and_the_top_decisions(tmp_path):
    args = ("review", "--deals", 1, "--players", 2, "--worlds", 4, "--top", 3, "--quiet")
    doc = json.loads(run(*args, "--format", "json").stdout)
    summary = pd.DataFrame(doc["summary"])
    assert list(summary["type"])[-1] == "all"
    assert len(doc["top"]) == min(3, int(summary.iloc[-1]["decisions"]))
    assert doc["settings"]["deals"] == 1
    assert "nan" not in run(*args).output  # one deal: no interval, a dash


def test_tune_without_out_prints_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["tune", "--trials", "2", "--deals", "20", "--final-deals", "20", "--final-games"]
    args += ["2", "--vs", "careful", "--quiet", "--format", "json"]
    doc = json.loads(run(*args).stdout)
    assert len(doc["history"]) == 2 and doc["history"][0]["trial"] == 0
    assert [row["opponent"] for row in doc["final"]] == ["careful", "field"]
    assert doc["settings"]["best"] == doc["history"][doc["settings"]["best_trial"]]["spec"]
    assert list(tmp_path.iterdir()) == []


# --- progress ------------------------------------------------------------------------------------
def test_slow_bots_play_in_small_chunks_so_progress_moves():
    rules = Rules()
    fast = Table(rules, ((parse_bot("expert"), parse_bot("greedy")),))
    slow = Table(rules, ((parse_bot("pimc"), parse_bot("expert")),))
    assert not fast.slow and fast.default_chunk(50_000) == 50_000
    assert slow.slow and SLOW_DEALS <= slow.default_chunk(50_000) < 1000
    assert slow.default_chunk(10_000, "game") < 100


def test_verify_quiet_prints_nothing_on_stderr():
    r = run("verify", "--deals", 10, "--players", 2, "--bots", "greedy", "--quiet")
    assert r.stderr == "" and "10 of 10 deals passed" in r.stdout


def test_simulate_json_names_the_policy_its_statistics_describe():
    doc = json.loads(
        run(
            "simulate", "--deals", 4, "--bots", "expert,careful", "--quiet", "--format", "json"
        ).stdout
    )
    assert (
        doc["settings"]["policy"]
        == f"side 0: expert, side 1: careful (bots version {BOTS_VERSION})"
    )
    assert doc["settings"]["bots_version"] == BOTS_VERSION


def test_simulate_csv_names_the_play_on_stderr():
    # the table's first line and the JSON's "policy" named it; the CSV's notes did not
    r = run("simulate", "--bots", "greedy", "--deals", 4, "--quiet", "--format", "csv")
    assert "statistics of the play of greedy on every seat" in r.stderr
    assert "statistics of the play" not in r.stdout
