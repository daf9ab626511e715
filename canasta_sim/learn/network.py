"""Fitting the apprentice's network on labelled decisions (:mod:`.shards`) with scikit-learn
(the optional extra ``train``: ``pip install -e ".[train]"``).

The network is ``score = v . relu(A s + B c + b1) + b2`` (points) of the state features ``s``
and a candidate's features ``c``, one hidden layer of NET_HIDDEN units: scikit-learn's
``MLPRegressor`` on the rows ``[s, c]``, one per candidate, with the candidate's advantage
(its mean rollout value minus its decision's mean, points; candidates illegal in some world
left out) as target, scaled to hundreds of points. Reproducible: a fixed ``random_state``
(the seed) draws the initial weights, the mini-batches and the early-stopping split.

The value output is a second network of the state features alone,
``value = v . relu(A s + b1) + b2`` (points): the deal's expected score difference for the
seat's side (R-50..R-54: its final score minus the mean of the other sides'), fitted on each
decision's ``outcome`` with the same optimiser (:func:`fit_value`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import warnings

import numpy as np

from ..nb.bots.features import N_STATE_FEAT, NET_HIDDEN
from .train import candidate_rows

#: Targets are fitted in hundreds of points (the optimiser's defaults suit values near 1).
TARGET_SCALE = 100.0


def network_rows(labels: dict, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs ``[s, c]`` (``float32[rows, N_STATE_FEAT + N_CAND_FEAT]``) and
    targets (advantages, points, ``float64[rows]``) of the candidates of ``decisions`` that
    have a value."""
    dec, ok = candidate_rows(labels)
    rows = np.flatnonzero(np.isin(dec, decisions) & ok)
    d = dec[rows]
    x = np.hstack([labels["state"][d], labels["cands"][rows]]).astype(np.float32)
    y = labels["value"][rows].astype(np.float64)
    _, inv, counts = np.unique(d, return_inverse=True, return_counts=True)
    return x, y - (np.bincount(inv, y) / counts)[inv]


def fit_network(labels: dict, decisions: np.ndarray, seed: int = 0, alpha: float = 1e-4):
    """The fitted ``MLPRegressor`` (``NET_HIDDEN`` ReLU units, Adam, mini-batches of 256,
    early stopping on a tenth of the rows, ``alpha`` its L2 penalty) on ``decisions``;
    :func:`parts` turns it into a weight file's arrays.

    Raises
    ------
    ValueError
        For no labelled candidate with a value among ``decisions``; :class:`TooFewRows` for
        too few rows (fewer than about 20).
    KeyboardInterrupt
        For Ctrl-C (SIGINT) during the fit: no half-fitted network is returned.
    """
    x, y = network_rows(labels, decisions)
    if len(y) == 0:
        raise ValueError("no labelled candidate with a finite value among the decisions")
    return _fit(x, y, seed, alpha)


def _fit(x: np.ndarray, y: np.ndarray, seed: int, alpha: float):
    """``MLPRegressor`` of ``NET_HIDDEN`` ReLU units fitted on rows ``x`` to targets ``y``
    (points, fitted in units of :data:`TARGET_SCALE`): Adam, mini-batches of 256, early
    stopping on a tenth of the rows, ``alpha`` its L2 penalty, Ctrl-C passed through;
    :class:`TooFewRows` when the tenth is too small."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    model = MLPRegressor(
        hidden_layer_sizes=(NET_HIDDEN,),
        alpha=alpha,
        batch_size=min(256, max(1, len(y) * 9 // 10)),  # early stopping keeps a tenth
        learning_rate_init=1e-3,
        max_iter=200,
        early_stopping=True,
        n_iter_no_change=6,
        random_state=random_state(seed),
    )
    with warnings.catch_warnings(), _interrupt_passes_through():
        warnings.simplefilter("ignore", ConvergenceWarning)
        try:
            model.fit(x, y / TARGET_SCALE)
        except ValueError as exc:  # scikit-learn's words name its own options, not ours
            if "validation set is too small" not in str(exc):
                raise
            raise TooFewRows(
                f"{len(y)} rows are too few to fit on (a tenth is held out for early "
                "stopping and must hold 2 or more)"
            ) from None
    return model


def random_state(seed: int) -> int | np.random.RandomState:
    """scikit-learn's random state of a 64-bit ``seed``: the seed itself below 2**32 (the
    most scikit-learn takes; at seed 0 the shipped files' fits), else a generator seeded by
    its two 32-bit halves (each seed its own)."""
    if seed < 2**32:
        return seed
    return np.random.RandomState([seed % 2**32, seed >> 32])


class TooFewRows(ValueError):
    """Too few rows for a fit: early stopping's held-out tenth would hold fewer than 2."""


