"""``report`` of a run folder adds canasta timing and the red-three value; of a study folder,
the study table and its plots."""

import pandas as pd
from click.testing import CliRunner

from canasta_sim import Rules, simulate
from canasta_sim.cli import main
from canasta_sim.results.report import PLOTS, STUDY_PLOTS, _plot_timing, write_report
from canasta_sim.results.study_stats import red_three_value
from canasta_sim.results.study_table import STATISTICS, format_study
from canasta_sim.run.study import parse_axis, run_study


def test_run_report_has_timing_and_red_three_value(tmp_path):
    res = simulate(400, rules=Rules(players=2), seed=4, out=tmp_path / "r", records=False)
    text = write_report(tmp_path / "r").read_text()
    for name in ("canasta_timing.png", "red_three_value.png"):
        assert name in PLOTS and (tmp_path / "r" / name).stat().st_size > 10_000
        assert f"]({name})" in text
    lead = red_three_value(res.aggregates, res.rules).set_index("key").loc["lead"]
    row = next(line for line in text.splitlines() if "| lead per red three dealt (points)" in line)
    assert f"{lead['value']:,.1f}" in row or f"{lead['value']:.4f}" in row
    assert "### canasta timing" in text and "### red-three value" in text
    # rounds are whole numbers: the timing plot's round axis has whole ticks only
    fig = _plot_timing(res.aggregates, res.rules)
    for ax in fig.axes:
        ax.set_xlim(0, 15)  # where matplotlib's default ticks are 2.5, 7.5, ...
        ticks = ax.get_xticks()
        assert len(ticks) >= 3 and all(float(t).is_integer() for t in ticks), ticks


def test_study_report_lists_every_cell(tmp_path):
    axes = [parse_axis("players=2|4")]
    table = run_study(axes, deals=200, out=tmp_path / "s", seed=3, workers=1)
    text = write_report(tmp_path / "s").read_text()
    for name in STUDY_PLOTS:
        assert (tmp_path / "s" / name).is_file() and f"]({name})" in text
    assert "| players=2 (baseline) |" in text and "| players=4 |" in text
    # the 4-player row shows its difference to the baseline from study.csv
    csv = pd.read_csv(tmp_path / "s" / "study.csv")
    assert list(csv["name"]) == list(table["name"])
    diff = csv.loc[1, "turns_diff"]
    assert f"diff {diff:.4f}" in text


def test_study_outputs_name_the_bots_and_their_version(tmp_path, monkeypatch):
    # the printed table, report.md and every plot caption name the play, as simulate does
    from canasta_sim._version import BOTS_VERSION, RULES_VERSION
    from canasta_sim.results import report as report_module

    play = f"apprentice on every seat (bots version {BOTS_VERSION})"  # the default bot
    out = tmp_path / "s"
    args = ["study", "--axis", "players=2|4", "--deals", "30", "--seed", "0", "--out", str(out)]
    printed = CliRunner().invoke(main, args)
    assert printed.exit_code == 0, printed.output
    assert f"statistics of the play of {play}\n" in printed.stdout
    captions = []
    png = report_module._png
    monkeypatch.setattr(report_module, "_png", lambda fig, c: captions.append(c) or png(fig, c))
    text = write_report(out).read_text()
    assert f"\nseed 0, 30 deals per cell, 2 cells; {play}.\n" in text
    assert captions == [f"seed 0, 30 deals per cell, 2 cells; {play}"] * 2
    # a run's plots name the play too
    captions.clear()
    simulate(20, rules=Rules(players=2), seed=1, out=tmp_path / "r", records=False)
    text = write_report(tmp_path / "r").read_text()
    assert captions == [f"seed 1, 20 deals, 2 players, {play}"] * len(PLOTS)
    assert f"| rules and bots versions | rules {RULES_VERSION}, bots {BOTS_VERSION} |" in text
    # cells with their own bots: the table says each cell names them
    mixed = run_study([parse_axis("bots=expert|greedy")], deals=20, out=None, workers=1)
    assert mixed.attrs["policy"] == f"the bots each cell names (bots version {BOTS_VERSION})"


def test_the_study_table_prints_each_statistic_with_even_decimals():
    row = {"cell": 1, "baseline": False, "players": 4}
    values = {
        "canastas": (2.45, 2.402, 2.5, -0.0005252, -0.031, 0.03),
        "red_three_value": (101.26, 90.0, 112.5, 3.0, -5.5, 11.04),
        "turns": (60.0, 59.5, 60.45, 0.5, 0.0, 1.0),
        "going_out": (0.8, 0.79, 0.81, -0.01, -0.02, 0.0),
        "first_canasta_turn": (20.0, 19.9, 20.1, 0.0, -0.1, 0.1),
        "score": (1500.0, 1490.04, 1510.0, 12.0, -3.0, 27.0),
    }
    for key, (v, lo, hi, d, dl, dh) in values.items():
        row |= {key: v, f"{key}_low": lo, f"{key}_high": hi}
        row |= {f"{key}_diff": d, f"{key}_diff_low": dl, f"{key}_diff_high": dh}
    lines = format_study(pd.DataFrame([row])).splitlines()
    assert lines[0] == "[1] players=4"
    body = {line[4:40].strip(): line[40:].split() for line in lines[1:]}
    label = {key: STATISTICS[key][2] for key in values}
    assert body[label["canastas"]] == "2.450 [2.402, 2.500] diff -0.001 [-0.031, +0.030]".split()
    assert body[label["red_three_value"]] == "101.3 [90.0, 112.5] diff +3.0 [-5.5, +11.0]".split()
    assert body[label["turns"]] == "60.00 [59.50, 60.45] diff +0.50 [+0.00, +1.00]".split()
    assert body[label["going_out"]] == "0.800 [0.790, 0.810] diff -0.010 [-0.020, +0.000]".split()
    assert body[label["score"]] == "1,500.0 [1,490.0, 1,510.0] diff +12.0 [-3.0, +27.0]".split()
