"""Cost of the search bot: decisions per second and deals per second of ``pimc`` at each
``worlds`` value, 4 players, ``pimc`` on side 0 and ``expert`` on side 1, on all cores.

Each ``worlds`` value plays the same deals (seed 1, deals ``0 .. N-1``) with
``canasta_sim.simulate`` (timed: ``deals_per_s``), then replays them one by one through
:class:`canasta_sim.Deal` (same seed and deal numbers: the same cards and the same moves,
checked against the run's scores) to count the searched decisions. With only ``expert`` and
``pimc`` at the table, the deal's random stream advances only when ``pimc`` searches (once
per search, for the worlds' seeds; the expert draws no random numbers), so its position
counts the searches of a turn; a turn's draw decision is searched when the stock is not
empty and some pickup is legal, and the rest of its searches are discard decisions.
``decisions_per_s`` is the searched decisions over the timed run's wall seconds (a search
rolls out each of its candidates in every world; the candidates are not counted, as they are
not visible outside the kernel).

Run: ``python benchmarks/pimc.py [--deals 100] [--worlds 8,32,128]``; writes
``results/bench/pimc.csv`` and ``pimc.md``.
"""

import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402

from canasta_sim import Deal, Rules, simulate  # noqa: E402
from canasta_sim.nb.engine.rng import _GOLDEN  # noqa: E402

SEED = 1
#: ``next_u64_nb`` adds ``_GOLDEN`` to the stream; this undoes one step (mod 2**64).
STEPS = pow(int(_GOLDEN), -1, 2**64)


def searches(deal: Deal, before: int) -> int:
    """Searches since the deal's random stream stood at ``before``."""
    now = int(deal.state["rng"][0])  # the stream (internal): advanced once per search
    return (now - before) * STEPS % 2**64


def count_decisions(rules: Rules, bots: list[str], deals: int) -> tuple[int, int, list[int]]:
    """Replay deals ``0 .. deals - 1`` of seed ``SEED``; returns the searched draw and discard
    decisions and every deal's side-0 score (points)."""
    draws = discards = 0
    scores = []
    for k in range(deals):
        deal = Deal.new(rules, SEED, deal=k)
        while not deal.is_over:
            searcher = deal.current_player % rules.sides == 0
            draw = searcher and deal.stock_size > 0 and deal.can_take_pile()
            before = int(deal.state["rng"][0])
            deal.play_turn(bots)
            n = searches(deal, before)
            if not searcher and n:
                raise AssertionError(f"deal {k}: the expert's turn advanced the stream")
            if n - draw not in (0, 1):
                raise AssertionError(f"deal {k}: {n} searches in one turn (draw search: {draw})")
            draws += draw
            discards += n - draw
        scores.append(deal.score()[0]["total"])
    return draws, discards, scores


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--worlds", default="8,32,128")
    args = parser.parse_args(argv)
    rules = Rules(players=4)
    rows = []
    for worlds in (int(w) for w in args.worlds.split(",")):
        bots = [f"pimc:worlds={worlds}", "expert"]
        simulate(1, rules=rules, bots=bots, seed=SEED)  # compile or load the kernels
        start = time.perf_counter()
        run = simulate(args.deals, rules=rules, bots=bots, seed=SEED)
        wall = time.perf_counter() - start
        draws, discards, scores = count_decisions(rules, bots, args.deals)
        sides = run.sides
        assert sides is not None  # records are on by default
        played = sides[sides["side"] == 0]["score"].to_numpy()
        if not np.array_equal(played, scores):
            raise AssertionError("the replayed deals differ from the timed run's")
        decisions = draws + discards
        rows.append(
            {
                "worlds": worlds,
                "deals": args.deals,
                "draw_decisions": draws,
                "discard_decisions": discards,
                "decisions_per_deal": decisions / args.deals,
                "wall_s": wall,
                "deals_per_s": args.deals / wall,
                "decisions_per_s": decisions / wall,
                "ms_per_decision": 1000 * wall / decisions,
            }
        )
        print(rows[-1], flush=True)
    frame = pd.DataFrame(rows)
    command = "python benchmarks/pimc.py " + " ".join(argv if argv is not None else sys.argv[1:])
    title = (
        f"Search bot cost: pimc (side 0) against expert, 4 players, "
        f"{numba.config.NUMBA_NUM_THREADS} threads"
    )
    print(write_table("pimc", frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
