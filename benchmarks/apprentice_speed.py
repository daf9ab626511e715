"""Speed of the learned bot beside the expert and the floor kernel, in one run: deals and
decisions per second with ``apprentice`` on every seat, with ``expert`` on every seat (the
default bots), and the floor kernel (benchmarks/floor_kernel.py), all on the same deals
(4 players by default) and the same threads, timed in paired rounds after compilation.

A decision is a seat's choice at the draw (draw or take the pile, R-20 step 1, R-30) or at
the play (melds and the discard, R-20 steps 2 and 3): two a turn. ``x_floor`` and
``x_expert`` are medians of each round's ratio to the floor's and the expert's time in that
round, which drift far less with the machine's load than the times themselves; the load
average before and after the rounds is printed with the table.

Run: ``python benchmarks/apprentice_speed.py [--deals 20000] [--repeats 5] [--threads 2]
[--players 4] [--also apprentice@10,...]``; ``--also`` times more bot specs in the same rounds
(an earlier version's files, say). Writes ``results/bench/apprentice_speed.csv`` and
``apprentice_speed.md`` (``apprentice_speed_{P}p`` at another player count than 4).
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

import numba
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import paired_seconds, write_table  # noqa: E402
from throughput import deal_call, floor_call  # noqa: E402

from canasta_sim import Rules  # noqa: E402

BOTS = ("expert", "apprentice")
FLOOR_TURNS = 60  # the floor kernel's turns per deal


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages, as ``"a, b, c"``."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per timed call")
    parser.add_argument("--repeats", type=int, default=5, help="paired rounds")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--also", default="", help="more bot specs, comma-separated")
    args = parser.parse_args(argv)
    numba.set_num_threads(args.threads)
    rules = Rules(players=args.players)
    bots = BOTS + tuple(b for b in args.also.split(",") if b)
    calls = {"floor": floor_call(rules, args.deals)}
    calls.update({bot: deal_call(rules, bot, args.deals) for bot in bots})
    turns = {"floor": float(FLOOR_TURNS)}
    for bot in bots:  # the timed calls play these deals again: same seeds, same turns
        deal_rows, _ = calls[bot]()
        turns[bot] = float(deal_rows["turns"].mean())
    before = load_average()
    times = paired_seconds(calls, args.repeats)
    after = load_average()
    rows = []
    for name, seconds in times.items():
        deals_per_s = args.deals / statistics.median(seconds)
        rows.append(
            {
                "bots": name,
                "threads": args.threads,
                "deals_per_s": round(deals_per_s),
                "turns_per_deal": turns[name],
                # the floor kernel decides nothing
                "decisions_per_s": round(2 * turns[name] * deals_per_s) if name in bots else None,
                "us_per_deal": 1e6 / deals_per_s,
                "x_floor": statistics.median(t / f for t, f in zip(seconds, times["floor"])),
                "x_expert": statistics.median(t / e for t, e in zip(seconds, times["expert"])),
            }
        )
        print(rows[-1], flush=True)
    command = "python benchmarks/apprentice_speed.py " + " ".join(argv or sys.argv[1:])
    title = (
        f"The learned bot's speed ({args.players} players, {args.threads} threads, "
        f"median of {args.repeats} paired rounds of {args.deals:,} deals; "
        f"load average {before} before, {after} after)"
    )
    frame = pd.DataFrame(rows)
    # whole numbers, with none for the floor kernel (which decides nothing)
    frame["decisions_per_s"] = [f"{x:.0f}" if x == x else "" for x in frame["decisions_per_s"]]
    name = "apprentice_speed" + ("" if args.players == 4 else f"_{args.players}p")
    print(write_table(name, frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
