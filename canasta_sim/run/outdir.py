"""Results folders: written in a staging folder, committed by one atomic rename, with a manifest.

A results folder appears complete or not at all: everything is written into a private staging
folder next to it (:func:`staging_folder`) and renamed into place when complete
(:func:`commit_out`). The rename happens under a lock on the parent folder, so of two runs
writing the same folder exactly one wins; the other fails with a :class:`OutConflict` naming
the folder. ``overwrite`` replaces only the folder that existed when the run started
(:func:`prepare_out` records which one).

Records are written chunk by chunk (:class:`RecordFiles`), so a run needs no more memory for
a billion deals than for one chunk. Every results folder carries ``manifest.json``
(:func:`make_manifest`); reading a folder back is :mod:`canasta_sim.results.run_folder`'s.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .._version import BOTS_VERSION, RULES_VERSION, __version__
from ..errors import BadArgument, InterruptedAfterCommit
from ..results.report_files import deferred_signals
from ..results.run_folder import naming_file, writing

try:
    import fcntl
except ImportError:  # not on Windows: commits there are not serialised between processes
    fcntl = None  # type: ignore[assignment]

#: What every manifest this toolkit writes holds (the mark of a folder ``overwrite`` may replace).
MANIFEST_MARKS = ("canasta_sim", "rules_version", "bots_version")

#: Staging folders are named ``.<results folder name>.canasta-sim-<host>-<pid>-<random>``:
#: host and pid tell a later run which ones a killed process (kill -9) left behind.
STAGING_TAG = "canasta-sim"


class OutConflict(ValueError):
    """The results folder changed while the run ran (another run wrote it first)."""


class OutExists(BadArgument):
    """The results folder ``out`` exists and ``overwrite`` was not given; ``out`` is the
    path as given, so the command line can word the remedy as its option (``--overwrite``)."""

    def __init__(self, out):
        super().__init__(
            "out",
            f"out={str(out)!r} already exists; choose a new folder or pass overwrite=True",
        )
        self.out = out

    def __reduce__(self):
        return type(self), (self.out,)


def _written_here(path: Path) -> bool:
    """Whether ``path`` is a results folder this toolkit wrote: its ``manifest.json`` is one of
    ours, a JSON object with the package and behaviour versions (:data:`MANIFEST_MARKS`; other
    programs write files of that name too). A table file alone (``games.csv``, a common name)
    is no mark: every command that writes a folder writes its manifest."""
    try:
        data = json.loads((path / "manifest.json").read_text())
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return (
        isinstance(data, dict)
        and isinstance(data.get("canasta_sim"), str)
        and all(isinstance(data.get(k), int) for k in MANIFEST_MARKS[1:])
    )


@dataclass(frozen=True)
class Target:
    """A results folder to write.

    Attributes
    ----------
    path : pathlib.Path
        Absolute path of the folder.
    replaces : (int, int) or None
        ``(st_dev, st_ino)`` of the folder that existed at the start of the run and may be
        replaced (``overwrite``); ``None`` when nothing may be replaced.
    """

    path: Path
    replaces: tuple[int, int] | None = None


def _folder_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def out_path(out) -> Path:
    """``out`` as an absolute path, its symbolic links followed.

    Raises
    ------
    BadArgument
        For a path that cannot be resolved (a loop of symbolic links).
    """
    try:
        return Path(out).resolve()
    except (OSError, RuntimeError) as exc:  # Python 3.10 and 3.11 raise RuntimeError for a loop
        raise BadArgument("out", f"out={str(out)!r} cannot be resolved ({exc})") from None


def prepare_out(out, overwrite: bool) -> Target:
    """Check that ``out`` can be written: it must not exist (unless ``overwrite`` and it is a
    results folder of this toolkit, or empty) and its parent must be a writable folder or
    one that can be created. Leaves the file system as it was (:func:`staging_folder`
    creates the folders when the results are written).

    Returns
    -------
    Target
        The absolute path, and with ``overwrite`` the identity of the folder found now (the
        only folder :func:`commit_out` will replace).

    Raises
    ------
    OutExists
        When ``out`` exists and ``overwrite`` is false.
    ValueError
        Naming the path and what is wrong.
    """
    path = out_path(out)
    replaces = None
    if path.exists():
        if not overwrite:
            raise OutExists(out)
        if not path.is_dir():
            raise BadArgument("out", f"out={str(out)!r} exists and is not a folder")
        if any(path.iterdir()) and not _written_here(path):
            raise BadArgument(
                "out",
                f"out={str(out)!r} is not a results folder of canasta-sim (no manifest.json "
                "of canasta-sim in it); refusing to replace it",
            )
        replaces = _folder_id(path)
    try:
        created = make_folders(path.parent)
        try:
            tempfile.TemporaryDirectory(prefix=_staging_prefix(path), dir=path.parent).cleanup()
        finally:
            remove_empty_folders(created)
    except OSError as exc:
        raise BadArgument(
            "out", f"out={str(out)!r} cannot be written ({exc.strerror or exc})"
        ) from None
    return Target(path, replaces)


def make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents.

    Parameters
    ----------
    folder : Path
        An absolute path.

    Returns
    -------
    list of Path
        The folders this call created, outermost first (empty if ``folder`` existed).

    Raises
    ------
    OSError
        If a folder cannot be created; the folders created before are removed again.
    """
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    created: list[Path] = []
    try:
        for path in reversed(missing):
            try:
                path.mkdir()
            except FileExistsError:
                continue  # made meanwhile by someone else: not ours to remove
            created.append(path)
    except BaseException:
        remove_empty_folders(created)
        raise
    return created


