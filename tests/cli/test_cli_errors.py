"""Errors at their cause (issue 25 item 2): a Python bot's exception is the bot's error, a
usage error names the one option at fault, a merge refusal lists what differs, and corrupt or
partial run folders are refused with the file named."""

import json
import os
import shutil
import signal
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim import Rules
from canasta_sim.cli import main

BOTS = """
import os


class Bad:
    def choose(self, view, choices):
        return self.helper(view, choices)

    def helper(self, view, choices):
        raise ValueError("my bug")


class Boom:
    def choose(self, view, choices):
        return {}["missing"]


class Armed:
    # plays the first candidate until the environment arms it
    def choose(self, view, choices):
        if os.environ.get("CANASTA_TEST_ARMED"):
            raise RuntimeError("armed")
        return choices[0]


class Exiter:
    def choose(self, view, choices):
        raise SystemExit(0)
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def bots(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "faulty.py").write_text(BOTS)
    return "faulty.py"


def _is_the_bots_error(result, spec, error, line):
    """Exit code 1, the bot's spec, the exception and the bot's own frame; no option blamed
    and none of the package's frames."""
    assert result.exit_code == 1, result.output
    assert f"the Python bot {spec}" in result.output
    assert error in result.output
    assert f'{spec.split(":")[1]}", line {line}' in result.output  # the path as Python gives it
    assert "Invalid value" not in result.output and "Usage:" not in result.output
    assert "canasta_sim" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--deals", 2, "--bots", "{bot},expert", "--quiet"],
        ["compare", "{bot}", "expert", "--deals", 2, "--quiet"],
        ["games", "--games", 1, "--bots", "{bot},expert", "--quiet"],
        ["review", "--bots", "{bot},expert", "--rollout", "expert", "--worlds", 2, "--quiet"],
        ["replay", "--bots", "{bot},expert"],
    ],
    ids=["simulate", "compare", "games", "review", "replay"],
)
def test_a_value_error_in_a_python_bot_is_the_bots_error(bots, args):
    spec = f"py:{bots}:Bad"
    r = run(*[a.format(bot=spec) if isinstance(a, str) else a for a in args])
    _is_the_bots_error(r, spec, "ValueError: my bug", 10)
    assert f'{bots}", line 7, in choose' in r.output  # the caller's frame too


def test_analyse_from_a_run_reports_the_bots_error(bots, monkeypatch):
    spec = f"py:{bots}:Armed"
    assert run("simulate", "--deals", 2, "--bots", f"{spec},expert", "--out", "run").exit_code == 0
    monkeypatch.setenv("CANASTA_TEST_ARMED", "1")
    r = run("analyse", "--from-run", "run:0:3", "--worlds", 2)
    _is_the_bots_error(r, spec, "RuntimeError: armed", 22)


def test_any_exception_in_a_python_bot_exits_1_without_a_traceback(bots):
    """The real command: exit code 1 and the bot's frame on stderr, no traceback."""
    spec = f"py:{bots}:Boom"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "canasta_sim", "simulate", "--deals", "2", "--bots", spec],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 1, done.stderr
    assert f"Error: the Python bot {spec}" in done.stderr
    assert "KeyError: 'missing'" in done.stderr
    assert f'{bots}", line 15, in choose' in done.stderr
    assert "Traceback" not in done.stderr and "canasta_sim" not in done.stderr


def test_a_python_bot_that_exits_is_the_bots_error(bots, tmp_path):
    """sys.exit in a bot's choice, or in its file as it loads, is the bot's error (exit 1,
    naming it), not a quiet end of the run with no results."""
    spec = f"py:{bots}:Exiter"
    r = run("simulate", "--deals", 2, "--bots", f"{spec},expert", "--out", "exits")
    _is_the_bots_error(r, spec, "SystemExit: 0", 28)
    assert not (tmp_path / "exits").exists()
    (tmp_path / "exits_on_load.py").write_text("import sys\n\nsys.exit(3)\n")
    r = run("simulate", "--deals", 2, "--bots", "py:exits_on_load.py:X,expert", "--quiet")
    assert r.exit_code == 1, r.output
    assert "the Python bot py:exits_on_load.py:X" in r.output and "SystemExit: 3" in r.output


