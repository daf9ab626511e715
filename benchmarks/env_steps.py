"""The learning environment: masked steps per second of ``VecCanasta`` for 1, 64 and 4,096
environments, with ``random`` and ``expert`` opponents played inside the kernel.

A step is one learner action in every environment (the opponents' turns it triggers, the
autoresets, the observations and masks included); the learner picks uniformly among the legal
ids (a vectorised draw over the mask, outside the timing). Run: ``python
benchmarks/env_steps.py [--seconds S] [--threads T]``; writes ``results/bench/env_steps.csv``
and ``env_steps.md``, and the summary block of ``docs/environment.md``. With open_spiel
installed, a last row steps OpenSpiel's gin rummy (decisions only, chance outcomes not
counted) from Python for comparison. ``steps_per_cpu_s``
divides by the CPU time the process used while stepping (all threads): on a shared machine it
shows what the kernel costs when the wall clock cannot.
"""

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402

from canasta_sim.env import VecCanasta  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "environment.md"
BEGIN = "<!-- benchmark: written by benchmarks/env_steps.py -->"
END = "<!-- benchmark end -->"


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal id per row of ``mask`` (bool, (n, N_ACTIONS))."""
    return (rng.random(mask.shape) + mask).argmax(axis=1)


def measure(n_envs: int, opponents: str, threads: int, seconds: float) -> dict:
    env = VecCanasta(n_envs, seed=1, opponents=opponents, threads=threads, copy=False)
    rng = np.random.default_rng(0)
    result = env.reset()
    steps = episodes = 0
    spent = cpu = 0.0
    while spent < seconds:
        actions = masked_random(result["legal_action_mask"], rng)
        start, start_cpu = time.perf_counter(), time.process_time()
        result = env.step(actions)
        spent += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        steps += n_envs
        episodes += int(result["terminated"].sum() + result["truncated"].sum())
    return {
        "envs": n_envs,
        "opponents": opponents,
        "threads": threads,
        "steps": steps,
        "seconds": spent,
        "steps_per_s": steps / spent,
        "steps_per_cpu_s": steps / cpu,
        "episodes_per_s": episodes / spent,
    }


def openspiel_gin_rummy(seconds: float) -> dict | None:
    """OpenSpiel's gin rummy (C++, one game stepped from Python) with uniformly random legal
    actions and chance outcomes, for comparison; None when open_spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    state = game.new_initial_state()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
            episodes += 1
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.integers(len(actions))])
            steps += 1
    spent, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {
        "envs": 1,
        "opponents": "OpenSpiel gin_rummy (random, all seats)",
        "threads": 1,
        "steps": steps,
        "seconds": spent,
        "steps_per_s": steps / spent,
        "steps_per_cpu_s": steps / cpu,
        "episodes_per_s": episodes / spent,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="stepping time per row")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    VecCanasta(2, opponents="random").reset()  # load the kernels before timing
    rows = [
        measure(n, opponents, args.threads, args.seconds)
        for opponents in ("random", "expert")
        for n in (1, 64, 4096)
    ]
    other = openspiel_gin_rummy(args.seconds)
    frame = pd.DataFrame(rows + ([other] if other else []))
    command = f"python benchmarks/env_steps.py --seconds {args.seconds} --threads {args.threads}"
    md = write_table("env_steps", frame, "VecCanasta: masked steps per second", command)
    print(md.read_text())
    page = DOC.read_text()
    block = f"{BEGIN}\n\n{md.read_text()}\n{END}"
    DOC.write_text(
        re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, page, flags=re.S)
    )


if __name__ == "__main__":
    main()
