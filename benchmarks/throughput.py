"""Throughput: deals per second for 2, 3, 4 and 6 players, the default bots (apprentice), the
expert and random bots, on one thread and on all cores, each next to the floor kernel
(benchmarks/floor_kernel.py): the bare chunk kernel (``kernel``) and the path users call,
``canasta_sim.simulate(..., records=False)`` (``simulate``: seeds, chunks and aggregates
included; ``x_kernel`` is its time over the kernel's).

Run: ``python benchmarks/throughput.py [--deals N] [--repeats R] [--bots B,..]
[--players P,..]``; writes ``results/bench/throughput.csv`` and ``throughput.md``.
"""

import argparse
import statistics
import sys

import numba
import numpy as np
import pandas as pd

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))

from common import paired_seconds, write_table  # noqa: E402
from floor_kernel import floor_chunk_nb  # noqa: E402

from canasta_sim import Rules, simulate  # noqa: E402
from canasta_sim.players.specs import side_bots  # noqa: E402
from canasta_sim.run.seating import Table, board_seeds, play_deals


def deal_call(rules: Rules, bot: str, deals: int):
    """One kernel call playing ``deals`` deals with ``bot`` on every side (records in arrays
    only), as a function of no arguments."""
    table = Table(rules, (tuple(side_bots(bot, rules.sides)),))
    index = np.arange(deals, dtype=np.int64)
    seeds = board_seeds(1, index)
    dealers = (index % rules.players).astype(np.int32)
    scores = np.zeros((deals, rules.sides), np.int32)  # before the deal: minimum count 50
    seatings = np.zeros(deals, np.int32)
    return lambda: play_deals(table, seeds, dealers, scores, seatings)


def simulate_call(rules: Rules, bot: str, deals: int):
    """``canasta_sim.simulate`` of ``deals`` deals keeping aggregates only, on the threads
    numba is set to (like the kernel call), as a function of no arguments."""
    return lambda: simulate(
        deals, rules=rules, bots=bot, seed=1, workers=numba.get_num_threads(), records=False
    )


def floor_call(rules: Rules, deals: int):
    return lambda: floor_chunk_nb(
        np.uint64(1), deals, rules.n_cards, rules.players, rules.cards_dealt
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per timed call")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", default="apprentice,expert,random")
    parser.add_argument("--players", default="2,3,4,6", help="player counts (default 2,3,4,6)")
    parser.add_argument(
        "--no-simulate",
        dest="simulate",
        action="store_false",
        help="time the bare kernel only, not canasta_sim.simulate(records=False)",
    )
    args = parser.parse_args(argv)
    cores = numba.config.NUMBA_NUM_THREADS
    bots = args.bots.split(",")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        rules = Rules(players=players)
        calls = {"floor": floor_call(rules, args.deals)}
        for bot in bots:
            calls[bot] = deal_call(rules, bot, args.deals)
            if args.simulate:
                calls[f"{bot} simulate"] = simulate_call(rules, bot, args.deals)
        for threads in sorted({1, cores}):
            numba.set_num_threads(threads)
            # each repeat times the floor and then every bot, so a ratio compares calls made
            # moments apart: the machine's load drifts less between them than over a run
            times = paired_seconds(calls, args.repeats)
            for name in calls:
                if name == "floor":
                    continue
                bot, _, how = name.partition(" ")
                per_deal = statistics.median(times[name]) / args.deals
                ratio = statistics.median(b / f for b, f in zip(times[name], times["floor"]))
                x_kernel = statistics.median(s / k for s, k in zip(times[name], times[bot]))
                rows.append(
                    {
                        "players": players,
                        "bots": bot,
                        "path": how or "kernel",
                        "threads": threads,
                        "deals_per_s": 1 / per_deal,
                        "us_per_deal": per_deal * 1e6,
                        "floor_us_per_deal": statistics.median(times["floor"]) / args.deals * 1e6,
                        "x_floor": ratio,
                        "x_kernel": x_kernel,
                    }
                )
                print(rows[-1], flush=True)
    frame = pd.DataFrame(rows)
    key = ["players", "bots", "path"]
    one = frame[frame.threads == 1].set_index(key)["deals_per_s"]
    allc = frame[frame.threads == cores].set_index(key)["deals_per_s"]
    frame["parallel_efficiency"] = [
        allc.loc[(p, b, h)] / one.loc[(p, b, h)] if t == cores else 1.0
        for p, b, h, t in zip(frame.players, frame.bots, frame.path, frame.threads)
    ]
    frame["deals_per_s"] = frame["deals_per_s"].round().astype(int)
    cmd = "python benchmarks/throughput.py " + " ".join(argv or sys.argv[1:])
    title = (
        f"Throughput (deals per second, after compilation, median of {args.repeats} rounds; "
        "x_floor: median of each round's ratio to the floor kernel timed in that round; "
        "x_kernel: the same for the simulate path over the bare kernel)"
    )
    print(write_table("throughput", frame, title, cmd.strip()).read_text())


if __name__ == "__main__":
    main()
