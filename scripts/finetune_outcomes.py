"""Fine-tune the apprentice on real deal results (issue 41 item 3): rounds of self-play
(:mod:`canasta_sim.learn.experience`) and policy-gradient updates with a critic that sees every
hand (:mod:`canasta_sim.learn.outcomes`), from the imitation weights.

    python scripts/finetune_outcomes.py --out /work/runs/rl/a --rounds 4 --deals 10000

Round ``k`` (from 0) plays deals ``k * deals ..`` of ``--seed``, split evenly over the
``--pool`` opponents (``self``: the learner's weights of the round; ``start``: the starting
file; or a weight file), the learner sampling at ``--temperature`` points, then updates the
policy and writes ``OUT/round_K.npz`` (a weight file: ``apprentice:weights=OUT/round_K.npz``)
and the critic ``OUT/critic_K.npz``. A round whose files exist is skipped (resumable);
``OUT/settings.json`` keeps the options of the folder's rounds and a resume must give the same.
"""

import argparse
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import numpy as np  # noqa: E402

from canasta_sim.errors import missing_extra  # noqa: E402
from canasta_sim.learn import outcomes  # noqa: E402
from canasta_sim.learn.experience import SelfPlayPlan, selfplay  # noqa: E402
from canasta_sim.players.weights import (  # noqa: E402
    check_players,
    default_weights_path,
    load_weights,
)


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


def parse(argv) -> argparse.Namespace:
    """The options, every one checked (a usage error, exit code 2, before any play)."""
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add = parser.add_argument
    add(
        "--out",
        type=Path,
        required=True,
        default=argparse.SUPPRESS,
        help="folder of the rounds' files (made if missing)",
    )
    add("--start", default="", help="imitation weight file (empty: the one shipped for --players)")
    add("--players", type=int, default=4, choices=(2, 3, 4, 6), help="players at the table")
    add("--preset", default="classic", choices=("classic", "hoyle"), help="rule preset")
    add("--rounds", type=int, default=3, help="rounds to reach (done ones are skipped)")
    add("--deals", type=int, default=10000, help="deals a round, a multiple of the pool's size")
    add("--seed", type=int, default=101, help="master seed of the deals (0 or more)")
    add("--pool", nargs="+", default=["self"], help="opponents: self, start or a weight file")
    plan = outcomes.UpdatePlan()
    for f, what in HELP.items():
        kind = type(getattr(plan, f))
        add(f"--{f.replace('_', '-')}", type=kind, default=getattr(plan, f), help=what)
    args = parser.parse_args(argv)
    try:
        check(args)
    except ValueError as exc:
        parser.error(str(exc))
    return args


#: The update's options (:class:`~canasta_sim.learn.outcomes.UpdatePlan`'s fields) and help.
HELP = {
    "temperature": "the learner's sampling temperature (points, above 0)",
    "lr": "the policy's Adam learning rate (above 0)",
    "epochs": "passes of the policy over a round's decisions (1 or more)",
    "batch": "decisions a step (1 or more; the last step of a pass may have fewer)",
    "clip": "PPO's clip of the probability ratio (above 0)",
    "kl": "weight of the KL divergence from the imitation policy (0 or more)",
    "critic_lr": "the critic's Adam learning rate (above 0)",
    "critic_epochs": "the critic's passes before the policy's (1 or more)",
}


def check(args) -> None:
    """Refuse a bad option (ValueError naming it and what is allowed); fill ``--start``."""
    for name, low, strict in LIMITS:
        value = getattr(args, name.lstrip("-").replace("-", "_"))
        if not (value > low if strict else value >= low) or value != value:
            bound = f"above {low}" if strict else f"{low} or more"
            raise ValueError(f"{name} {value}: allowed: {bound}")
    if args.deals % len(args.pool):
        raise ValueError(
            f"--deals {args.deals}: allowed: a multiple of the pool's size ({len(args.pool)}), "
            "each opponent playing the same share"
        )
    if args.out.exists() and not args.out.is_dir():
        raise ValueError(f"--out {args.out}: a file; allowed: a folder, new or of these rounds")
    args.start = args.start or str(default_weights_path(args.players))
    for opt, name in [("--start", args.start)] + [("--pool", p) for p in args.pool]:
        if opt == "--pool" and name in ("self", "start"):
            continue
        try:
            load_weights(name)
            check_players(name, args.players)
        except ValueError as exc:
            also = "; allowed in --pool: self, start" if opt == "--pool" else ""
            raise ValueError(f"{opt} {name}: {exc}{also}") from None
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError as exc:
        raise ValueError(str(missing_extra("fine-tuning", "train", exc))) from None
    check_resume(args)


#: Options with a lower bound: (option, bound, whether the bound itself is refused).
LIMITS = (
    ("--rounds", 1, False),
    ("--deals", 1, False),
    ("--seed", 0, False),
    ("--temperature", 0, True),
    ("--lr", 0, True),
    ("--epochs", 1, False),
    ("--batch", 1, False),
    ("--clip", 0, True),
    ("--kl", 0, False),
    ("--critic-lr", 0, True),
    ("--critic-epochs", 1, False),
)


def settings(args) -> dict:
    """What makes a folder's rounds: a resume must give the same."""
    keep = ("start", "players", "preset", "deals", "seed", "pool", *HELP)
    return {k: str(v) if k == "start" else v for k, v in vars(args).items() if k in keep}


def check_resume(args) -> None:
    """Refuse a resume whose options differ from the folder's (``OUT/settings.json``, written
    by its first run), naming the first option that differs (ValueError)."""
    path = args.out / "settings.json"
    if not path.exists():
        return
    had = json.loads(path.read_text())
    for k, v in settings(args).items():
        if had.get(k) != v:
            opt = "--" + k.replace("_", "-")
            raise ValueError(
                f"{opt} {v}: {args.out} holds rounds of {opt} {had.get(k)}; "
                "allowed: the folder's settings, or another --out"
            )


def write_settings(args) -> None:
    """Make the folder and write its settings on its first run (atomically)."""
    path = args.out / "settings.json"
    if path.exists():
        return
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(settings(args), indent=1))
    os.replace(tmp, path)


def save_critic(path: Path, critic: dict) -> None:
    """Write the critic atomically (a temporary file, renamed): an interrupted run leaves
    no half-written file that a resume would take for a finished round."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **critic)
    os.replace(tmp, path)


def run(args) -> None:
    """Play and update the rounds not done yet, printing each one's facts as a JSON line."""
    write_settings(args)
    given = {k: v for k, v in vars(args).items() if k in outcomes.UpdatePlan.__dataclass_fields__}
    plan = outcomes.UpdatePlan(**given)
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
        save_critic(cpath, critic)
        outcomes.write(path, params, parts0, args.players, facts)
        learner = str(path)
        print(json.dumps(facts), flush=True)


def main(argv=None):
    args = parse(argv)
    try:
        run(args)
    except KeyboardInterrupt:  # the CLI's convention: 128 + SIGINT, finished rounds kept
        sys.stderr.write("Interrupted.\n")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
