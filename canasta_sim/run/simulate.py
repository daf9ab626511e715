"""The batch simulator: millions of bot-vs-bot deals, records and aggregates.

Deals are played in chunks (:func:`run_chunk`: blocks of deals, one kernel call each, on
parallel threads over the machine's cores, or as Dask tasks; see :mod:`canasta_sim.run.runner`).
Deal ``k`` is seeded from ``(seed, k)`` alone and its dealer is ``k % players``, so results
are identical for any number of workers, any chunk size and any split of the deals into runs
(``first_deal``; :mod:`canasta_sim.run.merge` joins such runs).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import BadArgument
from ..game.notation import check_int
from ..game.rules import Rules
from ..nb.engine.rng import DEAL_LIMIT
from ..players.specs import table_bots
from ..results.aggregate import Aggregates, chunk_outputs
from ..results.records import record_frame
from ..results.statistics import summary
from ..results.stats import policy_label
from .outdir import (
    RecordFiles,
    Target,
    commit_out,
    json_text,
    make_manifest,
    prepare_out,
    staging_folder,
    write_part,
    write_text,
)
from .runner import DEFAULT_CHUNK, MAX_CHUNK, check_run, chunk_starts, record_bytes, run_chunks
from .seating import Table, load_kernels, play_rows, resolve_rules

__all__ = ["MAX_CHUNK", "SimulationResult", "resolve_rules", "run_chunk", "run_table", "simulate"]


@dataclass
class SimulationResult:
    """What :func:`simulate` returns.

    Attributes
    ----------
    aggregates : Aggregates
        Exactly merged counts, sums and histograms of the whole run.
    manifest : dict
        Seed, first deal, rules, bots, versions, deals, wall time (seconds).
    folder : pathlib.Path or None
        The results folder written (absolute), ``None`` without ``out``.
    deals : pandas.DataFrame or None
        One row per deal (columns: :data:`canasta_sim.results.records.DEAL_COLUMNS`): held in
        memory for a run without ``out``, read from ``folder`` on each access for a run with
        it; ``None`` for a run with ``records=False``.
    sides : pandas.DataFrame or None
        One row per deal and side (:data:`canasta_sim.results.records.SIDE_COLUMNS`), like
        ``deals``; ``deal`` and ``seed`` name the row's deal (join:
        ``sides.merge(deals, on=["deal", "seed"])``). Counts are ``int8`` or ``int16`` and
        pandas keeps the dtype in arithmetic (``sides.red_threes * 100`` wraps round): cast
        with ``.astype("int64")`` before arithmetic that can leave the dtype's range.
    """

    aggregates: Aggregates
    manifest: dict
    folder: Path | None = None
    frames: tuple[pd.DataFrame, pd.DataFrame] | None = field(default=None, repr=False)

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
    def deals(self) -> pd.DataFrame | None:
        return self._frame(0, "deals")

    @property
    def sides(self) -> pd.DataFrame | None:
        return self._frame(1, "sides")

    def _frame(self, i: int, name: str) -> pd.DataFrame | None:
        return record_frame(self, i, name)

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.manifest["rules"])

    def summary(self) -> pd.DataFrame:
        """The run's statistics with 95% intervals (see
        :func:`canasta_sim.results.statistics.summary`); ``attrs["policy"]`` names the bots they
        describe (:func:`canasta_sim.results.stats.policy_label`)."""
        return summary(self.aggregates, self.rules, policy_label(self.manifest))


def chunk_rows(table: Table, seed: int, first: int, n: int, records: bool):
    """Play deals ``first .. first + n - 1`` of a run: ``(seeds, seatings, deal_rows,
    side_rows)`` of :func:`canasta_sim.run.seating.play_rows` (``records`` is for
    :func:`finish_chunk`)."""
    return play_rows(table, seed, first, n)


def finish_chunk(args: tuple, rows: tuple):
    """``(deals, sides, aggregates)`` of a chunk played by ``chunk_rows(*args)`` (its
    ``rows``); the frames are ``None`` unless ``records``
    (:func:`canasta_sim.results.aggregate.chunk_outputs`)."""
    table, _, first, _, records = args
    seeds, seatings, deal_rows, side_rows = rows
    return chunk_outputs(table, first, seeds, seatings, deal_rows, side_rows, records)


def run_chunk(table: Table, seed: int, first: int, n: int, records: bool):
    """Play deals ``first .. first + n - 1`` of a run (see
    :func:`canasta_sim.run.seating.play_rows`) and return ``(deals, sides, aggregates)``; the
    frames are ``None`` unless ``records``.
    Every scheduler's unit of work: :func:`chunk_rows` then :func:`finish_chunk`, which
    :func:`canasta_sim.run.runner.map_chunks` runs one chunk apart."""
    args = (table, seed, first, n, records)
    return finish_chunk(args, chunk_rows(*args))


def run_chunk_to_parts(table: Table, seed: int, first: int, n: int, folder: str):
    """:func:`run_chunk` on a Dask worker that writes the records itself, as Parquet parts
    ``folder/deals.parquet/part-FIRST.parquet`` (and the same for sides), and returns
    ``(None, None, aggregates)``."""
    deals, sides, agg = run_chunk(table, seed, first, n, True)
    for name, frame in (("deals", deals), ("sides", sides)):
        write_part(Path(folder) / f"{name}.parquet", first, frame)
    return None, None, agg


def simulate(
    deals: int,
    *,
    rules=None,
    bots=None,
    seats=None,
    scores=None,
    seed: int = 0,
    first_deal: int = 0,
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
        :mod:`canasta_sim.players.specs`); default: the default bot, ``"apprentice"``
        (:data:`canasta_sim.players.specs.DEFAULT_BOT`).
    seats : str or list of str, optional
        One bot spec per seat instead of ``bots`` (seat 0 first; seat ``s`` plays for side
        ``s % sides``), so partners may play different bots. Records then label a side
        ``"A/B"`` when its players differ, and ``deals`` has the bot of each seat.
    scores : list of int, optional
        Each side's cumulative score (points) before every deal (default 0): it sets the
        side's minimum count (R-64: 120 from 3,000) and the bots read it (``expert`` goes
        out when that wins the game, R-55).
    seed : int
        Master seed, 0 .. 2**64-1. Deal ``k`` is seeded from ``(seed, k)``.
    first_deal : int
        Index of the first deal: the run plays deals ``first_deal .. first_deal + deals - 1``
        (to extend an earlier run with the same seed; :mod:`canasta_sim.run.merge` joins them).
    workers : int, optional
        Threads (default: all cores). Results do not depend on it.
    chunk_size : int, optional
        Deals per kernel call (default 50,000). Results do not depend on it.
    out : path, optional
        Results folder to write: ``deals.parquet``, ``sides.parquet`` (written chunk by
        chunk, never held in memory as a whole; not with ``records=False``),
        ``aggregates.json``, ``summary.json`` and ``manifest.json``. Written under a
        temporary name and renamed when complete; a failed or interrupted run leaves neither
        it nor the parent folders it created; the staging folders that runs killed outright
        (``kill -9``) on this host left in the same parent folder are removed. If another run
        writes the same folder first, this one fails (see
        :func:`canasta_sim.run.outdir.commit_out`).
    records : bool
        Keep per-deal records; ``False`` keeps only the aggregates (constant memory).
        Without ``out``, records are held in memory: a run whose records cannot fit is
        refused before it starts.
    progress : bool
        Show progress on stderr (a bar on a terminal, a line every few seconds in a log).
    overwrite : bool
        Replace the ``out`` folder that exists when the run starts.
    scheduler : str, optional
        Run the chunks as Dask tasks: ``"local:N"`` starts a ``LocalCluster`` of ``N`` worker
        processes for this call (``N`` at most 4 per core); ``"tcp://HOST:8786"`` uses an
        existing cluster. Results are identical to a local run. Needs the ``dask`` extra.
    parts : bool
        With a scheduler and ``out``: workers write the records as Parquet parts
        (``out/deals.parquet/part-*.parquet``; ``out`` must be on a file system every worker
        reaches); otherwise records come back to the client.

    Returns
    -------
    SimulationResult
        With ``records=False``, ``deals`` and ``sides`` are ``None`` and only the
        aggregates (and the manifest) are returned.

    Raises
    ------
    ValueError
        For a bad count, seed, first deal, rules, scores, bot spec (or both ``bots`` and
        ``seats``),
        scheduler (or Dask missing), an ``out`` that exists (without ``overwrite``), cannot
        be written or is written by another run meanwhile, or records that cannot fit in
        memory.
    """
    rules = resolve_rules(rules)
    table = Table(rules, (table_bots(bots, seats, rules),), scores)
    return run_table(
        table,
        deals,
        seed=seed,
        first_deal=first_deal,
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
    first_deal: int = 0,
    workers=None,
    chunk_size=None,
    out=None,
    records=True,
    progress=False,
    overwrite=False,
    scheduler=None,
    parts=False,
) -> SimulationResult:
    """:func:`simulate` for an explicit :class:`~canasta_sim.run.seating.Table` (several
    seatings: ``first_deal`` and the chunks hold whole boards)."""
    deals, seed = check_run(
        table,
        "deals",
        deals,
        seed,
        scheduler=scheduler,
        records=records,
        out=out,
        per_item=record_bytes(table.rules.sides),
        progress=progress,
        overwrite=overwrite,
        parts=parts,
    )
    first_deal = check_int("first_deal", first_deal, 0, DEAL_LIMIT - 1)
    if first_deal > DEAL_LIMIT - deals:
        raise BadArgument(  # the bound depends on deals: say so, or it reads as arbitrary
            "first_deal",
            f"first_deal={first_deal:,} with {deals:,} deals would reach deal "
            f"{first_deal + deals - 1:,}, past the last deal index {DEAL_LIMIT - 1:,}; allowed: "
            f"0 to {DEAL_LIMIT - deals:,} for {deals:,} deals",
        )
    board = len(table.seatings)
    if first_deal % board:
        raise BadArgument(
            "first_deal",
            f"first_deal={first_deal} is not allowed; allowed: a multiple of the {board} "
            f"seatings (a board's rotations stay together)",
        )
    chunk = check_int(
        "chunk_size",
        min(deals, table.default_chunk(DEFAULT_CHUNK)) if chunk_size is None else chunk_size,
        1,
        MAX_CHUNK,
    )
    if parts and (scheduler is None or out is None or not records):
        raise ValueError("parts=True needs a scheduler, an out folder and records")
    target = prepare_out(out, overwrite) if out is not None else None
    with staging_folder(target) if target else nullcontext() as tmp:
        return _run_table(
            table, deals, seed, first_deal, workers, chunk, records, progress, scheduler,
            parts, tmp, target,
        )  # fmt: skip


