"""``canasta-sim study``: grid syntax, bad input, cells sharing shuffles, and --resume."""

import json

import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.run.study import MAX_CELLS, grid_cells, parse_axis, run_study

VALUES = "0,5,5,5,5,5,10,10,10,10,10,10,20,20,50"
DOUBLED = "0,10,10,10,10,10,20,20,20,20,20,20,40,40,100"


def test_commas_stay_inside_a_value_and_semicolons_split_sides():
    axis = parse_axis(f"switch:card_values={VALUES}|{DOUBLED}")
    assert axis.name == "switch:card_values"
    assert len(axis.values) == 2 and axis.values[1][-1] == 100
    bots = parse_axis("bots=expert:pile_threshold=6,hold_wilds=1|careful;greedy")
    assert bots.values == (("expert:pile_threshold=6,hold_wilds=1",), ("careful", "greedy"))


def test_switch_axes_are_crossed_first_axis_slowest():
    cells = grid_cells(
        [
            parse_axis("players=2|4"),
            parse_axis("switch:going_out_bonus=100|200"),
            parse_axis("switch:wilds_at_most_naturals=true|false"),
        ]
    )
    assert len(cells) == 8
    assert [(c.rules.players, c.rules.going_out_bonus) for c in cells[:4]] == [
        (2, 100),
        (2, 100),
        (2, 200),
        (2, 200),
    ]
    assert [c.rules.wilds_at_most_naturals for c in cells[:2]] == [True, False]
    assert cells[3].name == "003-players=2-going_out_bonus=200-wilds_at_most_naturals=false"


@pytest.mark.parametrize(
    "axis, named",
    [
        ("switch:no_such_switch=1|2", "'no_such_switch'"),
        ("players=", "empty value list"),
        ("players=2||4", "empty value"),
        ("preset=classic|bridge", "'bridge'"),
        ("switch:going_out_bonus=100|lots", "'lots'"),
        ("colour=red", "'colour'"),
        ("players=2|2", "repeats a value"),
    ],
)
def test_bad_axis_is_a_usage_error_naming_the_value(axis, named):
    result = CliRunner().invoke(main, ["study", "--axis", axis, "--deals", "10"])
    assert result.exit_code == 2
    assert named in result.output
    assert "Traceback" not in result.output


