"""Training the apprentice from a seed in resumable stages (``canasta-sim train``).

Round ``k`` (1, 2, ...) has three stages, each writing into ``out/round_k/``:

- ``label_4p``: 4-player labelled decisions (both presets) into ``labels_4p/``;
- ``label_236``: 2-, 3- and 6-player ones into ``labels_236/``;
- ``fit``: a network per player count (:mod:`.network`) on the labels of rounds ``1 .. k``
  (the deals not held out), into ``weights/apprentice_{players}p.npz``, with the held-out
  figures of the network, the linear baseline (:mod:`.train`) and the expert in
  ``fit.json``.

Round 1's labels roll out the expert (pimc's own search); round ``k`` > 1 rolls out the
apprentice with round ``k - 1``'s weights (expert iteration). A stage done writes its marker
``STAGE.done`` (atomically) and is skipped on a later run; a labelling stage killed midway
keeps its whole shards and makes only the missing ones (:func:`.shards.make_labels`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..errors import BadArgument
from . import PLAN_LEAST
from .shards import LabelPlan, load_labels, make_labels

#: The file of a training folder that records its plan (:class:`TrainPlan`'s fields).
PLAN_FILE = "plan.json"

#: The labelling stages: name, folder of the shards, player counts.
LABEL_STAGES = (("label_4p", "labels_4p", (4,)), ("label_236", "labels_236", (2, 3, 6)))


@dataclass(frozen=True)
class TrainPlan:
    """What ``canasta-sim train`` makes.

    Attributes
    ----------
    seed : int
        Master seed: round ``k``'s 4-player labels use seed ``seed + 2 (k - 1)``, its 2-, 3-
        and 6-player labels ``seed + 2 (k - 1) + 1``, the network fits ``seed``.
    rounds : int
        Rounds of labelling and fitting (1: expert rollouts only).
    shards : int
        4-player shards per round (at least 2: one per preset).
    shards_other : int
        2-, 3- and 6-player shards per round (at least 6: one per player count and preset).
    deals : int
        Deals per shard.
    worlds : int
        Sampled worlds per labelled decision.
    every : int
        About one decision in ``every`` is labelled.
    """

    seed: int = 1
    rounds: int = 2
    shards: int = 500
    shards_other: int = 180
    deals: int = 20
    worlds: int = 32
    every: int = 3

    def __post_init__(self):
        for name, low in PLAN_LEAST.items():
            if getattr(self, name) < low:
                raise BadArgument(
                    name, f"{name}={getattr(self, name)} is not allowed; allowed: {low} or more"
                )

    def label_plan(self, out: Path, k: int, group: int) -> tuple[LabelPlan, int]:
        """The labelling plan of round ``k``'s stage ``group`` (0: 4 players, 1: 2, 3, 6) and
        its shard count."""
        previous = weights_dir(out, k - 1) if k > 1 else ""
        plan = LabelPlan(
            seed=self.seed + 2 * (k - 1) + group,
            deals=self.deals,
            players=LABEL_STAGES[group][2],
            presets=("classic", "hoyle"),
            worlds=self.worlds,
            every=self.every,
            search="pimc:rollout=apprentice" if k > 1 else "pimc",
            weights=str(previous),
        )
        return plan, self.shards if group == 0 else self.shards_other


def round_dir(out, k: int) -> Path:
    return Path(out) / f"round_{k}"


def weights_dir(out, k: int) -> Path:
    """Where round ``k`` writes its weight files (``apprentice_{players}p.npz``)."""
    return round_dir(out, k) / "weights"


def _write_marker(path: Path, facts: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(facts, indent=1))
    os.replace(tmp, path)


def _check_plan(out: Path, facts: dict) -> None:
    """Refuse to resume the folder ``out`` with other options than it was made with (its
    ``plan.json``, or a stage marker of a folder made before it) but ``rounds``, which may
    grow; records ``facts`` (the plan) in ``plan.json`` on the way.

    Raises
    ------
    BadArgument
        Naming the first option whose value differs from the folder's.
    """
    path = out / PLAN_FILE
    if path.exists():
        before = json.loads(path.read_text())
    else:
        markers = sorted(out.glob("round_*/*.done"))
        before = json.loads(markers[0].read_text()) if markers else {}
    for name, value in facts.items():
        if name != "rounds" and name in before and before[name] != value:
            raise BadArgument(
                name,
                f"{name}={value}, but the folder {out} was made with {name}={before[name]}: "
                f"resume it with {before[name]}, or start over in another folder (--out)",
            )
    out.mkdir(parents=True, exist_ok=True)
    _write_marker(path, facts)


def fit_round(out, k: int, seed: int, players=(2, 3, 4, 6), baseline: bool = True) -> dict:
    """Fit the weight files of round ``k`` for ``players`` on the labels of rounds
    ``1 .. k``; returns the held-out report (per player count: decisions, and
    ``best``/``regret`` of the network, the linear baseline (left out without ``baseline``)
    and the expert, :func:`.train.evaluate`)."""
    from . import network, train

    report: dict = {}
    for _, folder, stage_counts in LABEL_STAGES:
        counts = [p for p in stage_counts if p in players]
        if not counts:
            continue
        folders = [round_dir(out, r) / folder for r in range(1, k + 1)]
        labels = load_labels(sorted(p for f in folders for p in f.glob("shard_*.npz")))
        tr_all, te_all = train.split(labels)
        for count in counts:
            keep = labels["players"] == count
            tr, te = tr_all[keep[tr_all]], te_all[keep[te_all]]
            t = time.time()
            model = network.fit_network(labels, tr, seed=seed)
            seconds = time.time() - t
            facts: dict = {
                "round": k,
                "decisions_train": int(len(tr)),
                "decisions_test": int(len(te)),
                "fit_seconds": round(seconds, 1),
                "epochs": int(model.n_iter_),
            }
            models = {"network": network.predict(model, labels), "expert": None}
            if baseline:
                models["linear"] = train.scores(train.fit(labels, tr, alpha=1e-4), labels)
            for who, sc in models.items():
                e = train.evaluate(sc, labels, te)
                facts[who] = {
                    "best": round(float(e["best"]), 4),
                    "regret": round(float(e["regret"]), 2),
                }
            path = weights_dir(out, k) / f"apprentice_{count}p.npz"
            train.save(
                path,
                network.parts(model),
                players=np.int64(count),
                report=np.array(json.dumps(facts)),
            )
            report[count] = facts
    return report


def run_training(
    out,
    plan: TrainPlan,
    *,
    threads: int = 1,
    scheduler: str | None = None,
    progress: bool = True,
    echo: Callable[[str], None] = print,
) -> Path:
    """Run (or resume) every stage of ``plan`` into the folder ``out``; returns the folder of
    the last round's weight files. ``threads`` and ``scheduler`` are the labelling's
    (:func:`.shards.make_labels`); ``echo`` gets one line per stage.

    Raises
    ------
    ValueError
        For a bad plan, ``threads`` below 1 or a bad scheduler.
    BadArgument
        For a folder made with another plan (``rounds`` may differ).
    KeyboardInterrupt
        For Ctrl-C; the stage it stops has no marker, so a rerun does it again.
    """
    out = Path(out)
    facts = asdict(plan)
    _check_plan(out, facts)
    for k in range(1, plan.rounds + 1):
        here = round_dir(out, k)
        here.mkdir(parents=True, exist_ok=True)
        for group, (name, folder, _) in enumerate(LABEL_STAGES):
            marker = here / f"{name}.done"
            if marker.exists():
                echo(f"round {k} {name}: done before")
                continue
            lplan, n = plan.label_plan(out, k, group)
            echo(f"round {k} {name}: {n} shards, seed {lplan.seed}, {lplan.search}")
            t = time.time()
            make_labels(
                here / folder, lplan, n, threads=threads, scheduler=scheduler, progress=progress
            )
            _write_marker(marker, {**facts, "plan": asdict(lplan), "seconds": time.time() - t})
        marker = here / "fit.done"
        if marker.exists():
            echo(f"round {k} fit: done before")
            continue
        echo(f"round {k} fit")
        t = time.time()
        report = fit_round(out, k, plan.seed)
        (here / "fit.json").write_text(json.dumps(report, indent=1))
        _write_marker(marker, {**facts, "seconds": time.time() - t})
    return weights_dir(out, plan.rounds)
