"""Leftovers of a fresh user's tries (issue 24): a benchmark's bad arguments, what a resumed
``train`` says it resumes, and what ``report`` says of a folder it does not read. Each test
fails on the code before its fix."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import canasta_sim.learn.pipeline as pipeline
from canasta_sim.cli import main

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- benchmarks/compile_profile.py --------------------------------------------------------------
def compile_profile(*args):
    """Run the benchmark script with ``args``, as a user does (the repository on the path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = ROOT / "benchmarks" / "compile_profile.py"
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("top", ["-3", "0", "x"])
def test_compile_profile_top_below_one_is_a_usage_error(top):
    # --top -3 listed all kernels but the last three; x raised a traceback
    r = compile_profile("--top", top, "--", "bogus")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"argument --top: {top!r} is not allowed; allowed: a whole number, 1 or more" in r.stderr


def test_compile_profile_unknown_command_gets_clicks_usage():
    # click's UsageError came out as a traceback (the command ran with standalone_mode=False)
    r = compile_profile("--", "bogus")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Usage: canasta-sim [OPTIONS] COMMAND" in r.stderr
    assert "No such command 'bogus'" in r.stderr


# --- canasta-sim train, run again after a kill ---------------------------------------------------
def test_a_resumed_train_says_how_many_stages_and_shards_are_done(tmp_path, monkeypatch):
    # it said "round 1 label_4p: 3 shards, ..." as if the stage started afresh
    pytest.importorskip("sklearn")
    monkeypatch.setattr(pipeline, "_run_stage", lambda *args: {})  # stages made instantly
    monkeypatch.setattr(pipeline, "keep_weights", lambda out, rounds: out)  # and no files
    out = tmp_path / "t"
    args = ["train", "--out", out, "--quiet", "--rounds", 1, "--shards", 3, "--shards-own", 2]
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    assert "resuming" not in first.output
    assert "round 1 label_4p: 3 shards, seed 1, pimc:" in first.output
    # killed in label_4p with shards 0 and 2 written: its marker and those after it missing
    r1 = out / "round_1"
    for stage in ("label_4p", "own_4p", "fit_4p"):
        (r1 / f"{stage}.done").unlink()
    (r1 / "labels_4p").mkdir()
    for shard in (0, 2):
        (r1 / "labels_4p" / f"shard_{shard:05d}.npz").touch()
    again = invoke(*args)
    assert again.exit_code == 0, again.output
    assert f"resuming {out}: 8 of 11 stages already done" in again.output
    assert "round 1 label_4p: resuming, 2 of 3 shards already done, seed 1, pimc:" in again.output
    assert "round 1 own_4p: 2 shards, seed 35, pimc:top=4" in again.output


# --- canasta-sim report of what it does not read -------------------------------------------------
@pytest.fixture(scope="module")
def games_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("games") / "g"
    r = invoke("games", "--games", 1, "--players", 2, "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    return out


READS = (
    "report reads a run folder of simulate (manifest.json and aggregates.json) or of study "
    "(study.csv)"
)


def test_report_of_a_games_folder_says_what_to_use_instead(games_folder):
    # it said "aggregates.json missing", as if the folder were a broken run folder
    r = invoke("report", games_folder)
    assert r.exit_code == 2 and "Traceback" not in r.output
    text = " ".join(r.output.split())
    assert f"'{games_folder}' is a folder of canasta-sim games: games writes no report" in text
    assert "canasta-sim replay --game G --deal D FOLDER" in text and READS in text


def test_report_of_a_file_says_it_reads_a_folder(games_folder, tmp_path):
    # it said "it does not exist or is not a folder" of a file that exists
    r = invoke("report", games_folder / "games.csv")
    text = " ".join(r.output.split())
    assert r.exit_code == 2
    assert f"'{games_folder / 'games.csv'}' is a file, not a run folder: {READS}" in text
    assert "it is in a folder of canasta-sim games" in text
    run = tmp_path / "run"
    run.mkdir()
    for name in ("manifest.json", "aggregates.json"):
        (run / name).write_text("{}")
    r = invoke("report", run / "manifest.json")
    assert r.exit_code == 2
    assert f"give the folder it is in, '{run}'" in " ".join(r.output.split())


def test_report_of_a_missing_folder_says_what_report_reads(tmp_path):
    r = invoke("report", tmp_path / "none")
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert f"'{tmp_path / 'none'}' is not a run folder: it does not exist; {READS}" in text


@pytest.mark.parametrize("cached, said", [(False, True), (True, False)])
def test_warmup_says_it_compiles_before_a_cold_compile(monkeypatch, cached, said):
    import canasta_sim.warmup as warmup
    from canasta_sim.run.compiling import COMPILE_NOTE

    apart = []
    monkeypatch.setattr(warmup, "_chunk_kernels_cached", lambda: cached)
    monkeypatch.setattr(warmup, "_run_apart", lambda: apart.append(1))
    monkeypatch.setattr(warmup, "STEPS_IN_ORDER", ())  # nothing loaded into this process
    r = CliRunner().invoke(main, ["warmup", "--processes", "2"])
    assert r.exit_code == 0, r.output
    assert (COMPILE_NOTE in r.stderr) is said
    assert apart == ([1] if said else [])  # the workers start only on a cold cache
    assert "kernels ready in" in r.stdout


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


def run_python(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a new Python process from the repository, the package on its path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT
    )


def test_ctrl_c_while_loading_exits_130_without_traceback():
    # it printed Python's traceback of the imports and exited 1
    r = run_python(CTRL_C_WHILE_LOADING)
    assert (r.returncode, r.stderr) == (130, "Interrupted.\n")


def test_the_command_is_the_loader():
    """The ``canasta-sim`` script runs :func:`canasta_sim.__main__.run`, which catches the
    Ctrl-C above (the script entry in pyproject.toml)."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'canasta-sim = "canasta_sim.__main__:run"' in text


# --- the warm-up and Python bots ---------------------------------------------------------------
WARM_UP_THEN_PYTHON_BOTS = """
from canasta_sim.nb.play import record_deal_nb
from canasta_sim.run.compare import compare
from canasta_sim.warmup import warm_up

warm_up()  # the cache is warm (the run's first fixture): this loads every kernel
loaded = list(record_deal_nb.signatures)
compare("py:docs/example_bots.py:Minimal", "greedy", deals=2, seed=0, workers=1)
print(len(loaded), record_deal_nb.signatures == loaded)
"""


def test_the_warm_up_makes_the_record_python_bots_write():
    # the README's test command on one file named record_deal_nb, compiled after the warm-up
    # by the first run of Python bots (which write each deal's record from Python)
    r = run_python(WARM_UP_THEN_PYTHON_BOTS)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "True"]
