"""The head network's trainer (:mod:`canasta_sim.learn.head`): each play candidate's row by
the rule, its scores by the formula (rows plus the terms of its group), a tiny distillation's
parts, the file round trip, a head network refused as a teacher and the script's usage errors
and default teacher (bots version 11's full network)."""

import sys
from pathlib import Path

import numpy as np
import pytest

from canasta_sim.nb.bots.apprentice import N_HEAD_TERMS
from canasta_sim.nb.bots.features import N_CAND_FEAT, N_STATE_FEAT, CandFeat
from canasta_sim.players.weights import STATE_BLOCKS, VALUE_PARTS, default_weights_path

pytest.importorskip("jax")
pytest.importorskip("optax")

from canasta_sim.learn.head import (  # noqa: E402
    HEAD_PARTS,
    HeadPlan,
    distil_head,
    head_row,
    head_scores,
    write_head,
)
from canasta_sim.learn.train import write_npz  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import distil_head as script  # noqa: E402

#: The per-kind blocks of state features, which the shipped files read not.
KINDS = STATE_BLOCKS["kinds"][1]
#: Bots version 11's 2-player file: a full network, the teacher.
TEACHER = str(default_weights_path(2, "apprentice11"))


def _row(discard: int | None = None, **slots) -> np.ndarray:
    """A play candidate's features: ``slots`` set, and the one-hot of the kind discarded
    (``discard``: 1 black three .. 14 joker; None: no discard)."""
    row = np.zeros(N_CAND_FEAT, np.float32)
    for name, value in slots.items():
        row[getattr(CandFeat, name)] = value
    if discard is not None:
        row[CandFeat.discard_kinds + discard - 1] = 1.0
    return row


def _zero_head(path, players: int = 2) -> str:
    """A head file of zero parts at ``path``."""
    write_head(path, {k: np.zeros(s, np.float32) for k, s in HEAD_PARTS.items()}, {}, players)
    return str(path)


def test_each_play_candidate_has_the_row_of_the_rule():
    rows = np.stack(
        [
            _row(1, hold=1.0),  # holds the melds, discards a black three: 15 + 0
            _row(14, laid=0.3, new_melds=1.0, wild_discard=1.0),  # melds, a joker: 13
            _row(None, laid=0.5, going_out=1.0),  # melds and goes out: 14
            _row(5, laid=0.2),  # melds, discards a 7 (kind 5): 4
            _row(14, hold=1.0),  # holds, a joker: 15 + 13
        ]
    )
    r = head_row(rows)
    # (HELD_KINDS + 1) * hold + d, d = kind - 1, or 14 without a discard
    assert r.tolist() == [15, 13, 14, 4, 28]
    assert r.dtype == np.int64


def test_head_scores_are_the_formula():
    """``head_U[r] . relu(A s + b1) + head_b[r] + head_w[g] . terms``, ``g`` 1 for a row
    holding the melds (15 or more)."""
    gen = np.random.default_rng(4)
    parts = {k: gen.standard_normal(shape).astype(np.float32) for k, shape in HEAD_PARTS.items()}
    state = gen.standard_normal((2, N_STATE_FEAT)).astype(np.float32)
    terms = gen.standard_normal((2, 3, N_HEAD_TERMS)).astype(np.float32)
    r = np.array([[0, 14, 15], [27, 3, 28]])
    got = np.asarray(head_scores(parts, state, r, terms))
    want = np.zeros((2, 3))
    for d in range(2):
        h = np.maximum(parts["A"].astype(np.float64) @ state[d] + parts["b1"], 0.0)
        for c in range(3):
            g = int(r[d, c] >= 15)
            want[d, c] = (
                parts["head_U"][r[d, c]] @ h
                + parts["head_b"][r[d, c]]
                + parts["head_w"][g] @ terms[d, c]
            )
    assert got.shape == (2, 3) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


@pytest.fixture(scope="module")
def tiny():
    return distil_head(TEACHER, HeadPlan(seed=5, players=2, deals=3, held_out=2, steps=3, batch=64))


def test_a_tiny_distillation_gives_finite_parts_of_the_file_shapes(tiny):
    parts, facts = tiny
    assert set(parts) == set(HEAD_PARTS) | set(VALUE_PARTS)  # the teacher's value output kept
    for name, shape in HEAD_PARTS.items():
        assert parts[name].shape == shape and parts[name].dtype == np.float32, name
        assert np.isfinite(parts[name]).all(), name
    assert HEAD_PARTS["head_U"] == (30, 32) and HEAD_PARTS["head_w"] == (2, 6)
    with np.load(TEACHER) as z:
        for name in VALUE_PARTS:
            np.testing.assert_array_equal(parts[name], z[name])
    # the teacher reads no per-kind block: neither does the student (the kernels skip it)
    assert facts["drop"] == ("kinds",)
    assert not parts["A"][:, KINDS].any() and parts["A"][:, KINDS.stop :].any()
    assert facts["decisions"] > 0 and facts["held_out_decisions"] > 0
    for k in ("agreement_start", "agreement_end"):
        assert 0.0 <= facts[k] <= 1.0
    assert facts["head"]["top"] == 14 and facts["head"]["steps"] == 3