def _run_table(
    table: Table,
    deals: int,
    seed: int,
    first_deal: int,
    workers,
    chunk: int,
    records: bool,
    progress: bool,
    scheduler,
    parts: bool,
    tmp: Path | None,
    target: Target | None,
) -> SimulationResult:
    """:func:`run_table` after the checks; writes into the staging folder ``tmp`` (``None``
    without ``out``) and moves it to ``target`` when complete."""
    if scheduler is None:
        load_kernels(table, progress)
    start = time.perf_counter()
    rules = table.rules
    total = Aggregates.empty(rules.players, rules.sides, rules.max_turns, list(table.bot_specs))
    kept: list[tuple[pd.DataFrame, pd.DataFrame]] = []
    starts = chunk_starts(first_deal, deals, chunk, len(table.seatings))
    chunks: Iterator[tuple[int, tuple]]
    fn: Callable[..., tuple]
    then: Callable[..., tuple] | None = None
    if parts:
        chunks = ((n, (table, seed, f, n, str(tmp))) for f, n in starts)
        fn = run_chunk_to_parts
    else:
        chunks = ((n, (table, seed, f, n, records)) for f, n in starts)
        fn = run_chunk
        if not table.has_python_bots:  # a Python bot may keep state from deal to deal
            fn, then = chunk_rows, finish_chunk
    files = RecordFiles(tmp) if tmp is not None and records and not parts else None
    with (
        files or nullcontext(),
        run_chunks(
            fn,
            chunks,
            total=deals,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            then=then,
        ) as (results, how),
    ):
        for d, s, agg in results:
            total += agg
            if files is not None:
                files.write("deals.parquet", d)
                files.write("sides.parquet", s)
            elif records and not parts:
                kept.append((d, s))
    wall = time.perf_counter() - start
    manifest = make_manifest(
        table,
        seed=seed,
        first_deal=first_deal,
        deals=deals,
        wall=wall,
        how=how,
        chunk=chunk,
        records=records,
    )
    frames = None
    if kept:
        frames = tuple(pd.concat([k[i] for k in kept], ignore_index=True) for i in range(2))
        kept.clear()
    result = SimulationResult(total, manifest, None, frames)
    if tmp is not None and target is not None:
        write_run_files(tmp, result)
        commit_out(tmp, target)
        result.folder = target.path
    return result


def write_run_files(folder: Path, result: SimulationResult) -> None:
    """Write ``manifest.json``, ``aggregates.json`` and ``summary.json`` into ``folder``.

    ``summary.json`` is an object: ``policy`` (the play the statistics describe, as
    :meth:`SimulationResult.summary` and the report name it), ``bots`` (per seating, one spec
    per side) and ``bots_version`` from the manifest, and ``statistics``, the summary's rows.
    """
    write_text(folder / "manifest.json", json_text(result.manifest))
    write_text(folder / "aggregates.json", result.aggregates.to_json())
    table = result.summary()
    summary_file = {
        "policy": table.attrs["policy"],
        "bots": result.manifest["bots"],
        "bots_version": result.manifest.get("bots_version"),
        "statistics": json.loads(table.to_json(orient="records")),
    }
    write_text(folder / "summary.json", json_text(summary_file))
