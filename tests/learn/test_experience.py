"""The self-play logging kernel (issue 41 item 3): the logged probabilities are the
apprentice's sampling (a softmax of its scores at the temperature), at temperature 0 it plays
as the apprentice does, and a run split where its arrays fill up logs the same decisions."""

import numpy as np
import pytest

from canasta_sim.game.deals import Deal
from canasta_sim.game.rules import Rules
from canasta_sim.learn import experience as sp
from canasta_sim.learn.experience import SelfPlayPlan, selfplay
from canasta_sim.nb.selfplay import PlayCol
from canasta_sim.players.weights import default_weights_path

SHIPPED = str(default_weights_path(4, "apprentice11"))  # a full network, the learner
PAST = str(default_weights_path(4, "apprentice8"))


def _net_scores(path, state, cands):
    """The network's scores recomputed in float64 from a weight file (points)."""
    with np.load(path) as z:
        a, b, b1, v, b2 = (z[k].astype(np.float64) for k in ("A", "B", "b1", "v", "b2"))
    hidden = np.maximum(a @ state + cands @ b.T + b1, 0.0)
    return hidden @ v + b2


@pytest.fixture(scope="module")
def hot():
    return selfplay(SHIPPED, SelfPlayPlan(seed=21, temperature=80.0), 0, 4)


def test_logged_probabilities_are_the_softmax_of_the_logged_scores(hot):
    meta = hot["meta"]
    assert len(meta) > 40  # two learner seats, four deals
    for d in range(len(meta)):
        first, n = meta[d, PlayCol.first], meta[d, PlayCol.n_cands]
        rows = slice(first, first + n)
        assert n >= 2
        scores = _net_scores(SHIPPED, hot["state"][d], hot["cands"][rows])
        np.testing.assert_allclose(hot["score"][rows], scores, atol=0.05)
        want = np.exp((scores - scores.max()) / 80.0)
        want /= want.sum()
        np.testing.assert_allclose(hot["prob"][rows], want, atol=1e-4)
        assert hot["prob"][rows].sum() == pytest.approx(1.0, abs=1e-12)
        assert hot["prob"][first + meta[d, PlayCol.chosen]] > 0


def test_only_the_learner_side_is_logged_with_its_deals_outcome(hot):
    meta = hot["meta"]
    # deal i: the learner holds side i % 2 (seats 0 and 2, or 1 and 3)
    assert ((meta[:, PlayCol.seat] % 2) == (meta[:, PlayCol.deal] % 2)).all()
    for deal in range(4):
        rows = meta[:, PlayCol.deal] == deal
        # one outcome a deal and side; it is the side's score minus the other side's
        assert len(set(hot["outcome"][rows].tolist())) == 1
        assert (hot["positions"][rows]["g"][:, 0] >= 0).all()


def _outcome_of(rules, seed, deal, bots):
    d = Deal.new(rules, seed=seed, deal=deal)
    d.play_out(bots)
    score = [d.score()[s]["total"] for s in range(2)]
    side = deal % 2
    return score[side] - score[1 - side]


def test_temperature_zero_logs_probability_one_and_plays_as_the_apprentice():
    log = selfplay(SHIPPED, SelfPlayPlan(seed=22, temperature=0.0), 0, 3)
    meta = log["meta"]
    chosen = log["prob"][meta[:, PlayCol.first] + meta[:, PlayCol.chosen]]
    assert (chosen == 1.0).all()
    rules = Rules(players=4)
    for deal in range(3):
        got = log["outcome"][meta[:, PlayCol.deal] == deal][0]
        assert got == _outcome_of(rules, 22, deal, ["apprentice@11"])


def test_sampling_plays_as_the_apprentice_with_a_temperature_against_the_pool():
    """The learner samples from the deal's random stream as ``apprentice:temperature=T``
    does; the pool plays its own file at temperature 0."""
    log = selfplay(SHIPPED, SelfPlayPlan(seed=23, temperature=150.0, pool=PAST), 0, 4)
    meta = log["meta"]
    rules = Rules(players=4)
    for deal in range(4):
        bots = ["apprentice@11:temperature=150", "apprentice@8"]
        if deal % 2:
            bots.reverse()
        got = log["outcome"][meta[:, PlayCol.deal] == deal][0]
        assert got == _outcome_of(rules, 23, deal, bots)


def test_a_run_split_where_its_arrays_fill_logs_the_same(monkeypatch, hot):
    # room for 60 decisions a call (a deal logs about 35): each call stops after one deal
    monkeypatch.setattr(sp, "DECISIONS_PER_DEAL", 15)
    monkeypatch.setattr(sp, "CHUNK_DEALS", 3)
    split = selfplay(SHIPPED, SelfPlayPlan(seed=21, temperature=80.0), 0, 4)
    for k in ("state", "meta", "cands", "score", "prob", "outcome"):
        np.testing.assert_array_equal(split[k], hot[k])


@pytest.mark.parametrize(
    ("deals", "temperature", "said"),
    [(0, 10.0, "deals=0: allowed: 1 or more"), (1, -1.0, "temperature=-1.0: allowed: 0 or more")],
)
def test_bad_sizes_are_refused(deals, temperature, said):
    with pytest.raises(ValueError, match=said):
        selfplay(SHIPPED, SelfPlayPlan(temperature=temperature), 0, deals)


@pytest.mark.parametrize("top", [0, 15])
def test_a_top_outside_the_apprentices_range_is_refused(top):
    with pytest.raises(ValueError, match=f"top={top}: allowed: 1 .. 14"):
        selfplay(SHIPPED, SelfPlayPlan(top=top), 0, 1)
