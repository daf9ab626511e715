"""Distilling a player count's weight file into a head network: the apprentice's play
decision at a fraction of its cost (docs/performance.md holds the figures).

The apprentice's network costs a hidden layer and the features of every candidate:
``v . relu(A s + B c + b1) + b2`` (:func:`.outcomes.scores`). The head network computes its
hidden layer once a play decision from the state features alone, ``h = relu(A s + b1)``, and
scores a play candidate by its output row (:func:`head_row`: whether it lays the expert's
melds and which kind it discards) and a few of its candidate features
(:data:`~canasta_sim.nb.bots.apprentice.HEAD_TERMS`, weighed by group: after the melds, or
holding them):

    ``score(c) = head_U[r(c)] . h + head_b[r(c)] + head_w[g(c)] . c[HEAD_TERMS]``  (points).

Its draw decision is the expert's, so only play decisions are learnt. The student starts
from the teacher's ``A`` and ``b1`` (reading no block of state features the teacher reads
not), small random rows and 0 terms, and learns the teacher's choices on the play decisions
of self-play deals the teacher plays at temperature 0 with ``top`` discards a meld plan
(:func:`.distil.decisions`): the cross-entropy between the teacher's and the student's
sampling at ``temperature`` points over each decision's candidates, by Adam with a cosine
decay of its learning rate. Its file (:func:`write_head`) holds no ``B``, ``v``, ``b2``,
and the teacher's value output.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..game.notation import check_int
from ..nb.bots.apprentice import HEAD_TERMS
from ..nb.bots.features import HELD_KINDS, CandFeat, StateFeat
from ..nb.engine.rng import SEED_SPAN
from ..players.weights import FEATURE_VERSION, HEAD_PARTS, STATE_BLOCKS, VALUE_PARTS
from . import outcomes
from .distil import cross_entropy, decisions, same_best
from .experience import MAX_TOP, SelfPlayPlan
from .finetune import need_jax
from .train import write_npz

#: The parts the trainer holds in hundreds of points (the output's, as :mod:`.outcomes`).
SCALED = ("head_U", "head_b", "head_w")
#: The heads' first weights' scale (trainer's units): small, so the heads start near alike.
INIT_SCALE = 0.01
#: Decisions a held-out agreement scores at once (their candidates' features, gathered).
CHUNK = 8192


@dataclass(frozen=True)
class HeadPlan:
    """What a head distillation plays and how it learns.

    Attributes
    ----------
    seed : int
        Master seed (``0 .. SEED_SPAN - 1``, :data:`~canasta_sim.nb.engine.rng.SEED_SPAN`) of
        the teacher's self-play deals (deals ``0 .. deals - 1`` to learn from,
        the next ``held_out`` to measure on), of the heads' first weights and of the
        batches' draw.
    players : int
        Players at the table (2, 3, 4 or 6); the rules are the classic preset's.
    deals : int
        Self-play deals whose decisions the student learns from (1 or more).
    steps : int
        Adam steps (1 or more).
    held_out : int
        Self-play deals after those, whose decisions measure the agreement (1 or more).
    top : int
        Discards each meld plan of a play decision is followed by in the self-play deals
        (1 .. 14; :class:`.experience.SelfPlayPlan`): 14, every kind held, so the student
        learns every discard head.
    temperature : float
        The sampling temperature (points) of the cross-entropy's two distributions (above 0).
    lr : float
        Adam's first learning rate (the heads in the trainer's units), decayed along a
        cosine to 5% of it over the steps (above 0).
    batch : int
        Decisions a step, drawn with replacement (1 or more).

    Raises
    ------
    ValueError
        Naming the first value out of its range and the range.
    """

    seed: int
    players: int
    deals: int = 4000
    steps: int = 3000
    held_out: int = 1000
    top: int = 14
    temperature: float = 20.0
    lr: float = 3e-3
    batch: int = 2048

    def __post_init__(self):
        check_int("seed", self.seed, 0, SEED_SPAN - 1)
        if self.players not in (2, 3, 4, 6):
            raise ValueError(f"players={self.players}: allowed: 2, 3, 4, 6")
        for name in ("deals", "steps", "held_out", "batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)}: allowed: 1 or more")
        if not 1 <= self.top <= MAX_TOP:
            raise ValueError(f"top={self.top}: allowed: 1 .. {MAX_TOP}")
        for name in ("temperature", "lr"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name}={getattr(self, name)}: allowed: above 0")


def head_row(cands: np.ndarray) -> np.ndarray:
    """Each play candidate's output row from its features.

    Parameters
    ----------
    cands : ndarray(float32, ndim=2)
        Play candidates' features, shape ``(n, N_CAND_FEAT)``
        (:data:`~canasta_sim.nb.bots.features.CandFeat`).

    Returns
    -------
    ndarray(int64, ndim=1)
        Shape ``(n,)``: ``(HELD_KINDS + 1) * hold + d``, ``hold`` 1 when it lays no meld
        (``CandFeat.hold``) and ``d`` its discard's kind - 1 (``CandFeat.discard_kinds``'
        one-hot slot, black three 0 .. joker 13), or HELD_KINDS with no discard (going out,
        R-40), as :func:`~canasta_sim.nb.bots.apprentice.head_row_nb`.
    """
    cands = np.asarray(cands)
    kinds = cands[:, CandFeat.discard_kinds : CandFeat.discard_kinds + HELD_KINDS] > 0
    d = np.where(kinds.any(axis=1), kinds.argmax(axis=1), HELD_KINDS)
    return ((HELD_KINDS + 1) * (cands[:, CandFeat.hold] > 0) + d).astype(np.int64)


def head_scores(params, state, rows, terms):
    """The head network's scores (points, ``float32``) in JAX.

    Parameters
    ----------
    params : dict
        The file's parts (:data:`HEAD_PARTS`, points).
    state : array (float32)
        State features, shape ``(..., N_STATE_FEAT)``.
    rows : array (int)
        Each candidate's row (:func:`head_row`), shape ``(..., n)``.
    terms : array (float32)
        Each candidate's features of :data:`~canasta_sim.nb.bots.apprentice.HEAD_TERMS`,
        shape ``(..., n, N_HEAD_TERMS)``.

    Returns
    -------
    array (float32)
        Shape ``(..., n)``: ``head_U[r] . relu(A s + b1) + head_b[r] + head_w[g] . terms``,
        ``g`` 1 for a row holding the melds (``r >= HELD_KINDS + 1``), else 0.
    """
    import jax.numpy as jnp

    hidden = jnp.maximum(state @ params["A"].T + params["b1"], 0.0)
    heads = hidden @ params["head_U"].T + params["head_b"]  # every row once a decision
    group = (rows > HELD_KINDS).astype(jnp.int32)
    return jnp.take_along_axis(heads, rows, axis=-1) + jnp.sum(
        params["head_w"][group] * terms, axis=-1
    )


def distil_head(teacher: str, plan: HeadPlan) -> tuple[dict, dict]:
    """The head network learnt from the weight file ``teacher``'s choices.

    Parameters
    ----------
    teacher : str
        A weight file (:mod:`canasta_sim.players.weights`) fitted for ``plan.players``.
    plan : HeadPlan
        What it plays and how it learns.

    Returns
    -------
    parts : dict
        The file's parts (:data:`HEAD_PARTS`, ``float32``, points; ``A``'s columns of the
        blocks the teacher reads not, :func:`unread_blocks`, 0 as the teacher's) and the
        teacher's value output (:data:`VALUE_PARTS`), if it has one.
    facts : dict
        ``head`` (the plan), ``teacher``, ``drop`` (those blocks), ``decisions`` and
        ``held_out_decisions`` (play decisions of two or more candidates), ``agreement_start`` and
        ``agreement_end`` (the share of the held-out decisions whose best candidate is the
        teacher's, before and after the steps), ``play_seconds`` and ``learn_seconds``.

    Raises
    ------
    ModuleNotFoundError
        Without JAX or optax (:func:`.finetune.need_jax`).
    ValueError
        For a weight file that is not one or was fitted for another player count.
    """
    need_jax("a head distillation")
    import jax
    import optax

    t = time.time()
    taught = outcomes.read_parts(teacher, "the teacher")
    params = _first_params(taught, plan.seed)
    drop = unread_blocks(params["A"])
    play = SelfPlayPlan(seed=plan.seed, players=plan.players, temperature=0.0, top=plan.top)
    train = _plays(decisions(teacher, play, 0, plan.deals, drop))
    held = _plays(decisions(teacher, play, plan.deals, plan.held_out, drop))
    played = time.time() - t
    opt = optax.adam(optax.cosine_decay_schedule(plan.lr, plan.steps, alpha=0.05))
    state = opt.init(params)

    @jax.jit
    def step(p, state, batch):
        grad = jax.grad(_loss)(p, batch, plan.temperature)
        updates, state = opt.update(grad, state, p)
        return optax.apply_updates(p, updates), state

    start = _agreement(params, held)
    gen = np.random.default_rng(plan.seed)
    for _ in range(plan.steps):
        b = gen.integers(0, len(train["state"]), plan.batch)
        params, state = step(params, state, _batch(train, b))
    parts = {k: np.asarray(v, np.float32) for k, v in _points(params).items()}
    parts.update({k: np.asarray(taught[k], np.float32) for k in VALUE_PARTS if k in taught})
    facts = {
        "head": asdict(plan),
        "teacher": teacher,
        "drop": drop,
        "decisions": len(train["state"]),
        "held_out_decisions": len(held["state"]),
        "agreement_start": start,
        "agreement_end": _agreement(params, held),
        "play_seconds": round(played, 1),
        "learn_seconds": round(time.time() - t - played, 1),
    }
    return parts, facts


def unread_blocks(a: np.ndarray) -> tuple[str, ...]:
    """The blocks of state features (:data:`~canasta_sim.players.weights.STATE_BLOCKS`'
    names) whose weights in ``A`` (``float32[NET_HIDDEN, N_STATE_FEAT]``) are all 0: the
    student reads them not either (their slots 0 in its decisions, so their weights stay 0),
    so a kernel skips them in both (the shipped files read no per-kind block)."""
    return tuple(n for n, (_, cols) in STATE_BLOCKS.items() if not a[:, cols].any())


def write_head(path, parts: dict, facts: dict, players: int) -> None:
    """Write a head file ``path`` (``.npz``, atomically: :func:`.train.write_npz`): the
    ``parts`` (:data:`HEAD_PARTS`, ``float32``, points, and the value output's,
    :data:`VALUE_PARTS`, those of them given), ``feature_version``
    (:data:`~canasta_sim.players.weights.FEATURE_VERSION`), ``players`` and ``report``
    (``facts`` as JSON).

    Raises
    ------
    ValueError
        Naming a part missing or of another shape, and the shape it needs.
    """
    for name, shape in HEAD_PARTS.items():
        have = np.shape(parts[name]) if name in parts else None
        if have != shape:
            raise ValueError(f"head part {name}: shape {have}, needs {shape}")
    write_npz(
        path,
        {
            "feature_version": np.int64(FEATURE_VERSION),
            **{k: np.asarray(parts[k], np.float32) for k in HEAD_PARTS},
            **{k: np.asarray(parts[k], np.float32) for k in VALUE_PARTS if k in parts},
            "players": np.int64(players),
            "report": np.array(json.dumps(facts, default=float)),
        },
    )


def _plays(log: dict) -> dict:
    """The play decisions of ``log`` (:func:`.distil.decisions`; ``StateFeat.play_phase``
    1), each candidate row with its output row ``r`` (:func:`head_row`; a draw decision's
    rows unused)."""
    cands = log["cands"]
    keep = log["state"][:, StateFeat.play_phase] > 0
    return {**log, "state": log["state"][keep], "rows": log["rows"][keep],
            "mask": log["mask"][keep], "r": head_row(cands)}  # fmt: skip


def _first_params(teacher: dict, seed: int) -> dict:
    """The student's first parameters (trainer's units): the teacher's ``A`` and ``b1``,
    rows of small normal weights drawn from ``seed``, 0 biases."""
    gen = np.random.default_rng(seed)
    return {
        "A": np.asarray(teacher["A"], np.float32),
        "b1": np.asarray(teacher["b1"], np.float32),
        "head_U": (gen.standard_normal(HEAD_PARTS["head_U"]) * INIT_SCALE).astype(np.float32),
        "head_b": np.zeros(HEAD_PARTS["head_b"], np.float32),
        "head_w": np.zeros(HEAD_PARTS["head_w"], np.float32),
    }


def _points(params: dict) -> dict:
    """The trainer's parameters as the file's (points): :data:`SCALED` times SCORE_SCALE."""
    return {k: v * outcomes.SCORE_SCALE if k in SCALED else v for k, v in params.items()}


def _batch(log: dict, b: np.ndarray) -> dict:
    """Decisions ``b`` of ``log`` (:func:`_plays`), their candidates padded to MAX_CANDS."""
    rows = log["rows"][b]
    return {
        "state": log["state"][b],
        "r": log["r"][rows],
        "terms": log["cands"][rows][..., list(HEAD_TERMS)],
        "target": log["score"][rows],
        "mask": log["mask"][b],
    }


def _loss(params, batch, temperature):
    """The mean cross-entropy of the student's sampling from the teacher's
    (:func:`.distil.cross_entropy`) over a batch (:func:`_batch`), ``params`` in the
    trainer's units."""
    mine = head_scores(_points(params), batch["state"], batch["r"], batch["terms"])
    return cross_entropy(mine, batch["target"], batch["mask"], temperature)


def _agreement(params: dict, log: dict) -> float:
    """The share of ``log``'s decisions whose best candidate by ``params`` (trainer's
    units) is the teacher's (:func:`.distil.same_best`), scored CHUNK decisions at a time."""
    mine = np.zeros(log["mask"].shape, np.float32)
    points = _points(params)
    for at in range(0, len(mine), CHUNK):
        part = _batch(log, np.arange(at, min(at + CHUNK, len(mine))))
        mine[at : at + CHUNK] = head_scores(points, part["state"], part["r"], part["terms"])
    return same_best(mine, log)
