"""The floor kernel: the least work a deal can take with count arrays.

Shuffle the 108 (162) cards, deal ``players x cards_dealt``, then 60 turns of drawing one card
into a count-array hand and discarding one. Every throughput figure is also given as a ratio to
this kernel's time per deal on the same threads, which does not drift with the machine's load.
"""

import numba as nb
import numpy as np

from canasta_sim.nb.engine.deal import fill_pack_nb
from canasta_sim.nb.engine.rng import below_nb, deal_seed_nb


@nb.njit(cache=True)
def floor_deal_nb(seed, n_cards, players, dealt, stock, hands):
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    fill_pack_nb(stock, n_cards)
    for i in range(n_cards - 1, 0, -1):
        j = below_nb(rng, i + 1)
        stock[i], stock[j] = stock[j], stock[i]
    hands[:] = 0
    for i in range(players * dealt):
        hands[i % players, stock[i]] += 1
    pos = players * dealt
    total = 0
    for turn in range(60):
        seat = turn % players
        hands[seat, stock[pos]] += 1
        pos += 1
        k = turn % 15
        while hands[seat, k] == 0:  # discard the first kind held
            k = (k + 1) % 15
        hands[seat, k] -= 1
        total += k
    return total


@nb.njit(cache=True, parallel=True)
def floor_chunk_nb(master, n, n_cards, players, dealt):
    """Play ``n`` floor deals in parallel; returns a checksum (so nothing is optimised away)."""
    out = np.zeros(n, np.int64)
    for i in nb.prange(n):
        stock = np.empty(n_cards, np.int8)
        hands = np.zeros((players, 15), np.int8)
        out[i] = floor_deal_nb(deal_seed_nb(master, i), n_cards, players, dealt, stock, hands)
    return out.sum()
