"""The decorators of the engine's kernels, and why calls between kernels look as they do.

- The deal state is one record (:mod:`.state`), which numba passes as one pointer. (A tuple of
  eleven arrays cost about 95 machine words a call, a third of a deal's time.)
- Reference counting is off (``_nrt=False``): kernels only read and write arrays they are
  given, and the bookkeeping was half of a deal's run time. Such a kernel cannot allocate
  (numba refuses to compile ``np.zeros`` there); the few kernels that allocate (the parallel
  chunk loop, seed arrays) use plain ``nb.njit(cache=True)``.
- Small kernels called on every turn are inlined into their callers (:data:`inline_kernel`).
  Inlining costs compile time, so larger kernels stay calls.
- numba compiles a called kernel once more for every distinct constant ``int`` or ``bool``
  passed to it (it types constants as literals). Callers therefore pass constants to
  non-inlined kernels as ``np.int64(c)`` or ``np.bool_(c)``, so one compiled copy serves all.
"""

import numba as nb

#: A cached kernel without reference counting.
kernel = nb.njit(cache=True, _nrt=False)

#: The same, inlined into its callers by numba (small kernels called on every turn).
inline_kernel = nb.njit(cache=True, _nrt=False, inline="always")
