"""The command line: outputs, files, and bad input as usage errors (exit code 2)."""

import importlib
import json
import shutil
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim.cli import _write_frames, main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_simulate_prints_summary_and_writes_files(tmp_path):
    out = tmp_path / "run"
    r = run("simulate", "--deals", 300, "--seed", 5, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    assert "300 deals, 4 players" in r.output
    assert "red threes dealt per side per deal" in r.output
    assert (out / "deals.parquet").exists() and (out / "summary.json").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["deals"] == 300 and manifest["seed"] == 5
    assert len(pd.read_parquet(out / "sides.parquet")) == 600


def test_simulate_options_reach_the_rules(tmp_path):
    out = tmp_path / "run"
    r = run("simulate", "--deals", 50, "--players", 6, "--rules", "hoyle", "--set",
            "max_turns=900", "--bots", "greedy,random", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["players"] == 6
    assert manifest["rules"]["wilds_at_most_naturals"] is False  # hoyle
    assert manifest["rules"]["max_turns"] == 900
    assert manifest["rules"]["game_target"] == 10000
    assert manifest["bots"] == [["greedy", "random"]]


@pytest.mark.parametrize("name, wilds_at_most_naturals", [("CLASSIC", True), ("Hoyle", False)])
def test_rules_preset_names_ignore_case(tmp_path, name, wilds_at_most_naturals):
    out = tmp_path / "run"
    r = run("simulate", "--deals", 20, "--rules", name, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    rules = json.loads((out / "manifest.json").read_text())["rules"]
    assert rules["wilds_at_most_naturals"] is wilds_at_most_naturals


def test_rules_file(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"players": 3, "concealed_canasta_bonus": 50}))
    out = tmp_path / "run"
    r = run("simulate", "--deals", 20, "--rules", path, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    rules = json.loads((out / "manifest.json").read_text())["rules"]
    assert (rules["players"], rules["concealed_canasta_bonus"]) == (3, 50)


@pytest.mark.parametrize("args, needle", [
    (["simulate", "--deals", "0"], "0"),
    (["simulate", "--deals", "-3"], "-3"),
    (["simulate", "--deals", "ten"], "ten"),
    (["simulate", "--deals", "1.5"], "1.5"),
    (["simulate", "--deals", "10", "--players", "5"], "5"),
    (["simulate", "--deals", "10", "--bots", "champion"], "champion"),
    (["simulate", "--deals", "10", "--bots", "random,random,random"], "3 specs"),
    (["simulate", "--deals", "10", "--set", "wild_jokers=true"], "wild_jokers"),
    (["simulate", "--deals", "10", "--set", "negative_minimum=12"], "negative_minimum"),
    (["simulate", "--deals", "10", "--set", "max_turns"], "SWITCH=VALUE"),
    (["simulate", "--deals", "10", "--rules", "bridge"], "bridge"),
    (["simulate", "--deals", "10", "--workers", "0"], "0"),
    (["simulate", "--deals", "10", "--workers", "64"], "64"),
    (["simulate", "--deals", "10", "--seed", "-1"], "-1"),
    (["simulate", "--deals", "10000000000000"], "10000000000000"),
    (["simulate", "--deals", "10", "--set", "natural_canasta_bonus=50000"], "50000"),
    (["simulate", "--deals", "10", "--set", "card_values=5"], "card_values"),
    (["simulate", "--deals", "10", "--out", "/proc/x"], "/proc/x"),
    (["simulate", "--deals", "10", "--parts"], "--parts"),
    (["simulate", "--deals", "10", "--bots", "expert:hold_wilds=0.5"], "whole number"),
    (["sweep", "expert", "--param", "pile_threshold=1:inf:1", "--vs", "greedy", "--deals",
      "5"], "inf"),
    (["sweep", "expert", "--param", "pile_threshold=4:6:1", "--vs", "expert", "--deals", "5"],
     "opponent"),
    (["sweep", "expert", "--param", "pile_threshold=2:4:1", "--vs", "greedy,random",
      "--deals", "5"], "greedy,random"),
    (["games", "--games", "0"], "0"),
    (["compare", "random", "greedy"], "exactly one"),
    (["compare", "random", "nobot", "--deals", "10"], "nobot"),
    (["compare", "random", "greedy", "--deals", "3"], "multiple of the 2 sides"),
    (["sweep", "expert", "--param", "pile_threshold=1:2:1", "--vs", "random", "--deals", "5",
      "--out", "/tmp/never-written-sweep"], "multiple of the 2 sides"),
    (["compare", "random", "greedy", "--games", "4", "--players", "3"], "multiple of the 3 sides"),
    (["sweep", "greedy", "--param", "x=1:2:1", "--vs", "random", "--deals", "5"], "x"),
    (["replay", "--deal", "-1"], "-1"),
    (["report", "/nonexistent/run"], "nonexistent"),
])
def test_bad_input_is_a_usage_error(args, needle):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert "Traceback" not in r.output


def test_existing_out_is_refused_unless_overwrite(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", 10, "--out", out, "--quiet").exit_code == 0
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(out)])
    assert r.exit_code == 2 and "already exists" in r.output
    (out / "old.txt").write_text("from the earlier run")
    r = run("simulate", "--deals", 10, "--out", out, "--overwrite", "--quiet")
    assert r.exit_code == 0
    assert not (out / "old.txt").exists() and (out / "manifest.json").exists()


def test_overwrite_never_replaces_a_folder_that_is_not_a_run(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.txt").write_text("x")
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(mine),
                                  "--overwrite"])
    assert r.exit_code == 2 and "not a results folder" in r.output
    assert (mine / "thesis.txt").read_text() == "x"


