"""``canasta-sim train`` (issue 26 items 4 and 6, issue 41's reproducible training): its stages
run from a seed, a killed labelling stage resumes by making only its missing shards and gives
the same shards as a run never killed, two rebuilds from one seed give the same weights, stages
done are skipped, a count stops when its judge finds no gain, and bad options are usage
errors."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import canasta_sim.learn.pipeline as pipeline
import canasta_sim.learn.train_folder as train_folder
from canasta_sim.cli import main
from canasta_sim.players.weights import PARTS, VALUE_PARTS, default_weights_path, load_value

sklearn = pytest.importorskip("sklearn")
threadpoolctl = pytest.importorskip("threadpoolctl")

#: The trainer's label kernels are not in the warm-up: compiled once per run (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("label_kernels")

#: Tiny sizes: 3 four-player shards in stages of at most 2 shards (label_4p_1: shard 0,
#: label_4p_2: shards 1 and 2), 2 shards of every other count (one stage each); no
#: fine-tuning on outcomes (its stages: tests/learn/test_finetune.py).
NO_OUTCOMES = [f"--outcome-rounds-{p}p=0" for p in (2, 3, 4, 6)]
TINY = [
    "--shards-2p", "2", "--shards-3p", "2", "--shards-4p", "3", "--shards-6p", "2",
    "--stage-shards", "2", "--deals", "1", "--worlds", "2", "--every", "2",
    "--judge-deals", "6", *NO_OUTCOMES,
]  # fmt: skip

#: Round 1's stages in the order the recipe runs them: per count (2, 6, 3 players, 4 last)
#: its labels, its fit and its judge (docs/learned.md, "Train your own").
ROUND1 = [
    "label_2p", "fit_2p", "judge_2p", "label_6p", "fit_6p", "judge_6p",
    "label_3p", "fit_3p", "judge_3p", "label_4p_1", "label_4p_2", "fit_4p", "judge_4p",
]  # fmt: skip

BOTH = ("classic", "hoyle")


def _train(out, *args):
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY, *args])
    assert r.exit_code == 0, r.output
    return r.output


def _arrays(folder):
    """The weight arrays (network and value output) of the four files of ``folder``."""
    out = {}
    for players in (2, 3, 4, 6):
        with np.load(folder / f"apprentice_{players}p.npz") as z:
            out[players] = {k: z[k].tobytes() for k in [*PARTS, *VALUE_PARTS]}
    return out


def _shard(path):
    """A shard's arrays as bytes, the positions field by field (a record's padding bytes are
    not part of its content), but the hash of the rollout apprentice's file: a weight file's
    bytes hold its fit's wall time and the times its zip was written."""
    with np.load(path) as z:
        out = {k: z[k].tobytes() for k in z if k not in ("positions", "rollout_weights")}
        out |= {f: z["positions"][f].tobytes() for f in z["positions"].dtype.names}
    return out


def _stages(output, k):
    """The stage names of round ``k`` in the order the command ran them."""
    head = f"round {k} "
    return [
        line[len(head) :].split(":")[0] for line in output.splitlines() if line.startswith(head)
    ]


def _judge_gains(out, k, players, plan, threads=1, scheduler=None):
    """A judge that finds every new file better than its rival, by rule (no deal played)."""
    return {"deals": 6, "seed": plan.seed + 40, "against": pipeline.rival(out, k, players, plan),
            "mean_diff": 1.0, "diff_low": 0.5, "diff_high": 2.0, "gains": True}  # fmt: skip


