"""Measure the causal value of a red three dealt for 2, 3, 4 and 6 players (docs/studies.md).

Usage: ``python scripts/red_three_value.py [--deals 1000000] [--games 20000] [--seed 0] [--docs]``.
Prints a Markdown table (with ``--docs`` also into its block of docs/studies.md): per player count,
the lead per red three dealt (gross and net of the red-three scores), P(win the deal) and
P(win the game) per red three dealt, and the all-red-threes bonus effect, each with its 95%
interval (:mod:`canasta_sim.results.study_stats`).
"""

from __future__ import annotations

import sys
import time

import click
from docs_page import DOCS, made_by, write_generated

from canasta_sim import Rules, simulate
from canasta_sim.results.study_stats import all_red_threes, red_three_value
from canasta_sim.run.games import game_red_three


def _ci(row, digits: int) -> str:
    return f"{row['value']:.{digits}f} [{row['ci_low']:.{digits}f}, {row['ci_high']:.{digits}f}]"


@click.command()
@click.option("--deals", type=int, default=1_000_000, show_default=True)
@click.option("--games", type=int, default=20_000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--bots", default="expert", show_default=True)
@click.option("--docs", is_flag=True, help="Also write the table into docs/studies.md.")
def main(deals: int, games: int, seed: int, bots: str, docs: bool) -> None:
    lines = [
        "| players | lead per red three (points) | net of red-three scores (points) | "
        "P(win deal) per red three | P(win game) per red three | all-red-threes step "
        "(points) | deals / games | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for players in (2, 3, 4, 6):
        start = time.perf_counter()
        rules = Rules(players=players)
        run = simulate(deals, rules=rules, bots=bots, seed=seed, records=False)
        v = red_three_value(run.aggregates, rules).set_index("key")
        g = game_red_three(games, rules=rules, bots=bots, seed=seed).value()
        game = f"{g[0]:.4f} [{g[1]:.4f}, {g[2]:.4f}]"
        top = all_red_threes(rules)
        lines.append(
            f"| {players} | {_ci(v.loc['lead'], 1)} | {_ci(v.loc['lead_net'], 1)} | "
            f"{_ci(v.loc['win'], 4)} | {game} | {top}: {_ci(v.loc['all_bonus'], 0)} | "
            f"{deals:,} / {games:,} | {time.perf_counter() - start:.0f} |"
        )
        click.echo(lines[-1], err=True)
    click.echo("\n".join(lines))
    if not docs:
        return
    command = " ".join(["python", "scripts/red_three_value.py", *sys.argv[1:]])
    text = made_by(command, machine=True) + "\n\n" + "\n".join(lines)
    write_generated(DOCS / "studies.md", "studies-red-three", text)


if __name__ == "__main__":
    main()
