"""Full games: deals to the game target (R-11, R-55), many games in parallel.

Games advance in rounds: one kernel call plays the next deal of every unfinished game of a
chunk, with each game's dealer (rotating to the left, R-11) and each side's minimum count from
its cumulative score (R-64). Game ``g`` is seeded from ``(seed, g)`` and its deal ``j`` from
``(seed of game g, j)``, so results do not depend on chunking or threads. With several
seatings, consecutive games form boards as in
:func:`canasta_sim.run.seating.play_rows`. :func:`game_red_three` plays games for the value of
the red threes dealt in their first deal.
"""

from __future__ import annotations

import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import BadArgument
from ..game.notation import check_int
from ..game.rules import game_over
from ..nb.engine.rng import sub_seeds_nb
from ..players.specs import table_bots
from ..results.game_totals import GameTotals
from ..results.records import deals_frame, record_frame, sides_frame
from ..results.study_stats import GameRedThree
from .outdir import (
    RecordFiles,
    commit_out,
    json_text,
    make_manifest,
    prepare_out,
    staging_folder,
    write_text,
)
from .runner import check_run, chunk_starts, record_bytes, run_chunks
from .seating import Table, board_seeds, load_kernels, play_deals, resolve_rules

MAX_DEALS = 200  # safety bound on deals per game; a game reaching it has winner -1
DEALS_LIMIT = 2**15 - 1  # most deals a game may be allowed: its count is int16 in games.csv
#: Deals per game assumed when estimating the memory of records kept in memory.
DEALS_PER_GAME_ESTIMATE = 16


@dataclass
class GamesResult:
    """What :func:`play_games` returns.

    Attributes
    ----------
    totals : GameTotals
        Wins, unfinished games, deals and score sums of all games.
    manifest : dict
    folder : pathlib.Path or None
        The results folder written (absolute), ``None`` without ``out``.
    games : pandas.DataFrame or None
        One row per game: ``game``, ``deals``, ``score_0`` .. ``score_{sides-1}`` (final
        cumulative scores, points), ``winner`` (side, or -1 if the game hit ``MAX_DEALS``),
        ``seating`` (index of the seating used). Held in memory without ``out``, read from
        ``folder`` with it, ``None`` with ``records=False`` and no ``out``.
    deals, sides : pandas.DataFrame or None
        Per-deal rows as in :func:`canasta_sim.simulate`, with ``game`` and ``deal`` (the
        deal's number within its game: a side row's deal is its ``game`` and ``deal``); like
        ``games``, and ``None`` with ``records=False``.
    """

    totals: GameTotals
    manifest: dict
    folder: Path | None = None
    frames: tuple | None = field(default=None, repr=False)

    @property
    def games(self) -> pd.DataFrame | None:
        if self.frames is not None:
            return self.frames[0]
        return None if self.folder is None else pd.read_csv(self.folder / "games.csv")

    @property
    def deals(self) -> pd.DataFrame | None:
        return record_frame(self, 1, "deals")

    @property
    def sides(self) -> pd.DataFrame | None:
        return record_frame(self, 2, "sides")


def play_on(
    table: Table, masters, dealers, scores, seatings, max_deals: int = MAX_DEALS, on_deal=None
):
    """Play games on from the cumulative ``scores`` until R-55 ends each (or ``max_deals``
    deals), one round of deals per kernel call.

    Parameters
    ----------
    table : Table
    masters : ndarray(uint64, (n,))
        Game ``g``'s deal ``j`` (from 0) is seeded by ``(masters[g], j)``
        (:func:`~canasta_sim.nb.engine.rng.sub_seeds_nb`).
    dealers : ndarray(int64, (n,))
        The dealer of each game's next deal; the deal passes to the left after each deal
        (R-11): deal ``j`` has dealer ``(dealers[g] + j) % players``.
    scores : ndarray(int64, (n, sides))
        Each side's cumulative score before the next deal (points); sets the minimum counts
        (R-64) and is what the bots read.
    seatings : ndarray(int32, (n,))
        Each game's seating of ``table``.
    max_deals : int
        Safety bound on the deals played.
    on_deal : callable, optional
        Called after every round as ``on_deal(j, games, seeds, deal_rows, side_rows)``:
        the round's deal number, the games it played (int64 indices) and their seeds and
        records.

    Returns
    -------
    scores : ndarray(int64, (n, sides))
        Final cumulative scores (points).
    winner : ndarray(int64, (n,))
        The side that won (R-55, :func:`game_over`), or -1 for a game still open after
        ``max_deals`` deals.
    played : ndarray(int64, (n,))
        Deals played.
    """
    rules = table.rules
    masters = np.asarray(masters, np.uint64)
    dealers = np.asarray(dealers, np.int64)
    seatings = np.asarray(seatings, np.int32)
    scores = np.array(scores, np.int64)
    n = len(masters)
    winner = np.full(n, -1, np.int64)
    played = np.zeros(n, np.int64)
    active = np.arange(n)
    for j in range(max_deals):
        if active.size == 0:
            break
        seeds = sub_seeds_nb(masters[active], np.int64(j))
        round_dealers = ((dealers[active] + j) % rules.players).astype(np.int32)
        deal_rows, side_rows = play_deals(
            table, seeds, round_dealers, scores[active], seatings[active]
        )
        if on_deal is not None:
            on_deal(j, active, seeds, deal_rows, side_rows)
        scores[active] += side_rows["score"]
        played[active] += 1
        over, win = game_over(scores[active], rules.game_target)
        winner[active[over]] = win[over]
        active = active[~over]
    return scores, winner, played


