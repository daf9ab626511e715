"""The batch simulator: reproducibility, records, aggregates, results folders."""

import importlib
import io
import json
import os
import socket
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from canasta_sim import Deal, Rules
from canasta_sim._version import BOTS_VERSION
from canasta_sim.results.aggregate import Aggregates
from canasta_sim.run.outdir import prepare_out
from canasta_sim.run.simulate import simulate


def _parquet_bytes(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    return buf.getvalue()


def test_same_seed_same_frames_for_any_workers_and_chunks():
    a = simulate(3000, seed=11, workers=1, chunk_size=3000)
    b = simulate(3000, seed=11, workers=2, chunk_size=701)
    for name in ("deals", "sides"):
        fa, fb = getattr(a, name), getattr(b, name)
        pd.testing.assert_frame_equal(fa, fb)
        assert _parquet_bytes(fa) == _parquet_bytes(fb)
    for key, value in a.aggregates.counts.items():
        assert (value == b.aggregates.counts[key]).all(), key


def test_different_seeds_differ():
    a = simulate(200, seed=1)
    b = simulate(200, seed=2)
    assert not a.sides["score"].equals(b.sides["score"])


def test_replayed_deal_matches_its_record():
    rules = Rules(players=3)
    run = simulate(40, rules=rules, seed=99, bots="greedy")
    for k in (0, 17, 39):
        deal = Deal.new(rules, 99, deal=k, dealer=k % 3)
        deal.play_out("greedy")
        scores = deal.score()
        rows = run.sides[run.sides["deal"] == k]
        assert list(rows["score"]) == [scores[s]["total"] for s in range(3)]
        assert run.deals.loc[k, "turns"] == deal.turns
        assert run.deals.loc[k, "end_reason"] == deal.end_reason


def test_records_are_consistent():
    run = simulate(2000, rules=Rules(players=4), seed=5)
    d, s = run.deals, run.sides
    assert len(d) == 2000 and len(s) == 4000
    assert (
        s["red_threes"] == s["red_threes_dealt"] + s["red_threes_drawn"] + s["red_threes_from_pile"]
    ).all()
    total = (
        s["red_three_score"].astype(int)
        + s["canasta_bonus"]
        + s["going_out_bonus"]
        + s["meld_points"]
        - s["hand_penalty"]
    )
    assert (total == s["score"]).all()
    # every deal's red threes: 4 in a 108-card pack at most, all sides together
    assert (s.groupby("deal")["red_threes"].sum() <= 4).all()
    went = d["end_reason"] == "went_out"
    assert (d.loc[went, "went_out_seat"] >= 0).all()
    assert (d.loc[~went, "went_out_seat"] == -1).all()
    # the going-out side is the seat's side, R-10
    out_side = s[s["went_out"]].set_index("deal")["side"]
    assert (out_side == d.loc[out_side.index, "went_out_seat"] % 2).all()
    # compact dtypes: a side row is its kernel row (64 bytes) with deal and seed (8 each),
    # side and bot (1 each): 82; half a deal row is (10 + deal 8 + seed 8 + players 1 + 4 seats'
    # bots 1) / 2 = 15.5; the categories' labels and the indexes add under a byte a row
    per_row = (d.memory_usage(deep=True).sum() + s.memory_usage(deep=True).sum()) / len(s)
    assert 97.5 <= per_row < 98.5


def test_aggregates_match_records_and_merge_exactly():
    run = simulate(1500, seed=3, chunk_size=400)
    s = run.sides
    c = run.aggregates.counts
    assert c["deals"][0] == 1500
    assert c["score_sum"].sum() == s["score"].astype(np.int64).sum()
    for side in (0, 1):
        hist = np.bincount(s.loc[s["side"] == side, "red_threes"], minlength=16)
        assert (c["red_threes"][side] == hist).all()
    again = Aggregates.from_json(run.aggregates.to_json())
    for key in c:
        assert (again.counts[key] == c[key]).all()


def test_no_records_keeps_aggregates_only(tmp_path):
    full = simulate(600, seed=8)
    lean = simulate(600, seed=8, records=False, out=tmp_path / "run")
    assert lean.deals is None and lean.sides is None
    for key, value in full.aggregates.counts.items():
        assert (value == lean.aggregates.counts[key]).all()
    files = sorted(p.name for p in (tmp_path / "run").iterdir())
    assert files == ["aggregates.json", "manifest.json", "summary.json"]


def test_out_folder_is_complete(tmp_path):
    out = tmp_path / "run"
    run = simulate(500, seed=4, out=out, chunk_size=120)
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "aggregates.json",
        "deals.parquet",
        "manifest.json",
        "sides.parquet",
        "summary.json",
    ]
    assert pq.read_table(out / "deals.parquet").num_rows == 500
    sides = pd.read_parquet(out / "sides.parquet")
    pd.testing.assert_frame_equal(sides, run.sides, check_categorical=False)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 4 and manifest["deals"] == 500
    assert manifest["rules"] == Rules().to_dict()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_out_folder_refused_when_it_exists(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    with pytest.raises(ValueError, match="already exists"):
        simulate(10, out=out)
    simulate(10, out=out, overwrite=True)
    assert (out / "manifest.json").exists()


def test_interrupted_run_leaves_no_new_folder(tmp_path, monkeypatch):
    """KeyboardInterrupt after the first of two chunks was written: the staging folder and
    the parent folders the run created go; a folder that existed before stays."""
    simulate_module = importlib.import_module("canasta_sim.run.simulate")
    played = []

    def first_chunk_then_interrupt(*args):
        if played:
            raise KeyboardInterrupt
        played.append(args[2])
        return real_chunk_rows(*args)

    real_chunk_rows = simulate_module.chunk_rows
    monkeypatch.setattr(simulate_module, "chunk_rows", first_chunk_then_interrupt)
    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(KeyboardInterrupt):
        simulate(20, chunk_size=10, out=tmp_path / "results" / "a" / "run")
    assert played == [0]
    played.clear()
    with pytest.raises(KeyboardInterrupt):
        simulate(20, chunk_size=10, out=kept / "b" / "run")
    assert played == [0]
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]
    assert list(kept.iterdir()) == []


