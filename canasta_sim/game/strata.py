"""The strata of sampled worlds: how likely each kind is to lie on top of the stock.

:meth:`InfoSet.sample_worlds <canasta_sim.game.infoset.InfoSet.sample_worlds>` stratifies the
next stock card with these exact probabilities (:func:`~canasta_sim.nb.rollout.strata_nb`), so
that every prefix of the worlds holds each kind within one world of its expected share.
"""

from __future__ import annotations

import numpy as np

from ..nb.enums import N_KINDS, RED_THREE


def top_card_weights(unseen: np.ndarray, stock_size: int) -> np.ndarray | None:
    """Probability of each kind being the top stock card given the unseen counts: red threes
    lie only in the stock (R-15, R-16), the other unseen cards spread evenly over the free
    places of hands and stock. ``None`` for an empty stock (nothing to stratify).

    Returns
    -------
    ndarray(float64, (N_KINDS,)) or None
    """
    if stock_size == 0:
        return None
    unseen = np.asarray(unseen, np.float64)
    red = unseen[RED_THREE]
    others = unseen.copy()
    others[RED_THREE] = 0.0
    w = np.zeros(N_KINDS)
    if others.sum() > 0:
        w = (1.0 - red / stock_size) * others / others.sum()
    w[RED_THREE] = red / stock_size
    return w