def test_over_a_thousand_cells_is_a_usage_error(tmp_path):
    many = "|".join(str(100 + 5 * i) for i in range(501))  # 2 x 501 = 1002 cells
    result = CliRunner().invoke(
        main,
        ["study", "--axis", "players=2|4", "--axis", f"switch:going_out_bonus={many}",
         "--deals", "10", "--out", str(tmp_path / "s")],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "1,002 cells" in result.output and f"at most {MAX_CELLS:,}" in result.output
    assert not (tmp_path / "s").exists()


def test_bad_cell_names_the_cell():
    # a per-side bot list of 2 specs for 3 players (3 sides)
    with pytest.raises(ValueError, match="cell players=3, bots=careful;greedy"):
        grid_cells([parse_axis("players=3"), parse_axis("bots=careful;greedy")])


AXES = ["players=2|3", "switch:going_out_bonus=100|300"]


def test_resume_after_an_interruption_gives_the_same_table(tmp_path):
    axes = [parse_axis(a) for a in AXES]
    whole = run_study(axes, deals=300, out=tmp_path / "whole", seed=9, workers=1)

    class Stop(Exception):
        pass

    def stop_after_two(cell, played):
        if cell.index == 1:
            raise Stop

    with pytest.raises(Stop):
        run_study(axes, deals=300, out=tmp_path / "cut", seed=9, workers=1, on_cell=stop_after_two)
    cut = tmp_path / "cut"
    assert len(list((cut / "cells").iterdir())) == 2 and not (cut / "study.csv").exists()
    seen = []
    again = run_study(
        axes, deals=300, out=cut, seed=9, workers=1, resume=True,
        on_cell=lambda c, played: seen.append((c.index, played)),
    )  # fmt: skip
    assert seen == [(0, False), (1, False), (2, True), (3, True)]
    assert (cut / "study.csv").read_bytes() == (tmp_path / "whole" / "study.csv").read_bytes()
    assert again.equals(whole)
    # cells with the same pack share their shuffles: the same red threes dealt, per side
    dealt = [
        json.loads(p.joinpath("aggregates.json").read_text())["counts"]["r3_cells"]
        for p in sorted((cut / "cells").iterdir())
    ]
    assert dealt[0] == dealt[1] and dealt[2] == dealt[3]
    assert whole.loc[1, "score_diff"] > 0  # a bigger going-out bonus raises the mean score


def test_resume_refused_for_other_versions_or_grid(tmp_path):
    axes = [parse_axis("players=2")]
    run_study(axes, deals=50, out=tmp_path / "s", seed=1, workers=1)
    with pytest.raises(ValueError, match="deals_per_cell 50, not 60"):
        run_study(axes, deals=60, out=tmp_path / "s", seed=1, resume=True)
    with pytest.raises(ValueError, match=r"axes players=2, not players=2\|4;"):
        run_study([parse_axis("players=2|4")], deals=50, out=tmp_path / "s", seed=1, resume=True)
    manifest = tmp_path / "s" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["bots_version"] = -1
    manifest.write_text(json.dumps(data))
    result = CliRunner().invoke(
        main,
        ["study", "--axis", "players=2", "--deals", "50", "--seed", "1", "--out",
         str(tmp_path / "s"), "--resume"],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "bots_version -1" in result.output


def test_existing_folder_without_resume_is_refused(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "x").write_text("mine")
    result = CliRunner().invoke(
        main, ["study", "--axis", "players=2", "--deals", "10", "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 2 and "already exists" in result.output


def test_an_interrupted_study_says_how_to_finish_it(tmp_path, monkeypatch):
    # Ctrl-C in the second of two cells: the first cell stays in the folder, and every
    # message about the folder points at --resume (docs/studies.md, "Interrupted studies")
    from canasta_sim.run import study as study_module

    out = tmp_path / "st"
    args = ["study", "--axis", "players=2|4", "--deals", "40", "--seed", "0", "--out", str(out)]
    play = study_module._play_cell

    def ctrl_c_in_the_second_cell(cell, *rest):
        if cell.index == 1:
            raise KeyboardInterrupt
        return play(cell, *rest)

    monkeypatch.setattr(study_module, "_play_cell", ctrl_c_in_the_second_cell)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130
    assert (
        f"Interrupted: 1 of 2 cells done in {out}; run the same command with '--resume' to "
        f"finish it" in result.stderr
    )
    # the same command again refuses, naming --resume (not only --overwrite)
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 2
    assert "is an unfinished study (1 of 2 cells done)" in again.output
    assert "run the same command with '--resume' to finish it" in again.output
    with pytest.raises(ValueError, match=r"unfinished study \(1 of 2 cells done\).*resume=True"):
        run_study([parse_axis("players=2|4")], deals=40, out=out)
    # report says the study is unfinished and how to finish it
    report = CliRunner().invoke(main, ["report", str(out)])
    assert report.exit_code == 2
    assert "is an unfinished study (1 of 2 cells done" in report.output
    assert "--resume" in report.output
    # Ctrl-C while resuming: run the same command (with its --resume) again
    resumed = CliRunner().invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 130
    assert "1 of 2 cells done" in resumed.stderr and "run the same command again" in resumed.stderr
    monkeypatch.setattr(study_module, "_play_cell", play)
    finished = CliRunner().invoke(main, [*args, "--resume"])
    assert finished.exit_code == 0, finished.output
    assert CliRunner().invoke(main, ["report", str(out)]).exit_code == 0
