"""The documentation site: every public name is on the API page, every page is in the navigation.

``mkdocs build --strict`` (CI) renders what is listed; these checks catch what is left out: a
name added to ``canasta_sim.__all__`` without a ``::: canasta_sim.NAME`` line in docs/api.md, or
a page added to docs/ without its entry in mkdocs.yml's ``nav`` (mkdocs only warns about it).
"""

import importlib.util
from collections import Counter
from pathlib import Path

import yaml  # with the test extra (a dependency of dask)

import canasta_sim

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# The groups of the navigation, in order (issue 25 item 4): no page stands alone at the top.
NAV_GROUPS = [
    "Start here",
    "Guides",
    "Commands",
    "API reference",
    "Studies and figures",
    "Development",
]


def _hooks():
    """scripts/mkdocs_hooks.py, which rewrites the API page's lines as the site is built."""
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts/mkdocs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOKS = _hooks()


def api_names() -> list[str]:
    """The public paths of the ``:::`` lines of docs/api.md, in page order."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    return [match.group(1) for match in HOOKS.API_LINE.finditer(text)]


def nav_entries() -> list[tuple[str, str]]:
    """(group title, page path) of every page in mkdocs.yml's ``nav``; a page at the top level
    has the group title ``""``."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    out = []

    def walk(items, group):
        for item in items:
            if isinstance(item, str):
                out.append((group, item))
                continue
            ((title, value),) = item.items()
            if isinstance(value, list):
                walk(value, group or title)
            else:
                out.append((group, value))

    walk(config["nav"], "")
    return out


def test_every_public_name_is_on_the_api_page():
    documented = set(api_names())
    missing = [name for name in canasta_sim.__all__ if f"canasta_sim.{name}" not in documented]
    assert missing == [], f"add `::: canasta_sim.NAME` to docs/api.md for: {missing}"


def test_the_api_page_lists_each_name_once():
    repeated = [name for name, n in Counter(api_names()).items() if n > 1]
    assert repeated == []


def test_every_api_line_names_an_object_of_the_package():
    unresolved = []
    for public in api_names():
        try:
            HOOKS.defined_at(public)
        except (AttributeError, ImportError) as error:
            unresolved.append(f"{public}: {error}")
    assert unresolved == []


def test_a_constant_keeps_its_public_path_and_a_function_goes_to_its_module():
    assert HOOKS.defined_at("canasta_sim.KINDS") == "canasta_sim.KINDS"
    # canasta_sim.simulate is both a function and the module defining it
    assert HOOKS.defined_at("canasta_sim.simulate") == "canasta_sim.run.simulate.simulate"
    assert HOOKS.defined_at("canasta_sim.Rules") == "canasta_sim.game.rules.Rules"


def test_every_docs_page_is_in_the_nav_once():
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    listed = Counter(page for _, page in nav_entries())
    assert sorted(pages - set(listed)) == [], "pages missing from mkdocs.yml's nav"
    assert sorted(set(listed) - pages) == [], "nav entries without a page in docs/"
    assert [page for page, n in listed.items() if n > 1] == []


def test_the_nav_is_grouped():
    entries = nav_entries()
    groups = list(dict.fromkeys(group for group, _ in entries))
    assert groups == NAV_GROUPS
    assert ("Start here", "index.md") == entries[0]
    assert ("API reference", "api.md") in entries


def test_the_cli_page_has_every_command_help():
    # the hook read the group from the canasta-sim script's entry point, which is now the
    # loader function, not the group: the site's build failed (docs/cli.md)
    text = HOOKS.cli_reference()
    for name in ("simulate", "study", "analyse", "train", "warmup"):
        assert f"## {name}\n\n```text\nUsage: canasta-sim {name} [OPTIONS]" in text


def test_the_cli_reference_says_where_to_read_it_where_it_is_not_generated():
    # GitHub shows the page without the hook: the section must say how to get the help text
    text = (DOCS / "cli.md").read_text()
    section = text[text.index("\n## Reference\n") :]
    assert section.count(HOOKS.CLI_MARKER) == 1 == text.count(HOOKS.CLI_MARKER)
    shown = " ".join(section.replace(HOOKS.CLI_MARKER, "").split())
    assert "`canasta-sim COMMAND --help` prints the same text" in shown
    assert "generated here on the documentation site" in shown
