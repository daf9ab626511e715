"""The linear baseline of the apprentice's network (:mod:`.network`), and what both share: the
held-out split, the choice figures and the weight file. Numpy only.

The baseline is bilinear, ``score(c, s) = c . (W s)`` for candidate features ``c`` and state
features ``s``: linear in the outer product ``c s^T``. It is fitted by ridge regression on
the advantage of each candidate (its mean rollout value minus its decision's mean, points),
with the features centred within each decision too, so only differences between the
candidates of a decision are learned (what choosing needs). Candidates illegal in some world
(value NaN) are left out. Deterministic: no random step. The bot plays the network; the
baseline is fitted only to show what the network gains on held-out decisions, on the slots of
feature version 1 (:data:`BASELINE_WIDTHS`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..nb.bots.features import FEATURE_WIDTHS
from ..nb.labels import LabelCol
from ..players.weights import FEATURE_VERSION, VALUE_PARTS, pack, pack_value

#: Decisions per block of the design matrix.
CHUNK = 4000
#: The (state, candidate) features the baseline reads: the slots of feature version 1, the
#: first of every later version. On all of version 2's (118 x 62) its normal equations would
#: be 7,316 wide: 430 MB, a design block of 2 GB and a solve of minutes, for a yardstick.
BASELINE_WIDTHS = FEATURE_WIDTHS[1]


def candidate_rows(labels: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate row: its decision's index, and whether it is kept (a finite value)."""
    meta = labels["meta"]
    dec = np.repeat(np.arange(len(meta)), meta[:, LabelCol.n_cands])
    return dec, np.isfinite(labels["value"])


def design(labels: dict, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Within-decision centred design ``X`` (``float64[rows, n_cand * n_state]``, the
    :data:`BASELINE_WIDTHS`), advantages ``y`` (points) and the rows' decision indices, for
    ``decisions``."""
    n_state, n_cand = BASELINE_WIDTHS
    dec, ok = candidate_rows(labels)
    rows = np.flatnonzero(np.isin(dec, decisions) & ok)
    d = dec[rows]
    c = labels["cands"][rows, :n_cand].astype(np.float64)
    s = labels["state"][d, :n_state].astype(np.float64)
    x = (c[:, :, None] * s[:, None, :]).reshape(len(rows), -1)
    y = labels["value"][rows].astype(np.float64)
    _, inv, counts = np.unique(d, return_inverse=True, return_counts=True)
    for a in (x, y):
        sums = np.zeros((len(counts),) + a.shape[1:])
        np.add.at(sums, inv, a)
        a -= (sums.T / counts).T[inv]
    return x, y, d


def fit(labels: dict, decisions: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """Ridge fit of ``W`` (``float32[n_cand, n_state]``, the :data:`BASELINE_WIDTHS`) on
    ``decisions``; ``alpha`` is the ridge penalty per labelled candidate (scale-free in the
    data size).

    Raises
    ------
    ValueError
        For no usable candidate or ``alpha`` below 0.
    """
    if alpha < 0:
        raise ValueError(f"alpha={alpha} is not allowed; allowed: 0 or more")
    n_state, n_cand = BASELINE_WIDTHS
    dim = n_cand * n_state
    xtx = np.zeros((dim, dim))
    xty = np.zeros(dim)
    rows = 0
    for start in range(0, len(decisions), CHUNK):  # bounded memory: about 100 MB a chunk
        x, y, _ = design(labels, decisions[start : start + CHUNK])
        xtx += x.T @ x
        xty += x.T @ y
        rows += len(y)
    if rows == 0:
        raise ValueError("no labelled candidate with a finite value among the decisions")
    w = np.linalg.solve(xtx + alpha * rows * np.eye(dim), xty)
    return w.reshape(n_cand, n_state).astype(np.float32)


def scores(w: np.ndarray, labels: dict) -> np.ndarray:
    """The scorer's value of every labelled candidate (points), as the kernel computes it:
    ``cands[i] . (W state[decision(i)])`` in float32, over the :data:`BASELINE_WIDTHS`."""
    n_state, n_cand = BASELINE_WIDTHS
    dec, _ = candidate_rows(labels)
    half = labels["state"][:, :n_state].astype(np.float32) @ w.T.astype(np.float32)
    return np.einsum("ij,ij->i", labels["cands"][:, :n_cand].astype(np.float32), half[dec])


def evaluate(scores: np.ndarray | None, labels: dict, decisions: np.ndarray) -> dict[str, float]:
    """How a model choosing by ``scores`` (one per labelled candidate, points), or with
    ``scores`` None the expert's choice, chooses on ``decisions``: ``best`` (share of decisions
    where it picks a candidate with the best rollout value), ``regret`` (mean points below the
    best), ``decisions`` counted. Decisions whose chosen candidate has no value (the expert's
    pickup matched none, or an illegal candidate) are left out."""
    meta = labels["meta"]
    value = labels["value"]
    hits = 0
    regret = 0.0
    n = 0
    for d in decisions:
        first, k = meta[d, LabelCol.first], meta[d, LabelCol.n_cands]
        v = value[first : first + k]
        if not np.isfinite(v).any():
            continue
        if scores is None:
            choice = meta[d, LabelCol.expert]
        else:
            s = np.where(np.isfinite(v), scores[first : first + k], -np.inf)
            choice = int(np.argmax(s))
        if choice < 0 or not np.isfinite(v[choice]):
            continue
        best = np.nanmax(v)
        hits += v[choice] >= best
        regret += best - v[choice]
        n += 1
    return {"best": hits / max(n, 1), "regret": regret / max(n, 1), "decisions": n}


def split(labels: dict, holdout: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Decision indices for training and held-out testing: the deals whose index is a
    multiple of ``holdout`` are held out (whole deals, so no deal is on both sides)."""
    deal = labels["meta"][:, LabelCol.deal]
    test = deal % holdout == 0
    return np.flatnonzero(~test), np.flatnonzero(test)


def save(path, parts: dict[str, np.ndarray], **notes) -> None:
    """Write a weight file (:mod:`canasta_sim.players.weights`): the network's ``parts``
    (:data:`~canasta_sim.players.weights.PARTS`, and the value output's,
    :data:`~canasta_sim.players.weights.VALUE_PARTS`, when ``parts`` holds any of them), the
    feature version and ``notes`` (training facts: decisions, seed, held-out figures, ...),
    atomically (a temporary file, renamed).

    Raises
    ------
    ValueError
        For a part missing or of another shape (:func:`~canasta_sim.players.weights.pack`,
        :func:`~canasta_sim.players.weights.pack_value`).
    """
    pack(parts)
    if VALUE_PARTS.keys() & parts.keys():
        pack_value(parts)
    write_npz(path, {"feature_version": np.int64(FEATURE_VERSION), **parts, **notes})


def write_npz(path, arrays: dict) -> None:
    """Write ``arrays`` as the ``.npz`` file ``path`` (its folder made), atomically: a
    temporary file beside it, renamed, so a killed run leaves the whole file or none."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    try:
        os.replace(tmp, path)
    except OSError:  # path a folder, say: no stray temporary file left beside it
        tmp.unlink()
        raise
