"""Comparing bots honestly: seat rotation on shared boards, paired intervals, parameter sweeps.

Bots rotate over the sides so each plays every seat equally often, and the rotations of one
board share their cards (duplicate play, see :func:`canasta_sim.run.seating.play_rows`). The
score difference is therefore paired by board: its interval rests on the per-board
differences (the rotations of one shuffle averaged), and the correlation between the
rotations of a board says how much of the luck of the cards the pairing removes (a negative
correlation narrows the interval). Every statistic is a sum, so comparisons stream in constant
memory whatever their length.
"""

from __future__ import annotations

import math
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import BadArgument
from ..game.notation import check_int
from ..players.specs import Bot, parse_bot, seat_bots, spec_params
from ..results.stats import mean_interval, wilson_interval
from ..results.tables import align_columns, interval, number
from .games import MAX_DEALS, play_game_chunk
from .outdir import (
    RecordFiles,
    commit_out,
    json_text,
    make_manifest,
    prepare_out,
    staging_folder,
    write_text,
    writing,
)
from .records import sides_frame
from .runner import DEFAULT_CHUNK, MAX_CHUNK, check_run, chunk_starts, record_bytes, run_chunks
from .seating import Table, load_kernels, play_rows, resolve_rules

MAX_SWEEP_VALUES = 100

COLUMNS = (
    "bot",
    "n",
    "wins",
    "losses",
    "ties",
    "win_rate",
    "win_low",
    "win_high",
    "fair_share",
    "win_rate_per_side",
    "mean_score",
    "score_low",
    "score_high",
    "mean_diff",
    "diff_low",
    "diff_high",
)


