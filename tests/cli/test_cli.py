"""The command line: outputs, files, and bad input as usage errors (exit code 2)."""

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.cli.options import _write_frames
from canasta_sim.run.outdir import Target

ROOT = Path(__file__).resolve().parents[2]


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
    r = run(
        "simulate",
        "--deals",
        50,
        "--players",
        6,
        "--rules",
        "hoyle",
        "--set",
        "max_turns=900",
        "--bots",
        "greedy,random",
        "--out",
        out,
        "--quiet",
    )
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


@pytest.mark.parametrize(
    "args, needle",
    [
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
        (
            [
                "sweep",
                "expert",
                "--param",
                "pile_threshold=1:inf:1",
                "--vs",
                "greedy",
                "--deals",
                "5",
            ],
            "inf",
        ),
        (
            [
                "sweep",
                "expert",
                "--param",
                "pile_threshold=2:4:1",
                "--vs",
                "greedy,random",
                "--deals",
                "5",
            ],
            "greedy,random",
        ),
        (["games", "--games", "0"], "0"),
        (["compare", "random", "greedy"], "exactly one"),
        (["compare", "random", "nobot", "--deals", "10"], "nobot"),
        (["compare", "random", "greedy", "--deals", "3"], "multiple of the 2 sides"),
        (
            [
                "sweep",
                "expert",
                "--param",
                "pile_threshold=1:2:1",
                "--vs",
                "random",
                "--deals",
                "5",
                "--out",
                "/tmp/never-written-sweep",
            ],
            "multiple of the 2 sides",
        ),
        (
            ["compare", "random", "greedy", "--games", "4", "--players", "3"],
            "multiple of the 3 sides",
        ),
        (["sweep", "greedy", "--param", "x=1:2:1", "--vs", "random", "--deals", "5"], "x"),
        (["replay", "--deal", "-1"], "-1"),
        (["report", "/nonexistent/run"], "nonexistent"),
        (
            ["simulate", "--deals", "10", "--set", "players=6", "--players", "2"],
            "'--set players=6' and '--players 2' set players to different values",
        ),
        (
            ["games", "--games", "2", "--set", "max_turns=900", "--set", "max_turns=800"],
            "'--set max_turns=900' and '--set max_turns=800' set max_turns to different values",
        ),
        (
            ["simulate", "--deals", "10", "--bots", "expert:safety=1,safety=2"],
            "safety is given twice with different values (1 and 2)",
        ),
        (
            ["compare", "expert:safety=1,safety=2", "greedy", "--deals", "4"],
            "safety is given twice with different values (1 and 2)",
        ),
        (
            [
                "sweep",
                "expert:safety=3",
                "--param",
                "safety=1:2:1",
                "--vs",
                "greedy",
                "--deals",
                "4",
            ],
            "the swept parameter safety is also set in the bot spec 'expert:safety=3'",
        ),
        # compare's bot errors name the bot argument at fault, not --deals
        (["compare", "expert", "expert", "--deals", "4"], "Invalid value for 'BOT_B': compare"),
        (["compare", "expert,greedy", "random", "--deals", "4"], "Invalid value for 'BOT_A':"),
        (["compare", "random", "expert,greedy", "--deals", "4"], "Invalid value for 'BOT_B':"),
        (
            ["sweep", "expert", "--param", "hold_wilds=0,1,1", "--vs", "greedy", "--deals", "4"],
            "'0,1,1' repeats a value",
        ),
        (
            ["simulate", "--deals", "10", "--chunk-size", "1000001"],
            "Invalid value for '--chunk-size': 1000001 is not allowed; allowed: 1 to 1,000,000",
        ),
    ],
)
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
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(mine), "--overwrite"])
    assert r.exit_code == 2 and "not a results folder" in r.output
    assert (mine / "thesis.txt").read_text() == "x"


@pytest.mark.parametrize(
    "files",
    [
        {"games.csv": "a,b\n"},  # a table file of a common name is no mark of a run
        {"compare.csv": "a,b\n"},
        {"manifest.json": '{"canasta_sim": "x"}'},  # a manifest without the versions
        {"manifest.json": '{"canasta_sim": 1, "rules_version": 2, "bots_version": 8}'},
    ],
)
def test_overwrite_never_replaces_a_folder_that_only_looks_like_a_run(tmp_path, files):
    app = tmp_path / "app"
    app.mkdir()
    for name, text in files.items():
        (app / name).write_text(text)
    (app / "index.js").write_text("code")
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(app), "--overwrite"])
    assert r.exit_code == 2 and "not a results folder" in r.output
    assert (app / "index.js").read_text() == "code"


