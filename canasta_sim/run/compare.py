"""Comparing bots honestly: seat rotation on shared boards, and parameter sweeps.

Bots rotate over the sides so each plays every seat equally often, and the rotations of one
board share their cards (duplicate play, see :func:`canasta_sim.run.seating.play_rows`). Each
chunk of boards is reduced to exactly mergeable sums where it is played; the sums, their
paired intervals and the tables are :mod:`canasta_sim.results.paired`'s.
"""

from __future__ import annotations

import math
import numbers
import sys
import time
from contextlib import nullcontext

import numpy as np
import pandas as pd

from ..errors import BadArgument
from ..game.notation import check_int
from ..players.specs import Bot, parse_bot, seat_bots, spec_params
from ..results.paired import PairSums, comparison_table
from ..results.records import sides_frame
from ..results.run_folder import writing
from .games import MAX_DEALS, play_game_chunk
from .outdir import (
    RecordFiles,
    commit_out,
    json_text,
    make_manifest,
    prepare_out,
    staging_folder,
    write_text,
)
from .runner import DEFAULT_CHUNK, MAX_CHUNK, check_run, chunk_starts, record_bytes, run_chunks
from .seating import Table, load_kernels, play_rows, resolve_rules

MAX_SWEEP_VALUES = 100


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