def test_train_stages_resume_skip_and_repeat(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "judge_count", _judge_gains)
    a = tmp_path / "a"
    out = _train(a, "--rounds", "1", "--seed", "7")
    assert _stages(out, 1) == ROUND1
    r1 = a / "round_1"
    assert {p.name for p in r1.glob("*.done")} == {f"{s}.done" for s in ROUND1}
    marker = json.loads((r1 / "label_2p.done").read_text())
    assert marker["seconds"] >= 0 and len(marker["load_start"]) == 3 and marker["recipe"] == 5
    # each count's labels: seed 7 + 7000 + its offset, pimc rolling out version 8's apprentice
    for name, players, seed, made in (
        ("label_2p", 2, 7009, [0, 2]),
        ("label_6p", 6, 7013, [0, 2]),
        ("label_3p", 3, 7010, [0, 2]),
        ("label_4p_1", 4, 7008, [0, 1]),
        ("label_4p_2", 4, 7008, [1, 3]),
    ):
        done = json.loads((r1 / f"{name}.done").read_text())
        plan = done["plan"]
        assert (plan["players"], plan["seed"], plan["presets"]) == ([players], seed, list(BOTH))
        assert (plan["search"], done["shards_made"]) == ("pimc:rollout=apprentice@8,top=4", made)
        with np.load(r1 / f"labels_{players}p" / "shard_00001.npz") as z:
            assert int(z["players"]) == players and str(z["preset"]) == "hoyle"
            assert str(z["search"]) == "pimc:top=4,rollout=apprentice@8"  # the spec, parsed
    assert len(list((r1 / "labels_4p").glob("shard_*.npz"))) == 3
    # each count is fitted on its own labels, and the report names what the fit's arithmetic
    # depends on: NumPy's BLAS and its kernel
    fit3 = json.loads((r1 / "fit_3p.json").read_text())
    blas = next(i for i in threadpoolctl.threadpool_info() if "numpy" in i.get("filepath", ""))
    assert fit3["library"] == {
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "blas": f"{blas['internal_api']} {blas['version']} {blas['architecture']}",
    }
    assert fit3["folders"] == ["round_1/labels_3p"]
    # the labels keep each deal's outcome: a value output beside the network, its error
    # reported on the held-out decisions; the training mean misses them by at least their
    # spread, so R² (against that spread) is at most 1 - (rmse / rmse_mean)²
    value = fit3["value"]
    assert set(value) == {"rmse", "rmse_mean", "r2"} and value["rmse"] > 0
    assert value["r2"] <= 1 - (value["rmse"] / value["rmse_mean"]) ** 2 + 1e-3
    assert np.isfinite(load_value(str(r1 / "weights" / "apprentice_3p.npz"))).all()
    # round 1's judges play against the start
    assert json.loads((r1 / "judge_4p.json").read_text())["against"] == "apprentice@8"
    # killed in label_4p_2 while writing shard 2: shard 1 whole, shard 2 a partial temporary
    # file, and nothing of the stages after it
    shard1, shard2 = (r1 / "labels_4p" / f"shard_0000{i}.npz" for i in (1, 2))
    stamp = shard1.stat().st_mtime_ns
    shard2.unlink()
    shard2.with_name(shard2.name + ".tmp").write_bytes(b"half a shard")
    for made in ("label_4p_2.done", "fit_4p.done", "fit_4p.json", "judge_4p.done",
                 "judge_4p.json", "weights/apprentice_4p.npz"):  # fmt: skip
        (r1 / made).unlink()
    out = _train(a, "--rounds", "2", "--seed", "7")
    more = "(and the stages of rounds their judges have yet to decide)"
    assert f"resuming {a}: 10 of 13 {more} stages already done" in out
    assert "round 1 label_4p_1: done before" in out and "round 1 fit_3p: done before" in out
    assert (
        "round 1 label_4p_2: resuming, 1 of 2 shards already done (1 to 2), seed 7008, "
        "pimc:rollout=apprentice@8,top=4" in out
    )
    assert shard1.stat().st_mtime_ns == stamp and shard2.exists()
    assert not shard2.with_name(shard2.name + ".tmp").exists()
    # round 2 labels every count again rolling out round 1's apprentice (seeds 10 on), fits
    # on both rounds and judges the new file against round 1's
    assert _stages(out, 2) == ROUND1
    r2 = a / "round_2"
    with np.load(r2 / "labels_4p" / "shard_00000.npz") as z:
        assert str(z["search"]) == "pimc:top=4,rollout=apprentice" and str(z["rollout_weights"])
    assert json.loads((r2 / "label_2p.done").read_text())["plan"]["seed"] == 7019
    assert json.loads((r2 / "fit_2p.json").read_text())["folders"] == [
        "round_1/labels_2p",
        "round_2/labels_2p",
    ]
    judge = json.loads((r2 / "judge_6p.json").read_text())
    assert judge["against"] == f"apprentice:weights={r1 / 'weights' / 'apprentice_6p.npz'}"
    kept = json.loads((a / "weights" / "kept.json").read_text())
    assert {p: v["round"] for p, v in kept.items()} == {"2": 2, "3": 2, "4": 2, "6": 2}
    # a third run finds every stage done and changes no file
    files = {p: p.stat().st_mtime_ns for p in r1.rglob("*") if p.is_file()}
    out = _train(a, "--rounds", "2", "--seed", "7")
    assert f"resuming {a}: 26 of 26 stages already done" in out
    assert len(_stages(out, 1)) == 13 and "shards" not in out
    assert files == {p: p.stat().st_mtime_ns for p in r1.rglob("*") if p.is_file()}
    # a run never killed, its shards labelled on a local Dask cluster, makes the same shards
    # and the same weights in every round
    b = tmp_path / "b"
    assert "weights:" in _train(b, "--rounds", "2", "--seed", "7", "--scheduler", "local:1")
    for r in (1, 2):
        for path in sorted((a / f"round_{r}").glob("labels_*/shard_*.npz")):
            assert _shard(path) == _shard(b / path.relative_to(a)), path
        assert _arrays(a / f"round_{r}" / "weights") == _arrays(b / f"round_{r}" / "weights")


