"""The training example of the learning environment (issue 27 item 7,
scripts/train_against_random.py) at a tiny size."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import train_against_random as example  # noqa: E402

from canasta_sim.env.evaluation import evaluate  # noqa: E402
from canasta_sim.nb.actions import ActionSlot


def test_a_short_training_beats_the_untrained_policy_on_the_same_deals():
    # a large step size, so that 512 deals of training show (the script's default is 0.05)
    weights, curve = example.train(
        seed=3, updates=16, n_envs=32, threads=1, max_seconds=600, lr=0.2
    )
    assert curve.shape == (16,)
    # taking the pile is worth more to a side than drawing: the first thing it learns
    assert weights[example.BLOCKS.index("take")] > weights[example.BLOCKS.index("draw")]
    results = [
        evaluate(example.policy_of(w, 5), "random", deals=48, n_envs=48, seed=11)
        for w in (np.zeros_like(weights), weights)
    ]
    uniform, trained = results
    assert trained.score_diff > uniform.score_diff + 300  # points a deal, same 48 boards


def test_the_features_describe_staging_and_discarding_the_hand():
    obs = np.zeros((1, example.OBS_LEN + 36), np.int32)
    obs[0, 16 + 12] = 3  # three aces (kind 12, R-02)
    obs[0, 16 + 14] = 1  # a joker
    phi = example.features(obs)[0]
    names = example.FEATURE_NAMES
    stage_ace, discard_joker = ActionSlot.stage_natural + 11, ActionSlot.discard + 13
    assert phi[stage_ace, names.index("stage: makes a meld")] == 1.0
    assert phi[stage_ace, names.index("stage: in hand")] == 0.75
    assert phi[ActionSlot.stage_natural, names.index("stage: makes a meld")] == 0.0
    assert phi[discard_joker, names.index("discard: points")] == 1.0  # 50 of 50
    assert phi[discard_joker, names.index("discard: wild")] == 1.0
    assert phi[discard_joker, names.index("discard: single")] == 1.0
    assert phi[ActionSlot.draw].sum() == 1.0  # the draw: its block only


def test_the_sampled_actions_are_legal_and_follow_the_seed():
    rng = np.random.default_rng(0)
    mask = rng.random((200, example.N_ACTIONS)) < 0.1
    mask[:, 0] = True
    phi = rng.random((200, example.N_ACTIONS, example.N_FEATURES))
    p = example.probabilities(rng.normal(size=example.N_FEATURES), phi, mask)
    assert np.allclose(p.sum(axis=1), 1.0) and (p[~mask] == 0).all()
    a = example.sample(p, np.random.default_rng(1))
    assert mask[np.arange(200), a].all()
    assert (a == example.sample(p, np.random.default_rng(1))).all()
