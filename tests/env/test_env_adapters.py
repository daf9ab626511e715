"""The learning environment's adapters (issue 27 item 5): PettingZoo's ``api_test`` and
Gymnasium's ``check_env`` pass, and a ``VectorEnv``'s environment 0 steps as the ``Env`` on the
same seed. Skipped without the ``env`` extra (``pip install -e ".[env]"``), which
``.ci/run`` installs."""

from __future__ import annotations

import numpy as np
import pytest

from canasta_sim import Rules

pytest.importorskip("gymnasium", reason="the env extra is not installed")
pytest.importorskip("pettingzoo", reason="the env extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from canasta_sim.env.gym_env import CanastaEnv, CanastaVectorEnv  # noqa: E402
from canasta_sim.env.pettingzoo_env import env as canasta_v0  # noqa: E402
from canasta_sim.errors import IllegalMove  # noqa: E402


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test_passes(players):
    aec = canasta_v0(Rules(players=players), render_mode="ansi")
    api_test(aec, num_cycles=300)
    assert aec.metadata["rules"]["players"] == players


def test_pettingzoo_the_same_agent_acts_several_times_in_a_turn_and_rewards_sum_to_zero():
    aec = canasta_v0(Rules(players=2))
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    agents, final = [], {}
    for agent in aec.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _info = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            agents.append(agent)
    assert any(a == b for a, b in zip(agents, agents[1:]))  # draw, then discard: one agent
    assert set(final) == {"player_0", "player_1"}
    assert final["player_0"] == -final["player_1"] != 0  # the score difference, two sides


def test_gymnasium_check_env_passes():
    check_env(CanastaEnv(opponents="random", illegal_penalty=1.0), skip_render_check=True)


def test_gymnasium_an_illegal_action_raises_without_a_penalty():
    env = CanastaEnv(opponents="expert")
    env.reset(seed=1)
    with pytest.raises(IllegalMove, match=r"action 74 \(discard:B3\)"):
        env.step(74)


def test_the_vector_env_steps_as_the_env_on_the_same_seed():
    single = CanastaEnv(opponents="expert")
    vector = CanastaVectorEnv(3, opponents="expert")
    obs, info = single.reset(seed=9)
    vobs, vinfo = vector.reset(seed=9)
    rng = np.random.default_rng(4)
    for _ in range(400):
        assert (obs == vobs[0]).all() and (info["action_mask"] == vinfo["action_mask"][0]).all()
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        acts = [a] + [int(np.flatnonzero(m)[0]) for m in vinfo["action_mask"][1:]]
        obs, reward, terminated, truncated, info = single.step(a)
        vobs, vreward, vterm, vtrunc, vinfo = vector.step(np.array(acts))
        assert (reward, terminated, truncated) == (vreward[0], vterm[0], vtrunc[0])
        if terminated or truncated:
            break
    assert terminated or truncated


@pytest.mark.parametrize("penalty", [-100, float("nan"), float("inf")])
def test_gymnasium_a_negative_or_non_finite_illegal_penalty_is_refused(penalty):
    # a negative penalty rewarded an illegal action with +100
    with pytest.raises(ValueError, match=r"illegal_penalty .*allowed: None or a finite number"):
        CanastaEnv(illegal_penalty=penalty)
