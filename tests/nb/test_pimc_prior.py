"""pimc searching its rollout apprentice's own candidates (``prior_top``, ``margin``,
``margin_z``; issue 26's "pimc with the learned bot's rollouts" item).

With a prior the search bot's candidates are the apprentice's (the draw and the pickups; at the
play decision its whole-turn candidates), the ``prior_top`` it scores best, its first choice
first; the first choice is kept unless another candidate's paired mean beats it by more than
``margin`` points and ``margin_z`` standard errors. Expected choices come from the apprentice's
scores (:func:`canasta_sim.nb.bots.learned_calls.candidate_scores`) and from the candidates played
out through the Deal API on the true cards, not from the search kernel.
"""

import numpy as np
import pytest
from search_positions import position

from canasta_sim import Deal
from canasta_sim.nb.bots.features import feature_work
from canasta_sim.nb.bots.learned_calls import candidate_scores
from canasta_sim.nb.bots.memory import new_bot
from canasta_sim.nb.bots.pimc import ROLLOUT_TOP, decide_nb, pick_best_nb, score_diff_nb
from canasta_sim.nb.bots.policies import PimcParam
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
#: The prior needs a full network: bots version 11's apprentice (version 12's is a head).
APPRENTICE = "apprentice@11"


def turn_result(d: Deal, spec: str) -> dict[str, np.ndarray]:
    """The state's fields after ``spec`` plays the current turn on a copy of ``d``, all but
    the deal's random stream (the search draws its worlds' seeds from it)."""
    c = d.copy()
    c.play_turn(spec)
    state = c.state
    return {name: state[name].copy() for name in state.dtype.names if name != "rng"}


POSITIONS = [(4, 0, 6), (4, 1, 21), (3, 2, 9), (2, 4, 14), (6, 7, 25)]


@pytest.mark.parametrize("players, deal, turns", POSITIONS)
@pytest.mark.parametrize("prior", ["prior_top=1", "prior_top=3,margin=100000"])
def test_a_sure_prior_plays_the_apprentices_turn(players, deal, turns, prior):
    d = position(players, deal, turns)
    spec = f"pimc:rollout={APPRENTICE},worlds=2,{prior}"
    for _ in range(2):  # a turn with a pickup to weigh, then the next player's
        expected = turn_result(d, APPRENTICE)
        got = turn_result(d, spec)
        for name, value in expected.items():
            np.testing.assert_array_equal(got[name], value, err_msg=name)
        d.play_turn(APPRENTICE)


def rollout_values(d: Deal, cands, weights_file: str) -> list[float]:
    """Each candidate made on a copy of ``d`` and played out by the apprentice on the true
    cards: the mover's side's score difference (points)."""
    rules = d.rules.to_array()
    side = np.int64(d.rules.side_of(d.current_player))
    values = []
    for kind, plan, discard in cands:
        replay = d.copy()
        assert apply_candidate_nb(replay.state, rules, kind, plan, np.int64(discard), NO_LOG) == 0
        replay.play_out(f"apprentice:weights={weights_file}")
        values.append(float(score_diff_nb(replay.state, rules, side)))
    return values


def search_choice(d: Deal, params: np.ndarray, weights: np.ndarray):
    """The search kernel's choice at the current decision of a copy of ``d``: the
    candidate (kind, plan, discard) at the index :func:`decide_nb` returns."""
    state = d.copy().state
    rules = d.rules.to_array()
    rstates, works = search_work(2)
    learner = (rstates[1], works[1], weights, feature_work(1)[0])
    work = works[0]
    rparams = work["rparams"][:N_EXPERT]
    rparams[:] = params[PimcParam.expert : PimcParam.expert + N_EXPERT]
    if state["g"][DealSlot.phase] == Phase.draw:
        n = draw_candidates_nb(state, rules, work)
    else:
        n = play_candidates_nb(
            state, rules, new_bot(), rparams, rstates[0], work, ROLLOUT_TOP, NO_LOG
        )
    best = decide_nb(
        state, rules, new_bot(), params, rstates[0], work, learner, np.int64(n), NO_LOG
    )
    return int(work["kind"][best]), work["plans"][best].copy(), int(work["discard"][best])


def same(a, b) -> bool:
    return a[0] == b[0] and a[2] == b[2] and np.array_equal(a[1], b[1])