def test_overwrite_never_replaces_a_folder_with_another_programs_manifest(tmp_path):
    # web apps and browser extensions ship a manifest.json of their own
    app = tmp_path / "app"
    app.mkdir()
    (app / "manifest.json").write_text('{"name": "my-webapp"}')
    (app / "precious.txt").write_text("x")
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(app), "--overwrite"])
    assert r.exit_code == 2 and "not a results folder" in r.output
    assert (app / "precious.txt").read_text() == "x"


def test_equal_values_given_twice_are_no_conflict(tmp_path):
    out = tmp_path / "run"
    r = run(
        "simulate",
        "--deals",
        10,
        "--set",
        "players=2",
        "--players",
        2,
        "--bots",
        "expert:safety=1,safety=1.0",
        "--out",
        out,
        "--quiet",
    )
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["players"] == 2
    assert manifest["bots"] == [["expert:safety=1", "expert:safety=1"]]


def test_interrupted_commands_leave_no_new_folder(tmp_path, monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    simulate_module = importlib.import_module("canasta_sim.run.simulate")
    monkeypatch.setattr(simulate_module, "chunk_rows", interrupt)
    monkeypatch.setattr(importlib.import_module("canasta_sim.run.games"), "play_games", interrupt)
    for args in (["simulate", "--deals", "10"], ["games", "--games", "5"]):
        r = CliRunner().invoke(main, args + ["--quiet", "--out", str(tmp_path / "a" / "b")])
        assert r.exit_code == 130  # 128 + SIGINT, as the shell reports Ctrl-C
        assert r.output == "Interrupted.\n"
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("when", ["after the move", "during the move of an overwrite"])
def test_ctrl_c_once_the_results_folder_is_in_place_reports_a_finished_run(
    tmp_path, monkeypatch, when
):
    """A run's folder in place is a finished run: a Ctrl-C after the move (or held during
    it: the old folder aside, the new one not yet in place) exits 0 with a note naming the
    complete folder, not 130 as if the run were lost; the folder holds the new run."""
    import signal

    out = tmp_path.resolve() / "run"
    assert run("simulate", "--deals", 4, "--quiet", "--out", out).exit_code == 0
    simulate_module = importlib.import_module("canasta_sim.run.simulate")
    if when == "after the move":
        shutil.rmtree(out)
        commit_out = simulate_module.commit_out

        def commit_then_ctrl_c(tmp, target):
            commit_out(tmp, target)
            raise KeyboardInterrupt

        monkeypatch.setattr(simulate_module, "commit_out", commit_then_ctrl_c)
    else:
        rename = Path.rename

        def ctrl_c_then_rename(self, dst):
            if self == out:  # the old folder moves aside first
                signal.raise_signal(signal.SIGINT)
            return rename(self, dst)

        monkeypatch.setattr(Path, "rename", ctrl_c_then_rename)
    # Ctrl-C's handler, also where SIGINT is inherited as ignored (tests in the background)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        r = CliRunner().invoke(
            main, ["simulate", "--deals", "6", "--quiet", "--out", str(out), "--overwrite"]
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    note = f"Interrupted after the run finished: {out} is complete.\n"
    assert (r.exit_code, r.stderr) == (0, note)
    assert json.loads((out / "manifest.json").read_text())["deals"] == 6
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no staging or old folder left


def test_failed_write_leaves_no_new_folder_and_names_the_file(tmp_path):
    def fail(path):
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    (tmp_path / "kept").mkdir()
    target = tmp_path / "kept" / "a" / "b" / "run"
    with pytest.raises(OSError, match="No space left on device") as info:
        _write_frames(Target(target), {"manifest.json": {"seed": 1}, "plot.png": fail})
    assert info.value.filename == str(target / "plot.png")
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]
    assert list((tmp_path / "kept").iterdir()) == []


def test_a_parquet_write_error_names_the_results_file(monkeypatch, tmp_path):
    """pyarrow's write errors name no file: the one-line error names the file of --out."""
    outdir = importlib.import_module("canasta_sim.run.outdir")

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def write_table(self, table):
            raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

        def close(self):
            pass

    monkeypatch.setattr(outdir.pq, "ParquetWriter", FullDisk)
    out = tmp_path.resolve() / "run"
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--quiet", "--out", str(out)])
    assert r.exit_code == 1
    assert r.output == (
        "Error: Error writing bytes to file. Detail: [errno 28] No space left "
        f"on device: {out / 'deals.parquet'}\n"
    )
    assert list(tmp_path.iterdir()) == []


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


