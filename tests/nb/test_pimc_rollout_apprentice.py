"""pimc's rollouts with the apprentice (``pimc:rollout=apprentice``, issue 26 item 4) equal
playing the same world out with apprentice bots through the Deal API.

With ``see_hidden=1`` and one world the search rolls every candidate out on the true cards, so
each candidate's total (:func:`canasta_sim.nb.bots.pimc.search_nb`'s ``work.total``) is the
score difference of one play-out: the candidate's moves made on a copy of the deal, then every
seat played by the apprentice (:meth:`canasta_sim.Deal.play_out`, which gives each turn fresh
scratch records). The two agree only if each rollout seat reads the search seat's weight set
(here the second of two sets), plays at temperature 0 with the apprentice's own ``top`` and
candidate expert (not pimc's rollout expert of the player count), and its scratch and feature
work are its own, not the searching seat's.
"""

import numpy as np
import pytest
from search_positions import position

from canasta_sim import Deal
from canasta_sim.nb.bots.features import feature_work
from canasta_sim.nb.bots.memory import new_bot
from canasta_sim.nb.bots.pimc import score_diff_nb, search_nb
from canasta_sim.nb.bots.policies import ApprenticeParam, PimcParam
from canasta_sim.nb.bots.search_candidates import (
    N_EXPERT,
    draw_candidates_nb,
    play_candidates_nb,
    search_work,
)
from canasta_sim.nb.enums import EV_LEN, DealSlot, Phase
from canasta_sim.nb.worlds import apply_candidate_nb
from canasta_sim.players.specs import parse_bot
from canasta_sim.players.weights import default_weights_path, load_weights

NO_LOG = np.zeros((0, EV_LEN), np.int32)
TOP = 3  # pimc's own discards kept per meld choice


def rollout_totals(d: Deal, params: np.ndarray, weights: np.ndarray):
    """The current decision's candidates (pimc's, ``melds=1`` at the play decision) and each
    one's rolled-out score difference on the true cards (one world, ``see_hidden=1``)."""
    state = d.copy().state
    rules = d.rules.to_array()
    rstates, works = search_work(2)
    learner = (rstates[1], works[1], weights, feature_work(1)[0])
    work = works[0]
    rparams = work["rparams"][:N_EXPERT]  # as pimc_turn_nb fills them before its search
    rparams[:] = params[PimcParam.expert : PimcParam.expert + N_EXPERT]
    if state["g"][DealSlot.phase] == Phase.draw:
        n = draw_candidates_nb(state, rules, work)
    else:
        n = play_candidates_nb(state, rules, new_bot(), rparams, rstates[0], work, TOP, NO_LOG)
    n = np.int64(n)
    search_nb(state, rules, new_bot(), params, rstates[0], work, learner, n, NO_LOG)
    cands = [
        (int(work["kind"][c]), work["plans"][c].copy(), int(work["discard"][c])) for c in range(n)
    ]
    return cands, work["total"][:n].copy(), work["ok"][:n].copy()


# positions where the candidates' play-outs differ; bots version 8 moved the 2-player one from
# turn 14 (its new file played every candidate out to the same score there) to 15
@pytest.mark.parametrize(
    "players, deal, turns",
    [(4, 0, 6), (4, 1, 21), (3, 2, 9), (3, 6, 24), (2, 4, 15), (6, 7, 25)],
)
def test_rollout_with_the_apprentice_equals_its_play_out(players, deal, turns):
    weights_file = default_weights_path(players)
    other = default_weights_path(4 if players != 4 else 2)
    # the search seat's set is the second: a rollout reading set 0 plays other weights
    weights = np.stack([load_weights(str(other)), load_weights(str(weights_file))])
    params = parse_bot("pimc:worlds=1,see_hidden=1,rollout=apprentice").vector(players)
    params[PimcParam.top] = TOP
    params[PimcParam.weight_set] = 1
    # the rollout apprentice's candidate expert is the apprentice's own
    own = parse_bot("apprentice").vector(players)[ApprenticeParam.expert :][:N_EXPERT]
    np.testing.assert_array_equal(params[PimcParam.expert :][:N_EXPERT], own)
    d = position(players, deal, turns)
    checked = 0
    for step in range(2):  # the draw decision, then (after a draw) the play decision
        cands, totals, ok = rollout_totals(d, params, weights)
        assert len(cands) >= 2, "the position must have a choice"
        rules = d.rules.to_array()
        side = d.rules.side_of(d.current_player)
        for (kind, plan, discard), total, legal in zip(cands, totals, ok):
            replay = d.copy()
            assert apply_candidate_nb(replay.state, rules, kind, plan, discard, NO_LOG) == 0
            assert legal == 1
            replay.play_out(f"apprentice:weights={weights_file}")
            assert total == score_diff_nb(replay.state, rules, np.int64(side))
            checked += 1
        # the candidates' play-outs differ: the comparison is not between equal numbers
        assert len(set(totals.tolist())) > 1
        if step == 0:
            d.draw()
    assert checked >= 4