def remove_empty_folders(created: list[Path]) -> None:
    """Remove the folders of ``created`` (as returned by :func:`make_folders`) that are empty,
    innermost first; folders that hold anything stay."""
    for path in reversed(created):
        try:
            path.rmdir()
        except OSError:
            pass  # not empty (or already gone)


def _staging_prefix(path: Path) -> str:
    return f".{path.name}.{STAGING_TAG}-{socket.gethostname()}-{os.getpid()}-"


@contextmanager
def staging_folder(target: Target):
    """Yield a new private folder next to ``target`` to write a results folder into (see
    :func:`commit_out`), creating ``target``'s missing parents and removing stale staging
    folders there first (:func:`remove_stale_staging`). If the block fails or is interrupted,
    the staging folder and the parents created here that are left empty are removed; folders
    that existed before are never touched. An OSError naming a file in the staging folder is
    raised again naming that file in ``target``, the folder the user asked for. A Ctrl-C once
    the folder is in place is raised again as :class:`~canasta_sim.errors.InterruptedAfterCommit`
    naming ``target``."""
    path = target.path
    created = make_folders(path.parent)
    remove_stale_staging(path.parent)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=_staging_prefix(path), dir=path.parent))
    except BaseException:
        remove_empty_folders(created)
        raise
    try:
        yield tmp
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt) and not os.path.lexists(tmp):
            # commit_out moved the staging folder into place: the run is finished
            raise InterruptedAfterCommit(path) from exc
        shutil.rmtree(tmp, ignore_errors=True)
        remove_empty_folders(created)
        if isinstance(exc, OSError) and exc.filename and Path(exc.filename).is_relative_to(tmp):
            raise naming_file(exc, path / Path(exc.filename).relative_to(tmp)) from exc
        raise


def remove_stale_staging(folder: Path) -> list[Path]:
    """Remove the staging folders in ``folder`` that runs on this host left behind when
    killed outright (their process is gone). Only folders named exactly like this toolkit's
    staging folders (:data:`STAGING_TAG`, this host) are considered; folders of live
    processes, of other hosts (a shared file system) and anything else stay.

    Returns
    -------
    list of Path
        The folders removed.
    """
    host = re.escape(socket.gethostname())
    pattern = re.compile(rf"\..+\.{STAGING_TAG}-{host}-([0-9]+)-\w+")
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []  # cleaning up is a courtesy: an unreadable folder fails later, with its name
    removed = []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match and not entry.is_symlink() and entry.is_dir() and not _running(int(match[1])):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (signal 0 only checks; nothing is sent)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's process, or no valid pid: not ours to judge
    return True


@contextmanager
def _locked(folder: Path):
    """Hold an exclusive lock on ``folder`` (flock on the folder itself: nothing to clean up)
    for the block; processes committing into the same folder take turns."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def commit_out(tmp: Path, target: Target) -> None:
    """Move a complete results folder into place, readable like any new folder (``mkdtemp``
    makes it private). Replaces only the folder ``target.replaces`` names (the one found at
    the start of the run with ``overwrite``). SIGINT and SIGTERM wait until the move is done
    and the replaced folder removed: the folder is never left aside with the new one not in
    place.

    Raises
    ------
    OutConflict
        If a folder is at ``target.path`` now that may not be replaced: another run created
        it (or replaced the one found at the start) while this run ran.
    """
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)
    path = target.path
    with _locked(path.parent):
        current = _folder_id(path)
        if current is not None and current != target.replaces:
            raise OutConflict(
                f"out={str(path)!r} was written by another run while this one ran; this "
                f"run's results are not kept (one run per results folder; '--overwrite' "
                f"replaces only a folder that exists when the run starts)"
            )
        with deferred_signals():
            if current is None:
                tmp.rename(path)
                return
            old = path.with_name(f".{path.name}.old-{os.getpid()}")
            path.rename(old)
            tmp.rename(path)
            shutil.rmtree(old, ignore_errors=True)


def json_text(data: dict) -> str:
    """Indented JSON text with a final newline (``manifest.json`` and the like)."""
    return json.dumps(data, indent=2) + "\n"


def write_text(path: Path, text: str) -> None:
    """Write a text file; an error names ``path`` (see :func:`writing`)."""
    with writing(path):
        path.write_text(text)


def write_part(folder: Path, first: int, frame) -> None:
    """Write one Parquet part ``folder/part-FIRST.parquet`` atomically (a task run again
    after a lost worker rewrites the same part)."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"part-{first:012d}.parquet"
    tmp = folder / f".part-{first:012d}.{os.getpid()}.tmp"
    with writing(final):
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, final)