# --- chunk functions (module level: Dask sends them to workers by name) --------------------
def compare_deal_chunk(table: Table, seed: int, first: int, n: int, records: bool):
    """Play deals ``first .. first + n - 1`` of a rotated comparison (whole boards); returns
    ``(PairSums, side rows with bot_a_side or None)``."""
    seeds, seatings, deal_rows, side_rows = play_rows(table, seed, first, n)
    scores = side_rows["score"].astype(np.int64)
    sums = PairSums.from_scores(scores, _winners(scores), first)
    if not records:
        return sums, None
    raw = sides_frame(first, seeds, side_rows, list(table.bot_specs), table.bot_codes[seatings])
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
    until: str | float | None = None,
    block: int | None = None,
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
        (``deals.parquet`` or ``games.parquet``, written chunk by chunk): one row per deal
        (game) and side, naming its bot, unlike a ``simulate`` folder's ``deals.parquet``.
    until : "decided" or float, optional
        Stop early: play blocks of ``block`` deals (games) and stop after the first block
        whose always-valid 95% interval of the difference
        (:func:`~canasta_sim.results.intervals.sequence_interval`, narrowest at the most
        boards) excludes 0 (``"decided"``) or is at most this many points either side;
        ``deals`` (``games``) is then the most to play. The table's difference interval is
        that always-valid one, and the manifest's ``until`` says why the run stopped (its
        ``rule``: ``"decided"`` or the width as a number). A string is read in any case,
        spaces around it ignored (``" Decided"``, ``"16"``). With ``progress``, each look
        prints the deals (games) played and the interval on stderr (:func:`look_line`).
    block : int, optional
        Deals (games) between two looks (default :data:`DEFAULT_BLOCK`), rounded up to
        whole boards; only with ``until``.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame or None)
        The comparison table (:func:`~canasta_sim.results.paired.comparison_table`) and the
        raw rows (per-deal side rows, or per-game rows) with a ``bot_a_side`` column: held in
        memory without ``out``, ``None`` with ``out`` (they are in the folder) or
        ``records=False``.
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
        until=until,
        block=block,
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
    until=None,
    block=None,
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
    _check_boards(unit, count, sides)
    default = table.default_chunk(DEFAULT_CHUNK if games is None else 10_000, unit[:-1])
    rule, look = _looks(until, block, unit, count, sides)
    chunk = check_int("chunk_size", chunk_size or min(count, look, default), 1, MAX_CHUNK)
    target = prepare_out(out, overwrite) if out is not None else None
    specs = (table.bot_specs[table.bot_codes[0, 0]], table.bot_specs[table.bot_codes[0, 1]])
    fn = compare_deal_chunk if games is None else compare_game_chunk
    with staging_folder(target) if target else nullcontext() as tmp:
        if scheduler is None:
            load_kernels(table, progress)
        start = time.perf_counter()
        sums = PairSums(sides)
        kept: list[pd.DataFrame] = []
        files = RecordFiles(tmp) if tmp is not None and records else None
        stopped: str | None = None
        with files or nullcontext():
            # one look after every block of boards, in deal order: the stop depends only on
            # the boards before it, never on which chunk finished first
            for first, size in chunk_starts(0, count, look, sides):
                chunks = (
                    (n, (table, seed, f, n, records))
                    for f, n in chunk_starts(first, size, chunk, sides)
                )
                runs = {"workers": workers, "scheduler": scheduler, "progress": progress}
                how = _play_block(
                    fn, chunks, size, unit, runs, sums, files, kept if records else None
                )
                stopped = _look(rule, sums, first + size, count, unit, progress)
                if stopped:
                    break
        wall = time.perf_counter() - start
        frame = comparison_table(sums, specs, None if rule is None else count // sides)
        run = {"seed": seed, "deals": sums.n, "wall": wall, "how": how, "chunk": chunk}
        manifest = _comparison_manifest(table, frame, unit, records=records, **run)
        if rule is not None:
            stop = stopped or f"the most {unit}"
            manifest["until"] = {"rule": rule, "most": count, "block": look, "stopped": stop}
        frame.attrs["manifest"] = manifest
        raw_rows = pd.concat(kept, ignore_index=True) if kept else None
        kept.clear()
        if tmp is not None and target is not None:
            with writing(tmp / "compare.csv"):
                frame.to_csv(tmp / "compare.csv", index=False)
            write_text(tmp / "manifest.json", json_text(manifest))
            commit_out(tmp, target)
    return frame, raw_rows


def _look(rule, sums, played, count, unit, progress) -> str | None:
    """The look after a block of ``played`` of at most ``count`` deals (or games): ``None``
    without ``rule`` (no --until) or while undecided, else why the run stops; its line on
    stderr with ``progress``."""
    if rule is None:
        return None
    interval = sums.diff_sequence(count // sums.sides)
    if progress:
        print(look_line(played, count, unit, interval), file=sys.stderr)
    return until_reached(rule, interval)


def _play_block(fn, chunks, size, unit, run, sums, files, kept) -> str:
    """Play one block of a comparison's chunks: their sums go to ``sums``, their raw rows to
    ``files`` (a :class:`RecordFiles`) or else to the list ``kept`` (``None``: not kept).
    Returns how the chunks ran."""
    with run_chunks(fn, chunks, total=size, unit=unit[:-1], **run) as (results, how):
        for part, raw in results:
            sums += part
            if files is not None:
                files.write(f"{unit}.parquet", raw)
            elif kept is not None:
                kept.append(raw)
    return how


#: Deals (or games) between two looks of ``compare --until``, rounded up to whole boards.
DEFAULT_BLOCK = 1000


def check_until(until: str | None) -> str | float | None:
    """A stopping rule of ``compare --until``: ``"decided"`` (stop when the difference's
    interval excludes 0) or a half-width in points (stop when the interval is at most
    that wide either side); ``None`` for none. Case and spaces around it do not matter.

    Raises
    ------
    BadArgument
        Naming the rule and what is allowed.
    """
    if until is None:
        return None
    text = str(until).strip().lower()
    if text == "decided":
        return text
    try:
        width = float(text)
    except ValueError:
        width = math.nan
    if not width > 0 or math.isinf(width):
        raise BadArgument(
            "until",
            f"until={until!r}: allowed 'decided' (the interval excludes 0) or a half-width "
            f"in points above 0 (16: stop at +-16 or narrower)",
        )
    return width


def look_line(played: int, most: int, unit: str, interval: tuple[float, float, float]) -> str:
    """The progress line of one look of ``compare --until``: the ``unit`` played of at most
    ``most`` and the difference's always-valid ``interval`` (mean, low, high; points)."""
    mean, low, high = interval
    if math.isnan(low):
        return f"{played:,} of at most {most:,} {unit}: difference {mean:+.1f}, no interval yet"
    return (
        f"{played:,} of at most {most:,} {unit}: difference {mean:+.1f} "
        f"[{low:+.1f}, {high:+.1f}] (+-{(high - low) / 2:.1f})"
    )


def until_reached(rule: str | float, interval: tuple[float, float, float]) -> str | None:
    """Why a comparison may stop with its always-valid ``interval`` (mean, low, high), or
    ``None``: ``"decided"`` when it excludes 0, ``"width"`` when it is at most ``rule``
    points either side."""
    _, low, high = interval
    if math.isnan(low):
        return None
    if rule == "decided":
        return "decided" if low > 0 or high < 0 else None
    return "width" if (high - low) / 2 <= float(rule) else None


def _looks(until, block, unit: str, count: int, sides: int) -> tuple[str | float | None, int]:
    """The stopping rule (:func:`check_until`) and the deals (games) between two looks,
    rounded up to whole boards (all ``count`` without a rule)."""
    rule = check_until(until)
    if rule is None:
        if block is not None:
            raise BadArgument(
                "block",
                f"block={block}: allowed only with until (a block is the {unit} between two looks)",
            )
        return rule, count
    n = check_int("block", DEFAULT_BLOCK if block is None else block, 1, MAX_CHUNK)
    return rule, -(-n // sides) * sides


def _json_float(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def _check_boards(unit: str, count: int, sides: int) -> None:
    """A comparison plays whole boards: ``count`` deals or games, a multiple of the sides."""
    if count % sides:
        raise BadArgument(
            unit,
            f"{unit}={count} is not a multiple of the {sides} sides: the bots "
            f"rotate over the sides, each {unit[:-1]} one step, so every bot "
            f"plays each side equally often",
        )


def _comparison_manifest(table: Table, frame: pd.DataFrame, unit: str, **run) -> dict:
    """A comparison's manifest: a run's (:func:`~canasta_sim.run.outdir.make_manifest`, no
    first deal: boards start at 0), its count named by ``unit``, and the rotations'
    correlation."""
    manifest = make_manifest(table, first_deal=0, **run)
    manifest.pop("first_deal")
    if unit == "games":
        manifest["games"] = manifest.pop("deals")
        manifest.pop("deals_per_second")
    manifest["rotation_correlation"] = _json_float(frame.attrs["rotation_correlation"])
    return manifest


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
        For a bad spec, an unknown parameter, a value that is not a number or is outside its
        range (the message lists what is allowed), or a ``bot`` spec that sets ``param``
        itself.
    """
    _, given = spec_params(bot)
    param = param.strip()
    if len(values) == 0:
        raise ValueError("values is empty; allowed: one or more values of the parameter")
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise BadArgument(
                "values",
                f"values: {value!r} is not a number; allowed: numbers (values of {param})",
            )
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
        :data:`~canasta_sim.results.paired.COLUMNS` of ``bot``'s row.
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