def rotations(team_a, team_b, rules) -> tuple[tuple[Bot, ...], ...]:
    """Seatings in which team A takes each side once and team B the others.

    A team is one :class:`Bot` (every player of its side) or one bot per player of a side
    (``players // sides`` bots, in seat order). The rotation moves whole sides: in seating
    ``r`` team A sits on side ``r``, its first player at seat ``r``, its second at seat
    ``r + sides``, and so on, so a side's seats keep their order. Returns per-seat seatings.
    """
    members = rules.players // rules.sides

    def team(t):
        return (t,) * members if isinstance(t, Bot) else tuple(t)

    a, b = team(team_a), team(team_b)
    return tuple(
        tuple((a if s % rules.sides == r else b)[s // rules.sides] for s in range(rules.players))
        for r in range(rules.sides)
    )


def _bot(spec) -> Bot:
    return spec if isinstance(spec, Bot) else parse_bot(spec)


def _named_bot(argument: str, spec) -> Bot:
    """:func:`_bot`, its error naming ``argument``."""
    try:
        return _bot(spec)
    except ValueError as exc:
        raise BadArgument(argument, str(exc)) from None


def seat_teams(seats, rules) -> tuple[tuple[Bot, ...], tuple[Bot, ...]]:
    """Teams A and B of a comparison given by seat: A plays side 0's seats, B side 1's; every
    other side (3 sides) must hold team B.

    Raises
    ------
    ValueError
        For a bad seat list, a side beyond 1 that differs from side 1, or A equal to B.
    """
    seated = seat_bots(seats, rules.players)
    teams = [tuple(seated[side :: rules.sides]) for side in range(rules.sides)]
    for side in range(2, rules.sides):
        if [x.spec for x in teams[side]] != [x.spec for x in teams[1]]:
            raise ValueError(
                f"seats: side {side} holds {'/'.join(x.spec for x in teams[side])}, side 1 "
                f"{'/'.join(x.spec for x in teams[1])}; allowed: team A on side 0 and team B "
                f"on every other side (the comparison rotates them)"
            )
    return teams[0], teams[1]


def rotation_table(bot_a, bot_b, rules, seats=None, scores=None) -> Table:
    """The :class:`~canasta_sim.run.seating.Table` of :func:`rotations` for two bot specs (or
    :class:`Bot`), or for the two teams of ``seats`` (:func:`seat_teams`), and rules.

    Raises
    ------
    ValueError
        For a bad bot spec, seat list or rules, bots given together with ``seats``, or the
        same bot (team) twice.
    """
    rules = resolve_rules(rules)
    if seats is not None:
        if bot_a is not None or bot_b is not None:
            raise ValueError(
                "bot_a/bot_b and seats are both given; allowed: two bots, or seats (team A "
                "on side 0's seats, team B on the others)"
            )
        a, b = seat_teams(seats, rules)
    elif bot_a is None or bot_b is None:
        raise ValueError("compare needs two bots (bot_a and bot_b) or seats")
    else:
        a, b = (_named_bot("bot_a", bot_a),), (_named_bot("bot_b", bot_b),)
    if [x.spec for x in a] == [x.spec for x in b]:
        raise BadArgument(
            "bot_b" if seats is None else "seats",
            f"compare needs two different bots; got {'/'.join(x.spec for x in a)!r} twice",
        )
    if len(a) == 1:  # one bot per side: its spec labels the side
        return Table(rules, rotations(a[0], b[0], rules), scores)
    return Table(rules, rotations(a, b, rules), scores)


@dataclass
class PairSums:
    """Exactly mergeable sums of a rotated comparison of bot A against bot B.

    Per deal (or game) with ``S`` sides, A's score ``a`` and the sum of all sides' scores
    ``t``: the scaled difference ``D = S * a - t`` is ``(S - 1)`` times A's score minus the
    mean of the B sides. A board is the ``R = S`` rotations of one shuffle; rotation ``r`` has
    A on side ``r``.

    Attributes
    ----------
    sides : int
    n : int
        Deals (or games).
    a_wins, b_wins, ties : int
        Sole wins of A's side, of a B side, and ties for the highest score.
    a_sum, a_sumsq : int
        Sum and sum of squares of ``a`` (points).
    b_sum, b_sumsq : int
        The same of ``t - a`` (points; the B sides together).
    d_sum : list of int, (R,)
        Sum of ``D`` per rotation.
    cross : list of list of int, (R, R)
        Sum over boards of ``D_r * D_s``; its diagonal is the sum of squares per rotation.
    """

    sides: int
    n: int = 0
    a_wins: int = 0
    b_wins: int = 0
    ties: int = 0
    a_sum: int = 0
    a_sumsq: int = 0
    b_sum: int = 0
    b_sumsq: int = 0
    d_sum: list[int] = field(default_factory=list)
    cross: list[list[int]] = field(default_factory=list)

    def __post_init__(self):
        r = self.sides
        self.d_sum = self.d_sum or [0] * r
        self.cross = self.cross or [[0] * r for _ in range(r)]

    @classmethod
    def from_scores(cls, scores: np.ndarray, outcome: np.ndarray, first: int) -> PairSums:
        """Sums of whole boards.

        Parameters
        ----------
        scores : ndarray(int64, (n, sides))
            Points of each side per deal (or final game scores); ``n`` a multiple of
            ``sides``, the deals of whole boards in order.
        outcome : ndarray(int64, (n,))
            Winning side per deal or game, -1 for a tie for first place.
        first : int
            Index of the first deal (a multiple of ``sides``): rotation of deal ``k`` is
            ``k % sides``.
        """
        n, sides = scores.shape
        assert n % sides == 0 and first % sides == 0, "sums are of whole boards"
        a_side = np.arange(n, dtype=np.int64) % sides
        a = scores[np.arange(n), a_side]
        t = scores.sum(axis=1)
        b = t - a
        d = (sides * a - t).reshape(-1, sides)  # (boards, R)
        a_win = outcome == a_side
        tie = outcome < 0
        return cls(
            sides,
            n,
            int(a_win.sum()),
            int((~a_win & ~tie).sum()),
            int(tie.sum()),
            int(a.sum()),
            int((a * a).sum()),
            int(b.sum()),
            int((b * b).sum()),
            [int(x) for x in d.sum(axis=0)],
            [[int(x) for x in row] for row in d.T @ d],
        )

    def __iadd__(self, other: PairSums) -> PairSums:
        for name in ("n", "a_wins", "b_wins", "ties", "a_sum", "a_sumsq", "b_sum", "b_sumsq"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        r = self.sides
        self.d_sum = [self.d_sum[i] + other.d_sum[i] for i in range(r)]
        self.cross = [[self.cross[i][j] + other.cross[i][j] for j in range(r)] for i in range(r)]
        return self

    @property
    def boards(self) -> int:
        return self.n // self.sides

    def diff_interval(self) -> tuple[float, float, float]:
        """A's mean score difference (points; its side minus the mean of the B sides) with
        the 95% interval of the per-board differences (the board's rotations averaged)."""
        scale = self.sides * (self.sides - 1)  # R = S rotations, D is (S - 1) x the difference
        board_sum = sum(self.d_sum)
        board_sumsq = sum(sum(row) for row in self.cross)
        m, lo, hi = mean_interval(board_sum, board_sumsq, self.boards)
        return m / scale, lo / scale, hi / scale

    def unpaired_interval(self) -> tuple[float, float, float]:
        """The same mean with the interval that treats every deal as independent (for
        comparison: what the pairing gains)."""
        total = sum(self.d_sum)
        total_sq = sum(self.cross[i][i] for i in range(self.sides))
        m, lo, hi = mean_interval(total, total_sq, self.n)
        return m / (self.sides - 1), lo / (self.sides - 1), hi / (self.sides - 1)

    def rotation_correlation(self) -> float:
        """Pearson correlation of the score difference between two rotations of a board,
        averaged over the pairs of rotations (NaN with fewer than 2 boards or no spread)."""
        m = self.boards
        if m < 2:
            return math.nan
        r = self.sides
        mean = [self.d_sum[i] / m for i in range(r)]
        var = [self.cross[i][i] / m - mean[i] ** 2 for i in range(r)]
        corrs = []
        for i in range(r):
            for j in range(i + 1, r):
                cov = self.cross[i][j] / m - mean[i] * mean[j]
                if var[i] <= 0 or var[j] <= 0:
                    return math.nan
                corrs.append(cov / math.sqrt(var[i] * var[j]))
        return float(np.mean(corrs))


def comparison_table(sums: PairSums, specs: tuple[str, str]) -> pd.DataFrame:
    """Per-bot rows of a rotated comparison.

    Parameters
    ----------
    sums : PairSums
    specs : (str, str)
        Bot specs A and B.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`: wins/losses/ties of each bot (a win by any side the bot
        holds), win rate with its 95% Wilson interval, ``fair_share`` (the share of the sides
        the bot holds: A holds one of ``S``, B the other ``S - 1``; a win rate equal to it is
        even play), ``win_rate_per_side`` (win rate divided by the sides held, comparable
        between the bots), mean score per side with its 95% interval, and the mean score
        difference (this bot's side minus the mean of the other bot's sides) with the 95%
        interval of the per-board differences. ``frame.attrs`` holds
        ``rotation_correlation`` (:meth:`PairSums.rotation_correlation`) and
        ``unpaired_halfwidth`` (the half-width the interval would have without the pairing).
    """
    S, n = sums.sides, sums.n
    dm, dl, dh = sums.diff_interval()
    am, al, ah = mean_interval(sums.a_sum, sums.a_sumsq, n)
    bm, bl, bh = (v / (S - 1) for v in mean_interval(sums.b_sum, sums.b_sumsq, n))
    out = []
    for spec, wins, losses, held, score, diff in (
        (specs[0], sums.a_wins, sums.b_wins, 1, (am, al, ah), (dm, dl, dh)),
        (specs[1], sums.b_wins, sums.a_wins, S - 1, (bm, bl, bh), (-dm, -dh, -dl)),
    ):
        low, high = wilson_interval(wins, n)
        out.append(
            (spec, n, wins, losses, sums.ties, wins / n, low, high, held / S, wins / n / held)
            + tuple(score)
            + tuple(diff)
        )
    frame = pd.DataFrame(out, columns=list(COLUMNS))
    _, ul, uh = sums.unpaired_interval()
    frame.attrs["rotation_correlation"] = sums.rotation_correlation()
    frame.attrs["unpaired_halfwidth"] = (uh - ul) / 2
    return frame


def table_notes(frame: pd.DataFrame) -> list[str]:
    """Lines to print under a comparison table: how the difference interval is paired, and
    with 3 sides, the fair share."""
    n_sides = round(1 / frame["fair_share"].iloc[0])
    corr = frame.attrs.get("rotation_correlation", math.nan)
    half = (frame["diff_high"].iloc[0] - frame["diff_low"].iloc[0]) / 2
    unpaired = frame.attrs.get("unpaired_halfwidth", math.nan)
    per_board = (
        f"difference intervals are per board (the {n_sides} rotations of one shuffle averaged)"
    )
    if math.isnan(half):
        pairing = "one board gives none"
    else:
        pairing = (
            f"rotations correlate at {number(corr, '+.3f')}, so pairing gives +-{half:.4g} "
            f"instead of +-{number(unpaired, '.4g')} points"
        )
    lines = [f"{per_board}; {pairing}"]
    if n_sides > 2:
        b = frame["bot"].iloc[1]
        lines.append(
            f"{b} holds {n_sides - 1} of the {n_sides} sides in every deal: its fair share "
            f"of wins is {frame['fair_share'].iloc[1]:.1%}; the win rate per side compares "
            f"the bots seat for seat"
        )
    return lines


def format_comparison(frame: pd.DataFrame, unit: str = "deals") -> str:
    """A comparison table (:func:`comparison_table`) for people: one aligned row per bot with
    its win rate, mean score and score difference, each with its 95% interval; with 3 sides
    also the fair share and the win rate per side held.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns :data:`COLUMNS`.
    unit : {"deals", "games"}
        What was played: scores are points per deal or final points per game.
    """
    per = unit[:-1]
    three = round(1 / frame["fair_share"].iloc[0]) > 2
    head = [
        "bot",
        unit,
        "wins",
        "losses",
        "ties",
        "win rate [95%]",
        *(["fair share", "win rate per side"] if three else []),
        f"score, points per {per} [95%]",
        f"difference, points per {per} [95%]",
    ]
    rows = [
        [
            r.bot,
            f"{r.n:,}",
            f"{r.wins:,}",
            f"{r.losses:,}",
            f"{r.ties:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
            *([number(r.fair_share, ".1%"), number(r.win_rate_per_side, ".1%")] if three else []),
            interval(r.mean_score, r.score_low, r.score_high, "+,.1f"),
            interval(r.mean_diff, r.diff_low, r.diff_high, "+,.1f"),
        ]
        for r in frame.itertuples()
    ]
    return align_columns([head, *rows])


def comparison_reading(frame: pd.DataFrame, unit: str = "deals") -> str:
    """The one line under a comparison that says how to read it: bot A's points per deal (or
    game) against B and its win rate, and which of the two to trust for what. Points decide
    games, so over deals the score difference says which bot is stronger, while the deal win
    rate counts wins and ignores their margins (a weak bot can win most deals by a little and
    lose the game by a lot); over games the game win rate is the result itself."""
    a, b = frame.iloc[0], frame.iloc[1]
    if a.mean_diff < 0:  # "scores 926.6 [673.6, 1,179.7] points less", not "-926.6 ... more"
        diff = interval(-a.mean_diff, -a.diff_high, -a.diff_low, ",.1f")
        more = "less"
    else:
        diff = interval(a.mean_diff, a.diff_low, a.diff_high, "+,.1f")
        more = "more"
    wins = interval(a.win_rate, a.win_low, a.win_high, ".1%")
    even = f"{a.fair_share:.1%}"
    if unit == "games":
        return (
            f"reading: {a.bot} wins {wins} of games against {b.bot} (even: {even}) and scores "
            f"{diff} points a game {more}: the game win rate is the result that counts, the "
            f"points per game measure the margin"
        )
    ahead_on_points = a.diff_low > 0 or a.diff_high < 0
    ahead_on_wins = a.win_low > a.fair_share or a.win_high < a.fair_share
    disagree = (
        ahead_on_points and ahead_on_wins and (a.mean_diff > 0) != (a.win_rate > a.fair_share)
    )
    return (
        f"reading: {a.bot} scores {diff} points a deal {more} than {b.bot} and wins {wins} of "
        f"deals (even: {even}); trust the points for strength (points decide games), the deal "
        f"win rate ignores the margins"
        + (" (here the two disagree: trust the points)" if disagree else "")
    )


def comparison_settings(frame: pd.DataFrame) -> dict:
    """What a comparison's JSON output says of its run (from its manifest): ``unit``
    (deals or games), ``count``, ``players``, ``seed``, ``bots`` (A, B),
    ``rotation_correlation`` and ``unpaired_halfwidth`` (points)."""
    m = frame.attrs["manifest"]
    unit = "games" if "games" in m else "deals"
    return {
        "unit": unit,
        "count": m[unit],
        "players": m["rules"]["players"],
        "seed": m["seed"],
        "bots": list(frame["bot"]),
        "rotation_correlation": frame.attrs["rotation_correlation"],
        "unpaired_halfwidth": frame.attrs["unpaired_halfwidth"],
    }


# --- chunk functions (module level: Dask sends them to workers by name) --------------------
def compare_deal_chunk(table: Table, seed: int, first: int, n: int, records: bool):
    """Play deals ``first .. first + n - 1`` of a rotated comparison (whole boards); returns
    ``(PairSums, side rows with bot_a_side or None)``."""
    seeds, seatings, deal_rows, side_rows = play_rows(table, seed, first, n)
    scores = side_rows["score"].astype(np.int64)
    sums = PairSums.from_scores(scores, _winners(scores), first)
    if not records:
        return sums, None
    raw = sides_frame(first, side_rows, list(table.bot_specs), table.bot_codes[seatings])
    raw["bot_a_side"] = np.repeat(seatings, table.rules.sides).astype(np.int8)
    return sums, raw


def compare_game_chunk(table: Table, seed: int, first: int, n: int, records: bool):
    """Play games ``first .. first + n - 1`` of a rotated comparison (whole boards); returns
    ``(PairSums, game rows with bot_a_side or None)``."""
    games, _, _ = play_game_chunk(table, seed, first, n, MAX_DEALS, False)
    sides = table.rules.sides
    scores = games[[f"score_{s}" for s in range(sides)]].to_numpy(np.int64)
    sums = PairSums.from_scores(scores, games["winner"].to_numpy(np.int64), first)
    if not records:
        return sums, None
    games["bot_a_side"] = (games["game"] % sides).astype(np.int8)
    return sums, games


def _winners(scores: np.ndarray) -> np.ndarray:
    best = scores.max(axis=1)
    unique = (scores == best[:, None]).sum(axis=1) == 1
    return np.where(unique, scores.argmax(axis=1), -1)


def compare(
    bot_a=None,
    bot_b=None,
    *,
    seats=None,
    scores=None,
    deals: int | None = None,
    games: int | None = None,
    rules=None,
    seed: int = 0,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    records: bool = True,
    out=None,
    overwrite: bool = False,
    scheduler: str | None = None,
):
    """Compare two bots over ``deals`` deals or ``games`` full games.

    Parameters
    ----------
    bot_a, bot_b : str or Bot
        Bot specs (:mod:`canasta_sim.players.specs`); not with ``seats``.
    seats : str or list of str, optional
        One spec per seat instead of two bots: team A is side 0's seats, team B side 1's
        (with 3 sides, sides 1 and 2 must hold the same team). Partners may differ
        (``["expert", "careful", "careful", "careful"]``: A is expert at its first seat and
        careful at its second, B careful). The rotation moves whole sides; a side's seats
        keep their order (:func:`rotations`).
    scores : list of int, optional
        Each side's cumulative score (points) before every deal or game (default 0):
        minimum counts (R-64) and what the bots read. Scores stay with the sides while the
        bots rotate, so each bot plays from every side's score equally often.
    deals, games : int
        Exactly one of them: independent deals, or games to the target score (R-55; dealer
        rotates, minimum counts follow each side's score). A multiple of the sides.
    rules, seed, workers, progress, overwrite, scheduler
        As for :func:`canasta_sim.simulate`.
    chunk_size : int, optional
        Deals (or games) per chunk, rounded up to whole boards; results do not depend on it.
    records : bool
        Keep the raw rows; ``False`` keeps only the sums the table needs (constant memory).
    out : path, optional
        Results folder: ``compare.csv``, ``manifest.json`` and with records the raw rows
        (``deals.parquet`` or ``games.parquet``, written chunk by chunk).

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame or None)
        The comparison table (:func:`comparison_table`) and the raw rows (per-deal side rows,
        or per-game rows) with a ``bot_a_side`` column: held in memory without ``out``,
        ``None`` with ``out`` (they are in the folder) or ``records=False``.
        ``table.attrs["manifest"]`` is the run's manifest (as :func:`canasta_sim.simulate`
        makes it: seed, rules, the seatings of the two bots, versions, wall seconds).

    Raises
    ------
    ValueError
        For bad bots, counts or rules, a count that is not a multiple of the sides, unless
        exactly one of ``deals`` and ``games`` is set, an ``out`` that cannot be written, or
        raw rows that cannot fit in memory.
    """
    if (deals is None) == (games is None):
        raise ValueError("give exactly one of deals and games")
    table = rotation_table(bot_a, bot_b, rules, seats, scores)
    return _compare(
        table,
        deals=deals,
        games=games,
        seed=seed,
        workers=workers,
        chunk_size=chunk_size,
        progress=progress,
        records=records,
        out=out,
        overwrite=overwrite,
        scheduler=scheduler,
    )


def _compare(
    table: Table,
    *,
    deals,
    games,
    seed,
    workers,
    chunk_size,
    progress,
    records,
    out,
    overwrite,
    scheduler,
):
    """:func:`compare` for a rotation table (whose two bots may be the same, in a sweep)."""
    sides = table.rules.sides
    unit = "deals" if games is None else "games"
    count, seed = check_run(
        table,
        unit,
        deals if games is None else games,
        seed,
        scheduler=scheduler,
        records=records,
        out=out,
        per_item=record_bytes(sides),
        progress=progress,
        overwrite=overwrite,
    )
    if count % sides:
        raise BadArgument(
            unit,
            f"{unit}={count} is not a multiple of the {sides} sides: the bots "
            f"rotate over the sides, each {unit[:-1]} one step, so every bot "
            f"plays each side equally often",
        )
    default = table.default_chunk(DEFAULT_CHUNK if games is None else 10_000, unit[:-1])
    chunk = check_int("chunk_size", chunk_size or min(count, default), 1, MAX_CHUNK)
    target = prepare_out(out, overwrite) if out is not None else None
    specs = (table.bot_specs[table.bot_codes[0, 0]], table.bot_specs[table.bot_codes[0, 1]])
    fn = compare_deal_chunk if games is None else compare_game_chunk
    with staging_folder(target) if target else nullcontext() as tmp:
        if scheduler is None:
            load_kernels(table, progress)
        start = time.perf_counter()
        sums = PairSums(sides)
        kept = []
        starts = chunk_starts(0, count, chunk, sides)
        chunks = ((n, (table, seed, f, n, records)) for f, n in starts)
        files = RecordFiles(tmp) if tmp is not None and records else None
        with (
            files or nullcontext(),
            run_chunks(
                fn,
                chunks,
                total=count,
                unit=unit[:-1],
                workers=workers,
                scheduler=scheduler,
                progress=progress,
            ) as (results, how),
        ):
            for part, raw in results:
                sums += part
                if files is not None:
                    files.write(f"{unit}.parquet", raw)
                elif records:
                    kept.append(raw)
        wall = time.perf_counter() - start
        frame = comparison_table(sums, specs)
        manifest = make_manifest(
            table,
            seed=seed,
            first_deal=0,
            deals=count,
            wall=wall,
            how=how,
            chunk=chunk,
            records=records,
        )
        manifest.pop("first_deal")
        if games is not None:
            manifest["games"] = manifest.pop("deals")
            manifest.pop("deals_per_second")
        manifest["rotation_correlation"] = _json_float(frame.attrs["rotation_correlation"])
        frame.attrs["manifest"] = manifest
        raw_rows = pd.concat(kept, ignore_index=True) if kept else None
        kept.clear()
        if tmp is not None and target is not None:
            with writing(tmp / "compare.csv"):
                frame.to_csv(tmp / "compare.csv", index=False)
            write_text(tmp / "manifest.json", json_text(manifest))
            commit_out(tmp, target)
    return frame, raw_rows


def _json_float(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


# --- sweeps ---------------------------------------------------------------------------------
def parse_range(text: str) -> list[float]:
    """``"2:12:2"`` -> [2, 4, ..., 12] (STOP included); ``"1,3,8"`` -> [1, 3, 8]. Values are
    rounded to 10 decimals (``0.1:0.5:0.1`` gives 0.3, not 0.30000000000000004); spaces
    around values are ignored.

    Raises
    ------
    ValueError
        Naming what is wrong: not a number, not finite, a range without three parts, a zero
        step or one that leads away from STOP, more than :data:`MAX_SWEEP_VALUES` values, or
        values equal after rounding.
    """
    form = f"{text!r} is not a range START:STOP:STEP or a list A,B,C"
    parts = [p.strip() for p in text.strip().split(":" if ":" in text else ",")]
    numbers = []
    for p in parts:
        try:
            numbers.append(float(p))
        except ValueError:
            raise ValueError(f"{form}: {p!r} is not a number") from None
    if not all(np.isfinite(numbers)):
        raise ValueError(f"{form}: every value must be finite")
    if ":" in text:
        if len(numbers) != 3:
            raise ValueError(f"{form}: a range has 3 parts, this one {len(numbers)}")
        start, stop, step = numbers
        if step == 0:
            raise ValueError(f"{form}: STEP is 0")
        if (stop - start) * step < 0:
            raise ValueError(
                f"{form}: STEP {step:g} leads away from STOP {stop:g} "
                f"(START {start:g}); allowed: a STEP of the sign of STOP - START"
            )
        count = int(np.floor((stop - start) / step + 1e-9)) + 1
        if count > MAX_SWEEP_VALUES:
            raise ValueError(f"{form}: {count} values, more than {MAX_SWEEP_VALUES}")
        values = [start + i * step for i in range(count)]
    else:
        values = numbers
        if len(values) > MAX_SWEEP_VALUES:
            raise ValueError(f"{form}: {len(values)} values, more than {MAX_SWEEP_VALUES}")
    values = [round(v, 10) for v in values]
    if len(set(values)) < len(values):
        raise ValueError(f"{text!r} repeats a value (to 10 decimals); give each value once")
    return values


def sweep_specs(bot: str, param: str, values) -> list[str]:
    """The canonical spec of ``bot`` with ``param`` set to each of ``values``.

    Raises
    ------
    ValueError
        For a bad spec, an unknown parameter, a value outside its range (the message lists
        what is allowed), or a ``bot`` spec that sets ``param`` itself.
    """
    _, given = spec_params(bot)
    param = param.strip()
    if len(values) == 0:
        raise ValueError("values is empty; allowed: one or more values of the parameter")
    if param in given:
        raise ValueError(
            f"the swept parameter {param} is also set in the bot spec {bot!r}; "
            f"allowed: a spec without {param} (the sweep sets it)"
        )
    joiner = "," if ":" in bot else ":"
    return [parse_bot(f"{bot.strip()}{joiner}{param}={value:g}").spec for value in values]


def sweep(
    bot: str,
    param: str,
    values,
    vs: str,
    *,
    deals: int,
    rules=None,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Compare ``bot`` with ``param`` set to each of ``values`` against ``vs`` (constant
    memory: each comparison keeps only its sums).

    Parameters
    ----------
    bot : str
        The swept bot's spec (:mod:`canasta_sim.players.specs`), without ``param``.
    param : str
        The parameter to sweep (docs/bots.md lists each bot's parameters and their ranges).
    values : sequence of float
        The parameter's values, one comparison each, in this order.
    vs : str
        The opponent's spec.
    deals : int
        Deals per comparison (per value), as for :func:`compare`.
    rules, seed, workers, progress, scheduler
        As for :func:`canasta_sim.simulate`; every comparison plays the same deals (``seed``).

    Returns
    -------
    pandas.DataFrame
        One row per value: ``param``, ``value``, ``baseline`` (True where the swept bot
        plays as the opponent at the table's player count, :meth:`Bot.plays_as`: the row
        shows the comparison's own noise, a mean difference of 0 up to its interval) and the
        :data:`COLUMNS` of ``bot``'s row.
        ``frame.attrs["manifest"]`` is the sweep's manifest: that of the first comparison
        (seed, rules, deals per value, versions) with ``bots`` listing every comparison's
        seatings, the whole sweep's wall seconds, and ``sweep`` (bot, param, values, vs).

    Raises
    ------
    ValueError
        As :func:`sweep_specs`, and for a bad opponent, count, rules or scheduler.
    """
    start = time.perf_counter()
    rules = resolve_rules(rules)
    opponent = parse_bot(vs)
    rows, manifests = [], []
    for value, spec in zip(values, sweep_specs(bot, param, values)):
        swept = parse_bot(spec)
        table = Table(rules, rotations(swept, opponent, rules))
        frame, _ = _compare(
            table,
            deals=deals,
            games=None,
            seed=seed,
            workers=workers,
            chunk_size=None,
            progress=progress,
            records=False,
            out=None,
            overwrite=False,
            scheduler=scheduler,
        )
        row = frame.iloc[0].to_dict()
        baseline = swept.plays_as(opponent, rules.players)
        rows.append({"param": param.strip(), "value": value, "baseline": baseline})
        rows[-1].update(row)
        manifests.append(frame.attrs["manifest"])
    frame = pd.DataFrame(rows)
    wall = time.perf_counter() - start
    frame.attrs["manifest"] = {
        **manifests[0],
        "bots": [m["bots"] for m in manifests],
        "rotation_correlation": [m["rotation_correlation"] for m in manifests],
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(deals * len(rows) / wall, 1) if wall > 0 else None,
        "sweep": {
            "bot": bot,
            "param": param.strip(),
            "values": [float(v) for v in values],
            "vs": opponent.spec,
        },
    }
    return frame


def sweep_title(frame: pd.DataFrame) -> str:
    """The line above a sweep's table: what was swept against whom, deals, players, seed."""
    m = frame.attrs["manifest"]
    s = m["sweep"]
    return (
        f"sweep of {s['param']} for {s['bot']} against {s['vs']}: {m['deals']:,} deals per "
        f"value, {m['rules']['players']} players, seed {m['seed']}"
    )


def format_sweep(frame: pd.DataFrame) -> str:
    """A sweep (:func:`sweep`) for people: one aligned row per value of the parameter (the
    baseline, if any, marked), with the swept bot's win rate, mean score and score difference
    against the opponent per deal, each with its 95% interval."""
    marked = bool(frame["baseline"].any())
    head = [
        frame["param"].iloc[0],
        *(["baseline"] if marked else []),
        "deals",
        "win rate [95%]",
        "score, points per deal [95%]",
        "difference, points per deal [95%]",
    ]
    rows = [
        [
            f"{r.value:g}",
            *(["yes" if r.baseline else ""] if marked else []),
            f"{r.n:,}",
            interval(r.win_rate, r.win_low, r.win_high, ".1%"),
            interval(r.mean_score, r.score_low, r.score_high, "+,.1f"),
            interval(r.mean_diff, r.diff_low, r.diff_high, "+,.1f"),
        ]
        for r in frame.itertuples()
    ]
    return align_columns([head, *rows], left=2 if marked else 1)


def sweep_settings(frame: pd.DataFrame) -> dict:
    """What a sweep's JSON output says of its run: ``bot``, ``param``, ``vs``, ``deals`` (per
    value), ``players`` and ``seed``."""
    m = frame.attrs["manifest"]
    s = m["sweep"]
    return {
        "bot": s["bot"],
        "param": s["param"],
        "vs": s["vs"],
        "deals": m["deals"],
        "players": m["rules"]["players"],
        "seed": m["seed"],
    }


def plot_sweep(frame: pd.DataFrame, path: Path) -> None:
    """PNG of the mean score difference (with its 95% interval) against the parameter."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.0))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    x = frame["value"].to_numpy()
    y = frame["mean_diff"].to_numpy()
    err = np.vstack([y - frame["diff_low"].to_numpy(), frame["diff_high"].to_numpy() - y])
    ax.errorbar(x, y, yerr=err, marker="o", capsize=4)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(frame["param"].iloc[0])
    ax.set_ylabel("mean score difference per deal (points)")
    s = frame.attrs["manifest"]["sweep"]
    ax.set_title(f"{s['bot']} vs {s['vs']}: 95% intervals per board")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