def play_game_chunk(
    table: Table, seed: int, first: int, n: int, max_deals: int = MAX_DEALS, records: bool = True
):
    """Play games ``first .. first + n - 1``; returns ``(games, deals, sides)`` frames, the
    per-deal ``deals`` and ``sides`` ``None`` unless ``records``."""
    rules = table.rules
    game_ids = np.arange(first, first + n, dtype=np.int64)
    # with R seatings, games g of one board (g // R) share their deals' cards (duplicate play)
    boards = game_ids // len(table.seatings)
    seatings = (game_ids % len(table.seatings)).astype(np.int32)
    deal_frames, side_frames = [], []

    def record(j, games, seeds, deal_rows, side_rows):
        d = deals_frame(
            j,
            seeds,
            rules.players,
            deal_rows,
            list(table.seat_bot_specs),
            table.seat_codes[seatings[games]],
        )
        d["deal"] = np.int64(j)
        d.insert(0, "game", game_ids[games])
        s = sides_frame(
            j, seeds, side_rows, list(table.bot_specs), table.bot_codes[seatings[games]]
        )
        s["deal"] = np.int64(j)
        s.insert(0, "game", np.repeat(game_ids[games], rules.sides))
        deal_frames.append(d)
        side_frames.append(s)

    scores, winner, played = play_on(
        table,
        board_seeds(seed, boards),
        boards,
        np.tile(np.array(table.scores, np.int64), (n, 1)),
        seatings,
        max_deals,
        record if records else None,
    )
    games = pd.DataFrame({"game": game_ids, "deals": played.astype(np.int16)})
    for side in range(rules.sides):
        games[f"score_{side}"] = scores[:, side].astype(np.int32)
    games["winner"] = winner.astype(np.int8)
    games["seating"] = seatings.astype(np.int16)
    if not records:
        return games, None, None
    deals = pd.concat(deal_frames, ignore_index=True).sort_values(
        ["game", "deal"], ignore_index=True
    )
    sides = pd.concat(side_frames, ignore_index=True).sort_values(
        ["game", "deal", "side"], ignore_index=True
    )
    return games, deals, sides


def game_table(rules, bots, seats=None, scores=None) -> Table:
    """The one-seating :class:`~canasta_sim.run.seating.Table` of ``rules`` and side ``bots`` (or
    per-seat ``seats``, :func:`canasta_sim.players.specs.table_bots`), starting from ``scores``.

    Raises
    ------
    ValueError
        As :class:`~canasta_sim.run.seating.Table`, or for starting ``scores`` at or above the
        game's target (R-55: that game is already over).
    """
    rules = resolve_rules(rules)
    table = Table(rules, (table_bots(bots, seats, rules),), scores)
    starts = table.scores or ()  # checked by Table: one per side
    over = [(s, v) for s, v in enumerate(starts) if v >= rules.game_target]
    if over:
        side, value = over[0]
        raise BadArgument(
            "scores",
            f"scores={','.join(map(str, starts))}: side {side} starts with {value} "
            f"points, at or above the game's target of {rules.game_target} (R-55: that game "
            f"is over before it starts); allowed: scores below {rules.game_target}",
        )
    return table


