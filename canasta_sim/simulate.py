"""The batch simulator: millions of bot-vs-bot deals, records and aggregates.

Deals are played in chunks (:func:`nb.play.play_chunk`: blocks of deals, one kernel call
each, on parallel threads over the machine's cores). Deal ``k`` is seeded from ``(seed, k)``
alone and its dealer is ``k % players``, so results are identical for any number of workers and any
chunk size.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ._version import BOTS_VERSION, RULES_VERSION, __version__
from .aggregate import Aggregates
from .bots import Bot, seat_arrays, side_bots
from .deal import minimum_count
from .nb import layout as L
from .nb.play import play_chunk
from .nb.rng import deal_seeds_nb
from .records import deals_frame, sides_frame
from .rules import PRESETS, Rules

DEFAULT_CHUNK = 50_000
MAX_CHUNK = 1_000_000  # a chunk's records are held in memory at once (about 150 MB)


@dataclass
class SimulationResult:
    """What :func:`simulate` returns.

    Attributes
    ----------
    deals : pandas.DataFrame or None
        One row per deal (columns: :data:`canasta_sim.records.DEAL_COLUMNS`); ``None`` when
        run with ``records=False``.
    sides : pandas.DataFrame or None
        One row per deal and side (:data:`canasta_sim.records.SIDE_COLUMNS`).
    aggregates : Aggregates
        Exactly merged counts, sums and histograms of the whole run.
    manifest : dict
        Seed, rules, bots, versions, deals, wall time (seconds).
    folder : pathlib.Path or None
        The results folder written (absolute), ``None`` without ``out``.
    """

    deals: pd.DataFrame | None
    sides: pd.DataFrame | None
    aggregates: Aggregates
    manifest: dict
    folder: Path | None = None

    def __repr__(self) -> str:
        # one line, like a pandas summary: the frames are for reading, not for the repr
        m = self.manifest
        bots = m["bots"][0] if len(m["bots"]) == 1 else m["bots"]
        folder = "" if self.folder is None else f", folder={str(self.folder)!r}"
        return (
            f"SimulationResult(deals={m['deals']}, players={m['rules']['players']}, "
            f"bots={bots}, seed={m['seed']}{folder}, wall_seconds={m['wall_seconds']})"
        )

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.manifest["rules"])

    def summary(self) -> pd.DataFrame:
        """The run's statistics with 95% intervals (see :func:`canasta_sim.stats.summary`)."""
        from .stats import summary

        return summary(self.aggregates, self.rules)


def resolve_rules(rules) -> Rules:
    """``None`` (classic, 4 players), a :class:`Rules`, a preset name, or a dict of switches.

    Raises
    ------
    ValueError
        For an unknown preset or switch, or an impossible combination.
    """
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, dict):
        return Rules.from_dict(rules)
    raise ValueError(
        f"rules={rules!r} is not allowed; allowed: a Rules, a preset name "
        f"({', '.join(PRESETS)}) or a dict of switches"
    )