def test_prepare_out_checks_without_creating_folders(tmp_path):
    target = prepare_out(tmp_path / "a" / "b" / "run", overwrite=False)
    assert target.path == tmp_path / "a" / "b" / "run" and target.replaces is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(deals=0), "deals=0"),
        (dict(deals=-5), "deals=-5"),
        (dict(deals=2.5), "deals=2.5"),
        (dict(deals=10, seed=-1), "seed=-1"),
        (dict(deals=10, bots="champion"), "champion"),
        (dict(deals=10, rules="bridge"), "bridge"),
        (dict(deals=10, workers=0), "workers=0"),
    ],
)
def test_bad_arguments_name_the_value(bad, match):
    with pytest.raises(ValueError, match=match):
        simulate(**bad)


def test_simulation_result_repr_is_one_short_line(tmp_path):
    run = simulate(30, bots="greedy,random", seed=4, out=tmp_path / "run")
    run.manifest["wall_seconds"] = 0.25  # measured; fixed here for the exact text
    folder = str((tmp_path / "run").resolve())
    assert repr(run) == (
        f"SimulationResult(deals=30, players=4, bots=['greedy', 'random'], "
        f"seed=4, folder={folder!r}, wall_seconds=0.25)"
    )
    lean = simulate(12, rules=Rules(players=3), bots="random", seed=9, records=False)
    lean.manifest["wall_seconds"] = 1.5
    assert repr(lean) == (
        "SimulationResult(deals=12, players=3, bots=['random', 'random', "
        "'random'], seed=9, wall_seconds=1.5)"
    )


def _dead_pid() -> int:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


