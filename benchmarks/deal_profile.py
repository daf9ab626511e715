"""Where the time of a default-bot deal goes, by layers: the floor kernel (shuffle, deal, 60
trivial turns), the engine with the cheapest policies (``random``, ``greedy``, ``careful``:
every move through the checked move kernels), the expert (the default bots) in the bare chunk
kernel, and the path users call (``simulate(..., records=False)``: seeds, chunks and
aggregates). All timed in paired rounds on the same deals (4 players by default), after
compilation; per deal and per turn (a deal's turns differ by policy), and as a ratio to the
floor kernel timed in the same round.

numba links the kernels a deal calls into one machine-code function, so a sampling profiler
sees one symbol; these layers are the profile's stand-in.

Run: ``python benchmarks/deal_profile.py [--deals 20000] [--repeats 5] [--threads 1]``;
writes ``results/bench/deal_profile.csv`` and ``deal_profile.md``.
"""

import argparse
import statistics
import sys
from pathlib import Path

import numba
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import paired_seconds, write_table  # noqa: E402
from throughput import deal_call, floor_call, simulate_call  # noqa: E402

from canasta_sim import Rules, simulate  # noqa: E402

BOTS = ("random", "greedy", "careful", "expert")


def turns_per_deal(rules: Rules, bot: str, deals: int) -> float:
    """Mean turns of a deal with ``bot`` in every seat (the same seed as the timed calls)."""
    run = simulate(deals, rules=rules, bots=bot, seed=1, workers=1)
    assert run.deals is not None
    return float(run.deals["turns"].mean())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per timed call")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    numba.set_num_threads(args.threads)
    rules = Rules(players=args.players)
    calls = {"floor": floor_call(rules, args.deals)}
    calls.update({bot: deal_call(rules, bot, args.deals) for bot in BOTS})
    calls["expert simulate"] = simulate_call(rules, "expert", args.deals)
    times = paired_seconds(calls, args.repeats)
    turns = {bot: turns_per_deal(rules, bot, min(args.deals, 5_000)) for bot in BOTS}
    turns["floor"] = 60.0
    rows = []
    for name, seconds in times.items():
        bot = name.split()[0]
        per_deal = statistics.median(seconds) / args.deals * 1e6
        rows.append(
            {
                "layer": name if name != "expert simulate" else "expert, simulate path",
                "us_per_deal": per_deal,
                "turns_per_deal": turns[bot],
                "us_per_turn": per_deal / turns[bot],
                "x_floor": statistics.median(t / f for t, f in zip(seconds, times["floor"])),
            }
        )
        print(rows[-1], flush=True)
    command = "python benchmarks/deal_profile.py " + " ".join(argv or sys.argv[1:])
    title = f"Where a deal's time goes ({args.players} players, {args.threads} thread(s))"
    print(write_table("deal_profile", pd.DataFrame(rows), title, command.strip()).read_text())


if __name__ == "__main__":
    main()
