"""Running chunks of deals on a Dask cluster (``dask.distributed``).

Every chunk is one Dask task running the same kernels as a local run, so results are identical
to a single-machine run with the same seed. Tasks are pure (a chunk's result depends only on
its arguments): when a worker is lost, Dask runs its tasks again elsewhere, and the client
takes exactly one result per chunk, so no deal is lost or counted twice. Parquet parts written
by workers have one fixed name per chunk and appear by atomic rename, so a re-run task
rewrites the same part.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

INSTALL_HINT = "pip install 'canasta-sim[dask]' (dask[distributed])"


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ValueError(
            f"--scheduler needs Dask's distributed scheduler, which is not "
            f"installed; install it with: {INSTALL_HINT}"
        ) from None
    return distributed


#: ``local:N`` starts at most this many worker processes per core of the machine.
LOCAL_WORKERS_PER_CORE = 4


def max_local_workers() -> int:
    """The largest ``N`` allowed in ``local:N``: :data:`LOCAL_WORKERS_PER_CORE` per core."""
    return LOCAL_WORKERS_PER_CORE * (os.cpu_count() or 1)


def parse_scheduler(text: str) -> tuple[str, int | None]:
    """``"local:N"`` -> ``("local", N)``; ``"tcp://host:8786"`` -> ``(address, None)``.

    ``N`` is from 1 to :func:`max_local_workers` (4 worker processes per core).

    Raises
    ------
    ValueError
        For anything else (the message says what is allowed).
    """
    if text.startswith("local:"):
        n = text.split(":", 1)[1]
        limit = max_local_workers()
        if not (n.isdecimal() and 1 <= int(n) <= limit):
            raise ValueError(
                f"scheduler {text!r} is not allowed; local:N needs N from 1 to "
                f"{limit} worker processes ({LOCAL_WORKERS_PER_CORE} per core, "
                f"{os.cpu_count() or 1} cores)"
            )
        return "local", int(n)
    scheme, _, rest = text.partition("://")
    if scheme in ("tcp", "tls", "ucx", "inproc", "ws", "wss") and rest:
        return text, None
    raise ValueError(
        f"scheduler {text!r} is not allowed; allowed: local:N (a LocalCluster of N "
        f"worker processes) or a scheduler address such as tcp://HOST:8786"
    )


@contextmanager
def connect(scheduler: str):
    """A Dask client for ``scheduler`` (see :func:`parse_scheduler`); a ``local:N`` cluster is
    started here and stopped on exit. Yields ``(client, threads per task)``: numba threads
    each chunk may use (all cores of a remote worker; cores / N for ``local:N``)."""
    address, n = parse_scheduler(scheduler)
    distributed = _import_distributed()
    if address == "local":
        assert n is not None  # parse_scheduler gives a count with "local"
        threads = max(1, (os.cpu_count() or 1) // n)
        with distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            with distributed.Client(cluster) as client:
                yield client, threads
    else:
        try:
            client = distributed.Client(address, timeout="30s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
        with client:
            yield client, None


@contextmanager
def map_chunks(scheduler: str, fn, arg_list, threads_arg: int | None):
    """Run ``fn(*args, threads)`` as one Dask task per ``args`` of ``arg_list`` and yield
    ``(iterator of results in the order of arg_list, scheduler)``: one result per task,
    whatever happens to workers (lost tasks are re-run)."""
    with connect(scheduler) as (client, threads):
        n_threads = threads_arg or threads
        futures = client.map(fn, *zip(*arg_list), [n_threads] * len(arg_list), pure=True, retries=3)

        def results():
            for future in futures:
                yield future.result()
                future.release()

        try:
            yield results(), scheduler
        finally:
            client.cancel(futures)


def chunk_task(table, seed, first, n, records, parts_dir, threads):
    """One chunk on a worker: play it, and either return its frames or write them as Parquet
    parts under ``parts_dir`` (``deals.parquet/part-FIRST.parquet`` and the same for sides)
    and return only the aggregates."""
    from .simulate import numba_threads, run_chunk

    with numba_threads(threads):
        deals, sides, agg = run_chunk(table, seed, first, n, records)
    if parts_dir is not None and records:
        for name, frame in (("deals", deals), ("sides", sides)):
            write_part(Path(parts_dir) / f"{name}.parquet", first, frame)
        deals = sides = None
    return deals, sides, agg


def game_chunk_task(table, seed, first, n, max_deals, threads):
    """One chunk of games on a worker (see :func:`canasta_sim.games.play_game_chunk`)."""
    from .games import play_game_chunk
    from .simulate import numba_threads

    with numba_threads(threads):
        return play_game_chunk(table, seed, first, n, max_deals)


def write_part(folder: Path, first: int, frame) -> None:
    """Write one Parquet part atomically, named by the chunk's first deal."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"part-{first:012d}.parquet"
    tmp = folder / f".part-{first:012d}.{os.getpid()}.tmp"
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, final)
