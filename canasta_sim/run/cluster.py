"""Connecting to a Dask cluster (``dask.distributed``): the scheduler option and the client.

A leaf: it imports nothing of this package. :func:`canasta_sim.run.runner.map_chunks` runs the
chunks on the client this module connects.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from contextlib import contextmanager

#: The project is installed from a checkout (README), so its extras are too.
INSTALL_HINT = 'pip install -e ".[dask]" in the checkout (dask[distributed])'


def import_distributed():
    """The ``distributed`` module.

    Raises
    ------
    ValueError
        When Dask's distributed scheduler is not installed (the message says how to).
    """
    try:
        import distributed
    except ImportError:
        raise ValueError(
            f"'--scheduler' needs Dask's distributed scheduler, which is not "
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
    each chunk may use (all cores of a remote worker; cores / N for ``local:N``).

    Ctrl-C stops the run in this process only: the worker processes of ``local:N`` ignore
    SIGINT (the terminal sends it to the whole process group), and Dask's messages about the
    cluster going away while it shuts down are not logged.

    Raises
    ------
    ValueError
        For a bad scheduler, Dask missing, or a scheduler that cannot be reached.
    """
    address, n = parse_scheduler(scheduler)
    distributed = import_distributed()
    if address == "local":
        assert n is not None  # parse_scheduler gives a count with "local"
        threads = max(1, (os.cpu_count() or 1) // n)
        with contextlib.ExitStack() as stack, _quiet_on_interrupt():
            with _sigint_ignored():  # inherited by the worker processes started here
                cluster = stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=n,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # any free port: none is taken for granted
                        silence_logs=logging.CRITICAL,  # a stopped run is not an error
                    )
                )
                client = stack.enter_context(distributed.Client(cluster))
            yield client, threads
    else:
        try:
            client = distributed.Client(address, timeout="30s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
        with client, _quiet_on_interrupt():
            yield client, None


@contextmanager
def _quiet_on_interrupt():
    """On Ctrl-C, stop Dask logging before the client and cluster shut down: their messages
    about tasks and connections cut off are expected then, and not the user's business."""
    try:
        yield
    except KeyboardInterrupt:
        logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
        raise


@contextmanager
def _sigint_ignored():
    """SIGINT ignored for the block: processes started in it inherit the ignored signal for
    good, so the terminal's Ctrl-C, sent to the whole process group, stops this process
    only. A Ctrl-C while the cluster starts (a few seconds) is lost: cut off halfway, the
    start-up hangs or leaves processes behind. Only the main thread sets signal handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