# positions where, with the shipped weights, a rollout beats the prior's first choice (so the
# margin test below has a gap to test; bots version 6 moved the 2-player one, version 7 the
# 3- and 4-player ones, version 11 the 6-player one)
@pytest.mark.parametrize("players, deal, turns", [(4, 0, 18), (3, 0, 4), (2, 2, 14), (6, 6, 28)])
def test_with_see_hidden_the_prior_search_plays_the_best_rollout_of_the_top(players, deal, turns):
    weights_file = str(default_weights_path(players, "apprentice11"))
    weights = load_weights(weights_file)[None, :]
    d = position(players, deal, turns)
    checked = 0
    for step in range(2):  # the draw decision, then (after a draw) the play decision
        aparams = parse_bot(APPRENTICE).vector(players)
        kinds, plans, discards, scores = candidate_scores(
            d.state, d.rules.to_array(), aparams, weights[0]
        )
        order = sorted(range(len(scores)), key=lambda c: -float(scores[c]))  # stable: ties by index
        top = [(int(kinds[c]), plans[c], int(discards[c])) for c in order[:3]]
        values = rollout_values(d, top, weights_file)
        gap = max(values) - values[0]
        best = top[int(np.argmax(values))]
        params = parse_bot(f"pimc:rollout={APPRENTICE},see_hidden=1,worlds=1,prior_top=3").vector(
            players
        )
        assert same(search_choice(d, params, weights), best)
        if gap > 0:  # a margin below the gap lets the rollouts' best through, one above it not
            params[PimcParam.margin] = gap - 1.0
            assert same(search_choice(d, params, weights), best)
            params[PimcParam.margin] = gap + 1.0
            assert same(search_choice(d, params, weights), top[0])
            checked += 1
        if step == 0:
            d.draw()
    assert checked >= 1, "no decision where the rollouts overrule the prior"


def test_the_z_margin_reads_the_paired_standard_error():
    # 4 worlds; candidate 0 totals 0, candidate 1 totals +400 (mean +100) with per-world
    # differences 100 + (-60, +60, -60, +60): sample variance 4 * 3600 / 3 = 4800, standard
    # error sqrt(4800 / 4) = 34.64; candidate 2 totals +480 (mean +120) with differences
    # 120 + (-300, +300, -300, +300): sample variance 120000, standard error 173.2
    work = search_work(1)[1][0]
    work["ok"][:3] = 1
    work["total"][:3] = [0.0, 400.0, 480.0]
    work["sq"][:3] = [0.0, 4 * (40.0**2 + 160.0**2) / 2, 2 * (180.0**2) + 2 * (420.0**2)]
    params = parse_bot("pimc:rollout=apprentice,prior_top=3").vector(4)
    n, w = np.int64(3), np.int64(4)
    assert pick_best_nb(params, work, n, w) == 2  # no margin: the best mean
    params[PimcParam.margin_z] = 2.0  # 100 > 69.3 passes, 120 < 346.4 does not
    assert pick_best_nb(params, work, n, w) == 1
    params[PimcParam.margin_z] = 3.0  # 100 < 103.9: neither, the prior's first choice
    assert pick_best_nb(params, work, n, w) == 0
    params[PimcParam.margin_z] = 0.0
    params[PimcParam.margin] = 110.0  # only candidate 2's +120 clears 110 points
    assert pick_best_nb(params, work, n, w) == 2
    work["ok"][0] = 0  # without the first choice: the best mean, whatever the margin
    assert pick_best_nb(params, work, n, w) == 2


@pytest.mark.parametrize(
    "spec, words",
    [
        ("pimc:prior_top=2", ["prior_top=2", "rollout=apprentice"]),
        ("pimc:rollout=expert@2,prior_top=1", ["prior_top=1", "rollout=apprentice"]),
        ("pimc:rollout=apprentice,margin=50", ["margin=50", "prior_top of 1 or more"]),
        ("pimc:rollout=apprentice,margin_z=1.5", ["margin_z=1.5", "prior_top"]),
        ("pimc:rollout=apprentice,prior_top=15", ["prior_top='15'", "0 to 14"]),
        ("pimc:rollout=apprentice,prior_top=2,margin=-5", ["margin='-5'", "0 to 100000"]),
        ("pimc:rollout=apprentice,prior_top=2,margin_z=101", ["margin_z='101'", "0 to 100"]),
    ],
)
def test_prior_spec_errors_name_the_value_and_what_is_allowed(spec, words):
    with pytest.raises(ValueError) as err:
        parse_bot(spec)
    for word in words:
        assert word in str(err.value)


def test_the_prior_parameters_land_in_their_slots():
    v = parse_bot("pimc:rollout=apprentice,prior_top=3,margin=40,margin_z=1.5").vector(4)
    assert (v[PimcParam.prior_top], v[PimcParam.margin], v[PimcParam.margin_z]) == (3, 40, 1.5)
    assert parse_bot("pimc").vector(4)[PimcParam.prior_top] == 0
