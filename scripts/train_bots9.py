"""The recipe of bots version 9's weight files (issue 41): labels rolled out by version 8's
apprentice, features of version 2, a network and a value output per player count.

    python scripts/train_bots9.py --out results/train9 [--players 4] [--threads 2]

Per player count P: ``LabelPlan(seed=SEEDS[P], deals=20, players=(P,), presets=("classic",
"hoyle"), worlds=32, every=3, search="pimc:rollout=apprentice@8,top=4")`` over SHARDS[P]
shards into ``OUT/labels_Pp`` (resumable: whole shards are kept), then the network
(``fit_network``) and the value output (``fit_value``) on the deals not held out (deal % 5),
seed 0, into ``OUT/apprentice_Pp.npz`` with the held-out report. The shipped files were made
by this recipe's plans and fits on two cores (labels: 1000 shards at 4 players in 45
minutes, 600 at 2 in 21,
400 at 6 in 30; each fit 1 to 10 minutes); ``canasta-sim train`` does not run it yet.
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np

from canasta_sim.learn import network, train
from canasta_sim.learn.shards import LabelPlan, load_labels, make_labels

#: Label shards per player count (20 deals each) and their master seeds.
SHARDS = {2: 600, 3: 400, 4: 1000, 6: 400}
SEEDS = {2: 7002, 3: 7003, 4: 7001, 6: 7006}


def plan_of(players: int) -> LabelPlan:
    """The labelling plan of ``players`` players."""
    return LabelPlan(
        seed=SEEDS[players],
        deals=20,
        players=(players,),
        presets=("classic", "hoyle"),
        worlds=32,
        every=3,
        search="pimc:rollout=apprentice@8,top=4",
    )


def fit_file(out: Path, players: int) -> dict:
    """Fit the network and the value output on ``OUT/labels_Pp`` and write the weight file."""
    labels = load_labels(sorted((out / f"labels_{players}p").glob("shard_*.npz")))
    tr, te = train.split(labels)
    t = time.time()
    model = network.fit_network(labels, tr, seed=0)
    facts: dict = {"plan": repr(plan_of(players)), "decisions_train": int(len(tr))}
    facts["decisions_test"], facts["fit_seconds"] = int(len(te)), round(time.time() - t, 1)
    for who, sc in {"network": network.predict(model, labels), "expert": None}.items():
        e = train.evaluate(sc, labels, te)
        facts[who] = {"best": round(float(e["best"]), 4), "regret": round(float(e["regret"]), 2)}
    value = network.fit_value(labels, tr, seed=0)
    facts["value"] = network.value_report(value, labels, te, tr)
    parts = {**network.parts(model), **network.value_parts(value)}
    report = np.array(json.dumps(facts, default=float))
    train.save(out / f"apprentice_{players}p.npz", parts, players=np.int64(players), report=report)
    return facts


def main(argv=None):
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--out", type=Path, required=True, help="folder of labels and files")
    parser.add_argument("--players", type=int, nargs="+", default=sorted(SHARDS))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    bad = [p for p in args.players if p not in SHARDS]
    if bad:
        parser.error(f"--players {bad[0]}: allowed: {', '.join(map(str, SHARDS))}")
    if args.threads < 1:
        parser.error(f"--threads {args.threads}: allowed: 1 or more")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out}: not a folder")
    for players in args.players:
        folder = args.out / f"labels_{players}p"
        make_labels(folder, plan_of(players), SHARDS[players], threads=args.threads)
        print(json.dumps({players: fit_file(args.out, players)}, default=float))


if __name__ == "__main__":
    main()
