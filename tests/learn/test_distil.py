"""``canasta-sim train --distil-drop``: a count's kept file distilled into one that reads no
state feature of the blocks named (the per-kind blocks: bots version 11's recipe), its rounds
on outcomes keeping them unread, so the kernels skip them."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from canasta_sim.cli import main
from canasta_sim.learn.plan import TrainPlan
from canasta_sim.nb.bots.apprentice import NetSlot
from canasta_sim.nb.bots.features import N_STATE_FEAT, Skip
from canasta_sim.players.weights import (
    STATE_BLOCKS,
    default_weights_path,
    dropped_columns,
    load_weights,
)

pytest.importorskip("jax")
pytest.importorskip("optax")

#: Five per-kind blocks of 14 kinds (black three .. joker) from slot 24: slots 24 .. 93.
KINDS = np.arange(24, 24 + 5 * 14)

#: A distillation of version 9's 2-player file (8 deals, 5 steps) and one round on outcomes
#: of 8 deals; the other counts distilled too, with no round on outcomes.
SMALL = [
    "--rounds", "0", "--start", "apprentice@9", "--distil-drop", "kinds",
    "--distil-deals", "8", "--distil-steps", "5", "--outcome-rounds-2p", "1",
    "--outcome-deals-2p", "8", "--outcome-rounds-3p", "0", "--outcome-rounds-4p", "0",
    "--outcome-rounds-6p", "0",
]  # fmt: skip


def _train(out, *args):
    return CliRunner().invoke(main, ["train", "--out", str(out), "--quiet", *SMALL, *args])


def test_the_blocks_name_their_slots():
    assert dropped_columns(("kinds",)).tolist() == KINDS.tolist()
    # the neighbours: 11 ranks passed, 11 discarded, the next player's frozen pile, the
    # previous player's hand, to the last slot
    assert dropped_columns(("neighbours",)).tolist() == list(range(94, 118))
    assert N_STATE_FEAT == 118
    assert dropped_columns(("neighbours", "kinds")).tolist() == list(range(24, 118))
    assert dropped_columns(()).size == 0
    assert STATE_BLOCKS["kinds"][0] == Skip.kinds


def test_the_loss_is_the_cross_entropy_over_the_candidates_shown():
    """Two candidates the teacher scores alike and the student alike: the cross-entropy is
    ln 2; a third candidate masked out counts for nothing; a teacher sure of the first
    (scores 0 and -1000 points at 20 points: e^-50) against a student at even odds: ln 2."""
    from canasta_sim.learn import outcomes
    from canasta_sim.learn.distil import _loss

    params = outcomes.policy_params(outcomes.read_parts(default_weights_path(2, "apprentice9")))
    state = np.zeros((1, N_STATE_FEAT), np.float32)
    cands = np.zeros((1, 3, params["B"].shape[1]), np.float32)  # three alike candidates
    mask = np.array([[True, True, False]])
    for target in ([0.0, 0.0, 0.0], [0.0, -1000.0, 500.0]):
        batch = {"state": state, "cands": cands, "mask": mask,
                 "target": np.array([target], np.float32)}  # fmt: skip
        assert float(_loss(params, batch, 20.0)) == pytest.approx(math.log(2), rel=1e-5)


def test_a_distilled_file_reads_no_dropped_slot_and_learns_the_teacher():
    from canasta_sim.learn.distil import DistilPlan, distil

    teacher = str(default_weights_path(2, "apprentice9"))
    plan = DistilPlan(seed=3, players=2, drop=("kinds",), deals=20, steps=40, held_out=20)
    params, facts = distil(teacher, plan)
    assert not params["A"][:, KINDS].any()
    assert params["A"][:, 94:].any() and params["A"][:, :24].any()
    assert facts["decisions"] > 100 and facts["held_out_decisions"] > 100
    assert facts["distilled"]["drop"] == ("kinds",)
    # zeroing the blocks loses part of the teacher's choices; learning wins some back
    assert 0.0 < facts["agreement_start"] < facts["agreement_end"] <= 1.0


def test_train_distils_then_tunes_keeping_the_blocks_unread(tmp_path):
    out = tmp_path / "t"
    r = _train(out)
    assert r.exit_code == 0, r.output
    kept = json.loads((out / "weights" / "kept.json").read_text())
    assert kept["2"]["distil"] == "distil/apprentice_2p.npz"
    assert kept["2"]["outcomes"]["file"] == "outcomes_2p/round_0.npz"
    assert kept["3"]["distil"] == "distil/apprentice_3p.npz" and kept["3"]["outcomes"] is None
    for players in (2, 3, 4, 6):
        final = out / "weights" / f"apprentice_{players}p.npz"
        with np.load(final) as z:
            assert not z["A"][:, KINDS].any() and z["A"][:, 94:].any()
            assert "value_A" in z  # the teacher's value output rides along
        assert load_weights(str(final))[NetSlot.skips] == Skip.kinds
    marker = json.loads((out / "distil" / "distil_6p.done").read_text())
    assert marker["distil_drop"] == ["kinds"] and marker["teacher"].endswith("apprentice9_6p.npz")
    with np.load(out / "distil" / "apprentice_4p.npz") as z:
        facts = json.loads(str(z["report"]))
    assert facts["distilled"]["seed"] == 201  # seed 0 + 201 at 4 players
    again = _train(out)
    assert again.exit_code == 0 and "distil_4p: done before" in again.output, again.output


def test_more_rounds_of_imitation_after_a_distillation_are_refused(tmp_path):
    out = tmp_path / "t"
    assert _train(out).exit_code == 0
    r = _train(out, "--rounds", "1")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "rounds=1" in text and "distil" in text, text


@pytest.mark.parametrize(
    "value, message",
    [
        (
            "kinds,hands",
            "'hands' is not allowed; allowed: a comma-separated list of kinds, neighbours",
        ),
        ("Kinds, KINDS", None),
    ],
)
def test_distil_drop_values(tmp_path, monkeypatch, value, message):
    """An unknown block is a usage error naming it and the blocks; names are read in any
    case, each once."""
    import canasta_sim.learn.pipeline as pipeline

    seen = []
    monkeypatch.setattr(pipeline, "run_training", lambda out, plan, **kw: seen.append(plan))
    r = _train(tmp_path / "o", "--distil-drop", value)
    text = " ".join(r.output.split())
    if message:
        assert r.exit_code == 2 and message in text and "Traceback" not in text, text
    else:
        assert r.exit_code == 0 and seen[0].distil_drop == ("kinds",), text


def test_the_plan_drops_nothing_by_default_and_freezes_what_it_drops():
    assert TrainPlan().distil_drop == () and TrainPlan().tune_plan(4).frozen == ()
    plan = TrainPlan(distil_drop=("kinds",), seed=5)
    assert plan.tune_plan(4).frozen == ("kinds",)
    assert (plan.distil_plan(6).seed, plan.distil_plan(6).deals) == (211, 4000)
    # the blocks in STATE_BLOCKS' order, each once: one set of blocks is one plan
    assert TrainPlan(distil_drop=("neighbours", "kinds", "kinds")).distil_drop == (
        "kinds",
        "neighbours",
    )


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_shipped_files_read_no_per_kind_block(players):
    """Bots version 11's files were distilled without the per-kind blocks: the kernels skip
    them (and only them); version 10's read every block."""
    skips = {f: load_weights(str(default_weights_path(players, f)))[NetSlot.skips] for f in
             ("apprentice11", "apprentice10")}  # fmt: skip
    assert (skips["apprentice11"], skips["apprentice10"]) == (Skip.kinds, 0)


