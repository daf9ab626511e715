"""Fine-tuning a player count's weight file on real deal results, the stages of ``canasta-sim
train`` after its imitation rounds (issue 41 item 3; docs/learned.md, "Learning from
outcomes"): rounds of self-play (:mod:`.experience`), each followed by a policy-gradient
update with a critic that sees every hand (:mod:`.outcomes`).

Round ``k`` (from 0) plays deals ``k * deals ..`` of the plan's seed, split evenly over the
pool's opponents in its order, the learner sampling at ``temperature`` points, updates the
policy and the critic, and writes into the count's folder ``critic_K.npz`` (the trainer's
state after the round) and then ``round_K.npz`` (the policy as a weight file:
``apprentice:weights=.../round_K.npz``), each to a temporary file renamed: a round whose two
files exist is done, and a rerun goes on from the last one done, as a run never stopped does.
"""

from __future__ import annotations

import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from ..errors import BadArgument, missing_extra
from ..players.specs import WEIGHT_FAMILIES
from ..players.weights import (
    default_weights_path,
    dropped_columns,
    load_weights,
    nonfinite_part,
)
from . import outcomes
from .experience import SelfPlayPlan, selfplay

#: XLA on one CPU thread, as bots version 10's files were fine-tuned (the other cores label or
#: play); XLA reads it once, so it is set before JAX is first imported.
XLA_FLAGS = "--xla_cpu_multi_thread_eigen=false"

#: The critic's arrays in ``critic_K.npz``; the policy's ride beside them with the prefix
#: ``policy_``, in the trainer's units (a weight file holds the output layer in points, and
#: the trainer's hundreds do not come back exactly from it).
CRITIC_PARTS = ("A", "b1", "v", "b2")
POLICY = "policy_"

#: What to do with a round's damaged file (:func:`damaged`): a round missing a file is made
#: again.
REMAKE = "delete it and run the same command again, which makes its round again"


@dataclass(frozen=True)
class TunePlan:
    """What the fine-tuning of one player count plays and how it updates.

    Attributes
    ----------
    seed : int
        Seed of the deals (round ``k``'s are deals ``k * deals ..``) and of the updates'
        batches and first critic (:class:`.outcomes.UpdatePlan`'s ``seed``).
    players : int
        Players at the table (2, 3, 4 or 6); the rules are the classic preset's.
    deals : int
        Deals a round, split over ``pool`` in shares equal give or take one
        (:func:`play_round`).
    pool : tuple of str
        The learner's opponents (:data:`~canasta_sim.learn.TUNE_POOL`), each playing its
        share of a round's deals at temperature 0; a name that plays the network of an
        earlier one is left out (:func:`distinct_pool`) and the deals split over the rest.
    temperature : float
        The learner's sampling temperature (points).
    lr : float
        The policy's Adam learning rate.
    kl : float
        Weight of the KL divergence from the starting file's policy.
    frozen : tuple of str
        Blocks of state features (:data:`~canasta_sim.players.weights.STATE_BLOCKS`' names)
        the policy and the critic do not read: set to 0 in the logged decisions, so the
        policy's weights on them stay as they start (0 in a distilled file,
        :mod:`.distil`, which then plays without counting them).
    """

    seed: int
    players: int
    deals: int
    pool: tuple[str, ...] = ("self", "start")
    temperature: float = 50.0
    lr: float = 3e-4
    kl: float = 0.1
    frozen: tuple[str, ...] = ()

    def update_plan(self) -> outcomes.UpdatePlan:
        """The update's settings: these, the rest at :class:`.outcomes.UpdatePlan`'s defaults."""
        return outcomes.UpdatePlan(
            temperature=self.temperature, lr=self.lr, kl=self.kl, seed=self.seed
        )


def need_jax(what: str = "fine-tuning on outcomes") -> None:
    """Import JAX and optax (XLA on one thread, :data:`XLA_FLAGS`, unless set already) for
    ``what`` (named in the error).

    Raises
    ------
    ModuleNotFoundError
        Naming ``what``, the optional extra ``train`` and its install line, when either is
        missing.
    """
    os.environ.setdefault("XLA_FLAGS", XLA_FLAGS)
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError as exc:
        raise missing_extra(what, "train", exc) from None


def round_files(folder, k: int) -> tuple[Path, Path]:
    """Round ``k``'s weight file and trainer state in ``folder``."""
    return Path(folder) / f"round_{k}.npz", Path(folder) / f"critic_{k}.npz"


def is_done(folder, k: int) -> bool:
    """Whether round ``k``'s two files are in ``folder`` (each is written whole or not)."""
    return all(p.exists() for p in round_files(folder, k))


