"""Build the game-equity table shipped with the package (canasta_sim/data/game_equity.npz).

    python scripts/build_game_equity.py [--deals 20000] [--games 1000] [--seed 0] [--bots SPEC]

``--bots`` is the play the table describes (every side of every later deal; a kernel bot's
spec, e.g. ``expert``); the file records it and ``analyse`` names it beside P(win game). The
defaults build the shipped table (``apprentice`` play, issue 26).

Run again after a change of RULES_VERSION or BOTS_VERSION (the table's scope names both); see
canasta_sim/search/equity.py for what the table is and how it is built.
"""

import argparse
import time

from canasta_sim.players.specs import parse_bot
from canasta_sim.search.equity import BOTS, PLAYERS, build_table, save_tables


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per minimum-count pair")
    parser.add_argument("--games", type=int, default=1000, help="games per grid cell (6p: half)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default=BOTS, help=f"bot spec of every side [{BOTS}]")
    args = parser.parse_args(argv)
    try:
        bot = parse_bot(args.bots)
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    if bot.is_python:
        parser.error(f"--bots {args.bots}: a bot of the kernels, not a Python bot")
    start = time.perf_counter()
    tables = {}
    for players in PLAYERS:
        games = args.games // 2 if players == 6 else args.games
        tables[players] = build_table(players, args.deals, games, args.seed, bot.spec)
        print(f"{players} players: {tables[players].shape} grid, {games} games per cell")
    meta = {
        "deals_per_minimum_pair": args.deals,
        "games_per_cell": {p: args.games // 2 if p == 6 else args.games for p in PLAYERS},
        "seed": args.seed,
    }
    save_tables(tables, meta, bots=bot.spec)
    print(f"built in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
