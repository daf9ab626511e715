"""Distil a player count's weight file into a head network (:mod:`canasta_sim.learn.head`).

Usage: ``python scripts/distil_head.py --players 4 --out head_4p.npz [--teacher FILE]
[--deals 4000] [--held-out 1000] [--steps 3000] [--top 14] [--seed 9191]``.

The teacher, a full network (by default bots version 11's file shipped for the count,
``apprentice11_{N}p.npz``; a head network is refused), plays ``--deals`` self-play deals at
temperature 0 with ``--top`` discards a meld plan; the head network learns its choices in
``--steps`` Adam steps and is written to ``--out``. Prints the share of the next
``--held-out`` deals' decisions whose best candidate is the teacher's, before and after the
steps. Needs the optional extra ``train`` (JAX, optax).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from canasta_sim.learn.head import HeadPlan, distil_head, write_head
from canasta_sim.players.weights import default_weights_path, fitted_players, is_head_network

#: The family of shipped files whose file for the count is the default teacher: bots version
#: 11's full networks (version 12's ``apprentice`` files are head networks, no teacher).
TEACHER_FAMILY = "apprentice11"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 6), required=True)
    parser.add_argument(
        "--teacher",
        help="a full network's weight file (default: bots version 11's shipped for --players)",
    )
    parser.add_argument("--deals", type=int, default=HeadPlan.deals)
    parser.add_argument("--held-out", type=int, default=HeadPlan.held_out)
    parser.add_argument("--steps", type=int, default=HeadPlan.steps)
    parser.add_argument("--top", type=int, default=HeadPlan.top)
    parser.add_argument("--seed", type=int, default=9191)
    parser.add_argument("--out", required=True, metavar="FILE", help="the head file (.npz)")
    args = parser.parse_args(argv)
    _check_out(parser, Path(args.out))
    teacher = args.teacher or str(default_weights_path(args.players, TEACHER_FAMILY))
    try:
        plan = HeadPlan(seed=args.seed, players=args.players, deals=args.deals,
                        steps=args.steps, held_out=args.held_out, top=args.top)  # fmt: skip
    except ValueError as exc:
        parser.error(str(exc))
    _check_teacher(parser, teacher, args.players)
    parts, facts = distil_head(teacher, plan)
    write_head(args.out, parts, facts, args.players)
    deals = f"{args.deals} deal{'s' * (args.deals != 1)}"
    print(
        f"{facts['decisions']:,} decisions of {deals}; the teacher's choice at "
        f"{facts['agreement_start']:.1%} of {facts['held_out_decisions']:,} held-out decisions "
        f"before, {facts['agreement_end']:.1%} after"
    )
    print(f"wrote {args.out}")


def _check_teacher(parser: argparse.ArgumentParser, teacher: str, players: int) -> None:
    """Refuse a teacher the head network cannot learn from, in the script's terms: a file
    that is no weight file (missing, damaged), one fitted for another player count than
    ``--players``, or a head network (no candidate network to score every candidate with)."""
    default = default_weights_path(players, TEACHER_FAMILY)
    allowed = (
        f"allowed: a full network fitted for {players} players (A, B, b1, v, b2: canasta-sim "
        f"train writes them), or no --teacher for bots version 11's file shipped for "
        f"{players} players ({default.name})"
    )
    if Path(teacher).is_dir():  # canasta-sim train's weights/ folder, say
        parser.error(f"--teacher {teacher} is a folder; {allowed}")
    try:
        fitted = fitted_players(teacher)
        head = is_head_network(teacher)
    except ValueError as exc:  # the file's own words, without the weights= of a bot spec
        why = str(exc).removeprefix(f"weights={teacher}: ").split("; allowed:")[0]
        parser.error(f"--teacher {teacher}: {why}; {allowed}")
    if fitted is not None and fitted != players:
        parser.error(
            f"--teacher {teacher} was fitted for {fitted} players, --players is {players}; "
            f"{allowed}"
        )
    if head:
        parser.error(
            f"--teacher {teacher} is a head network (bots version 12's apprentice), which has "
            f"no candidate network (B, v, b2) to learn from; {allowed}"
        )


def _check_out(parser: argparse.ArgumentParser, out: Path) -> None:
    """Refuse an ``--out`` the head file cannot be written to before the distillation (which
    takes minutes): a folder, or a file in a folder that does not exist."""
    if out.is_dir():
        parser.error(f"--out {out} is a folder; allowed: a file name, e.g. {out / 'head.npz'}")
    if not out.parent.is_dir():
        parser.error(
            f"--out {out}: its folder {out.parent} does not exist; allowed: a file in an "
            "existing folder"
        )


if __name__ == "__main__":
    main()
