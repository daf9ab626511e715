"""Distilling a player count's weight file into a network that reads fewer state features
(issue 40; docs/performance.md, "Item 2 of issue 40"): a stage of ``canasta-sim train``
between its rounds of imitation and its rounds on outcomes (:mod:`.pipeline`).

The student starts as the teacher (the count's kept file) with its weights on the dropped
blocks of state features (:data:`~canasta_sim.players.weights.STATE_BLOCKS`) set to 0, and
learns the teacher's choices on the decisions of self-play deals the teacher plays at
temperature 0: the cross-entropy between the teacher's and the student's sampling at
``temperature`` points over each decision's candidates, by Adam, the dropped weights kept at
0 (their gradient masked). The kernels skip the blocks a file does not read
(:func:`~canasta_sim.players.weights.pack`), so the student plays faster: without the
per-kind blocks, in 0.87 to 0.89 of the teacher's time.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from ..nb.selfplay import PlayCol
from ..players.weights import dropped_columns
from . import outcomes
from .experience import SelfPlayPlan, selfplay
from .finetune import need_jax


@dataclass(frozen=True)
class DistilPlan:
    """What a distillation plays and how it learns.

    Attributes
    ----------
    seed : int
        Master seed of the teacher's self-play deals (deals ``0 .. deals - 1`` to learn from,
        the next ``held_out`` to measure on) and of the batches' draw.
    players : int
        Players at the table (2, 3, 4 or 6); the rules are the classic preset's.
    drop : tuple of str
        The blocks of state features the student does not read
        (:data:`~canasta_sim.players.weights.STATE_BLOCKS`' names).
    deals : int
        Self-play deals whose decisions the student learns from.
    steps : int
        Adam steps.
    held_out : int
        Self-play deals after those, whose decisions measure the agreement.
    temperature : float
        The sampling temperature (points) of the cross-entropy's two distributions.
    lr : float
        Adam's learning rate (the network in the trainer's units, :mod:`.outcomes`).
    batch : int
        Decisions a step, drawn with replacement.
    """

    seed: int
    players: int
    drop: tuple[str, ...]
    deals: int = 4000
    steps: int = 3000
    held_out: int = 500
    temperature: float = 20.0
    lr: float = 3e-3
    batch: int = 2048


def decisions(teacher: str, play: SelfPlayPlan, first: int, deals: int, drop=()) -> dict:
    """The teacher's decisions of two or more candidates in its self-play deals ``first ..
    first + deals - 1`` of ``play`` (the teacher at ``play.temperature``, its candidates of
    ``play.top`` discards a meld plan): ``state`` (``float32[D, N_STATE_FEAT]``, the slots of
    the blocks ``drop`` 0), ``cands`` (``float32[C, N_CAND_FEAT]``), ``score``
    (``float32[C]``, the teacher's scores, points) and each decision's candidate ``rows``
    (``int64[D, MAX_CANDS]``) and ``mask`` (:func:`.outcomes.padded`)."""
    log = selfplay(teacher, play, first, deals)
    keep = log["meta"][:, PlayCol.n_cands] >= 2  # a lone candidate teaches nothing
    state = log["state"][keep]
    state[:, dropped_columns(drop)] = 0.0
    rows, mask = outcomes.padded({"meta": log["meta"][keep]})
    return {
        "state": state,
        "cands": log["cands"],
        "score": log["score"],
        "rows": rows,
        "mask": mask,
    }


def agreement(params: dict, log: dict) -> float:
    """The share of ``log``'s decisions (:func:`decisions`) whose best candidate by
    ``params`` (trainer's units) is the teacher's."""
    mine = outcomes.scores(params, log["state"], log["cands"][log["rows"]])
    return same_best(np.asarray(mine), log)


def same_best(mine: np.ndarray, log: dict) -> float:
    """The share of ``log``'s decisions (:func:`decisions`) whose best candidate by the
    scores ``mine`` (``[D, MAX_CANDS]``, padding ignored) is the teacher's."""
    mine = np.where(log["mask"], mine, -np.inf)
    teacher = np.where(log["mask"], log["score"][log["rows"]], -np.inf)
    return float(np.mean(mine.argmax(1) == teacher.argmax(1)))


def distil(teacher: str, plan: DistilPlan) -> tuple[dict, dict]:
    """The student of the weight file ``teacher``, in the trainer's units
    (:func:`.outcomes.policy_params`), and the facts of its learning: its plan, decisions,
    the held-out agreement of its choice with the teacher's at the start (the teacher's
    weights on the dropped blocks set to 0) and at the end, and the seconds of play and of
    learning. A teacher whose weights on the dropped blocks are all 0 already (a file that
    skips them) is its own student: no deal is played, no step taken (0 decisions).

    Raises
    ------
    ModuleNotFoundError
        Without JAX or optax (:func:`.finetune.need_jax`).
    ValueError
        For a weight file that is not one or was fitted for another player count.
    """
    need_jax("a distillation")
    import jax
    import optax

    params = outcomes.policy_params(outcomes.read_parts(teacher, "the teacher"))
    cols = dropped_columns(plan.drop)
    if not params["A"][:, cols].any():  # nothing to learn: no play
        return params, _facts(plan, teacher, decisions=0, held_out_decisions=0)
    t = time.time()
    play = SelfPlayPlan(seed=plan.seed, players=plan.players, temperature=0.0)
    train = decisions(teacher, play, 0, plan.deals, plan.drop)
    held = decisions(teacher, play, plan.deals, plan.held_out, plan.drop)
    played = time.time() - t
    params["A"][:, cols] = 0.0
    keep = {k: np.ones_like(v) for k, v in params.items()}
    keep["A"][:, cols] = 0.0  # the dropped weights' gradient: they stay 0
    opt = optax.adam(plan.lr)
    state = opt.init(params)

    @jax.jit
    def step(p, state, batch):
        grad = jax.grad(_loss)(p, batch, plan.temperature)
        updates, state = opt.update({k: g * keep[k] for k, g in grad.items()}, state, p)
        return optax.apply_updates(p, updates), state

    start = agreement(params, held)
    gen = np.random.default_rng(plan.seed)
    for _ in range(plan.steps):
        b = gen.integers(0, len(train["state"]), plan.batch)
        batch = {
            "state": train["state"][b],
            "cands": train["cands"][train["rows"][b]],
            "target": train["score"][train["rows"][b]],
            "mask": train["mask"][b],
        }
        params, state = step(params, state, batch)
    params = {k: np.asarray(v) for k, v in params.items()}
    return params, _facts(
        plan,
        teacher,
        decisions=len(train["state"]),
        held_out_decisions=len(held["state"]),
        agreement_start=start,
        agreement_end=agreement(params, held),
        play_seconds=round(played, 1),
        learn_seconds=round(time.time() - t - played, 1),
    )


def _facts(plan: DistilPlan, teacher: str, **measured) -> dict:
    """A distillation's facts: its plan and teacher, then what it measured (with no
    decision, the teacher reading none of the blocks: its choice every time, no time)."""
    none = {"agreement_start": 1.0, "agreement_end": 1.0, "play_seconds": 0.0}
    return {"distilled": asdict(plan), "teacher": teacher, **none, "learn_seconds": 0.0, **measured}


def _loss(params, batch, temperature):
    """The mean cross-entropy of the student's sampling at ``temperature`` from the
    teacher's, over each decision's candidates (``batch``: ``state`` ``[B, S]``, ``cands``
    ``[B, MAX_CANDS, C]``, ``target`` the teacher's scores ``[B, MAX_CANDS]``, ``mask``)."""
    mine = outcomes.scores(params, batch["state"], batch["cands"])
    return cross_entropy(mine, batch["target"], batch["mask"], temperature)


def cross_entropy(mine, target, mask, temperature):
    """The mean cross-entropy of the sampling at ``temperature`` (points) by the scores
    ``mine`` from the one by the teacher's scores ``target`` (both ``[B, MAX_CANDS]``,
    points), over each decision's candidates of ``mask``."""
    import jax
    import jax.numpy as jnp

    logp = jax.nn.log_softmax(jnp.where(mask, mine / temperature, -jnp.inf), axis=-1)
    teach = jax.nn.softmax(jnp.where(mask, target / temperature, -jnp.inf), axis=-1)
    return -jnp.mean(jnp.sum(jnp.where(mask, teach * logp, 0.0), axis=-1))