def test_a_run_removes_staging_folders_of_dead_processes_only(tmp_path):
    """A run killed outright (kill -9) leaves its staging folder; the next run writing into
    the same folder removes it, and nothing that may belong to a live run or to anyone else."""
    host, dead = socket.gethostname(), _dead_pid()
    stale = tmp_path / f".old.canasta-sim-{host}-{dead}-ab12cd_3"
    stale.mkdir()
    (stale / "deals.parquet").write_text("half written")
    kept = [
        f".old.canasta-sim-{host}-{os.getpid()}-ab12cd_3",  # a live process
        f".old.canasta-sim-not-{host}-{dead}-ab12cd_3",  # another host's process
        f"old.canasta-sim-{host}-{dead}-ab12cd_3",  # not hidden: not a staging name
        f".old.canasta-sim-{host}-{dead}-ab12cd_3.keep",
        f".old.canasta-sim-{host}-x{dead}-ab12cd_3",
    ]
    for name in kept:
        (tmp_path / name).mkdir()
    (tmp_path / f".file.canasta-sim-{host}-{dead}-ab12cd_3").write_text("a file, not a folder")
    kept.append(f".file.canasta-sim-{host}-{dead}-ab12cd_3")
    simulate(10, out=tmp_path / "run")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept + ["run"])


def test_the_summary_and_the_report_name_the_policy(tmp_path):
    """The statistics describe the play of the run's bots: ``summary()``, its printed table and
    ``report.md`` name them, per side when the sides differ, with the bots version."""
    from canasta_sim.results.report import write_report
    from canasta_sim.results.stats import format_summary

    run = simulate(40, seats="expert,careful,expert,greedy", seed=2, out=tmp_path / "run")
    policy = f"side 0: expert, side 1: careful/greedy (bots version {BOTS_VERSION})"
    assert run.summary().attrs["policy"] == policy
    assert format_summary(run.summary()).splitlines()[0] == f"statistics of the play of {policy}"
    report = write_report(tmp_path / "run").read_text()
    assert f"Statistics of the play of {policy}:" in report
    alone = simulate(40, bots="expert", seed=2, rules=Rules(players=6), records=False)
    assert alone.summary().attrs["policy"] == f"expert on every seat (bots version {BOTS_VERSION})"
    mixed = simulate(40, seats="expert,expert,careful,careful", seed=2, records=False)
    # seats 0 and 2 make side 0: each side's seats play expert then careful
    assert mixed.summary().attrs["policy"] == (
        f"expert/careful on each side (bots version {BOTS_VERSION})"
    )


def test_summary_json_names_the_policy_beside_the_statistics(tmp_path):
    """``summary.json`` says whose play its statistics describe, as ``summary()`` and the
    report do: the policy label, the bots of each side and the bots version."""
    run = simulate(40, seats="expert,careful,expert,greedy", seed=2, out=tmp_path / "run")
    written = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert (
        written["policy"] == f"side 0: expert, side 1: careful/greedy (bots version {BOTS_VERSION})"
    )
    assert written["bots_version"] == BOTS_VERSION
    assert written["bots"] == json.loads((tmp_path / "run" / "manifest.json").read_text())["bots"]
    rows = pd.DataFrame(written["statistics"])
    assert list(rows.columns) == list(run.summary().columns)
    assert len(rows) == len(run.summary())
    dealt = rows[rows["statistic"] == "red threes dealt per side per deal"]
    assert dealt["exact"].iloc[0] == pytest.approx(4 * 22 / 108)  # 4 red threes, 22 of 108 cards


def _played(k):
    """A chunk function of the test below: its input, the numba threads it ran with."""
    import numba

    return k, numba.get_num_threads()


def test_chunks_finish_here_one_chunk_ahead():
    """map_chunks with `then`: every chunk once, in order, finished as then(args, fn(*args)),
    with the numba threads asked for (a thread-local setting) and at most two chunks in
    flight (one finishing, the next playing)."""
    from canasta_sim.run.runner import map_chunks

    finished = []

    def chunks():
        for k in range(7):
            assert len(finished) >= k - 1  # chunk k is asked for only once k - 2 is done
            yield (k,)

    def then(args, played):
        finished.append(args[0])
        return played

    with map_chunks(_played, chunks(), workers=1, then=then) as (results, how):
        out = list(results)
    assert out == [((k,), (k, 1)) for k in range(7)]
    assert finished == list(range(7))
    assert how["workers"] == 1