def test_a_head_file_round_trips(tmp_path):
    gen = np.random.default_rng(6)
    heads = {k: gen.standard_normal(shape).astype(np.float32) for k, shape in HEAD_PARTS.items()}
    value = {k: np.ones(shape, np.float32) for k, shape in VALUE_PARTS.items()}
    path = tmp_path / "sub" / "head_4p.npz"
    write_head(path, {**heads, **value}, {"teacher": "x.npz", "agreement_end": 0.5}, 4)
    with np.load(path) as z:
        want = {*HEAD_PARTS, *VALUE_PARTS, "feature_version", "players", "report"}
        assert set(z.files) == want
        for k, v in {**heads, **value}.items():
            np.testing.assert_array_equal(z[k], v)
        assert int(z["feature_version"]) == 2 and int(z["players"]) == 4
        assert '"agreement_end": 0.5' in str(z["report"])
        assert "B" not in z.files and "v" not in z.files
    assert not list(path.parent.glob("*.tmp"))


def test_a_head_network_is_refused_as_the_teacher(tmp_path):
    head = _zero_head(tmp_path / "head_2p.npz")
    with pytest.raises(ValueError, match=f"the teacher {head} is a head network .*allowed: a full"):
        distil_head(head, HeadPlan(seed=0, players=2, deals=1, held_out=1, steps=1))


def test_a_part_of_another_shape_is_refused(tmp_path):
    parts = {k: np.zeros(shape, np.float32) for k, shape in HEAD_PARTS.items()}
    parts["head_U"] = np.zeros((31, 32), np.float32)
    with pytest.raises(ValueError, match=r"head_U: shape \(31, 32\), needs \(30, 32\)"):
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
        (["--players", "2", "--teacher", "nowhere.npz"], "error: --teacher nowhere.npz: not an "
         "apprentice weight file (no such file); allowed: a full network fitted for 2 players"),
        (["--players", "3", "--teacher", TEACHER], f"error: --teacher {TEACHER} was fitted for 2 "
         "players, --players is 3; allowed: a full network fitted for 3 players (A, B, b1, v, "
         "b2: canasta-sim train writes them), or no --teacher for bots version 11's file "
         "shipped for 3 players (apprentice11_3p.npz)"),
        (["--players", "2", "--seed", "-1"], "seed=-1 is not allowed; allowed: an integer from 0"),
    ],
)  # fmt: skip
def test_the_script_refuses_bad_values_with_a_usage_error(tmp_path, capsys, args, said):
    with pytest.raises(SystemExit) as stop:
        script.main([*args, "--out", str(tmp_path / "h.npz")])
    assert stop.value.code == 2 and said in capsys.readouterr().err
    assert not (tmp_path / "h.npz").exists()


def test_the_script_refuses_a_head_teacher_with_a_usage_error(tmp_path, capsys):
    head = _zero_head(tmp_path / "head_2p.npz")
    with pytest.raises(SystemExit) as stop:
        script.main(["--players", "2", "--teacher", head, "--out", str(tmp_path / "h.npz")])
    said = " ".join(capsys.readouterr().err.split())
    assert stop.value.code == 2, said
    assert (
        f"error: --teacher {head} is a head network (bots version 12's apprentice), which has no "
        "candidate network (B, v, b2) to learn from; allowed: a full network fitted for 2 "
        "players (A, B, b1, v, b2: canasta-sim train writes them), or no --teacher for bots "
        "version 11's file shipped for 2 players (apprentice11_2p.npz)"
    ) in said
    # a fresh user found train's terms here: weights=, --start, a literal {N}
    assert "weights=" not in said and "--start" not in said and "{N}" not in said


def test_the_scripts_default_teacher_is_version_11s_file(tmp_path, monkeypatch):
    taught = []

    def stop(teacher, plan):
        taught.append((teacher, plan.players))
        raise SystemExit(0)

    monkeypatch.setattr(script, "distil_head", stop)
    with pytest.raises(SystemExit):
        script.main(["--players", "3", "--out", str(tmp_path / "h.npz")])
    assert taught == [(str(default_weights_path(3, "apprentice11")), 3)]
    assert Path(taught[0][0]).name == "apprentice11_3p.npz"


def test_the_script_refuses_an_out_folder_before_distilling(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(script, "distil_head", None)  # a call would fail: no distillation
    with pytest.raises(SystemExit) as stop:
        script.main(["--players", "2", "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert f"--out {tmp_path} is a folder; allowed: a file name" in capsys.readouterr().err


def test_the_script_refuses_an_out_in_no_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(script, "distil_head", None)
    out = tmp_path / "nowhere" / "h.npz"
    with pytest.raises(SystemExit) as stop:
        script.main(["--players", "2", "--out", str(out)])
    assert stop.value.code == 2
    assert f"its folder {tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err


def test_the_script_counts_one_deal_in_the_singular(tmp_path, capsys, monkeypatch):
    facts = {"decisions": 7, "agreement_start": 0.5, "agreement_end": 0.75}
    facts["held_out_decisions"] = 4
    monkeypatch.setattr(script, "distil_head", lambda teacher, plan: ({}, facts))
    monkeypatch.setattr(script, "write_head", lambda *args: None)
    script.main(["--players", "2", "--deals", "1", "--out", str(tmp_path / "h.npz")])
    assert "7 decisions of 1 deal; the teacher's choice at 50.0%" in capsys.readouterr().out


def test_a_failed_rename_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "h.npz"
    out.mkdir()  # the rename onto a folder fails
    with pytest.raises(OSError):
        write_npz(out, {"a": np.zeros(2)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.npz"]