def test_a_count_stops_when_its_judge_finds_no_gain(tmp_path, monkeypatch):
    """With judges that find a gain at 2, 3 and 6 players in round 1, at 3 and 6 in round 2
    and at 6 in round 3 only, 4 players keeps the start's file (version 8's), round 3 labels
    only 6 and 3 players, and weights/ holds round 1's file at 2 players, round 2's at 3 and
    round 3's at 6."""
    gains = {(1, 2), (1, 3), (1, 6), (2, 3), (2, 6), (3, 6)}

    def judge(out, k, players, plan, threads=1, scheduler=None):
        up = (k, players) in gains
        return {"deals": 6, "seed": 47, "against": pipeline.rival(out, k, players, plan),
                "mean_diff": 1.0 if up else -1.0, "diff_low": 0.5 if up else -2.0,
                "diff_high": 2.0, "gains": up}  # fmt: skip

    monkeypatch.setattr(pipeline, "judge_count", judge)
    out = _train(tmp_path / "t", "--rounds", "3", "--seed", "7")
    assert "-1.0 [-2.0, +2.0] points a deal over 6 deals: apprentice@8 kept, 4 players stop" in out
    assert _stages(out, 3) == ["label_6p", "fit_6p", "judge_6p", "label_3p", "fit_3p", "judge_3p"]
    assert "+1.0 [+0.5, +2.0] points a deal over 6 deals: round 3 kept" in out
    r3 = tmp_path / "t" / "round_3"
    assert not (r3 / "labels_4p").exists() and not (r3 / "labels_2p").exists()
    kept = json.loads((tmp_path / "t" / "weights" / "kept.json").read_text())
    assert {p: v["round"] for p, v in kept.items()} == {"2": 1, "3": 2, "4": 0, "6": 3}
    assert kept["3"]["stopped_by"]["mean_diff"] == -1.0 and kept["6"]["stopped_by"] is None
    assert kept["4"]["stopped_by"]["against"] == "apprentice@8"
    for players, k in ((2, 1), (3, 2), (6, 3)):
        name = f"apprentice_{players}p.npz"
        got = (tmp_path / "t" / "weights" / name).read_bytes()
        assert got == (tmp_path / "t" / f"round_{k}" / "weights" / name).read_bytes()
    got = (tmp_path / "t" / "weights" / "apprentice_4p.npz").read_bytes()
    assert got == default_weights_path(4, "apprentice8").read_bytes()
    # a fourth round has nothing left but 6 players; with none left the run ends early
    gains.clear()
    out = _train(tmp_path / "t", "--rounds", "5", "--seed", "7")
    assert _stages(out, 4) == ["label_6p", "fit_6p", "judge_6p"]
    assert "round 5: no player count improves any more, training ends" in out


