"""Evaluating a policy on seat-rotated duplicate deals (issue 27 item 6)."""

from __future__ import annotations

import numpy as np
import pytest

from canasta_sim import Rules
from canasta_sim.env import VecCanasta, action_id
from canasta_sim.env.evaluation import evaluate
from canasta_sim.nb.actions import ENV_OBS_LEN, N_ACTIONS


def random_policy(seed: int):
    rng = np.random.default_rng(seed)
    shapes = []

    def policy(obs, mask):
        shapes.append((obs.shape, mask.shape))
        return (rng.random(mask.shape) + mask).argmax(axis=1)

    policy.shapes = shapes  # type: ignore[attr-defined]
    return policy


def test_a_random_policy_loses_to_the_expert_with_an_interval_below_zero():
    policy = random_policy(0)
    result = evaluate(policy, "expert", deals=24, rules=Rules(players=2), n_envs=8)
    assert result.deals == 24
    assert result.score_diff_low <= result.score_diff <= result.score_diff_high < 0
    assert 0 <= result.win_low <= result.win_rate <= result.win_high < 0.5
    assert set(policy.shapes) == {((8, ENV_OBS_LEN), (8, N_ACTIONS))}


def test_team_play_gives_the_learner_both_seats_of_its_side():
    env = VecCanasta(4, Rules(players=4), opponents="random", seat=1, team=True, seed=3)
    result = env.reset()
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(300):
        seen.update(result["current_player"].tolist())
        mask = result["legal_action_mask"]
        result = env.step((rng.random(mask.shape) + mask).argmax(axis=1))
    assert seen == {1, 3}  # side 1's seats (R-10)


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="deals"):
        evaluate(random_policy(0), deals=0)


def stalling_policy(obs, mask):
    """Draws, then stages and unstages cards for ever: never discards, so never ends a turn."""
    stage_ids = np.zeros(N_ACTIONS, np.bool_)
    stage_ids[action_id("draw")] = True
    stage_ids[action_id("stage_natural:B3") : action_id("clear") + 1] = True
    preferred = mask & stage_ids
    return np.where(preferred.any(axis=1), preferred.argmax(axis=1), mask.argmax(axis=1))


def test_truncated_deals_are_counted_and_warned_about():
    # finding: every deal truncated gave score_diff 0.0 [0.0, 0.0] without a word
    with pytest.warns(RuntimeWarning, match=r"4 of 4 deals played \(100.0%\) ended truncated"):
        result = evaluate(stalling_policy, "random", deals=2, rules=Rules(players=2), n_envs=2)
    assert (result.truncated, result.truncated_share) == (4, 1.0)


def test_a_policy_that_ends_its_turns_has_no_truncated_deals():
    result = evaluate(random_policy(0), "expert", deals=4, rules=Rules(players=2), n_envs=4)
    assert (result.truncated, result.truncated_share) == (0, 0.0)
