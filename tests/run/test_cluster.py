"""Dask: the same results as a single-machine run, and no deal lost or counted twice when a
worker dies."""

import os
import re
import signal
import sys
import threading
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.run.cluster import parse_scheduler
from canasta_sim.run.simulate import simulate

distributed = pytest.importorskip("distributed")


def test_local_cluster_equals_single_machine(tmp_path):
    local = simulate(20_000, seed=17, bots="greedy,random")
    out = tmp_path / "run"
    dask = simulate(
        20_000,
        seed=17,
        bots="greedy,random",
        scheduler="local:2",
        chunk_size=2_500,
        out=out,
        parts=True,
    )
    pd.testing.assert_frame_equal(local.summary(), dask.summary())
    for key, value in local.aggregates.counts.items():
        assert (value == dask.aggregates.counts[key]).all(), key
    # the workers wrote the records; the result reads them from the folder, in deal order
    pd.testing.assert_frame_equal(dask.deals, local.deals, check_categorical=False)
    deals = pd.read_parquet(out / "deals.parquet").sort_values("deal", ignore_index=True)
    sides = pd.read_parquet(out / "sides.parquet").sort_values(["deal", "side"], ignore_index=True)
    pd.testing.assert_frame_equal(deals, local.deals, check_categorical=False)
    pd.testing.assert_frame_equal(sides, local.sides, check_categorical=False)
    assert len(list((out / "deals.parquet").iterdir())) == 8  # one part per chunk


def test_records_returned_to_the_client():
    local = simulate(3_000, seed=2)
    dask = simulate(3_000, seed=2, scheduler="local:2", chunk_size=1_000)
    pd.testing.assert_frame_equal(local.sides, dask.sides)


def test_lost_worker_loses_no_deal():
    deals, chunk = 24_000, 500
    local = simulate(deals, seed=5)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = {}
        run = threading.Thread(
            target=lambda: result.update(
                r=simulate(
                    deals, seed=5, scheduler=cluster.scheduler_address, chunk_size=chunk, workers=1
                )
            )
        )
        run.start()
        deadline = time.time() + 120
        while not any(client.processing().values()) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # let some chunks finish, then kill a worker mid-run
        pids = client.run(os.getpid)
        assert "r" not in result and run.is_alive(), "the run ended before the kill"
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        run.join(timeout=600)
    assert "r" in result, "the run did not complete"
    agg = result["r"].aggregates
    assert agg.n_deals == deals
    pd.testing.assert_frame_equal(result["r"].sides, local.sides)
    for key, value in local.aggregates.counts.items():
        assert (value == agg.counts[key]).all(), key


def test_scheduler_without_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--scheduler", "local:2"])
    assert r.exit_code == 2
    assert 'pip install -e ".[dask]"' in r.output  # installed from a checkout (README)
    with pytest.raises(ValueError, match=re.escape('pip install -e ".[dask]"')):
        simulate(10, scheduler="local:2")


@pytest.mark.parametrize("bad", ["local:0", "local:x", "cluster", "local:9"])
def test_bad_scheduler_is_a_usage_error(bad, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # local:N allows N from 1 to 8
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--scheduler", bad])
    assert r.exit_code == 2 and bad in r.output and "Traceback" not in r.output


def test_local_workers_bounded_by_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    with pytest.raises(ValueError, match="N from 1 to 12 worker processes"):
        parse_scheduler("local:13")
    assert parse_scheduler("local:12") == ("local", 12)
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--scheduler", "local:13"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "'local:13'" in r.output and "N from 1 to 12" in r.output
    with pytest.raises(ValueError, match="N from 1 to 12 worker processes"):
        simulate(10, scheduler="local:100000")
