"""Game equity: the probability that a side wins the game given both sides' scores before a
deal (R-55), for tables of two sides, so that analysis rollouts can stop at the end of the deal;
and, where the table does not reach (3 players, other rules, other versions), whether a side
wins a game played out (:func:`play_out`).

The table is built once (``scripts/build_game_equity.py``) and ships with the package
(``canasta_sim/data/game_equity.npz``). Its scope, stored in the file and checked on use:

- player counts with two sides: 2, 4 and 6 (3 players have three sides);
- the classic preset as it is (no switches changed);
- the bots the file names (``bots``, a spec: the shipped table is of ``apprentice`` play, the
  strongest bot fast enough to play its deals, issue 26) for every side in every later deal,
  at the file's ``bots_version`` and ``rules_version``; :func:`table_policy` names them, and
  ``analyse`` prints them beside P(win game).

How it is built: a deal's outcome depends on the sides' cumulative scores mostly through their
minimum counts (R-64), so for each pair of minimum counts a few thousand deals are played with
the simulator's kernels (dealers rotating), each side at the lowest score of its minimum-count
band. The bots also read the scores (the expert to go out when that wins the game); the table
does not model that choice (it plays every deal from the band's lowest score).
From every cell of a grid of score pairs (every ``step`` points from ``low`` to just below the
game target) many games are then played on, each deal drawn from the deals of the two sides'
current minimum counts, until R-55 ends the game (:func:`canasta_sim.game.rules.game_over`).
Both sides play the same bots and the dealer is averaged over, so the table is made symmetric:
``P(a, b) + P(b, a) = 1``. Between grid points the table is interpolated bilinearly; scores
below ``low`` read the ``low`` row.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np

from .._version import BOTS_VERSION, RULES_VERSION
from ..game.rules import Rules, game_over

EQUITY_FILE = Path(__file__).parents[1] / "data" / "game_equity.npz"
PLAYERS = (2, 4, 6)
PRESET = "classic"
BOTS = "apprentice"  # the bots a table is built with unless told otherwise: the shipped one's
LOW = -1000  # lowest score of the grid (points)
STEP = 100  # grid spacing (points)


def minimum_levels(rules: Rules) -> list[int]:
    """The distinct minimum counts of R-64 (points), lowest score first."""
    return [rules.negative_minimum] + [m for _, m in rules.minimum_table()]


def level_scores(rules: Rules) -> list[int]:
    """The lowest cumulative score (points) of each band of :func:`minimum_levels`."""
    return [-1] + [t for t, _ in rules.minimum_table()]


def deal_samples(
    rules: Rules, deals: int, seed: int, bots: str = BOTS
) -> dict[tuple[int, int], np.ndarray]:
    """Deal scores of ``bots`` (a spec, every side) for every pair of minimum counts.

    Returns
    -------
    dict
        ``(minimum of side 0, minimum of side 1) -> ndarray(int64, (deals, 2))``: each deal's
        score per side (points, R-50..R-54), dealers rotating over the seats.
    """
    from ..run.games import game_table  # playing: not needed to read the table (analyse)
    from ..run.seating import board_seeds, play_deals

    table = game_table(rules, bots)
    levels = minimum_levels(rules)
    at = level_scores(rules)
    out = {}
    for i, a in enumerate(levels):
        for j, b in enumerate(levels):
            boards = np.arange(deals, dtype=np.int64) + (i * len(levels) + j) * deals
            seeds = board_seeds(seed, boards)
            dealers = (boards % rules.players).astype(np.int32)
            scores = np.tile(np.array([at[i], at[j]], np.int32), (deals, 1))
            _, side_rows = play_deals(table, seeds, dealers, scores, np.zeros(deals, np.int32))
            out[(a, b)] = side_rows["score"].astype(np.int64)
    return out


def build_table(
    players: int, deals: int, games: int, seed: int = 0, bots: str = BOTS
) -> np.ndarray:
    """P(side 0 wins the game | scores before a deal) on the grid (module docstring), every
    later deal played by ``bots``.

    Parameters
    ----------
    players : int
        2, 4 or 6.
    deals : int
        Deals played per pair of minimum counts.
    games : int
        Games played on from each cell of the grid.
    seed : int
    bots : str
        The bot spec of every side (:mod:`canasta_sim.players.specs`), a kernel bot.

    Returns
    -------
    ndarray(float64, (n, n))
        Row: side 0's score ``LOW + STEP * row``; column: side 1's, below the game target.
    """
    from ..run.games import MAX_DEALS
    from ..run.seating import minimum_counts

    rules = Rules.preset(PRESET, players=players)
    samples = deal_samples(rules, deals, seed, bots)
    grid = np.arange(LOW, rules.game_target, STEP)
    n = len(grid)
    start = np.stack(np.meshgrid(grid, grid, indexing="ij"), axis=-1).reshape(-1, 2)
    scores = np.repeat(start, games, axis=0)
    winner = np.full(len(scores), -1, np.int64)
    rng = np.random.default_rng(seed)
    active = np.arange(len(scores))
    for _ in range(MAX_DEALS):
        if active.size == 0:
            break
        mins = minimum_counts(scores[active], rules)
        for (a, b), pool in samples.items():
            rows = active[(mins[:, 0] == a) & (mins[:, 1] == b)]
            scores[rows] += pool[rng.integers(0, len(pool), len(rows))]
        over, win = game_over(scores[active], rules.game_target)
        winner[active[over]] = win[over]
        active = active[~over]
    p = (winner == 0).reshape(n * n, games).mean(axis=1).reshape(n, n)
    return (p + 1.0 - p.T) / 2.0


def save_tables(
    tables: dict[int, np.ndarray], meta: dict, path: Path = EQUITY_FILE, bots: str = BOTS
) -> None:
    """Write the tables (``players -> build_table(...)``, built with ``bots``) and the scope
    to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"p{k}": np.round(v * 65535).astype(np.uint16) for k, v in tables.items()}
    scope = {
        "preset": PRESET,
        "bots": bots,
        "bots_version": BOTS_VERSION,
        "rules_version": RULES_VERSION,
        "low": LOW,
        "step": STEP,
        **meta,
    }
    arrays["scope"] = np.array(json.dumps(scope))
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def _load(path: Path = EQUITY_FILE) -> tuple[dict, dict[int, np.ndarray]]:
    with np.load(path) as data:
        scope = json.loads(str(data["scope"]))
        tables = {int(k[1:]): data[k].astype(np.float64) / 65535 for k in data if k != "scope"}
    return scope, tables


