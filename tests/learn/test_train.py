"""``canasta-sim train`` (issue 26 items 4 and 6): its stages run from a seed, a killed
labelling stage resumes by making only its missing shards, two rebuilds from one seed give the
same weights, a count stops when its judge finds no gain, and bad options are usage errors."""

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import canasta_sim.learn.pipeline as pipeline
from canasta_sim.cli import main
from canasta_sim.players.weights import PARTS, load_value, load_weights

sklearn = pytest.importorskip("sklearn")
threadpoolctl = pytest.importorskip("threadpoolctl")

#: The trainer's label kernels are not in the warm-up: compiled once per run (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("label_kernels")

TINY = [
    "--shards", "2", "--shards-other", "6", "--shards-own", "2", "--shards-knobs", "2",
    "--deals", "1", "--worlds", "2", "--every", "2", "--judge-deals", "6",
]  # fmt: skip

#: Round 1's stages in the order the recipe runs them: 2 and 6 players fitted first, then 3
#: players, 4 players last (docs/learned.md, "Train your own").
ROUND1 = [
    "label_236", "own_2p", "own_6p", "fit_2p", "fit_6p",
    "knobs4_3p", "own_3p", "fit_3p", "label_4p", "own_4p", "fit_4p",
]  # fmt: skip

#: The expert's 4-player knobs as pimc's rollout options (round 1's labels at every count).
KNOBS4 = (
    "rollout.pile_threshold=6,rollout.hold_wilds=1,rollout.freeze_risk=0.263,"
    "rollout.safety=90.82,rollout.initial_cards=3"
)


def _train(out, *args):
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY, *args])
    assert r.exit_code == 0, r.output
    return r.output


def _arrays(folder):
    out = {}
    for players in (2, 3, 4, 6):
        with np.load(folder / f"apprentice_{players}p.npz") as z:
            out[players] = {k: z[k].tobytes() for k in PARTS}
    return out


def _stages(output, k):
    """The stage names of round ``k`` in the order the command ran them."""
    head = f"round {k} "
    return [
        line[len(head) :].split(":")[0] for line in output.splitlines() if line.startswith(head)
    ]