def test_the_judge_plays_the_new_file_against_the_start_then_the_round_before(tmp_path):
    """A real judge of 6 deals (3 players: 2 seat rotations of 3 sides) of seed 7 + 40: round
    1's file (here the shipped one) against ``apprentice@8``, round 2's against round 1's."""
    from canasta_sim.learn.pipeline import judge_count
    from canasta_sim.learn.plan import TrainPlan, weights_dir

    plan = TrainPlan(seed=7, judge_deals=6)
    for k in (1, 2):
        weights_dir(tmp_path, k).mkdir(parents=True)
        shutil.copy(default_weights_path(3), weights_dir(tmp_path, k) / "apprentice_3p.npz")
    for k, against in (
        (1, "apprentice@8"),
        (2, f"apprentice:weights={weights_dir(tmp_path, 1) / 'apprentice_3p.npz'}"),
    ):
        j = judge_count(tmp_path, k, 3, plan)
        assert (j["deals"], j["seed"], j["against"]) == (6, 47, against)
        assert j["diff_low"] <= j["mean_diff"] <= j["diff_high"]
        assert j["gains"] == (j["diff_low"] > 0)
    # the same file on both sides of duplicate deals: every deal even
    assert (j["mean_diff"], j["gains"]) == (0.0, False)


def test_the_default_is_bots_version_9s_recipe():
    """At seed 0 the defaults are the plans of the shipped files (bots version 9: the reports
    in canasta_sim/data/apprentice_{P}p.npz): per count 20 deals a shard, classic and hoyle, 32
    worlds, one decision in 3, pimc with top=4 rolling out version 8's apprentice, seeds
    7002, 7003, 7001 and 7006, 600, 400, 1,000 and 400 shards, one round, fits of seed 0; the
    labelling stages hold at most 500 shards (a half-hour on two cores); round 2 would roll
    out round 1's files at seeds 10 higher."""
    from canasta_sim.learn.plan import TrainPlan, weights_dir
    from canasta_sim.learn.shards import LabelPlan

    plan = TrainPlan()
    assert (plan.seed, plan.rounds, plan.start, plan.judge_deals) == (0, 1, "apprentice@8", 100_000)
    spec = "pimc:rollout=apprentice@8,top=4"
    for players, seed, shards in ((2, 7002, 600), (3, 7003, 400), (4, 7001, 1000), (6, 7006, 400)):
        want = LabelPlan(seed, 20, (players,), BOTH, 32, 3, search=spec)
        assert (plan.label_plan(Path("o"), 1, players), plan.shards(players)) == (want, shards)
    assert plan.label_stages(4) == [("label_4p_1", 0, 500), ("label_4p_2", 500, 1000)]
    assert plan.label_stages(2) == [("label_2p_1", 0, 300), ("label_2p_2", 300, 600)]
    assert plan.label_stages(3) == [("label_3p", 0, 400)]
    later = plan.label_plan(Path("o"), 2, 6)
    assert (later.seed, later.search, later.weights) == (
        7016,
        "pimc:rollout=apprentice,top=4",
        str(weights_dir(Path("o"), 1)),
    )


def test_a_start_from_the_expert_labels_with_its_rollouts_and_judges_from_round_2():
    """``--start expert``: round 1 labels with pimc's expert rollouts and has no judge (no file
    before it); round 2 judges."""
    from canasta_sim.learn.pipeline import round_stages
    from canasta_sim.learn.plan import TrainPlan

    plan = TrainPlan(start="expert", rounds=2, shards_4p=2, shards_2p=2, stage_shards=2)
    assert plan.label_plan(Path("o"), 1, 4).search == "pimc:top=4"
    stages = round_stages(Path("o"), plan, 1)
    assert stages[:2] == ("label_2p", "fit_2p") and not [s for s in stages if "judge" in s]


