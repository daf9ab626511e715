"""Aggregates of a run: counts, sums and histograms that merge exactly across chunks.

A run with ``records=False`` keeps only these, so a billion-deal run needs no billion-row
frame; every statistic of :mod:`canasta_sim.results.stats` and every figure of the report is
computed from them. All arrays are ``int64``; merging two aggregates is adding them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from math import prod
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..nb.chunk_counts import COUNT_COLS, COUNT_KEYS, COUNTS, CountCol, add_chunk_nb
from .records import CANASTA_TIMING, END_REASONS, PICKUP_SIZE_FIELDS, deals_frame, sides_frame

SCORE_OFFSET = 32765  # score histogram range: -32765 .. 32765 points; beyond it, the edge
# bins (only reachable with extreme custom bonuses; means and sums stay exact)
SCORE_STEP = 5  # every score is a multiple of 5 points
SCORE_BINS = 2 * SCORE_OFFSET // SCORE_STEP + 1
MAX_COUNT = 16  # histogram length for per-side counts (canastas, melds, red threes)
N_RANKS = 11  # ranks 4 .. A
OUTCOMES = ("win", "tie", "loss")
RED_CELLS = 7  # red threes dealt to a side, and to the other sides together: 0 .. 6 (162 cards)
TIMED_CANASTAS = len(CANASTA_TIMING)  # the 1st, 2nd and 3rd canasta of a side are timed
#: Side fields summed per kind of pickup (columns of ``pickups_sum``), in this order.
PICKUP_KINDS = ("pickups", "pickups_pair", "pickups_wild", "pickups_onto_meld")


def count_shapes(sides: int, max_turns: int, n_bots: int) -> dict[str, tuple[int, ...]]:
    """The shape of every count of a run's aggregates (:attr:`Aggregates.counts`), in the
    order of :data:`canasta_sim.nb.chunk_counts.COUNTS`, which names each count's axes and
    says what it holds."""
    length = {
        "one": 1,
        "sides": sides,
        "bots": n_bots,
        "turns": max_turns + 2,
        "count": MAX_COUNT,
        "upcard": 2 * MAX_COUNT,
        "end_reasons": len(END_REASONS),
        "ranks": N_RANKS,
        "score": SCORE_BINS,
        "outcomes": len(OUTCOMES),
        "canasta": TIMED_CANASTAS,
        "mixed": 2,
        "red_cells": RED_CELLS,
        "pickup_kinds": len(PICKUP_KINDS),
        "pickup_sizes": len(PICKUP_SIZE_FIELDS),
    }
    return {key: tuple(length[axis] for axis in axes) for key, axes in COUNTS.items()}


@dataclass(frozen=True)
class CountLayout:
    """Where each count of a run's aggregates lies in one flat ``int64`` array: the counts
    one after another in :data:`~canasta_sim.nb.chunk_counts.COUNT_KEYS` order, each row-major.

    Attributes
    ----------
    shapes : dict of str -> tuple of int
        :func:`count_shapes`.
    table : ndarray(int64, (COUNT_COLS, len(COUNT_KEYS)))
        Per count (column) its start, elements per index of its first axis and length of its
        last axis (rows :data:`~canasta_sim.nb.chunk_counts.CountCol`): the aggregation kernel's
        layout.
    size : int
        Elements of the flat array.
    """

    shapes: dict[str, tuple[int, ...]]
    table: np.ndarray
    size: int


def count_layout(sides: int, max_turns: int, n_bots: int) -> CountLayout:
    """The :class:`CountLayout` of a run's shape."""
    shapes = count_shapes(sides, max_turns, n_bots)
    table = np.zeros((COUNT_COLS, len(COUNT_KEYS)), np.int64)
    start = 0
    for k, key in enumerate(COUNT_KEYS):
        shape = shapes[key]
        table[CountCol.start, k] = start
        table[CountCol.row, k] = prod(shape[1:])
        table[CountCol.bins, k] = shape[-1]
        start += prod(shape)
    return CountLayout(shapes, table, start)


def count_views(flat: np.ndarray, layout: CountLayout) -> dict[str, np.ndarray]:
    """Each count of ``flat`` (``ndarray(int64, (layout.size,))``) as a view of its shape,
    by name."""
    views = {}
    for key, start in zip(COUNT_KEYS, layout.table[CountCol.start]):
        shape = layout.shapes[key]
        views[key] = flat[start : start + prod(shape)].reshape(shape)
    return views


