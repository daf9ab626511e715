"""A report's files written so that they appear together, or not at all.

:func:`write_together` writes every file of a report into a temporary folder inside the run
folder first, then moves them into place with SIGINT and SIGTERM deferred (the move is a few
renames), the main file last. An error or an interrupt before the move leaves the run folder
as it was (a previous report stays whole); the temporary folder is removed in every case.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from .run_folder import writing

#: Signals whose handling waits until the report's files are all in place.
DEFERRED = (signal.SIGINT, signal.SIGTERM)


def write_together(folder: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (file name -> content) into ``folder`` so that they appear together.

    Every file is first written and synced in a temporary folder ``folder/.report-XXXXXXXX``,
    then renamed into place in the order of ``files`` (the last one last: the file that
    points to the others), with SIGINT and SIGTERM deferred until all are in place.

    Raises
    ------
    OSError
        A failed write, naming the file in ``folder`` (not the temporary one); ``folder``
        is as it was.
    """
    with writing(folder):
        tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=folder))
    try:
        for name, data in files.items():
            with writing(folder / name), open(tmp / name, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        with deferred_signals():
            for name in files:
                with writing(folder / name):
                    os.replace(tmp / name, folder / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def deferred_signals():
    """Hold SIGINT and SIGTERM that arrive inside the block and deliver them after it, to the
    handlers the block found (Ctrl-C's ``KeyboardInterrupt``, the command line's exit 143).
    Only the main thread may set handlers: elsewhere the block runs with the handlers it
    finds."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    before = {signum: signal.signal(signum, lambda n, _: received.append(n)) for signum in DEFERRED}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        for held in dict.fromkeys(received):
            signal.raise_signal(held)