def test_interrupted_commands_leave_no_new_folder(tmp_path, monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("canasta_sim.simulate"), "run_chunk", interrupt)
    monkeypatch.setattr(importlib.import_module("canasta_sim.games"), "play_games", interrupt)
    for args in (["simulate", "--deals", "10"], ["games", "--games", "5"]):
        r = CliRunner().invoke(main, args + ["--quiet", "--out", str(tmp_path / "a" / "b")])
        assert r.exit_code == 1 and "Aborted!" in r.output
        assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_no_new_folder(tmp_path):
    def fail(path):
        raise OSError("disk full")

    (tmp_path / "kept").mkdir()
    with pytest.raises(OSError, match="disk full"):
        _write_frames(tmp_path / "kept" / "a" / "b" / "run", {"plot.png": fail})
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]
    assert list((tmp_path / "kept").iterdir()) == []


def test_unwritable_out_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(blocker / "run")])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_report_from_a_no_records_run(tmp_path):
    out = tmp_path / "run"
    assert run("simulate", "--deals", 200, "--no-records", "--out", out, "--quiet").exit_code == 0
    assert not (out / "deals.parquet").exists()
    r = run("report", out)
    assert r.exit_code == 0, r.output
    text = (out / "report.md").read_text()
    assert "score_distribution.png" in text and (out / "score_distribution.png").exists()


def test_replay_lists_the_deal_and_checks_it():
    r = run("replay", "--seed", 3, "--deal", 4, "--players", 2, "--check")
    assert r.exit_code == 0, r.output
    assert "deal: 2 players, dealer seat 0" in r.output  # deal 4 -> dealer 4 % 2
    assert "end:" in r.output and "referee: OK" in r.output


def test_replay_matches_the_simulated_deal(tmp_path):
    out = tmp_path / "run"
    run("simulate", "--deals", 8, "--seed", 21, "--bots", "greedy", "--out", out, "--quiet")
    sides = pd.read_parquet(out / "sides.parquet")
    r = run("replay", "--seed", 21, "--deal", 6, "--bots", "greedy", "--json")
    scores = [json.loads(line) for line in r.output.splitlines()]
    totals = [e["total"] for e in scores if e["event"] == "score"]
    assert totals == list(sides[sides["deal"] == 6]["score"])


