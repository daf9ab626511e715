"""Labelled decisions on disk: shards of self-play decisions whose candidates carry pimc's
rollout values (:func:`canasta_sim.nb.labels.label_deals_nb`), written atomically as ``.npz``
files, resumable (a shard already on disk is skipped), on threads like ``simulate``.

Shard ``i`` plays deals ``i * deals .. (i + 1) * deals - 1`` of the master seed (so shards
never share a deal) under the ``i``-th of the (player count, preset) combinations, in turn;
a share of its deals start from random cumulative scores (minimum counts 50 to 120, R-64).
Shards run on threads here or as tasks on a Dask cluster (``scheduler``, as ``simulate``).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..nb.bots.features import N_CAND_FEAT, N_STATE_FEAT, feature_work
from ..nb.bots.memory import new_bot
from ..nb.bots.policies import PimcParam
from ..nb.bots.search_candidates import search_work
from ..nb.engine.rng import deal_seeds_nb, mix64_nb
from ..nb.engine.state import STATE_DTYPE
from ..nb.enums import EV_LEN, N_KINDS
from ..nb.labels import LABEL_LEN, features_of_positions_nb, label_deals_nb
from ..nb.play import run_blocks
from ..players.specs import Bot, learned_rollout, parse_bot
from ..players.weights import (
    check_players,
    default_weights_path,
    empty_weights,
    load_weights,
    weights_hash,
)
from ..run.progress import Progress
from ..run.runner import map_chunks
from ..run.seating import minimum_counts
from . import derived_seed

#: Decisions labelled at most per deal and per ``every`` (a deal has about 120 decisions).
DECISIONS_PER_DEAL = 160
#: Scores a side may start a deal from (points): below 0 to just short of the game target.
SCORE_RANGE = (-500, 4900)


@dataclass(frozen=True)
class LabelPlan:
    """What a labelling run makes (every field is written into each shard).

    Attributes
    ----------
    seed : int
        Master seed of the deals (and of the decisions sampled).
    deals : int
        Deals per shard.
    players : tuple of int
        Player counts (2, 3, 4, 6), cycled over the shards with ``presets``.
    presets : tuple of str
        Rule presets (``classic``, ``hoyle``).
    worlds : int
        Sampled worlds per labelled decision (pimc's ``worlds``).
    every : int
        About one decision in ``every`` is labelled.
    follow : int
        1: at a labelled decision the deal goes on with pimc's best candidate; 0: the
        expert's.
    scores : float
        Share of the deals started from random cumulative scores (R-64 minimum counts).
    search : str
        pimc spec of the labelling search (its ``top`` and rollout bot; ``worlds`` above wins).
        With ``rollout=apprentice`` the rollouts play the apprentice (expert iteration): its
        weights are the spec's ``weights=PATH``, else ``weights`` below, else the shipped
        file for the shard's player count (with ``rollout=apprentice@8``: version 8's
        shipped file, unless the spec gives ``weights=PATH``).
    weights : str
        Folder of the rollout apprentice's weight files, ``apprentice_{players}p.npz`` per
        player count (the previous round's; empty: the spec's or the shipped ones).
    """

    seed: int = 0
    deals: int = 20
    players: tuple[int, ...] = (4,)
    presets: tuple[str, ...] = ("classic",)
    worlds: int = 32
    every: int = 4
    follow: int = 1
    scores: float = 0.25
    search: str = "pimc"
    weights: str = ""

    def combo(self, shard: int) -> tuple[int, str]:
        """The (player count, preset) of shard ``shard``."""
        combos = [(p, r) for p in self.players for r in self.presets]
        return combos[shard % len(combos)]


def rollout_weights(plan: LabelPlan, search: Bot, players: int) -> tuple[str, np.ndarray]:
    """The weight file of the labelling search's rollout apprentice for ``players`` players
    (the spec's ``weights=PATH``, else the shipped family of its ``rollout=`` preset, else the
    file of ``plan.weights``' folder, else the shipped one) and its weight set as the kernel
    reads it (one set, index 0); ``("", zeros)`` when the rollouts play the expert (the
    weights go unread).

    Raises
    ------
    ValueError
        Naming the file when it is missing, not a weight file of this feature version, or
        fitted for another player count.
    """
    if not learned_rollout(search.policy, search.parameters.get("rollout")):
        return "", empty_weights()
    if search.weights:
        path = search.weights
        check_players(path, players)
    elif plan.weights and not search.family:
        path = str(Path(plan.weights) / f"apprentice_{players}p.npz")
    else:  # the shipped files, those of the spec's preset (rollout=apprentice@8) or today's
        path = str(default_weights_path(players, search.family))
    # a writable copy, as empty_weights() is: a read-only array is another type to numba,
    # which would compile the label kernels a second time
    return path, np.stack([load_weights(path)])


def shard_path(out: Path, shard: int) -> Path:
    return Path(out) / f"shard_{shard:05d}.npz"


def missing_shards(out, shards: int, first: int = 0) -> list[int]:
    """The shards of ``first .. shards - 1`` not yet written into the folder ``out``."""
    return [i for i in range(first, shards) if not shard_path(out, i).exists()]


def label_shard(plan: LabelPlan, shard: int) -> dict[str, np.ndarray]:
    """Play and label shard ``shard`` of ``plan``; returns its arrays (see :func:`write_shard`).

    Raises
    ------
    ValueError
        For a bad ``plan.search`` spec or preset.
    """
    players, preset = plan.combo(shard)
    rules = Rules.preset(preset, players)
    r = rules.to_array()
    search = parse_bot(plan.search)
    if search.policy.name != "pimc":
        raise ValueError(f"search={plan.search!r} is not allowed; allowed: a pimc spec")
    params = search.vector(players).astype(np.float64)
    params[PimcParam.worlds] = plan.worlds
    params[PimcParam.weight_set] = 0
    wpath, weights = rollout_weights(plan, search, players)
    first = shard * plan.deals
    deals = np.arange(first, first + plan.deals, dtype=np.int64)
    seeds = deal_seeds_nb(np.uint64(plan.seed), np.int64(first), plan.deals)
    dealers = (deals % players).astype(np.int32)
    gen = np.random.default_rng([plan.seed, shard])
    scores = gen.integers(SCORE_RANGE[0] // 10, SCORE_RANGE[1] // 10, (plan.deals, rules.sides))
    scores = scores * 10 * (gen.random((plan.deals, 1)) < plan.scores)
    scores = np.ascontiguousarray(scores, np.int32)
    minimums = minimum_counts(scores, rules)
    cap = plan.deals * DECISIONS_PER_DEAL // plan.every + 64
    dec_state = np.zeros((cap, N_STATE_FEAT), np.float32)
    dec_meta = np.zeros((cap, LABEL_LEN), np.int64)
    cand_feat = np.zeros((cap * 8, N_CAND_FEAT), np.float32)
    cand_value = np.zeros(cap * 8, np.float32)
    moves = (
        np.zeros(cap, STATE_DTYPE),
        np.zeros(cap, np.float32),
        np.zeros(cap * 8, np.int64),
        np.zeros((cap * 8, N_KINDS, 3), np.int8),
        np.zeros(cap * 8, np.int64),
    )
    sampler = np.array([mix64_nb(np.uint64(derived_seed(plan.seed, shard)))], np.uint64)
    rstates, works = search_work(2)
    fwork = feature_work(1)[0]  # the rollout apprentice's too: a label's features are copied first
    learner = (rstates[1], works[1], weights, fwork)
    nd, nc = label_deals_nb(
        np.zeros(1, STATE_DTYPE)[0],
        r,
        new_bot(),
        seeds,
        deals,
        dealers,
        minimums,
        scores,
        params,
        np.int64(plan.every),
        np.int64(plan.follow),
        sampler,
        rstates[0],
        works[0],
        fwork,
        learner,
        dec_state,
        dec_meta,
        cand_feat,
        cand_value,
        moves,
        np.zeros((0, EV_LEN), np.int32),
    )
    positions, outcome, kinds, plans, discards = moves
    return {
        "state": dec_state[:nd].copy(),
        "meta": dec_meta[:nd].copy(),
        "cands": cand_feat[:nc].copy(),
        "value": cand_value[:nc].copy(),
        "positions": positions[:nd].copy(),
        "outcome": outcome[:nd].copy(),
        "cand_kind": kinds[:nc].copy(),
        "cand_plan": plans[:nc].copy(),
        "cand_discard": discards[:nc].copy(),
        "players": np.int64(players),
        "preset": np.array(preset),
        "worlds": np.int64(plan.worlds),
        "seed": np.uint64(plan.seed),
        "shard": np.int64(shard),
        "search": np.array(search.spec),
        "rollout_weights": np.array(weights_hash(wpath) if wpath else ""),
    }


def write_shard(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write a shard's arrays as one ``.npz`` file, atomically (a temporary file in the same
    folder, then renamed): a killed run leaves whole shards or none."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        # compressed: the positions (a whole state a decision) are mostly zeros
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def make_labels(
    out,
    plan: LabelPlan,
    shards: int,
    *,
    first: int = 0,
    threads: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
) -> list[Path]:
    """Label shards ``first .. shards - 1`` of ``plan`` into the folder ``out`` on ``threads``
    threads (the kernel releases the GIL), or as tasks on a Dask ``scheduler`` (``local:N``
    or an address, as ``simulate --scheduler``; the shards are written here as they come
    back), skipping shards already written; returns the path of each of them (a shard's
    content depends only on the plan and its index, so a plan's shards may be made in several
    calls of consecutive ranges). Shows the progress of shards on stderr when ``progress``
    (:class:`~canasta_sim.run.progress.Progress`: a bar on a terminal, a line every few
    seconds in a log).

    Raises
    ------
    ValueError
        For no shard in ``first .. shards - 1``, ``first`` below 0, ``threads`` below 1, a bad
        plan (:func:`label_shard`) or scheduler.
    """
    if not 0 <= first < shards or threads < 1:
        raise ValueError(
            f"first={first}, shards={shards}, threads={threads}: allowed: 0 <= first < shards "
            "and threads 1 or more"
        )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    todo = missing_shards(out, shards, first)
    done = [shards - first - len(todo)]
    lock = threading.Lock()  # the labelling threads count the shards they write

    with Progress(shards - first, "shard", progress) as bar:

        def written() -> None:
            with lock:
                done[0] += 1
                bar.update(done[0])

        def block(b: int) -> None:
            i = todo[b]
            write_shard(shard_path(out, i), label_shard(plan, i))
            written()

        bar.update(done[0])
        if scheduler is None:
            run_blocks(block, len(todo), threads)
        else:
            with map_chunks(label_shard, ((plan, i) for i in todo), scheduler=scheduler) as (
                results,
                _,
            ):
                for (_, i), arrays in results:
                    write_shard(shard_path(out, i), arrays)
                    written()
    return [shard_path(out, i) for i in range(first, shards)]


#: What a shard keeps of each decision beside its features (shards written before have none).
MOVES = ("positions", "outcome", "cand_kind", "cand_plan", "cand_discard")


def load_labels(paths) -> dict[str, np.ndarray]:
    """The shards ``paths`` joined: ``state`` (decisions x N_STATE_FEAT), ``meta`` (decisions x
    LABEL_LEN, ``first`` made global), ``cands``, ``value``, and per decision ``players`` and
    ``preset``; with :data:`MOVES` too when every shard holds them (the positions,
    ``STATE_DTYPE``; the outcomes; the candidates' kinds, plans and discards). Shards
    labelled with an earlier feature version get today's features from their kept positions
    (:func:`refeature`).

    Raises
    ------
    ValueError
        Naming a shard whose features are of another width and that keeps no positions
        (labelled before they were kept: label it again).
    """
    keys = ["state", "meta", "cands", "value"]
    parts: dict[str, list] = {k: [] for k in [*keys, *MOVES, "players", "preset"]}
    offset = 0
    again = False  # some shard's features are of another version
    widths_now = {"state": N_STATE_FEAT, "cands": N_CAND_FEAT}
    for p in paths:
        with np.load(p) as z:
            widths = (z["state"].shape[1], z["cands"].shape[1])
            if widths != (N_STATE_FEAT, N_CAND_FEAT):
                if "positions" not in z:
                    raise ValueError(
                        f"shard {p}: {widths[0]} state and {widths[1]} candidate features and "
                        f"no kept positions; allowed: {N_STATE_FEAT} and {N_CAND_FEAT} (this "
                        "feature version's), or a shard that keeps its positions: label it again"
                    )
                again = True
            for k in [*keys, *MOVES]:
                if k in z and (k not in ("state", "cands") or z[k].shape[1] == widths_now[k]):
                    parts[k].append(z[k])
            parts["meta"][-1] = parts["meta"][-1].copy()
            parts["meta"][-1][:, 5] += offset
            parts["players"].append(np.full(len(z["meta"]), int(z["players"])))
            parts["preset"].append(np.full(len(z["meta"]), str(z["preset"])))
            offset += len(z["value"])
    n = len(parts["meta"])
    joined = {k: np.concatenate(v) for k, v in parts.items() if v and len(v) == n}
    return refeature(joined) if again else joined


def refeature(labels: dict) -> dict:
    """``labels`` (:func:`load_labels`, with :data:`MOVES`) with ``state`` and ``cands``
    computed again from the kept positions by today's feature kernels (features of a later
    version than the shards were written with).

    Raises
    ------
    ValueError
        For labels without kept positions (shards written before they were kept).
    """
    if "positions" not in labels:
        raise ValueError("these labels keep no positions (shards written before); label again")
    combos = sorted(set(zip(labels["players"].tolist(), labels["preset"].tolist())))
    rules = np.stack([Rules.preset(r, p).to_array() for p, r in combos])
    index = {c: i for i, c in enumerate(combos)}
    which = np.array([index[c] for c in zip(labels["players"], labels["preset"])], np.int64)
    work, fwork = search_work(1)[1][0], feature_work(1)[0]
    state = np.zeros((len(which), N_STATE_FEAT), np.float32)
    cands = np.zeros((len(labels["value"]), N_CAND_FEAT), np.float32)
    features_of_positions_nb(
        labels["positions"],
        rules,
        which,
        labels["cand_kind"],
        labels["cand_plan"],
        labels["cand_discard"],
        labels["meta"],
        work,
        fwork,
        state,
        cands,
    )
    return {**labels, "state": state, "cands": cands}
