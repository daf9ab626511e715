"""Fine-tune the apprentice on real deal results (issue 41 item 3): rounds of self-play
(:mod:`canasta_sim.learn.experience`) and policy-gradient updates with a critic that sees every
hand (:mod:`canasta_sim.learn.outcomes`), from the imitation weights.

    python scripts/finetune_outcomes.py --out /work/runs/rl/a --rounds 4 --deals 10000

Round ``k`` (from 0) plays deals ``k * deals ..`` of ``--seed``, split evenly over the
``--pool`` opponents (``self``: the learner's weights of the round; ``start``: the starting
file; or a weight file), the learner sampling at ``--temperature`` points, then updates the
policy and writes ``OUT/round_K.npz`` (a weight file: ``apprentice:weights=OUT/round_K.npz``)
and the critic ``OUT/critic_K.npz``. A round whose files exist is skipped (resumable).
"""

import argparse
import json
import os
import time
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import numpy as np  # noqa: E402

from canasta_sim.learn import outcomes  # noqa: E402
from canasta_sim.learn.experience import SelfPlayPlan, selfplay  # noqa: E402
from canasta_sim.players.weights import default_weights_path  # noqa: E402


def pool_file(name: str, learner: str, start: str) -> str:
    """The weight file of pool opponent ``name``."""
    return {"self": learner, "start": start}.get(name, name)


def play_round(args, k: int, learner: str) -> dict:
    """Round ``k``'s logged decisions, its deals split over the pool."""
    share = args.deals // len(args.pool)
    logs = []
    for j, name in enumerate(args.pool):
        plan = SelfPlayPlan(
            seed=args.seed,
            players=args.players,
            preset=args.preset,
            temperature=args.temperature,
            pool=pool_file(name, learner, args.start),
        )
        logs.append(selfplay(learner, plan, k * args.deals + j * share, share))
    return join(logs)


def join(logs: list[dict]) -> dict:
    """Logs of several calls as one (the candidate rows renumbered)."""
    out = {k: np.concatenate([g[k] for g in logs]) for k in logs[0]}
    shift = np.cumsum([0] + [len(g["score"]) for g in logs[:-1]])
    out["meta"][:, 5] += np.repeat(shift, [len(g["meta"]) for g in logs])
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--start", default="", help="imitation weight file (default: shipped)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    parser.add_argument("--preset", default="classic", choices=("classic", "hoyle"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=10000, help="deals a round")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--pool", nargs="+", default=["self"], help="self, start or a file")
    for f in ("temperature", "lr", "kl", "clip", "critic_lr"):
        parser.add_argument(f"--{f.replace('_', '-')}", type=float, default=None)
    for f in ("epochs", "batch", "critic_epochs"):
        parser.add_argument(f"--{f.replace('_', '-')}", type=int, default=None)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.deals < len(args.pool):
        parser.error(
            f"--rounds {args.rounds}, --deals {args.deals}: allowed: 1 or more, "
            f"at least one deal per pool opponent ({len(args.pool)})"
        )
    args.start = args.start or str(default_weights_path(args.players))
    given = {k: v for k, v in vars(args).items() if k in outcomes.UpdatePlan.__dataclass_fields__}
    plan = outcomes.UpdatePlan(**{k: v for k, v in given.items() if v is not None})
    args.temperature = plan.temperature
    args.out.mkdir(parents=True, exist_ok=True)
    parts0 = outcomes.read_parts(args.start)
    params, critic = outcomes.policy_params(parts0), None
    learner = args.start
    for k in range(args.rounds):
        path, cpath = args.out / f"round_{k}.npz", args.out / f"critic_{k}.npz"
        if path.exists() and cpath.exists():
            params = outcomes.policy_params(outcomes.read_parts(path))
            with np.load(cpath) as z:
                critic = {n: z[n] for n in z}
            learner = str(path)
            continue
        t = time.time()
        log = play_round(args, k, learner)
        played = time.time() - t
        params, critic, facts = outcomes.update(params, critic, parts0, log, args.players, plan)
        facts = {
            "round": k,
            "plan": asdict(plan),
            "pool": args.pool,
            "seed": args.seed,
            "deals": args.deals,
            "start": args.start,
            "play_seconds": round(played, 1),
            "update_seconds": round(time.time() - t - played, 1),
            **facts,
            "mean_outcome": float(np.mean(log["outcome"])),
        }
        outcomes.write(path, params, parts0, args.players, facts)
        np.savez(cpath, **critic)
        learner = str(path)
        print(json.dumps(facts), flush=True)


if __name__ == "__main__":
    main()
