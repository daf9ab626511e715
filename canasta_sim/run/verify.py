"""Refereeing engine deals at scale: deals traced by the engine
(:func:`canasta_sim.game.deals.trace_deal`) and checked by the independent referee
(:func:`referee.check_trace`), in chunks.

The referee is pure Python (about 4 ms a deal on one core), so chunks run in worker processes
(``concurrent.futures``) or as Dask tasks (:func:`.runner.map_chunks`), never on threads. Each
deal's verdict depends only on (rules, bots, seed, deal index), so the failures found are the
same for any number of workers, chunk size or scheduler.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import NamedTuple

from ..game.rules import Rules


class Failure(NamedTuple):
    """A deal the referee refused: its index, the rule id broken (None: malformed or
    incomplete trace) and the verdict's one-line text."""

    deal: int
    rule: str | None
    verdict: str


def verify_chunk(
    rules: Rules, bots: list[str], seed: int, first: int, n: int, threads: int | None = None
) -> list[Failure]:
    """Referee deals ``first`` .. ``first + n - 1`` of a run with master ``seed``.

    Parameters
    ----------
    rules : Rules
    bots : list of str
        One bot spec per side, as for :func:`canasta_sim.simulate`.
    seed : int
        Master seed.
    first, n : int
        First deal index and number of deals.
    threads : int, optional
        Unused: what :func:`.runner.map_chunks` passes every task (the referee is
        single-threaded Python).

    Returns
    -------
    list of Failure
        The deals refused, in deal order.
    """
    from ..game.deals import trace_deal
    from ..players.pybot import seated
    from ..referee import check_trace

    failures = []
    for k in range(first, first + n):
        verdict = check_trace(trace_deal(rules, seated(rules, bots), seed, k))
        if not verdict.ok:
            failures.append(Failure(k, verdict.rule, str(verdict)))
    return failures


def _worker_init() -> None:
    """Worker processes stop at SIGTERM and leave Ctrl-C to the parent, which cancels the
    chunks not started (a worker would otherwise report the signal as a failed chunk and go
    on with the next one)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def chunk_size(deals: int, workers: int) -> int:
    """Deals per chunk: about 20 chunks per worker (a smooth progress bar, balanced load),
    from 20 to 1,000 deals."""
    return max(20, min(1000, deals // (20 * workers) or 1))


def verify(
    rules: Rules,
    bots: list[str],
    seed: int,
    deals: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Failure]:
    """Referee deals 0 .. ``deals - 1`` of a run with master ``seed``.

    Parameters
    ----------
    rules : Rules
    bots : list of str
        One bot spec per side.
    seed : int
        Master seed.
    deals : int
        Number of deals.
    workers : int
        Worker processes (1: this process); ignored with ``scheduler``.
    scheduler : str, optional
        A Dask scheduler (``local:N`` or an address, see :func:`cluster.parse_scheduler`).
    progress : callable, optional
        Called with the number of deals of each chunk when it is done.

    Returns
    -------
    list of Failure
        Every deal refused, in deal order: the same for any ``workers`` and ``scheduler``.
    """
    size = chunk_size(deals, workers)
    chunks = [
        (rules, bots, seed, first, min(size, deals - first)) for first in range(0, deals, size)
    ]
    done = progress or (lambda n: None)
    failures: list[Failure] = []
    if scheduler is not None:
        from .runner import map_chunks

        with map_chunks(verify_chunk, chunks, workers=1, scheduler=scheduler) as (results, _):
            for args, found in results:
                failures += found
                done(args[-1])
    elif workers == 1:
        for args in chunks:
            failures += verify_chunk(*args)
            done(args[-1])
    else:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
        try:
            futures = {pool.submit(verify_chunk, *args): args for args in chunks}
            for future in as_completed(futures):
                failures += future.result()
                done(futures[future][-1])
        finally:  # on Ctrl-C or SIGTERM, no chunk that has not started starts
            pool.shutdown(wait=False, cancel_futures=True)
    return sorted(failures)
