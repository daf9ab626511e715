"""Evaluating a policy against a built-in bot on seat-rotated duplicate deals (issue 27 item 6).

The pairing is ``compare``'s: every deal (board) is played once with the policy on each side,
the built-in bot on the others, and a board's value is the policy's side's score difference
averaged over those seatings, so the luck of the cards cancels within a board.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..game.notation import as_rules, check_int
from ..results.intervals import mean_interval, wilson_interval
from .vec import VecCanasta

#: A policy: observations (``int32[n, ENV_OBS_LEN]``) and legal-action masks
#: (``bool[n, N_ACTIONS]``) to action ids (``int[n]``).
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Evaluation:
    """A policy's result against a built-in bot (:func:`evaluate`).

    Attributes
    ----------
    deals : int
        Duplicate boards, each played once per side.
    score_diff, score_diff_low, score_diff_high : float
        Mean per board of the policy's side's deal score less the best other side's
        (points), averaged over the seatings, with its 95% interval.
    win_rate, win_low, win_high : float
        Fraction of the deals played in which the policy's side scored more than every other
        side, with its 95% Wilson interval.
    truncated : int
        Deals played (of ``deals`` times the sides) that ended truncated (the turn limit,
        R-47, or a turn of more than MAX_TURN_ACTIONS actions): their score difference is
        that of the unfinished deal, so many of them make the figures meaningless.
    truncated_share : float
        ``truncated`` over the deals played (0 .. 1).
    """

    deals: int
    score_diff: float
    score_diff_low: float
    score_diff_high: float
    win_rate: float
    win_low: float
    win_high: float
    truncated: int
    truncated_share: float


def evaluate(
    policy: Policy,
    opponent: str = "random",
    deals: int = 2000,
    rules=None,
    *,
    seed: int = 0,
    n_envs: int = 256,
    threads: int = 1,
) -> Evaluation:
    """Play ``policy`` against ``opponent`` on ``deals`` seat-rotated duplicate deals.

    Board ``b`` is deal ``b // n_envs`` of environment ``b % n_envs`` of a
    :class:`VecCanasta` with master seed ``seed``; for each side the same boards are played
    with the policy on every seat of that side (``team=True``) and ``opponent`` on the rest.

    Parameters
    ----------
    policy : callable
        ``policy(observations, masks) -> actions`` (see :data:`Policy`); called with every
        environment at once, it must return a legal id for each.
    opponent : str
        A kernel bot spec, as ``VecCanasta``'s ``opponents``.
    deals : int
        Boards, 1 .. 10,000,000.
    rules : Rules or str, optional
    seed : int
    n_envs : int
        Environments stepped together (at most ``deals``).
    threads : int

    Returns
    -------
    Evaluation

    Warns
    -----
    RuntimeWarning
        When any deal played ended truncated (e.g. a policy that never ends its turn), with
        their count and share.

    Raises
    ------
    ValueError
        For an argument out of range, or actions of the wrong shape.
    IllegalMove
        For an illegal action of the policy.
    """
    check_int("deals", deals, 1, 10_000_000)
    check_int("n_envs", n_envs, 1, 1_000_000)
    n = min(n_envs, deals)
    rounds = -(-deals // n)
    per_side, cut = [], []
    for side in range(as_rules(rules).sides):
        env = VecCanasta(
            n, rules, seed=seed, opponents=opponent, seat=side, team=True, threads=threads
        )
        diff, truncated = _play(env, policy, rounds, side)
        per_side.append(diff)
        cut.append(truncated)
    diffs = np.stack(per_side)  # (sides, n, rounds): board (i, k) is deal k of env i
    keep = (np.arange(rounds)[None, :] * n + np.arange(n)[:, None]) < deals
    played = deals * len(per_side)
    n_truncated = int(np.stack(cut)[:, keep].sum())
    if n_truncated:
        warnings.warn(
            f"{n_truncated} of {played} deals played ({n_truncated / played:.1%}) ended "
            f"truncated (turn limit or a turn of too many actions): the policy's score "
            f"difference is that of unfinished deals",
            RuntimeWarning,
            stacklevel=2,
        )
    board_sums = diffs.sum(axis=0)[keep].astype(np.int64)
    mean, low, high = mean_interval(int(board_sums.sum()), int((board_sums**2).sum()), deals)
    sides = diffs.shape[0]
    wins = int((diffs[:, keep] > 0).sum())
    win_low, win_high = wilson_interval(wins, deals * sides)
    return Evaluation(
        deals,
        mean / sides,
        low / sides,
        high / sides,
        wins / played,
        win_low,
        win_high,
        n_truncated,
        n_truncated / played,
    )


def _play(env: VecCanasta, policy: Policy, rounds: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The seat's reward (its side's score difference, points) in each environment's first
    ``rounds`` episodes, ``int64[n_envs, rounds]``, and whether each ended truncated,
    ``bool[n_envs, rounds]``."""
    result = env.reset()
    done = np.zeros(env.n_envs, np.int64)
    out = np.zeros((env.n_envs, rounds), np.int64)
    truncated = np.zeros((env.n_envs, rounds), np.bool_)
    while (done < rounds).any():
        actions = np.asarray(policy(result["observation"], result["legal_action_mask"]))
        result = env.step(actions)
        ended = np.flatnonzero((result["terminated"] | result["truncated"]) & (done < rounds))
        out[ended, done[ended]] = result["rewards"][ended, seat]
        truncated[ended, done[ended]] = result["truncated"][ended]
        done[ended] += 1
    return out, truncated
