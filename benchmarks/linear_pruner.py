"""Whether a cheap first scorer could prune the learned bot's play candidates before the
network, as gnubg's pruning nets do (issue 40, item 2): a linear function of the candidate
features, fitted by least squares to the shipped network's scores on self-play decisions
(each decision's scores and features less their mean, so that only the order within a
decision counts), and measured on other deals: how often its best K candidates hold the
network's choice, and how many points of the network's own score the best of them loses.

The decisions are the play decisions of 3 candidates or more of
:func:`canasta_sim.learn.experience.selfplay` at temperature 0 (every seat the shipped file).

Run: ``python benchmarks/linear_pruner.py [--players 4] [--fit 3000] [--test 2000]``; writes
``results/bench/linear_pruner.csv`` and ``linear_pruner.md``.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import write_table  # noqa: E402

from canasta_sim.learn.experience import SelfPlayPlan, selfplay  # noqa: E402
from canasta_sim.nb.enums import Phase  # noqa: E402
from canasta_sim.nb.selfplay import PlayCol  # noqa: E402
from canasta_sim.players.weights import default_weights_path  # noqa: E402

SEED = 6161
TEST_FIRST = 100_000  # the measured deals' first index: far from the fitted ones


def play_decisions(players: int, first: int, deals: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(candidate features ``float64[n, N_CAND_FEAT]``, the network's scores ``float32[n]``)
    of every play decision of 3 candidates or more in the deals."""
    plan = SelfPlayPlan(seed=SEED, players=players, temperature=0.0)
    d = selfplay(str(default_weights_path(players)), plan, first, deals)
    meta = d["meta"]
    keep = (meta[:, PlayCol.phase] == Phase.play) & (meta[:, PlayCol.n_cands] >= 3)
    out = []
    for row in meta[keep]:
        rows = slice(row[PlayCol.first], row[PlayCol.first] + row[PlayCol.n_cands])
        out.append((d["cands"][rows].astype(np.float64), d["score"][rows]))
    return out


def fit(decisions) -> np.ndarray:
    """Least-squares weights of the candidate features for the scores, both centred on each
    decision's mean."""
    x = np.concatenate([c - c.mean(0) for c, _ in decisions])
    y = np.concatenate([s - s.mean() for _, s in decisions])
    return np.linalg.lstsq(x, y, rcond=None)[0]


def measure(decisions, w: np.ndarray, keep: int) -> dict:
    """How often the best ``keep`` candidates by ``w`` hold the network's choice, and the
    network's points lost a decision by playing the best of them instead (mean, 90th
    percentile)."""
    held, lost = [], []
    for c, s in decisions:
        top = np.argsort(-(c @ w), kind="stable")[:keep]
        held.append(np.argmax(s) in top)
        lost.append(float(s.max() - s[top].max()))
    return {
        "kept": keep,
        "holds_choice": float(np.mean(held)),
        "points_lost_mean": float(np.mean(lost)),
        "points_lost_p90": float(np.quantile(lost, 0.9)),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--fit", type=int, default=3000, help="self-play deals fitted")
    parser.add_argument("--test", type=int, default=2000, help="self-play deals measured")
    args = parser.parse_args(argv)
    w = fit(play_decisions(args.players, 0, args.fit))
    test = play_decisions(args.players, TEST_FIRST, args.test)
    frame = pd.DataFrame([measure(test, w, k) for k in (1, 2, 3)])
    print(frame.to_string(index=False))
    n = np.mean([len(s) for _, s in test])
    title = (
        f"A linear first scorer of the play candidates ({args.players} players; fitted on "
        f"{args.fit:,} self-play deals, measured on {len(test):,} play decisions of "
        f"{args.test:,} others, {n:.2f} candidates a decision)"
    )
    command = "python benchmarks/linear_pruner.py " + " ".join(argv or sys.argv[1:])
    print(write_table("linear_pruner", frame, title, command.strip()).read_text())


if __name__ == "__main__":
    main()
