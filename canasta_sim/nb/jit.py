"""The decorators of the engine's kernels, and why calls between kernels look as they do.

- The deal state is one record (:mod:`.state`), which numba passes as one pointer. (A tuple of
  eleven arrays cost about 95 machine words a call, a third of a deal's time.)
- Reference counting is off (``_nrt=False``): kernels only read and write arrays they are
  given, and the bookkeeping was half of a deal's run time. Such a kernel cannot allocate
  (numba refuses to compile ``np.zeros`` there); the few kernels that allocate (seed arrays)
  use plain ``nb.njit(cache=True)``.
- Small kernels called on every turn are inlined into their callers (:data:`inline_kernel`).
  Inlining costs compile time at every call site, so larger kernels stay calls.
- numba links every kernel a kernel calls, with all they call in turn, into the caller's
  code and has LLVM optimise and compile the whole of it again; each level of calls redoes
  the work below it. Kernels with a single caller are therefore inlined as well, and there is
  no ``parallel=True`` kernel (which does it three more times): chunks run on Python threads
  (:func:`.play.play_chunk`).
- numba compiles a called kernel once more for every distinct constant ``int`` or ``bool``
  passed to it (it types constants as literals). Callers therefore pass constants to
  non-inlined kernels as ``np.int64(c)`` or ``np.bool_(c)``, so one compiled copy serves all.
"""

import numba as nb

#: A cached kernel without reference counting.
kernel = nb.njit(cache=True, _nrt=False)

#: The same, inlined into its callers by numba (small kernels called on every turn).
inline_kernel = nb.njit(cache=True, _nrt=False, inline="always")
