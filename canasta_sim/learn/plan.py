"""The plan of ``canasta-sim train`` (:class:`TrainPlan`: what its stages make, from a seed)
and the layout of its rounds' and fine-tunings' folders; :mod:`.pipeline` runs the stages,
:mod:`.train_folder` checks the folder's records."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..errors import BadArgument
from ..players.specs import WEIGHT_FAMILIES
from ..players.weights import STATE_BLOCKS, default_weights_path, refuse_head_network
from . import (
    DISTIL_SEEDS,
    LEAST_TEMPERATURE,
    PLAN_RANGES,
    STARTS,
    TUNE_POOL,
    TUNE_SEEDS,
    derived_seed,
)
from .distil import DistilPlan
from .finetune import TunePlan, pool_file
from .shards import LabelPlan

#: The player counts the recipe trains, each with a weight file of its own.
COUNTS = (2, 3, 4, 6)

#: The order a round labels, fits and judges the counts in: 4 players, the most labels, last.
ORDER = (2, 6, 3, 4)

#: Each count's labelling seed offset in round 1 (the plan's seed plus it; at seed 0 the seeds
#: of bots version 9's labels); round ``k`` adds ``ROUND_SEED * (k - 1)``.
LABEL_SEEDS = {2: 7002, 3: 7003, 4: 7001, 6: 7006}
ROUND_SEED = 10

#: The judge's seed offset: a round's file meets the file it would replace on the deals of
#: seed ``seed + JUDGE_SEED``, which no labelling stage plays (they use ``seed + 7001`` on).
JUDGE_SEED = 40

#: The labelling search's options beside its rollout bot: the apprentice's own candidates.
SEARCH = "top=4"


@dataclass(frozen=True)
class TrainPlan:
    """What ``canasta-sim train`` makes.

    Attributes
    ----------
    seed : int
        Master seed (0 .. 2**64 - 1): round ``k``'s labels of ``P`` players use seed ``seed +
        LABEL_SEEDS[P] + ROUND_SEED (k - 1)`` (:data:`LABEL_SEEDS`), the fits ``seed``, the
        judges ``seed + JUDGE_SEED``, each sum wrapped round modulo 2**64
        (:func:`~canasta_sim.learn.derived_seed`).
    start : str
        Round 1's rollout bot and the bot its judges play against
        (:data:`canasta_sim.learn.STARTS`).
    rounds : int
        Rounds of labelling and fitting at most (1, the default, is bots version 9's recipe;
        at most :data:`~canasta_sim.learn.MOST_ROUNDS`); a count stops earlier when its judge
        says so.
    shards_2p, shards_3p, shards_4p, shards_6p : int
        Shards a round labels of each player count (at least 2: one per preset).
    stage_shards : int
        Shards a labelling stage makes at most: a count with more is labelled in as many
        stages as it takes, of equal size give or take one.
    deals : int
        Deals per shard.
    worlds : int
        Sampled worlds per labelled decision.
    every : int
        About one decision in ``every`` is labelled.
    judge_deals : int
        Deals each judge stage plays (rounded up to a multiple of the sides).
    outcome_rounds_2p, outcome_rounds_3p, outcome_rounds_4p, outcome_rounds_6p : int
        Rounds of fine-tuning on outcomes of each count's kept file (0: none; the defaults
        are bots version 10's recipe), at seed ``seed + TUNE_SEEDS[P]``
        (:data:`~canasta_sim.learn.TUNE_SEEDS`).
    outcome_deals_2p, outcome_deals_3p, outcome_deals_4p, outcome_deals_6p : int
        Deals a round on outcomes plays, split over the pool's distinct networks in shares
        equal give or take one (:func:`.finetune.play_round`).
    stage_rounds : int
        Rounds on outcomes a stage holds at most.
    outcome_temperature, outcome_lr, outcome_kl : float
        The learner's sampling temperature (points, at least
        :data:`~canasta_sim.learn.LEAST_TEMPERATURE`: the update's float32 logits of every
        score stay finite), the policy's learning rate (above 0) and the weight of its KL
        divergence from the kept file (0 or more), each finite (:class:`.finetune.TunePlan`).
    outcome_pool : tuple of str
        The learner's opponents (:data:`~canasta_sim.learn.TUNE_POOL`'s names, kept in that
        order, each once), each playing a share of a round's deals, equal give or take one;
        a name of the weight file an earlier name plays is left out (``apprentice@9``
        beside ``start`` with ``start="apprentice@9"`` and ``rounds=0``: the fine-tuning
        starts from --start's files), and when the rounds begin a name of the network an
        earlier one plays (:func:`.finetune.distinct_pool`).
    distil_drop : tuple of str
        Blocks of state features (:data:`~canasta_sim.players.weights.STATE_BLOCKS`' names;
        kept in that order, each once) that each count's kept file is distilled without
        before its rounds on outcomes (:mod:`.distil`), which then keep them unread (empty,
        the default: no distillation; ``("kinds",)``: bots version 11's recipe).
    distil_deals, distil_steps : int
        The teacher's self-play deals a distillation learns from (seed ``seed +
        DISTIL_SEEDS[P]``, :data:`~canasta_sim.learn.DISTIL_SEEDS`) and its Adam steps.
    pool_left_out : tuple of (str, str)
        The names of ``outcome_pool`` as given that the plan leaves out, each with the name
        kept whose weight file it names (itself for a name given twice): the fine-tuning's
        progress line says them (not a field of the plan: ``plan.json`` records the pool as
        the plan takes it).

    Raises
    ------
    BadArgument
        For a field of :data:`canasta_sim.learn.PLAN_RANGES` not an integer of its range
        (``rounds=0.5``, ``seed=-1``, ``worlds=99999``: values its option refuses), a setting
        of the fine-tuning out of its range (not finite, a temperature below
        :data:`~canasta_sim.learn.LEAST_TEMPERATURE`), a start not in
        :data:`~canasta_sim.learn.STARTS` (or ``expert`` with no round of imitation, or
        one whose shipped files are head networks: a start needs a full network), a pool
        opponent not in :data:`~canasta_sim.learn.TUNE_POOL` (or none), or a block to drop
        not in :data:`~canasta_sim.players.weights.STATE_BLOCKS`.
    """

    seed: int = 0
    start: str = "apprentice@8"
    rounds: int = 1
    shards_2p: int = 600
    shards_3p: int = 400
    shards_4p: int = 1000
    shards_6p: int = 400
    stage_shards: int = 500
    deals: int = 20
    worlds: int = 32
    every: int = 3
    judge_deals: int = 100_000
    outcome_rounds_2p: int = 40
    outcome_rounds_3p: int = 40
    outcome_rounds_4p: int = 28
    outcome_rounds_6p: int = 40
    outcome_deals_2p: int = 10_000
    outcome_deals_3p: int = 10_000
    outcome_deals_4p: int = 10_000
    outcome_deals_6p: int = 5_000
    stage_rounds: int = 20
    outcome_temperature: float = 50.0
    outcome_lr: float = 3e-4
    outcome_kl: float = 0.1
    outcome_pool: tuple[str, ...] = ("self", "start")
    distil_drop: tuple[str, ...] = ()
    distil_deals: int = 4000
    distil_steps: int = 3000
    #: Not a field (a plan records its pool as it takes it): set from the pool as given.
    pool_left_out: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __post_init__(self):
        for name, (low, high) in PLAN_RANGES.items():
            value = getattr(self, name)
            # JSON has one number type: a plan.json's 3.0 is the integer 3, its 0.5 none
            whole = isinstance(value, float) and value.is_integer()
            integer = isinstance(value, int) and not isinstance(value, bool)
            if not (whole or integer) or not low <= value <= high:
                raise BadArgument(
                    name,
                    f"{name}={value!r} is not allowed; allowed: an integer, {low:,} to {high:,}",
                )
            object.__setattr__(self, name, int(value))
        if self.start not in STARTS:
            raise BadArgument(
                "start", f"start={self.start!r} is not allowed; allowed: {', '.join(STARTS)}"
            )
        if self.rounds == 0 and self.start == "expert":
            raise BadArgument(
                "rounds",
                "rounds=0 fine-tunes the start's files, and start=expert has none; allowed: "
                "1 or more with start=expert, or a start of shipped files",
            )
        self._check_start_files()
        self._check_outcomes()
        bad = [name for name in self.distil_drop if name not in STATE_BLOCKS]
        if bad:
            raise BadArgument(
                "distil_drop",
                f"distil_drop={','.join(self.distil_drop)}: {bad[0]!r} is not allowed; allowed: "
                f"a comma-separated list of {', '.join(STATE_BLOCKS)} (empty: no distillation)",
            )
        # in STATE_BLOCKS' order, each once: the same blocks are the same plan
        drop = tuple(name for name in STATE_BLOCKS if name in self.distil_drop)
        object.__setattr__(self, "distil_drop", drop)

    def _check_start_files(self):
        """Refuse a learned start whose shipped files are head networks (bots version 12's
        ``apprentice``): its file is a teacher, a fine-tuning's start or a kept round 0,
        each of which needs a full network (BadArgument naming the file)."""
        if self.start == "expert":
            return
        fulls = ", ".join(f"start={n}" for n in WEIGHT_FAMILIES)
        for players in COUNTS:
            try:
                refuse_head_network(
                    str(self.start_file(players)),
                    f"start={self.start}'s file",
                    f"{fulls} (full networks), or start=expert",
                )
            except ValueError as exc:
                raise BadArgument("start", str(exc)) from None

    def _check_outcomes(self):
        """Refuse a bad setting of the fine-tuning (BadArgument naming it)."""
        for name, low, strict in (
            ("outcome_temperature", LEAST_TEMPERATURE, False),
            ("outcome_lr", 0, True),
            ("outcome_kl", 0, False),
        ):
            value = getattr(self, name)
            if not (math.isfinite(value) and (value > low if strict else value >= low)):
                bound = f"a finite number {'above' if strict else 'of at least'} {low:g}"
                raise BadArgument(name, f"{name}={value} is not allowed; allowed: {bound}")
        bad = [p for p in self.outcome_pool if p not in TUNE_POOL]
        if bad or not self.outcome_pool:
            what = repr(bad[0]) if bad else "no opponent"
            raise BadArgument(
                "outcome_pool",
                f"outcome_pool={','.join(self.outcome_pool)}: {what} is not allowed; "
                "allowed: a comma-separated list of one or more of "
                f"{', '.join(TUNE_POOL)} (a name of the file an earlier one names is left out)",
            )
        pool, left = self._distinct_pool()
        object.__setattr__(self, "outcome_pool", pool)
        object.__setattr__(self, "pool_left_out", left)
        for players in COUNTS:  # every opponent of the pool plays a share of a round's deals
            name = f"outcome_deals_{players}p"
            if getattr(self, f"outcome_rounds_{players}p") and getattr(self, name) < len(
                self.outcome_pool
            ):
                raise BadArgument(
                    name,
                    f"{name}={getattr(self, name)} is fewer than the {len(self.outcome_pool)} "
                    f"opponents of the pool ({','.join(self.outcome_pool)}), each of which "
                    f"plays a share of a round; allowed: {len(self.outcome_pool)} or more",
                )

    def _distinct_pool(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """The pool's names in :data:`~canasta_sim.learn.TUNE_POOL`'s order, each once (the
        same names in any order are the same plan), but those of a weight file an earlier
        name plays: with no round of imitation (``rounds`` 0) nor distillation ``start``
        plays --start's shipped files, those of the pool's name of that family
        (``apprentice@9`` with ``start`` of that name); with rounds of imitation or a
        distillation, a file of the run. A family's files are of every count, so the files
        at 2 players tell them apart. Beside it the names left out, each with the name kept
        whose file it names (itself for a name given twice)."""
        shipped = self.rounds == 0 and not self.distil_drop  # else start is a file of out
        start = str(self.start_file(2)) if shipped else "start"
        names = [n for n in TUNE_POOL if n in self.outcome_pool]
        files = [pool_file(name, "self", start, 2) for name in names]
        kept = tuple(n for n, f in zip(names, files) if names[files.index(f)] == n)
        twice = [(n, n) for n in names if self.outcome_pool.count(n) > 1]
        twins = [(n, names[files.index(f)]) for n, f in zip(names, files) if n not in kept]
        return kept, (*twice, *twins)

    def shards(self, players: int) -> int:
        """Shards a round labels of ``players`` players."""
        return getattr(self, f"shards_{players}p")

    def label_stages(self, players: int) -> list[tuple[str, int, int]]:
        """The labelling stages of ``players`` players in a round: name, first shard and the
        shard after its last."""
        n = self.shards(players)
        parts = -(-n // self.stage_shards)
        if parts == 1:
            return [(f"label_{players}p", 0, n)]
        return [
            (f"label_{players}p_{j + 1}", j * n // parts, (j + 1) * n // parts)
            for j in range(parts)
        ]

    def judged(self, k: int) -> bool:
        """Whether round ``k`` judges its files (not round 1 of the expert's rollouts)."""
        return k > 1 or self.start != "expert"

    def label_plan(self, out, k: int, players: int) -> LabelPlan:
        """The labelling plan of round ``k`` at ``players`` players: pimc rolling out the
        start in round 1, round ``k - 1``'s apprentice (its files in ``out``) after."""
        if k > 1:
            search, weights = f"pimc:rollout=apprentice,{SEARCH}", str(weights_dir(out, k - 1))
        elif self.start == "expert":
            search, weights = f"pimc:{SEARCH}", ""
        else:
            search, weights = f"pimc:rollout={self.start},{SEARCH}", ""
        return LabelPlan(
            seed=derived_seed(self.seed, LABEL_SEEDS[players] + ROUND_SEED * (k - 1)),
            deals=self.deals,
            players=(players,),
            presets=("classic", "hoyle"),
            worlds=self.worlds,
            every=self.every,
            search=search,
            weights=weights,
        )

    def judge_seed(self) -> int:
        """The judges' seed: ``seed + JUDGE_SEED``."""
        return derived_seed(self.seed, JUDGE_SEED)

    def outcome_rounds(self, players: int) -> int:
        """Rounds on outcomes of ``players`` players."""
        return getattr(self, f"outcome_rounds_{players}p")

    def tune_plan(self, players: int) -> TunePlan:
        """The fine-tuning of ``players`` players: seed ``seed + TUNE_SEEDS[players]``."""
        return TunePlan(
            seed=derived_seed(self.seed, TUNE_SEEDS[players]),
            players=players,
            deals=getattr(self, f"outcome_deals_{players}p"),
            pool=tuple(self.outcome_pool),
            temperature=self.outcome_temperature,
            lr=self.outcome_lr,
            kl=self.outcome_kl,
            frozen=self.distil_drop,
        )

    def distil_plan(self, players: int) -> DistilPlan:
        """The distillation of ``players`` players: seed ``seed + DISTIL_SEEDS[players]``."""
        return DistilPlan(
            seed=derived_seed(self.seed, DISTIL_SEEDS[players]),
            players=players,
            drop=self.distil_drop,
            deals=self.distil_deals,
            steps=self.distil_steps,
        )

    def tune_stages(self, players: int) -> list[tuple[str, int, int]]:
        """The fine-tuning stages of ``players`` players: name, first round and the round
        after its last; stage ``j`` holds rounds ``(j - 1) stage_rounds ..``, so more rounds
        (a resume with more) only add rounds to the last stage or stages after it."""
        n, size = self.outcome_rounds(players), self.stage_rounds
        return [
            (f"outcomes_{players}p_{j + 1}", j * size, min((j + 1) * size, n))
            for j in range(-(-n // size))
        ]

    def start_file(self, players: int) -> Path:
        """The start's weight file for ``players`` players (a learned start's)."""
        return default_weights_path(players, WEIGHT_FAMILIES.get(self.start, ""))


def round_dir(out, k: int) -> Path:
    return Path(out) / f"round_{k}"


def weights_dir(out, k: int) -> Path:
    """Where round ``k`` writes its weight files (``apprentice_{players}p.npz``)."""
    return round_dir(out, k) / "weights"


def distil_file(out, players: int) -> Path:
    """The distilled weight file of ``players`` players."""
    return Path(out) / "distil" / f"apprentice_{players}p.npz"


def distil_marker(out, players: int) -> Path:
    """The marker of stage ``distil_{P}p``, beside its file."""
    return Path(out) / "distil" / f"distil_{players}p.done"


def tune_folder(out, players: int) -> Path:
    """Where the fine-tuning of ``players`` players writes its rounds and stage markers."""
    return Path(out) / f"outcomes_{players}p"
