"""Full games: deals to the game target (R-11, R-55), many games in parallel.

Games advance in rounds: one kernel call plays the next deal of every unfinished game of a
chunk, with each game's dealer (rotating to the left, R-11) and each side's minimum count from
its cumulative score (R-64). Game ``g`` is seeded from ``(seed, g)`` and its deal ``j`` from
``(seed of game g, j)``, so results do not depend on chunking or threads. With several
seatings, consecutive games form boards as in
:func:`canasta_sim.simulate.run_chunk`.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .bots import side_bots
from .nb import layout as L
from .nb.rng import sub_seeds_nb
from .records import deals_frame, sides_frame
from .rules import Rules
from .simulate import (
    Table,
    _progress,
    board_seeds,
    check_count,
    load_kernels,
    make_manifest,
    numba_threads,
    play_deals,
    resolve_rules,
)

MAX_DEALS = 200  # safety bound on deals per game; a game reaching it has winner -1


@dataclass
class GamesResult:
    """What :func:`play_games` returns.

    Attributes
    ----------
    games : pandas.DataFrame
        One row per game: ``game``, ``deals``, ``score_0`` .. ``score_{sides-1}`` (final
        cumulative scores, points), ``winner`` (side, or -1 if the game hit ``MAX_DEALS``),
        ``seating`` (index of the seating used).
    deals, sides : pandas.DataFrame
        Per-deal rows as in :func:`canasta_sim.simulate`, with ``game`` and ``deal`` (the
        deal's number within its game).
    manifest : dict
    """

    games: pd.DataFrame
    deals: pd.DataFrame
    sides: pd.DataFrame
    manifest: dict


def minimum_counts(scores: np.ndarray, rules: Rules) -> np.ndarray:
    """R-64 for an array of cumulative scores (points) -> minimum counts (points)."""
    table = rules.minimum_table()
    thresholds = np.array([t for t, _ in table])
    values = np.array([m for _, m in table], np.int32)
    idx = np.clip(np.searchsorted(thresholds, scores, side="right") - 1, 0, len(values) - 1)
    return np.where(scores < 0, rules.negative_minimum, values[idx]).astype(np.int32)


def game_over(scores: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """R-55 per game: ``(over, winner)``; a game is over when a side reached ``target`` and
    the highest total is not shared (an exact tie plays another deal)."""
    best = scores.max(axis=1)
    unique = (scores == best[:, None]).sum(axis=1) == 1
    over = (best >= target) & unique
    return over, np.where(over, scores.argmax(axis=1), -1)


def play_game_chunk(table: Table, seed: int, first: int, n: int, max_deals: int = MAX_DEALS):
    """Play games ``first .. first + n - 1``; returns ``(games, deals, sides)`` frames."""
    rules = table.rules
    game_ids = np.arange(first, first + n, dtype=np.int64)
    # with R seatings, games g of one board (g // R) share their deals' cards (duplicate play)
    game_seeds = board_seeds(seed, game_ids // len(table.seatings))
    scores = np.zeros((n, rules.sides), np.int64)
    winner = np.full(n, -1, np.int64)
    played = np.zeros(n, np.int64)
    active = np.arange(n)
    deal_frames, side_frames = [], []
    for j in range(max_deals):
        if active.size == 0:
            break
        seeds = sub_seeds_nb(game_seeds[active], np.int64(j))
        dealers = ((game_ids[active] // len(table.seatings) + j) % rules.players).astype(np.int32)
        minimums = minimum_counts(scores[active], rules)
        seatings = (game_ids[active] % len(table.seatings)).astype(np.int32)
        deal_rows, side_rows = play_deals(table, seeds, dealers, minimums, seatings)
        d = deals_frame(j, seeds, rules.players, deal_rows)
        d["deal"] = np.int64(j)
        d.insert(0, "game", game_ids[active])
        s = sides_frame(j, side_rows, table.bot_specs, table.bot_codes[seatings])
        s["deal"] = np.int64(j)
        s.insert(0, "game", np.repeat(game_ids[active], rules.sides))
        deal_frames.append(d)
        side_frames.append(s)
        scores[active] += side_rows[:, :, L.SR_SCORE + L.SC_TOTAL]
        played[active] += 1
        over, win = game_over(scores[active], rules.game_target)
        winner[active[over]] = win[over]
        active = active[~over]
    games = pd.DataFrame({"game": game_ids, "deals": played.astype(np.int16)})
    for side in range(rules.sides):
        games[f"score_{side}"] = scores[:, side].astype(np.int32)
    games["winner"] = winner.astype(np.int8)
    games["seating"] = (game_ids % len(table.seatings)).astype(np.int16)
    deals = pd.concat(deal_frames, ignore_index=True).sort_values(
        ["game", "deal"], ignore_index=True
    )
    sides = pd.concat(side_frames, ignore_index=True).sort_values(
        ["game", "deal", "side"], ignore_index=True
    )
    return games, deals, sides


@contextmanager
def _game_results(args, workers, scheduler):
    """Yield ``(iterator of play_game_chunk results in order, how it ran)``."""
    if scheduler is None:
        with numba_threads(workers) as n:
            yield (play_game_chunk(*a) for a in args), n
        return
    from .cluster import game_chunk_task, map_chunks

    with map_chunks(scheduler, game_chunk_task, args, workers) as out:
        yield out


def play_games(
    games: int,
    *,
    rules=None,
    bots=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    table: Table | None = None,
    max_deals: int = MAX_DEALS,
    scheduler: str | None = None,
) -> GamesResult:
    """Play ``games`` full games to the target score (R-55).

    Parameters
    ----------
    games : int
        Number of games, >= 1.
    rules, bots, seed, workers, progress
        As for :func:`canasta_sim.simulate`.
    chunk_size : int, optional
        Games per chunk (default 10,000); results do not depend on it.
    table : Table, optional
        Several seatings (bots rotating over seats); overrides ``rules`` and ``bots``.
    max_deals : int
        Safety bound on deals per game.
    scheduler : str, optional
        Run the chunks as Dask tasks (see :func:`canasta_sim.simulate`).

    Returns
    -------
    GamesResult

    Raises
    ------
    ValueError
        For a bad count, seed, rules or bot spec.
    """
    games = check_count("games", games)
    seed = check_count("seed", seed, 0, 2**64 - 1)
    if table is None:
        rules = resolve_rules(rules)
        table = Table(rules, (tuple(side_bots(bots, rules.sides)),))
    chunk = check_count("chunk_size", chunk_size or min(games, 10_000))
    if scheduler is None:
        load_kernels(table, progress)
    start = time.perf_counter()
    args = [(table, seed, f, min(chunk, games - f), max_deals) for f in range(0, games, chunk)]
    parts = []
    with _game_results(args, workers, scheduler) as (results, how):
        with _progress(games, progress, "game") as bar:
            for a, part in zip(args, results):
                parts.append(part)
                bar.update(a[3])
    manifest = make_manifest(table, seed, games, time.perf_counter() - start, how, chunk, True)
    manifest["games"] = manifest.pop("deals")
    manifest.pop("deals_per_second")
    games_, deals_, sides_ = (pd.concat([p[i] for p in parts], ignore_index=True) for i in range(3))
    return GamesResult(games_, deals_, sides_, manifest)