def test_a_folder_of_the_old_recipe_is_not_resumed(tmp_path):
    """A training folder of bots version 8's recipe (recipe 3: round 1 from the expert's
    rollouts, stages label_236 ...) is a usage error of --out, and nothing is labelled into it."""
    out = tmp_path / "old"
    out.mkdir()
    (out / "plan.json").write_text(json.dumps({"seed": 1, "rounds": 2, "recipe": 3}))
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and "recipe 3" in text, text
    assert not (out / "round_1").exists()


def test_train_refuses_a_folder_of_other_files_fewer_rounds_and_an_unwritable_folder(tmp_path):
    """A folder holding other files (a simulate run's, say) is not trained into; a folder run
    to 3 rounds is not rerun with 2 (its weights/ follow the judges of all 3); a folder that
    cannot be made is a usage error of --out, not a crash."""
    from dataclasses import asdict

    from canasta_sim.learn.plan import TrainPlan
    from canasta_sim.learn.train_folder import RECIPE

    other = tmp_path / "run"
    other.mkdir()
    (other / "manifest.json").write_text("{}")
    r = CliRunner().invoke(main, ["train", "--out", str(other), "--quiet", *TINY])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and "is not a training folder" in text, text
    assert sorted(p.name for p in other.iterdir()) == ["manifest.json"]
    done = tmp_path / "done"
    done.mkdir()
    plan = TrainPlan(rounds=3, shards_2p=2, shards_3p=2, shards_4p=3, shards_6p=2,
                     stage_shards=2, deals=1, worlds=2, every=2, judge_deals=6,
                     **{f"outcome_rounds_{p}p": 0 for p in (2, 3, 4, 6)})  # fmt: skip
    (done / "plan.json").write_text(json.dumps({**asdict(plan), "recipe": RECIPE}))
    r = CliRunner().invoke(main, ["train", "--out", str(done), "--quiet", *TINY, "--rounds", "2"])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--rounds" in text and "rounds=2" in text, text
    assert "run to rounds=3" in text and not (done / "round_1").exists()
    r = CliRunner().invoke(main, ["train", "--out", "/proc/nowhere", "--quiet", *TINY])
    assert r.exit_code == 2 and "cannot be made" in r.output, r.output


@pytest.mark.parametrize(
    "args, option",
    [
        (["--rounds", "-1"], "--rounds"),
        (["--rounds", "16"], "--rounds"),
        (["--shards-2p", "1"], "--shards-2p"),
        (["--shards-4p", "0"], "--shards-4p"),
        (["--stage-shards", "0"], "--stage-shards"),
        (["--start", "apprentice@7"], "--start"),
        (["--threads", "0"], "--threads"),
        (["--worlds", "x"], "--worlds"),
        (["--scheduler", "nowhere"], "--scheduler"),
    ],
)
def test_train_bad_options_are_usage_errors(tmp_path, args, option):
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), *args])
    assert r.exit_code == 2 and option in r.output, r.output
    assert not (tmp_path / "o").exists()


def test_threads_above_the_cores_name_threads_and_the_help_says_the_cap(tmp_path):
    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), "--threads", cores + 1])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--workers" not in text, text
    assert f"Invalid value for '--threads': {cores + 1} is more than the {cores} cores" in text
    assert not (tmp_path / "o").exists()
    help_text = " ".join(CliRunner().invoke(main, ["train", "--help"]).output.split())
    assert "--threads INTEGER RANGE Threads labelling shards side by side, at most this " in (
        help_text
    )
    assert "machine's cores" in help_text


