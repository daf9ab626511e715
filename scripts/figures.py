"""Regenerate and check the figures of README.md and docs/*.md.

Usage::

    python scripts/figures.py --list                # every figure: page, kind, command
    python scripts/figures.py --write [NAME ...]    # rerun commands, rewrite their blocks
    python scripts/figures.py --check [NAME ...]    # rerun commands, compare with the blocks

Every figure sits in a block ``<!-- figure: NAME -->`` ... ``<!-- /figure -->`` of its page
(:mod:`docs_page`) and has an entry in :data:`FIGURES`, of one of two kinds:

- a *command* figure (:class:`Command`) lists the exact commands a user types (seed, deals,
  bots) and holds their output. ``--write`` and ``--check`` run them as a user would, in a
  fresh folder holding links to ``docs/`` and ``scripts/`` (``canasta-sim`` and ``python``
  are this checkout and this interpreter), each under a minute on an idle 2-core machine.
  ``--check`` compares the output exactly, except the parts matched by ``machine`` (times,
  rates), which the block marks as measured with the date, the machine and its load average.
- a *script* figure (:class:`Script`) is written by a slower script (minutes to hours), named in
  the block; ``--write NAME`` runs the script, ``--check`` does not.

``tests/scripts/test_figures.py`` checks that the registry and the pages agree without running
anything; CI (``.ci/run``) runs ``--check``.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from docs_page import ROOT, blocks, measured_on, write_generated

from canasta_sim._version import BOTS_VERSION, RULES_VERSION

#: A line of a command figure's block that holds a command (the rest is output).
PROMPT = "$ "
MEASURED = re.compile(r"measured \d{4}-\d\d-\d\d on .*?, load average [\d.]+")
#: Wall time and rate of a run's first line (``simulate``, ``games``).
RUN_TIME = r"[\d.,]+ s \([\d,.]+ deals/s\)"
#: The last column of a Markdown table row, when it is seconds.
SECONDS_COLUMN = r"(?<=\| )\d+(?= \|$)"
#: Wall time of an ``analyse`` result line.
ANALYSE_TIME = r"[\d.]+ s(?=, pairing)"


@dataclass(frozen=True)
class Command:
    """A figure made of commands and their output, rerun by ``--check``.

    Attributes
    ----------
    name, page : str
        The block's name and its page, relative to the repository.
    commands : tuple of str
        Shell commands run in order in one folder; each is shown after ``$`` with its output.
    machine : tuple of str
        Regular expressions of the machine-dependent parts of the output (times, rates).
    """

    name: str
    page: str
    commands: tuple[str, ...]
    machine: tuple[str, ...] = ()


@dataclass(frozen=True)
class Script:
    """A figure written by a slow script (``script``: its command line); never rerun by
    ``--check``."""

    name: str
    page: str
    script: str


Figure = Command | Script

R = "README.md"
RECIPES = "docs/recipes.md"
STUDIES = "docs/studies.md"
TAKE_OR_DRAW = "canasta-sim analyse docs/positions/take_or_draw.toml"
SIDES = (
    "python -c \"import pandas as pd; s = pd.read_parquet('results/{}/sides.parquet'); "
    "print(s.groupby('bot')[['pickups', 'pile_cards_taken', 'wild_freezes', 'score']]"
    '.mean().round(2).to_string())"'
)
PIMC = "python scripts/pimc_strength.py --tables {}"
STRENGTH = (
    "python scripts/strength.py --deals 20000 --games 2000 --end-deals 20000 --count-deals 20000"
)
STATISTICS = (
    "python scripts/statistics_table.py --deals 1000000 --expert-deals 1000000 "
    "--pimc-deals 600 --seed 0"
)

FIGURES: tuple[Figure, ...] = (
    # README.md
    Command("readme-analyse", R, (f"{TAKE_OR_DRAW} --worlds 3000",), (ANALYSE_TIME,)),
    # docs/analysis.md
    Command(
        "analysis-take-or-draw",
        "docs/analysis.md",
        (f"{TAKE_OR_DRAW} --worlds 3000",),
        (ANALYSE_TIME,),
    ),
    Command(
        "analysis-rollouts",
        "docs/analysis.md",
        (
            f"{TAKE_OR_DRAW} --worlds 3000 --rollout expert@2",
            f"{TAKE_OR_DRAW} --worlds 3000 --rollout expert@1",
        ),
        (ANALYSE_TIME,),
    ),
    # docs/strength.md
    Command(
        "strength-compare",
        "docs/strength.md",
        (
            "canasta-sim compare expert expert@2 --deals 100000 --seed 0",
            "canasta-sim compare expert greedy --deals 20000 --seed 0",
            "canasta-sim compare expert greedy --games 2000 --seed 0",
        ),
    ),
    # docs/recipes.md
    Command(
        "recipes-pile-threshold",
        RECIPES,
        (
            "canasta-sim sweep expert --param pile_threshold=2,3,4,6,8,10,12 --vs expert "
            "--deals 100000 --seed 17",
            "canasta-sim sweep expert --param pile_threshold=5,6,7 --vs expert --deals 100000 "
            "--seed 18",
            "canasta-sim compare expert:pile_threshold=3 expert --games 2000 --seed 18",
        ),
    ),
    Command(
        "recipes-wild-factor",
        RECIPES,
        (
            "canasta-sim sweep expert --param wild_factor=1,2,4,7.936 --vs expert "
            "--deals 100000 --seed 17",
            "canasta-sim compare expert:wild_factor=7.936 expert --deals 100000 --seed 18",
            "canasta-sim compare expert:wild_factor=7.936 expert --games 2000 --seed 18",
        ),
    ),
    Command(
        "recipes-red-three",
        RECIPES,
        (
            "canasta-sim simulate --deals 200000 --seed 2 --bots expert "
            "| grep -A 9 '^\\[red-three value\\]'",
        ),
    ),
    Command(
        "recipes-red-three-players",
        RECIPES,
        ("python scripts/red_three_value.py --deals 200000 --games 4000 --seed 2",),
        (SECONDS_COLUMN,),
    ),
    Command(
        "recipes-freeze",
        RECIPES,
        (
            "canasta-sim sweep expert --param freeze_risk=0,0.263,1,3,10,100 --vs expert "
            "--deals 100000 --seed 17",
        ),
    ),
    Command(
        "recipes-freeze-records",
        RECIPES,
        (
            "canasta-sim simulate --deals 100000 --seed 17 --bots expert:freeze_risk=100,expert "
            "--out results/freeze100 | grep deals/s",
            SIDES.format("freeze100"),
        ),
        (RUN_TIME,),
    ),
    Command(
        "recipes-freeze-check",
        RECIPES,
        (
            "canasta-sim compare expert:freeze_risk=0 expert --deals 100000 --seed 18",
            "canasta-sim compare expert:freeze_risk=0 expert --games 2000 --seed 18",
        ),
    ),
    Command(
        "recipes-partner",
        RECIPES,
        tuple(
            f"canasta-sim compare --seats {seats} --{unit} --seed 17"
            for seats, unit in (
                ("expert:meld_keep=4,expert,expert,expert", "deals 100000"),
                ("expert:meld_keep=8,expert,expert,expert", "deals 100000"),
                ("expert:meld_keep=4,expert,expert:meld_keep=4,expert", "deals 100000"),
                ("expert:meld_keep=4,expert,expert,expert", "games 2000"),
            )
        ),
    ),
    Command(
        "recipes-python-bots",
        RECIPES,
        tuple(
            f"canasta-sim compare py:docs/example_bots.py:{bot} {other} --deals 300 --seed 17"
            for bot, other in (
                ("PileHoarder", "expert"),
                ("PileHoarder", "greedy"),
                ("EagerMelder", "greedy"),
            )
        ),
    ),
    Command(
        "recipes-python-bot-records",
        RECIPES,
        (
            "canasta-sim simulate --bots py:docs/example_bots.py:PileHoarder,expert --deals 300 "
            "--seed 17 --out results/hoarder | grep deals/s",
            SIDES.format("hoarder"),
        ),
        (RUN_TIME,),
    ),
    Command("recipes-analyse", RECIPES, (TAKE_OR_DRAW,), (ANALYSE_TIME,)),
    # docs/trace.md
    Command(
        "trace-replay",
        "docs/trace.md",
        ("canasta-sim replay --seed 1 --deal 7 --players 2 --bots greedy | sed -n 1,20p",),
    ),
    # docs/studies.md
    Command(
        "studies-timing-rows",
        STUDIES,
        (
            'canasta-sim simulate --deals 20000 --seed 0 | grep "first canasta by round"',
            "canasta-sim simulate --deals 20000 --seed 0 --players 2 "
            '| grep "first canasta by round"',
        ),
    ),
    Script(
        "studies-red-three",
        STUDIES,
        "python scripts/red_three_value.py --deals 1000000 --games 20000 --seed 0 --docs",
    ),
    # the pages of the measurement scripts
    Script(
        "tune-players",
        "docs/tune.md",
        "python scripts/tune_players.py tune && python scripts/tune_players.py check && "
        "python scripts/tune_players.py docs",
    ),
    Script("statistics-table", "docs/statistics.md", STATISTICS),
    Script("statistics-policies", "docs/statistics.md", STATISTICS),
    Script("statistics-ladder", "docs/statistics.md", STATISTICS),
    Script("strength-table", "docs/strength.md", STRENGTH),
    Script("bots-strength", "docs/bots.md", STRENGTH),
    Script("performance-tables", "docs/performance.md", "python scripts/performance.py"),
    Script(
        "environment-training",
        "docs/environment.md",
        "python scripts/train_against_random.py --threads 1",
    ),
    Script("strength-pimc-games", "docs/strength.md", PIMC.format("games")),
    Script("pimc-duplicate", "docs/pimc.md", PIMC.format("duplicate")),
    Script("pimc-worlds", "docs/pimc.md", PIMC.format("worlds")),
    Script("pimc-see-hidden", "docs/pimc.md", PIMC.format("see_hidden")),
    Script("pimc-games", "docs/pimc.md", PIMC.format("games")),
    Script(
        "board-levels",
        "docs/board.md",
        "python scripts/board_levels.py --deals 2000 --search-deals 3000 --time-deals 3 "
        "--seed 2026",
    ),
)


def pages() -> list[Path]:
    """The pages that hold figures: README.md and docs/*.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def versions() -> str:
    """The behaviour versions a figure is made at."""
    return f"rules version {RULES_VERSION}, bots version {BOTS_VERSION}"


def render(figure: Command, outputs: list[str], measured: str) -> str:
    """A command figure's block: each command after the prompt with its output, then the
    versions and, when the output has machine-dependent parts, where they were measured."""
    lines = ["```console"]
    for command, output in zip(figure.commands, outputs, strict=True):
        lines += [PROMPT + command, *output.rstrip("\n").splitlines()]
    note = f"{versions().capitalize()}; checked by `python scripts/figures.py --check`"
    if figure.machine:
        note += f" except the times, {measured}"
    return "\n".join([*lines, "```", "", note + "."])


def shown_commands(content: str) -> list[str]:
    """The commands shown in a command figure's block (its lines after the prompt)."""
    return [line[len(PROMPT) :] for line in content.splitlines() if line.startswith(PROMPT)]


def run(figure: Command) -> list[str]:
    """Run ``figure``'s commands as a user would, in one fresh folder; their outputs.

    Raises RuntimeError naming the command when one fails.
    """
    with tempfile.TemporaryDirectory() as folder:
        bin_ = Path(folder) / "bin"
        bin_.mkdir()
        for name, prefix in (("canasta-sim", "-m canasta_sim "), ("python", "")):
            shim = bin_ / name
            shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" {prefix}"$@"\n')
            shim.chmod(0o755)
        for linked in ("docs", "scripts"):
            (Path(folder) / linked).symlink_to(ROOT / linked)
        path = f"{bin_}{os.pathsep}{os.environ['PATH']}"
        python_path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PATH": path, "PYTHONPATH": python_path}
        outputs = []
        for command in figure.commands:
            done = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise RuntimeError(
                    f"figure {figure.name}: `{command}` exited with {done.returncode}:\n"
                    f"{done.stderr[-2000:]}"
                )
            outputs.append(done.stdout)
    return outputs


def masked(text: str, figure: Command) -> str:
    """``text`` with the machine-dependent parts replaced by a placeholder."""
    text = MEASURED.sub("measured ...", text)
    for pattern in figure.machine:
        text = re.sub(pattern, "<machine>", text, flags=re.MULTILINE)
    return text


def check(figure: Command, content: str) -> list[str]:
    """Differences between ``figure``'s block ``content`` and a fresh run, as diff lines."""
    found = MEASURED.search(content)
    fresh = render(figure, run(figure), found.group(0) if found else "")
    old, new = masked(content, figure).strip(), masked(fresh, figure).strip()
    return list(
        difflib.unified_diff(old.splitlines(), new.splitlines(), "page", "rerun", n=1, lineterm="")
    )


def select(names: list[str]) -> list[Figure]:
    """The figures named (all when none are). Raises ValueError naming an unknown name."""
    by_name = {f.name: f for f in FIGURES}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ValueError(f"unknown figure(s) {', '.join(unknown)}; allowed: {', '.join(by_name)}")
    return [by_name[n] for n in names] if names else list(FIGURES)


def write(figure: Figure, named: bool) -> None:
    """Rewrite ``figure``'s block; a script figure only when ``named`` (it runs for minutes)."""
    if isinstance(figure, Command):
        write_generated(ROOT / figure.page, figure.name, render(figure, run(figure), measured_on()))
    elif named:
        subprocess.run([sys.executable, *shlex.split(figure.script)[1:]], check=True, cwd=ROOT)
    else:
        print(f"skipped {figure.name}: `{figure.script}` writes it (slow; name it to run it)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--list", action="store_true", help="list the figures")
    mode.add_argument("--write", action="store_true", help="rerun and rewrite blocks")
    mode.add_argument("--check", action="store_true", help="rerun and compare blocks")
    parser.add_argument("names", nargs="*", metavar="NAME", help="figures (default: all)")
    args = parser.parse_args(argv)
    try:
        figures = select(args.names)
    except ValueError as error:
        parser.error(str(error))  # exits with 2
    failed = []
    started = time.perf_counter()
    for figure in figures:
        start = time.perf_counter()
        if args.list:
            what = figure.commands if isinstance(figure, Command) else (figure.script,)
            print(f"{figure.name}  ({figure.page})\n    " + "\n    ".join(what))
            continue
        if args.write:
            write(figure, bool(args.names))
        elif isinstance(figure, Script):
            print(f"{figure.name}: not rerun, made by `{figure.script}`")
            continue
        else:
            found = blocks(ROOT / figure.page)
            diff = check(figure, found[figure.name]) if figure.name in found else ["no block"]
            if diff:
                failed.append(figure.name)
                print("\n".join(diff))
        print(f"{figure.name}: {time.perf_counter() - start:.1f} s", flush=True)
    if not args.list:
        print(f"{len(figures)} figures, {time.perf_counter() - started:.1f} s, {measured_on()}")
    if failed:
        print(f"figures that differ from a rerun: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
