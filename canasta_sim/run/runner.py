"""Where chunks of deals run: one chunk mapper for local threads and Dask clusters.

Every command that plays many deals (:func:`canasta_sim.simulate`, :func:`canasta_sim.play_games`,
:func:`canasta_sim.compare`) splits its work into chunks and hands a chunk function and the
chunks' arguments to :func:`run_chunks`, which runs them here (numba threads) or as Dask
tasks (:mod:`canasta_sim.run.cluster`), yields their results in order, shows progress and warns
of runs that would take over a day. Only a bounded number of chunks is in flight at a time,
so a run of any length holds a constant amount of memory.

The seating :class:`Table` and the kernel call of a chunk (:func:`play_rows`) live here too:
deal ``k`` of a run is seeded from ``(seed, k // R)`` alone with ``R`` seatings, so results do
not depend on chunk size, threads or cluster size.
"""

from __future__ import annotations

import collections
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import BadArgument
from ..game.rules import PRESETS, Rules
from ..nb.engine.rng import deal_seeds_nb
from ..nb.play import play_chunk
from ..players.specs import Bot, per_seat, seat_arrays, side_label, weight_sets
from ..results.records import deal_dtype, side_dtype
from .compiling import compile_watch

DEFAULT_CHUNK = 50_000
#: Least default chunk (deals) of a table with a slow bot (:attr:`Table.slow`).
SLOW_DEALS = 64
MAX_CHUNK = 1_000_000  # a chunk's records are held in memory at once (about 150 MB)
#: Seconds of estimated run time above which a run warns (a day).
LONG_RUN = 86_400.0
#: Seconds between progress lines when stderr is not a terminal (a log file).
LOG_INTERVAL = 5.0


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
        raise BadArgument(
            name, f"{name}={value!r} is not allowed; allowed: an integer from {low} to {high}"
        )
    return int(value)


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
        As :func:`check_count`, :func:`check_flags`, :meth:`Table.check_scheduler` and
        :func:`check_memory`.
    """
    count = check_count(unit, count)
    seed = check_count("seed", seed, 0, 2**64 - 1)
    check_flags(records=records, **flags)
    table.check_scheduler(scheduler)
    if records and out is None:
        check_memory(count, per_item, f"{unit}={count}")
    return count, seed


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


def _labels(seatings, players: int, sides: int) -> tuple[str, ...]:
    labels: list[str] = []
    for seating in seatings:
        for side in range(sides):
            label = side_label(seating, players, sides, side)
            if label not in labels:
                labels.append(label)
    return tuple(labels)


@dataclass(frozen=True)
class Table:
    """Who sits where: one tuple of bots per seating, one bot per side or one per seat; deal
    ``k`` uses seating ``k % len(seatings)`` (bots rotating over sides, for fair
    comparisons; see :func:`play_rows` for how the seatings share boards).

    Attributes
    ----------
    rules : Rules
    seatings : tuple of tuple of Bot
        ``R`` seatings, each one bot per side (seat ``s`` plays side ``s % sides``'s bot) or
        one bot per seat (``players`` bots, seat 0 first).
    bot_specs : tuple of str
        Every side label of the seatings (:func:`canasta_sim.players.specs.side_label`: the spec of
        the side's bot, ``"A/B"`` for partners with different bots), in order of first
        appearance.
    seat_specs : tuple of tuple of str, (R, players)
        The spec of every seat's bot per seating.
    seat_bot_specs : tuple of str
        Every seat's spec, in order of first appearance.
    seat_codes : ndarray(int8, (R, players))
        Index into :attr:`seat_bot_specs` of each seating's seats (the records' ``bot_seat_*``).
    rules_array : ndarray(int64)
        ``rules.to_array()``, the kernels' rules argument.
    policies : ndarray(int32, (R, players))
        Policy code per seating and seat.
    params : ndarray(float64, (R, players, N_PARAMS))
        Bot parameters per seating and seat.
    bot_codes : ndarray(int8, (R, sides))
        Index into :attr:`bot_specs` of each seating's side labels.
    weight_files : tuple of str
        The apprentice seats' weight files (each seat's ``weight_set`` indexes them).
    weights : ndarray(float32, (n_sets, NET_LEN))
        Their scorers, the kernels' weights argument (one unused set without an apprentice).
    scores : tuple of int, (sides,)
        Each side's cumulative score (points) before every deal (games: before the game),
        which sets its minimum count (R-64) and which the bots read; default 0. Scores
        belong to sides, not bots: in a rotated comparison each bot plays each side's score.
    """

    rules: Rules
    seatings: tuple[tuple[Bot, ...], ...]
    scores: tuple[int, ...] | None = None
    bot_specs: tuple[str, ...] = field(init=False, compare=False)
    seat_specs: tuple[tuple[str, ...], ...] = field(init=False, compare=False)
    seat_bot_specs: tuple[str, ...] = field(init=False, compare=False)
    seat_codes: np.ndarray = field(init=False, repr=False, compare=False)
    rules_array: np.ndarray = field(init=False, repr=False, compare=False)
    policies: np.ndarray = field(init=False, repr=False, compare=False)
    params: np.ndarray = field(init=False, repr=False, compare=False)
    bot_codes: np.ndarray = field(init=False, repr=False, compare=False)
    weight_files: tuple[str, ...] = field(init=False, compare=False)
    weights: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        players, sides = self.rules.players, self.rules.sides
        object.__setattr__(self, "scores", check_scores(self.scores, self.rules))
        for seating in self.seatings:
            if len(seating) not in (sides, players):
                raise ValueError(
                    f"a seating of {len(seating)} bots; allowed: {sides} (one per side) or "
                    f"{players} (one per seat)"
                )
        arrays = [seat_arrays(list(s), players) for s in self.seatings]
        labels = _labels(self.seatings, players, sides)
        codes = [
            [labels.index(side_label(s, players, sides, side)) for side in range(sides)]
            for s in self.seatings
        ]
        seats = tuple(tuple(b.spec for b in per_seat(s, players)) for s in self.seatings)
        seat_specs = tuple(dict.fromkeys(spec for specs in seats for spec in specs))
        seat_codes = [[seat_specs.index(spec) for spec in specs] for specs in seats]
        object.__setattr__(self, "seat_bot_specs", seat_specs)
        object.__setattr__(self, "seat_codes", np.array(seat_codes, np.int8))
        # a frozen dataclass sets its derived fields once, here
        object.__setattr__(self, "bot_specs", labels)
        object.__setattr__(self, "seat_specs", seats)
        object.__setattr__(self, "rules_array", self.rules.to_array())
        object.__setattr__(self, "policies", np.stack([a[0] for a in arrays]))
        object.__setattr__(self, "params", np.stack([a[1] for a in arrays]))
        object.__setattr__(self, "bot_codes", np.array(codes, np.int8))
        files, weights = weight_sets(self.seatings, players, self.params)
        object.__setattr__(self, "weight_files", files)
        object.__setattr__(self, "weights", weights)

    @property
    def has_python_bots(self) -> bool:
        """Whether a seat plays a bot written in Python (its deals play in Python)."""
        return any(b.is_python for seating in self.seatings for b in seating)

    @property
    def slow(self) -> bool:
        """Whether a seat plays a slow bot: the search bot ``pimc`` or a bot written in
        Python (tens of deals a second rather than tens of thousands)."""
        return any(
            b.is_python or b.policy.name == "pimc" for seating in self.seatings for b in seating
        )

    def default_chunk(self, fast: int, unit: str = "deal") -> int:
        """Chunk size (``unit``\\ s) when none is given: ``fast`` for kernel bots; for a
        :attr:`slow` table a few deals per core (one game per core), so that progress moves
        every few seconds rather than once at the end."""
        if not self.slow:
            return fast
        cores = numba.config.NUMBA_NUM_THREADS
        return max(SLOW_DEALS, 4 * cores) if unit == "deal" else max(SLOW_DEALS // 8, cores)

    def check_scheduler(self, scheduler) -> None:
        """Refuse a Dask run of a table with a Python bot.

        Raises
        ------
        ValueError
            Naming the bot: Python bots run in this process only.
        """
        if scheduler is not None and self.has_python_bots:
            python = next(b.spec for s in self.seatings for b in s if b.is_python)
            raise BadArgument(
                "scheduler",
                f"{python} is a bot written in Python: it plays in this Python process only, "
                f"not on Dask workers; allowed: a run without a scheduler, or kernel bots",
            )


#: Largest cumulative score (points, either sign) a run may start from.
MAX_SCORE = 10**9


def check_scores(scores, rules: Rules) -> tuple[int, ...]:
    """Starting scores: ``None`` (0 for every side) or one integer per side (points).

    Raises
    ------
    ValueError
        Naming the bad value: not a list of ``sides`` integers from -10**9 to 10**9.
    """
    if scores is None:
        return (0,) * rules.sides
    if isinstance(scores, str):
        try:
            scores = [int(x) for x in scores.split(",")]
        except ValueError:
            raise BadArgument(
                "scores", f"scores={scores!r} is not a comma list of integers"
            ) from None
    if not isinstance(scores, (list, tuple, np.ndarray)) or len(scores) != rules.sides:
        raise BadArgument(
            "scores",
            f"scores={scores!r} is not allowed; allowed: one cumulative score per side "
            f"({rules.sides} integers, points, side 0 first)",
        )
    return tuple(check_count("scores", v, -MAX_SCORE, MAX_SCORE) for v in scores)


def minimum_counts(scores: np.ndarray, rules: Rules) -> np.ndarray:
    """R-64 for an array of cumulative scores (points) -> minimum counts (points, int32)."""
    table = rules.minimum_table()
    thresholds = np.array([t for t, _ in table])
    values = np.array([m for _, m in table], np.int32)
    idx = np.clip(np.searchsorted(thresholds, scores, side="right") - 1, 0, len(values) - 1)
    return np.where(scores < 0, rules.negative_minimum, values[idx]).astype(np.int32)


def board_seeds(seed: int, boards: np.ndarray) -> np.ndarray:
    """Seeds (uint64) of consecutive boards ``boards`` (int64, non-decreasing by at most 1)."""
    first = int(boards[0]) if len(boards) else 0
    unique = deal_seeds_nb(
        np.uint64(seed), np.int64(first), int(boards[-1]) - first + 1 if len(boards) else 0
    )
    return unique[boards - first]


def play_deals(table: Table, seeds, dealers, scores, seatings):
    """Play one deal per seed with the kernel, each side starting from ``scores``
    (``(n, sides)`` cumulative points: minimum counts, R-64, and what the bots read); returns
    ``deal_rows`` (``deal_dtype``, ``(n,)``) and ``side_rows`` (``side_dtype``,
    ``(n, sides)``), see :mod:`canasta_sim.results.records`."""
    rules = table.rules
    n = len(seeds)
    deal_rows = np.zeros(n, deal_dtype)
    side_rows = np.zeros((n, rules.sides), side_dtype)
    scores = np.ascontiguousarray(scores, np.int32)
    if table.has_python_bots:
        from ..players.pybot import play_python_deals

        minimums = minimum_counts(scores, rules)
        play_python_deals(table, seeds, dealers, minimums, scores, seatings, deal_rows, side_rows)
        return deal_rows, side_rows
    play_chunk(
        table.rules_array,
        seeds,
        dealers,
        minimum_counts(scores, rules),
        scores,
        seatings,
        table.policies,
        table.params,
        table.weights,
        numba.get_num_threads(),
        deal_rows,
        side_rows,
    )
    return deal_rows, side_rows


def play_rows(table: Table, seed: int, first: int, n: int):
    """Play deals ``first .. first + n - 1`` of a run with master seed ``seed``.

    With ``R`` seatings, deal ``k`` is board ``b = k // R`` played with seating ``k % R``: the
    ``R`` deals of a board share their cards (seed from ``(seed, b)``) and dealer
    (``b % players``), so bots compared by rotating seats meet the same deals (duplicate
    play). With one seating, board ``b`` is deal ``k`` and its dealer is ``k % players``.

    Returns
    -------
    seeds : ndarray(uint64, (n,))
    seatings : ndarray(int32, (n,))
        Seating of each deal.
    deal_rows : ndarray(int32, (n, D_LEN))
    side_rows : ndarray(int32, (n, sides, SR_LEN))
    """
    rules = table.rules
    n_seatings = len(table.seatings)
    index = np.arange(first, first + n, dtype=np.int64)
    board = index // n_seatings
    seeds = board_seeds(seed, board)
    dealers = (board % rules.players).astype(np.int32)
    scores = np.tile(np.array(table.scores, np.int32), (n, 1))
    seatings = (index % n_seatings).astype(np.int32)
    deal_rows, side_rows = play_deals(table, seeds, dealers, scores, seatings)
    return seeds, seatings, deal_rows, side_rows


def load_kernels(table: Table, note: bool) -> None:
    """Compile the chunk kernel (first use) or load it from numba's cache, so that a run's
    wall time counts playing only. With ``note``, say on stderr when kernels are compiled."""
    with compile_watch(note):
        play_deals(
            table,
            np.empty(0, np.uint64),
            np.empty(0, np.int32),
            np.empty((0, table.rules.sides), np.int32),
            np.empty(0, np.int32),
        )


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


class Progress:
    """Progress of a run on stderr: a tqdm bar on a terminal; in a log (stderr not a
    terminal) one line every :data:`LOG_INTERVAL` seconds, and none for runs shorter than
    that. Disabled, it prints nothing.

    Parameters
    ----------
    total : int
        Units of the whole run.
    unit : str
        What a unit is ("deal", "game").
    enabled : bool
    stream : file, optional
        Default ``sys.stderr``.
    """

    def __init__(self, total: int, unit: str, enabled: bool, stream=None):
        self.total, self.unit, self.enabled = total, unit, enabled
        self.stream = sys.stderr if stream is None else stream
        self._bar = None
        self._start = self._last = time.monotonic()
        self._done = 0
        if enabled and _is_terminal(self.stream):
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit=unit, unit_scale=True, leave=False, file=self.stream)

    def update(self, done: int, note: str = "") -> None:
        """Record that ``done`` units (in total, not since the last call) are complete;
        ``note`` (e.g. ``"best 12.5"``) is shown after the count."""
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(done - self._done)
        elif self.enabled:
            now = time.monotonic()
            if now - self._last >= LOG_INTERVAL and done < self.total:
                self._last = now
                print(self.line(done, now - self._start, note), file=self.stream, flush=True)
        self._done = done

    def line(self, done: int, seconds: float, note: str = "") -> str:
        """One progress line: done, percent, elapsed and estimated remaining time, then
        ``note``."""
        left = seconds * (self.total - done) / done if done else math.nan
        eta = "" if math.isnan(left) else f", about {_short(left)} left"
        tail = f", {note}" if note else ""
        return (
            f"{done:,} of {self.total:,} {self.unit}s ({100 * done / self.total:.1f}%), "
            f"{_short(seconds)}{eta}{tail}"
        )

    def __enter__(self) -> Progress:
        return self

    def close(self) -> None:
        """Remove the bar (on a terminal); nothing in a log."""
        if self._bar is not None:
            self._bar.close()

    def __exit__(self, *exc) -> None:
        self.close()


def _short(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --- memory ---------------------------------------------------------------------------------
def record_bytes(sides: int) -> int:
    """Bytes of memory the records of one deal take while a run collects them in memory:
    a deal row (``deal_dtype`` plus deal index, seed, players and up to 6 seats' bots) and
    ``sides`` side rows (``side_dtype`` plus deal index, side and bot), twice (the chunks'
    frames and the frame they are joined into)."""
    return 2 * (deal_dtype.itemsize + 23 + (side_dtype.itemsize + 10) * sides)


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