def test_ctrl_c_in_a_fit_exits_130_and_a_rerun_keeps_the_plan(tmp_path, monkeypatch):
    """Ctrl-C (a real SIGINT) during the first fit: exit code 130, no ``fit_2p.done``, no weight
    file (scikit-learn's own catch would keep the half-fitted network). A rerun with another
    seed, shard count or start is a usage error naming the option and both values; with the
    same options it resumes after the labels."""
    import os
    import signal

    from sklearn.neural_network import MLPRegressor

    epoch = MLPRegressor._update_no_improvement_count

    def interrupted(self, *args):
        os.kill(os.getpid(), signal.SIGINT)
        return epoch(self, *args)

    monkeypatch.setattr(pipeline, "judge_count", _judge_gains)
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(MLPRegressor, "_update_no_improvement_count", interrupted)
        r = CliRunner().invoke(
            main, ["train", "--out", str(out), "--quiet", "--rounds", "1", *TINY]
        )
    assert r.exit_code == 130, r.output
    r1 = out / "round_1"
    assert (r1 / "label_2p.done").exists() and not (r1 / "fit_2p.done").exists()
    assert not list(r1.glob("weights/*.npz"))
    for args, option, given, made in (
        (["--seed", "8"], "--seed", "seed=8", "seed=0"),
        (["--shards-4p", "4"], "--shards-4p", "shards_4p=4", "shards_4p=3"),
        (["--start", "expert"], "--start", "start=expert", "start=apprentice@8"),
    ):
        bad = [*TINY, "--rounds", "1", *args]  # the last value of an option counts
        r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *bad])
        assert r.exit_code == 2 and option in r.output, r.output
        text = " ".join(r.output.split())
        assert given in text and made in text and "another folder ('--out')" in text, text
    again = _train(out, "--rounds", "1")
    assert "round 1 label_2p: done before" in again and "round 1 fit_2p: done before" not in again
    assert (r1 / "fit_4p.done").exists() and len(list(r1.glob("weights/*.npz"))) == 4


def test_train_help_agrees_with_the_plan_and_names_the_checkout_install():
    """--shards-2p's range says the least value the plan takes (2: a shard per preset), and a
    value below it is refused with that range; the help's install line is the one for a
    checkout."""
    r = CliRunner().invoke(main, ["train", "--help"])
    text = " ".join(r.output.split())
    assert "2<=x" in text and 'pip install -e ".[train]"' in text, text
    r = CliRunner().invoke(main, ["train", "--out", "o", "--shards-2p", "1"])
    assert r.exit_code == 2 and "1 is not allowed; allowed: 2 to 1,000,000,000,000" in r.output


def _instant(out, plan, k, name, *args):
    """A stage made instantly (no file but a judge's report, which finds a gain)."""
    if name.startswith("judge_"):
        report = _judge_gains(out, k, int(name[len("judge_") : -1]), plan)
        (out / f"round_{k}" / f"{name}.json").write_text(json.dumps(report))
    return {}


@pytest.fixture
def instant(monkeypatch):
    """Every stage made instantly (:func:`_instant`), and no final files."""
    monkeypatch.setattr(pipeline, "_run_stage", _instant)
    monkeypatch.setattr(pipeline, "keep_weights", lambda out, plan: out)


def test_a_resumed_train_says_how_many_stages_and_shards_are_done(tmp_path, instant):
    # it said "round 1 label_4p: 3 shards, ..." as if the stage started afresh
    out = tmp_path / "t"
    args = ["train", "--out", out, "--quiet", "--rounds", 1, "--shards-4p", 3, *NO_OUTCOMES]
    args = [str(a) for a in args]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "resuming" not in first.output
    spec = "pimc:rollout=apprentice@8,top=4"
    assert f"round 1 label_4p: 3 shards (0 to 2), seed 7001, {spec}" in first.output
    # killed in label_4p with shards 0 and 2 written: its marker and those after it missing
    r1 = out / "round_1"
    for stage in ("label_4p", "fit_4p", "judge_4p"):
        (r1 / f"{stage}.done").unlink()
    (r1 / "labels_4p").mkdir()
    for shard in (0, 2):
        (r1 / "labels_4p" / f"shard_{shard:05d}.npz").touch()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert f"resuming {out}: 10 of 13 stages already done" in again.output
    assert f"label_4p: resuming, 2 of 3 shards already done (0 to 2), seed 7001, {spec}" in (
        again.output
    )
    assert "round 1 label_2p_1: done before" in again.output


