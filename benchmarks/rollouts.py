"""Rollouts: rollouts per second from mid-deal 4-player positions next to full deals per second
in the same run, the time of ``canasta_sim.analyse`` (3 candidates x 10,000 worlds) and of the
``canasta-sim analyse`` command, the variance shrink of the pairing over the positions, and the
cost of P(win the game) played out after the deal from mid-deal 3-player positions.

Run: ``python benchmarks/rollouts.py [--positions N] [--worlds W] [--repeats R]
[--turns A:B]``; writes ``results/bench/rollouts.csv`` and ``rollouts.md``. Timings alternate
the two calls they compare (A B A B ...) and report the median of the per-round ratios.
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import paired_seconds, write_table  # noqa: E402
from throughput import deal_call  # noqa: E402

from canasta_sim import Deal, InfoSet, Rules, analyse  # noqa: E402
from canasta_sim.nb.play import Seating  # noqa: E402
from canasta_sim.nb.rollout import CandidateRows, Pairs, RolloutCol, WorldCards, rollouts  # noqa: E402
from canasta_sim.players.choices import candidates  # noqa: E402
from canasta_sim.players.specs import seat_arrays, side_bots  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POSITION = ROOT / "docs" / "positions" / "take_or_draw.toml"


#: Default ``--turns``: a quarter to three quarters of a 4-player expert deal's 56 turns (the
#: middle half of the deal; ``8:23``, the range of earlier runs, gives rollouts of 42 turns).
MID_DEAL = (14, 42)


def mid_deal_positions(
    n: int, rules: Rules, discard: bool = False, turns: tuple[int, int] = MID_DEAL
) -> list[InfoSet]:
    """Information sets of the seat to play after ``turns[0]`` to ``turns[1]`` expert turns of
    deals 0, 1, ... (spread evenly over that range whatever ``n``; a deal over before its turn
    is passed over): at its draw, or (``discard``) after it drew, facing the discard."""
    first, last = turns
    out: list = []
    seed = 0
    while len(out) < n:
        deal = Deal.new(rules, 7, deal=seed, dealer=seed % rules.players)
        for _ in range(first + (last - first + 1) * len(out) // n):
            if deal.is_over:
                break
            deal.play_turn("expert")
        if not deal.is_over and discard:
            deal.draw()
        if not deal.is_over:
            out.append(deal.info_set(deal.current_player))
        seed += 1
    return out


def rollout_call(infos: list[InfoSet], worlds: int, threads: int, turns: list):
    """One call rolling out the draw candidate of every position in ``worlds`` worlds each,
    the worlds sampled in the call (as a full deal's time includes its shuffle), as a
    function of no arguments; appends the mean turns a rollout played to ``turns``."""
    rules = infos[0].rules
    r = rules.to_array()
    policies, params = seat_arrays(side_bots("expert", rules.sides), rules.players)
    jobs = []
    for info in infos:
        draw = candidates(info)[0]
        kind, plan, discard = draw.kernel_row(0)
        jobs.append(
            (
                info,
                np.array([info.public_state()]),
                np.array([kind], np.int64),
                plan[None],
                np.array([discard], np.int64),
            )
        )
    pairs = Pairs(np.arange(worlds, dtype=np.int64), np.zeros(worlds, np.int64))
    seating = Seating(policies[None], params[None])

    def call():
        played = 0
        for info, public, kind, plan, discard in jobs:
            w = info.sample_worlds(worlds, 1)
            _, out = rollouts(
                public,
                r,
                WorldCards(w.hands, w.stock, w.seeds),
                CandidateRows(kind, plan, discard),
                pairs,
                seating,
                threads,
            )
            played += int(out[:, RolloutCol.turns].sum())
        turns.append(played / (len(jobs) * worlds))

    return call


def deal_turns(rules: Rules, deals: int) -> float:
    """Mean turns of the full deals :func:`throughput.deal_call` plays."""
    deal_rows, _ = deal_call(rules, "expert", deals)()
    return float(deal_rows["turns"].mean())


def one_thread_cpu(infos: list[InfoSet], worlds: int, repeats: int) -> tuple[float, float]:
    """Median CPU seconds of this thread (``time.thread_time``: little moved by other jobs on
    the machine) per rollout (world sampled) and per full deal, both on one thread."""
    rules = infos[0].rules
    n = len(infos) * worlds
    numba.set_num_threads(1)
    calls = {"rollouts": rollout_call(infos, worlds, 1, []), "deals": deal_call(rules, "expert", n)}
    cpu: dict[str, list[float]] = {name: [] for name in calls}
    for fn in calls.values():
        fn()
    for _ in range(repeats):
        for name, fn in calls.items():
            start = time.thread_time()
            fn()
            cpu[name].append((time.thread_time() - start) / n)
    return statistics.median(cpu["rollouts"]), statistics.median(cpu["deals"])


def play_out_cost(positions: int, worlds: int) -> tuple[float, float, float]:
    """Mean over mid-deal 3-player positions (the first deal of a game) of the play-out's
    seconds per world, its deals per world, and the seconds of the same analysis without it,
    per world (the draw candidate, ``worlds`` worlds)."""
    per_world, deals, without = [], [], []
    for info in mid_deal_positions(positions, Rules(players=3)):
        played = analyse(info, ["draw"], worlds=worlds, win_game="play-out").meta
        per_world.append(played["play_out_seconds"] / worlds)
        deals.append(played["play_out_deals"])
        plain = analyse(info, ["draw"], worlds=worlds, win_game="table").meta
        without.append(plain["elapsed_seconds"] / worlds)
    return float(np.mean(per_world)), float(np.mean(deals)), float(np.mean(without))


def cli_seconds(repeats: int) -> float:
    """Median wall seconds of ``canasta-sim analyse POSITION --worlds 10000`` (warm cache)."""
    cmd = [sys.executable, "-m", "canasta_sim", "analyse", str(POSITION), "--worlds", "10000"]
    subprocess.run(cmd, check=True, capture_output=True)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=5000, help="worlds per position")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--turns",
        default=f"{MID_DEAL[0]}:{MID_DEAL[1]}",
        help="FIRST:LAST expert turns played before the positions (default: the middle half "
        "of a 4-player deal)",
    )
    args = parser.parse_args(argv)
    first, last = (int(t) for t in args.turns.split(":"))
    threads = numba.config.NUMBA_NUM_THREADS
    rules = Rules(players=4)
    infos = mid_deal_positions(args.positions, rules, turns=(first, last))
    n_rollouts = args.positions * args.worlds
    turns: list[float] = []
    calls = {
        "rollouts": rollout_call(infos, args.worlds, threads, turns),
        "deals": deal_call(rules, "expert", n_rollouts),
    }
    numba.set_num_threads(threads)
    times = paired_seconds(calls, args.repeats)
    ratio = statistics.median(
        d / r for r, d in zip(times["rollouts"], times["deals"])
    )  # rollouts per second over deals per second
    cpu_rollout, cpu_deal = one_thread_cpu(infos, args.worlds, args.repeats)
    numba.set_num_threads(threads)
    info = InfoSet.from_file(POSITION)
    analyse(info, worlds=10_000)
    analyse_s = statistics.median(
        analyse(info, worlds=10_000).meta["elapsed_seconds"] for _ in range(args.repeats)
    )
    shrinks = [
        analyse(i, worlds=2000, seed=3).meta["variance_shrink"]
        for i in mid_deal_positions(args.positions, rules, discard=True)
        if len(candidates(i)) > 1
    ]
    shrinks = [s for s in shrinks if s is not None]
    play_out_s, play_out_deals, plain_s = play_out_cost(args.positions, args.worlds)
    rows = [
        ("threads", threads, ""),
        (
            "rollouts/s (expert, 4 players, mid-deal)",
            n_rollouts / statistics.median(times["rollouts"]),
            "median of rounds",
        ),
        ("full deals/s (expert, 4 players)", n_rollouts / statistics.median(times["deals"]), ""),
        ("rollouts per full deal (paired ratio)", ratio, "median of per-round ratios"),
        ("1 thread, CPU us per rollout (world sampled)", cpu_rollout * 1e6, "thread_time"),
        ("1 thread, CPU us per full deal", cpu_deal * 1e6, ""),
        ("1 thread, rollouts per full deal (CPU)", cpu_deal / cpu_rollout, ""),
        ("expert turns before the positions, mean", np.mean([i.turn for i in infos]), ""),
        ("turns per rollout, mean", turns[-1], "from the positions to the end of the deal"),
        ("turns per full deal, mean", deal_turns(rules, n_rollouts), ""),
        ("analyse, 3 candidates x 10,000 worlds (s)", analyse_s, "in-process, compiled"),
        ("canasta-sim analyse --worlds 10000 (s)", cli_seconds(args.repeats), "wall, warm cache"),
        (
            "variance shrink of pairing, median",
            statistics.median(shrinks) if shrinks else float("nan"),
            f"discard decisions of {len(shrinks)} positions",
        ),
        ("variance shrink of pairing, max", max(shrinks) if shrinks else float("nan"), ""),
        ("3-player play-out, deals a world", play_out_deals, "mid-deal positions, first deal"),
        ("3-player play-out, us a world", play_out_s * 1e6, "P(win game), draw candidate"),
        ("3-player analyse without it, us a world", plain_s * 1e6, "the rollout and the rest"),
    ]
    frame = pd.DataFrame(rows, columns=["figure", "value", "note"])
    print(frame.to_string(index=False))
    md = write_table(
        "rollouts",
        frame,
        "Rollouts and decision analysis",
        f"python benchmarks/rollouts.py --positions {args.positions} --worlds {args.worlds} "
        f"--repeats {args.repeats} --turns {args.turns}",
    )
    print(md.read_text())


if __name__ == "__main__":
    main()
