"""The outcomes trainer (issue 41 item 3): its forward pass is the kernel's network, a step
moves the probability of a candidate the way its advantage says, and the file it writes
plays (the rounds and their resume: tests/learn/test_finetune.py)."""

import json

import numpy as np
import pytest

jax = pytest.importorskip("jax")
optax = pytest.importorskip("optax")

from canasta_sim import simulate  # noqa: E402
from canasta_sim.game.rules import Rules  # noqa: E402
from canasta_sim.learn import outcomes  # noqa: E402
from canasta_sim.learn.experience import SelfPlayPlan, selfplay  # noqa: E402
from canasta_sim.nb.bots.features import N_CAND_FEAT, N_STATE_FEAT  # noqa: E402
from canasta_sim.nb.bots.learned_calls import candidate_scores  # noqa: E402
from canasta_sim.nb.selfplay import PlayCol  # noqa: E402
from canasta_sim.players.specs import parse_bot  # noqa: E402
from canasta_sim.players.weights import default_weights_path, load_weights, pack  # noqa: E402

SHIPPED = default_weights_path(4, "apprentice11")  # a full network, the learner


def test_the_jax_forward_pass_is_the_kernels_network():
    """On a pinned decision (the fifth the learner logs in deal 0 of seed 8) the JAX scores
    of its logged features equal the kernel's scores of its position to float32 rounding."""
    log = selfplay(str(SHIPPED), SelfPlayPlan(seed=8, temperature=0.0), 0, 1)
    d = 4
    first, n = log["meta"][d, PlayCol.first], log["meta"][d, PlayCol.n_cands]
    params = parse_bot("apprentice").vector(4)
    weights = load_weights(str(SHIPPED))
    _, _, _, want = candidate_scores(
        log["positions"][d], Rules(players=4).to_array(), params, weights
    )
    assert len(want) == n >= 2
    p = outcomes.policy_params(outcomes.read_parts(SHIPPED))
    got = np.asarray(outcomes.scores(p, log["state"][d], log["cands"][first : first + n]))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
    np.testing.assert_array_equal(log["score"][first : first + n], want)


def _toy(adv):
    """One decision of three candidates, the second played, with advantage ``adv``; its
    logged probabilities are the policy's own (a first step: the ratio is 1)."""
    gen = np.random.default_rng(4)
    params = {
        "A": gen.normal(0, 0.3, (32, N_STATE_FEAT)).astype(np.float32),
        "B": gen.normal(0, 0.3, (32, N_CAND_FEAT)).astype(np.float32),
        "b1": np.full(32, 0.1, np.float32),
        "v": gen.normal(0, 1.0, 32).astype(np.float32),
        "b2": np.float32(0.0),
    }
    state = gen.random((1, N_STATE_FEAT)).astype(np.float32)
    cands = np.zeros((1, outcomes.MAX_CANDS, N_CAND_FEAT), np.float32)
    cands[0, :3] = gen.random((3, N_CAND_FEAT))
    mask = np.zeros((1, outcomes.MAX_CANDS), bool)
    mask[0, :3] = True
    logits = np.asarray(outcomes.scores(params, state, cands))[0, :3] / 50.0
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    p0 = np.zeros((1, outcomes.MAX_CANDS), np.float32)
    p0[0, :3] = probs
    batch = {
        "state": state,
        "cands": cands,
        "mask": mask,
        "chosen": np.array([1]),
        "logp_old": np.log(probs[1:2]).astype(np.float32),
        "adv": np.array([adv], np.float32),
        "p0": p0,
    }
    return params, batch


def _logp_chosen(params, batch):
    logits = np.asarray(outcomes.scores(params, batch["state"], batch["cands"]))[0, :3] / 50.0
    return logits[1] - np.log(np.exp(logits).sum())


@pytest.mark.parametrize("adv", [1.0, -1.0])
def test_a_step_raises_the_played_candidate_with_a_positive_advantage(adv):
    params, batch = _toy(adv)
    before = _logp_chosen(params, batch)
    grad = jax.grad(outcomes.policy_loss)(params, batch, 50.0, 0.2, 0.1)
    opt = optax.sgd(1e-3)
    updates, _ = opt.update(grad, opt.init(params))
    after = _logp_chosen(optax.apply_updates(params, updates), batch)
    assert (after - before) * adv > 0


def test_the_written_file_loads_and_plays(tmp_path):
    parts0 = outcomes.read_parts(SHIPPED)
    p = outcomes.policy_params(parts0)
    p["b1"] = p["b1"] + np.float32(0.05)  # a changed policy
    path = tmp_path / "tuned.npz"
    outcomes.write(path, p, parts0, 4, {"round": 0})
    net = load_weights(str(path))
    want = pack(outcomes.weight_parts(p))
    want[np.abs(want) < np.finfo(np.float32).tiny] = 0  # subnormal weights play as zeros
    np.testing.assert_array_equal(net, want)
    with np.load(path) as z:
        assert json.loads(str(z["report"])) == {"round": 0}
        np.testing.assert_array_equal(z["value_A"], parts0["value_A"])  # kept
    run = simulate(2, rules=Rules(players=4), bots=[f"apprentice:weights={path}"], seed=3)
    assert len(run.deals) == 2


def test_batches_are_whole_and_a_short_round_is_one_batch():
    # 5 decisions in batches of 2: two whole batches, the fifth left for the next shuffle
    assert [b.tolist() for b in outcomes.batches(np.arange(5), 2)] == [[0, 1], [2, 3]]
    # fewer decisions than a batch: one batch of them all
    assert [b.tolist() for b in outcomes.batches(np.arange(3), 1024)] == [[0, 1, 2]]


def test_a_round_smaller_than_a_batch_fits_the_critic():
    """Three decisions, batch 1024: one step of all three, its error the first critic's mean
    squared error on them (value_and_grad's loss is before the step), not NaN."""
    gen = np.random.default_rng(2)
    x = gen.random((3, 10)).astype(np.float32)
    y = np.array([100.0, -200.0, 50.0], np.float32)
    plan = outcomes.UpdatePlan(critic_epochs=1, batch=1024, seed=3)
    first = outcomes.init_critic(10, 3)
    want = np.mean((np.asarray(outcomes.critic_value(first, x)) - y) ** 2)
    critic, mse = outcomes.fit_critic(dict(first), x, y, plan)
    assert mse == pytest.approx(want, rel=1e-4)
    assert not np.array_equal(np.asarray(critic["b1"]), first["b1"])  # it stepped