def pool_file(name: str, learner: str, start: str, players: int) -> str:
    """The weight file of pool opponent ``name`` (:data:`~canasta_sim.learn.TUNE_POOL`) at
    ``players`` players."""
    if name in ("self", "start"):
        return learner if name == "self" else start
    return str(default_weights_path(players, WEIGHT_FAMILIES.get(name, "")))


def distinct_pool(plan: TunePlan, start: str) -> tuple[str, ...]:
    """The names of ``plan.pool`` that play a network of their own, in order
    (:func:`pool_twins`), so each distinct network plays one share of a round.

    Raises
    ------
    ValueError
        Naming a pool file that is not a weight file (:func:`load_weights`).
    """
    twins = pool_twins(plan, start)
    return tuple(name for name in plan.pool if name not in twins)


def pool_twins(plan: TunePlan, start: str) -> dict[str, str]:
    """The names of ``plan.pool`` left out of its rounds, each with the earlier name whose
    network it plays: a name whose weight file (:func:`pool_file`, ``start`` the
    fine-tuning's starting file) plays the same network as an earlier name's, the first
    kept (``start`` and ``apprentice`` when ``start`` is ``apprentice``'s file distilled
    unchanged, :mod:`.distil`, or kept unchanged by round 1's judge). ``self`` is never left
    out: the learner, whose network changes every round.

    Raises
    ------
    ValueError
        Naming a pool file that is not a weight file (:func:`load_weights`).
    """
    twins: dict[str, str] = {}
    nets: dict[str, np.ndarray] = {}
    for name in plan.pool:
        if name == "self":
            continue
        net = load_weights(pool_file(name, "self", start, plan.players))
        same = [other for other, seen in nets.items() if np.array_equal(net, seen)]
        if same:
            twins[name] = same[0]
        else:
            nets[name] = net
    return twins


def play_round(plan: TunePlan, k: int, learner: str, start: str) -> dict:
    """Round ``k``'s logged decisions (:func:`.experience.selfplay`), its deals split over
    the pool in order, in shares equal give or take one (the later ones the larger), and the
    logs joined, the state slots of ``plan.frozen`` 0."""
    n = len(plan.pool)
    logs = []
    for j, name in enumerate(plan.pool):
        sp = SelfPlayPlan(
            seed=plan.seed,
            players=plan.players,
            preset="classic",
            temperature=plan.temperature,
            pool=pool_file(name, learner, start, plan.players),
        )
        first, stop = j * plan.deals // n, (j + 1) * plan.deals // n
        logs.append(selfplay(learner, sp, k * plan.deals + first, stop - first))
    log = join(logs)
    log["state"][:, dropped_columns(plan.frozen)] = 0.0
    return log


def join(logs: list[dict]) -> dict:
    """Logs of several calls as one (the candidate rows of each decision renumbered)."""
    out = {k: np.concatenate([g[k] for g in logs]) for k in logs[0]}
    shift = np.cumsum([0] + [len(g["score"]) for g in logs[:-1]])
    out["meta"][:, 5] += np.repeat(shift, [len(g["meta"]) for g in logs])
    return out


