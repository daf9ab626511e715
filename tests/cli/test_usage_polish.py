"""Low-severity findings of a fresh user: each a usage error (exit code 2) naming the value
given and what is allowed, found before any work is done."""

import errno
import json
import tempfile

import click
import pytest
from click.testing import CliRunner

from canasta_sim._version import BOTS_VERSION, RULES_VERSION
from canasta_sim.cli import main
from canasta_sim.cli.options import build_rules
from canasta_sim.game.rules import Rules
from canasta_sim.run.study import parse_axis


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_report_of_a_folder_it_cannot_write_is_a_usage_error_before_any_plot(tmp_path, monkeypatch):
    # root writes into any folder, so the refusal of the file system is simulated
    def refused(*args, **kwargs):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    def drawn(*args, **kwargs):
        raise AssertionError("the report was drawn")

    monkeypatch.setattr(tempfile, "TemporaryFile", refused)
    monkeypatch.setattr("canasta_sim.results.report.write_report", drawn)
    r = invoke("report", tmp_path)
    assert r.exit_code == 2, r.output
    assert f"{str(tmp_path)!r} is not writable" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("command", ["report", "replay"])
def test_an_empty_folder_argument_is_named_as_given(command):
    r = invoke(command, "")
    assert r.exit_code == 2, r.output
    assert "'' is an empty folder name; allowed: a folder path" in r.output
    assert "'.'" not in r.output


@pytest.mark.parametrize(
    "text, value",
    [("1", True), ("0", False), ("YES", True), ("off", False), ("T", True), (" n ", False)],
)
def test_a_true_false_switch_reads_click_boolean_spellings(text, value):
    rules = build_rules(None, "classic", (f"wilds_at_most_naturals={text}",))
    assert rules.wilds_at_most_naturals is value
    axis = parse_axis(f"switch:meld_after_last_red_three={text}")
    assert axis.values == (value,)


def test_a_bad_true_false_value_lists_every_spelling():
    r = invoke("replay", "--set", "wilds_at_most_naturals=2")
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "wilds_at_most_naturals=2 is not allowed" in message
    assert "true/false, yes/no, on/off, 1/0, t/f, y/n (any case)" in message


def test_a_rules_file_needs_json_booleans(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"wilds_at_most_naturals": 1}))
    with pytest.raises(click.BadParameter, match="a rules file gives JSON true or false"):
        build_rules(None, str(path), ())
    path.write_text(json.dumps({"wilds_at_most_naturals": False}))
    assert build_rules(None, str(path), ()) == Rules(wilds_at_most_naturals=False)


def test_compare_with_two_bots_and_seats_says_both_were_given():
    r = invoke(
        "compare", "expert", "greedy", "--seats", "expert,greedy,expert,greedy", "--deals", 10
    )
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    said = "both bots (expert greedy) and '--seats expert,greedy,expert,greedy' were given"
    assert said in message
    assert "drop one" in message


def test_replay_of_a_sweep_folder_without_a_value_says_what_the_folder_is(tmp_path):
    folder = tmp_path / "sweep1"
    folder.mkdir()
    manifest = {
        "rules": Rules().to_dict(),
        "seed": 9,
        "deals": 4,
        "rules_version": RULES_VERSION,
        "bots_version": BOTS_VERSION,
        "sweep": {"bot": "expert", "param": "pile_threshold", "values": [2.0, 4.0], "vs": "greedy"},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "sweep.csv").write_text("")
    r = invoke("replay", folder, "--deal", 1)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "RUN_FOLDER" in message and "value=None" not in message
    assert f"{str(folder)!r} is a folder of canasta-sim sweep" in message
    assert "not a simulate run folder" in message
    assert "give '--value' (one of 2, 4)" in message


def test_replay_takes_the_deal_indices_a_run_can_hold():
    # a run's deals end before index 2**63 - 1 (its first deal plus its deals is an int64)
    r = invoke("replay", "--deal", 2**63 - 1)
    assert r.exit_code == 2, r.output
    assert "allowed: 0 to 9,223,372,036,854,775,806" in r.output


@pytest.mark.parametrize(
    "value, said",
    [
        ("nan", "nan is not allowed"),
        ("inf", "inf is not allowed"),
        ("-inf", "-inf is not allowed"),
        ("0", "0 is not allowed"),
        ("-2.5", "-2.5 is not allowed"),
        ("abc", "'abc' is not a number"),
    ],
)
def test_analyse_target_se_out_of_range_says_the_range(tmp_path, value, said):
    """--target-se's errors name the value and the numbers allowed as the integer options'
    do ("X is not allowed; allowed: ..."), before any position is read."""
    r = invoke("analyse", tmp_path / "never-read.toml", "--target-se", value)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert f"'--target-se': {said}; allowed: a finite number above 0" in message, message
    assert "Traceback" not in message


def test_analyse_help_says_target_se_range_in_words():
    """--target-se's range reads as the other number options' help says theirs ("above 0"),
    not click's "x>0"."""
    help_text = " ".join(invoke("analyse", "--help").output.split())
    start = help_text.index("--target-se FLOAT RANGE")
    described = help_text[start : help_text.index("]", start) + 1]
    assert described.endswith("[default: 5.0; above 0]"), described


