"""``canasta-sim train`` (issue 26 item 6): its stages run from a seed, a killed labelling
stage resumes by making only its missing shards, two rebuilds from one seed give the same
weights, and bad options are usage errors."""

import numpy as np
import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.players.weights import PARTS, load_weights

pytest.importorskip("sklearn")

TINY = ["--shards", "2", "--shards-other", "6", "--deals", "1", "--worlds", "2", "--every", "2"]


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


def test_train_stages_resume_and_repeat(tmp_path):
    a = tmp_path / "a"
    _train(a, "--rounds", "1", "--seed", "7")
    r1 = a / "round_1"
    assert {p.name for p in r1.glob("*.done")} == {"label_4p.done", "label_236.done", "fit.done"}
    shards = sorted((r1 / "labels_4p").glob("shard_*.npz"))
    assert len(shards) == 2 and len(list((r1 / "labels_236").glob("shard_*.npz"))) == 6
    # a kill in the middle of the 4-player labels: one shard and the stage's marker missing
    before = dict(np.load(shards[0]))
    stamp = shards[1].stat().st_mtime_ns
    shards[0].unlink()
    (r1 / "label_4p.done").unlink()
    out = _train(a, "--rounds", "2", "--seed", "7")
    assert "round 1 label_4p: 2 shards" in out and "round 1 fit: done before" in out
    assert shards[1].stat().st_mtime_ns == stamp
    again = dict(np.load(shards[0]))
    for k in ("state", "meta", "cands", "value"):
        np.testing.assert_array_equal(before[k], again[k])
    # round 2 rolled out round 1's apprentice
    with np.load(next((a / "round_2" / "labels_4p").glob("shard_*.npz"))) as z:
        assert str(z["search"]) == "pimc:rollout=apprentice" and str(z["rollout_weights"])
    for players in (2, 3, 4, 6):
        assert load_weights(str(a / "round_2" / "weights" / f"apprentice_{players}p.npz")).any()
    b = tmp_path / "b"
    assert "weights:" in _train(b, "--rounds", "2", "--seed", "7")
    assert _arrays(a / "round_2" / "weights") == _arrays(b / "round_2" / "weights")


@pytest.mark.parametrize(
    "args, option",
    [
        (["--rounds", "0"], "--rounds"),
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
    """Ctrl-C (a real SIGINT) during the first fit: exit code 130, no ``fit.done``, no weight
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
    assert (r1 / "label_236.done").exists() and not (r1 / "fit.done").exists()
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
    assert "round 1 label_4p: done before" in again and "round 1 fit: done before" not in again
    assert (r1 / "fit.done").exists() and len(list(r1.glob("weights/*.npz"))) == 4


def test_train_help_agrees_with_the_plan_and_names_the_checkout_install():
    """--shards-other's range says the least value the plan takes (6: a shard per player count
    and preset), and a value below it is refused with that range; the help's install line is
    the one for a checkout."""
    r = CliRunner().invoke(main, ["train", "--help"])
    text = " ".join(r.output.split())
    assert "6<=x" in text and 'pip install -e ".[train]"' in text, text
    r = CliRunner().invoke(main, ["train", "--out", "o", "--shards-other", "2"])
    assert r.exit_code == 2 and "2 is not allowed; allowed: 6 to 1,000,000,000,000" in r.output