def test_with_a_distillation_start_is_another_file_than_the_start_presets():
    """The pool's ``start`` is the distilled file, not --start's shipped one: both kept."""
    pool = ("self", "start", "apprentice@10")
    plan = TrainPlan(rounds=0, start="apprentice@10", outcome_pool=pool, outcome_deals_2p=9,
                     outcome_deals_3p=9, outcome_deals_4p=9, outcome_deals_6p=9,
                     distil_drop=("kinds",))  # fmt: skip
    assert plan.outcome_pool == pool
    same = TrainPlan(rounds=0, start="apprentice@10", outcome_pool=pool)
    assert same.outcome_pool == ("self", "start")


def test_a_teacher_that_reads_no_dropped_block_is_its_own_student():
    from canasta_sim.learn import outcomes
    from canasta_sim.learn.distil import DistilPlan, distil

    teacher = str(default_weights_path(3, "apprentice11"))  # no per-kind block read
    params, facts = distil(teacher, DistilPlan(seed=1, players=3, drop=("kinds",)))
    start = outcomes.policy_params(outcomes.read_parts(teacher))
    assert all(np.array_equal(params[k], start[k]) for k in start)
    assert (facts["decisions"], facts["agreement_end"]) == (0, 1.0)


def test_a_damaged_distilled_file_is_named(tmp_path):
    out = tmp_path / "t"
    assert _train(out).exit_code == 0
    damaged = out / "distil" / "apprentice_2p.npz"
    damaged.write_bytes(damaged.read_bytes()[:100])
    r = _train(out, "--outcome-rounds-2p", "2")
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and f"{damaged} is damaged" in text and "Traceback" not in text, text


def test_a_resume_naming_a_distillation_the_folder_was_made_without_is_refused(tmp_path):
    out = tmp_path / "t"
    plain = ["train", "--out", str(out), "--quiet", "--rounds", "0", "--start", "apprentice@9"]
    plain += [f"--outcome-rounds-{p}p=0" for p in (2, 3, 4, 6)]
    assert CliRunner().invoke(main, plain).exit_code == 0
    r = CliRunner().invoke(main, [*plain, "--distil-drop", "kinds"])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "was made with distil_drop='': resume it with ''" in text, text


@pytest.mark.parametrize(("n", "said"), [(1, "1 deal of seed 201, 1 step"),
                                         (2, "2 deals of seed 201, 2 steps")])  # fmt: skip
def test_the_distillation_line_counts_its_deals_and_steps_in_words(tmp_path, monkeypatch, n, said):
    """A fresh user's case: --distil-deals 1 read "1 deals of seed"."""
    import canasta_sim.learn.pipeline as pipeline

    def stop(teacher, dplan):
        raise KeyboardInterrupt  # the line is said before the distillation plays

    monkeypatch.setattr(pipeline, "distil", stop)
    plan = TrainPlan(rounds=0, start="apprentice@9", distil_drop=("kinds",), distil_deals=n,
                     distil_steps=n)  # fmt: skip
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        pipeline._distil_count(tmp_path, plan, 4, {}, lines.append)
    assert lines == [
        f"distil_4p: {default_weights_path(4, 'apprentice9')} without the state blocks kinds, "
        f"{said}"
    ]