class RecordFiles:
    """Record files of a results folder written chunk by chunk: Parquet files (one writer
    per file, one row group per chunk) and CSV files (header once). Use as a context
    manager: on success the Parquet footers are written; on an error the files are
    abandoned without a second error, so the first one (naming its file) is what the user
    sees.

    Parameters
    ----------
    folder : pathlib.Path
        The staging folder.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self._writers: dict = {}
        self._csv: set[str] = set()

    def write(self, name: str, frame) -> None:
        """Append ``frame`` to ``name`` (``*.parquet`` or ``*.csv``)."""
        path = self.folder / name
        with writing(path):
            if name.endswith(".csv"):
                frame.to_csv(path, index=False, mode="a", header=name not in self._csv)
                self._csv.add(name)
                return
            table = pa.Table.from_pandas(frame, preserve_index=False)
            if name not in self._writers:
                self._writers[name] = pq.ParquetWriter(path, table.schema)
            self._writers[name].write_table(table)

    def __enter__(self) -> RecordFiles:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        writers, self._writers = self._writers, {}
        for name, writer in writers.items():
            if kind is None:
                with writing(self.folder / name):  # closing writes the Parquet footer
                    writer.close()
            else:
                with contextlib.suppress(Exception):
                    writer.close()


# --- manifests ------------------------------------------------------------------------------
@functools.cache
def git_commit() -> str | None:
    """The git commit of the package's checkout (``+dirty`` when it has changes), or
    ``None`` when the package is not in a git checkout or git is missing.

    Asked of git at the first call in a process and remembered: its two commands took tens
    of milliseconds of every run's manifest, and a process keeps running the code it
    imported whatever its checkout becomes."""
    here = Path(__file__).parents[1]  # the package folder
    try:
        head = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no", "."],
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def make_manifest(
    table,
    *,
    seed: int,
    first_deal: int,
    deals: int,
    wall: float,
    how: dict,
    chunk: int,
    records: bool,
) -> dict:
    """A run's manifest: everything needed to reproduce it, plus versions and wall time.

    Parameters
    ----------
    table : canasta_sim.run.seating.Table
        Rules and seatings of the run.
    seed, first_deal, deals : int
        Master seed and the deals played (``first_deal .. first_deal + deals - 1``).
    wall : float
        Seconds of play.
    how : dict
        Where the chunks ran: ``workers`` (numba threads, or Dask worker processes),
        ``threads_per_worker`` and ``scheduler`` (``None`` for a local run), as
        :func:`canasta_sim.run.runner.map_chunks` reports it.
    chunk : int
        Deals per chunk.
    records : bool
        Whether per-deal records were kept.
    """
    import numba
    import numpy
    import pandas

    from ..nb import KERNEL_DIGEST
    from ..players.weights import manifest_entry

    return {
        "canasta_sim": __version__,
        "rules_version": RULES_VERSION,
        "bots_version": BOTS_VERSION,
        "git_commit": git_commit(),
        "kernel_digest": KERNEL_DIGEST,
        "seed": seed,
        "first_deal": first_deal,
        "deals": deals,
        "rules": table.rules.to_dict(),
        "bots": [[table.bot_specs[c] for c in codes] for codes in table.bot_codes.tolist()],
        "seats": [list(specs) for specs in table.seat_specs],
        "scores": list(table.scores),
        "bot_parameters": {
            b.spec: b.parameters_at(table.rules.players)
            for seating in table.seatings
            for b in seating
        },
        # the apprentice's weight files (the shipped ones by package and name, not by this
        # machine's path) and the SHA-256 of each (first 16 hex digits)
        "weights": [manifest_entry(f) for f in getattr(table, "weight_files", ())],
        "workers": how["workers"],
        "threads_per_worker": how["threads_per_worker"],
        "scheduler": how["scheduler"],
        "chunk_size": chunk,
        "records": records,
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(deals / wall, 1) if wall > 0 else None,
        "versions": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": numpy.__version__,
            "pandas": pandas.__version__,
            "pyarrow": pa.__version__,
        },
    }