def test_train_stages_resume_and_repeat(tmp_path):
    a = tmp_path / "a"
    out = _train(a, "--rounds", "1", "--seed", "7")
    assert _stages(out, 1) == ROUND1
    r1 = a / "round_1"
    assert {p.name for p in r1.glob("*.done")} == {f"{s}.done" for s in ROUND1}
    marker = json.loads((r1 / "own_2p.done").read_text())
    assert marker["seconds"] >= 0 and len(marker["load_start"]) == 3 and marker["recipe"] == 3
    # the per-count plans: seeds seed + 30 .. 34, the count's own expert but knobs4_3p
    for name, players, seed, search in (
        ("own_2p", 2, 39, "pimc:top=4"),
        ("own_6p", 6, 40, "pimc:top=4"),
        ("knobs4_3p", 3, 37, "pimc:top=4," + KNOBS4),
        ("own_3p", 3, 38, "pimc:top=4"),
        ("own_4p", 4, 41, "pimc:top=4"),
    ):
        plan = json.loads((r1 / f"{name}.done").read_text())["plan"]
        assert (plan["players"], plan["seed"], plan["search"]) == ([players], seed, search)
        with np.load(r1 / name / "shard_00001.npz") as z:
            assert int(z["players"]) == players and str(z["preset"]) == "hoyle"
    # each count is fitted on round 1's labels of its count, 3 players with knobs4 first
    fit3 = json.loads((r1 / "fit_3p.json").read_text())
    # and the report names what the fit's arithmetic depends on: NumPy's BLAS and its kernel
    blas = next(i for i in threadpoolctl.threadpool_info() if "numpy" in i.get("filepath", ""))
    assert fit3["library"] == {
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "blas": f"{blas['internal_api']} {blas['version']} {blas['architecture']}",
    }
    assert fit3["folders"] == ["round_1/labels_236", "round_1/knobs4_3p", "round_1/own_3p"]
    # the labels keep each deal's outcome: a value output beside the network, its error
    # reported on the held-out decisions; the training mean misses them by at least their
    # spread, so R² (against that spread) is at most 1 - (rmse / rmse_mean)²
    value = fit3["value"]
    assert set(value) == {"rmse", "rmse_mean", "r2"} and value["rmse"] > 0
    assert value["r2"] <= 1 - (value["rmse"] / value["rmse_mean"]) ** 2 + 1e-3
    assert np.isfinite(load_value(str(r1 / "weights" / "apprentice_3p.npz"))).all()
    assert json.loads((r1 / "fit_4p.json").read_text())["folders"] == [
        "round_1/labels_4p",
        "round_1/own_4p",
    ]
    shards = sorted((r1 / "own_2p").glob("shard_*.npz"))
    assert len(shards) == 2 and len(list((r1 / "labels_236").glob("shard_*.npz"))) == 6
    # a kill in the middle of own_2p: one shard, its marker and the fits after it missing
    before = dict(np.load(shards[0]))
    stamp = shards[1].stat().st_mtime_ns
    shards[0].unlink()
    for stage in ("own_2p", "fit_2p"):
        (r1 / f"{stage}.done").unlink()
    out = _train(a, "--rounds", "2", "--seed", "7")
    assert "round 1 own_2p: resuming, 1 of 2 shards already done, seed 39, pimc:top=4" in out
    assert "round 1 own_6p: done before" in out and "round 1 fit_6p: done before" in out
    assert _stages(out, 2) == [
        "label_236", "fit_2p", "judge_2p", "fit_6p", "judge_6p", "fit_3p", "judge_3p",
        "label_4p", "fit_4p", "judge_4p",
    ]  # fmt: skip
    assert shards[1].stat().st_mtime_ns == stamp
    again = dict(np.load(shards[0]))
    for k in ("state", "meta", "cands", "value"):
        np.testing.assert_array_equal(before[k], again[k])
    # round 2 rolled out round 1's apprentice and fitted on both rounds
    with np.load(next((a / "round_2" / "labels_4p").glob("shard_*.npz"))) as z:
        assert str(z["search"]) == "pimc:rollout=apprentice" and str(z["rollout_weights"])
    assert json.loads((a / "round_2" / "fit_2p.json").read_text())["folders"] == [
        "round_1/labels_236",
        "round_1/own_2p",
        "round_2/labels_236",
    ]
    for players in (2, 3, 4, 6):
        assert load_weights(str(a / "round_2" / "weights" / f"apprentice_{players}p.npz")).any()
    # each judge played round 2's file against round 1's on 6 deals of seed 7 + 40, and the
    # file its interval chose is the one in weights/ (round 2's only if it gains)
    kept = json.loads((a / "weights" / "kept.json").read_text())
    for players in (2, 3, 4, 6):
        judge = json.loads((a / "round_2" / f"judge_{players}p.json").read_text())
        assert (judge["deals"], judge["seed"]) == (6, 47)
        assert judge["diff_low"] <= judge["mean_diff"] <= judge["diff_high"]
        assert judge["gains"] == (judge["diff_low"] > 0)
        k = 2 if judge["gains"] else 1
        assert kept[str(players)] == {"round": k, "stopped_by": None if k == 2 else judge}
        name = f"apprentice_{players}p.npz"
        assert (a / "weights" / name).read_bytes() == (a / f"round_{k}/weights" / name).read_bytes()
    b = tmp_path / "b"
    assert "weights:" in _train(b, "--rounds", "2", "--seed", "7")
    assert _arrays(a / "round_2" / "weights") == _arrays(b / "round_2" / "weights")


def test_a_count_stops_when_its_judge_finds_no_gain(tmp_path, monkeypatch):
    """With judges that find a gain at 3 and 6 players in round 2 and at 6 in round 3 only,
    round 3 labels only 3 and 6 players (no 4-player stage) and fits and judges them, and
    weights/ holds round 1's file at 2 and 4 players, round 2's at 3 and round 3's at 6."""
    from canasta_sim.learn import pipeline

    gains = {(2, 3), (2, 6), (3, 6)}

    def judge(out, k, players, plan, threads=1, scheduler=None):
        up = (k, players) in gains
        return {"deals": 6, "seed": 47, "mean_diff": 1.0 if up else -1.0,
                "diff_low": 0.5 if up else -2.0, "diff_high": 2.0, "gains": up}  # fmt: skip

    monkeypatch.setattr(pipeline, "judge_count", judge)
    out = _train(tmp_path / "t", "--rounds", "3", "--seed", "7")
    assert _stages(out, 3) == ["label_236", "fit_6p", "judge_6p", "fit_3p", "judge_3p"]
    assert "+1.0 [+0.5, +2.0] points a deal over 6 deals: round 3 kept" in out
    assert "-1.0 [-2.0, +2.0] points a deal over 6 deals: round 2 kept, 3 players stop" in out
    r3 = tmp_path / "t" / "round_3"
    assert json.loads((r3 / "label_236.done").read_text())["plan"]["players"] == [3, 6]
    assert not (r3 / "labels_4p").exists()
    kept = json.loads((tmp_path / "t" / "weights" / "kept.json").read_text())
    assert {p: v["round"] for p, v in kept.items()} == {"2": 1, "3": 2, "4": 1, "6": 3}
    assert kept["3"]["stopped_by"]["mean_diff"] == -1.0 and kept["6"]["stopped_by"] is None
    for players, k in ((2, 1), (3, 2), (4, 1), (6, 3)):
        name = f"apprentice_{players}p.npz"
        got = (tmp_path / "t" / "weights" / name).read_bytes()
        assert got == (tmp_path / "t" / f"round_{k}" / "weights" / name).read_bytes()
    # a fourth round has nothing left but 6 players; with none left the run ends early
    gains.clear()
    out = _train(tmp_path / "t", "--rounds", "5", "--seed", "7")
    assert _stages(out, 4) == ["label_236", "fit_6p", "judge_6p"]
    assert "round 5: no player count improves any more, training ends" in out


