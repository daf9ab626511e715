"""Train a small policy against the ``random`` bot with numpy only, then evaluate it (issue 27
item 7).

Run: ``python scripts/train_against_random.py [--seed 0] [--updates 100] [--envs 128]
[--max-minutes 6] [--deals 2000] [--threads 1]``

The policy is a linear softmax over the fine-grained action ids (docs/environment.md), masked
to the legal ones: the logit of an action is ``weights @ features(observation)[action]``, 21
features per action read from the observation (its block, and for staging a natural or a
discard a few facts about the hand and the side's melds: :data:`FEATURE_NAMES`). It learns by
REINFORCE with a running-mean baseline and Adam on ``VecCanasta`` (classic rules, 4 players,
the learner playing both seats of side 0 against ``random``), the return of every action
being its deal's score difference (points). Then :func:`canasta_sim.env.evaluation.evaluate`
plays it on ``--deals`` seat-rotated duplicate deals against ``random`` and prints the mean
score difference and win rate with their 95% intervals.

The run is deterministic from ``--seed``, ``--updates`` and ``--envs`` (threads do not change
batches); ``--max-minutes`` only stops training early on a slow machine, which it reports.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from canasta_sim.env import VecCanasta
from canasta_sim.env.evaluation import evaluate
from canasta_sim.nb.actions import ACTION_LAYOUT, N_ACTIONS, ActionSlot
from canasta_sim.nb.engine.observation import OBS_LEN

# Observation offsets (docs/observation.md) of the slots the policy reads.
HAND, OWN_MELDS, STAGED = slice(16, 31), slice(163, 199), slice(OBS_LEN, OBS_LEN + 36)
BLOCKS = [f.name for f in ACTION_LAYOUT]
BLOCK_OF = np.concatenate([np.full(f.count, i) for i, f in enumerate(ACTION_LAYOUT)])
STAGE = ActionSlot.stage_natural + np.arange(12)  # meld rows black three .. ace: kinds 1 .. 12
DISCARD = ActionSlot.discard + np.arange(14)  # kinds black three .. joker: 1 .. 14
# Card points by kind: black three and 4 .. 7: 5, 8 .. K: 10, A and deuce: 20, joker: 50.
POINTS = np.array([5] * 5 + [10] * 6 + [20, 20, 50]) / 50.0
NATURAL_ROW = np.r_[np.ones(12), 0.0, 0.0]  # the discard kinds that have a meld row
# Per-action features: one per action block, then 4 for staging a natural, 5 for a discard.
FEATURE_NAMES = BLOCKS + [
    "stage: in hand",
    "stage: side's meld",
    "stage: staged",
    "stage: makes a meld",
    "discard: in hand",
    "discard: points",
    "discard: wild",
    "discard: side's meld",
    "discard: single",
]
N_FEATURES = len(FEATURE_NAMES)


def features(obs: np.ndarray) -> np.ndarray:
    """The features of every action in a batch of observations: ``float64[n, N_ACTIONS,
    N_FEATURES]`` (:data:`FEATURE_NAMES`): the action's block (one-hot); for staging a
    natural, the hand's cards of the kind, whether the side has a meld of the rank, the
    cards already staged on it and whether they make 3 with the hand's (R-60); for a
    discard, the hand's cards of the kind, its points, whether it is wild, whether the side
    has a meld of its rank and whether it is the hand's only card of the kind."""
    n, nb = obs.shape[0], len(BLOCKS)
    phi = np.zeros((n, N_ACTIONS, N_FEATURES))
    phi[:, np.arange(N_ACTIONS), BLOCK_OF] = 1.0
    hand = obs[:, HAND] / 4.0
    melds = obs[:, OWN_MELDS].reshape(n, 12, 3)[:, :, 0] > 0
    staged = obs[:, STAGED].reshape(n, 12, 3)[:, :, 0] / 4.0
    phi[:, STAGE, nb] = hand[:, 1:13]
    phi[:, STAGE, nb + 1] = melds
    phi[:, STAGE, nb + 2] = staged
    phi[:, STAGE, nb + 3] = melds | (hand[:, 1:13] + staged >= 0.75)  # 3 cards, in quarters
    phi[:, DISCARD, nb + 4] = hand[:, 1:15]
    phi[:, DISCARD, nb + 5] = POINTS
    phi[:, DISCARD[-2:], nb + 6] = 1.0
    phi[:, DISCARD, nb + 7] = np.hstack([melds, np.zeros((n, 2), bool)]) * NATURAL_ROW
    phi[:, DISCARD, nb + 8] = obs[:, HAND][:, 1:15] == 1
    return phi


