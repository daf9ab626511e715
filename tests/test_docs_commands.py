"""Every ``canasta-sim`` command in a fenced code block of the README and docs/ is one the
command line accepts: its options exist and take the values given, and ``--no-records`` comes
with ``--out`` (three documented commands broke when that became a rule: a fresh user's
finding). Input files the reader makes first (``episode.jsonl``) need not exist.

Every command of the README runs as written on a fresh clone, in order, scaled down (fewer
deals, games, trials and worlds), in a folder of its own: :data:`LONG` lists those that are
not run (installs, servers, ten million deals, the checks ``.ci/run`` runs), each with why."""

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from canasta_sim.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def documented_commands() -> list[tuple[str, str]]:
    """``(page, command line)`` of every line of a fenced block that starts ``canasta-sim``,
    continuation lines joined."""
    found = []
    for page in PAGES:
        for block in re.findall(r"```[a-z]*\n(.*?)```", page.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                if line.strip().startswith("canasta-sim "):
                    found.append((page.name, line.strip()))
    return found


def arguments(line: str) -> list[str]:
    """The command's arguments: the words after ``canasta-sim``, without a comment and without
    what a pipe, a redirection or a following command adds."""
    words = shlex.split(line, comments=True)[1:]
    ends = [i for i, w in enumerate(words) if w in ("|", ">", ">>", "&&", ";")]
    return words[: ends[0]] if ends else words


COMMANDS = documented_commands()


def test_the_docs_hold_commands():
    assert len(COMMANDS) >= 40  # the pages' examples: a parser that found none would pass


def check_parses(page: str, line: str) -> None:
    """The command line accepts ``line`` (a ``canasta-sim`` command) without running it."""
    args = arguments(line)
    if args[0].startswith("-"):  # the group's own --help or --version
        assert args[0] in ("--help", "-h", "--version"), f"{page}: {line}"
        return
    ctx = click.Context(main, info_name="canasta-sim")
    name, command, rest = main.resolve_command(ctx, args)
    try:
        params = command.make_context(name, rest, parent=ctx).params
    except click.exceptions.Exit:  # --help
        return
    except click.BadParameter as error:
        if "does not exist" in error.format_message():
            return
        raise
    if params.get("no_records"):
        assert params.get("out") is not None, f"{page}: --no-records without --out: {line}"


@pytest.mark.parametrize("page, line", COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_a_documented_command_parses(page, line):
    check_parses(page, line)


# --- the README's commands, run --------------------------------------------------------------
README = ROOT / "README.md"
_CI = "run by .ci/run, which runs every check of the Development section"
#: The README's commands that the test does not run, each with why (comments left out).
LONG = {
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && canasta-sim simulate "
    "--deals 1000000 --out results/main && canasta-sim report results/main": "an install, then "
    "the million-deal main job and its report",
    'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && python -m '
    "pytest -q -n 2": "an install, then the whole normal tier (.ci/run runs it)",
    "canasta-sim simulate --deals 10000000 --quiet": "ten million deals",
    "canasta-sim board results/run7": "a web server that runs until it is stopped",
    "python scripts/distil_head.py --players 4 --deals 8000 --steps 4000 --out "
    "canasta_sim/data/apprentice_4p.npz": "two minutes of self-play and distillation, and it "
    "rewrites a shipped file (tests/learn/test_head.py runs it scaled down)",
    "python -m pytest -q -m slow": _CI,
    "ruff check . && ruff format --check .": _CI,
    "mypy": _CI,
    "mkdocs build --strict": _CI,
    "python scripts/figures.py --check": _CI,
    "pre-commit install": "writes the clone's git hooks",
}
#: The scaled-down value of each option that sets a run's size, per command (``None``: every
#: command); a review of one deal rolls out every decision of it.
SMALL = {
    None: {"--deals": "20", "--games": "2", "--trials": "2", "--worlds": "20"},
    "review": {"--deals": "1", "--worlds": "10"},
}
#: Options added to a command whose default size is large.
EXTRA = {"tune": ["--final-deals", "20", "--final-games", "2"]}


def readme_commands() -> list[str]:
    """The README's commands in order: each line of a ``bash`` block (its comment left out),
    each ``$`` line of a ``console`` block, and each ``python`` block whole."""
    found = []
    for lang, block in re.findall(r"```(bash|console|python)\n(.*?)```", README.read_text(), re.S):
        if lang == "python":
            found.append(block)
            continue
        for line in block.splitlines():
            if lang == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            line = re.sub(r"\s+#\s.*$", "", line).strip()  # a comment: two spaces, "# "
            if line:
                found.append(line)
    return found


def scaled(args: list[str]) -> list[str]:
    """``args`` (after ``canasta-sim``) with every run size made small."""
    small = {**SMALL[None], **SMALL.get(args[0], {})}
    out = list(args)
    for i in range(len(out) - 1):
        if out[i] in small:
            out[i + 1] = small[out[i]]
    return out + EXTRA.get(args[0], [])


def test_the_readme_keeps_ci_s_test_command():
    # .ci/run runs the README's test command: the two must not drift apart
    ci = (ROOT / ".ci" / "run").read_text()
    test_command = next(c for c in LONG if c.endswith("python -m pytest -q -n 2"))
    assert test_command in readme_commands()
    assert 'pip install --quiet -e ".[test]" && python -m pytest -q -n 2' in ci


def test_every_readme_command_is_run_or_listed_as_long():
    commands = readme_commands()
    assert len(commands) >= 20
    assert set(LONG) <= set(commands), sorted(set(LONG) - set(commands))
    # a long command of canasta-sim is checked for its options only
    for command in LONG:
        for part in command.split(" && "):
            if part.startswith("canasta-sim "):
                check_parses("README.md", part)


@pytest.mark.slow
def test_the_readme_commands_run_in_order_scaled_down(tmp_path, monkeypatch):
    """A fresh clone's folder: ``docs/`` (positions, example bots) and nothing written yet;
    each command must succeed where the ones before it left their results."""
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    monkeypatch.chdir(tmp_path)
    ran = 0
    for command in readme_commands():
        if command in LONG:
            continue
        if command.startswith("import canasta_sim"):  # the python block
            exec(compile(command.replace("100_000", "200"), "README.md", "exec"), {})
        else:
            args = scaled(arguments(command))
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 0, f"{shlex.join(args)}\n{result.output}"
        ran += 1
    assert ran >= 18
    assert (tmp_path / "results" / "run7-all" / "manifest.json").exists()
    assert (tmp_path / "results" / "run7" / "report.md").exists()
    assert (tmp_path / "deal12.html").exists()
