"""A report's files written so that they appear together, or not at all.

:func:`write_together` writes every file of a report into a temporary folder inside the run
folder first, then moves them into place with SIGINT and SIGTERM deferred (the move is a few
renames), the main file last. The move is all or nothing: the previous report's files are
first moved aside into the temporary folder, then the new ones in, and a failed rename moves
back what was moved. An error or an interrupt leaves the run folder as it was (a previous
report stays whole); the temporary folder is removed in every case but a kill (``kill -9``, a
power cut), whose leftover the next report into the folder removes (:func:`remove_leftovers`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from .run_folder import writing

#: Signals whose handling waits until the report's files are all in place.
DEFERRED = (signal.SIGINT, signal.SIGTERM)
#: The temporary folder's name prefix, and the whole name as ``tempfile.mkdtemp`` makes it
#: (eight of its random letters, digits or underscores).
PREFIX = ".report-"
LEFTOVER = re.compile(re.escape(PREFIX) + r"[a-z0-9_]{8}")
#: What a temporary folder of :func:`write_together` holds.
PARTS = frozenset({"new", "old"})


def write_together(folder: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (file name -> content) into ``folder`` so that they appear together.

    Every file is first written and synced in a temporary folder ``folder/.report-XXXXXXXX``
    (after the leftovers of a killed report are removed, :func:`remove_leftovers`); then,
    with SIGINT and SIGTERM deferred until the move is done, the files of those names already
    in ``folder`` (a previous report) are moved aside into the temporary folder and the new
    ones renamed into place in the order of ``files`` (the last one last: the file that
    points to the others). A failed rename moves back what was moved.

    Raises
    ------
    ValueError
        Naming the path when a file's destination in ``folder`` is a folder (checked before
        anything is written).
    OSError
        A leftover that cannot be removed or a failed write or rename, naming ``folder`` or
        the file in ``folder`` (not the temporary one);
        ``folder`` is as it was.
    """
    for name in files:
        if (folder / name).is_dir():
            raise ValueError(
                f"{str(folder / name)!r} is a folder; the report writes a file of that name: "
                f"remove or rename the folder"
            )
    with writing(folder):
        remove_leftovers(folder)
        tmp = Path(tempfile.mkdtemp(prefix=PREFIX, dir=folder))
    try:
        for sub in ("new", "old"):
            (tmp / sub).mkdir()
        for name, data in files.items():
            with writing(folder / name), open(tmp / "new" / name, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        with deferred_signals():
            _move_into_place(folder, tmp, list(files))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def remove_leftovers(folder: Path) -> None:
    """Remove the temporary folders that killed reports left in ``folder``.

    A report killed outright (``kill -9``) leaves its temporary folder behind; only a folder
    of that making goes: named ``.report-`` and eight letters, digits or underscores (as
    ``tempfile.mkdtemp`` names it), not a symbolic link, holding nothing but its ``new`` and
    ``old`` folders. Two reports into one folder at once are not supported: the second would
    remove the first's temporary folder.

    Parameters
    ----------
    folder : pathlib.Path
        The report's folder (a run or study folder).

    Raises
    ------
    OSError
        When a leftover cannot be removed.
    """
    leftovers = [
        path
        for path in Path(folder).iterdir()
        if LEFTOVER.fullmatch(path.name)
        and path.is_dir()
        and not path.is_symlink()
        and {part.name for part in path.iterdir()} <= PARTS
    ]
    for path in leftovers:
        shutil.rmtree(path)


def _move_into_place(folder: Path, tmp: Path, names: list[str]) -> None:
    """Move the files ``names`` of ``folder`` aside into ``tmp/old``, then those of ``tmp/new``
    into ``folder``; a failed rename (or an exception raised by one) moves back every rename
    made, newest first, so ``folder`` holds either the old files or the new ones, never a mix."""
    renames = [(folder / n, tmp / "old" / n) for n in names if os.path.lexists(folder / n)]
    renames += [(tmp / "new" / n, folder / n) for n in names]
    done: list[tuple[Path, Path]] = []
    try:
        for src, dst in renames:
            with writing(folder / src.name):
                os.replace(src, dst)
            done.append((src, dst))
    except BaseException:
        for src, dst in reversed(done):
            os.replace(dst, src)
        raise


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
