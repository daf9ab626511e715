"""Fine-tuning the apprentice on real deal results (issue 41 item 3): a policy gradient with
a learned value baseline, started from the imitation weights, with JAX and optax (the
optional extra ``train``); play never imports them (the result is a normal weight file).

The policy is the apprentice's sampling at temperature ``T``: candidate ``c`` of a decision
is played with probability ``softmax(score(s, c) / T)``, ``score`` the kernel's network
(:func:`scores`, the same function of the same weights). Its update is PPO's clipped
surrogate on the logged decisions (:mod:`.experience`): the ratio of the new probability of
the candidate played to the logged one, times its advantage, the deal's outcome for the
seat's side minus a critic's value, plus ``kl`` times the KL divergence from the imitation
policy (the starting weights' sampling), which keeps the policy near what the search taught.

The critic reads the state features and every hand (its privileged input, :func:`critic_input`,
train-time only: the policy never reads a hidden card); it is a separate network of
CRITIC_HIDDEN ReLU units fitted on the outcomes by least squares.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..nb.bots.features import HELD_KINDS
from ..nb.selfplay import PlayCol
from ..players.weights import FEATURE_VERSION, PARTS, VALUE_PARTS, refuse_head_network, widen
from .train import save

#: Hidden units of the critic; it is fitted in units of OUTCOME_SCALE points.
CRITIC_HIDDEN = 64
OUTCOME_SCALE = 1000.0
#: The network's output is trained in hundreds of points, as the imitation fit's.
SCORE_SCALE = 100.0
#: Seats of the critic's view of every hand (by held kind: ``HELD_KINDS``).
MAX_SEATS = 6
#: Candidates a decision has at most (the kernel's work record).
MAX_CANDS = 40


@dataclass(frozen=True)
class UpdatePlan:
    """How one round's decisions update the policy and the critic.

    Attributes
    ----------
    temperature : float
        The sampling temperature the decisions were logged with (points).
    lr : float
        Adam's learning rate for the policy (its parameters in the imitation fit's units).
    epochs : int
        Passes of the policy over the round's decisions.
    batch : int
        Decisions a step.
    clip : float
        PPO's clip of the probability ratio.
    kl : float
        Weight of the KL divergence from the imitation policy.
    critic_lr, critic_epochs : float, int
        The critic's Adam learning rate and passes before the policy's.
    seed : int
        Seed of the batches' order and of the critic's first weights.
    """

    temperature: float = 50.0
    lr: float = 1e-4
    epochs: int = 2
    batch: int = 1024
    clip: float = 0.2
    kl: float = 0.1
    critic_lr: float = 1e-3
    critic_epochs: int = 3
    seed: int = 0


def policy_params(parts: dict) -> dict:
    """A weight file's network parts (``A``, ``B``, ``b1``, ``v``, ``b2``) as the trainer's
    parameters: ``float32`` arrays, the output layer in hundreds of points."""
    p = {k: np.asarray(parts[k], np.float32) for k in PARTS}
    p["v"] = p["v"] / np.float32(SCORE_SCALE)
    p["b2"] = np.asarray(p["b2"] / np.float32(SCORE_SCALE), np.float32)
    return p


def weight_parts(params: dict) -> dict[str, np.ndarray]:
    """The trainer's parameters as a weight file's network parts (points)."""
    p = {k: np.asarray(params[k], np.float32) for k in PARTS}
    p["v"] = p["v"] * np.float32(SCORE_SCALE)
    p["b2"] = np.float32(p["b2"] * np.float32(SCORE_SCALE))
    return p


def scores(params, state, cands):
    """The network's scores (points, ``float32``) of candidates ``cands``
    (``[..., n, N_CAND_FEAT]``) of decisions of state features ``state`` (``[...,
    N_STATE_FEAT]``): ``v . relu(A s + B c + b1) + b2``, the kernel's
    :func:`~canasta_sim.nb.bots.apprentice.score_candidates_nb` in JAX."""
    import jax.numpy as jnp

    half = state @ params["A"].T + params["b1"]
    hidden = jnp.maximum(half[..., None, :] + cands @ params["B"].T, 0.0)
    return (hidden @ params["v"] + params["b2"]) * SCORE_SCALE


def critic_input(log: dict, players: int) -> np.ndarray:
    """The critic's input of each logged decision (``float32[D, N_STATE_FEAT + MAX_SEATS *
    HELD_KINDS]``): its state features, then every hand by kind from the seat's own round
    the table (cards / 4; seats a table lacks 0), read from the kept positions: hidden
    cards, for training only."""
    pos = log["positions"]
    seats = log["meta"][:, PlayCol.seat]
    hands = np.zeros((len(seats), MAX_SEATS, HELD_KINDS), np.float32)
    for o in range(players):
        hands[:, o] = pos["hands"][np.arange(len(seats)), (seats + o) % players, 1:]
    return np.hstack([log["state"], hands.reshape(len(seats), -1) / 4.0]).astype(np.float32)


def padded(log: dict) -> tuple[np.ndarray, np.ndarray]:
    """Each decision's candidate rows padded to MAX_CANDS (``int64[D, MAX_CANDS]``, padding
    rows 0) and their mask (``bool[D, MAX_CANDS]``)."""
    first = log["meta"][:, PlayCol.first]
    n = log["meta"][:, PlayCol.n_cands]
    at = np.arange(MAX_CANDS)
    mask = at[None, :] < n[:, None]
    return np.where(mask, first[:, None] + at[None, :], 0), mask


def init_critic(n_in: int, seed: int) -> dict:
    """The critic's first weights (He-scaled normal, zero biases)."""
    gen = np.random.default_rng(seed)
    return {
        "A": (gen.standard_normal((CRITIC_HIDDEN, n_in)) * np.sqrt(2.0 / n_in)).astype(np.float32),
        "b1": np.zeros(CRITIC_HIDDEN, np.float32),
        "v": (gen.standard_normal(CRITIC_HIDDEN) / np.sqrt(CRITIC_HIDDEN)).astype(np.float32),
        "b2": np.float32(0.0),
    }


