"""Round 3 of the 3-player apprentice (issue 26, docs/learned.md): more 3-player labels, then
a refit on every 3-player label at hand.

``label OUT``: two labelling plans of 3-player decisions (classic and hoyle, a quarter of the
deals from given scores), made in turns of ``--block`` shards each so that a run stopped at any
time holds both; resumable (whole shards on disk are skipped):

- ``OUT/a``: pimc with ``top=4`` (the apprentice's own) and its rollout expert at the
  4-player knobs, which the apprentice's candidate-generating expert keeps at every count, so
  the labelled candidates are the ones the apprentice plays (seed 31);
- ``OUT/b``: pimc with ``top=4`` and the 3-player expert of bots version 4, so the deals and
  the rollouts are those of the expert the apprentice meets (seed 32).

``r1 OUT``: the 3-player shards of round 1's 2-, 3- and 6-player labels (``canasta-sim
train``'s ``label_236`` stage of round 1, seed 2, made at bots version 3, when the expert had
the 4-player knobs at every count) into ``OUT/r1``, the same files: pimc's rollout expert at
the 4-player knobs (shards 2 and 3 of every 6, 60 of the 180).

``fit WEIGHTS FOLDER...``: fit the 3-player network (``random_state`` 1) on the
3-player decisions of the shard folders given, write ``WEIGHTS`` with the held-out report.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from canasta_sim.learn.shards import (
    LabelPlan,
    label_shard,
    load_labels,
    make_labels,
    shard_path,
    write_shard,
)
from canasta_sim.nb.bots.policies import EXPERT_PARAMS

#: The rollout expert at its 4-player defaults (the apprentice's candidate expert).
FOUR_PLAYER_KNOBS = ",".join(
    f"rollout.{p.name}={p.default:g}" for p in EXPERT_PARAMS if p.by_players
)

PLANS = {
    "a": LabelPlan(
        seed=31,
        players=(3,),
        presets=("classic", "hoyle"),
        every=3,
        search=f"pimc:top=4,{FOUR_PLAYER_KNOBS}",
    ),
    "b": LabelPlan(
        seed=32, players=(3,), presets=("classic", "hoyle"), every=3, search="pimc:top=4"
    ),
}

#: Round 1's 2-, 3- and 6-player plan (180 shards), as made at bots version 3.
ROUND1 = LabelPlan(
    seed=2,
    players=(2, 3, 6),
    presets=("classic", "hoyle"),
    every=3,
    search=f"pimc:{FOUR_PLAYER_KNOBS}",
)


def label(out: Path, shards: int, block: int, plans: str) -> None:
    for upto in range(block, shards + block, block):
        for name in plans.split(","):
            plan = PLANS[name]
            t = time.time()
            make_labels(out / name, plan, min(upto, shards), progress=False)
            print(f"{name}: {min(upto, shards)} shards ({time.time() - t:.0f} s)", flush=True)


def round1(out: Path) -> None:
    folder = out / "r1"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(180):
        if ROUND1.combo(i)[0] == 3 and not shard_path(folder, i).exists():
            write_shard(shard_path(folder, i), label_shard(ROUND1, i))


def fit(weights: Path, folders: list[Path], seed: int) -> None:
    from canasta_sim.learn import network, train

    # the folders in the order given, each in shard order: the rows' order fixes the fit
    paths = [p for f in folders for p in sorted(Path(f).glob("shard_*.npz"))]
    labels = load_labels(paths)
    tr_all, te_all = train.split(labels)
    keep = labels["players"] == 3
    tr, te = tr_all[keep[tr_all]], te_all[keep[te_all]]
    t = time.time()
    model = network.fit_network(labels, tr, seed=seed)
    facts: dict = {
        "round": 3,
        "folders": [str(f) for f in folders],
        "decisions_train": int(len(tr)),
        "decisions_test": int(len(te)),
        "fit_seconds": round(time.time() - t, 1),
        "epochs": int(model.n_iter_),
    }
    for who, sc in (("network", network.predict(model, labels)), ("expert", None)):
        e = train.evaluate(sc, labels, te)
        facts[who] = {"best": round(float(e["best"]), 4), "regret": round(float(e["regret"]), 2)}
    train.save(
        weights, network.parts(model), players=np.int64(3), report=np.array(json.dumps(facts))
    )
    print(json.dumps(facts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("label")
    lab.add_argument("out", type=Path)
    lab.add_argument("--shards", type=int, default=2000)
    lab.add_argument("--block", type=int, default=40)
    lab.add_argument("--plans", default="a,b", help="plans to make, in turns: a, b or a,b")
    sub.add_parser("r1").add_argument("out", type=Path)
    fi = sub.add_parser("fit")
    fi.add_argument("weights", type=Path)
    fi.add_argument("folders", type=Path, nargs="+")
    fi.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.cmd == "label":
        label(a.out, a.shards, a.block, a.plans)
    elif a.cmd == "r1":
        round1(a.out)
    else:
        fit(a.weights, a.folders, a.seed)


if __name__ == "__main__":
    main()