def _manifest(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["wall_seconds"] > 0
    assert set(manifest["versions"]) == {"python", "numba", "numpy", "pandas", "pyarrow"}
    return manifest


def test_games_compare_and_sweep_folders_have_a_manifest(tmp_path):
    r = run(
        "games",
        "--games",
        3,
        "--players",
        3,
        "--bots",
        "greedy",
        "--seed",
        7,
        "--out",
        tmp_path / "games",
        "--quiet",
    )
    assert r.exit_code == 0, r.output
    m = _manifest(tmp_path / "games")
    assert (m["games"], m["seed"], m["rules"]["players"]) == (3, 7, 3)
    assert m["bots"] == [["greedy", "greedy", "greedy"]]

    r = run(
        "compare",
        "greedy",
        "random",
        "--games",
        2,
        "--seed",
        8,
        "--set",
        "game_target=3000",
        "--out",
        tmp_path / "cmp",
        "--quiet",
    )
    assert r.exit_code == 0, r.output
    m = _manifest(tmp_path / "cmp")
    assert (m["games"], m["seed"], m["rules"]["game_target"]) == (2, 8, 3000)
    assert m["bots"] == [["greedy", "random"], ["random", "greedy"]]

    r = run(
        "sweep",
        "expert",
        "--param",
        "pile_threshold=2:4:2",
        "--vs",
        "greedy",
        "--deals",
        4,
        "--seed",
        9,
        "--out",
        tmp_path / "sweep",
        "--quiet",
    )
    assert r.exit_code == 0, r.output
    m = _manifest(tmp_path / "sweep")
    assert (m["deals"], m["seed"]) == (4, 9)
    assert m["sweep"] == {
        "bot": "expert",
        "param": "pile_threshold",
        "values": [2.0, 4.0],
        "vs": "greedy",
    }
    assert m["bots"] == [
        [["expert:pile_threshold=2", "greedy"], ["greedy", "expert:pile_threshold=2"]],
        [["expert:pile_threshold=4", "greedy"], ["greedy", "expert:pile_threshold=4"]],
    ]
    assert sorted(p.name for p in (tmp_path / "sweep").iterdir()) == [
        "manifest.json",
        "sweep.csv",
        "sweep.parquet",
        "sweep.png",
    ]


def test_same_seed_same_compare_table_for_any_workers():
    a = run("compare", "greedy", "random", "--deals", 300, "--seed", 9, "--workers", 1, "--quiet")
    b = run("compare", "greedy", "random", "--deals", 300, "--seed", 9, "--workers", 2, "--quiet")
    assert a.output == b.output


def test_installed_command_runs(tmp_path):
    exe = shutil.which("canasta-sim")
    cmd = [exe] if exe else [sys.executable, "-m", "canasta_sim"]
    done = subprocess.run(
        cmd + ["simulate", "--deals", "100", "--quiet"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "100 deals" in done.stdout
    bad = subprocess.run(
        cmd + ["simulate", "--deals", "0"], capture_output=True, text=True, timeout=600
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_a_failed_write_is_one_line_without_traceback(monkeypatch, tmp_path):
    """Disk full while writing results: exit 1 with the system's message and the path."""
    outdir = importlib.import_module("canasta_sim.run.outdir")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "run" / "deals.parquet"))

    monkeypatch.setattr(outdir.RecordFiles, "write", full)
    r = CliRunner().invoke(
        main, ["simulate", "--deals", "10", "--quiet", "--out", str(tmp_path / "run")]
    )
    assert r.exit_code == 1
    assert "No space left on device" in r.output and "deals.parquet" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "run").exists()


def test_replay_json_check_keeps_stdout_json_lines():
    r = CliRunner().invoke(main, ["replay", "--seed", "1", "--deal", "3", "--json", "--check"])
    assert r.exit_code == 0
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[-1]["event"] == "score"
    assert r.stderr.startswith("referee: OK")


def test_compile_note_only_when_kernels_compile(monkeypatch, capsys):
    """The note is said when numba compiles a kernel, not when loading cached kernels is slow
    (a warm run on a busy machine takes over a second to load them)."""
    import time

    from numba.core import event

    from canasta_sim.game.rules import Rules
    from canasta_sim.players.specs import side_bots
    from canasta_sim.run.compiling import COMPILE_NOTE

    sim = importlib.import_module("canasta_sim.run.seating")
    table = sim.Table(Rules(), ((side_bots("random", 2)[0],) * 2,))
    sim.load_kernels(table, True)  # compiled or loaded before the note is watched for
    capsys.readouterr()
    monkeypatch.setattr(sim, "play_deals", lambda *a: time.sleep(1.3))
    sim.load_kernels(table, True)  # slow, and nothing compiled
    assert capsys.readouterr().err == ""

    def compiling(*a):
        with event.trigger_event("numba:compile", data={}):
            pass

    monkeypatch.setattr(sim, "play_deals", compiling)
    sim.load_kernels(table, True)
    assert capsys.readouterr().err == COMPILE_NOTE + "\n"
    sim.load_kernels(table, False)  # progress off (--quiet): no note
    assert capsys.readouterr().err == ""


def _started_run(folder):
    """A ``simulate --out folder/run`` subprocess, returned once its staging folder exists.
    It turns SIGINT into KeyboardInterrupt even when the tests run in the background (where
    SIGINT is inherited as ignored and Python would keep it so)."""
    import time

    start = (
        "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "runpy.run_module('canasta_sim', run_name='__main__')"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            start,
            "simulate",
            "--deals",
            "5000000",
            "--quiet",
            "--out",
            str(folder / "run"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 600
    while not any(folder.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.2)  # wait for the staging folder: the run has started
    time.sleep(1.0)
    return proc


@pytest.mark.parametrize(
    "signame, code, message", [("SIGTERM", 143, []), ("SIGINT", 130, ["Interrupted."])]
)
def test_a_signal_leaves_no_results_folder(tmp_path, signame, code, message):
    """A run stopped by SIGTERM or Ctrl-C removes its staging folder: nothing half-written
    remains; the exit code is the shell's 128 + signal number."""
    import signal

    proc = _started_run(tmp_path)
    proc.send_signal(getattr(signal, signame))
    assert proc.wait(timeout=120) == code
    lines = proc.stderr.read().splitlines()
    assert [line for line in lines if not line.startswith("compiling")] == message
    assert list(tmp_path.iterdir()) == []


def test_the_next_run_removes_what_kill_9_left(tmp_path):
    import signal

    proc = _started_run(tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=120)
    [staging] = list(tmp_path.iterdir())
    assert staging.name.startswith(".run.canasta-sim-")
    assert run("simulate", "--deals", 10, "--out", tmp_path / "next", "--quiet").exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["next"]


def test_compare_count_error_names_the_count_option():
    result = run("compare", "expert", "greedy", "--deals", 3, "--quiet")
    assert result.exit_code == 2
    assert "Invalid value for '--deals': deals=3" in result.output


def test_games_report_games_cut_off_at_the_deal_bound():
    # no side can reach 10,000,000 points in 200 deals: both games end unfinished (no winner)
    result = run(
        "games", "--games", 2, "--set", "game_target=10000000", "--bots", "random", "--quiet"
    )
    assert result.exit_code == 0
    assert "2 of 2 games ended unfinished at the bound of 200 deals" in result.output


def test_chunk_size_limit_matches_the_simulator():
    """The CLI's --chunk-size range is the simulator's own limit (runner.MAX_CHUNK)."""
    from canasta_sim.cli.options import CHUNK
    from canasta_sim.run.runner import MAX_CHUNK

    assert (CHUNK.min, CHUNK.max) == (1, MAX_CHUNK)


# --- what a command prints -----------------------------------------------------------------------
def test_one_game_is_one_game():
    r = run("games", "--games", 1, "--players", 2, "--seed", 3)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("1 game, 2 players, target 5000")


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
        help_text = " ".join(run(command, "--help").output.split())
        assert " ".join(ROLLOUT_HELP.split()) in help_text


def test_analyse_quiet_prints_the_result_only(tmp_path):
    position = ROOT / "docs/positions/take_or_draw.toml"
    args = ["analyse", position, "--worlds", 20, "--format", "csv", "--out", tmp_path / "a"]
    loud, quiet = run(*args), run(*args[:-1], tmp_path / "b", "--quiet")
    assert loud.exit_code == 0 and quiet.exit_code == 0, quiet.output
    assert f"wrote {tmp_path / 'a'}" in loud.stderr
    assert "wrote" not in quiet.stderr and quiet.stdout == loud.stdout  # the same table
    assert (tmp_path / "b" / "analysis.json").is_file()


# --- Ctrl-C while the command line loads -----------------------------------------------------
CTRL_C_WHILE_LOADING = """
import sys


class CtrlC:  # the user's Ctrl-C arrives while the command modules are being imported
    def find_spec(self, name, path=None, target=None):
        if name == "canasta_sim.cli.simulation":
            raise KeyboardInterrupt
        return None


sys.meta_path.insert(0, CtrlC())
sys.argv = ["canasta-sim", "simulate", "--deals", "10"]
from canasta_sim.__main__ import run

run()
"""


def test_ctrl_c_while_loading_exits_130_without_traceback():
    # it printed Python's traceback of the imports and exited 1
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_LOADING],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert (r.returncode, r.stderr) == (130, "Interrupted.\n")


def test_the_command_is_the_loader():
    """The ``canasta-sim`` script runs :func:`canasta_sim.__main__.run`, which catches the
    Ctrl-C above (the script entry in pyproject.toml)."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'canasta-sim = "canasta_sim.__main__:run"' in text
