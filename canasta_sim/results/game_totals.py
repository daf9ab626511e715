"""Results over full games: the exactly mergeable totals of a set of games
(:class:`GameTotals`) and each side's table of wins and final scores (:func:`game_sides`).

:func:`canasta_sim.play_games` plays the games and keeps these totals (with or without
records); the tables here read only them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .intervals import mean_interval, wilson_interval
from .tables import align_columns, interval


@dataclass
class GameTotals:
    """Exactly mergeable totals of a set of games (what :func:`canasta_sim.play_games` keeps
    without records).

    Attributes
    ----------
    games : int
        Games played.
    deals : int
        Deals played in them.
    wins : list of int
        Games won per side.
    unfinished : int
        Games that reached ``MAX_DEALS`` without a winner.
    score_sum : list of int
        Sum of each side's final score (points).
    score_sumsq : list of int
        Sum of the squares of each side's final score (points squared; for the interval of
        the mean).
    """

    games: int
    deals: int
    wins: list[int]
    unfinished: int
    score_sum: list[int]
    score_sumsq: list[int]

    @classmethod
    def empty(cls, sides: int) -> GameTotals:
        return cls(0, 0, [0] * sides, 0, [0] * sides, [0] * sides)

    @classmethod
    def from_frame(cls, games: pd.DataFrame, sides: int) -> GameTotals:
        """Totals of a ``games`` frame (see :class:`canasta_sim.run.games.GamesResult`)."""
        winner = games["winner"].to_numpy()
        return cls(
            len(games),
            int(games["deals"].astype(np.int64).sum()),
            [int((winner == s).sum()) for s in range(sides)],
            int((winner < 0).sum()),
            [int(games[f"score_{s}"].astype(np.int64).sum()) for s in range(sides)],
            [int((games[f"score_{s}"].astype(np.int64) ** 2).sum()) for s in range(sides)],
        )

    def __iadd__(self, other: GameTotals) -> GameTotals:
        self.games += other.games
        self.deals += other.deals
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.unfinished += other.unfinished
        self.score_sum = [a + b for a, b in zip(self.score_sum, other.score_sum)]
        self.score_sumsq = [a + b for a, b in zip(self.score_sumsq, other.score_sumsq)]
        return self


def game_sides(totals: GameTotals, bots, scores) -> pd.DataFrame:
    """Each side's results over games (:class:`GameTotals`).

    Parameters
    ----------
    totals : GameTotals
    bots : list of str
        One bot spec per side.
    scores : list of int
        Each side's cumulative score when the games start (points; ``games --scores``).

    Returns
    -------
    pandas.DataFrame
        One row per side: ``side``, ``bot``, ``start_score`` (points), ``games``, ``wins``,
        ``win_rate`` with its 95% Wilson interval ``win_low``/``win_high``, and
        ``mean_final_score`` with its 95% interval ``score_low``/``score_high`` (points).
    """
    rows = []
    for side, (bot, start) in enumerate(zip(bots, scores, strict=True)):
        wins = totals.wins[side]
        low, high = wilson_interval(wins, totals.games)
        mean, s_low, s_high = mean_interval(
            totals.score_sum[side], totals.score_sumsq[side], totals.games
        )
        rows.append(
            {
                "side": side,
                "bot": bot,
                "start_score": start,
                "games": totals.games,
                "wins": wins,
                "win_rate": wins / totals.games,
                "win_low": low,
                "win_high": high,
                "mean_final_score": mean,
                "score_low": s_low,
                "score_high": s_high,
            }
        )
    return pd.DataFrame(rows)


def format_game_sides(frame: pd.DataFrame) -> str:
    """A games side table (:func:`game_sides`) for people: per side its bot, its start score
    when some side starts from a score other than 0, wins, game win rate and mean final
    score, each with its 95% interval."""
    started = bool(frame["start_score"].any())
    head = [
        "side",
        "bot",
        *(["start score"] * started),
        "wins",
        "game win rate [95%]",
        "mean final score, points [95%]",
    ]
    rows = [
        [
            str(r.side),
            r.bot,
            *([f"{r.start_score:,}"] * started),
            f"{r.wins:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
            interval(r.mean_final_score, r.score_low, r.score_high, ",.1f"),
        ]
        for r in frame.itertuples()
    ]
    return align_columns([head, *rows], left=2)