def test_verify_counts_passes():
    r = run("verify", "--deals", 30, "--players", 3, "--bots", "greedy")
    assert r.exit_code == 0, r.output
    assert "30 of 30 deals passed" in r.output


def test_compare_and_games(tmp_path):
    out = tmp_path / "cmp"
    r = run("compare", "greedy", "random", "--deals", 400, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    table = pd.read_csv(out / "compare.csv")
    assert list(table["bot"]) == ["greedy", "random"]
    assert (table["n"] == 400).all()
    assert table.loc[0, "wins"] == table.loc[1, "losses"]
    assert table.loc[0, "mean_diff"] == pytest.approx(-table.loc[1, "mean_diff"])
    r = run("games", "--games", 20, "--bots", "greedy", "--quiet")
    assert r.exit_code == 0 and "20 games" in r.output


def test_same_seed_same_compare_table_for_any_workers():
    a = run("compare", "greedy", "random", "--deals", 300, "--seed", 9, "--workers", 1, "--quiet")
    b = run("compare", "greedy", "random", "--deals", 300, "--seed", 9, "--workers", 2, "--quiet")
    assert a.output == b.output


def test_installed_command_runs(tmp_path):
    exe = shutil.which("canasta-sim")
    cmd = [exe] if exe else [sys.executable, "-m", "canasta_sim"]
    done = subprocess.run(cmd + ["simulate", "--deals", "100", "--quiet"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "100 deals" in done.stdout
    bad = subprocess.run(cmd + ["simulate", "--deals", "0"], capture_output=True, text=True,
                         timeout=600)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_a_failed_write_is_one_line_without_traceback(monkeypatch, tmp_path):
    """Disk full while writing results: exit 1 with the system's message and the path."""
    sim = importlib.import_module("canasta_sim.simulate")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "run" / "deals.parquet"))

    monkeypatch.setattr(sim, "_write_parts", full)
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--quiet", "--out",
                                  str(tmp_path / "run")])
    assert r.exit_code == 1
    assert "No space left on device" in r.output and "deals.parquet" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "run").exists()


def test_replay_json_check_keeps_stdout_json_lines():
    r = CliRunner().invoke(main, ["replay", "--seed", "1", "--deal", "3", "--json", "--check"])
    assert r.exit_code == 0
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[-1]["event"] == "score"
    assert r.stderr.startswith("referee: OK")


def test_compile_note_only_when_loading_is_slow(monkeypatch, capsys):
    import time

    sim = importlib.import_module("canasta_sim.simulate")

    table = sim.Table(sim.Rules(), ((sim.side_bots("random", 2)[0],) * 2,))
    sim.load_kernels(table, True)  # loaded (or compiled) already: no note
    assert "compiling" not in capsys.readouterr().err
    monkeypatch.setattr(sim, "play_deals", lambda *a: time.sleep(1.3))
    sim.load_kernels(table, True)
    assert "compiling the kernels" in capsys.readouterr().err


def test_sigterm_leaves_no_results_folder(tmp_path):
    """A killed run (SIGTERM) removes its staging folder: nothing half-written remains."""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "canasta_sim", "simulate", "--deals",
                             "5000000", "--quiet", "--out", str(tmp_path / "run")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while not any(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.2)  # wait for the staging folder: the run has started
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []


def test_compare_count_error_names_the_count_option():
    result = run("compare", "expert", "greedy", "--deals", 3, "--quiet")
    assert result.exit_code == 2
    assert "Invalid value for --deals: deals=3" in result.output


def test_games_report_games_cut_off_at_the_deal_bound():
    # no side can reach 10,000,000 points in 200 deals: both games end unfinished (no winner)
    result = run("games", "--games", 2, "--set", "game_target=10000000", "--bots", "random",
                 "--quiet")
    assert result.exit_code == 0
    assert "2 of 2 games ended unfinished at the bound of 200 deals" in result.output
