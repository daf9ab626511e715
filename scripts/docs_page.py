"""Rewrite a figure block of a page, between its two marker comments, leaving the text around
it as written.

Every figure of README.md and docs/*.md sits between ``<!-- figure: NAME -->`` and
``<!-- /figure -->``; ``scripts/figures.py`` holds the registry of the names (the command of
each figure, or the script that writes it). Rerunning a script replaces its figures and
nothing else.
"""

from __future__ import annotations

import os
import platform
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
END = "<!-- /figure -->"
#: A block: its name, then what lies between its markers.
BLOCK = re.compile(r"<!-- figure: ([\w.-]+) -->\n(.*?)\n" + re.escape(END), re.DOTALL)


def begin(name: str) -> str:
    """The opening marker of figure ``name``."""
    return f"<!-- figure: {name} -->"


def blocks(page: Path) -> dict[str, str]:
    """``{name: content}`` of every figure block of ``page``.

    Raises ValueError when a name is used twice on the page (the second block would never be
    written).
    """
    found: dict[str, str] = {}
    for match in BLOCK.finditer(page.read_text()):
        if match.group(1) in found:
            raise ValueError(f"{page}: figure {match.group(1)!r} has two blocks")
        found[match.group(1)] = match.group(2)
    return found


def write_generated(page: Path, name: str, text: str) -> None:
    """Replace what lies between figure ``name``'s markers in ``page`` with ``text``.

    Raises ValueError when the page lacks the markers, naming them, rather than appending
    figures at a place nobody chose.
    """
    content = page.read_text()
    head, found, rest = content.partition(begin(name) + "\n")
    _, found_end, tail = rest.partition(END)
    if not (found and found_end):
        raise ValueError(f"{page} has no block between {begin(name)!r} and {END!r}")
    page.write_text(f"{head}{begin(name)}\n\n{text.strip()}\n\n{END}{tail}")


def measured_on() -> str:
    """Where and when machine-dependent figures (times, rates, memory) are measured: the
    date, the machine and its load average over the last minute."""
    load = os.getloadavg()[0]
    return (
        f"measured {time.strftime('%Y-%m-%d')} on {platform.node()} ({platform.machine()}, "
        f"{os.cpu_count()} cores), load average {load:.2f}"
    )


def made_by(command: str, machine: bool = False) -> str:
    """The first line of a block that a slow script writes: its command line and, when the
    block has machine-dependent figures (times, rates, memory), where they were measured."""
    line = f"Made by `{command}` (too slow for `python scripts/figures.py --check` to rerun)"
    return line + (f"; times {measured_on()}." if machine else ".")
