"""Where chunks of deals run: one chunk mapper for local threads and Dask clusters.

Every command that plays many deals (:func:`canasta_sim.simulate`, :func:`canasta_sim.play_games`,
:func:`canasta_sim.compare`) checks its run (:func:`check_run`), splits its work into chunks
(:func:`chunk_starts`) and hands a chunk function and the chunks' arguments to
:func:`run_chunks`, which runs them here (numba threads) or as Dask tasks
(:mod:`canasta_sim.run.cluster`), yields their results in order, shows progress
(:mod:`canasta_sim.run.progress`) and warns of runs that would take over a day. Only a bounded
number of chunks is in flight at a time, so a run of any length holds a constant amount of
memory. What a chunk plays is the seating :class:`~canasta_sim.run.seating.Table`'s
(:func:`~canasta_sim.run.seating.play_rows`).
"""

from __future__ import annotations

import collections
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

import numba
import numpy as np

from ..errors import BadArgument
from ..game.notation import check_int
from ..results.records import deal_dtype, side_dtype
from .progress import Progress

if TYPE_CHECKING:
    from .seating import Table

DEFAULT_CHUNK = 50_000
MAX_CHUNK = 1_000_000  # a chunk's records are held in memory at once (about 150 MB)
#: Seconds of estimated run time above which a run warns (a day).
LONG_RUN = 86_400.0


def check_flags(**flags) -> None:
    """Each keyword must be a bool.

    Raises
    ------
    ValueError
        Naming the first one that is not.
    """
    for name, flag in flags.items():
        if not isinstance(flag, (bool, np.bool_)):
            raise BadArgument(name, f"{name}={flag!r} is not allowed; allowed: True or False")


def check_run(
    table: Table, unit: str, count, seed, *, scheduler, records, out, per_item: int, **flags
):
    """The checks every run of ``table`` starts with, before its first chunk: ``count`` (of
    ``unit``, ``"deals"`` or ``"games"``) from 1, ``seed`` a 64-bit unsigned integer,
    ``records`` and each of ``flags`` a bool, ``scheduler`` able to run the table's bots, and
    records kept in memory (``records`` without ``out``) that fit, at ``per_item`` bytes each
    (:func:`record_bytes`).

    Returns
    -------
    tuple of int
        ``count`` and ``seed`` as Python integers.

    Raises
    ------
    ValueError
        As :func:`~canasta_sim.game.notation.check_int`, :func:`check_flags`,
        :meth:`Table.check_scheduler` and :func:`check_memory`.
    """
    count = check_int(unit, count, 1, 10**12)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    check_flags(records=records, **flags)
    table.check_scheduler(scheduler)
    if records and out is None:
        check_memory(count, per_item, f"{unit}={count}")
    return count, seed


@contextmanager
def numba_threads(workers: int | None):
    """Run the block with ``workers`` numba threads (all cores when ``None``)."""
    limit = numba.config.NUMBA_NUM_THREADS
    workers = limit if workers is None else check_int("workers", workers, 1, limit)
    before = numba.get_num_threads()
    numba.set_num_threads(workers)
    try:
        yield workers
    finally:
        numba.set_num_threads(before)


