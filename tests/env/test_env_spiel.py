"""The OpenSpiel game ``python_canasta`` (issue 27 item 5): a deal played through it passes the
referee, a resampled state keeps the information set, and (slow) OpenSpiel's ISMCTS bot with 20
simulations a move plays a deal for one seat. Skipped without the ``openspiel`` extra
(``pip install -e ".[openspiel]"``), which ``.ci/run`` installs."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from canasta_sim.env import spiel  # noqa: E402
from canasta_sim.referee import check_trace  # noqa: E402


def random_deal(players: int, seed: int):
    game = pyspiel.load_game("python_canasta", {"players": players, "seed": seed})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    resampled = 0
    while not state.is_terminal():
        player = state.current_player()
        if resampled < 5:  # a world of the information set: same key, other hidden cards
            world = state.resample_from_infostate(player, rng.random)
            assert world.information_state_string(player) == state.information_state_string()
            assert world.legal_actions() == state.legal_actions()
            resampled += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_a_deal_through_openspiel_passes_the_referee(players):
    state = random_deal(players, seed=players)
    verdict = check_trace(state.deal.trace())
    assert verdict.ok, str(verdict)
    returns = state.returns()
    assert len(returns) == players and returns[0] == -returns[1]


def test_a_clone_is_independent():
    state = pyspiel.load_game("python_canasta").new_initial_state()
    other = state.clone()
    other.apply_action(other.legal_actions()[0])
    assert state.deal.turns == 0 and state.deal.phase == "draw"


@pytest.mark.slow
def test_ismcts_with_20_simulations_plays_a_deal_for_one_seat_and_the_trace_passes():
    game = pyspiel.load_game("python_canasta", {"players": 2, "seed": 3})
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=spiel.KernelRolloutEvaluator("random"),
        uct_c=2.0,
        max_simulations=20,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 10
    verdict = check_trace(state.deal.trace())
    assert verdict.ok, str(verdict)


def test_a_negative_seed_is_refused():
    with pytest.raises(ValueError, match=r"seed=-1 is not allowed"):
        pyspiel.load_game("python_canasta", {"players": 2, "seed": -1})
