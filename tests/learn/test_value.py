"""The value output: the deal's expected score difference for the seat's side (points) from
its observation, fitted beside the apprentice's network and kept in its weight file."""

import numpy as np
import pytest

from canasta_sim.game.deals import Deal
from canasta_sim.game.rules import Rules
from canasta_sim.learn import train
from canasta_sim.nb.bots.apprentice import VALUE_LEN, position_value_nb
from canasta_sim.nb.bots.features import FEATURE_WORK_DTYPE, N_STATE_FEAT, NET_HIDDEN
from canasta_sim.nb.bots.learned_calls import position_value
from canasta_sim.nb.enums import DealSlot
from canasta_sim.nb.labels import LABEL_LEN, LabelCol
from canasta_sim.players.weights import (
    DATA,
    PARTS,
    VALUE_PARTS,
    default_weights_path,
    load_value,
    load_weights,
    pack_value,
)


def _net(value: float) -> dict:
    """A network whose every weight is ``value``."""
    return {k: np.full(shape, value, np.float32) for k, shape in PARTS.items()}


def _value(seed: int) -> dict:
    """A value output of random weights (hidden units some on, some off for features in
    [0, 1))."""
    rng = np.random.default_rng(seed)
    return {k: rng.normal(0, 1, shape).astype(np.float32) for k, shape in VALUE_PARTS.items()}


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)  # as load_value gives it (the type the warm-up compiled)
    return a


def test_kernel_value_equals_trainer_predictions():
    """position_value_nb (float32) and the fitted MLPRegressor's predictions (float64) agree
    to 1e-4 of the outcomes' scale on pinned random states, for a value output fitted on an
    outcome made of two state features."""
    pytest.importorskip("sklearn")
    from canasta_sim.learn import network

    rng = np.random.default_rng(2)
    n = 2000
    meta = np.zeros((n, LABEL_LEN), np.int64)
    meta[:, LabelCol.deal] = np.arange(n)
    state = rng.random((n, N_STATE_FEAT), dtype=np.float32)
    outcome = 1500 * state[:, 3] - 900 * state[:, 40] * state[:, 7] + rng.normal(0, 100, n)
    lab = {"state": state, "meta": meta, "outcome": outcome.astype(np.float32)}
    tr, te = train.split(lab)
    model = network.fit_value(lab, tr, seed=0)
    vweights = _read_only(pack_value(network.value_parts(model)))
    want = model.predict(state[te[:40]]) * network.TARGET_SCALE
    fwork = np.zeros(1, FEATURE_WORK_DTYPE)[0]
    got = []
    for d in te[:40]:
        fwork["state"][:] = state[d]
        got.append(position_value_nb(vweights, fwork))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * 1500)
    report = network.value_report(model, lab, te, tr)
    # the noise's 100 points bound the error from below; a constant misses by the spread
    assert 100 <= report["rmse"] < 0.5 * report["rmse_mean"]
    assert report["r2"] > 0.75 and report["decisions"] == len(te)


def test_a_file_without_a_value_output_is_refused_by_name(tmp_path):
    path = tmp_path / "net_only.npz"
    train.save(path, _net(0.01))
    with pytest.raises(ValueError, match=rf"weights={path}: holds no value output"):
        load_value(str(path))
    shipped = DATA / "apprentice8_4p.npz"  # bots version 8's, written before value outputs
    with pytest.raises(ValueError, match=rf"weights={shipped}: holds no value output"):
        load_value(str(shipped))
    assert load_value(str(default_weights_path(4))).shape == (VALUE_LEN,)  # version 9's has one


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"value_A": np.zeros((NET_HIDDEN, N_STATE_FEAT - 1), np.float32)}, "value_A of shape"),
        ({"value_v": np.full(NET_HIDDEN, np.nan, np.float32)}, "value_v holds NaN"),
        ({"value_b2": np.float32(np.inf)}, "value_b2 holds NaN or infinite"),
    ],
)
def test_a_broken_value_output_is_refused(tmp_path, change, said):
    path = tmp_path / "broken.npz"
    np.savez(path, **_net(0.01), **(_value(1) | change))
    with pytest.raises(ValueError, match=rf"weights={path}: .*{said}"):
        load_value(str(path))


def test_a_value_output_leaves_play_as_it_was(tmp_path):
    """The same network with and without value parts: the packed networks play reads are
    equal bit for bit, and the value output reads as packed."""
    net = {k: np.random.default_rng(3).normal(0, 1, s).astype(np.float32) for k, s in PARTS.items()}
    plain, both = tmp_path / "plain.npz", tmp_path / "both.npz"
    train.save(plain, net)
    train.save(both, net | _value(4))
    a, b = load_weights(str(plain)), load_weights(str(both))
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    np.testing.assert_array_equal(load_value(str(both)), pack_value(_value(4)))


def test_a_value_of_the_wrong_shape_is_not_saved(tmp_path):
    bad = _value(5) | {"value_b1": np.zeros(NET_HIDDEN + 1, np.float32)}
    with pytest.raises(ValueError, match=r"value_b1 of shape \(33,\), not \(32,\)"):
        train.save(tmp_path / "bad.npz", _net(0.01) | bad)
    assert not (tmp_path / "bad.npz").exists()


def _swap_hidden(s, seat: int, players: int) -> bool:
    """Swap one card not known to the seat between two other hands (different kinds: the
    hand sizes stay); False when no two other hands hold such cards."""
    free = s["hands"][:players] - s["known"][:players]
    others = [p for p in range(players) if p != seat]
    for p in others:
        for q in others:
            kp, kq = np.flatnonzero(free[p]), np.flatnonzero(free[q])
            pair = [(a, b) for a in kp for b in kq if a != b]
            if p < q and pair:
                a, b = pair[0]
                s["hands"][p, a] -= 1
                s["hands"][q, a] += 1
                s["hands"][q, b] -= 1
                s["hands"][p, b] += 1
                return True
    return False


def test_position_value_reads_no_hidden_card():
    """Along a 4-player expert deal, moving cards hidden from the seat between the other hands
    leaves the position's value as it was, while the value moves along the deal."""
    vweights = _read_only(pack_value(_value(6)))
    deal = Deal.new(Rules.preset("classic", 4), seed=5, deal=2)
    rules = deal.rules.to_array()
    values, swapped = [], 0
    while not deal.is_over:
        s = deal.state
        seat = int(s["g"][DealSlot.current])
        v = position_value(s, rules, vweights)
        t = s.copy()
        if _swap_hidden(t, seat, 4):
            swapped += 1
            assert (t["hands"] != s["hands"]).any()
            assert position_value(t, rules, vweights) == v
        values.append(v)
        deal.play_turn("expert")
    assert swapped > 10
    assert len(set(values)) > len(values) // 2


def test_a_weight_file_written_again_is_read_again(tmp_path):
    """The readers cache a file by its path, modification time and size: a file written again
    in the same process plays its new weights (a fresh user's finding: the old ones were
    played while the manifest hashed the new file)."""
    path = tmp_path / "mine.npz"
    train.save(path, _net(0.01))
    first = load_weights(str(path))
    assert load_weights(str(path)) is first  # read once while unchanged
    train.save(path, _net(0.02))
    again = load_weights(str(path))
    assert again is not first
    assert np.float32(0.02) in again and np.float32(0.01) not in again
