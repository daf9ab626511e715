"""The fresh user's findings of the last check (issue 24, the house), each pinned by a test
that fails on the code before its fix."""

import math

import pytest
from click.testing import CliRunner
from test_stats import RULES, tiny

import canasta_sim as cs
from canasta_sim.cli import main
from canasta_sim.players.specs import parse_bot, side_bots
from canasta_sim.results.intervals import Z95
from canasta_sim.results.statistics import summary


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- progress in a log --------------------------------------------------------------------------
def test_review_writes_no_carriage_return_bar_into_a_log():
    # CliRunner's stderr is no terminal: a log gets plain lines (none for so short a run)
    r = invoke("review", "--deals", 1, "--players", 2, "--worlds", 2, "--rescore-worlds", 2)
    assert r.exit_code == 0, r.output
    assert "\r" not in r.stderr and "it/s" not in r.stderr and "deal/s" not in r.stderr


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


# --- bot specs ---------------------------------------------------------------------------------
def test_weights_on_a_bot_that_takes_none_names_the_apprentice(tmp_path):
    # the file is no weight file: its shape was reported before the bot was read
    bad = tmp_path / "w.npz"
    bad.write_bytes(b"not a weight file")
    with pytest.raises(ValueError, match=r"weights=.*is a parameter of apprentice") as info:
        parse_bot(f"expert:pile_threshold=6,weights={bad}")
    assert "shape" not in str(info.value)


@pytest.mark.parametrize(
    "bots, where",
    [
        ("expert:pile_threshold=6,", "after 'expert:pile_threshold=6'"),
        ("expert,,greedy", "after 'expert'"),
        (",expert", "at its start"),
    ],
)
def test_an_empty_item_of_a_bot_list_is_named(bots, where):
    with pytest.raises(ValueError, match="has an empty item") as info:
        side_bots(bots, 2)
    assert where in str(info.value) and "unknown bot ''" not in str(info.value)


def test_the_cli_names_the_trailing_comma_of_bots():
    r = invoke("simulate", "--deals", 1, "--bots", "expert:pile_threshold=6,")
    assert r.exit_code == 2
    assert "empty item after 'expert:pile_threshold=6'" in " ".join(r.output.split())


# --- rules switches and folders -----------------------------------------------------------------
@pytest.mark.parametrize(
    "setting, shown",
    [("card_values=1,2", "card_values=1,2 is not allowed"), ("players=true", "players=true is")],
)
def test_set_echoes_the_value_as_written(setting, shown):
    r = invoke("simulate", "--deals", 1, "--set", setting)
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert shown in text and "(1, 2)" not in text and "True" not in text


def test_an_existing_out_folder_names_the_option_not_the_argument(tmp_path):
    (tmp_path / "x").mkdir()
    r = invoke("simulate", "--deals", 1, "--out", tmp_path / "x")
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "already exists; choose a new folder or add --overwrite" in text
    assert "overwrite=True" not in text


def test_a_binary_position_file_is_no_text_position_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    with pytest.raises(ValueError, match="not a text position file") as info:
        cs.InfoSet.from_file(path)
    assert "codec" not in str(info.value)
    r = invoke("analyse", path)
    assert r.exit_code == 2 and "not a text position file" in r.output


# --- games --------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores, side, value", [("6000,0", 0, 6000), ("0,5000", 1, 5000)])
def test_games_from_scores_at_the_target_are_refused(scores, side, value):
    r = invoke("games", "--games", 1, "--scores", scores)
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert f"side {side} starts with {value} points, at or above the game's target of 5000" in text
    with pytest.raises(ValueError, match="at or above the game's target of 5000"):
        cs.play_games(1, scores=[int(v) for v in scores.split(",")])


def test_one_game_is_one_game():
    r = invoke("games", "--games", 1, "--players", 2, "--seed", 3)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("1 game, 2 players, target 5000")


# --- tables -------------------------------------------------------------------------------------
def _row(frame, statistic):
    return frame.set_index("statistic").loc[statistic]