def _save_state(path: Path, params: dict, critic: dict) -> None:
    """Write the trainer's state (the critic, the policy) atomically: a kill leaves no
    half-written file that a rerun would take for a finished round."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **critic, **{POLICY + k: v for k, v in params.items()})
    os.replace(tmp, path)


def _state_after(folder, k: int, start: str) -> tuple[dict, dict | None, str]:
    """The policy, the critic and the learner's weight file after round ``k`` (-1: the
    starting file, no critic yet).

    Raises
    ------
    BadArgument
        Of ``out``, naming round ``k``'s file that cannot be read.
    """
    if k < 0:
        return outcomes.policy_params(outcomes.read_parts(start, "the start")), None, start
    path, cpath = round_files(folder, k)
    try:
        with np.load(cpath) as z:
            critic = {n: z[n] for n in CRITIC_PARTS}
            params = {n[len(POLICY) :]: z[n] for n in z if n.startswith(POLICY)}
    except FileNotFoundError:  # not made: no damage
        raise
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
        raise damaged(cpath, "not the trainer's state after a round") from None
    if not _is_state(
        params, critic, outcomes.policy_params(outcomes.read_parts(start, "the start"))
    ):
        raise damaged(cpath, "not the trainer's state after a round")
    try:
        load_weights(str(path))  # the next round's learner: a damaged file named before play
    except ValueError:
        raise damaged(path, "not a round's weight file") from None
    return params, critic, str(path)


def _is_state(params: dict, critic: dict, start: dict) -> bool:
    """Whether ``params`` has the starting policy's arrays and shapes and ``critic`` the
    critic's (another ``.npz``, a round's weight file say, read as a trainer's state would
    fail deep in the update)."""
    hidden = (outcomes.CRITIC_HIDDEN,)
    return (
        params.keys() == start.keys()
        and all(np.shape(params[k]) == np.shape(start[k]) for k in start)
        and np.ndim(critic["A"]) == 2
        and np.shape(critic["A"])[0] == hidden[0]
        and np.shape(critic["b1"]) == hidden == np.shape(critic["v"])
        and np.ndim(critic["b2"]) == 0
    )


def damaged(path, what: str, remedy: str = REMAKE) -> BadArgument:
    """The error of a training folder's file that cannot be read as what it is (numpy's or
    JSON's own words about it would mislead): of ``out``, ``{path} is damaged ({what}):
    {remedy}``, ``remedy`` saying what to do (by default: a round's file, made again by a
    rerun, the same bytes, when deleted).

    Returns
    -------
    BadArgument
        Of ``out``, to raise.
    """
    return BadArgument("out", f"{path} is damaged ({what}): {remedy}")


def _check_update(plan: TunePlan, k: int, params: dict, facts: dict) -> None:
    """Refuse round ``k``'s update when it left a policy weight or the policy's KL divergence
    from the start NaN or infinite (a learning rate or KL weight too large for float32):
    such a policy scores every candidate alike, and every round after it too.

    Raises
    ------
    BadArgument
        Of ``outcome_lr``, naming the part (as a weight file's check says it) or the KL, and
        the settings.
    """
    bad = nonfinite_part(outcomes.weight_parts(params))
    if bad is None and np.isfinite(facts["kl_imitation"]):
        return
    what = bad or f"the KL divergence from the start is {facts['kl_imitation']}"
    raise BadArgument(
        "outcome_lr",
        f"round {k} on outcomes of {plan.players} players: after its update the policy's {what} "
        f"(outcome_lr={plan.lr}, outcome_kl={plan.kl}, outcome_temperature={plan.temperature}), "
        "so no file of the round is written; "
        "allowed: a smaller '--outcome-lr' or '--outcome-kl', or a larger '--outcome-temperature' "
        "(in a folder whose outcomes_*p/ hold no round yet: delete them to keep its rounds "
        "of imitation)",
    )


def tune_rounds(
    folder, plan: TunePlan, start: str, first: int, stop: int, echo: Callable[[str], None]
) -> list[dict]:
    """Play and update rounds ``first .. stop - 1`` of ``plan`` not done yet, from the
    weight file ``start`` (the count's imitation file), into ``folder``, against the pool's
    distinct networks (:func:`distinct_pool`; a round's facts name them); ``echo`` gets a
    line per round. Returns the facts of each round made (also the report of its weight
    file).

    Raises
    ------
    ModuleNotFoundError
        Without JAX or optax (:func:`need_jax`).
    BadArgument
        Of ``outcome_lr`` when a round's update makes a policy weight or its KL divergence
        from the start NaN or infinite (:func:`_check_update`); nothing of that round is
        written.
    FileNotFoundError
        When round ``first - 1`` is not done.
    ValueError
        Naming a pool file that is not a weight file (:func:`distinct_pool`).
    BadArgument
        Of ``out``, naming a file of round ``first - 1`` (or of a round done before the one
        to make) that cannot be read.
    """
    need_jax()
    plan = replace(plan, pool=distinct_pool(plan, start))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    update = plan.update_plan()
    parts0 = outcomes.read_parts(start, "the start")
    made: list[dict] = []
    for k in range(first, stop):
        if is_done(folder, k):
            continue
        if not made or made[-1]["round"] != k - 1:  # else the round before is in memory
            params, critic, learner = _state_after(folder, k - 1, start)
        t = time.time()
        log = play_round(plan, k, learner, start)
        played = time.time() - t
        params, critic, facts = outcomes.update(params, critic, parts0, log, plan.players, update)
        _check_update(plan, k, params, facts)
        facts = {
            "round": k,
            "plan": asdict(update),
            "pool": list(plan.pool),
            "seed": plan.seed,
            "deals": plan.deals,
            "start": start,
            "play_seconds": round(played, 1),
            "update_seconds": round(time.time() - t - played, 1),
            **facts,
            "mean_outcome": float(np.mean(log["outcome"])),
        }
        path, cpath = round_files(folder, k)
        _save_state(cpath, params, critic)
        outcomes.write(path, params, parts0, plan.players, facts)
        learner = str(path)
        made.append(facts)
        echo(
            f"  round {k}: {facts['decisions']:,} decisions, mean outcome "
            f"{facts['mean_outcome']:+,.0f} points, critic error {facts['critic_rmse']:,.0f}, "
            f"KL from the start {facts['kl_imitation']:.4f} (play {played:.0f} s, update "
            f"{facts['update_seconds']:.0f} s)"
        )
    return made
