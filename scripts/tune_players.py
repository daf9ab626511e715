"""Tune the expert's defaults at 2, 3 and 6 players and check them on an untuned seed; writes
results/tune_players/*.csv and the tables of docs/tune.md.

Run: ``python scripts/tune_players.py tune [--players 2 3 6]`` (the search, on the tuning
seeds), then ``python scripts/tune_players.py check`` (the untuned seed: today's defaults,
:data:`~canasta_sim.nb.bots.policies.EXPERT_BY_PLAYERS`, against bots version 3's expert,
``expert@3``, and a one- and two-knob table around them), then
``python scripts/tune_players.py docs`` (the tables of docs/tune.md from the CSV files).

The search is a coordinate search on seat-rotated duplicate deals (:func:`canasta_sim.compare`,
classic rules, one thread): from ``expert@3`` (the defaults tuned at 4 players), each round
plays every value of :data:`GRID` one knob at a time against the round's centre on the first
tuning seed, then the best value of each of the best :data:`PAIR_KNOBS` knobs and every pair of
them on the second tuning seed; the setting best on the second seed (over both seeds for single
knobs) becomes the next centre when it gains more than :data:`MIN_GAIN` points a deal. Each
comparison's difference is the candidate's side minus the centre's, points a deal, with its
95% interval.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import pandas as pd
from docs_page import DOCS, made_by, write_generated

from canasta_sim import Rules, compare
from canasta_sim.nb.bots.policies import EXPERT_BY_PLAYERS
from canasta_sim.players.specs import PRESETS

OUT = Path(__file__).resolve().parent.parent / "results" / "tune_players"
#: Values tried per knob (the expert's parameters, docs/bots.md).
GRID: dict[str, tuple[float, ...]] = {
    "pile_threshold": (2, 3, 4, 5, 6, 7, 8, 10),
    "meld_keep": (8, 12, 20, 30, 53),
    "hold_wilds": (0, 1),
    "freeze_risk": (0, 0.263, 1, 2, 4, 8),
    "safety": (30, 60, 90.82, 150, 250),
    "block_at": (0, 10, 20, 30, 40, 50),
    "out_lead": (-1000, 0, 1000, 1958, 3000, 5000),
    "natural_wait": (5, 6, 7),
    "wild_factor": (0, 1, 2, 4),
    "meld_pile": (0, 3, 6, 10),
    "initial_cards": (1, 2, 3, 4, 6, 100),
}
BASE = "expert@3"
PAIR_KNOBS = 5
MIN_GAIN = 30.0
ROUNDS = 5
TUNING_SEEDS = (101, 102)
CHECK_SEED = 909
COMMAND = (
    "python scripts/tune_players.py tune && python scripts/tune_players.py check && "
    "python scripts/tune_players.py docs"
)


def deals_for(players: int, deals: int) -> int:
    """``deals`` rounded up to a multiple of the sides (3 players: 3 sides)."""
    sides = Rules(players=players).sides
    return -(-deals // sides) * sides


def spec(values: dict[str, float]) -> str:
    """The spec of the base expert with ``values`` set (parameters equal to the base's left
    out)."""
    changed = {k: v for k, v in values.items() if PRESETS[BASE][k] != v}
    items = ",".join(f"{k}={v:g}" for k, v in sorted(changed.items()))
    return f"{BASE}:{items}" if items else BASE


def duel(a: str, b: str, players: int, deals: int, seed: int) -> tuple[float, float, float]:
    """A's difference against B, points a deal, with its 95% interval."""
    frame, _ = compare(
        a,
        b,
        deals=deals_for(players, deals),
        rules=Rules(players=players),
        seed=seed,
        workers=1,
        records=False,
    )
    row = frame.iloc[0]
    return float(row["mean_diff"]), float(row["diff_low"]), float(row["diff_high"])


def row(players, stage, seed, centre, change, deals):
    """One measured change: ``centre`` updated by ``change`` against ``centre``."""
    a = spec({**centre, **change})
    diff, low, high = duel(a, spec(centre), players, deals, seed)
    out = {
        "players": players,
        "stage": stage,
        "seed": seed,
        "centre": spec(centre),
        "change": ",".join(f"{k}={v:g}" for k, v in change.items()),
        "spec": a,
        "deals": deals_for(players, deals),
        "diff": diff,
        "low": low,
        "high": high,
    }
    print(out, flush=True)
    return out


def one_knob(players, stage, seed, centre, deals):
    """Every grid value of every knob but the centre's own, against the centre."""
    return [
        row(players, stage, seed, centre, {k: v}, deals)
        for k, values in GRID.items()
        for v in values
        if v != centre[k]
    ]


