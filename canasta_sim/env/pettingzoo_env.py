"""A PettingZoo AEC environment, ``canasta_v0`` (optional extra ``env``: ``pip install -e
".[env]"``).

Every seat is an agent (``player_0`` .. ``player_{n-1}``); the agent to act is the seat to play,
the same agent acting several times within its turn (draw, stage, discard). Observations are
``{"observation": int32[ENV_OBS_LEN], "action_mask": int8[N_ACTIONS]}`` (the mask is zero for
an agent not to act); rewards come at the end of the deal: each seat's side's deal score less
the best other side's (points).
"""

from __future__ import annotations

import numpy as np

from ..errors import missing_extra
from ..game.deals import Deal
from ..game.notation import as_rules, check_int
from ..nb.actions import ENV_OBS_LEN, N_ACTIONS
from .stepping import ActionDeal

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:
    raise missing_extra("canasta_sim.env.pettingzoo_env", "env", exc) from None

_INT32 = np.iinfo(np.int32)


def observation_space() -> spaces.Dict:
    """The observation space of an agent: the observation array and the legal-action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(_INT32.min, _INT32.max, (ENV_OBS_LEN,), np.int32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )


class CanastaAEC(AECEnv):
    """One deal of Canasta as a PettingZoo AEC environment (``docs/environment.md``).

    Parameters
    ----------
    rules : Rules or str, optional
        Default ``Rules()`` (classic, 4 players); a str names a preset.
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the deal as text.

    Raises
    ------
    ValueError
        For a render mode other than ``None`` or ``"ansi"``.
    """

    metadata = {"name": "canasta_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules=None, render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}; allowed: None, 'ansi'")
        self.rules = as_rules(rules)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "rules": self.rules.to_dict()}
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seed = 0
        self._deals = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options=None) -> None:
        """Deal a new deal: deal ``k`` after ``reset(seed)`` is deal ``k`` of a run with that
        master seed (its dealer ``k % players``)."""
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
            self._seed, self._deals = seed, 0
        self.game = ActionDeal(Deal.new(self.rules, self._seed, deal=self._deals))
        self._deals += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.deal.current_player]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(N_ACTIONS, np.int8)
        if seat == self.game.deal.current_player and not self.game.deal.is_over:
            mask[:] = self.game.mask()
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action) -> None:
        """Take ``action`` for :attr:`agent_selection` (raises ``IllegalMove`` for an id the
        mask refuses)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.step(int(action))
        deal = self.game.deal
        if deal.is_over or self.game.truncated:
            self._finish(deal)
        else:
            self.agent_selection = self.possible_agents[deal.current_player]
        self._accumulate_rewards()

    def _finish(self, deal: Deal) -> None:
        totals = [parts["total"] for parts in deal.score().values()]
        sides = self.rules.sides
        for s, agent in enumerate(self.possible_agents):
            own = totals[s % sides]
            best_other = max(t for i, t in enumerate(totals) if i != s % sides)
            self.rewards[agent] = float(own - best_other) if deal.is_over else 0.0
            limit = deal.end_reason == "turn_limit" or not deal.is_over
            self.terminations[agent] = not limit
            self.truncations[agent] = limit

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        d = self.game.deal
        lines = [repr(d)] + [f"seat {s}: {h}" for s, h in enumerate(d.hands)]
        lines.append(f"staged: {self.game.staged_text() or '-'}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(rules=None, render_mode: str | None = None) -> CanastaAEC:
    """``canasta_v0``: a :class:`CanastaAEC` (PettingZoo's ``env()`` convention)."""
    return CanastaAEC(rules, render_mode)