@dataclass
class Aggregates:
    """Exactly mergeable statistics of a run.

    Attributes
    ----------
    players, sides, max_turns : int
        Shape parameters (histogram lengths follow from them).
    bots : list of str
        Bot specs of the run; ``bot_*`` arrays are indexed by position in this list.
    counts : dict of str -> ndarray(int64)
        Every key of :data:`canasta_sim.nb.chunk_counts.COUNTS` (what it holds), shaped by
        :func:`count_shapes`.
    """

    players: int
    sides: int
    max_turns: int
    bots: list[str]
    counts: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int, sides: int, max_turns: int, bots: list[str]) -> Aggregates:
        """All-zero aggregates for a run's shape: :func:`count_shapes` gives every key's
        shape (:data:`canasta_sim.nb.chunk_counts.COUNTS` its meaning); the arrays are views
        into one flat array (:func:`count_layout`)."""
        layout = count_layout(sides, max_turns, len(bots))
        return cls(
            players,
            sides,
            max_turns,
            list(bots),
            count_views(np.zeros(layout.size, np.int64), layout),
        )

    @classmethod
    def from_rows(
        cls,
        rules: Rules,
        bots: list[str],
        deal_rows: np.ndarray,
        side_rows: np.ndarray,
        bot_codes: np.ndarray,
    ) -> Aggregates:
        """Aggregate one chunk from the kernel's record rows (no frames are built).

        Parameters
        ----------
        rules : Rules
            The run's rules (players, sides, max_turns set the histograms' lengths).
        bots : list of str
            Bot specs of the run (``bot_codes`` index it).
        deal_rows : ndarray(deal_dtype, (n,))
        side_rows : ndarray(side_dtype, (n, sides))
        bot_codes : ndarray(int8, (n, sides))
            Each deal's bot per side, as an index into ``bots``.

        Raises
        ------
        ValueError
            If a bot code is not an index into ``bots`` (the kernel writes at that index).
        """
        codes = np.ascontiguousarray(bot_codes, np.int64)
        if codes.size and not 0 <= codes.min() <= codes.max() < len(bots):
            raise ValueError(
                f"bot_codes from {codes.min()} to {codes.max()}; allowed: 0 to {len(bots) - 1} "
                f"(indices into bots)"
            )
        layout = count_layout(rules.sides, rules.max_turns, len(bots))
        flat = np.zeros(layout.size, np.int64)
        add_chunk_nb(
            flat,
            layout.table,
            deal_rows,
            side_rows,
            codes,
            np.int64(rules.players),
            np.int64(SCORE_OFFSET),
            np.int64(SCORE_STEP),
        )
        agg = cls(
            rules.players, rules.sides, rules.max_turns, list(bots), count_views(flat, layout)
        )
        return agg

    def __iadd__(self, other: Aggregates) -> Aggregates:
        """Merge ``other`` into this aggregate (exact: integer addition)."""
        if (self.players, self.sides, self.max_turns, self.bots) != (
            other.players,
            other.sides,
            other.max_turns,
            other.bots,
        ):
            raise ValueError("cannot merge aggregates of runs with different shapes or bots")
        for key, value in other.counts.items():
            self.counts[key] += value
        return self

    @property
    def n_deals(self) -> int:
        return int(self.counts["deals"][0])

    def to_json(self) -> str:
        """Serialise (histograms trimmed of trailing zeros are not needed: sizes are small)."""
        return json.dumps(
            {
                "players": self.players,
                "sides": self.sides,
                "max_turns": self.max_turns,
                "bots": self.bots,
                "counts": {k: v.tolist() for k, v in self.counts.items()},
            }
        )

    @classmethod
    def read(cls, path, deals: int | None = None) -> Aggregates:
        """The aggregates of an ``aggregates.json`` file.

        Parameters
        ----------
        path : str or Path
        deals : int, optional
            The deals its run played (the manifest's ``deals``); the file's ``deals`` count
            must equal it.

        Raises
        ------
        ValueError
            Naming the file when it is missing, not valid JSON or not aggregates (a truncated
            or hand-edited file: ``deals`` missing, a count unknown, of another size or
            negative where only a sum may be), or counts other than ``deals`` deals.
        """
        try:
            agg = cls.from_json(Path(path).read_text())
        except FileNotFoundError:
            raise ValueError(f"{str(path)!r} is missing") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(
                f"{str(path)!r} is not readable aggregates ({type(exc).__name__}: {exc}); "
                f"allowed: the aggregates.json a run wrote"
            ) from None
        if deals is not None and agg.n_deals != deals:
            raise ValueError(
                f"{str(path)!r} counts {agg.n_deals} deals where its run's manifest.json says "
                f"{deals}; allowed: the aggregates.json the run wrote"
            )
        return agg

    @classmethod
    def from_json(cls, text: str) -> Aggregates:
        """The aggregates of :meth:`to_json`'s text (a count absent, as in runs of older
        versions, stays zero); raises ``ValueError`` for a missing ``deals`` count or a count
        negative where only a sum (``*_sum``, ``*_cross``) may be, ``KeyError`` for an unknown
        count."""
        d = json.loads(text)
        agg = cls.empty(d["players"], d["sides"], d["max_turns"], d["bots"])
        if "deals" not in d["counts"]:  # other counts may be absent: runs of older versions
            raise ValueError("the count 'deals' is missing")
        for k, v in d["counts"].items():
            agg.counts[k] = np.asarray(v, np.int64).reshape(agg.counts[k].shape)
            if not k.endswith(("_sum", "_cross")) and (agg.counts[k] < 0).any():
                raise ValueError(f"count {k!r} is negative; allowed: 0 or more")
        return agg


def chunk_outputs(table, first_deal: int, seeds, seatings, deal_rows, side_rows, records: bool):
    """What a run keeps of one chunk: ``(deals, sides, aggregates)``, the frames ``None``
    unless ``records`` (the aggregates never need them, :meth:`Aggregates.from_rows`).

    Parameters
    ----------
    table : canasta_sim.run.seating.Table
        Rules and seatings of the run (its side labels are the aggregates' bots and the
        frames' ``bot`` categories).
    first_deal : int
        Index of the chunk's first deal in the run.
    seeds : ndarray(uint64, (n,))
    seatings : ndarray(int32, (n,))
        Seating of each deal.
    deal_rows : ndarray(deal_dtype, (n,))
    side_rows : ndarray(side_dtype, (n, sides))
    records : bool
        Build the ``deals`` and ``sides`` frames (:mod:`canasta_sim.results.records`).
    """
    rules, bots = table.rules, list(table.bot_specs)
    bot_codes = table.bot_codes[seatings]
    agg = Aggregates.from_rows(rules, bots, deal_rows, side_rows, bot_codes)
    if not records:
        return None, None, agg
    deals = deals_frame(
        first_deal,
        seeds,
        rules.players,
        deal_rows,
        list(table.seat_bot_specs),
        table.seat_codes[seatings],
    )
    sides = sides_frame(first_deal, seeds, side_rows, bots, bot_codes)
    return deals, sides, agg
