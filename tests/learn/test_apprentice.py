"""The apprentice (learned bot): its kernel scores equal the trainer's, the trainer recovers a
known scorer, labelled shards are resumable and deterministic, its deals pass the referee,
and its spec takes a weight file."""

import shutil
from dataclasses import replace

import numpy as np
import pytest

from canasta_sim.game.deals import trace_deal
from canasta_sim.game.rules import Rules
from canasta_sim.learn import train
from canasta_sim.learn.shards import (
    LabelPlan,
    label_shard,
    load_labels,
    make_labels,
    refeature,
    write_shard,
)
from canasta_sim.nb.bots.apprentice import score_candidates_nb
from canasta_sim.nb.bots.features import (
    FEATURE_WIDTHS,
    FEATURE_WORK_DTYPE,
    N_CAND_FEAT,
    N_STATE_FEAT,
)
from canasta_sim.nb.bots.memory import MAX_CANDIDATES
from canasta_sim.nb.bots.policies import EXPERT_PARAMS, PimcParam
from canasta_sim.nb.labels import LABEL_LEN, LabelCol
from canasta_sim.players.specs import parse_bot
from canasta_sim.players.weights import PARTS, default_weights_path, pack, weights_hash
from canasta_sim.referee import check_trace

#: The trainer's label kernels are not in the warm-up: compiled once per run (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("label_kernels")


def _synthetic(n_dec=300, seed=0):
    """Random decisions of 2 to 6 candidates (features in [0, 1))."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(2, 7, n_dec)
    meta = np.zeros((n_dec, LABEL_LEN), np.int64)
    meta[:, LabelCol.n_cands] = counts
    meta[:, LabelCol.first] = np.concatenate([[0], np.cumsum(counts)[:-1]])
    meta[:, LabelCol.deal] = np.arange(n_dec)
    return {
        "state": rng.random((n_dec, N_STATE_FEAT), dtype=np.float32),
        "cands": rng.random((counts.sum(), N_CAND_FEAT), dtype=np.float32),
        "meta": meta,
        "value": np.zeros(counts.sum(), np.float32),
    }


def _net(value: float) -> dict:
    """A network whose every weight is ``value``."""
    return {k: np.full(shape, value, np.float32) for k, shape in PARTS.items()}


def test_kernel_scores_equal_trainer_predictions():
    """score_candidates_nb (the bot's kernel, float32, the state half once per decision) and
    the trainer's predictions (scikit-learn's MLPRegressor, float64) agree to 1e-4 of the
    scores' scale on pinned random decisions, for a network fitted on them."""
    pytest.importorskip("sklearn")
    from canasta_sim.learn import network

    lab = _synthetic(300, seed=1)
    rng = np.random.default_rng(4)
    lab["value"] = rng.normal(0, 300, len(lab["cands"])).astype(np.float32)
    model = network.fit_network(lab, np.arange(300), seed=0)
    want = network.predict(model, lab)
    weights = pack(network.parts(model))
    fwork = np.zeros(1, FEATURE_WORK_DTYPE)[0]
    for d in range(40):
        first, n = lab["meta"][d, LabelCol.first], lab["meta"][d, LabelCol.n_cands]
        fwork["state"][:] = lab["state"][d]
        fwork["cands"][:n] = lab["cands"][first : first + n]
        score_candidates_nb(weights, fwork, np.int64(n))
        got = fwork["scores"][:n]
        np.testing.assert_allclose(got, want[first : first + n], rtol=1e-4, atol=1e-4 * 300)
    assert np.ptp(want) > 1.0  # the network is not a constant