def fit_value(labels: dict, decisions: np.ndarray, seed: int = 0, alpha: float = 1e-4):
    """The fitted value output: an ``MLPRegressor`` of the state features of ``decisions``
    (``labels["state"]``, ``float32``) to each decision's ``outcome`` (the deal's final score
    of the seat's side minus the mean of the other sides', points; R-50..R-54), with
    :func:`fit_network`'s optimiser, ``seed`` and ``alpha``; :func:`value_parts` turns it into
    a weight file's arrays.

    Raises
    ------
    ValueError
        For labels without ``outcome`` (shards written before it was kept) or no decisions.
    KeyboardInterrupt
        For Ctrl-C (SIGINT) during the fit: no half-fitted network is returned.
    """
    if "outcome" not in labels:
        raise ValueError("these labels keep no outcome (shards written before); label again")
    if len(decisions) == 0:
        raise ValueError("no decision to fit the value output on")
    x = labels["state"][decisions].astype(np.float32)
    return _fit(x, labels["outcome"][decisions].astype(np.float64), seed, alpha)


class _FitInterrupted(BaseException):
    """Ctrl-C during a fit; scikit-learn's ``MLPRegressor`` catches ``KeyboardInterrupt``
    (it keeps the half-fitted network and only warns), but not this."""


@contextlib.contextmanager
def _interrupt_passes_through():
    """SIGINT inside the block raises :class:`_FitInterrupted`, which leaves scikit-learn's
    fit and becomes ``KeyboardInterrupt`` here; the handler before it comes back after it.
    Only the main thread may set handlers, and only the main thread gets SIGINT: elsewhere
    the block runs with the handler it finds."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum, frame):
        raise _FitInterrupted

    before = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    except _FitInterrupted:
        raise KeyboardInterrupt from None
    finally:
        signal.signal(signal.SIGINT, before)


def parts(model) -> dict[str, np.ndarray]:
    """A fitted model's weights as a weight file's parts (``A``, ``B``, ``b1``, ``v``, ``b2``:
    :data:`canasta_sim.players.weights.PARTS`), the output in points."""
    first, out = model.coefs_
    return {
        "A": first[:N_STATE_FEAT].T.astype(np.float32),
        "B": first[N_STATE_FEAT:].T.astype(np.float32),
        "b1": model.intercepts_[0].astype(np.float32),
        "v": (out[:, 0] * TARGET_SCALE).astype(np.float32),
        "b2": np.float32(model.intercepts_[1][0] * TARGET_SCALE),
    }


def value_parts(model) -> dict[str, np.ndarray]:
    """A fitted value output (:func:`fit_value`) as a weight file's value parts
    (:data:`canasta_sim.players.weights.VALUE_PARTS`: ``value_A``
    ``float32[NET_HIDDEN, N_STATE_FEAT]``, ``value_b1`` and ``value_v`` ``float32[NET_HIDDEN]``,
    ``value_b2`` ``float32[]``), the output in points."""
    first, out = model.coefs_
    return {
        "value_A": first.T.astype(np.float32),
        "value_b1": model.intercepts_[0].astype(np.float32),
        "value_v": (out[:, 0] * TARGET_SCALE).astype(np.float32),
        "value_b2": np.float32(model.intercepts_[1][0] * TARGET_SCALE),
    }


def value_report(model, labels: dict, decisions: np.ndarray, train: np.ndarray) -> dict[str, float]:
    """The value output's error on ``decisions`` (held out), ``train`` the decisions it was
    fitted on: ``rmse`` (points), ``rmse_mean`` (the error of predicting the mean outcome of
    ``train`` everywhere: what knowing nothing of the position scores, points), ``r2``
    (``1 - rmse^2 / var``, ``var`` the variance of the outcomes of ``decisions``) and
    ``decisions`` counted.

    Raises
    ------
    ValueError
        For no decision among ``decisions``.
    """
    if len(decisions) == 0:
        raise ValueError("no held-out decision to report the value output's error on")
    y = labels["outcome"][decisions].astype(np.float64)
    pred = model.predict(labels["state"][decisions].astype(np.float32)) * TARGET_SCALE
    mse = float(np.mean((pred - y) ** 2))
    guess = float(np.mean(labels["outcome"][train]))
    var = float(np.var(y))
    return {
        "rmse": float(np.sqrt(mse)),
        "rmse_mean": float(np.sqrt(np.mean((guess - y) ** 2))),
        "r2": 1.0 - mse / var if var > 0 else float("nan"),
        "decisions": len(y),
    }


def predict(model, labels: dict) -> np.ndarray:
    """The trainer's score of every labelled candidate (points, ``float64``)."""
    dec, _ = candidate_rows(labels)
    x = np.hstack([labels["state"][dec], labels["cands"]]).astype(np.float32)
    return model.predict(x) * TARGET_SCALE
