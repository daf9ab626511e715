"""The head network's trainer (:mod:`canasta_sim.learn.head`): each candidate's head and group
by the rule, its scores by the formula, a tiny distillation's parts, the file round trip and
the script's usage errors."""

import sys
from pathlib import Path

import numpy as np
import pytest

from canasta_sim.nb.bots.features import N_CAND_FEAT, N_STATE_FEAT, CandFeat
from canasta_sim.players.weights import default_weights_path

pytest.importorskip("jax")
pytest.importorskip("optax")

from canasta_sim.learn.head import (  # noqa: E402
    HEAD_PARTS,
    HeadPlan,
    distil_head,
    head_index,
    head_scores,
    write_head,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import distil_head as script  # noqa: E402

#: The per-kind blocks of state features (slots 24 .. 93), which the shipped files read not.
KINDS = np.arange(24, 24 + 5 * 14)


def _row(**slots) -> np.ndarray:
    row = np.zeros(N_CAND_FEAT, np.float32)
    for name, value in slots.items():
        row[getattr(CandFeat, name)] = value
    return row


def test_each_candidate_has_the_head_and_group_of_the_rule():
    disc = CandFeat.discard_kinds
    rows = np.stack(
        [
            _row(draw=1.0, left=0.6),  # a draw: head 0, group 0
            _row(take=1.0, pile_taken=0.3, laid=0.2, points=0.4),  # a pickup: head 1, group 1
            _row(hold=1.0, black_three=1.0),  # holds, discards a black three (kind 1)
            _row(laid=0.3, new_melds=1.0, wild_discard=1.0),  # melds, discards a joker (kind 14)
            _row(laid=0.5, going_out=1.0, left=0.0),  # melds and goes out, no discard
        ]
    )
    rows[2, disc + 0] = 1.0
    rows[3, disc + 13] = 1.0
    i, g = head_index(rows)
    # plays: 2 + 15 * hold + d, d = kind - 1 or 14 without a discard
    assert i.tolist() == [0, 1, 2 + 15 + 0, 2 + 13, 2 + 14]
    assert g.tolist() == [0, 1, 2, 2, 2]
    assert i.dtype == np.int64 and g.dtype == np.int64


def test_head_scores_are_the_formula():
    gen = np.random.default_rng(4)
    parts = {k: gen.standard_normal(shape).astype(np.float32) for k, shape in HEAD_PARTS.items()}
    state = gen.standard_normal((2, N_STATE_FEAT)).astype(np.float32)
    cands = gen.standard_normal((2, 3, N_CAND_FEAT)).astype(np.float32)
    i = np.array([[0, 5, 31], [1, 17, 17]])
    g = np.array([[0, 2, 2], [1, 2, 0]])
    got = np.asarray(head_scores(parts, state, cands, i, g))
    want = np.zeros((2, 3))
    for d in range(2):
        h = np.maximum(parts["A"].astype(np.float64) @ state[d] + parts["b1"], 0.0)
        for c in range(3):
            want[d, c] = (
                parts["head_U"][i[d, c]] @ h
                + parts["head_b"][i[d, c]]
                + parts["head_w"][g[d, c]] @ cands[d, c]
            )
    assert got.shape == (2, 3) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


@pytest.fixture(scope="module")
def tiny():
    teacher = str(default_weights_path(2))
    return distil_head(teacher, HeadPlan(seed=5, players=2, deals=6, held_out=3, steps=5))


def test_a_tiny_distillation_gives_finite_parts_of_the_file_shapes(tiny):
    parts, facts = tiny
    assert set(parts) == set(HEAD_PARTS)
    for name, shape in HEAD_PARTS.items():
        assert parts[name].shape == shape and parts[name].dtype == np.float32, name
        assert np.isfinite(parts[name]).all(), name
    assert HEAD_PARTS["head_U"] == (32, 32) and HEAD_PARTS["head_w"] == (3, N_CAND_FEAT)
    # the teacher reads no per-kind block: neither does the student (the kernels skip it)
    assert facts["drop"] == ("kinds",)
    assert not parts["A"][:, KINDS].any() and parts["A"][:, 94:].any()
    assert facts["decisions"] > 0 and facts["held_out_decisions"] > 0
    for k in ("agreement_start", "agreement_end"):
        assert 0.0 <= facts[k] <= 1.0
    assert facts["head"]["top"] == 14 and facts["head"]["steps"] == 5


def test_a_head_file_round_trips(tmp_path):
    gen = np.random.default_rng(6)
    parts = {k: gen.standard_normal(shape).astype(np.float32) for k, shape in HEAD_PARTS.items()}
    path = tmp_path / "sub" / "head_4p.npz"
    write_head(path, parts, {"teacher": "x.npz", "agreement_end": 0.5}, 4)
    with np.load(path) as z:
        assert set(z.files) == {*HEAD_PARTS, "feature_version", "players", "report"}
        for k in HEAD_PARTS:
            np.testing.assert_array_equal(z[k], parts[k])
        assert int(z["feature_version"]) == 2 and int(z["players"]) == 4
        assert '"agreement_end": 0.5' in str(z["report"])
        assert "B" not in z.files and "v" not in z.files
    assert not list(path.parent.glob("*.tmp"))


def test_a_part_of_another_shape_is_refused(tmp_path):
    parts = {k: np.zeros(shape, np.float32) for k, shape in HEAD_PARTS.items()}
    parts["head_U"] = np.zeros((31, 32), np.float32)
    with pytest.raises(ValueError, match=r"head_U: shape \(31, 32\), needs \(32, 32\)"):
        write_head(tmp_path / "h.npz", parts, {}, 4)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("top", 15, "top=15: allowed: 1 .. 14"),
        ("deals", 0, "deals=0: allowed: 1 or more"),
        ("temperature", 0.0, "temperature=0.0: allowed: above 0"),
    ],
)
def test_a_plan_out_of_range_is_refused(field, value, said):
    with pytest.raises(ValueError, match=said):
        HeadPlan(seed=0, players=2, **{field: value})


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--players", "5"], "invalid choice: 5"),
        (["--players", "2", "--top", "0"], "top=0: allowed: 1 .. 14"),
        (["--players", "2", "--held-out", "0"], "held_out=0: allowed: 1 or more"),
        (["--players", "2", "--teacher", "nowhere.npz"], "weights=nowhere.npz: not an"),
    ],
)
def test_the_script_refuses_bad_values_with_a_usage_error(tmp_path, capsys, args, said):
    with pytest.raises(SystemExit) as stop:
        script.main([*args, "--out", str(tmp_path / "h.npz")])
    assert stop.value.code == 2 and said in capsys.readouterr().err
    assert not (tmp_path / "h.npz").exists()