def test_a_wrong_answer_is_the_bots_error_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.py").write_text(
        "class Nonsense:\n    def choose(self, v, c):\n        return 1\n"
    )
    r = run("simulate", "--deals", 2, "--bots", "py:b.py:Nonsense,expert", "--quiet")
    assert r.exit_code == 1, r.output
    assert "the Python bot py:b.py:Nonsense" in r.output and "answered 1" in r.output
    assert "Invalid value" not in r.output


# --- the one option at fault ----------------------------------------------------------------
@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Three small runs of seed 0: deals 0-19 and 20-39 with records, 40-59 without."""
    root = tmp_path_factory.mktemp("runs")
    for name, first, extra in (("a", 0, []), ("b", 20, []), ("n", 40, ["--no-records"])):
        args = ["--deals", 20, "--first-deal", first, "--out", root / name, "--quiet", *extra]
        assert run("simulate", *args).exit_code == 0
    return root


@pytest.mark.parametrize(
    "args, option",
    [
        (["simulate", "--deals", 2, "--scores", 100], "--scores"),
        (["games", "--games", 1, "--scores", "100,2,3"], "--scores"),
        (["simulate", "--deals", 2, "--first-deal", 2**63 - 2], "--first-deal"),
        (["simulate", "--deals", 2, "--set", "natural_canasta_bonus=50000"], "--set"),
        (["simulate", "--deals", 2, "--players", 2, "--set", "max_turns=0"], "--set"),
        (["tune", "expert", "--start", "greedy", "--trials", 1], "--start"),
        (["tune", "expert", "--deals", 3, "--trials", 1], "--deals"),
        (["review", "--deals", 1, "--seat", 9], "--seat"),
        (["compare", "--seats", "expert,greedy,expert", "--deals", 4], "--seats"),
        (["compare", "expert,greedy", "random", "--deals", 4], "BOT_A"),
        (["compare", "expert", "expert", "--deals", 4], "BOT_B"),
    ],
)
def test_a_usage_error_names_the_one_option_at_fault(args, option):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}':" in r.output
    assert "/--" not in r.output.split("Error:")[1]  # no list of options to choose from


def test_a_rules_file_error_names_the_rules_option(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"players": 4, "max_turns": 0}))
    r = CliRunner().invoke(main, ["simulate", "--deals", "2", "--rules", str(path)])
    assert r.exit_code == 2 and "Invalid value for '--rules': rules switch max_turns=0" in r.output


def test_a_python_bot_on_dask_names_the_scheduler(bots):
    pytest.importorskip("distributed")
    args = ["simulate", "--deals", "2", "--bots", f"py:{bots}:Bad", "--scheduler", "local:1"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Invalid value for '--scheduler':" in r.output


def test_an_unreachable_scheduler_names_the_scheduler(monkeypatch):
    pytest.importorskip("distributed")

    def unreachable(scheduler):
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler!r}: refused")

    monkeypatch.setattr("canasta_sim.run.cluster.connect", unreachable)
    args = ["simulate", "--deals", "2", "--scheduler", "tcp://nowhere:1", "--quiet"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert (
        "Invalid value for '--scheduler': cannot reach the Dask scheduler at 'tcp://nowhere:1'"
        in (r.output)
    )


def test_replay_names_the_deal_or_the_folder(runs):
    r = CliRunner().invoke(main, ["replay", str(runs / "a"), "--deal", "20"])
    assert r.exit_code == 2 and "Invalid value for '--deal': deal=20" in r.output
    r = CliRunner().invoke(main, ["replay", str(runs / "nothing"), "--deal", "2"])
    assert r.exit_code == 2 and "Invalid value for 'RUN_FOLDER':" in r.output


# --- merge ----------------------------------------------------------------------------------
def test_a_merge_refusal_lists_only_the_differing_switch_in_full(runs, tmp_path):
    other = tmp_path / "other"
    assert run("simulate", "--deals", 20, "--first-deal", 60, "--set", "max_turns=900",
               "--out", other, "--quiet").exit_code == 0  # fmt: skip
    r = CliRunner().invoke(
        main, ["merge", str(runs / "a"), str(other), "--out", str(tmp_path / "m")]
    )
    assert r.exit_code == 2
    message = " ".join(r.output.split("Error:")[1].split())  # click wraps long lines
    default = Rules().max_turns
    assert (
        f"{str(runs / 'a')!r} and {str(other)!r} differ in rules.max_turns ({default} vs 900);"
        in message
    )
    assert "card_values" not in message and "..." not in message
    assert not (tmp_path / "m").exists()


def test_merge_never_drops_records_silently(runs, tmp_path):
    out = tmp_path / "m"
    r = CliRunner().invoke(main, ["merge", str(runs / "a"), str(runs / "n"), "--out", str(out)])
    assert r.exit_code == 2 and not out.exists()
    assert str(runs / "n") in r.output and "--no-records" in r.output
    r = run("merge", runs / "a", runs / "n", "--no-records", "--out", out)
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["records"] is False
    assert json.loads((out / "manifest.json").read_text())["deals"] == 40
    assert not (out / "deals.parquet").exists()
    r = run("merge", runs / "a", runs / "b", "--out", tmp_path / "ab")
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(tmp_path / "ab" / "deals.parquet")) == 40


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def _truncate(path):
    size = path.stat().st_size
    with open(path, "r+b") as fh:
        fh.truncate(size // 2)


def test_a_truncated_parquet_file_is_refused_by_report_and_merge(runs, tmp_path):
    bad = _copy(runs / "a", tmp_path / "bad")
    _truncate(bad / "sides.parquet")
    for args in (["report", bad], ["merge", bad, runs / "b", "--out", tmp_path / "m"]):
        r = CliRunner().invoke(main, [str(a) for a in args])
        assert r.exit_code == 2, r.output
        assert str(bad / "sides.parquet") in " ".join(r.output.split())
        assert not (bad / "report.md").exists() and not (tmp_path / "m").exists()


def test_a_parquet_file_with_rows_missing_is_refused(runs, tmp_path):
    bad = _copy(runs / "a", tmp_path / "bad")
    pd.read_parquet(bad / "deals.parquet").head(5).to_parquet(bad / "deals.parquet")
    r = CliRunner().invoke(main, ["report", str(bad)])
    assert r.exit_code == 2
    assert "5 rows" in r.output and "20" in r.output
    assert str(bad / "deals.parquet") in " ".join(r.output.split())


def test_the_first_deal_bound_says_it_depends_on_the_deals():
    r = run("simulate", "--deals", 10, "--first-deal", 2**63 - 2, "--quiet")
    said = " ".join(r.output.split())
    assert r.exit_code == 2
    assert "with 10 deals would reach deal 9,223,372,036,854,775,815" in said
    assert "allowed: 0 to 9,223,372,036,854,775,797 for 10 deals" in said


def test_merge_refuses_a_deals_file_of_another_run(runs, tmp_path):
    # the right number of rows, but run b's deals 20-39: merged with b they would count twice
    bad = _copy(runs / "a", tmp_path / "bad")
    shutil.copy(runs / "b" / "deals.parquet", bad / "deals.parquet")
    r = CliRunner().invoke(main, ["merge", str(bad), str(runs / "b"), "--out", str(tmp_path / "m")])
    assert r.exit_code == 2, r.output
    said = " ".join(r.output.split())
    assert str(bad / "deals.parquet") in said and "deal 20" in said and "another run" in said
    assert not (tmp_path / "m").exists()


def test_merge_refuses_a_deal_held_twice(runs, tmp_path):
    bad = _copy(runs / "a", tmp_path / "bad")
    frame = pd.read_parquet(bad / "deals.parquet")
    rows = list(range(len(frame)))
    rows[7] = 3  # deal 3 twice, deal 7 missing: the row count is right
    frame.iloc[rows].to_parquet(bad / "deals.parquet")
    r = CliRunner().invoke(main, ["merge", str(bad), str(runs / "b"), "--out", str(tmp_path / "m")])
    assert r.exit_code == 2, r.output
    assert "holds 2 rows of deal 3 of seed 0; its manifest says 1" in " ".join(r.output.split())


def test_merge_refuses_records_of_a_run_whose_sides_have_no_seed_column(runs, tmp_path):
    # a folder written before the sides named their deal's seed
    old = _copy(runs / "a", tmp_path / "old")
    sides = pd.read_parquet(old / "sides.parquet")
    sides.drop(columns="seed").to_parquet(old / "sides.parquet")
    out = tmp_path / "m"
    r = CliRunner().invoke(main, ["merge", str(runs / "b"), str(old), "--out", str(out)])
    said = " ".join(r.output.split())
    assert r.exit_code == 2 and str(old / "sides.parquet") in said, said
    assert "has no seed column" in said and "--no-records" in said
    assert "Traceback" not in r.output and not out.exists()
    r = run("merge", runs / "b", old, "--no-records", "--out", out)
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["deals"] == 40
    r = run("report", old)  # the readers of an older folder do not need the column
    assert r.exit_code == 0, r.output
    assert (old / "report.md").is_file()


@pytest.mark.parametrize("entry, value", [("seed", "abc"), ("deals", -3), ("first_deal", 1.5)])
def test_a_manifest_number_of_another_type_is_named(runs, tmp_path, entry, value):
    bad = _copy(runs / "a", tmp_path / "bad")
    manifest = json.loads((bad / "manifest.json").read_text())
    manifest[entry] = value
    (bad / "manifest.json").write_text(json.dumps(manifest))
    for args in (["merge", bad, runs / "b", "--out", tmp_path / "m"], ["replay", bad, "--deal", 0]):
        r = CliRunner().invoke(main, [str(a) for a in args])
        assert r.exit_code == 2, r.output
        said = " ".join(r.output.split())
        assert f"{entry}={value!r} is not a whole number" in said, said
        assert "Traceback" not in r.output and not (tmp_path / "m").exists()


def test_merge_refuses_a_sides_file_of_another_run_or_a_side_row_twice(runs, tmp_path):
    swapped = _copy(runs / "a", tmp_path / "swapped")
    shutil.copy(runs / "b" / "sides.parquet", swapped / "sides.parquet")
    twice = _copy(runs / "a", tmp_path / "twice")
    frame = pd.read_parquet(twice / "sides.parquet")
    rows = list(range(len(frame)))
    rows[9] = 0  # deal 0's first side twice, deal 4's second side missing
    frame.iloc[rows].to_parquet(twice / "sides.parquet")
    for bad, says in (
        (swapped, "a row of deal 20"),
        (twice, "holds 3 rows of deal 0 of seed 0; its manifest says 2"),
    ):
        out = tmp_path / f"m_{bad.name}"
        r = CliRunner().invoke(main, ["merge", str(bad), str(runs / "b"), "--out", str(out)])
        said = " ".join(r.output.split())
        assert r.exit_code == 2 and str(bad / "sides.parquet") in said and says in said, said
        assert not out.exists()


def _damage(folder, name, edit):
    """Rewrite ``folder/name`` with ``edit`` applied to its frame."""
    frame = pd.read_parquet(folder / name)
    edit(frame).to_parquet(folder / name)


@pytest.mark.parametrize(
    "name, edit, says",
    [  # side rows naming another seed than their deal's: the join on deal and seed drops them
        ("sides.parquet", lambda f: f.assign(seed=np.uint64(0)), "a row of deal 0 that is not"),
        (
            "sides.parquet",
            lambda f: f.assign(seed=f["seed"].astype(str)),
            "string; expected seed of type uint64, the deal's own seed",
        ),
        (
            "deals.parquet",
            lambda f: f.drop(columns="seed"),
            "has no seed column; expected seed of type uint64, the deal's own seed",
        ),
    ],
    ids=["sides-seed-0", "sides-seed-strings", "deals-no-seed"],
)
def test_merge_refuses_records_whose_seed_column_is_not_the_runs(runs, tmp_path, name, edit, says):
    bad = _copy(runs / "a", tmp_path / "bad")
    _damage(bad, name, edit)
    out = tmp_path / "m"
    for records in ([], ["--no-records"]):  # a damaged file is refused either way
        r = CliRunner().invoke(
            main, ["merge", str(bad), str(runs / "b"), "--out", str(out), *records]
        )
        said = " ".join(r.output.split())
        assert r.exit_code == 2 and str(bad / name) in said and says in said, said
        assert "Traceback" not in r.output and len(r.output.splitlines()) < 12
        assert not out.exists()


@pytest.mark.parametrize(
    "edit, says",
    [
        ({"seed": None}, "seed=None is not a whole number"),  # null only in a merge's ranges
        ({"first_deal": 2**70}, "first_deal=1180591620717411303424 is not a whole number"),
        ({"ranges": [["x", 0, 20]]}, "ranges seed='x' is not a whole number"),
    ],
)
def test_manifest_numbers_out_of_bounds_are_named(runs, tmp_path, edit, says):
    bad = _copy(runs / "a", tmp_path / "bad")
    manifest = json.loads((bad / "manifest.json").read_text())
    manifest.update(edit)
    (bad / "manifest.json").write_text(json.dumps(manifest))
    r = CliRunner().invoke(main, ["merge", str(bad), str(runs / "b"), "--out", str(tmp_path / "m")])
    said = " ".join(r.output.split())
    assert r.exit_code == 2 and str(bad / "manifest.json") in said and says in said, said


def test_a_loop_of_symbolic_links_as_out_is_a_usage_error(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for command in (["simulate", "--deals", "2"], ["study", "--axis", "players=2", "--deals", "2"]):
        r = CliRunner().invoke(main, [*command, "--out", str(loop), "--quiet"])
        assert r.exit_code == 2 and "cannot be resolved" in r.output, r.output


def test_corrupt_aggregates_are_named_by_report_and_merge(runs, tmp_path):
    bad = _copy(runs / "a", tmp_path / "bad")
    (bad / "aggregates.json").write_text('{"deals": 3')
    for args in (["report", bad], ["merge", bad, runs / "b", "--out", tmp_path / "m"]):
        r = CliRunner().invoke(main, [str(a) for a in args])
        assert r.exit_code == 2, r.output
        assert str(bad / "aggregates.json") in " ".join(r.output.split())


@pytest.mark.parametrize(
    "edit, says",
    [
        (lambda c: c.pop("deals"), "'deals' is missing"),
        (lambda c: c.update(deals=[-5]), "'deals' is negative"),
        (lambda c: c.update(turns=[-1] + c["turns"][1:]), "'turns' is negative"),
        # run "a" played 20 deals (the fixture): a count of 19 disagrees with its manifest
        (lambda c: c.update(deals=[19]), "counts 19 deals where its run's manifest.json says 20"),
    ],
)
def test_hand_edited_counts_are_named_by_report_and_merge(runs, tmp_path, edit, says):
    bad = _copy(runs / "a", tmp_path / "bad")
    d = json.loads((bad / "aggregates.json").read_text())
    edit(d["counts"])
    (bad / "aggregates.json").write_text(json.dumps(d))
    for args in (["report", bad], ["merge", bad, runs / "b", "--out", tmp_path / "m"]):
        r = CliRunner().invoke(main, [str(a) for a in args])
        out = " ".join(r.output.split())
        assert r.exit_code == 2, r.output
        assert str(bad / "aggregates.json") in out and says in out
        assert not (bad / "report.md").exists() and not (tmp_path / "m").exists()


def test_counts_beyond_the_deals_are_named_by_report(runs, tmp_path):
    """More sides with red threes than the run's sides played (20 deals of 2 sides: at most 40)
    cannot come from a run: the report names the file, and writes nothing."""
    bad = _copy(runs / "a", tmp_path / "bad")
    d = json.loads((bad / "aggregates.json").read_text())
    d["counts"]["red_threes"] = (np.asarray(d["counts"]["red_threes"]) * 1000).tolist()
    (bad / "aggregates.json").write_text(json.dumps(d))
    r = CliRunner().invoke(main, ["report", str(bad)])
    out = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in out, r.output
    assert f"'{bad / 'aggregates.json'}' is not readable aggregates" in out
    assert not (bad / "report.md").exists()


@pytest.mark.parametrize("command", ["replay", "merge", "report", "analyse"])
def test_a_partial_manifest_is_refused_with_the_file_named(runs, tmp_path, command):
    bad = _copy(runs / "a", tmp_path / "bad")
    manifest = json.loads((bad / "manifest.json").read_text())
    del manifest["deals"], manifest["bots"]
    (bad / "manifest.json").write_text(json.dumps(manifest))
    args = {
        "replay": [bad],
        "merge": [bad, runs / "b", "--out", tmp_path / "m"],
        "report": [bad],
        "analyse": ["--from-run", f"{bad}:0"],
    }
    r = CliRunner().invoke(main, [command] + [str(a) for a in args[command]])
    assert r.exit_code == 2, r.output
    assert str(bad / "manifest.json") in " ".join(r.output.split())
    assert "Traceback" not in r.output


def test_a_missing_manifest_is_refused_with_the_folder_named(runs, tmp_path):
    bad = _copy(runs / "a", tmp_path / "bad")
    (bad / "manifest.json").unlink()
    for command in (["replay", bad], ["report", bad], ["merge", bad, runs / "b", "--out", "m"]):
        r = CliRunner().invoke(main, [str(a) for a in command])
        assert r.exit_code == 2 and "manifest.json missing" in r.output
        assert str(bad) in " ".join(r.output.split())


# --- the SIGTERM handler lives as long as the command ---------------------------------------
def test_the_sigterm_handler_is_restored_after_the_command(monkeypatch):
    seen = []

    def warm_up(processes, note=False):
        seen.append(signal.getsignal(signal.SIGTERM))

    monkeypatch.setattr("canasta_sim.warmup.warm_up", warm_up)
    before = signal.getsignal(signal.SIGTERM)
    assert run("warmup").exit_code == 0
    assert seen and seen[0] not in (before, signal.SIG_DFL, signal.SIG_IGN)
    with pytest.raises(SystemExit) as info:
        seen[0](signal.SIGTERM, None)  # during the command: unwinds like Ctrl-C
    assert info.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before
    r = CliRunner().invoke(main, ["simulate", "--deals", "0"])  # a usage error restores it too
    assert r.exit_code == 2 and signal.getsignal(signal.SIGTERM) is before


# --- a bot whose own code fails while it is loaded or made ----------------------------------
@pytest.mark.parametrize(
    "source, error, where",
    [
        ("import os\n\nx = undefined + 1\n", "NameError: name 'undefined' is not defined", 3),
        (
            "class C:\n    def __init__(self):\n        self.t = {}\n        self.t['a'] += 1\n\n"
            "    def choose(self, v, c):\n        pass\n",
            "KeyError: 'a'",
            4,
        ),
    ],
    ids=["loading", "making"],
)
def test_an_exception_while_loading_or_making_a_bot_is_the_bots_error(
    tmp_path, monkeypatch, source, error, where
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.py").write_text(
        source + "\n\nclass D:\n    def choose(self, v, c):\n        pass\n"
    )
    name = "C" if "class C" in source else "D"
    r = run("simulate", "--deals", 2, "--bots", f"py:b.py:{name}", "--quiet")
    assert r.exit_code == 1, r.output
    assert f"the Python bot py:b.py:{name}" in r.output and error in r.output
    assert f'b.py", line {where}' in r.output
    assert "Invalid value" not in r.output and "canasta_sim" not in r.output


def test_a_syntax_error_in_a_bot_file_names_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.py").write_text("class C:\n    def choose(self, v, c)\n        pass\n")
    r = run("simulate", "--deals", 2, "--bots", "py:b.py:C", "--quiet")
    assert r.exit_code == 1, r.output
    assert "SyntaxError" in r.output and 'b.py", line 2' in r.output


# --- report of what it does not read -------------------------------------------------------------
@pytest.fixture(scope="module")
def games_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("games") / "g"
    r = run("games", "--games", 1, "--players", 2, "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    return out


READS = (
    "report reads a run folder of simulate (manifest.json and aggregates.json) or of study "
    "(study.csv)"
)


def test_report_of_a_games_folder_says_what_to_use_instead(games_folder):
    # it said "aggregates.json missing", as if the folder were a broken run folder
    r = run("report", games_folder)
    assert r.exit_code == 2 and "Traceback" not in r.output
    text = " ".join(r.output.split())
    assert f"'{games_folder}' is a folder of canasta-sim games: games writes no report" in text
    assert "canasta-sim replay --game G --deal D FOLDER" in text and READS in text


def test_report_of_a_file_says_it_reads_a_folder(games_folder, tmp_path):
    # it said "it does not exist or is not a folder" of a file that exists
    r = run("report", games_folder / "games.csv")
    text = " ".join(r.output.split())
    assert r.exit_code == 2
    assert f"'{games_folder / 'games.csv'}' is a file, not a run folder: {READS}" in text
    assert "it is in a folder of canasta-sim games" in text
    run_folder = tmp_path / "run"
    run_folder.mkdir()
    for name in ("manifest.json", "aggregates.json"):
        (run_folder / name).write_text("{}")
    r = run("report", run_folder / "manifest.json")
    assert r.exit_code == 2
    assert f"give the folder it is in, '{run_folder}'" in " ".join(r.output.split())


def test_report_of_a_missing_folder_says_what_report_reads(tmp_path):
    r = run("report", tmp_path / "none")
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert f"'{tmp_path / 'none'}' is not a run folder: it does not exist; {READS}" in text