def play_games(
    games: int,
    *,
    rules=None,
    bots=None,
    seats=None,
    scores=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    table: Table | None = None,
    max_deals: int = MAX_DEALS,
    scheduler: str | None = None,
    records: bool = True,
    out=None,
    overwrite: bool = False,
) -> GamesResult:
    """Play ``games`` full games to the target score (R-55), from 0-0 or from ``scores``.

    Parameters
    ----------
    games : int
        Number of games, >= 1.
    rules, bots, seats, seed, workers, progress, scheduler, overwrite
        As for :func:`canasta_sim.simulate`.
    scores : list of int, optional
        Each side's cumulative score (points) when the games start (default 0-0): a game
        continued from the middle. It sets the first deal's minimum counts (R-64); the
        game ends when a side reaches the target (R-55) as usual.
    chunk_size : int, optional
        Games per chunk (default 10,000); results do not depend on it.
    table : Table, optional
        Several seatings (bots rotating over seats); overrides ``rules``, ``bots``,
        ``seats`` and ``scores``.
    max_deals : int
        Safety bound on deals per game, from 1 to :data:`DEALS_LIMIT`; a game reaching it
        has no winner (-1).
    records : bool
        Keep the per-game and per-deal rows; ``False`` keeps only :class:`GameTotals`
        (constant memory). Without ``out`` they are held in memory (refused before the
        start when they cannot fit).
    out : path, optional
        Results folder: ``games.csv`` (always), ``deals.parquet`` and ``sides.parquet``
        (with records; all written chunk by chunk) and ``manifest.json``, committed
        atomically as for :func:`canasta_sim.simulate`.

    Returns
    -------
    GamesResult
        With ``records=False`` and no ``out``, the frames are ``None``: only the totals.

    Raises
    ------
    ValueError
        For a bad count (``max_deals`` too), seed, rules, bot spec or scheduler, starting
        ``scores`` at or above the game's target (R-55), an ``out`` that cannot be written, or
        records that cannot fit in memory.
    """
    max_deals = check_int("max_deals", max_deals, 1, DEALS_LIMIT)
    if table is None:
        table = game_table(rules, bots, seats, scores)
    games, seed = check_run(
        table,
        "games",
        games,
        seed,
        scheduler=scheduler,
        records=records,
        out=out,
        per_item=DEALS_PER_GAME_ESTIMATE * record_bytes(table.rules.sides),
        progress=progress,
        overwrite=overwrite,
    )
    default = min(games, table.default_chunk(10_000, "game"))
    chunk = check_int("chunk_size", chunk_size or default, 1, 10**12)
    target = prepare_out(out, overwrite) if out is not None else None
    with staging_folder(target) if target else nullcontext() as tmp:
        if scheduler is None:
            load_kernels(table, progress)
        start = time.perf_counter()
        totals = GameTotals.empty(table.rules.sides)
        kept: list[tuple] = []
        chunks = (
            (n, (table, seed, f, n, max_deals, records))
            for f, n in chunk_starts(0, games, chunk, len(table.seatings))
        )
        files = RecordFiles(tmp) if tmp is not None else None
        with (
            files or nullcontext(),
            run_chunks(
                play_game_chunk,
                chunks,
                total=games,
                unit="game",
                workers=workers,
                scheduler=scheduler,
                progress=progress,
            ) as (results, how),
        ):
            for part in results:
                totals += GameTotals.from_frame(part[0], table.rules.sides)
                _keep(part, files, kept, records)
        wall = time.perf_counter() - start
        run = {"seed": seed, "deals": games, "wall": wall, "how": how, "chunk": chunk}
        manifest = _games_manifest(table, records=records, **run)
        frames = None
        if kept:
            frames = tuple(pd.concat([p[i] for p in kept], ignore_index=True) for i in range(3))
        result = GamesResult(totals, manifest, None, frames)
        if tmp is not None and target is not None:
            write_text(tmp / "manifest.json", json_text(manifest))
            commit_out(tmp, target)
            result.folder = target.path
        return result


def _keep(part: tuple, files: RecordFiles | None, kept: list, records: bool) -> None:
    """A chunk's ``(games, deals, sides)`` rows: into the folder's files (``games.csv``
    always, the records with ``records``), else into ``kept`` with ``records``."""
    if files is not None:
        files.write("games.csv", part[0])
        if records:
            files.write("deals.parquet", part[1])
            files.write("sides.parquet", part[2])
    elif records:
        kept.append(part)


def _games_manifest(table: Table, **run) -> dict:
    """A games run's manifest: a run's (:func:`~canasta_sim.run.outdir.make_manifest`) with
    its count as ``games`` and no first deal or deal rate (games start at 0)."""
    manifest = make_manifest(table, first_deal=0, **run)
    manifest["games"] = manifest.pop("deals")
    for key in ("first_deal", "deals_per_second"):
        manifest.pop(key)
    return manifest


# --- the red threes of a game's first deal -----------------------------------------------
def _game_chunk(table: Table, seed: int, first: int, n: int) -> GameRedThree:
    games, _, sides = play_game_chunk(table, seed, first, n, MAX_DEALS, True)
    return GameRedThree.from_frames(games, sides, table.rules.sides)


def game_red_three(
    games: int,
    *,
    rules=None,
    bots=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int = 10_000,
    progress: bool = False,
) -> GameRedThree:
    """Play ``games`` full games (as :func:`play_games`, the same games for the same seed)
    and keep only their cells by the red threes dealt in the first deal (constant memory:
    each chunk's records are reduced where they are played).

    Parameters
    ----------
    games : int
        Games to play.
    rules, bots, seed, workers, progress
        As for :func:`canasta_sim.play_games`.
    chunk_size : int
        Games per chunk; results do not depend on it.

    Returns
    -------
    GameRedThree

    Raises
    ------
    ValueError
        For a bad count, seed, rules or bot spec.
    """
    games = check_int("games", games, 1, 10**12)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    table = game_table(rules, bots)
    load_kernels(table, progress)
    total = GameRedThree.empty(table.rules.sides)
    chunks = ((n, (table, seed, f, n)) for f, n in chunk_starts(0, games, chunk_size))
    with run_chunks(
        _game_chunk, chunks, total=games, unit="game", workers=workers, progress=progress
    ) as (results, _):
        for part in results:
            total += part
    return total
