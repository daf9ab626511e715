"""The search bot's prior (``pimc:...,prior_top=K``) is a full network's scores of pimc's own
candidates: a rollout apprentice whose file is a head network (bots version 12's) is refused
where the run's weight files are known (``weight_sets``), naming the file and what is
allowed; the board's grandmaster rolls out with version 11's apprentice, whose files are full
networks."""

import numpy as np
import pytest

from canasta_sim.board.levels import LEVELS
from canasta_sim.players import specs, weights
from canasta_sim.players.specs import parse_bot, weight_sets
from canasta_sim.players.weights import DATA, HEAD_PARTS, default_weights_path


@pytest.fixture
def head_file(tmp_path):
    """A 4-player head network file of zero parts (feature version 2)."""
    path = tmp_path / "head_4p.npz"
    parts = {k: np.zeros(s, np.float32) for k, s in HEAD_PARTS.items()}
    np.savez(path, feature_version=np.int64(2), players=np.int64(4), **parts)
    return str(path)


def _sets(spec: str, players: int = 4):
    bot = parse_bot(spec)
    params = np.zeros((1, players, specs.N_PARAMS))
    return weight_sets([(bot,)], players, params)


def test_a_head_file_given_with_a_prior_is_refused(head_file):
    with pytest.raises(ValueError) as refused:
        _sets(f"pimc:rollout=apprentice,prior_top=3,weights={head_file}")
    said = str(refused.value)
    assert said.startswith(
        f"prior_top=3 needs a full network; the rollout apprentice's file {head_file} is a "
        f"head network"
    )
    assert "allowed: rollout=apprentice@11 (bots version 11's full networks)" in said
    assert "or prior_top=0" in said
    # without a prior the head network rolls out (its turns are the apprentice's)
    files, weights = _sets(f"pimc:rollout=apprentice,weights={head_file}")
    assert files == (head_file,) and weights.shape[0] == 1


def test_a_shipped_head_family_with_a_prior_is_refused_where_files_resolve(head_file, monkeypatch):
    """The spec names no file: the family's file, known only with the player count, is a
    head network (as bots version 12's ``apprentice`` files are)."""
    monkeypatch.setattr(weights, "default_weights_path", lambda players, family="": head_file)
    with pytest.raises(ValueError, match=f"prior_top=1 needs a full network; .*{head_file}"):
        _sets("pimc:rollout=apprentice,prior_top=1")
    files, _ = _sets("pimc:rollout=apprentice")  # no prior: allowed
    assert files == (head_file,)


def test_the_grandmaster_keeps_version_11s_full_network():
    grandmaster = next(level for level in LEVELS if level.name == "grandmaster")
    assert grandmaster.spec == "pimc:rollout=apprentice@11,prior_top=3,margin_z=1"
    files, _ = _sets(grandmaster.spec)
    assert files == (str(DATA / "apprentice11_4p.npz"),)
    assert files[0] == str(default_weights_path(4, "apprentice11"))
