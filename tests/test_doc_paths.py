"""Every dotted name ``canasta_sim.x.y`` in the package's docstrings and comments and in docs/
names something that exists at that path: a module (imported) or an attribute of one, never
an old module path of the flat package (those import only through canasta_sim._moved)."""

import importlib
import re
import types
import warnings
from pathlib import Path

import pytest

import canasta_sim
from canasta_sim._moved import MOVED

ROOT = Path(canasta_sim.__file__).parent
DOCS = ROOT.parent / "docs"
DOTTED = re.compile(r"\bcanasta_sim(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def resolve(dotted: str) -> object:
    """The object ``dotted`` names, read as Python reads it: each name an attribute of the
    one before (the package's public names first: ``canasta_sim.simulate`` is the function),
    else its submodule.

    Raises
    ------
    LookupError
        When no such attribute or module exists, or the path goes through an old module path
        (that imports with a DeprecationWarning).
    """
    head, *rest = dotted.split(".")
    obj = package = importlib.import_module(head)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for part in rest:
            if (
                obj is package
                and part in MOVED
                and isinstance(vars(obj).get(part), types.ModuleType)
            ):
                # imported before (tests/package/test_moved.py): an attribute now, no warning
                raise LookupError(f"{dotted}: {head}.{part} moved to {head}.{MOVED[part]}")
            try:
                try:
                    obj = getattr(obj, part)
                except AttributeError:
                    if not isinstance(obj, types.ModuleType):
                        raise
                    obj = importlib.import_module(f"{obj.__name__}.{part}")
            except DeprecationWarning as moved:
                raise LookupError(f"{dotted}: {moved}") from None
            except (AttributeError, ModuleNotFoundError):
                raise LookupError(f"{dotted}: no {part!r} there") from None
    return obj


def named_paths() -> dict[str, list[str]]:
    """Dotted name -> where it is written (``file:line``), for the package's sources (but the
    list of old paths) and docs/ (but its section on old paths)."""
    files = [p for p in ROOT.rglob("*.py") if p.name != "_moved.py"]
    files += sorted(DOCS.rglob("*.md")) + sorted(DOCS.rglob("*.py"))
    found: dict[str, list[str]] = {}
    for path in files:
        text = path.read_text()
        if path.name == "architecture.md":  # its last section lists the old paths
            text = text.partition("## Old module paths")[0]
        for n, line in enumerate(text.splitlines(), 1):
            for m in DOTTED.finditer(line):
                name = m.group().rstrip(".")
                found.setdefault(name, []).append(f"{path.relative_to(ROOT.parent)}:{n}")
    return found


def test_the_resolver_refuses_old_paths_and_missing_names():
    assert resolve("canasta_sim.game.deals.Deal.play_turn") is canasta_sim.Deal.play_turn
    assert resolve("canasta_sim.simulate") is canasta_sim.simulate
    with pytest.raises(LookupError, match="moved to canasta_sim.players.choices"):
        resolve("canasta_sim.candidates.Candidate")
    with pytest.raises(LookupError, match="no 'no_such_name' there"):
        resolve("canasta_sim.game.deals.no_such_name")


def test_every_dotted_name_in_docstrings_and_docs_resolves():
    broken = []
    for name, where in sorted(named_paths().items()):
        try:
            resolve(name)
        except LookupError as e:
            broken.append(f"{e} ({', '.join(where[:3])})")
    assert broken == []


#: A file of the package, its tests (tests/README.md), scripts or benchmarks: a moved test file
#: leaves no page naming its old path.
FILE_PATH = re.compile(r"\b(?:canasta_sim|tests|scripts|benchmarks)/[A-Za-z0-9_/]+\.py\b")


def test_every_source_file_path_in_docstrings_and_docs_exists():
    files = list(ROOT.rglob("*.py")) + sorted(DOCS.rglob("*.md")) + [ROOT.parent / "README.md"]
    missing = [
        f"{path.relative_to(ROOT.parent)}: {m.group()}"
        for path in files
        for m in FILE_PATH.finditer(path.read_text())
        if not (ROOT.parent / m.group()).exists()
    ]
    assert missing == []