def test_round_one_plans_are_the_shipped_labels():
    """At seed 1 round 1's plans are those the shipped files' labels were made with
    (docs/learned-history.md, "Rounds"): round 1's 2-, 3- and 6-player labels (seed 2, 180 shards)
    and 4-player ones (seed 1, 500 shards) with the expert at its 4-player knobs, and the
    3-player file's plans `a` (seed 31, 160 shards) and `b` (seed 32, 244 shards)."""
    from canasta_sim.learn.pipeline import TrainPlan
    from canasta_sim.learn.shards import LabelPlan

    both = ("classic", "hoyle")
    plan = TrainPlan()
    for name, shards, want in (
        ("label_236", 180, LabelPlan(2, 20, (2, 3, 6), both, 32, 3, search="pimc:" + KNOBS4)),
        ("label_4p", 500, LabelPlan(1, 20, (4,), both, 32, 3, search="pimc:" + KNOBS4)),
        ("knobs4_3p", 160, LabelPlan(31, 20, (3,), both, 32, 3, search="pimc:top=4," + KNOBS4)),
        ("own_3p", 244, LabelPlan(32, 20, (3,), both, 32, 3, search="pimc:top=4")),
    ):
        assert plan.label_plan(Path("o"), 1, name) == (want, shards), name


def test_the_default_is_the_shipped_recipe_with_two_rounds_of_expert_iteration():
    """The shipped files at 2, 4 and 6 players (bots version 8) are the kept files of at most
    3 rounds at seed 1 (judged over 100,000 deals of seed 41): by default the command runs 3
    rounds, and round 2 labels the same counts and shard numbers as round 1's round stages
    with pimc rolling out round 1's apprentice, at seeds 1 + 2 = 3 (4 players) and
    1 + 2 + 1 = 4 (2, 3 and 6 players)."""
    from canasta_sim.learn.pipeline import TrainPlan, weights_dir
    from canasta_sim.learn.shards import LabelPlan

    both = ("classic", "hoyle")
    plan = TrainPlan()
    assert (plan.rounds, plan.judge_deals) == (3, 100_000)
    later = {"search": "pimc:rollout=apprentice", "weights": str(weights_dir(Path("o"), 1))}
    for name, shards, want in (
        ("label_236", 180, LabelPlan(4, 20, (2, 3, 6), both, 32, 3, **later)),
        ("label_4p", 500, LabelPlan(3, 20, (4,), both, 32, 3, **later)),
    ):
        assert plan.label_plan(Path("o"), 2, name) == (want, shards), name


def test_a_folder_of_the_old_recipe_is_not_resumed(tmp_path):
    """A training folder whose plan.json has no recipe (made before the per-count plans) is a
    usage error of --out, and nothing is labelled into it."""
    out = tmp_path / "old"
    out.mkdir()
    (out / "plan.json").write_text(json.dumps({"seed": 1, "rounds": 2, "shards": 2}))
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *TINY])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and "recipe 1" in text, text
    assert not (out / "round_1").exists()


