"""Counter-based random numbers: splitmix64 (Steele, Lea and Flood, 2014).

Each deal's seed is a hash of (master seed, deal index), so a deal can be replayed alone and
results do not depend on how deals are split into chunks, threads or machines. Inside a deal, a
stream is a splitmix64 counter kept in a one-element ``uint64`` array.
"""

import numba as nb
import numpy as np

from ..jit import inline_kernel, kernel

#: Largest deal index + 1 a run may reach: deal indices are int64, and a run's first deal plus
#: its deal count stays an int64 too. The last deal index is ``DEAL_LIMIT - 1``.
DEAL_LIMIT = 2**63 - 1

#: Master seeds are 64-bit: ``0 .. SEED_SPAN - 1``, every command's and function's seed.
SEED_SPAN = 2**64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@kernel
def mix64_nb(z):
    """splitmix64's finaliser: a bijective hash of one ``uint64``."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def deal_seed_nb(master, index):
    """Seed of deal ``index`` (``uint64``) under master seed ``master`` (``uint64``)."""
    return mix64_nb(mix64_nb(master + _GOLDEN) + np.uint64(index) * _GOLDEN)


@inline_kernel
def next_u64_nb(rng):
    """Advance the stream ``rng`` (``ndarray(uint64, (1,))``, mutated) and return 64 bits."""
    rng[0] += _GOLDEN
    return mix64_nb(rng[0])


@kernel
def below_nb(rng, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (Lemire's multiply-shift)."""
    return np.int64(((next_u64_nb(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def deal_seeds_nb(master, first, n):
    """Seeds of deals ``first .. first + n - 1`` (``ndarray(uint64, (n,))``)."""
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = deal_seed_nb(master, first + i)
    return out


@nb.njit(cache=True)
def sub_seeds_nb(masters, index):
    """``deal_seed_nb(masters[i], index)`` for each ``i``: deal ``index`` of several games,
    each game seeded by its own master (``ndarray(uint64, (n,))``)."""
    out = np.empty(masters.shape[0], np.uint64)
    for i in range(masters.shape[0]):
        out[i] = deal_seed_nb(masters[i], index)
    return out
