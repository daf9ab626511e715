"""Measure bot strength and how deals end; writes results/strength/*.csv and strength.md, the
tables into docs/strength.md and the strength per player count into docs/bots.md.

Run: ``python scripts/strength.py [--deals 20000] [--games 2000] [--end-deals 100000]
[--count-deals 20000]`` (needs the ``bench`` extra for the Markdown table: ``pip install -e
".[bench]"``). Pairings are seat-rotated duplicate deals (:func:`canasta_sim.compare`), 4-player
partnership play in docs/strength.md; end reasons come from ``--no-records`` runs per player
count. docs/bots.md's table pairs today's ``expert`` with its earlier defaults and the
``apprentice`` with the ``expert`` at every player count (3 players: the deals rounded up to a
multiple of 3), except the pairs of :data:`LEFT_OUT`.
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
    ("apprentice", "expert"),
)
GAME_PAIRS = (("expert", "greedy"), ("apprentice", "expert"))
#: docs/bots.md: pairs per player count (``expert@3``: the 4-player defaults, so not at 4).
COUNT_PAIRS = (("expert", "expert@3"), ("expert", "expert@2"), ("apprentice", "expert"))
COUNTS = (2, 3, 4, 6)
#: (pair, players) left out of docs/bots.md's table: the same bot twice at 4 players.
LEFT_OUT = {(("expert", "expert@3"), 4)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--end-deals", type=int, default=100_000)
    parser.add_argument("--count-deals", type=int, default=20_000, help="docs/bots.md's pairs")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    command = "python scripts/strength.py " + " ".join(argv if argv is not None else sys.argv[1:])
    write_generated(
        DOCS / "bots.md",
        "bots-strength",
        made_by(command.strip()) + "\n\n" + count_table(args.count_deals, args.seed),
    )
    md = []
    rows = []
    for a, b in PAIRS:
        rows.append(pairing(a, b, args.seed, deals=args.deals))
    for a, b in GAME_PAIRS:
        rows.append(pairing(a, b, args.seed, games=args.games))
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
    write_generated(
        DOCS / "strength.md", "strength-table", made_by(command.strip()) + "\n\n" + "\n".join(md)
    )
    print("\n".join(md))


def pairing(a: str, b: str, seed: int, players: int = 4, **count) -> dict:
    """One row of :func:`canasta_sim.compare` of ``a`` against ``b`` (``deals=`` or
    ``games=``), with the opponent and the unit."""
    table, _ = compare(a, b, rules=Rules(players=players), seed=seed, records=False, **count)
    unit = "deals" if "deals" in count else "games"
    row = table.iloc[0].to_dict() | {"opponent": b, "unit": unit, "players": players}
    print(row, flush=True)
    return row


def count_table(deals: int, seed: int) -> str:
    """docs/bots.md's Markdown table: every pair of :data:`COUNT_PAIRS` at every player count
    of :data:`COUNTS` but those of :data:`LEFT_OUT`, ``deals`` deals (3 players: rounded up to
    a multiple of 3), the ``compare`` command of each row shown."""
    md = [
        "| command | players | deals | A minus B, points per deal [95 %] | A's win rate [95 %] |",
        "|---|---|---|---|---|",
    ]
    for players in COUNTS:
        n = -(-deals // 3) * 3 if players == 3 else deals
        for a, b in COUNT_PAIRS:
            if ((a, b), players) in LEFT_OUT:
                continue
            r = pairing(a, b, seed, players, deals=n)
            fair = f" (fair share {1 / 3:.3f})" if players == 3 else ""
            md.append(
                f"| `canasta-sim compare {a} {b} --deals {n} --seed {seed} --players {players}` "
                f"| {players} | {n:,} | {r['mean_diff']:+.1f} [{r['diff_low']:+.1f}, "
                f"{r['diff_high']:+.1f}] | {r['win_rate']:.3f} [{r['win_low']:.3f}, "
                f"{r['win_high']:.3f}]{fair} |"
            )
    return "\n".join(md)


if __name__ == "__main__":
    main()
