"""A head network (bots version 12's apprentice files) where training needs a full network is
refused naming the file and what is allowed: as a start, a teacher or the labels' network
(:func:`canasta_sim.learn.outcomes.read_parts`), as ``canasta-sim train``'s learned start
(:class:`canasta_sim.learn.plan.TrainPlan`) and as self-play's learner; as a pool opponent it
plays."""

import numpy as np
import pytest

from canasta_sim.errors import BadArgument
from canasta_sim.learn import outcomes
from canasta_sim.learn import plan as train_plan
from canasta_sim.learn.experience import SelfPlayPlan, selfplay
from canasta_sim.players.weights import HEAD_PARTS, default_weights_path


def _head(path, players: int = 2) -> str:
    """A head network file of zero parts fitted for ``players`` players."""
    parts = {k: np.zeros(s, np.float32) for k, s in HEAD_PARTS.items()}
    np.savez(path, feature_version=np.int64(2), players=np.int64(players), **parts)
    return str(path)


def test_read_parts_refuses_a_head_network_naming_its_role(tmp_path):
    head = _head(tmp_path / "head_2p.npz")
    with pytest.raises(ValueError) as refused:
        outcomes.read_parts(head, "the start")
    said = str(refused.value)
    assert said.startswith(f"the start {head} is a head network (bots version 12's apprentice)")
    assert "needs a full network; allowed: a full network" in said
    assert "--start apprentice@11" in said
    full = outcomes.read_parts(default_weights_path(2, "apprentice11"), "the start")
    assert {"A", "B", "b1", "v", "b2"} <= set(full)


def test_a_learned_start_of_head_files_is_refused(tmp_path, monkeypatch):
    """``--start apprentice`` once its shipped files are head networks (here: a head file in
    their place): a BadArgument of ``start`` naming the file and the full networks' starts."""
    head = _head(tmp_path / "head_2p.npz")
    monkeypatch.setattr(train_plan, "default_weights_path", lambda players, family="": head)
    with pytest.raises(BadArgument) as refused:
        train_plan.TrainPlan(start="apprentice")
    assert refused.value.argument == "start"
    said = str(refused.value)
    assert said.startswith(f"start=apprentice's file {head} is a head network")
    assert "allowed: start=apprentice@8, " in said and "start=apprentice@11 (full networks)" in said
    assert train_plan.TrainPlan(start="expert").start == "expert"  # no file: allowed


def test_self_play_refuses_a_head_learner(tmp_path):
    head = _head(tmp_path / "head_2p.npz")
    with pytest.raises(ValueError, match=f"the learner {head} is a head network"):
        selfplay(head, SelfPlayPlan(players=2), 0, 1)


def test_a_head_network_plays_as_a_pool_opponent(tmp_path):
    """The pool's seats only play (the head's turns), the learner's decisions are logged."""
    head = _head(tmp_path / "head_2p.npz")
    learner = str(default_weights_path(2, "apprentice11"))
    log = selfplay(learner, SelfPlayPlan(players=2, pool=head), 0, 1)
    assert len(log["state"]) > 0 and len(log["outcome"]) == len(log["state"])
