"""The decorators of the engine's kernels, and why calls between kernels look as they do.

- The deal state is one record (:mod:`.engine.state`), which numba passes as one pointer. (A
  tuple of eleven arrays cost about 95 machine words a call, a third of a deal's time.)
- Reference counting is off (``_nrt=False``): kernels only read and write arrays they are
  given, and the bookkeeping was half of a deal's run time. Such a kernel cannot allocate
  (numba refuses to compile ``np.zeros`` there); the few kernels that allocate (seed arrays)
  use plain ``nb.njit(cache=True)``.
- Where the compile time goes (a cold start compiles about 70 kernels): numba links every
  kernel a kernel calls, with all they call in turn, into the caller's code and has LLVM
  optimise and compile the whole of it again, so each level of calls redoes the work below it.
  numba's own inlining (:data:`inline_kernel`) instead copies the callee's code and types it
  again at every call site, at about the cost of compiling it once per site; it copies the
  callee's IR block by block, each block with the whole variable scope of the function, so
  its cost grows with the square of the callee's length (and the callee is as long as
  everything inlined into it).
- So a kernel with one caller is inlined when it is thin or has few inlined helpers of its
  own (one level less to link); helpers used at many call sites stay plain kernels even when
  tiny (``meld_ok_nb``): LLVM, optimising the linked code, inlines most of them anyway.
  Those it left as calls on the expert's hot path (``plan_size_nb``, ``param_nb``,
  ``opponents_threaten_nb``, ``meld_size_nb``, ``out_blocked_nb``: each call measured at a
  few percent of an expert deal, ``meld_size_nb`` a tenth in a perf profile) are inlined.
  There is no ``parallel=True`` kernel (which links everything three more times): chunks
  run on Python threads (:func:`.play.play_chunk`).
- numba compiles a called kernel once more for every distinct constant ``int`` or ``bool``
  passed to it (it types constants as literals). Callers therefore pass constants to
  non-inlined kernels as ``np.int64(c)`` or ``np.bool_(c)``, so one compiled copy serves all.
  Likewise numba types an array field of a record (``bot.meld_plan``, ``work.rparams``) as a
  nested array, another type than the plain C array of a slice of it (``bot.meld_plan[:]``)
  or of a row of an ordinary array: callers pass such fields as slices.
"""

import numba as nb

#: A cached kernel without reference counting.
kernel = nb.njit(cache=True, _nrt=False)

#: The same, inlined into its callers by numba (thin kernels with one caller, hot small helpers,
#: and helpers whose callers pass constants, such as ``log_event_nb``).
inline_kernel = nb.njit(cache=True, _nrt=False, inline="always")