def test_too_few_rows_to_fit_name_what_gives_more(tmp_path, monkeypatch):
    """Five rows: early stopping's tenth holds 1 (scikit-learn refuses below 2, naming its
    own validation_fraction); the command says which of its options give more rows."""
    from canasta_sim.learn import network

    with pytest.raises(network.TooFewRows, match="5 rows are too few"):
        network._fit(np.zeros((5, 3)), np.arange(5.0), 0, 1e-4)

    def run_training(out, plan, **kw):
        with pipeline._enough_labels(1, 4):
            network._fit(np.zeros((5, 3)), np.arange(5.0), 0, 1e-4)

    monkeypatch.setattr(pipeline, "run_training", run_training)
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), "--quiet"])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--shards-4p" in text, text
    assert "round 1's 4-player labels: 5 rows are too few" in text
    assert "--deals" in text and "--every" in text and "validation_fraction" not in text


def test_start_is_read_in_any_case(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(pipeline, "run_training", lambda out, plan, **kw: seen.append(plan.start))
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), "--start", "EXPERT"])
    assert r.exit_code == 0, r.output
    assert seen == ["expert"]


def test_the_top_seed_wraps_its_stages_seeds_round(tmp_path, monkeypatch):
    """--seed 2**64 - 1 (the top of its range) trains: each stage's seed is the master seed
    plus its offset modulo 2**64 (7002 - 1 for the 2-player labels, 40 - 1 for the judges,
    102 - 1 for the 2-player fine-tuning), while at seed 0 they stay the plain offsets; the
    fits take it too (scikit-learn's seeds stop at 2**32 - 1)."""
    from canasta_sim.learn import network
    from canasta_sim.learn.plan import TrainPlan

    top = 2**64 - 1
    plan, zero = TrainPlan(seed=top), TrainPlan()
    for players, offset in ((2, 7002), (3, 7003), (4, 7001), (6, 7006)):
        assert zero.label_plan(Path("o"), 1, players).seed == offset
        assert plan.label_plan(Path("o"), 1, players).seed == offset - 1
        assert plan.label_plan(Path("o"), 3, players).seed == offset + 20 - 1
    assert (zero.judge_seed(), plan.judge_seed()) == (40, 39)
    assert [plan.tune_plan(p).seed for p in (2, 3, 4, 6)] == [101, 102, 100, 105]
    assert network.random_state(7) == 7 and network.random_state(2**32 - 1) == 2**32 - 1
    a, b = (network.random_state(s).randint(2**31, size=4) for s in (top, top - 1))
    assert (a != b).any()
    monkeypatch.setattr(pipeline, "judge_count", _judge_gains)
    out = tmp_path / "top"
    _train(out, "--rounds", "1", "--seed", str(top))
    marker = json.loads((out / "round_1" / "label_2p.done").read_text())
    assert (marker["seed"], marker["plan"]["seed"]) == (top, 7001)
    with np.load(out / "round_1" / "labels_2p" / "shard_00000.npz") as z:
        assert int(z["seed"]) == 7001
    assert (out / "weights" / "apprentice_4p.npz").exists()


@pytest.mark.parametrize(
    "record", ["{}", '{"recipe": 5}', "PLAN_WITHOUT_SEED"], ids=["empty", "recipe", "no-seed"]
)
def test_a_plan_json_without_the_plans_fields_is_damaged(tmp_path, instant, record):
    """A plan.json emptied to {} (or any object missing a field of the plan) is not a new
    plan: the folder's files follow the plan it lost, so it is refused as damaged, naming
    the file and saying to start over, and left as it was."""
    from dataclasses import asdict

    from canasta_sim.learn.plan import TrainPlan

    out = tmp_path / "t"
    _train(out, "--rounds", "1")
    path = out / "plan.json"
    if record == "PLAN_WITHOUT_SEED":
        plan = {**asdict(TrainPlan()), "recipe": train_folder.RECIPE}
        del plan["seed"]
        record = json.dumps(plan)
    path.write_text(record)
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY, "--rounds", "1"])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and f"{path} is damaged" in text, text
    assert "start over in another folder ('--out')" in text and "Traceback" not in text
    assert path.read_text() == record