def table_scope() -> dict:
    """The shipped table's scope and build settings (a copy): ``preset``, ``bots``,
    ``bots_version``, ``rules_version``, ``low`` and ``step`` (points), ``deals_per_minimum_pair``,
    ``games_per_cell`` (player count as text -> games per grid cell) and ``seed``."""
    return dict(_load()[0])


def table_policy() -> str:
    """The bots the shipped table was built with (a spec, every side of every later deal)."""
    return _load()[0]["bots"]


def in_scope(rules: Rules) -> bool:
    """Whether the shipped table covers ``rules`` (module docstring): two sides, a player
    count the table has, the classic preset unchanged, and this package's bots and rules
    versions."""
    scope, tables = _load()
    return (
        rules.sides == 2
        and rules.players in tables
        and rules == Rules.preset(scope["preset"], players=rules.players)
        and scope["bots_version"] == BOTS_VERSION
        and scope["rules_version"] == RULES_VERSION
    )


def p_win_game(rules: Rules, own: np.ndarray, other: np.ndarray) -> np.ndarray | None:
    """P(the own side wins the game) after a deal that leaves the cumulative scores ``own`` and
    ``other`` (points, arrays of one shape): 1 or 0 where the deal ends the game (R-55),
    else the table's value at the next deal's scores. ``None`` when the table does not cover
    ``rules`` (:func:`in_scope`).

    Returns
    -------
    ndarray(float64) or None
    """
    if not in_scope(rules):
        return None
    scope, tables = _load()
    table = tables[rules.players]
    own = np.asarray(own, np.int64)
    other = np.asarray(other, np.int64)
    over, win = game_over(np.stack([own, other], axis=-1).reshape(-1, 2), rules.game_target)
    x = (np.clip(own, scope["low"], None).ravel() - scope["low"]) / scope["step"]
    y = (np.clip(other, scope["low"], None).ravel() - scope["low"]) / scope["step"]
    last = table.shape[0] - 1
    x, y = np.minimum(x, last), np.minimum(y, last)
    i, j = np.minimum(x.astype(np.int64), last - 1), np.minimum(y.astype(np.int64), last - 1)
    fx, fy = x - i, y - j
    inside = (
        table[i, j] * (1 - fx) * (1 - fy)
        + table[i + 1, j] * fx * (1 - fy)
        + table[i, j + 1] * (1 - fx) * fy
        + table[i + 1, j + 1] * fx * fy
    )
    return np.where(over, (win == 0).astype(np.float64), inside).reshape(own.shape)


def play_out(
    rules: Rules, bots, scores, masters, dealer: int, threads: int
) -> tuple[np.ndarray, np.ndarray]:
    """The winner of each game after a deal, the games the deal did not end played out.

    A game over by R-55 after the deal (:func:`canasta_sim.game.rules.game_over`: a side at the
    target or above with the highest total alone) is decided; every other game is played
    on by ``bots`` (:func:`canasta_sim.run.games.play_on`), deal ``j`` after this one seeded by
    ``(masters[g], j)``, the first dealt by the seat left of ``dealer`` (R-11), each side's
    minimum count from its new score (R-64), until R-55 ends it.

    Parameters
    ----------
    rules : Rules
    bots : list of Bot
        One per side (:func:`canasta_sim.players.specs.side_bots`), bots of the kernels.
    scores : ndarray(int64, (n, sides))
        Each side's cumulative score after the deal (points).
    masters : ndarray(uint64, (n,))
        Each game's seed.
    dealer : int
        The dealer of the deal just played.
    threads : int
        Threads for the kernels (at most numba's ``NUMBA_NUM_THREADS`` are used); the winners
        do not depend on it.

    Returns
    -------
    winner : ndarray(int64, (n,))
        The winning side, or -1 for a game still open after
        :data:`~canasta_sim.run.games.MAX_DEALS` more deals.
    deals : ndarray(int64, (n,))
        Deals played after this one (0 where the deal ended the game).
    """
    from ..run.games import play_on  # playing: not needed to read the table (analyse)
    from ..run.runner import numba_threads
    from ..run.seating import Table

    scores = np.asarray(scores, np.int64)
    over, winner = game_over(scores, rules.game_target)
    deals = np.zeros(len(scores), np.int64)
    rest = np.nonzero(~over)[0]
    if rest.size:
        table = Table(rules, (tuple(bots),))
        first = np.full(rest.size, (dealer + 1) % rules.players, np.int64)
        with numba_threads(min(threads, numba.config.NUMBA_NUM_THREADS)):
            _, winner[rest], deals[rest] = play_on(
                table, masters[rest], first, scores[rest], np.zeros(rest.size, np.int32)
            )
    return winner, deals
