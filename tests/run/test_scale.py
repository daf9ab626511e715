"""Robustness at scale (one test group per item of the scale issue): constant memory, whole
boards, safe results folders, honest intervals, merging runs, messages and provenance."""

import importlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim import Deal, Rules, compare, play_games, simulate
from canasta_sim._version import BOTS_VERSION
from canasta_sim.cli import main
from canasta_sim.nb.engine.rng import deal_seeds_nb
from canasta_sim.results.intervals import mean_interval
from canasta_sim.results.paired import plot_sweep
from canasta_sim.run.compare import parse_range, sweep
from canasta_sim.run.merge import merge_runs
from canasta_sim.run.outdir import OutConflict, commit_out, prepare_out, staging_folder
from canasta_sim.run.progress import Progress
from canasta_sim.run.runner import chunk_starts, long_run_warning

runner = importlib.import_module("canasta_sim.run.runner")
progress = importlib.import_module("canasta_sim.run.progress")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- 1. constant memory without --out -------------------------------------------------------
def test_simulate_without_out_keeps_no_records(monkeypatch):
    sim = importlib.import_module("canasta_sim.run.simulate")
    seen = {}
    real = sim.simulate

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(sim, "simulate", spy)
    assert run("simulate", "--deals", 20, "--quiet").exit_code == 0
    assert seen["records"] is False and seen["out"] is None


def test_records_that_cannot_fit_in_memory_are_refused_up_front(monkeypatch):
    monkeypatch.setattr(runner, "available_memory", lambda: 2**20)  # 1 MiB
    start = time.monotonic()
    # 100,000 deals x 2 x (27 + 2 x 45) bytes = 22.3 MiB > 1 MiB
    with pytest.raises(ValueError, match=r"deals=100000: .* about 0\.0 GiB, more than"):
        simulate(100_000)
    with pytest.raises(ValueError, match="records=False"):
        compare("expert", "greedy", deals=100_000)
    assert time.monotonic() - start < 5  # refused before playing
    lean = simulate(100, records=False)  # aggregates only: allowed
    assert lean.deals is None and lean.aggregates.n_deals == 100


# --- 2. compare, sweep and games stream; whole boards; day-long runs ---------------------------
def test_chunks_hold_whole_boards():
    assert list(chunk_starts(0, 10, 3, board=2)) == [(0, 4), (4, 4), (8, 2)]
    assert list(chunk_starts(6, 9, 4, board=3)) == [(6, 6), (12, 3)]
    a, _ = compare("careful", "greedy", deals=60, rules=Rules(players=3), chunk_size=4)
    b, _ = compare("careful", "greedy", deals=60, rules=Rules(players=3))
    pd.testing.assert_frame_equal(a, b)


def test_compare_without_records_streams_the_same_table():
    full, raw = compare("greedy", "random", deals=400, seed=3)
    lean, none = compare("greedy", "random", deals=400, seed=3, records=False, chunk_size=50)
    assert none is None and len(raw) == 800
    pd.testing.assert_frame_equal(full, lean)


def test_games_without_records_keep_totals_only():
    full = play_games(12, bots="greedy", seed=4)
    lean = play_games(12, bots="greedy", seed=4, records=False, chunk_size=5)
    assert lean.games is None and lean.deals is None
    g = full.games
    assert lean.totals.games == 12 and lean.totals.deals == int(g["deals"].sum())
    assert lean.totals.wins == [int((g["winner"] == s).sum()) for s in (0, 1)]
    assert lean.totals.score_sum == [int(g[f"score_{s}"].sum()) for s in (0, 1)]