def test_a_count_interval_stays_at_or_above_zero():
    agg = tiny()
    # one pile pickup in 20 side-deals: mean 0.05, s^2 = (20 - 1) / (20 * 19) = 0.05,
    # half-width 1.96 * sqrt(0.05 / 20) = 0.098: the normal interval reaches -0.048
    agg.counts["pickups_sum"][0, 0] = 1
    agg.counts["pickups_sumsq"][0, 0] = 1
    row = _row(summary(agg, RULES), "pile pickups per side per deal")
    assert row.value == pytest.approx(0.05)
    assert row.ci_low == 0.0
    assert row.ci_high == pytest.approx(0.05 + Z95 * math.sqrt(0.05 / 20))


def test_a_histogram_count_interval_stays_at_or_above_zero():
    agg = tiny()
    # melds at the end: 19 side-deals with 0, one with 4: mean 0.2, s^2 = (16 - 20 * 0.04)
    # / 19 = 0.8, half-width 1.96 * sqrt(0.8 / 20) = 0.392 (low -0.192)
    agg.counts["melds"][:] = 0
    agg.counts["melds"][0, 0] = 9
    agg.counts["melds"][1, 0] = 10
    agg.counts["melds"][0, 4] = 1
    row = _row(summary(agg, RULES), "melds per side at the end of the deal")
    assert row.value == pytest.approx(0.2)
    assert row.ci_low == 0.0
    assert row.ci_high == pytest.approx(0.2 + Z95 * math.sqrt(0.8 / 20))


def test_the_review_cap_note_separates_thousands():
    import pandas as pd

    from canasta_sim.search.review import cap_note

    decisions = pd.DataFrame({"plans_left_out": [2000, 809] + [0] * 1198})
    note = cap_note(decisions, 64)
    assert "at 2 of 1,200 decisions (2,809 plans in all;" in note


def test_a_statistic_with_nothing_measured_shows_dashes_in_both_tables(tmp_path):
    from canasta_sim.results.stats import format_summary

    agg = tiny()
    agg.counts["red_threes_outcome"][:, 3] = 0  # no side held 3 red threes
    frame = summary(agg, RULES)
    assert _row(frame, "win rate of a side holding 3 red threes").n == 0
    line = next(
        ln
        for ln in format_summary(frame).splitlines()
        if ln.startswith("win rate of a side holding 3 red threes")
    )
    assert line.split()[-3:] == ["-", "-", "0"]  # value, interval, n (no exact value known)


def test_a_report_prints_interval_bounds_with_the_values_decimals():
    from canasta_sim.results.report import _estimate

    # 0.009980 [0.009382, 0.0106] read unevenly in the report; the terminal table was fixed
    assert _estimate(0.00998, 0.009382, 0.0106) == "0.009980 [0.009382, 0.010600]"
    assert _estimate(150.25, 98.5, 1234.5) == "150.2 [98.5, 1,234.5]"
    assert _estimate(float("nan"), float("nan"), float("nan")) == "- [-, -]"


def test_rollout_help_lists_exactly_the_bots_rollout_takes():
    from canasta_sim.cli.decisions import ROLLOUT_HELP
    from canasta_sim.players.specs import POLICIES
    from canasta_sim.search.analysis import rollout_bots

    listed, _, refused = ROLLOUT_HELP.partition("; not ")
    for name in POLICIES:
        if name in listed:
            rollout_bots(name, 2)  # accepted
        else:
            assert name in refused
            with pytest.raises(ValueError):
                rollout_bots(name, 2)
    for command in ("analyse", "review"):
        help_text = " ".join(invoke(command, "--help").output.split())
        assert " ".join(ROLLOUT_HELP.split()) in help_text


def test_analyse_quiet_prints_the_result_only(tmp_path):
    from pathlib import Path

    position = Path(__file__).resolve().parent.parent / "docs/positions/take_or_draw.toml"
    args = ["analyse", position, "--worlds", 20, "--format", "csv", "--out", tmp_path / "a"]
    loud, quiet = invoke(*args), invoke(*args[:-1], tmp_path / "b", "--quiet")
    assert loud.exit_code == 0 and quiet.exit_code == 0, quiet.output
    assert f"wrote {tmp_path / 'a'}" in loud.stderr
    assert "wrote" not in quiet.stderr and quiet.stdout == loud.stdout  # the same table
    assert (tmp_path / "b" / "analysis.json").is_file()
