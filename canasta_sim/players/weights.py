"""The apprentice's weight files: where the shipped ones are, reading one, and its hash for
run manifests. Read at run time by the bot (the training code, :mod:`canasta_sim.learn`, is
never imported to play).

A weight file is a NumPy ``.npz`` holding ``W``: ``float32[N_CAND_FEAT, N_STATE_FEAT]``, the
bilinear scorer ``score = c . (W s)`` (points) of candidate features ``c`` and state features
``s`` (docs/learned.md), plus ``feature_version`` and training notes.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..nb.enums import N_CAND_FEAT, N_STATE_FEAT

#: Version of the feature table the weights were fitted on; a file of another version is
#: refused (its slots mean other things).
FEATURE_VERSION = 1
DATA = Path(__file__).parents[1] / "data"


def default_weights_path(players: int) -> Path:
    """The shipped weights for ``players`` players: ``data/apprentice_{players}p.npz``, or the
    4-player file where none was fitted for that count."""
    own = DATA / f"apprentice_{players}p.npz"
    return own if own.exists() else DATA / "apprentice_4p.npz"


@lru_cache(maxsize=32)
def load_weights(path: str) -> np.ndarray:
    """The scorer of a weight file: ``ndarray(float32, (N_CAND_FEAT, N_STATE_FEAT))``.

    Raises
    ------
    ValueError
        Naming the file: unreadable, no ``W`` of that shape, or another feature version.
    """
    try:
        with np.load(path) as z:
            w = np.asarray(z["W"], np.float32)
            version = int(z["feature_version"]) if "feature_version" in z else -1
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(
            f"weights={path}: not an apprentice weight file ({exc}); allowed: an .npz with W "
            f"of shape ({N_CAND_FEAT}, {N_STATE_FEAT}) (canasta_sim/learn/train.py writes them)"
        ) from None
    if w.shape != (N_CAND_FEAT, N_STATE_FEAT) or version != FEATURE_VERSION:
        raise ValueError(
            f"weights={path}: W of shape {w.shape}, feature version {version}; allowed: shape "
            f"({N_CAND_FEAT}, {N_STATE_FEAT}), feature version {FEATURE_VERSION}"
        )
    w.setflags(write=False)
    return w


def weights_hash(path) -> str:
    """The first 16 hex digits of the SHA-256 of a weight file's bytes (for manifests)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
