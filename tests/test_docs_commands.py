"""Every ``canasta-sim`` command in a fenced code block of the README and docs/ is one the
command line accepts: its options exist and take the values given, and ``--no-records`` comes
with ``--out`` (three documented commands broke when that became a rule: a fresh user's
finding). Input files the reader makes first (``episode.jsonl``) need not exist."""

import re
import shlex
from pathlib import Path

import click
import pytest

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


@pytest.mark.parametrize("page, line", COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_a_documented_command_parses(page, line):
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