def test_train_refuses_a_folder_of_other_files_fewer_rounds_and_an_unwritable_folder(tmp_path):
    """A folder holding other files (a simulate run's, say) is not trained into; a folder run
    to 3 rounds is not rerun with 2 (its weights/ follow the judges of all 3); a folder that
    cannot be made is a usage error of --out, not a crash."""
    from dataclasses import asdict

    from canasta_sim.learn.pipeline import RECIPE, TrainPlan

    other = tmp_path / "run"
    other.mkdir()
    (other / "manifest.json").write_text("{}")
    r = CliRunner().invoke(main, ["train", "--out", str(other), "--quiet", *TINY])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "--out" in text and "is not a training folder" in text, text
    assert sorted(p.name for p in other.iterdir()) == ["manifest.json"]
    done = tmp_path / "done"
    done.mkdir()
    plan = TrainPlan(rounds=3, shards=2, shards_other=6, shards_own=2, shards_knobs=2, deals=1,
                     worlds=2, every=2, judge_deals=6)  # fmt: skip
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
        (["--rounds", "0"], "--rounds"),
        (["--rounds", "16"], "--rounds"),
        (["--shards-own", "1"], "--shards-own"),
        (["--shards-knobs", "1"], "--shards-knobs"),
        (["--shards", "0"], "--shards"),
        (["--shards-other", "3"], "--shards-other"),
        (["--threads", "0"], "--threads"),
        (["--worlds", "x"], "--worlds"),
        (["--scheduler", "nowhere"], "--scheduler"),
    ],
)
def test_train_bad_options_are_usage_errors(tmp_path, args, option):
    r = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "o"), *args])
    assert r.exit_code == 2 and option in r.output, r.output
    assert not (tmp_path / "o").exists()


def test_ctrl_c_in_a_fit_exits_130_and_a_rerun_keeps_the_plan(tmp_path, monkeypatch):
    """Ctrl-C (a real SIGINT) during the first fit: exit code 130, no ``fit_2p.done``, no weight
    file (scikit-learn's own catch would keep the half-fitted network). A rerun with another
    seed or shard count is a usage error naming the option and both values; with the same
    options it resumes after the labels and fits."""
    import os
    import signal

    from sklearn.neural_network import MLPRegressor

    epoch = MLPRegressor._update_no_improvement_count

    def interrupted(self, *args):
        os.kill(os.getpid(), signal.SIGINT)
        return epoch(self, *args)

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(MLPRegressor, "_update_no_improvement_count", interrupted)
        r = CliRunner().invoke(
            main, ["train", "--out", str(out), "--quiet", "--rounds", "1", *TINY]
        )
    assert r.exit_code == 130, r.output
    r1 = out / "round_1"
    assert (r1 / "own_6p.done").exists() and not (r1 / "fit_2p.done").exists()
    assert not list(r1.glob("weights/*.npz"))
    for args, option, given, made in (
        (["--seed", "8"], "--seed", "seed=8", "seed=1"),
        (["--shards", "4"], "--shards", "shards=4", "shards=2"),
    ):
        bad = [*TINY, "--rounds", "1", *args]  # the last value of an option counts
        r = CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *bad])
        assert r.exit_code == 2 and option in r.output, r.output
        text = " ".join(r.output.split())
        assert given in text and made in text and "another folder (--out)" in text, text
    again = _train(out, "--rounds", "1")
    assert "round 1 own_6p: done before" in again and "round 1 fit_2p: done before" not in again
    assert (r1 / "fit_4p.done").exists() and len(list(r1.glob("weights/*.npz"))) == 4


def test_train_help_agrees_with_the_plan_and_names_the_checkout_install():
    """--shards-other's range says the least value the plan takes (6: a shard per player count
    and preset), and a value below it is refused with that range; the help's install line is
    the one for a checkout."""
    r = CliRunner().invoke(main, ["train", "--help"])
    text = " ".join(r.output.split())
    assert "6<=x" in text and 'pip install -e ".[train]"' in text, text
    r = CliRunner().invoke(main, ["train", "--out", "o", "--shards-other", "2"])
    assert r.exit_code == 2 and "2 is not allowed; allowed: 6 to 1,000,000,000,000" in r.output


def test_a_resumed_train_says_how_many_stages_and_shards_are_done(tmp_path, monkeypatch):
    # it said "round 1 label_4p: 3 shards, ..." as if the stage started afresh
    pytest.importorskip("sklearn")
    monkeypatch.setattr(pipeline, "_run_stage", lambda *args: {})  # stages made instantly
    monkeypatch.setattr(pipeline, "keep_weights", lambda out, rounds: out)  # and no files
    out = tmp_path / "t"
    args = ["train", "--out", out, "--quiet", "--rounds", 1, "--shards", 3, "--shards-own", 2]
    args = [str(a) for a in args]
    first = CliRunner().invoke(main, args)
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
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert f"resuming {out}: 8 of 11 stages already done" in again.output
    assert "round 1 label_4p: resuming, 2 of 3 shards already done, seed 1, pimc:" in again.output
    assert "round 1 own_4p: 2 shards, seed 35, pimc:top=4" in again.output