def _row_by_row(parts: dict, state: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """The network's scores in float32, each hidden unit summed over one row of ``A`` and of
    ``B`` in feature order, as a plain loop (every product and sum rounded to float32)."""
    f32 = np.float32
    out = []
    for c in cands:
        score = f32(parts["b2"])
        for j in range(len(parts["b1"])):
            acc = f32(parts["b1"][j])
            for i, x in enumerate(state):
                acc = f32(acc + f32(parts["A"][j, i] * x))
            for i, x in enumerate(c):
                acc = f32(acc + f32(parts["B"][j, i] * x))
            if acc > 0:
                score = f32(score + f32(parts["v"][j] * acc))
        out.append(score)
    return np.array(out, np.float32)


def test_kernel_scores_equal_row_by_row_sums_exactly():
    """score_candidates_nb sums the hidden units side by side and skips features at 0; its
    float32 scores are bit for bit those of each unit's row summed in feature order, on sparse
    features (about 3 in 4 at 0, some at -0.0) and random read-only weights with units whose
    sum is 0."""
    rng = np.random.default_rng(11)
    parts = {k: rng.normal(0, 1, shape).astype(np.float32) for k, shape in PARTS.items()}
    parts["b1"][:8] = 0.0  # units whose sum is 0 when their features are
    weights = pack(parts)
    weights.setflags(write=False)  # as load_weights gives them
    fwork = np.zeros(1, FEATURE_WORK_DTYPE)[0]
    for d in range(30):
        state = rng.random(N_STATE_FEAT, dtype=np.float32)
        state[rng.random(N_STATE_FEAT) < 0.5] = 0.0
        n = int(rng.integers(1, 9))
        cands = rng.normal(0, 1, (n, N_CAND_FEAT)).astype(np.float32)
        cands[rng.random((n, N_CAND_FEAT)) < 0.75] = 0.0
        cands[:, 3] = -0.0
        if d % 5 == 0:
            state[:] = 0.0  # the state half is b1 alone
        fwork["state"][:] = state
        fwork["cands"][:n] = cands
        score_candidates_nb(weights, fwork, np.int64(n))
        np.testing.assert_array_equal(fwork["scores"][:n], _row_by_row(parts, state, cands))


def test_kernel_scores_each_single_feature_in_its_slot():
    """A candidate whose one nonzero feature is slot ``i``, for every ``i`` (the first and the
    last bit of the sparse scorer's mask included), scores as the row-by-row sum: the
    feature is read from its own slot with its own weights."""
    rng = np.random.default_rng(12)
    parts = {k: rng.normal(0, 1, shape).astype(np.float32) for k, shape in PARTS.items()}
    weights = pack(parts)
    fwork = np.zeros(1, FEATURE_WORK_DTYPE)[0]
    state = rng.random(N_STATE_FEAT, dtype=np.float32)
    cands = np.diag(rng.normal(0, 2, N_CAND_FEAT).astype(np.float32))
    fwork["state"][:] = state
    want = _row_by_row(parts, state, cands)
    for at in range(0, N_CAND_FEAT, MAX_CANDIDATES):  # the work record holds MAX_CANDIDATES
        n = len(cands[at : at + MAX_CANDIDATES])
        fwork["cands"][:n] = cands[at : at + n]
        score_candidates_nb(weights, fwork, np.int64(n))
        np.testing.assert_array_equal(fwork["scores"][:n], want[at : at + n])
    assert len(set(want.tolist())) == N_CAND_FEAT  # each slot's weights tell it apart


def test_network_fit_is_reproducible_and_learns():
    """Two fits from one seed give the same weights; a fit on values made by a known rule of
    the candidate features (plus a per-decision offset, which advantages remove) picks
    the best candidate far more often than chance on decisions it did not see."""
    pytest.importorskip("sklearn")
    from canasta_sim.learn import network

    lab = _synthetic(3000, seed=5)
    dec, _ = train.candidate_rows(lab)
    offset = np.random.default_rng(6).normal(0, 500, 3000)
    lab["value"] = (400 * lab["cands"][:, 0] * lab["state"][dec, 1] + offset[dec]).astype(
        np.float32
    )
    model = network.fit_network(lab, np.arange(2500), seed=3)
    a, b = network.parts(model), network.parts(network.fit_network(lab, np.arange(2500), seed=3))
    for k in PARTS:
        np.testing.assert_array_equal(a[k], b[k])
    held = train.evaluate(network.predict(model, lab), lab, np.arange(2500, 3000))
    assert held["best"] > 0.8  # chance: about 1 in 4 (2 to 6 candidates)


def test_fit_recovers_a_known_scorer():
    """Values made by a known W plus a per-decision offset (which advantages remove): the
    ridge fit with a tiny penalty finds W, and then picks every decision's best candidate."""
    lab = _synthetic(3000, seed=2)
    rng = np.random.default_rng(3)
    n_state, n_cand = train.BASELINE_WIDTHS
    w_true = rng.normal(0, 10, (n_cand, n_state)).astype(np.float32)
    offset = rng.normal(0, 500, len(lab["meta"]))
    dec, _ = train.candidate_rows(lab)
    lab["value"] = (train.scores(w_true, lab) + offset[dec]).astype(np.float32)
    w = train.fit(lab, np.arange(len(lab["meta"])), alpha=1e-9)
    fitted = train.scores(w, lab) - train.scores(w_true, lab)
    per_dec = np.array([np.ptp(fitted[dec == d]) for d in range(50)])
    assert per_dec.max() < 0.5  # equal up to a constant per decision (points)
    assert train.evaluate(train.scores(w, lab), lab, np.arange(len(lab["meta"])))["best"] == 1.0


def test_labelling_progress_in_a_log_is_lines_not_a_bar(tmp_path, monkeypatch, capsys):
    """stderr not a terminal (a log): ``train``'s labelling writes progress lines like the
    other commands (here one per shard, the interval set to 0 s), not a bar's carriage
    returns."""
    monkeypatch.setattr("canasta_sim.run.progress.LOG_INTERVAL", 0.0)
    plan = LabelPlan(seed=4, deals=1, worlds=2, every=2, players=(2,))
    make_labels(tmp_path, plan, 2)
    err = capsys.readouterr().err
    assert "\r" not in err
    assert "1 of 2 shards (50.0%)" in err.splitlines()[-1]


def test_labels_resume_and_repeat(tmp_path):
    """Shards are written whole; a deleted shard is made again, byte-for-byte the same data,
    the others are left alone; each decision's best is its argmax of rollout values."""
    plan = LabelPlan(seed=4, deals=1, worlds=2, every=2, players=(2,))
    paths = make_labels(tmp_path, plan, 2, progress=False)
    first = dict(np.load(paths[0]))
    stamp = paths[1].stat().st_mtime_ns
    paths[0].unlink()
    make_labels(tmp_path, plan, 2, progress=False)
    again = dict(np.load(paths[0]))
    assert paths[1].stat().st_mtime_ns == stamp
    for k in ("state", "meta", "cands", "value"):
        np.testing.assert_array_equal(first[k], again[k])
    lab = load_labels(paths)
    assert len(lab["meta"]) > 0
    assert not list(tmp_path.glob("*.tmp"))
    for row in lab["meta"]:
        v = lab["value"][row[LabelCol.first] : row[LabelCol.first] + row[LabelCol.n_cands]]
        assert row[LabelCol.n_cands] >= 2
        assert v[row[LabelCol.best]] == np.nanmax(v)


def test_labels_keep_positions_candidates_and_outcomes(tmp_path):
    """Each labelled decision keeps its position and candidates, from which the kernel gives
    back the very features stored beside them (so later feature versions can be computed
    from old labels, one at a time and all at once: ``refeature``), and its deal's outcome:
    the seat's side's deal score minus the other side's (2 sides here), so partners share it
    and opponents' outcomes are its negative."""
    from canasta_sim.nb.bots.apprentice import decision_features_nb
    from canasta_sim.nb.bots.features import feature_work
    from canasta_sim.nb.bots.search_candidates import search_work
    from canasta_sim.nb.enums import DealSlot

    lab = label_shard(LabelPlan(seed=4, deals=2, worlds=2, every=2, players=(4,)), 0)
    rules = Rules.preset("classic", 4).to_array()
    work, fwork = search_work(1)[1][0], feature_work(1)[0]
    assert len(lab["positions"]) == len(lab["meta"]) > 10
    for d, row in enumerate(lab["meta"]):
        first, n = row[LabelCol.first], row[LabelCol.n_cands]
        work["kind"][:n] = lab["cand_kind"][first : first + n]
        work["plans"][:n] = lab["cand_plan"][first : first + n]
        work["discard"][:n] = lab["cand_discard"][first : first + n]
        decision_features_nb(lab["positions"][d], rules, work, fwork, np.int64(n), np.int64(0))
        np.testing.assert_array_equal(fwork["state"], lab["state"][d])
        np.testing.assert_array_equal(fwork["cands"][:n], lab["cands"][first : first + n])
        assert lab["positions"][d]["g"][DealSlot.current] == row[LabelCol.seat]
    for deal in np.unique(lab["meta"][:, LabelCol.deal]):
        rows = lab["meta"][:, LabelCol.deal] == deal
        side = lab["meta"][rows, LabelCol.seat] % 2
        out = lab["outcome"][rows]
        assert np.all(out[side == 0] == out[side == 0][0])
        assert np.all(out[side == 1] == -out[side == 0][0]) or not np.any(side == 0)
        assert out[0] % 5 == 0  # deal scores are multiples of 5 points
    lab["players"] = np.full(len(lab["meta"]), 4)
    lab["preset"] = np.full(len(lab["meta"]), "classic")
    again = refeature({**lab, "state": lab["state"] * 0, "cands": lab["cands"] * 0})
    np.testing.assert_array_equal(again["state"], lab["state"])
    np.testing.assert_array_equal(again["cands"], lab["cands"])
    # a shard of feature version 1's widths that keeps its positions reads with today's
    old = {**lab, "state": lab["state"][:, :24], "cands": lab["cands"][:, :32]}
    del old["players"], old["preset"]
    write_shard(tmp_path / "shard_00000.npz", {**old, "players": np.int64(4), "preset": "classic"})
    read = load_labels([tmp_path / "shard_00000.npz"])
    np.testing.assert_array_equal(read["state"], lab["state"])
    np.testing.assert_array_equal(read["cands"], lab["cands"])


@pytest.mark.parametrize("players", [2, 4])
def test_referee_accepts_apprentice_deals(players):
    """Every apprentice deal passes the referee (R-10..R-66), against the expert and alone."""
    rules = Rules(players=players)
    for deal in range(6):
        bots = ["apprentice", "expert"] if deal % 2 == 0 else ["apprentice"]
        verdict = check_trace(trace_deal(rules, bots, seed=3, deal=deal))
        assert verdict.ok, (deal, str(verdict))


def test_spec_weights(tmp_path):
    """weights=PATH names a weight file (kept in the spec); a missing or foreign file, or
    weights= on another bot, is a bad spec naming the value."""
    path = tmp_path / "w.npz"
    train.save(path, _net(1.0))
    bot = parse_bot(f"apprentice:temperature=5,weights={path}")
    assert bot.weights == str(path) and bot.spec == f"apprentice:temperature=5,weights={path}"
    with pytest.raises(ValueError, match="missing.npz"):
        parse_bot(f"apprentice:weights={tmp_path / 'missing.npz'}")
    np.savez(tmp_path / "bad.npz", W=np.ones((3, 3)))
    with pytest.raises(ValueError, match="shape"):
        parse_bot(f"apprentice:weights={tmp_path / 'bad.npz'}")
    with pytest.raises(ValueError, match="apprentice only"):
        parse_bot(f"expert:weights={path}")


def test_subnormal_weights_read_as_zeros(tmp_path):
    """A weight below float32's smallest normal number (1.18e-38) is read as 0, every other
    weight as written: the smallest normal itself, 1.0 and -2.5 stay."""
    from canasta_sim.nb.bots.apprentice import NetSlot
    from canasta_sim.players.weights import load_weights

    tiny = np.finfo(np.float32).tiny
    parts = _net(1.0)
    parts["A"][0, :4] = [tiny / 4, -tiny / 1000, tiny, -2.5]
    parts["B"][3, 5] = np.float32(1e-41)
    path = tmp_path / "w.npz"
    train.save(path, parts)
    net = load_weights(str(path))
    expected = {k: v.copy() for k, v in parts.items()}
    expected["A"][0, :2] = 0
    expected["B"][3, 5] = 0
    np.testing.assert_array_equal(net, pack(expected))
    weights = net[: NetSlot.skips]  # then the blocks it does not read: none (0)
    assert (weights == 0).sum() == 3 and (net == tiny).sum() == 1 and (net == -2.5).sum() == 1
    assert net[NetSlot.skips] == 0
    assert not net.flags.writeable


def test_labels_on_dask_equal_threads(tmp_path):
    """A labelling run on a local Dask cluster writes the same shards as one on threads, also
    when it makes only a range of them (a later stage of ``canasta-sim train``: shard 1 of 2
    alone); an empty range is refused."""
    plan = LabelPlan(seed=4, deals=1, worlds=2, every=2, players=(2,))
    here = make_labels(tmp_path / "here", plan, 2, progress=False)
    dask = make_labels(tmp_path / "dask", plan, 2, first=1, progress=False, scheduler="local:1")
    assert [p.name for p in dask] == ["shard_00001.npz"]
    assert [p.name for p in (tmp_path / "dask").iterdir()] == ["shard_00001.npz"]
    za, zb = np.load(here[1]), np.load(dask[0])
    for k in ("state", "meta", "cands", "value"):
        np.testing.assert_array_equal(za[k], zb[k])
    with pytest.raises(ValueError, match="first=2, shards=2, threads=1: allowed: 0 <= first"):
        make_labels(tmp_path / "none", plan, 2, first=2)


def test_deal_api_plays_the_named_weights_like_the_chunk_kernel(tmp_path):
    """A ``Deal`` played with ``apprentice:weights=PATH`` scores as the same deal of a
    simulation (the chunk kernel) with that spec; all-zero weights (every candidate ties, so
    the first is played) play differently from the shipped ones in some deal."""
    from canasta_sim import simulate
    from canasta_sim.game.deals import Deal

    zeros = tmp_path / "zeros.npz"
    train.save(zeros, _net(0.0))
    rules = Rules(players=4)
    totals = {}
    for spec in (f"apprentice:weights={zeros}", "apprentice"):
        run = simulate(4, rules=rules, bots=[spec, "expert"], seed=9)
        sides = run.sides.sort_values(["deal", "side"])
        for deal in range(4):
            d = Deal.new(rules, seed=9, deal=deal)
            d.play_out([spec, "expert"])
            got = [d.score()[s]["total"] for s in range(2)]
            assert got == sides[sides.deal == deal].score.tolist(), (spec, deal)
            totals[spec, deal] = got
    assert any(
        totals[f"apprentice:weights={zeros}", k] != totals["apprentice", k] for k in range(4)
    )


def test_temperature_samples_legal_moves():
    """With a temperature the apprentice samples among its candidates (from the deal's random
    stream): its deals pass the referee and some play differs from the argmax bot's."""
    rules = Rules(players=4)
    differ = 0
    for deal in range(4):
        hot = trace_deal(rules, ["apprentice:temperature=200", "expert"], seed=5, deal=deal)
        assert check_trace(hot).ok
        differ += hot != trace_deal(rules, ["apprentice", "expert"], seed=5, deal=deal)
    assert differ > 0


def test_labels_with_apprentice_rollouts(tmp_path):
    """Expert iteration: labels whose rollouts play the apprentice (the weights of a previous
    round, from ``LabelPlan.weights``) value the same decisions otherwise than the expert's
    rollouts, and a second run from the seed writes the same shard."""
    w = tmp_path / "round1"
    w.mkdir()
    shutil.copy(default_weights_path(2), w / "apprentice_2p.npz")
    learned = LabelPlan(seed=4, deals=1, worlds=2, every=2, players=(2,), follow=0)
    learned = replace(learned, search="pimc:rollout=apprentice", weights=str(w))
    # the deals are the rollout expert's: the same knobs as the rollout apprentice's
    # candidate expert (the apprentice's, not the 2-player expert's), so the same deals
    v = parse_bot(learned.search).vector(2)[PimcParam.expert :]
    knobs = ",".join(f"rollout.{p.name}={float(x)!r}" for p, x in zip(EXPERT_PARAMS, v))
    base = replace(learned, search=f"pimc:{knobs}", weights="")
    ex = dict(np.load(make_labels(tmp_path / "ex", base, 1, progress=False)[0]))
    ap = dict(np.load(make_labels(tmp_path / "ap", learned, 1, progress=False)[0]))
    again = dict(np.load(make_labels(tmp_path / "again", learned, 1, progress=False)[0]))
    # follow=0: the deals go on with the expert's choices, so the decisions are the same
    np.testing.assert_array_equal(ex["state"], ap["state"])
    np.testing.assert_array_equal(ex["cands"], ap["cands"])
    assert not np.array_equal(ex["value"], ap["value"], equal_nan=True)
    assert str(ap["rollout_weights"]) == weights_hash(w / "apprentice_2p.npz")
    assert str(ex["rollout_weights"]) == ""
    for k in ("state", "meta", "cands", "value"):
        np.testing.assert_array_equal(ap[k], again[k])
    with pytest.raises(ValueError, match="apprentice_2p.npz"):
        label_shard(replace(learned, weights=str(tmp_path / "none")), 0)


def test_spec_refuses_weight_set_and_hides_it():
    """``weight_set`` is set by the run from ``weights=PATH``: a spec giving it is refused
    with a message pointing to ``weights=PATH``, and neither the allowed parameters of a bad
    spec nor the docs' parameter tables list it."""
    from canasta_sim.players.specs import policies_markdown

    for spec in ("apprentice:weight_set=3", "pimc:rollout=apprentice,weight_set=1"):
        with pytest.raises(ValueError, match="weight_set is set by the run.*weights=PATH"):
            parse_bot(spec)
    with pytest.raises(ValueError, match="allowed: ") as info:
        parse_bot("apprentice:nonsense=1")
    assert "weight_set" not in str(info.value) and "temperature" in str(info.value)
    assert "`weight_set`" not in policies_markdown()


def test_manifests_name_shipped_weights_by_package_not_by_path(tmp_path):
    """A run's manifest records the shipped weight file by package, name and hash (the same
    on every machine: no absolute path of this one), a file of the user's by the path its
    spec gave, with its hash; a folder with the earlier record ({path: hash}) still merges
    and replays."""
    import hashlib
    import json

    from canasta_sim import simulate
    from canasta_sim.run.address import deal_of_run
    from canasta_sim.run.merge import merge_runs

    zeros = tmp_path / "zeros.npz"
    train.save(zeros, _net(0.0))
    bots = ["apprentice", f"apprentice:weights={zeros}"]
    simulate(2, rules=Rules(players=4), bots=bots, seed=1, out=tmp_path / "a")
    text = (tmp_path / "a" / "manifest.json").read_text()
    shipped = default_weights_path(4)
    assert str(shipped.parent) not in text
    assert json.loads(text)["weights"] == [
        {
            "package": "canasta_sim",
            "file": "apprentice_4p.npz",
            "sha256": hashlib.sha256(shipped.read_bytes()).hexdigest()[:16],
        },
        {"path": str(zeros), "sha256": hashlib.sha256(zeros.read_bytes()).hexdigest()[:16]},
    ]
    b = tmp_path / "b"
    simulate(2, rules=Rules(players=4), bots=bots, seed=1, first_deal=2, out=b)
    old = json.loads((b / "manifest.json").read_text())
    old["weights"] = {str(shipped): "0123456789abcdef", str(zeros): "fedcba9876543210"}
    (b / "manifest.json").write_text(json.dumps(old))
    assert merge_runs([tmp_path / "a", b], tmp_path / "ab").manifest["deals"] == 4
    assert deal_of_run(b, 3).deal == 3


def test_weights_of_another_player_count_are_refused(tmp_path):
    """A weight file fitted for 4 players (recorded in the file, or in its name
    ``apprentice_4p.npz``) is refused for a 2-player table with a message naming both
    counts; at 4 players, and for a file recording neither, it plays."""
    from canasta_sim import simulate

    recorded = tmp_path / "mine.npz"
    train.save(recorded, _net(0.0), players=np.int64(4))
    named = tmp_path / "apprentice_4p.npz"
    train.save(named, _net(0.0))
    unknown = tmp_path / "other.npz"
    train.save(unknown, _net(0.0))
    for path in (recorded, named):
        with pytest.raises(ValueError, match=r"fitted for 4 players, this table has 2"):
            simulate(1, rules=Rules(players=2), bots=[f"apprentice:weights={path}"], seed=1)
        run = simulate(1, rules=Rules(players=4), bots=[f"apprentice:weights={path}"], seed=1)
        assert len(run.sides) == 2  # one deal, a row per side
    run = simulate(1, rules=Rules(players=2), bots=[f"apprentice:weights={unknown}"], seed=1)
    assert len(run.sides) == 2


def test_a_version_1_file_plays_as_before(tmp_path):
    """A weight file of feature version 1 (bots version 8's 4-player one: A 32 x 24, B 32 x 32) and
    the same network written as version 2 with zero weights for the appended slots pack to the
    same array; on a pinned decision the bot's scores are, bit for bit, those of the version-1
    network summed row by row over the version-1 slots alone (as the kernels summed them before
    the slots were appended). Another version, or version-2 widths with version 1, is refused."""
    from search_positions import position

    from canasta_sim.nb.bots.apprentice import decision_features_nb
    from canasta_sim.nb.bots.features import feature_work
    from canasta_sim.nb.bots.learned_calls import candidate_scores
    from canasta_sim.nb.bots.search_candidates import search_work
    from canasta_sim.players.weights import load_weights

    shipped = default_weights_path(4, "apprentice8")
    with np.load(shipped) as z:
        assert int(z["feature_version"]) == 1
        v1 = {k: z[k] for k in PARTS}
    n_state, n_cand = FEATURE_WIDTHS[1]
    assert v1["A"].shape == (32, n_state) and v1["B"].shape == (32, n_cand)
    wide = dict(v1)
    wide["A"] = np.pad(v1["A"], ((0, 0), (0, N_STATE_FEAT - n_state)))
    wide["B"] = np.pad(v1["B"], ((0, 0), (0, N_CAND_FEAT - n_cand)))
    path = tmp_path / "v2.npz"
    train.save(path, wide)
    with np.load(path) as z:
        assert int(z["feature_version"]) == 2
    old, new = load_weights(str(shipped)), load_weights(str(path))
    np.testing.assert_array_equal(old, new)

    d = position(4, 0, 18)
    s, r = d.state, d.rules.to_array()
    params = parse_bot("apprentice").vector(4)
    kinds, plans, discards, scores = candidate_scores(s, r, params, old)
    np.testing.assert_array_equal(candidate_scores(s, r, params, new)[3], scores)
    work, fwork = search_work(1)[1][0], feature_work(1)[0]
    n = len(kinds)
    work["kind"][:n], work["plans"][:n], work["discard"][:n] = kinds, plans, discards
    decision_features_nb(s, r, work, fwork, np.int64(n), np.int64(0))
    cands = fwork["cands"][:n]
    assert cands[:, n_cand:].any()  # the appended candidate slots are read, at weight 0
    flushed = {k: np.where(np.abs(v) < np.finfo(np.float32).tiny, 0, v) for k, v in v1.items()}
    want = _row_by_row(flushed, fwork["state"][:n_state], cands[:, :n_cand])
    np.testing.assert_array_equal(scores, want)

    refusals = (
        (3, v1, "feature version 3; allowed: "),
        (
            1,
            wide,
            r"not an apprentice weight file \(network part A of shape \(32, 118\), not "
            r"\(32, 24\)\)",
        ),
    )
    for version, parts, said in refusals:
        bad = tmp_path / f"bad_{version}.npz"
        np.savez(bad, feature_version=np.int64(version), **parts)
        with pytest.raises(ValueError, match=f"weights={bad}: {said}.*feature version 1 has A"):
            load_weights(str(bad))


def test_state_blocks_a_network_does_not_read_are_not_counted():
    """A network whose weights on a block of state features are all 0 says so in its packed
    array (``NetSlot.skips``: bit 1 the per-kind blocks, bit 2 the neighbours' slots), and the
    kernels then write that block as 0 instead of counting it: on a pinned decision its scores
    are, bit for bit, those it gives when every block is counted (a feature times a weight of 0
    adds nothing), the blocks it reads are the same, and a block counted at an earlier
    decision of the same feature work is 0 again."""
    from search_positions import position

    from canasta_sim.nb.bots.apprentice import NetSlot, decision_features_nb
    from canasta_sim.nb.bots.features import Skip, StateFeat, feature_work
    from canasta_sim.nb.bots.learned_calls import candidate_scores
    from canasta_sim.nb.bots.search_candidates import search_work

    with np.load(default_weights_path(4, "apprentice10")) as z:  # it reads every block
        shipped = {k: z[k] for k in PARTS}
    kinds = slice(StateFeat.hand_kinds, StateFeat.next_passed)
    neighbours = slice(StateFeat.next_passed, N_STATE_FEAT)
    nets = {}
    for bits, cols in ((0, ()), (1, (kinds,)), (2, (neighbours,)), (3, (kinds, neighbours))):
        a = shipped["A"].copy()
        for c in cols:
            a[:, c] = 0.0
        nets[bits] = pack({**shipped, "A": a})
        assert nets[bits][NetSlot.skips] == bits
    assert (Skip.kinds, Skip.neighbours) == (1, 2)

    d = position(4, 0, 18)
    s, r = d.state, d.rules.to_array()
    params = parse_bot("apprentice").vector(4)
    work, fwork = search_work(1)[1][0], feature_work(1)[0]
    for bits, net in nets.items():
        counted = net.copy()
        counted[NetSlot.skips] = 0.0  # the same weights, every block counted
        found, plans, discards, scores = candidate_scores(s, r, params, net)
        np.testing.assert_array_equal(scores, candidate_scores(s, r, params, counted)[3])
        n = len(found)
        work["kind"][:n], work["plans"][:n], work["discard"][:n] = found, plans, discards
        decision_features_nb(s, r, work, fwork, np.int64(n), np.int64(0))
        every = fwork["state"].copy()
        assert every[kinds].any() and every[neighbours].any()
        decision_features_nb(s, r, work, fwork, np.int64(n), np.int64(bits))
        state = fwork["state"]
        for bit, cols in ((1, kinds), (2, neighbours)):
            want = np.zeros_like(every[cols]) if bits & bit else every[cols]
            np.testing.assert_array_equal(state[cols], want)
        np.testing.assert_array_equal(state[: StateFeat.hand_kinds], every[: StateFeat.hand_kinds])


def test_labels_of_another_feature_width_are_refused(tmp_path):
    """A shard labelled with feature version 1 (24 state and 32 candidate slots) that keeps no
    positions is refused by name: its rows would be split wrongly between the network's state
    and candidate halves, and its features cannot be computed again."""
    path = tmp_path / "shard_00000.npz"
    meta = np.zeros((1, LABEL_LEN), np.int64)
    meta[0, LabelCol.n_cands] = 2
    cands = np.zeros((2, 32), np.float32)
    np.savez(path, state=np.zeros((1, 24), np.float32), meta=meta, cands=cands, value=np.zeros(2))
    want = (
        f"shard {path}: 24 state and 32 candidate features and no kept positions; allowed: "
        "118 and 62"
    )
    with pytest.raises(ValueError, match=want):
        load_labels([path])