def tune(players: int, deals: int) -> pd.DataFrame:
    """The coordinate search at ``players`` (module docstring); rows of every comparison."""
    centre = dict(PRESETS[BASE])
    rows = []
    for r in range(ROUNDS):
        singles = pd.DataFrame(
            one_knob(players, f"round {r + 1} one knob", TUNING_SEEDS[0], centre, deals)
        )
        rows += singles.to_dict("records")
        best = singles.sort_values("diff", ascending=False).drop_duplicates("change")
        best["knob"] = best["change"].str.partition("=")[0]
        best = best.drop_duplicates("knob").head(PAIR_KNOBS)
        best = best[best["diff"] > 0]
        changes = [{c["knob"]: float(c["change"].partition("=")[2])} for _, c in best.iterrows()]
        tried = changes + [{**x, **y} for x, y in itertools.combinations(changes, 2)]
        second = [
            row(players, f"round {r + 1} best and pairs", TUNING_SEEDS[1], centre, c, deals)
            for c in tried
        ]
        rows += second
        first = {s["change"]: s["diff"] for s in singles.to_dict("records")}
        # single knobs are judged over both seeds, pairs on the second seed (their only one)
        score = [
            (s["diff"] + first[s["change"]]) / 2 if s["change"] in first else s["diff"]
            for s in second
        ]
        if not score or max(score) <= MIN_GAIN:
            break
        centre = {**centre, **tried[max(range(len(tried)), key=score.__getitem__)]}
    print(f"{players} players: {spec(centre)}", flush=True)
    return pd.DataFrame(rows)


def check(players: int, deals: int) -> pd.DataFrame:
    """On the untuned seed: today's defaults at ``players`` against the base, then every grid
    value one knob at a time around them, and every pair of the best value of each knob."""
    new = EXPERT_BY_PLAYERS[players]
    centre = {**PRESETS[BASE], **new}
    rows = [row(players, "new against old", CHECK_SEED, dict(PRESETS[BASE]), new, deals)]
    singles = one_knob(players, "one knob", CHECK_SEED, centre, deals)
    rows += singles
    best: dict[str, dict] = {}
    for s in singles:
        knob = s["change"].partition("=")[0]
        if knob not in best or s["diff"] > best[knob]["diff"]:
            best[knob] = s
    changes = [{k: float(b["change"].partition("=")[2])} for k, b in best.items()]
    rows += [
        row(players, "two knobs", CHECK_SEED, centre, {**x, **y}, deals)
        for x, y in itertools.combinations(changes, 2)
    ]
    return pd.DataFrame(rows)


def _interval(r) -> str:
    return f"{r['diff']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}]"


def _table(frame: pd.DataFrame, columns: dict[str, str]) -> list[str]:
    """A Markdown table of ``frame``'s rows: ``columns`` maps a field (or ``diff``: the
    difference with its interval) to its heading."""
    lines = ["| " + " | ".join(columns.values()) + " |", "|" + "---|" * len(columns)]
    for _, r in frame.iterrows():
        cells = [_interval(r) if c == "diff" else f"{r[c]}" for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def docs(players: list[int], top: int = 5) -> str:
    """The Markdown of docs/tune.md's block: the chosen settings, the search's path and the
    check on the untuned seed, from the CSV files of ``tune`` and ``check``."""
    heading = {"change": "change", "diff": "difference, points a deal [95%]", "deals": "deals"}
    chosen = []
    out: list[str] = []
    for n in players:
        tuned = pd.read_csv(OUT / f"tune_{n}p.csv", keep_default_na=False)
        checked = pd.read_csv(OUT / f"check_{n}p.csv", keep_default_na=False)
        new = checked[checked["stage"] == "new against old"].iloc[0]
        chosen.append(
            {
                "players": n,
                "setting": f"`{new['change']}`",
                "diff": new["diff"],
                "low": new["low"],
                "high": new["high"],
                "deals": new["deals"],
            }
        )
        out += [
            f"### {n} players",
            "",
            "The search: each round's best changes and pairs "
            f"(seed {TUNING_SEEDS[1]}; the round's one-knob pass on seed "
            f"{TUNING_SEEDS[0]} chose them), against the round's centre:",
            "",
        ]
        second = tuned[tuned["stage"].str.endswith("best and pairs")]
        out += _table(second, {"stage": "round", "centre": "centre", **heading})
        one = checked[checked["stage"] == "one knob"].sort_values("diff", ascending=False)
        two = checked[checked["stage"] == "two knobs"].sort_values("diff", ascending=False)
        out += [
            "",
            f"The check on seed {CHECK_SEED} around `{new['spec']}`: the best {top} of "
            f"{len(one)} one-knob changes and of {len(two)} two-knob changes (every pair of "
            f"the best value of each knob); the largest gains {one['diff'].max():+.1f} and "
            f"{two['diff'].max():+.1f} points a deal:",
            "",
        ]
        out += _table(pd.concat([one.head(top), two.head(top)]), heading)
        out.append("")
    head = [
        "Chosen settings (as changes to the 4-player defaults, `expert@3`) and the new "
        f"defaults against `expert@3` on the untuned seed {CHECK_SEED}:",
        "",
    ]
    head += _table(
        pd.DataFrame(chosen),
        {
            "players": "players",
            "setting": "setting",
            "diff": "difference, points a deal [95%]",
            "deals": "deals",
        },
    )
    return "\n".join([*head, "", *out])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stage", choices=("tune", "check", "docs"))
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 6])
    parser.add_argument("--deals", type=int, default=20_000)
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.stage == "docs":
        command = COMMAND
        text = made_by(command) + "\n\n" + docs(args.players)
        write_generated(DOCS / "tune.md", "tune-players", text)
        return
    for players in args.players:
        if args.stage == "tune":
            tune(players, args.deals).to_csv(OUT / f"tune_{players}p.csv", index=False)
        else:
            check(players, args.deals).to_csv(OUT / f"check_{players}p.csv", index=False)


if __name__ == "__main__":
    main()
