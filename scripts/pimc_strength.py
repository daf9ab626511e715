"""Measure the search bot's strength and put the tables into docs/pimc.md and docs/strength.md.

Run: ``python scripts/pimc_strength.py [--tables duplicate,worlds,see_hidden,games]``
(default: all; needs the ``bench`` extra for pandas' Markdown tables). Each table is the
output of the ``canasta-sim`` commands it lists (run here through the same Python calls,
seed 0, classic rules, all cores), and replaces its own generated block of the pages
(``<!-- figure: pimc-TABLE -->``, and the games also into docs/strength.md), so a table can be rerun
alone. Rerun all after any change to the expert: it is pimc's rollout bot and its opponent.
The full run takes about 15 minutes on 2 cores.
"""

import argparse
import time

from docs_page import DOCS, made_by, write_generated

from canasta_sim import Rules, compare
from canasta_sim.results.intervals import wilson_interval
from canasta_sim.run.games import play_games

SCRIPT = "scripts/pimc_strength.py"


def interval(mean: float, low: float, high: float, digits: int = 1) -> str:
    return f"{mean:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


def compared(a: str, b: str, *, deals=None, games=None, players: int = 4):
    """``canasta-sim compare A B`` as a table row: command, counts, intervals, wall."""
    start = time.perf_counter()
    table, _ = compare(a, b, deals=deals, games=games, rules=Rules(players=players), seed=0)
    wall = time.perf_counter() - start
    row = table.iloc[0]
    unit, n = ("deals", deals) if games is None else ("games", games)
    command = f"canasta-sim compare {a} {b} --{unit} {n}" + (
        f" --players {players}" if players != 4 else ""
    )
    return command, row, wall, n


def duplicate() -> str:
    lines = [
        "| command | players | deals | mean diff (pimc - expert) [95 %] "
        "| deal win rate [95 %] | wall (s) | deals/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for players in (4, 2):
        command, r, wall, n = compared("pimc", "expert", deals=12000, players=players)
        lines.append(
            f"| `{command}` | {players} | {n:,} | "
            f"**{interval(r.mean_diff, r.diff_low, r.diff_high)}** | "
            f"{r.win_rate:.3f} [{r.win_low:.3f}, {r.win_high:.3f}] | {wall:.0f} | {n / wall:.0f} |"
        )
    return "\n".join(lines)


def worlds() -> str:
    lines = [
        "| command | worlds | deals | mean diff [95 %] | wall (s) | deals/s |",
        "|---|---|---|---|---|---|",
    ]
    for w in (8, 32, 128):
        bot = f"pimc:worlds={w}"
        command, r, wall, n = compared(bot, "expert", deals=3000)
        lines.append(
            f"| `{command}` | {w} | {n:,} | {interval(r.mean_diff, r.diff_low, r.diff_high)} | "
            f"{wall:.1f} | {n / wall:.1f} |"
        )
    return "\n".join(lines)


def see_hidden() -> str:
    command, r, wall, n = compared("pimc:see_hidden=1", "pimc", deals=1000)
    return "\n".join(
        [
            "| command | deals | mean diff (cheat - pimc) [95 %] | deal win rate [95 %] "
            "| wall (s) |",
            "|---|---|---|---|---|",
            f"| `{command}` | {n:,} | {interval(r.mean_diff, r.diff_low, r.diff_high)} | "
            f"{r.win_rate:.3f} [{r.win_low:.3f}, {r.win_high:.3f}] | {wall:.0f} |",
        ]
    )


def games() -> str:
    """Full games: ``canasta-sim games`` (pimc always side 0, the dealer rotating with the
    game) and ``canasta-sim compare --games`` (each shuffle also played with the sides
    swapped)."""
    start = time.perf_counter()
    run = play_games(1000, bots=["pimc", "expert"], seed=0)
    wall = time.perf_counter() - start
    t = run.totals
    low, high = wilson_interval(t.wins[0], t.games)
    frame = run.games
    assert frame is not None  # records are on by default
    diff = (frame["score_0"] - frame["score_1"]).astype(float)  # independent games
    half = 1.96 * diff.std() / len(diff) ** 0.5
    lines = [
        "| command | games | pimc game win rate [95 %] | mean diff per game [95 %] "
        "| deals per game | wall (s) |",
        "|---|---|---|---|---|---|",
        f"| `canasta-sim games --games 1000 --bots pimc,expert` | {t.games:,} | "
        f"{t.wins[0] / t.games:.3f} [{low:.3f}, {high:.3f}] | "
        f"{interval(diff.mean(), diff.mean() - half, diff.mean() + half, 0)} | "
        f"{t.deals / t.games:.2f} | {wall:.0f} |",
    ]
    command, r, wall, n = compared("pimc", "expert", games=1000)
    lines.append(
        f"| `{command}` | {n:,} | {r.win_rate:.3f} [{r.win_low:.3f}, {r.win_high:.3f}] | "
        f"{interval(r.mean_diff, r.diff_low, r.diff_high, 0)} | | {wall:.0f} |"
    )
    return "\n".join(lines)


TABLES = {"duplicate": duplicate, "worlds": worlds, "see_hidden": see_hidden, "games": games}
#: The figure blocks (page, name) each table goes into.
PAGES = {
    "duplicate": (("pimc.md", "pimc-duplicate"),),
    "worlds": (("pimc.md", "pimc-worlds"),),
    "see_hidden": (("pimc.md", "pimc-see-hidden"),),
    "games": (("pimc.md", "pimc-games"), ("strength.md", "strength-pimc-games")),
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(TABLES))
    args = parser.parse_args(argv)
    for name in args.tables.split(","):
        if name not in TABLES:
            parser.error(f"unknown table {name!r}; allowed: {', '.join(TABLES)}")
        text = TABLES[name]()
        print(text, flush=True)
        made = made_by(f"python {SCRIPT} --tables {name}", machine=True)
        for page, figure in PAGES[name]:
            write_generated(DOCS / page, figure, f"{made}\n\n{text}")


if __name__ == "__main__":
    main()