def chunk_starts(first: int, count: int, chunk: int, board: int = 1):
    """``(start, size)`` of the chunks of ``first .. first + count - 1``: at most ``chunk``
    each, rounded up to whole boards of ``board`` deals (the rotations of one shuffle stay in
    one chunk whatever the chunk size). Lazy: a run of 10**12 deals holds no list of them."""
    size = -(-chunk // board) * board
    end = first + count
    return ((f, min(size, end - f)) for f in range(first, end, size))


# --- running chunks -------------------------------------------------------------------------
def _in_threads(fn, threads, *args):
    """A Dask task: ``fn(*args)`` with ``threads`` numba threads (all cores when ``None``)."""
    with numba_threads(threads):
        return fn(*args)


def _chunk_task(fn, then, threads, *args):
    """A Dask task: ``then(args, fn(*args))`` with ``threads`` numba threads."""
    return then(args, _in_threads(fn, threads, *args))


def _played_ahead(pool, fn, then, threads: int, chunks):
    """``(args, then(args, fn(*args)))`` for each ``args`` of ``chunks``, in order: ``fn`` of
    the next chunk runs in ``pool`` (one thread, ``threads`` numba threads) while ``then``
    finishes this one here, so at most two chunks are in flight."""
    todo = iter(chunks)
    args = next(todo, None)
    future = None if args is None else pool.submit(_in_threads, fn, threads, *args)
    while future is not None:
        played = future.result()
        done, args = args, next(todo, None)
        future = None if args is None else pool.submit(_in_threads, fn, threads, *args)
        yield done, then(done, played)


@contextmanager
def map_chunks(fn, chunks, *, workers: int | None = None, scheduler: str | None = None, then=None):
    """Run ``fn(*args)`` for each ``args`` of the iterable ``chunks``, locally or on Dask.

    Parameters
    ----------
    fn : callable
        A module-level function (Dask sends it to the workers by name).
    chunks : iterable of tuple
        Arguments of each call; consumed lazily.
    workers : int, optional
        Numba threads per call (default: all cores; ``cores / N`` for ``local:N``).
    scheduler : str, optional
        ``None`` (threads of this process), ``"local:N"`` or a Dask scheduler address (see
        :func:`canasta_sim.run.cluster.parse_scheduler`).
    then : callable, optional
        A module-level function finishing a chunk: the chunk's result is
        ``then(args, fn(*args))`` instead of ``fn(*args)``. Here it runs in this thread while
        ``fn`` plays the next chunk in another (one chunk ahead: the cores that would wait
        for it, as it runs on one, play meanwhile); on Dask, in the chunk's task. ``fn`` then
        must not share state between calls (no Python bots).

    Yields
    ------
    (iterator, dict)
        An iterator of ``(args, result)`` in the order of ``chunks``, and where it ran:
        ``workers`` (numba threads here, or the number of Dask worker processes),
        ``threads_per_worker`` (numba threads per call) and ``scheduler``. On Dask, at most
        two calls per worker thread are in flight; a call lost with its worker runs again
        elsewhere and counts once.

    Raises
    ------
    ValueError
        For a bad ``workers`` or ``scheduler``, or Dask missing.
    """
    if scheduler is None:
        with numba_threads(workers) as n:
            how = {"workers": n, "threads_per_worker": n, "scheduler": None}
            if then is None:
                yield ((args, fn(*args)) for args in chunks), how
            else:
                with ThreadPoolExecutor(1, thread_name_prefix="chunk") as pool:
                    yield _played_ahead(pool, fn, then, n, chunks), how
        return
    from .cluster import connect

    with ExitStack() as stack:
        try:
            client, threads = stack.enter_context(connect(scheduler))
        except ValueError as exc:  # no Dask, or no scheduler there: the option's fault
            raise BadArgument("scheduler", str(exc)) from None
        threads = workers or threads
        n_workers = len(client.scheduler_info()["workers"])
        window = max(2, 2 * sum(client.nthreads().values()))
        how = {"workers": n_workers, "threads_per_worker": threads, "scheduler": scheduler}
        pending: collections.deque = collections.deque()

        def results():
            todo = iter(chunks)
            for args in todo:
                pending.append((args, _submit(client, fn, then, threads, args)))
                if len(pending) >= window:
                    break
            while pending:
                args, future = pending.popleft()
                result = future.result()
                future.release()
                for more in todo:
                    pending.append((more, _submit(client, fn, then, threads, more)))
                    break
                yield args, result

        try:
            yield results(), how
        except BaseException:
            if not scheduler.startswith("local:"):
                client.cancel([f for _, f in pending])  # a local cluster stops as a whole
            raise
        finally:
            pending.clear()


def _submit(client, fn, then, threads, args):
    # pure: a task lost with its worker runs again under the same key and counts once
    if then is None:
        return client.submit(_in_threads, fn, threads, *args, pure=True, retries=3)
    return client.submit(_chunk_task, fn, then, threads, *args, pure=True, retries=3)


@contextmanager
def run_chunks(
    fn,
    chunks,
    *,
    total: int,
    unit: str = "deal",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = False,
    then=None,
):
    """:func:`map_chunks` with progress and a warning for runs of over a day.

    Parameters
    ----------
    fn : callable
        As for :func:`map_chunks`.
    chunks : iterable of (int, tuple)
        The size of each chunk (``unit``\\ s) and its arguments.
    total : int
        Sum of the sizes (for progress and the time estimate).
    unit : str
        What the sizes count ("deal", "game").
    workers, scheduler, then
        As for :func:`map_chunks`.
    progress : bool
        Show progress on stderr: a bar on a terminal, else a line every
        :data:`LOG_INTERVAL` seconds.

    Yields
    ------
    (iterator, dict)
        ``fn``'s results in order, and where they ran (see :func:`map_chunks`). After the
        first chunk, if the run's estimated time exceeds :data:`LONG_RUN`, a warning with the
        estimate goes to stderr (whatever ``progress``).
    """
    sizes: collections.deque = collections.deque()

    def sized():
        for size, args in chunks:
            sizes.append(size)
            yield args

    with map_chunks(fn, sized(), workers=workers, scheduler=scheduler, then=then) as (
        results,
        how,
    ):
        with Progress(total, unit, progress) as bar:

            def counted():
                start, done, warned = time.perf_counter(), 0, False
                for _, result in results:
                    done += sizes.popleft()
                    bar.update(done)
                    if not warned:
                        warned = True
                        note = long_run_warning(done, total, time.perf_counter() - start, unit)
                        if note:
                            print(note, file=sys.stderr, flush=True)
                    yield result

            yield counted(), how


def long_run_warning(done: int, total: int, seconds: float, unit: str = "deal") -> str | None:
    """The warning for a run whose first ``done`` of ``total`` units took ``seconds``, when
    the whole run would take over :data:`LONG_RUN` seconds at that rate; else ``None``."""
    if done <= 0 or seconds <= 0:
        return None
    estimate = seconds * total / done
    if estimate <= LONG_RUN:
        return None
    return (
        f"warning: at {done / seconds:,.0f} {unit}s per second this run of {total:,} {unit}s "
        f"needs about {_duration(estimate)}; Ctrl-C stops it"
    )


def _duration(seconds: float) -> str:
    for name, size in (("years", 365.25 * 86400), ("days", 86400.0), ("hours", 3600.0)):
        if seconds >= 2 * size or name == "hours":
            value = seconds / size
            return f"{value:,.0f} {name}" if value >= 10 else f"{value:.1f} {name}"
    return f"{seconds:.0f} s"  # unreachable: hours is the last unit


# --- memory ---------------------------------------------------------------------------------
def record_bytes(sides: int) -> int:
    """Bytes of memory the records of one deal take while a run collects them in memory:
    a deal row (``deal_dtype`` plus deal index, seed, players and up to 6 seats' bots) and
    ``sides`` side rows (``side_dtype`` plus deal index, seed, side and bot), twice (the
    chunks' frames and the frame they are joined into)."""
    return 2 * (deal_dtype.itemsize + 23 + (side_dtype.itemsize + 18) * sides)


def available_memory() -> int | None:
    """Bytes of memory available to this process now (``MemAvailable`` of
    ``/proc/meminfo``, else physical memory), or ``None`` when unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def check_memory(count: int, per_item: int, what: str) -> None:
    """Refuse up front to collect records that cannot fit in memory.

    Parameters
    ----------
    count : int
        Deals (or games) whose records would be kept.
    per_item : int
        Bytes per deal (see :func:`record_bytes`).
    what : str
        The argument that sets ``count`` (for the message), e.g. ``"deals=10000000000"``.

    Raises
    ------
    ValueError
        Naming the estimate and the memory available, and what to do instead.
    """
    need = count * per_item
    have = available_memory()
    if have is not None and need > have:
        raise ValueError(
            f"{what}: keeping the records in memory needs about {need / 2**30:,.1f} GiB, "
            f"more than the {have / 2**30:,.1f} GiB available; allowed: records=False "
            f"(aggregates only, constant memory) or out=FOLDER (records written chunk by chunk)"
        )
