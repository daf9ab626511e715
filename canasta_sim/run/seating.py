"""Who sits where, and one chunk's kernel call: the seating :class:`Table` of a run and
:func:`play_rows`, which plays deals ``first .. first + n - 1`` of it.

Deal ``k`` of a run is seeded from ``(seed, k // R)`` alone with ``R`` seatings, so results do
not depend on chunk size, threads or cluster size (:mod:`canasta_sim.run.runner` runs the
chunks).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import BadArgument
from ..game.notation import check_int
from ..game.rules import PRESETS, Rules
from ..nb.engine.rng import deal_seeds_nb
from ..nb.play import play_chunk
from ..players.specs import Bot, per_seat, seat_arrays, side_label, weight_sets
from ..results.records import deal_dtype, side_dtype
from .compiling import compile_watch

#: Least default chunk (deals) of a table with a slow bot (:attr:`Table.slow`).
SLOW_DEALS = 64


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
    return tuple(check_int("scores", v, -MAX_SCORE, MAX_SCORE) for v in scores)


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
