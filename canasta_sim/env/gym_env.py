"""Gymnasium adapters (optional extra ``env``: ``pip install -e ".[env]"``): one learner
seat against built-in kernel bots, as an ``Env`` and as a ``VectorEnv`` over
:class:`~canasta_sim.env.VecCanasta`.

The action space is ``Discrete(N_ACTIONS)`` (the fine-grained ids), the observation
``int32[ENV_OBS_LEN]``, and the legal-action mask is ``info["action_mask"]`` (``int8``). The
reward, at the end of a deal, is the learner's side's deal score less the best other side's
(points). Environment ``0`` of a ``VectorEnv`` with seed ``s`` steps as the ``Env`` with seed
``s``.
"""

from __future__ import annotations

import numpy as np

from ..errors import missing_extra
from ..game.notation import check_int
from ..nb.actions import ENV_OBS_LEN, N_ACTIONS
from .stepping import ACTION_NAMES
from .vec import VecCanasta

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as exc:
    raise missing_extra("canasta_sim.env.gym_env", "env", exc) from None

_INT32 = np.iinfo(np.int32)
OBSERVATION_SPACE = spaces.Box(_INT32.min, _INT32.max, (ENV_OBS_LEN,), np.int32)


class CanastaEnv(gym.Env):
    """One learner at seat ``seat`` against ``opponents`` (a kernel bot spec) on the other
    seats, one deal an episode (``docs/environment.md``).

    Parameters
    ----------
    rules : Rules or str, optional
    opponents : str
        Default ``"random"``; any kernel bot but the search bot (see :class:`VecCanasta`).
    seat : int
    illegal_penalty : float, optional
        Without it an illegal action raises ``IllegalMove``; with it (a finite number
        >= 0, points) the episode ends (terminated) with reward ``-illegal_penalty``.
    render_mode : {None, "ansi"}

    Raises
    ------
    ValueError
        For a negative or non-finite ``illegal_penalty`` (a negative one would reward an
        illegal action), or another bad argument.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules=None,
        opponents: str = "random",
        seat: int = 0,
        illegal_penalty: float | None = None,
        render_mode: str | None = None,
    ):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}; allowed: None, 'ansi'")
        if illegal_penalty is not None and not (
            isinstance(illegal_penalty, (int, float)) and 0 <= illegal_penalty < float("inf")
        ):
            raise ValueError(
                f"illegal_penalty {illegal_penalty!r}; allowed: None or a finite number >= 0 "
                f"(the reward of an illegal action is -illegal_penalty)"
            )
        self._vec = VecCanasta(1, rules, opponents=opponents, seat=seat, autoreset=False)
        self.rules = self._vec.rules
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = OBSERVATION_SPACE
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._last: dict | None = None
        self._ended = False

    def reset(self, *, seed: int | None = None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        self._last = self._vec.reset(seed)
        self._ended = False
        return self._last["observation"][0].copy(), self._info()

    def step(self, action):
        if self._last is None or self._ended:
            raise RuntimeError("call reset() before step() (the episode has ended)")
        a = int(action)
        legal = 0 <= a < N_ACTIONS and bool(self._last["legal_action_mask"][0, a])
        if not legal and self.illegal_penalty is not None:
            self._ended = True
            info = {**self._info(), "illegal_action": a}
            obs = self._last["observation"][0].copy()
            return obs, -float(self.illegal_penalty), True, False, info
        self._last = self._vec.step(np.array([a], np.int64))
        terminated = bool(self._last["terminated"][0])
        truncated = bool(self._last["truncated"][0])
        self._ended = terminated or truncated
        reward = float(self._last["rewards"][0, self._vec.seat])
        return self._last["observation"][0].copy(), reward, terminated, truncated, self._info()

    def _info(self) -> dict:
        assert self._last is not None
        return {"action_mask": self._last["legal_action_mask"][0].astype(np.int8)}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._last is None:
            return None
        legal = np.flatnonzero(self._last["legal_action_mask"][0])
        return "legal: " + ", ".join(ACTION_NAMES[a] for a in legal)


class CanastaVectorEnv(VectorEnv):
    """``num_envs`` :class:`CanastaEnv` stepped by one kernel call (:class:`VecCanasta`),
    reset in the step that ends an episode (``autoreset_mode`` same-step: that step returns
    the new episode's observation and mask, and the ended episode's reward and flags; the
    ended episode's last observation is not returned: a deal's end is all in its reward).

    Parameters
    ----------
    num_envs : int
    rules, opponents, seat
        As for :class:`CanastaEnv`.
    threads : int
        Threads to step on; results do not depend on it.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, num_envs: int, rules=None, opponents: str = "random", seat: int = 0, threads: int = 1
    ):
        self._vec = VecCanasta(num_envs, rules, opponents=opponents, seat=seat, threads=threads)
        self.num_envs = num_envs
        self.single_observation_space = OBSERVATION_SPACE
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = gym.vector.utils.batch_space(OBSERVATION_SPACE, num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | None = None, options=None):
        result = self._vec.reset(seed)
        return result["observation"], {"action_mask": result["legal_action_mask"].astype(np.int8)}

    def step(self, actions):
        r = self._vec.step(np.asarray(actions, np.int64))
        info = {"action_mask": r["legal_action_mask"].astype(np.int8), **r["info"]}
        rewards = r["rewards"][:, self._vec.seat]
        return r["observation"], rewards, r["terminated"], r["truncated"], info
