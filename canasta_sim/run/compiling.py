"""Seeing numba compile: the note the commands say before a cold compile (one to a few
minutes, with nothing else to show), and the time it took, which ``analyse`` reports apart
from its own. Light on purpose (numba only), so that a command imports it without the
runner."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

import numba.core.event

__all__ = ["COMPILE_NOTE", "CompileWatch", "compile_watch"]

#: Said on stderr when a run starts compiling kernels (a cold cache, measured in
#: docs/performance.md: about a minute on an idle 2-core machine, minutes on a busy one).
COMPILE_NOTE = "compiling the kernels (first use only, one to a few minutes; then cached)..."


class CompileWatch(numba.core.event.Listener):
    """Sees the kernels numba compiles: with ``note``, prints :data:`COMPILE_NOTE` once, at
    the first kernel numba actually compiles (the ``numba:compile`` event starts only for a
    compile, never for a kernel loaded from the cache, however long loading takes on a busy
    machine); ``seconds`` adds up the wall time spent compiling (the outermost events: a
    kernel's compile includes the compiles of the kernels it calls)."""

    def __init__(self, note: bool) -> None:
        self.said = not note
        self.seconds = 0.0
        self._depth = 0
        self._start = 0.0

    def on_start(self, event) -> None:
        if self._depth == 0:
            self._start = time.perf_counter()
        self._depth += 1
        if not self.said:
            self.said = True
            print(COMPILE_NOTE, file=sys.stderr, flush=True)

    def on_end(self, event) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.seconds += time.perf_counter() - self._start


@contextmanager
def compile_watch(note: bool):
    """A :class:`CompileWatch` listening inside the block (yielded): with ``note`` it says on
    stderr when kernels are compiled; its ``seconds`` after the block, how long that took."""
    watch = CompileWatch(note)
    with numba.core.event.install_listener("numba:compile", watch):
        yield watch
