"""Label decisions with pimc's rollouts and fit the apprentice's scorer (docs/learned.md).

Two resumable stages, each from the seed: ``label`` writes shards (skipping those on disk)
and ``fit`` reads every shard of the folder, fits the ridge scorer on the deals not held out
and reports the held-out choice accuracy beside the expert's; ``--out`` writes the weights.

    python scripts/train_apprentice.py label --dir results/labels4 --players 4 \\
        --presets classic,hoyle --shards 500 --deals 20 --worlds 32 --every 3 --threads 1
    python scripts/train_apprentice.py fit --dir results/labels4 --alpha 1e-4 \\
        --out canasta_sim/data/apprentice_4p.npz

Training needs only numpy (the ridge fit is a linear solve); nothing here is imported to play.
"""

from __future__ import annotations

import argparse
import glob
import json
import time

import numpy as np

from canasta_sim.learn import train
from canasta_sim.learn.shards import LabelPlan, load_labels, make_labels
from canasta_sim.nb.enums import LabelCol


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))


def label(args) -> None:
    plan = LabelPlan(
        seed=args.seed,
        deals=args.deals,
        players=_ints(args.players),
        presets=tuple(args.presets.split(",")),
        worlds=args.worlds,
        every=args.every,
        follow=args.follow,
        scores=args.scores,
    )
    t = time.time()
    paths = make_labels(
        args.dir, plan, args.shards, threads=args.threads, scheduler=args.scheduler or None
    )
    print(f"{len(paths)} shards in {args.dir} ({time.time() - t:.0f} s this run)")


def fit(args) -> None:
    paths = sorted(glob.glob(f"{args.dir}/shard_*.npz"))
    lab = load_labels(paths)
    tr, te = train.split(lab, args.holdout)
    if args.players:
        keep = np.isin(lab["players"], _ints(args.players))
        tr, te = tr[keep[tr]], te[keep[te]]
    t = time.time()
    w = train.fit(lab, tr, args.alpha)
    report = {
        "shards": len(paths),
        "decisions_train": int(len(tr)),
        "decisions_test": int(len(te)),
        "candidates": int(len(lab["value"])),
        "alpha": args.alpha,
        "fit_seconds": round(time.time() - t, 1),
    }
    phase = lab["meta"][:, LabelCol.phase]
    for name, idx in (("all", te), ("draw", te[phase[te] == 0]), ("play", te[phase[te] == 1])):
        for who, ww in (("apprentice", w), ("expert", None)):
            e = train.evaluate(ww, lab, idx)
            report[f"{name}_{who}"] = {k: round(float(v), 4) for k, v in e.items()}
    print(json.dumps(report, indent=1))
    if args.out:
        train.save(args.out, w, **{k: np.array(json.dumps(v)) for k, v in report.items()})
        print("wrote", args.out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="stage", required=True)
    la = sub.add_parser("label")
    la.add_argument("--dir", required=True)
    la.add_argument("--seed", type=int, default=1)
    la.add_argument("--players", default="4")
    la.add_argument("--presets", default="classic,hoyle")
    la.add_argument("--shards", type=int, default=500)
    la.add_argument("--deals", type=int, default=20)
    la.add_argument("--worlds", type=int, default=32)
    la.add_argument("--every", type=int, default=3)
    la.add_argument("--follow", type=int, default=1)
    la.add_argument("--scores", type=float, default=0.25)
    la.add_argument("--threads", type=int, default=1)
    la.add_argument("--scheduler", default="", help="Dask: local:N or tcp://HOST:8786")
    fi = sub.add_parser("fit")
    fi.add_argument("--dir", required=True)
    fi.add_argument("--players", default="")
    fi.add_argument("--alpha", type=float, default=1e-4)
    fi.add_argument("--holdout", type=int, default=5)
    fi.add_argument("--out", default="")
    args = ap.parse_args()
    (label if args.stage == "label" else fit)(args)


if __name__ == "__main__":
    main()
