"""The decorators of the engine's kernels.

Every kernel that only reads and writes arrays it is given is compiled without numba's
reference counting (``_nrt=False``): the deal state is a tuple of eleven arrays, and with
reference counting on, every call that unpacks it pays eleven atomic increments and decrements.
That bookkeeping was half of a deal's run time (benchmarks/throughput.py). Such a kernel cannot
allocate (numba refuses to compile ``np.zeros`` there); the few kernels that allocate (a new
state, the parallel chunk loop, seed arrays) use plain ``nb.njit(cache=True)``.
"""

import numba as nb

#: A cached kernel without reference counting.
kernel = nb.njit(cache=True, _nrt=False)

#: The same, inlined into its callers by numba (for small helpers in hot loops).
inline_kernel = nb.njit(cache=True, _nrt=False, inline="always")