def critic_value(critic, x):
    """The critic's value of inputs ``x`` (points)."""
    import jax.numpy as jnp

    hidden = jnp.maximum(x @ critic["A"].T + critic["b1"], 0.0)
    return (hidden @ critic["v"] + critic["b2"]) * OUTCOME_SCALE


def policy_loss(params, batch, temperature, clip, kl):
    """PPO's clipped surrogate (negated, to minimise) plus ``kl`` times KL(imitation ||
    policy), averaged over the batch's decisions: ``batch`` holds ``state`` ``[B, S]``,
    ``cands`` ``[B, MAX_CANDS, C]``, ``mask``, ``chosen`` ``[B]``, ``logp_old`` (the logged
    log-probability of the candidate played), ``adv`` (its advantage, scaled) and ``p0``
    ``[B, MAX_CANDS]`` (the imitation policy's probabilities)."""
    import jax
    import jax.numpy as jnp

    logits = scores(params, batch["state"], batch["cands"]) / temperature
    logits = jnp.where(batch["mask"], logits, -jnp.inf)
    logp = jax.nn.log_softmax(logits, axis=-1)
    lp = jnp.take_along_axis(logp, batch["chosen"][:, None], axis=-1)[:, 0]
    ratio = jnp.exp(lp - batch["logp_old"])
    adv = batch["adv"]
    surrogate = jnp.minimum(ratio * adv, jnp.clip(ratio, 1.0 - clip, 1.0 + clip) * adv)
    p0 = batch["p0"]
    div = jnp.sum(jnp.where(p0 > 0, p0 * (jnp.log(jnp.where(p0 > 0, p0, 1.0)) - logp), 0.0), -1)
    return -jnp.mean(surrogate) + kl * jnp.mean(div)


def critic_loss(critic, x, outcome):
    """Mean squared error of the critic, in units of OUTCOME_SCALE points squared."""
    import jax.numpy as jnp

    return jnp.mean(((critic_value(critic, x) - outcome) / OUTCOME_SCALE) ** 2)


def imitation_probs(parts0: dict, log: dict, rows: np.ndarray, mask: np.ndarray, temperature):
    """The imitation policy's probabilities of each decision's candidates
    (``float32[D, MAX_CANDS]``, 0 at padding): the starting weights' sampling."""
    import jax
    import jax.numpy as jnp

    p = policy_params(parts0)
    out = np.zeros(mask.shape, np.float32)
    for at in range(0, len(mask), 8192):
        part = slice(at, at + 8192)
        logits = scores(p, log["state"][part], log["cands"][rows[part]]) / temperature
        logits = jnp.where(mask[part], logits, -jnp.inf)
        out[part] = np.asarray(jax.nn.softmax(logits, axis=-1))
    return out


def fit_critic(critic, x, outcome, plan: UpdatePlan):
    """The critic after ``plan.critic_epochs`` passes of Adam over ``(x, outcome)`` (at least
    one decision), and its last pass's mean squared error over every decision (points
    squared)."""
    import jax
    import optax

    opt = optax.adam(plan.critic_lr)
    state = opt.init(critic)

    @jax.jit
    def step(critic, state, xb, yb):
        loss, grad = jax.value_and_grad(critic_loss)(critic, xb, yb)
        updates, state = opt.update(grad, state, critic)
        return optax.apply_updates(critic, updates), state, loss

    gen = np.random.default_rng(plan.seed + 1)
    squares, seen = 0.0, 0
    for _ in range(plan.critic_epochs):
        squares, seen = 0.0, 0
        order = gen.permutation(len(x))
        for b in batches(order, plan.batch):
            critic, state, loss = step(critic, state, x[b], outcome[b])
            squares, seen = squares + float(loss) * len(b), seen + len(b)
    return critic, squares / seen * OUTCOME_SCALE**2