def test_compare_sweep_and_games_take_scheduler_and_no_records(tmp_path):
    for args in (
        ["compare", "greedy", "random", "--deals", 20],
        ["games", "--games", 2, "--bots", "random"],
        ["sweep", "greedy", "--param", "x=1", "--vs", "random", "--deals", 2],
    ):
        r = run(*args, "--scheduler", "local:x", "--quiet")
        assert r.exit_code == 2 and "'local:x' is not allowed" in r.output, r.output
    r = run("compare", "greedy", "random", "--deals", 20, "--no-records", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["compare.csv", "manifest.json"]


def test_compare_on_a_local_cluster_equals_the_local_result():
    pytest.importorskip("distributed")
    local, _ = compare("greedy", "random", deals=2_000, seed=6, records=False)
    dask, _ = compare(
        "greedy", "random", deals=2_000, seed=6, records=False, scheduler="local:2", chunk_size=300
    )
    pd.testing.assert_frame_equal(local, dask)
    assert dask.attrs["manifest"]["workers"] == 2
    assert dask.attrs["manifest"]["scheduler"] == "local:2"


def test_a_run_of_over_a_day_warns(monkeypatch, capsys):
    assert long_run_warning(1_000, 10**12, 1.0) == (
        "warning: at 1,000 deals per second this run of 1,000,000,000,000 deals needs "
        "about 32 years; Ctrl-C stops it"  # 10**9 s
    )
    assert long_run_warning(1_000, 86_400_000, 1.0) is None  # exactly a day
    assert "about 24 hours" in long_run_warning(1_000, 86_400_001, 1.0)
    monkeypatch.setattr(runner, "LONG_RUN", 0.0)
    simulate(200, records=False, chunk_size=100)
    assert "warning: at " in capsys.readouterr().err


# --- 3. concurrent writers ------------------------------------------------------------------
def test_a_folder_created_meanwhile_is_not_replaced(tmp_path):
    out = tmp_path / "run"
    target = prepare_out(out, overwrite=False)
    out.mkdir()
    another = '{"canasta_sim": "0.0", "rules_version": 2, "bots_version": 8}'  # another run's
    (out / "manifest.json").write_text(another)
    with pytest.raises(OutConflict, match="written by another run"):
        with staging_folder(target) as tmp:
            commit_out(tmp, target)
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
    assert (out / "manifest.json").read_text() == another
    # --overwrite replaces the folder found at the start, not one that replaced it since
    target = prepare_out(out, overwrite=True)
    os.rename(out, tmp_path / "moved")
    out.mkdir()
    with pytest.raises(OutConflict):
        with staging_folder(target) as tmp:
            commit_out(tmp, target)
    target = prepare_out(out, overwrite=True)
    with staging_folder(target) as tmp:
        (tmp / "manifest.json").write_text("new")
        commit_out(tmp, target)
    assert (out / "manifest.json").read_text() == "new"


@pytest.mark.parametrize("overwrite", [False, True])
def test_two_processes_racing_to_one_out_exactly_one_wins(tmp_path, overwrite):
    out = tmp_path / "run"
    if overwrite:
        assert run("simulate", "--deals", 10, "--out", out, "--quiet").exit_code == 0
    cmd = [sys.executable, "-m", "canasta_sim", "simulate", "--deals", "150000", "--quiet"]
    cmd += ["--no-records", "--out", str(out)] + (["--overwrite"] if overwrite else [])
    procs = [subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    codes = sorted(p.wait(timeout=600) for p in procs)
    errors = [p.stderr.read() for p in procs]
    assert codes == [0, 2], errors
    assert any("written by another run while this one ran" in e for e in errors)
    assert json.loads((out / "manifest.json").read_text())["deals"] == 150000
    assert [p.name for p in tmp_path.iterdir()] == ["run"]


# --- 4. Deal.new(deal=k) is deal k of a run ---------------------------------------------------
def test_deal_new_is_deal_k_of_a_run():
    run13 = simulate(14, bots="expert@2,greedy", seed=0)  # scores of bots version 2's expert
    deal = Deal.new(Rules(), 0, deal=13)  # dealer 13 % 4 = 1, as in the run
    deal.play_out(["expert@2", "greedy"])
    rows = run13.sides[run13.sides["deal"] == 13]
    assert [deal.score()[s]["total"] for s in (0, 1)] == list(rows["score"]) == [1450, 855]
    assert run13.deals.loc[13, "dealer"] == 1


# --- 5. paired per-board intervals ------------------------------------------------------------
def test_difference_interval_is_per_board_and_the_correlation_reported():
    table, raw = compare("expert", "greedy", deals=600, seed=2)
    scores = raw["score"].to_numpy(np.int64).reshape(-1, 2)
    a_side = np.arange(600) % 2
    diff = scores[np.arange(600), a_side] - scores[np.arange(600), 1 - a_side]
    boards = diff.reshape(-1, 2)  # the 2 rotations of each shuffle
    per_board = boards.sum(axis=1)  # twice the board's mean difference (exact integers)
    m, lo, hi = mean_interval(per_board.sum(), (per_board**2).sum(), 300)
    row = table.iloc[0]
    assert (row["mean_diff"], row["diff_low"], row["diff_high"]) == pytest.approx(
        (m / 2, lo / 2, hi / 2), rel=1e-12
    )
    corr = np.corrcoef(boards[:, 0], boards[:, 1])[0, 1]
    assert table.attrs["rotation_correlation"] == pytest.approx(corr, rel=1e-9)
    assert table.attrs["manifest"]["rotation_correlation"] == pytest.approx(corr, abs=1e-6)
    r = run("compare", "expert", "greedy", "--deals", 600, "--seed", 2, "--quiet")
    assert f"rotations correlate at {corr:+.3f}" in r.output


# --- 6. three players: fair share, win rate per side ------------------------------------------
def test_three_player_compare_shows_fair_share_and_per_side_rates():
    table, _ = compare("expert", "greedy", deals=300, rules=Rules(players=3))
    assert list(table["fair_share"]) == pytest.approx([1 / 3, 2 / 3])
    b = table.iloc[1]
    assert b["win_rate_per_side"] == pytest.approx(b["wins"] / 300 / 2)
    assert table.iloc[0]["win_rate_per_side"] == table.iloc[0]["win_rate"]
    r = run("compare", "expert", "greedy", "--deals", 300, "--players", 3, "--quiet")
    assert "greedy holds 2 of the 3 sides in every deal: its fair share of wins is 66.7%" in (
        r.output
    )
    header = r.output.splitlines()[1]
    assert "  fair share  win rate per side  " in header


# --- 7. sweep ---------------------------------------------------------------------------------
def test_sweep_keeps_the_baseline_row_labelled():
    frame = sweep("expert", "pile_threshold", [4, 6], "expert:pile_threshold=6", deals=40)
    assert list(frame["baseline"]) == [False, True]
    # identical bots on the rotations of one shuffle play the same deal: difference exactly 0
    base = frame.iloc[1]
    assert (base["mean_diff"], base["diff_low"], base["diff_high"]) == (0, 0, 0)


def test_sweep_baseline_is_the_value_that_plays_as_the_opponent_at_the_player_count():
    """``pile_threshold``'s default is 6 with 4 players and 3 with 6 (docs/tune.md): the
    baseline row follows the table's player count, not the spec's text."""
    four = sweep("expert", "pile_threshold", [3, 6], "expert", deals=40)
    assert list(four["baseline"]) == [False, True]
    six = sweep("expert", "pile_threshold", [3, 6], "expert", deals=40, rules=Rules(players=6))
    assert list(six["baseline"]) == [True, False]
    assert six.iloc[0]["mean_diff"] == 0


def test_sweep_help_and_range_errors_say_what_broke():
    assert "STOP included" in " ".join(run("sweep", "--help").output.split())
    for text, needle in (
        ("2:12:0", "STEP is 0"),
        ("12:2:2", "STEP 2 leads away from STOP 2 (START 12)"),
        ("2:x:1", "'x' is not a number"),
        ("1:2", "a range has 3 parts, this one 2"),
        ("1:1000:1", "1000 values, more than 100"),
        ("1,inf", "every value must be finite"),
    ):
        with pytest.raises(ValueError, match=needle.replace("(", r"\(").replace(")", r"\)")):
            parse_range(text)
    assert parse_range(" 2 : 6 : 2 ") == [2.0, 4.0, 6.0]


def test_sweep_plot_names_the_opponent(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    titles = []
    monkeypatch.setattr(
        Figure, "savefig", lambda fig, path, **kw: titles.append(fig.axes[0].get_title())
    )
    frame = pd.DataFrame(
        {"param": ["x"], "value": [1.0], "mean_diff": [0.0], "diff_low": [-1.0], "diff_high": [1]}
    )
    frame.attrs["manifest"] = {"sweep": {"bot": "expert", "vs": "greedy"}}
    plot_sweep(frame, tmp_path / "p.png")
    assert titles == ["expert vs greedy: 95% intervals per board"]


# --- 8. merge ---------------------------------------------------------------------------------
def test_merge_of_two_halves_equals_the_whole_run(tmp_path):
    whole = tmp_path / "whole"
    assert run("simulate", "--deals", 600, "--seed", 5, "--out", whole, "--quiet").exit_code == 0
    a, b = tmp_path / "a", tmp_path / "b"
    assert run("simulate", "--deals", 250, "--seed", 5, "--out", a, "--quiet").exit_code == 0
    r = run("simulate", "--deals", 350, "--seed", 5, "--first-deal", 250, "--out", b, "--quiet")
    assert r.exit_code == 0, r.output
    r = run("merge", b, a, "--out", tmp_path / "merged")
    assert r.exit_code == 0, r.output
    assert "600 deals from 2 runs (seed 5: deals 0 to 599)" in r.output
    merged = tmp_path / "merged"
    assert (merged / "aggregates.json").read_bytes() == (whole / "aggregates.json").read_bytes()
    for name in ("deals", "sides"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(merged / f"{name}.parquet"), pd.read_parquet(whole / f"{name}.parquet")
        )
    m = json.loads((merged / "manifest.json").read_text())
    assert (m["seed"], m["first_deal"], m["deals"], m["ranges"]) == (5, 0, 600, [[5, 0, 600]])


def test_a_merge_of_two_seeds_names_each_side_rows_deal_by_deal_and_seed(tmp_path):
    # deal numbers 0-29 in both runs: only (deal, seed) tells a side row's deal
    folders = [tmp_path / "s7", tmp_path / "s8"]
    for seed, folder in zip((7, 8), folders):
        assert (
            run("simulate", "--deals", 30, "--seed", seed, "--out", folder, "--quiet").exit_code
            == 0
        )
    r = run("merge", *folders, "--out", tmp_path / "merged")
    assert r.exit_code == 0, r.output
    deals = pd.read_parquet(tmp_path / "merged" / "deals.parquet")
    sides = pd.read_parquet(tmp_path / "merged" / "sides.parquet")
    assert (len(deals), len(sides)) == (60, 120)
    assert sides["seed"].dtype == deals["seed"].dtype == np.uint64
    joined = sides.merge(deals, on=["deal", "seed"], validate="many_to_one")
    assert len(joined) == 120  # on "deal" alone: 240, each side row twice
    # each side row's seed is its deal's seed of the run it came from
    for seed, folder in zip((7, 8), folders):
        one = pd.read_parquet(folder / "sides.parquet")
        want = deal_seeds_nb(np.uint64(seed), np.int64(0), np.int64(30))
        assert (one["seed"].to_numpy() == np.repeat(want, 2)).all()
    # a deal number names no one deal of the merged folder: replay, analyse and the board ask
    # for the run folder it came from, in words that fit each of them
    from canasta_sim.run.address import deal_of_run

    said = r"merges runs with the seeds \[7, 8\]; give the run folder the deal came from instead"
    with pytest.raises(ValueError, match=said):
        deal_of_run(tmp_path / "merged", 3)


def _run_folder(tmp_path, name, *args):
    out = tmp_path / name
    r = run("simulate", "--deals", 20, "--no-records", "--out", out, "--quiet", *args)
    assert r.exit_code == 0, r.output
    return out


def test_mismatched_merges_are_usage_errors_naming_the_difference(tmp_path):
    a = _run_folder(tmp_path, "a")
    for name, args, needle in (
        ("players", ["--players", "2", "--first-deal", "20"], "differ in rules"),
        ("bots", ["--bots", "greedy", "--first-deal", "20"], "differ in bots"),
        ("overlap", ["--first-deal", "10"], "both hold deals 10 to 19 of seed 0"),
    ):
        other = _run_folder(tmp_path, name, *args)
        r = run("merge", a, other, "--out", tmp_path / f"m-{name}")
        assert r.exit_code == 2 and needle in r.output, r.output
        assert "Traceback" not in r.output
    old = _run_folder(tmp_path, "old", "--first-deal", "20")
    m = json.loads((old / "manifest.json").read_text())
    m["bots_version"] = 0
    (old / "manifest.json").write_text(json.dumps(m))
    r = run("merge", a, old, "--out", tmp_path / "m-old")
    assert r.exit_code == 2
    assert "was made with bots_version 0, this canasta-sim" in r.output
    assert f"has bots_version {BOTS_VERSION}" in r.output
    with pytest.raises(ValueError, match="different seeds or deal ranges"):
        merge_runs([a, a], tmp_path / "twice")
    assert not (tmp_path / "twice").exists()
    for one in (a, str(a)):  # a folder is not a list of folders (a str was read letter by letter)
        with pytest.raises(ValueError, match="is one folder; allowed: a list of two or more"):
            merge_runs(one, tmp_path / "one")
    r = run("report", old)  # a report of an older run warns, and is written
    assert r.exit_code == 0 and "warning:" in r.output and (old / "report.md").exists()


def test_a_merge_refusal_names_the_first_differences_briefly(tmp_path):
    """The README's mistake (the extension played the default bot, not the expert): the
    bots' parameters differ in dozens of entries, of which the refusal shows the first two
    and counts the rest, in one short line."""
    a = _run_folder(tmp_path, "a", "--players", "4", "--bots", "expert")
    other = _run_folder(tmp_path, "b", "--players", "4", "--first-deal", "20")
    r = run("merge", a, other, "--out", tmp_path / "m")
    assert r.exit_code == 2, r.output
    message = r.output.strip().splitlines()[-1]
    assert "differ in bots (" in message and " more; allowed: runs of the same rules" in message
    assert len(message) - len(str(a)) - len(str(other)) < 300, message  # the folders aside


# --- 9. messages and provenance ---------------------------------------------------------------
def test_a_full_disk_names_the_file_even_when_closing_fails_too(monkeypatch, tmp_path):
    outdir = importlib.import_module("canasta_sim.run.outdir")

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def write_table(self, table):
            raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

        close = write_table

    monkeypatch.setattr(outdir.pq, "ParquetWriter", FullDisk)
    out = tmp_path.resolve() / "run"
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--quiet", "--out", str(out)])
    assert r.exit_code == 1
    assert r.output.endswith(f"No space left on device: {out / 'deals.parquet'}\n")


def test_manifest_has_git_commit_kernel_digest_and_numeric_workers(tmp_path):
    from canasta_sim.nb import kernel_digest
    from canasta_sim.run.outdir import git_commit

    git_commit.cache_clear()  # asked at a process's first run, then remembered (below)
    result = simulate(10, records=False, workers=1)
    m = result.manifest
    assert m["kernel_digest"] == kernel_digest() and len(m["kernel_digest"]) == 12
    assert (m["workers"], m["threads_per_worker"], m["scheduler"]) == (1, 1, None)
    here = Path(__file__).parent
    head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True)
    if head.returncode == 0:
        assert m["git_commit"].split("+")[0] == head.stdout.decode().strip()


def test_a_later_run_asks_git_nothing(monkeypatch):
    from canasta_sim.run import outdir

    first = simulate(10, records=False, workers=1).manifest["git_commit"]

    def no_git(*args, **kwargs):
        raise AssertionError(f"git asked again: {args}")

    monkeypatch.setattr(outdir.subprocess, "run", no_git)
    assert simulate(10, records=False, workers=1).manifest["git_commit"] == first


def test_progress_in_a_log_is_a_line_every_few_seconds(monkeypatch):
    clock = iter(range(0, 1000, 2))  # each call 2 s later
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    log = io.StringIO()
    with Progress(1_000, "deal", True, stream=log) as bar:
        for done in range(100, 1_001, 100):
            bar.update(done)
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    # updates at 2, 4, ..., 20 s: a line when 5 s have passed since the last (6, 12, 18 s)
    assert lines == [
        "300 of 1,000 deals (30.0%), 6 s, about 14 s left",
        "600 of 1,000 deals (60.0%), 12 s, about 8 s left",
        "900 of 1,000 deals (90.0%), 18 s, about 2 s left",
    ]


def test_an_unwritable_numba_cache_dir_warns_and_is_not_used(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = "import canasta_sim.nb, numba; print(numba.config.CACHE_DIR)"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(blocker / "cache")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"NUMBA_CACHE_DIR={str(blocker / 'cache')!r} cannot be written" in done.stderr
    assert not done.stdout.strip().startswith(str(blocker))
    assert "kernels-" in done.stdout


@pytest.mark.slow
def test_ctrl_c_of_a_dask_run_prints_one_line(tmp_path):
    """Ctrl-C in a terminal signals the whole process group (the Dask workers too)."""
    pytest.importorskip("distributed")
    start = (
        "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "runpy.run_module('canasta_sim', run_name='__main__')"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", start, "simulate", "--deals", "100000000", "--scheduler"]
        + ["local:2", "--chunk-size", "20000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    first = proc.stderr.readline()  # the first progress line: the cluster is up and playing
    assert " of 100,000,000 deals " in first, first
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=120) == 130
    rest = [line for line in proc.stderr.read().splitlines() if " of 100,000,000 " not in line]
    assert rest == ["Interrupted."]
