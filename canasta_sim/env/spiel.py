"""An OpenSpiel Python game, ``python_canasta`` (optional extra ``openspiel``: ``pip install -e
".[openspiel]"``).

One deal per game; the actions are the macro actions of :mod:`.macro` (the candidate layer's
candidates, 64 ids), which keep a deal to a few dozen decisions, the length OpenSpiel's search
bots can afford. The deal is shuffled from the game's ``seed`` parameter and a counter when a
state is made (no chance node: after the shuffle the deal is a function of the decisions), and
``resample_from_infostate`` fills the hidden cards with the exact world sampler of
:class:`~canasta_sim.InfoSet`, so OpenSpiel's ``ISMCTSBot`` runs on it. Returns are each seat's
side's deal score less the best other side's (points).
"""

from __future__ import annotations

import copy

import numpy as np

from ..errors import missing_extra
from ..game.deals import Deal
from ..game.notation import check_int
from ..game.rules import Rules
from ..nb.engine.rng import mix64_nb
from ..nb.engine.state import STATE_DTYPE
from .macro import MAX_MACROS, MacroDeal

try:
    import pyspiel
    from open_spiel.python.algorithms.mcts import Evaluator
except ImportError as exc:
    raise missing_extra("canasta_sim.env.spiel", "openspiel", exc) from None

#: The game's parameters and their defaults.
_DEFAULTS = {"players": 4, "seed": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_canasta",
    long_name="Python Canasta (canasta_sim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


class CanastaGame(pyspiel.Game):
    """``pyspiel.load_game("python_canasta", {"players": 4, "seed": 7})``: classic rules for
    ``players`` players; state ``k`` made by the game is deal ``k`` of a run with master seed
    ``seed``."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.rules = Rules(players=int(params["players"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_MACROS,
            max_chance_outcomes=0,
            num_players=self.rules.players,
            min_utility=-10_000.0,
            max_utility=10_000.0,
            max_game_length=4 * self.rules.max_turns,
        )
        super().__init__(_GAME_TYPE, info, params)
        check_int("seed", params["seed"], 0, 2**64 - 1)
        self._seed = int(params["seed"])
        self._made = 0

    def new_initial_state(self):
        deal = Deal.new(self.rules, self._seed, deal=self._made, trace=True)
        self._made += 1
        return CanastaState(self, MacroDeal(deal))


class CanastaState(pyspiel.State):
    """A deal played by macro actions (:class:`~canasta_sim.env.macro.MacroDeal`)."""

    def __init__(self, game: CanastaGame, macros: MacroDeal):
        super().__init__(game)
        self.macros = macros

    @property
    def deal(self) -> Deal:
        return self.macros.deal

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.deal.is_over else self.deal.current_player

    def _legal_actions(self, player):
        return list(range(len(self.macros.candidates())))

    def _apply_action(self, action) -> None:
        self.macros.step(int(action))

    def _action_to_string(self, player, action) -> str:
        listed = self.macros.candidates()
        return listed[action].label if action < len(listed) else f"macro {action}"

    def is_terminal(self) -> bool:
        return self.deal.is_over

    def returns(self) -> list[float]:
        if not self.deal.is_over:
            return [0.0] * self.deal.rules.players
        totals = [parts["total"] for parts in self.deal.score().values()]
        sides = self.deal.rules.sides
        return [
            float(totals[p % sides] - max(t for s, t in enumerate(totals) if s != p % sides))
            for p in range(self.deal.rules.players)
        ]

    def information_state_string(self, player=None) -> str:
        """What ``player`` knows now (its observation array, which holds no hidden card)."""
        seat = self.current_player() if player is None else player
        return self.deal.observation(seat).array.tobytes().hex()

    def observation_string(self, player=None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state in ``player_id``'s information set: the hidden cards (other hands' unknown
        cards, the stock order) filled by the exact world sampler, seeded from the
        sampler's draw (``probability_sampler()``, a float in [0, 1)) or at random."""
        sample = probability_sampler or np.random.default_rng().random
        draw = sample()
        seed = int(draw * 2**53)
        info = self.deal.info_set(player_id)
        world = info.sample_worlds(1, seed=seed)
        state = np.zeros(1, STATE_DTYPE)
        state[0] = info.public_state()
        state = state[0]
        rules = self.deal.rules
        state["hands"][: rules.players] = world.hands[0]
        state["stock"][rules.n_cards - info.stock_size : rules.n_cards] = world.stock[0]
        state["rng"][0] = mix64_nb(np.uint64(seed))
        return CanastaState(self.get_game(), MacroDeal(Deal(rules, state)))

    def __deepcopy__(self, memo):
        # a Deal's views share its state record; Deal.copy keeps them together
        return CanastaState(self.get_game(), MacroDeal(self.deal.copy()))

    def __str__(self) -> str:
        return repr(self.deal)


class KernelRolloutEvaluator(Evaluator):
    """An evaluator for OpenSpiel's search bots (``ISMCTSBot``, ``MCTSBot``): the deal played
    out from the state by kernel bots (``bots``, a bot spec, default ``"random"``), its
    returns the value; uniform priors.

    Parameters
    ----------
    bots : str
        Any kernel bot spec (:func:`canasta_sim.players.specs.parse_bot`).
    """

    def __init__(self, bots: str = "random"):
        self.bots = bots

    def evaluate(self, state):
        rollout = copy.deepcopy(state)
        rollout.deal.play_out(self.bots)
        return np.array(rollout.returns())

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


pyspiel.register_game(_GAME_TYPE, CanastaGame)
