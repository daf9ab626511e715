"""The figures of README.md and docs/*.md against their registry (scripts/figures.py), without
running a command: every block is registered and every registered figure has its block, a
block shows its registered commands or names its script, and the check compares everything but
the machine-dependent parts. ``python scripts/figures.py --check`` (CI) reruns the commands."""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import figures  # noqa: E402
from docs_page import blocks  # noqa: E402

from canasta_sim._version import BOTS_VERSION, RULES_VERSION  # noqa: E402

REGISTERED = {f.name: f for f in figures.FIGURES}
ON_PAGES = {
    name: (str(page.relative_to(figures.ROOT)), content)
    for page in figures.pages()
    for name, content in blocks(page).items()
}


def test_figure_names_are_unique():
    assert len(REGISTERED) == len(figures.FIGURES)


def test_every_block_is_registered_and_every_figure_has_its_block():
    assert sorted(ON_PAGES) == sorted(REGISTERED)
    assert {name: page for name, (page, _) in ON_PAGES.items()} == {
        f.name: f.page for f in figures.FIGURES
    }


def test_the_pages_cover_readme_and_the_docs():
    assert {str(p.relative_to(figures.ROOT)) for p in figures.pages()} >= {
        "README.md",
        "docs/recipes.md",
        "docs/studies.md",
    }


@pytest.mark.parametrize(
    "figure", [f for f in figures.FIGURES if isinstance(f, figures.Command)], ids=lambda f: f.name
)
def test_a_command_block_shows_its_commands_at_todays_versions(figure):
    content = ON_PAGES[figure.name][1]
    assert figures.shown_commands(content) == list(figure.commands)
    assert f"Rules version {RULES_VERSION}, bots version {BOTS_VERSION};" in content
    # machine-dependent output is marked as measured, with the date, machine and load
    assert bool(figures.MEASURED.search(content)) == bool(figure.machine)


@pytest.mark.parametrize(
    "figure", [f for f in figures.FIGURES if isinstance(f, figures.Script)], ids=lambda f: f.name
)
def test_a_script_block_names_its_script(figure):
    """The block's Made-by line names the registered script, with the options of the run that
    wrote it if any (``python scripts/performance.py --skip-memory``)."""
    assert figure.script.startswith("python scripts/")
    made_by = re.compile(r"Made by `" + re.escape(figure.script) + r"( --?[a-z][^`]*)?`")
    assert made_by.search(ON_PAGES[figure.name][1])


FIGURE = figures.Command("x", "README.md", ("canasta-sim a", "canasta-sim b"), (figures.RUN_TIME,))
OUTPUTS = ["1,000 deals: 2.5 s (400 deals/s)\nmean 12.5\n", "win rate 0.51\n"]
PAGE = figures.render(
    FIGURE, OUTPUTS, "measured 2026-12-01 on vm (x86_64, 2 cores), load average 3.10"
)


def test_check_passes_a_block_equal_to_the_rerun_but_for_times(monkeypatch):
    slower = ["1,000 deals: 12.5 s (80 deals/s)\nmean 12.5\n", "win rate 0.51\n"]
    monkeypatch.setattr(figures, "run", lambda figure: slower)
    assert figures.check(FIGURE, PAGE) == []


@pytest.mark.parametrize(
    "rerun",
    [
        ["1,000 deals: 2.5 s (400 deals/s)\nmean 12.6\n", "win rate 0.51\n"],  # a figure
        ["1,000 deals: 2.5 s (400 deals/s)\nmean 12.5\n", "win rate 0.51\nmore\n"],  # a line
    ],
)
def test_check_reports_any_other_difference(monkeypatch, rerun):
    monkeypatch.setattr(figures, "run", lambda figure: rerun)
    diff = figures.check(FIGURE, PAGE)
    assert any(line.startswith("+") and not line.startswith("+++") for line in diff)


def test_render_shows_each_command_after_the_prompt_then_its_output():
    lines = PAGE.splitlines()
    assert lines[:5] == [
        "```console",
        "$ canasta-sim a",
        "1,000 deals: 2.5 s (400 deals/s)",
        "mean 12.5",
        "$ canasta-sim b",
    ]
    assert figures.shown_commands(PAGE) == ["canasta-sim a", "canasta-sim b"]


def test_an_unknown_figure_name_is_a_usage_error_naming_it(capsys):
    with pytest.raises(SystemExit) as exit_:
        figures.main(["--check", "readme-analyse", "nope"])
    assert exit_.value.code == 2
    assert "unknown figure(s) nope; allowed: readme-analyse," in capsys.readouterr().err


def test_readmes_partners_differ_example_seats_two_bots_on_each_side():
    """README's ``--seats ... # partners differ``: partners are seats ``p`` and ``p + sides``
    (R-10, ``Rules.side_of``), so each side must hold two different bots."""
    from canasta_sim import Rules

    (line,) = [
        line
        for line in (figures.ROOT / "README.md").read_text().splitlines()
        if "# partners differ" in line
    ]
    seats = line.split("--seats ")[1].split()[0].split(",")
    rules = Rules(players=len(seats))
    for side in range(rules.sides):
        partners = {bot for seat, bot in enumerate(seats) if rules.side_of(seat) == side}
        assert len(partners) == 2, (side, partners)