def check_count(name: str, value, low: int = 1, high: int = 10**12) -> int:
    """Validate a count argument (deals, games, workers, chunk size).

    Raises
    ------
    ValueError
        Naming the argument, the bad value and the allowed range.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or not (low <= value <= high)
    ):
        raise ValueError(
            f"{name}={value!r} is not allowed; allowed: an integer from {low} to {high}"
        )
    return int(value)


@contextmanager
def numba_threads(workers: int | None):
    """Run the block with ``workers`` numba threads (all cores when ``None``)."""
    limit = numba.config.NUMBA_NUM_THREADS
    workers = limit if workers is None else check_count("workers", workers, 1, limit)
    before = numba.get_num_threads()
    numba.set_num_threads(workers)
    try:
        yield workers
    finally:
        numba.set_num_threads(before)


@dataclass(frozen=True)
class Table:
    """Who sits where: one tuple of side bots per seating; deal ``k`` uses seating
    ``k % len(seatings)`` (bots rotating over seats, for fair comparisons; see
    :func:`run_chunk` for how the seatings share boards).

    Derived kernel arrays: ``rules_array``, ``policies`` int32[R, players], ``params``
    float64[R, players, N_PARAMS], ``bot_codes`` int8[R, sides] (index into
    :attr:`bot_specs`).
    """

    rules: Rules
    seatings: tuple[tuple[Bot, ...], ...]
    rules_array: np.ndarray = field(init=False, repr=False, compare=False)
    policies: np.ndarray = field(init=False, repr=False, compare=False)
    params: np.ndarray = field(init=False, repr=False, compare=False)
    bot_codes: np.ndarray = field(init=False, repr=False, compare=False)

    @property
    def bot_specs(self) -> list[str]:
        specs: list[str] = []
        for seating in self.seatings:
            for bot in seating:
                if bot.spec not in specs:
                    specs.append(bot.spec)
        return specs

    def __post_init__(self):
        arrays = [seat_arrays(list(s), self.rules.players) for s in self.seatings]
        specs = self.bot_specs
        codes = [[specs.index(b.spec) for b in s] for s in self.seatings]
        object.__setattr__(self, "rules_array", self.rules.to_array())
        object.__setattr__(self, "policies", np.stack([a[0] for a in arrays]))
        object.__setattr__(self, "params", np.stack([a[1] for a in arrays]))
        object.__setattr__(self, "bot_codes", np.array(codes, np.int8))


def run_chunk(table: Table, seed: int, first: int, n: int, records: bool):
    """Play deals ``first .. first + n - 1`` of a run and return ``(deals, sides,
    aggregates)`` (the frames are ``None`` unless ``records``). The unit of work of every
    scheduler.

    With ``R`` seatings, deal ``k`` is board ``b = k // R`` played with seating ``k % R``: the
    ``R`` deals of a board share their cards (seed from ``(seed, b)``) and dealer
    (``b % players``), so bots compared by rotating seats meet the same deals (duplicate
    play). With one seating, board ``b`` is deal ``k``.
    """
    rules = table.rules
    n_seatings = len(table.seatings)
    index = np.arange(first, first + n, dtype=np.int64)
    board = index // n_seatings
    seeds = board_seeds(seed, board)
    dealers = (board % rules.players).astype(np.int32)
    minimums = np.full((n, rules.sides), minimum_count(0, rules), np.int32)
    seatings = (index % n_seatings).astype(np.int32)
    deal_rows, side_rows = play_deals(table, seeds, dealers, minimums, seatings)
    deals = deals_frame(first, seeds, rules.players, deal_rows)
    sides = sides_frame(first, side_rows, table.bot_specs, table.bot_codes[seatings])
    agg = Aggregates.from_frames(
        deals,
        sides,
        players=rules.players,
        n_sides=rules.sides,
        max_turns=rules.max_turns,
        bots=table.bot_specs,
    )
    return (deals, sides, agg) if records else (None, None, agg)


def board_seeds(seed: int, boards: np.ndarray) -> np.ndarray:
    """Seeds (uint64) of consecutive boards ``boards`` (int64, non-decreasing by at most 1)."""
    first = int(boards[0]) if len(boards) else 0
    unique = deal_seeds_nb(
        np.uint64(seed), np.int64(first), int(boards[-1]) - first + 1 if len(boards) else 0
    )
    return unique[boards - first]


def play_deals(table: Table, seeds, dealers, minimums, seatings):
    """Play one deal per seed with the kernel; returns ``deal_rows`` int32[n, D_LEN] and
    ``side_rows`` int32[n, sides, SR_LEN] (see :mod:`canasta_sim.nb.layout`)."""
    rules = table.rules
    n = len(seeds)
    deal_rows = np.zeros((n, L.D_LEN), np.int32)
    side_rows = np.zeros((n, rules.sides, L.SR_LEN), np.int32)
    play_chunk(
        table.rules_array,
        seeds,
        dealers,
        minimums,
        seatings,
        table.policies,
        table.params,
        numba.get_num_threads(),
        deal_rows,
        side_rows,
    )
    return deal_rows, side_rows


def load_kernels(table: Table, note: bool) -> None:
    """Compile the chunk kernel (first use) or load it from numba's cache, so that a run's
    wall time counts playing only. With ``note``, say so on stderr if it takes over a second."""
    timer = threading.Timer(
        1.0,
        lambda: print(
            "compiling the kernels (first use only, about a minute; then cached)...",
            file=sys.stderr,
            flush=True,
        ),
    )
    if note:
        timer.start()
    try:
        play_deals(
            table,
            np.empty(0, np.uint64),
            np.empty(0, np.int32),
            np.empty((0, table.rules.sides), np.int32),
            np.empty(0, np.int32),
        )
    finally:
        timer.cancel()


def simulate(
    deals: int,
    *,
    rules=None,
    bots=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int | None = None,
    out=None,
    records: bool = True,
    progress: bool = False,
    overwrite: bool = False,
    scheduler: str | None = None,
    parts: bool = False,
) -> SimulationResult:
    """Play ``deals`` independent bot-vs-bot deals and collect their statistics.

    Parameters
    ----------
    deals : int
        Number of deals, >= 1.
    rules : Rules, str or dict, optional
        See :func:`resolve_rules`; default classic rules for 4 players.
    bots : str or list of str, optional
        One bot spec for every side, or one per side in side order (see
        :mod:`canasta_sim.bots`); default ``"expert"``.
    seed : int
        Master seed, 0 .. 2**64-1. Deal ``k`` is seeded from ``(seed, k)``.
    workers : int, optional
        Threads (default: all cores). Results do not depend on it.
    chunk_size : int, optional
        Deals per kernel call (default 50,000). Results do not depend on it.
    out : path, optional
        Results folder to write: ``deals.parquet``, ``sides.parquet`` (written chunk by
        chunk; not with ``records=False``), ``aggregates.json``, ``summary.json`` and
        ``manifest.json``. Written under a temporary name and renamed when complete; a
        failed or interrupted run leaves neither it nor the parent folders it created; the
        staging folders that runs killed outright (``kill -9``) on this host left in the same
        parent folder are removed (:func:`remove_stale_staging`).
    records : bool
        Keep per-deal records; ``False`` keeps only the aggregates (constant memory).
    progress : bool
        Show a progress bar on stderr, updated per chunk.
    overwrite : bool
        Replace an existing ``out`` folder.
    scheduler : str, optional
        Run the chunks as Dask tasks: ``"local:N"`` starts a ``LocalCluster`` of ``N`` worker
        processes for this call (``N`` at most 4 per core); ``"tcp://HOST:8786"`` uses an
        existing cluster. Results are identical to a local run. Needs the ``dask`` extra.
    parts : bool
        With a scheduler and ``out``: workers write the records as Parquet parts
        (``out/deals.parquet/part-*.parquet``; ``out`` must be on a file system every worker
        reaches) and the returned frames are ``None``; otherwise records come back to the
        client.

    Returns
    -------
    SimulationResult

    Raises
    ------
    ValueError
        For a bad count, seed, rules, bot spec, scheduler (or Dask missing), or an ``out``
        that exists (without ``overwrite``) or cannot be written.
    """
    rules = resolve_rules(rules)
    table = Table(rules, (tuple(side_bots(bots, rules.sides)),))
    return run_table(
        table,
        deals,
        seed=seed,
        workers=workers,
        chunk_size=chunk_size,
        out=out,
        records=records,
        progress=progress,
        overwrite=overwrite,
        scheduler=scheduler,
        parts=parts,
    )


def run_table(
    table: Table,
    deals: int,
    *,
    seed: int = 0,
    workers=None,
    chunk_size=None,
    out=None,
    records=True,
    progress=False,
    overwrite=False,
    scheduler=None,
    parts=False,
) -> SimulationResult:
    """:func:`simulate` for an explicit :class:`Table` (several seatings)."""
    deals = check_count("deals", deals)
    seed = check_count("seed", seed, 0, 2**64 - 1)
    for name, flag in (("records", records), ("progress", progress), ("overwrite", overwrite)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name}={flag!r} is not allowed; allowed: True or False")
    chunk = check_count(
        "chunk_size", min(deals, DEFAULT_CHUNK) if chunk_size is None else chunk_size, 1, MAX_CHUNK
    )
    if parts and (scheduler is None or out is None or not records):
        raise ValueError("parts=True needs a scheduler, an out folder and records")
    target = prepare_out(out, overwrite) if out is not None else None
    with staging_folder(target) if target else nullcontext() as tmp:
        return _run_table(
            table, deals, seed, workers, chunk, records, progress, scheduler, parts, tmp, target
        )


def _run_table(
    table, deals, seed, workers, chunk, records, progress, scheduler, parts, tmp, target
) -> SimulationResult:
    """:func:`run_table` after the checks; writes into the staging folder ``tmp`` (``None``
    without ``out``) and moves it to ``target`` when complete."""
    if scheduler is None:
        load_kernels(table, progress)
    start = time.perf_counter()
    rules = table.rules
    total = Aggregates.empty(rules.players, rules.sides, rules.max_turns, table.bot_specs)
    frames: list[tuple[pd.DataFrame, pd.DataFrame]] = []
    writers: dict[str, pq.ParquetWriter] = {}
    try:
        # chunk arguments are made as the chunks run (a list of them grew with --deals)
        args, chunk_args = itertools.tee(
            (table, seed, f, min(chunk, deals - f), records) for f in range(0, deals, chunk)
        )
        with _chunk_results(chunk_args, workers, scheduler, tmp if parts else None) as (
            results,
            how,
        ):
            with _progress(deals, progress) as bar:
                for (_, _, _, n, _), (d, s, agg) in zip(args, results):
                    total += agg
                    if records and not parts:
                        frames.append((d, s))
                        if tmp is not None:
                            _write_parts(writers, tmp, d, s)
                    bar.update(n)
        for name, w in writers.items():
            with writing(tmp / f"{name}.parquet"):  # closing writes the Parquet footer
                w.close()
        wall = time.perf_counter() - start
        manifest = make_manifest(table, seed, deals, wall, how, chunk, records)
        deals_df = sides_df = None
        if frames:
            deals_df = pd.concat([f[0] for f in frames], ignore_index=True)
            sides_df = pd.concat([f[1] for f in frames], ignore_index=True)
        result = SimulationResult(deals_df, sides_df, total, manifest, target)
        if tmp is not None:
            write_run_files(tmp, result)
            commit_out(tmp, target)
        return result
    finally:
        for w in writers.values():
            w.close()


@contextmanager
def _chunk_results(args, workers, scheduler, parts_dir):
    """Yield ``(iterator of run_chunk results in the order of args, how it ran)``: locally
    with numba threads, or as Dask tasks on ``scheduler``."""
    if scheduler is None:
        with numba_threads(workers) as n:
            yield (run_chunk(*a) for a in args), n
        return
    from .cluster import chunk_task, map_chunks

    with map_chunks(scheduler, chunk_task, [(*a, parts_dir) for a in args], workers) as out:
        yield out


# --- results folders ----------------------------------------------------------------------
#: Files that mark a folder as one this toolkit wrote (and may replace with ``overwrite``).
RUN_MARKERS = ("manifest.json", "compare.csv", "sweep.csv", "games.csv")


def prepare_out(out, overwrite: bool) -> Path:
    """Check that ``out`` can be written: it must not exist (unless ``overwrite`` and it is a
    results folder of this toolkit, or empty) and its parent must be a writable folder or
    one that can be created. Leaves the file system as it was (:func:`staging_folder`
    creates the folders when the results are written).

    Raises
    ------
    ValueError
        Naming the path and what is wrong.
    """
    target = Path(out).resolve()
    if target.exists():
        if not overwrite:
            raise ValueError(
                f"out={str(out)!r} already exists; choose a new folder or pass "
                f"overwrite=True (--overwrite on the command line)"
            )
        if not target.is_dir():
            raise ValueError(f"out={str(out)!r} exists and is not a folder")
        if any(target.iterdir()) and not any((target / m).exists() for m in RUN_MARKERS):
            raise ValueError(
                f"out={str(out)!r} is not a results folder of canasta-sim (no "
                f"{' / '.join(RUN_MARKERS)}); refusing to replace it"
            )
    try:
        created = make_folders(target.parent)
        try:
            tempfile.TemporaryDirectory(prefix=_staging_prefix(target), dir=target.parent).cleanup()
        finally:
            remove_empty_folders(created)
    except OSError as exc:
        raise ValueError(f"out={str(out)!r} cannot be written ({exc.strerror or exc})") from None
    return target


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


#: Staging folders are named ``.<results folder name>.canasta-sim-<host>-<pid>-<random>``:
#: host and pid tell a later run which ones a killed process (kill -9) left behind.
STAGING_TAG = "canasta-sim"


def _staging_prefix(target: Path) -> str:
    return f".{target.name}.{STAGING_TAG}-{socket.gethostname()}-{os.getpid()}-"


@contextmanager
def staging_folder(target: Path):
    """Yield a new private folder next to ``target`` to write a results folder into (see
    :func:`commit_out`), creating ``target``'s missing parents and removing stale staging
    folders there first (:func:`remove_stale_staging`). If the block fails or is interrupted,
    the staging folder and the parents created here that are left empty are removed; folders
    that existed before are never touched. An OSError naming a file in the staging folder is
    raised again naming that file in ``target``, the folder the user asked for."""
    created = make_folders(target.parent)
    remove_stale_staging(target.parent)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=_staging_prefix(target), dir=target.parent))
    except BaseException:
        remove_empty_folders(created)
        raise
    try:
        yield tmp
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        remove_empty_folders(created)
        if isinstance(exc, OSError) and exc.filename and Path(exc.filename).is_relative_to(tmp):
            raise _naming(exc, target / Path(exc.filename).relative_to(tmp)) from exc
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
def writing(path: Path):
    """Run a block that writes the file ``path``; an OSError in it is raised again naming
    ``path`` (pyarrow's and pandas' write errors and a failed ``write`` or ``close`` name no
    file, a temporary file's name would not help), so the one-line error says what could not
    be written."""
    try:
        yield
    except OSError as exc:
        raise _naming(exc, path) from exc


def _naming(exc: OSError, path: Path) -> OSError:
    return OSError(exc.errno, exc.strerror or str(exc), str(path))


def commit_out(tmp: Path, target: Path) -> None:
    """Move a complete results folder into place (replacing an old one only now), readable
    like any new folder (``mkdtemp`` makes it private)."""
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(target)


def write_run_files(folder: Path, result: SimulationResult) -> None:
    """Write ``manifest.json``, ``aggregates.json`` and ``summary.json`` into ``folder``."""
    write_text(folder / "manifest.json", json_text(result.manifest))
    write_text(folder / "aggregates.json", result.aggregates.to_json())
    summary = result.summary()
    write_text(folder / "summary.json", summary.to_json(orient="records", indent=2) + "\n")


def json_text(data: dict) -> str:
    """Indented JSON text with a final newline (``manifest.json`` and the like)."""
    return json.dumps(data, indent=2) + "\n"


def write_text(path: Path, text: str) -> None:
    """Write a text file; an error names ``path`` (see :func:`writing`)."""
    with writing(path):
        path.write_text(text)


def _write_parts(writers: dict, folder: Path, deals: pd.DataFrame, sides: pd.DataFrame) -> None:
    for name, frame in (("deals", deals), ("sides", sides)):
        path = folder / f"{name}.parquet"
        with writing(path):
            table = pa.Table.from_pandas(frame, preserve_index=False)
            if name not in writers:
                writers[name] = pq.ParquetWriter(path, table.schema)
            writers[name].write_table(table)


def make_manifest(
    table: Table, seed: int, deals: int, wall: float, workers: int, chunk: int, records: bool
) -> dict:
    """The run's manifest: everything needed to reproduce it, plus versions and wall time."""
    import pyarrow

    return {
        "canasta_sim": __version__,
        "rules_version": RULES_VERSION,
        "bots_version": BOTS_VERSION,
        "seed": seed,
        "deals": deals,
        "rules": table.rules.to_dict(),
        "bots": [[b.spec for b in seating] for seating in table.seatings],
        "bot_parameters": {b.spec: b.parameters for seating in table.seatings for b in seating},
        "workers": workers,  # numba threads, or the Dask scheduler
        "chunk_size": chunk,
        "records": records,
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(deals / wall, 1) if wall > 0 else None,
        "versions": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "pyarrow": pyarrow.__version__,
        },
    }


@contextmanager
def _progress(total: int, enabled: bool, unit: str = "deal"):
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, unit_scale=True, disable=not enabled, leave=False)
    try:
        yield bar
    finally:
        bar.close()