def test_analyse_refuses_max_worlds_below_min_worlds_saying_what_is_allowed(tmp_path):
    r = invoke("analyse", tmp_path / "never-read.toml", "--min-worlds", 50, "--max-worlds", 40)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "'--max-worlds 40' is below '--min-worlds 50'; allowed: 50 or more" in message, message


def test_analyse_refuses_min_worlds_above_worlds(tmp_path):
    r = invoke("analyse", tmp_path / "never-read.toml", "--worlds", 10, "--min-worlds", 100)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "'--min-worlds 100' is above '--worlds 10'" in message


@pytest.mark.parametrize("option", ["--deals", "--games", "--final-deals", "--final-games"])
def test_tune_counts_say_they_are_multiples_of_the_sides(option):
    help_text = " ".join(invoke("tune", "--help").output.split())
    start = help_text.index(f"{option} INTEGER RANGE")
    described = help_text[start : help_text.index("]", help_text.index("<=x<=", start)) + 1]
    assert "a multiple of the sides (2, or 3 with 3 players)" in described
    assert "2<=x<=1000000000000" in described  # no table has fewer than 2 sides
    r = invoke("tune", "expert", option, 1)
    assert r.exit_code == 2, r.output
    assert "1 is not allowed; allowed: 2 to" in r.output


def test_docs_list_every_field_of_the_games_side_table():
    import re
    from pathlib import Path

    from canasta_sim.results.game_totals import GameTotals, game_sides

    totals = GameTotals(2, 20, [1, 1], 0, [6000, 9000], [6000**2 + 1, 9000**2 + 1])
    frame = game_sides(totals, ["expert", "greedy"], [0, 0])
    text = (Path(__file__).parents[2] / "docs" / "cli.md").read_text()
    bullet = text[text.index("- `sides` (`games`):") :].split("\n- ")[0]
    assert set(re.findall(r"`(\w+)`", bullet)) - {"sides", "games"} <= set(frame.columns)
    assert set(frame.columns) <= set(re.findall(r"`(\w+)`", bullet))


def _format_options(group=main, path=()):
    """Every ``--format`` option of the command line: (command path, option)."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _format_options(command, (*path, name))
            continue
        for param in command.params:
            if "--format" in getattr(param, "opts", ()):
                yield (*path, name), param


def test_every_format_option_takes_any_case_as_the_lower_case_value():
    found = dict(_format_options())
    assert {"simulate", "compare", "review", "analyse"} <= {p[-1] for p in found}
    for where, param in found.items():
        ctx = click.Context(click.Command(where[-1]))
        assert param.type.convert("CSV", param, ctx) == "csv", where
        assert param.type.convert("Json", param, ctx) == "json", where


@pytest.mark.parametrize("command", ["simulate", "review", "analyse"])
def test_a_bad_format_names_the_value_and_the_formats_allowed(command):
    r = invoke(command, "--format", "XML")
    assert r.exit_code == 2, r.output
    assert "'XML' is not one of 'table', 'csv', 'json'" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "text, shown",
    [
        ('{"players": 4, "players": 2}', "'players' twice (4 and 2)"),
        ('{"max_turns": 50, "players": 2, "max_turns": 50}', "'max_turns' twice (50 and 50)"),
    ],
)
def test_a_rules_file_giving_a_switch_twice_names_the_switch_and_the_file(tmp_path, text, shown):
    path = tmp_path / "rules.json"
    path.write_text(text)
    r = invoke("simulate", "--deals", 2, "--rules", path)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert f"Invalid value for '--rules': {str(path)!r} gives {shown}; allowed: each" in message
    assert "Traceback" not in r.output
    with pytest.raises(click.BadParameter, match=shown.replace("(", r"\(").replace(")", r"\)")):
        build_rules(None, str(path), ())


@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_html_file_name_is_a_usage_error_naming_the_option(tmp_path, name):
    # checked before the run folder is read: a missing folder is not what is reported
    r = invoke("replay", tmp_path / "none", "--deal", 1, "--html", name, "--overwrite")
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert f"Invalid value for '--html': {name!r} is an empty file name; allowed: a file" in message
    assert "'.'" not in r.output and "exists" not in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("inner", ['{"a": 1}', '{"a": 1, "a": 2}'])
def test_a_rules_file_key_twice_in_a_nested_object_is_no_switch_twice(tmp_path, inner):
    # a nested object's keys are not switches: its outer key is the unknown switch reported
    path = tmp_path / "rules.json"
    path.write_text(f'{{"x": {inner}}}')
    r = invoke("simulate", "--deals", 2, "--rules", path)
    assert r.exit_code == 2, r.output
    message = " ".join(r.output.split())
    assert "Invalid value for '--rules': unknown rules switch 'x'; allowed: " in message
    assert "twice" not in message


def test_a_switch_twice_beside_a_nested_key_twice_names_the_switch(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text('{"players": 4, "x": {"a": 1, "a": 2}, "players": 2}')
    with pytest.raises(click.BadParameter, match=r"gives 'players' twice \(4 and 2\)"):
        build_rules(None, str(path), ())
