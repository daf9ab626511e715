"""The decorators of the engine's kernels.

Two costs of passing the deal state (a tuple of eleven arrays) set how the kernels are compiled:

- Reference counting. With it on, every kernel that unpacks the state pays eleven atomic
  increments and decrements. That bookkeeping was half of a deal's run time, so kernels that
  only read and write arrays they are given are compiled without it (``_nrt=False``). Such a
  kernel cannot allocate (numba refuses to compile ``np.zeros`` there); the few kernels that
  allocate (a new state, the parallel chunk loop, seed arrays) use plain ``nb.njit(cache=True)``.
- The call itself. numba passes the state as about 95 separate machine words, about 40 ns a
  call, so the small kernels called on every turn are inlined into their callers
  (:data:`inline_kernel`). Inlining costs compile time, so large kernels stay calls.
"""

import numba as nb

#: A cached kernel without reference counting.
kernel = nb.njit(cache=True, _nrt=False)

#: The same, inlined into its callers by numba (small kernels called on every turn).
inline_kernel = nb.njit(cache=True, _nrt=False, inline="always")