def probabilities(weights: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The softmax policy over the legal ids: ``float64[n, N_ACTIONS]``, 0 where illegal."""
    logits = np.where(mask, phi @ weights, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One id per row drawn from ``p`` (inverse CDF; a row's legal ids cover it)."""
    cdf = p.cumsum(axis=1)
    u = rng.random((p.shape[0], 1)) * cdf[:, -1:]
    # u < the row's total, so the first id whose cumulative sum passes u has p > 0: legal
    return (cdf <= u).sum(axis=1)


def policy_of(weights: np.ndarray, seed: int):
    """A sampling policy ``(observations, masks) -> actions`` with its own seeded stream."""
    rng = np.random.default_rng(seed)

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return sample(probabilities(weights, features(obs), mask), rng)

    return policy


def train(
    seed: int, updates: int, n_envs: int, threads: int, max_seconds: float, lr: float = 0.05
) -> tuple:
    """REINFORCE with a baseline and Adam (step size ``lr``); returns the weights
    (``float64[N_FEATURES]``) and the mean deal reward per update (points)."""
    rng = np.random.default_rng(seed)
    weights = np.zeros(N_FEATURES)
    adam_m, adam_v = np.zeros_like(weights), np.zeros_like(weights)
    env = VecCanasta(n_envs, seed=seed, opponents="random", team=True, threads=threads)
    result = env.reset()
    trace = np.zeros((n_envs, N_FEATURES))  # per env: the sum of grad log pi in this deal
    baseline, rewards_seen = 0.0, []
    start = time.perf_counter()
    for update in range(updates):
        grad = np.zeros_like(weights)
        ended_rewards: list[float] = []
        while len(ended_rewards) < n_envs:
            phi = features(result["observation"])
            p = probabilities(weights, phi, result["legal_action_mask"])
            a = sample(p, rng)
            # grad log pi(a) of a linear softmax: the action's features less their mean under pi
            trace += phi[np.arange(n_envs), a] - np.einsum("na,naf->nf", p, phi)
            result = env.step(a)
            ended = np.flatnonzero(result["terminated"] | result["truncated"])
            for i in ended:
                reward = float(result["rewards"][i, 0]) / 1000.0  # side 0, in thousands of points
                grad += (reward - baseline) * trace[i]
                ended_rewards.append(reward)
            trace[ended] = 0.0
        mean = float(np.mean(ended_rewards))
        baseline = mean if update == 0 else 0.9 * baseline + 0.1 * mean
        rewards_seen.append(mean * 1000.0)
        weights += adam(grad / len(ended_rewards), adam_m, adam_v, update + 1, lr)
        if (update + 1) % 10 == 0:
            print(f"update {update + 1}: mean deal reward {mean * 1000:+.0f} points", flush=True)
        if time.perf_counter() - start > max_seconds:
            print(f"stopped after {update + 1} updates: the --max-minutes budget ran out")
            break
    return weights, np.array(rewards_seen)


def adam(grad: np.ndarray, m: np.ndarray, v: np.ndarray, t: int, lr: float) -> np.ndarray:
    """Adam's ascent step for ``grad``, about ``lr`` per weight (``m`` and ``v`` are updated
    in place)."""
    m *= 0.9
    m += 0.1 * grad
    v *= 0.999
    v += 0.001 * grad**2
    return lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--updates", type=int, default=100, help="policy updates")
    parser.add_argument("--envs", type=int, default=128, help="environments stepped together")
    parser.add_argument("--max-minutes", type=float, default=6.0, help="training time cap")
    parser.add_argument("--deals", type=int, default=2000, help="evaluation deals")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if min(args.updates, args.envs, args.deals) < 1 or args.max_minutes <= 0 or args.seed < 0:
        parser.error(
            f"--updates {args.updates}, --envs {args.envs}, --deals {args.deals}, --seed "
            f"{args.seed}, --max-minutes {args.max_minutes}; allowed: counts of at least 1, a "
            "seed of at least 0, minutes above 0"
        )
    start = time.perf_counter()
    weights, curve = train(args.seed, args.updates, args.envs, args.threads, args.max_minutes * 60)
    trained = time.perf_counter() - start
    k = max(1, len(curve) // 10)
    print(
        f"trained {len(curve)} updates x {args.envs} deals in {trained:.0f} s; mean deal "
        f"reward {curve[:k].mean():+.0f} (first {k}) -> {curve[-k:].mean():+.0f} (last {k})"
    )
    print("weights:", dict(zip(FEATURE_NAMES, np.round(weights, 2).tolist())))
    r = evaluate(
        policy_of(weights, args.seed + 1),
        "random",
        deals=args.deals,
        seed=args.seed + 1,
        threads=args.threads,
    )
    print(
        f"trained policy vs random over {r.deals} seat-rotated deals: score difference "
        f"{r.score_diff:+.1f} [{r.score_diff_low:+.1f}, {r.score_diff_high:+.1f}] points a "
        f"deal, win rate {r.win_rate:.3f} [{r.win_low:.3f}, {r.win_high:.3f}]"
    )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