def batches(order: np.ndarray, size: int) -> list[np.ndarray]:
    """``order`` in whole batches of ``size`` decisions; the decisions left over (fewer than
    a batch) wait for the next pass's shuffle, as bots version 10's files were fitted; a
    round of fewer decisions than a batch is one batch of them all, so it still updates."""
    if len(order) < size:
        return [order]
    return [order[at : at + size] for at in range(0, len(order) - size + 1, size)]


def update(params, critic, parts0: dict, log: dict, players: int, plan: UpdatePlan):
    """One round's update (``critic`` None: a new one): the critic fitted on the round's
    outcomes, then the policy's PPO passes with advantages ``outcome - critic`` (divided by
    their standard deviation).
    Returns the new ``params``, ``critic`` and facts (the critic's error, the advantages'
    scale, the mean KL from imitation and the ratio clipped share after the update)."""
    import jax
    import jax.numpy as jnp
    import optax

    x = critic_input(log, players)
    critic = init_critic(x.shape[1], plan.seed) if critic is None else critic
    outcome = log["outcome"].astype(np.float32)
    critic, critic_mse = fit_critic(critic, x, outcome, plan)
    adv = outcome - np.asarray(critic_value(critic, x))
    scale = float(np.std(adv)) or 1.0
    rows, mask = padded(log)
    chosen = log["meta"][:, PlayCol.chosen]
    logp_old = np.log(log["prob"][log["meta"][:, PlayCol.first] + chosen]).astype(np.float32)
    p0 = imitation_probs(parts0, log, rows, mask, plan.temperature)
    opt = optax.adam(plan.lr)
    opt_state = opt.init(params)

    @jax.jit
    def step(params, opt_state, batch):
        loss, grad = jax.value_and_grad(policy_loss)(
            params, batch, plan.temperature, plan.clip, plan.kl
        )
        updates, opt_state = opt.update(grad, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def batch_of(b):
        return {
            "state": log["state"][b],
            "cands": log["cands"][rows[b]],
            "mask": mask[b],
            "chosen": chosen[b],
            "logp_old": logp_old[b],
            "adv": (adv[b] / scale).astype(np.float32),
            "p0": p0[b],
        }

    gen = np.random.default_rng(plan.seed)
    params = {k: jnp.asarray(v) for k, v in params.items()}
    for _ in range(plan.epochs):
        order = gen.permutation(len(outcome))
        for b in batches(order, plan.batch):
            params, opt_state, _ = step(params, opt_state, batch_of(b))
    facts = {
        "decisions": len(outcome),
        "critic_rmse": float(np.sqrt(critic_mse)),
        "outcome_sd": float(np.std(outcome)),
        "advantage_sd": scale,
        **_drift(params, log, rows, mask, p0, logp_old, chosen, plan),
    }
    return {k: np.asarray(v) for k, v in params.items()}, critic, facts


def _drift(params, log, rows, mask, p0, logp_old, chosen, plan) -> dict[str, float]:
    """How far the updated policy moved on (up to 20,000 of) the round's decisions: the mean
    KL divergence from the imitation policy and the share of ratios outside the clip."""
    import jax
    import jax.numpy as jnp

    b = np.arange(min(len(chosen), 20000))
    logits = scores(params, log["state"][b], log["cands"][rows[b]]) / plan.temperature
    logp = np.asarray(jax.nn.log_softmax(jnp.where(mask[b], logits, -jnp.inf), axis=-1))
    q = p0[b]
    safe = np.where(q > 0, q, 1.0)
    kl = np.sum(np.where(q > 0, q * (np.log(safe) - np.where(mask[b], logp, 0.0)), 0.0), -1)
    ratio = np.exp(logp[b, chosen[b]] - logp_old[b])
    return {
        "kl_imitation": float(np.mean(kl)),
        "clipped": float(np.mean(np.abs(ratio - 1.0) > plan.clip)),
    }


def write(path, params, parts0: dict, players: int, facts: dict) -> None:
    """Write the fine-tuned policy as a weight file: its network parts, the starting file's
    value output (``VALUE_PARTS``, unchanged: play never reads it) when it has one, the
    player count and ``facts`` as the report."""
    value = {k: parts0[k] for k in VALUE_PARTS if k in parts0}
    report = np.array(json.dumps(facts, default=float))
    save(path, {**weight_parts(params), **value}, players=np.int64(players), report=report)


def read_parts(path, role: str = "the weight file") -> dict[str, np.ndarray]:
    """A weight file's network and value parts, a network of an earlier feature version
    widened as play reads it (:func:`~canasta_sim.players.weights.widen`: bots version 8's
    files, feature version 1, score as they play).

    Raises
    ------
    ValueError
        For a head network (:func:`~canasta_sim.players.weights.refuse_head_network`, naming
        ``role``, e.g. "the teacher", and the file), or a file that is no weight file.
    """
    refuse_head_network(str(path), role)
    with np.load(path) as z:
        parts = {k: z[k] for k in (*PARTS, *VALUE_PARTS) if k in z}
        version = int(z["feature_version"]) if "feature_version" in z else FEATURE_VERSION
    return widen(parts, version)
