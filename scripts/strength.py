"""Measure bot strength and how deals end; writes results/strength/*.csv and strength.md, and
the tables into docs/strength.md.

Run: ``python scripts/strength.py [--deals 20000] [--games 2000] [--end-deals 100000]``
(needs the ``bench`` extra for the Markdown table: ``pip install -e ".[bench]"``).
Pairings are 4-player partnership play with seat-rotated duplicate deals
(:func:`canasta_sim.compare`); end reasons come from ``--no-records`` runs per player count.
"""

import argparse
import sys
from pathlib import Path

import pandas as pd
from docs_page import DOCS, made_by, write_generated

from canasta_sim import Rules, compare, simulate

OUT = Path(__file__).resolve().parent.parent / "results" / "strength"
PAIRS = (
    ("expert", "greedy"),
    ("careful", "greedy"),
    ("greedy", "random"),
    ("expert", "careful"),
    ("expert", "expert@2"),
    ("expert", "expert@1"),
)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--end-deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    md = []
    rows = []
    for a, b in PAIRS:
        table, _ = compare(a, b, deals=args.deals, seed=args.seed)
        rows.append(table.iloc[0].to_dict() | {"opponent": b, "unit": "deals"})
        print(rows[-1], flush=True)
    table, _ = compare("expert", "greedy", games=args.games, seed=args.seed)
    rows.append(table.iloc[0].to_dict() | {"opponent": "greedy", "unit": "games"})
    print(rows[-1], flush=True)
    strength = pd.DataFrame(rows)
    strength.to_csv(OUT / "strength.csv", index=False)
    md.append("| bot | vs | unit | n | win rate [95%] | mean score diff per deal/game [95%] |")
    md.append("|---|---|---|---|---|---|")
    for r in rows:
        md.append(
            f"| {r['bot']} | {r['opponent']} | {r['unit']} | {r['n']:,} | "
            f"{r['win_rate']:.3f} [{r['win_low']:.3f}, {r['win_high']:.3f}] | "
            f"{r['mean_diff']:+.1f} [{r['diff_low']:+.1f}, {r['diff_high']:+.1f}] |"
        )
    ends = []
    for players in (2, 3, 4, 6):
        for bot in ("expert", "greedy"):
            run = simulate(
                args.end_deals,
                rules=Rules(players=players),
                bots=bot,
                seed=args.seed,
                records=False,
            )
            counts = run.aggregates.counts["end_reason"]
            ends.append(
                {
                    "players": players,
                    "bots": bot,
                    "deals": args.end_deals,
                    **{
                        k: c / args.end_deals
                        for k, c in zip(
                            ("went_out", "stock_exhausted", "last_red_three", "turn_limit"), counts
                        )
                    },
                    "turn_limit_count": int(counts[3]),
                }
            )
            print(ends[-1], flush=True)
    ends = pd.DataFrame(ends)
    ends.to_csv(OUT / "end_reasons.csv", index=False)
    md += ["", ends.to_markdown(index=False, floatfmt=".4f")]
    (OUT / "strength.md").write_text("\n".join(md) + "\n")
    command = "python scripts/strength.py " + " ".join(argv if argv is not None else sys.argv[1:])
    write_generated(
        DOCS / "strength.md", "strength-table", made_by(command.strip()) + "\n\n" + "\n".join(md)
    )
    print("\n".join(md))


if __name__ == "__main__":
    main()