def test_a_marker_made_with_other_settings_is_refused(tmp_path, instant):
    """A stage marker records the plan it was made with; one that differs from the folder's
    plan.json (and the run's) in a setting (a marker copied from another folder, a plan.json
    replaced) is a usage error naming both records and the setting, while the rounds, which
    may grow, are not held; in a folder of markers only (made before plan.json), one that
    differs from the run's says the folder mixes settings."""
    out = tmp_path / "t"
    _train(out, "--rounds", "1", "--seed", "7")
    marker = out / "round_1" / "fit_3p.done"
    made = json.loads(marker.read_text())
    marker.write_text(json.dumps({**made, "seed": 8}))
    r = CliRunner().invoke(
        main, ["train", "--out", str(out), "--quiet", *TINY, "--rounds", "1", "--seed", "7"]
    )
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and f"the marker {marker} of its" in text, text
    assert "plan.json says seed=7" in text and "says seed=8: restore seed in plan.json" in text
    assert "Traceback" not in text
    plan = (out / "plan.json").read_text()
    (out / "plan.json").unlink()
    r = CliRunner().invoke(
        main, ["train", "--out", str(out), "--quiet", *TINY, "--rounds", "1", "--seed", "7"]
    )
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--seed" in text and f"stage marker {marker}" in text, text
    assert "seed=7" in text and "seed=8" in text and "mixes settings" in text
    (out / "plan.json").write_text(plan)
    marker.write_text(json.dumps(made))
    assert "round 2 fit_3p" in _train(out, "--rounds", "2", "--seed", "7")


@pytest.mark.parametrize(
    "damage",
    ["garbage", "{}", '{"deals": 6, "gains": "yes"}', "[1, 2]", None],
    ids=["not-json", "empty", "bad-field", "not-object", "deleted"],
)
def test_a_damaged_judge_report_names_itself_and_what_to_do(tmp_path, instant, damage):
    """A judge's report that its marker says is done but that is no report (not JSON, a
    field missing or of another type, deleted) is a usage error naming it and saying to
    delete it and its marker, not JSON's bare words or a traceback; done so, a rerun plays
    the judge again."""
    out = tmp_path / "t"
    _train(out, "--rounds", "1")
    report = out / "round_1" / "judge_6p.json"
    if damage is None:
        report.unlink()
    else:
        report.write_text(damage)
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY, "--rounds", "1"])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and f"{report} is damaged" in text, text
    assert "delete it and judge_6p.done beside it and run the same command again" in text
    assert "damaged (not a judge's report" in text and "Traceback" not in text
    report.unlink(missing_ok=True)
    (out / "round_1" / "judge_6p.done").unlink()
    again = _train(out, "--rounds", "1")
    assert "round 1 judge_6p: round 1 against apprentice@8" in again
    assert "round 1 judge_2p: done before" in again
    assert json.loads(report.read_text())["gains"] is True


def test_a_second_run_in_a_locked_folder_stops_at_once(tmp_path, instant):
    """A run holds its folder's lock (train.lock, filelock's) while it runs: a second run in
    the folder, here while the test process holds the lock, stops at once with a usage error
    of --out naming the folder, and writes nothing (a new folder gets no plan.json). The
    lock file left behind is no damage and no file of another kind: the folder resumes, and
    a folder holding only it is a new folder."""
    from filelock import FileLock

    out, fresh = tmp_path / "t", tmp_path / "fresh"
    _train(out, "--rounds", "1")
    assert (out / train_folder.LOCK_FILE).exists()
    plan = (out / "plan.json").read_text()
    args = ["train", "--quiet", *TINY, "--rounds", "2", "--seed", "9"]
    for folder in (out, fresh):
        folder.mkdir(exist_ok=True)
        with FileLock(folder / train_folder.LOCK_FILE):
            r = CliRunner().invoke(main, [*args, "--out", str(folder)])
        text = " ".join(r.output.split())
        assert r.exit_code == 2 and "--out" in text and "Traceback" not in text, text
        assert f"the folder {folder} is in use" in text and "another folder ('--out')" in text
    assert (out / "plan.json").read_text() == plan and not (out / "round_2").exists()
    assert [p.name for p in fresh.iterdir()] == [train_folder.LOCK_FILE]
    assert "resuming" in _train(out, "--rounds", "1")
    assert "round 1 label_2p" in _train(fresh, "--rounds", "1")
