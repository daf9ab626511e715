"""Measure the board's levels and put the table into docs/board.md (figure ``board-levels``).

Run: ``python scripts/board_levels.py [--deals N] [--search-deals M] [--seed S]``. Each level
(:data:`canasta_sim.board.levels.LEVELS`) plays the level below it on seat-rotated duplicate
deals at 4 players (``canasta-sim compare HIGHER LOWER --deals N --seed S``, run here through
the same Python call); a pair with a search bot plays ``--search-deals`` deals (a search
turn costs thousands of rollouts). Each level's turn time is the slowest and the mean wall
time of ``Deal.play_turn`` over the turns of ``--time-deals`` deals at 4 players with the
level in every seat, as the board plays the bots' turns: the board's levels must answer
within a second. Took 3 min 14 s on 2 shared cores (load average 5 to 6).
"""

import argparse
import time

from docs_page import DOCS, made_by, write_generated

from canasta_sim import Rules, compare
from canasta_sim.board.levels import LEVELS
from canasta_sim.game.deals import Deal

SCRIPT = "python scripts/board_levels.py"


def turn_seconds(spec: str, deals: int, seed: int) -> tuple[float, float]:
    """The slowest and the mean wall time (s) of one bot turn of ``spec`` in every seat, over
    the turns of ``deals`` deals at 4 players."""
    times = []
    rules = Rules(players=4)
    for k in range(deals):
        deal = Deal.new(rules, seed, deal=k, dealer=k % 4)
        while not deal.is_over:
            start = time.perf_counter()
            deal.play_turn(spec)
            times.append(time.perf_counter() - start)
    return max(times), sum(times) / len(times)


def table(deals: int, search_deals: int, seed: int, time_deals: int) -> str:
    lines = [
        "| level | bot spec | plays | command | points a deal against the level below [95 %] "
        "| deal win rate [95 %] | turn time: slowest, mean (ms) |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, level in enumerate(LEVELS):
        Deal.new(Rules(players=4), seed).play_turn(level.spec)  # compile outside the timing
        slowest, mean = turn_seconds(level.spec, time_deals, seed)
        cells = ["", "", ""]
        if i:
            below = LEVELS[i - 1]
            n = search_deals if level.spec.startswith("pimc") else deals
            result, _ = compare(level.spec, below.spec, deals=n, rules=Rules(players=4), seed=seed)
            r = result.iloc[0]
            cells = [
                f"`canasta-sim compare {level.spec} {below.spec} --deals {n} --players 4 "
                f"--seed {seed}`",
                f"**{r.mean_diff:+.1f} [{r.diff_low:+.1f}, {r.diff_high:+.1f}]**",
                f"{r.win_rate:.3f} [{r.win_low:.3f}, {r.win_high:.3f}]",
            ]
        lines.append(
            f"| {level.name} | `{level.spec}` | {level.description} | {' | '.join(cells)} | "
            f"{slowest * 1e3:.1f}, {mean * 1e3:.2f} |"
        )
        print(lines[-1], flush=True)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--search-deals", type=int, default=600)
    parser.add_argument("--time-deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    text = table(args.deals, args.search_deals, args.seed, args.time_deals)
    command = (
        f"{SCRIPT} --deals {args.deals} --search-deals {args.search_deals} "
        f"--time-deals {args.time_deals} --seed {args.seed}"
    )
    made = made_by(command, machine=True)
    write_generated(DOCS / "board.md", "board-levels", f"{made}\n\n{text}")


if __name__ == "__main__":
    main()
