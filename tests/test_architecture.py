"""The package's import order (docs/architecture.md): no cycle (module level or inside
functions), and no module importing from a layer above its own; and its sizes: modules under
700 lines, functions outside nb/ at most 80 code lines, the longer kernels listed with a reason."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

import canasta_sim

ROOT = Path(canasta_sim.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports anywhere in its source (``TYPE_CHECKING``
    blocks included: a cycle there is a cycle of the design)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                if node.level:
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                # "from . import x" imports the submodule x when there is one
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_function_level_imports_are_edges():
    graph = import_graph()
    # cli imports the run modules only inside its commands
    assert "canasta_sim.run.simulate" in graph["canasta_sim.cli.simulation"]
    assert "canasta_sim.run.runner" in graph["canasta_sim.run.simulate"]
    assert "canasta_sim.run.cluster" in graph["canasta_sim.run.runner"]  # inside map_chunks


def test_no_import_cycle_in_the_package():
    assert find_cycle(import_graph()) is None


def test_cluster_is_a_leaf():
    assert import_graph()["canasta_sim.run.cluster"] == set()


#: The layers from the bottom up (docs/architecture.md): a module may import from its own layer
#: and the layers below it. Keys are the first name below ``canasta_sim`` ("" is the package's
#: ``__init__``); ``results`` (reading runs) is below ``run`` (playing them).
LAYERS = [
    {"_version", "cards", "_moved"},
    {"nb"},
    {"errors", "referee"},
    {"game"},
    {"players"},
    {"results"},
    {"run"},
    {"search", "learn", "env"},
    {"cli", "warmup", "board"},
    {"", "__main__"},
]

#: Imports that go up a layer, each with why; the test fails if one disappears (keep this short).
EXCEPTIONS = {
    # Deal.play_turn(bots=...) plays the bots it is given: it reads their specs (specs imports
    # nothing of the game, so no cycle).
    ("canasta_sim.game.deals", "canasta_sim.players.specs"),
}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of a package module's layer."""
    first = module.split(".")[1] if "." in module else ""
    for i, names in enumerate(LAYERS):
        if first in names:
            return i
    raise AssertionError(f"{module} is in no layer of LAYERS: add its package to docs and test")


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The (importer, imported) pairs where the imported module is in a higher layer."""
    return {(m, t) for m, targets in graph.items() for t in targets if layer_of(t) > layer_of(m)}


def test_the_layer_check_finds_an_upward_import():
    graph = {"canasta_sim.game.deals": {"canasta_sim.run.runner", "canasta_sim.nb.enums"}}
    assert upward_imports(graph) == {("canasta_sim.game.deals", "canasta_sim.run.runner")}


def test_the_layer_check_finds_results_importing_run():
    # results/ reads runs, run/ plays them: run imports results, never the other way
    graph = {
        "canasta_sim.results.stats": {"canasta_sim.run.games"},
        "canasta_sim.run.simulate": {"canasta_sim.results.stats"},
    }
    assert upward_imports(graph) == {("canasta_sim.results.stats", "canasta_sim.run.games")}


def test_every_module_is_in_a_layer():
    for module in import_graph():
        layer_of(module)


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports(import_graph()) == EXCEPTIONS


ARCHITECTURE = ROOT.parent / "docs" / "architecture.md"


def documented_layers(text: str) -> list[set[str]]:
    """The layers of docs/architecture.md's table, bottom up: each row's second column, its
    code names as :data:`LAYERS` keys (``nb/`` -> ``nb``, ``canasta_sim/__init__.py`` -> "")."""
    layers = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not re.fullmatch(r"[0-9]+\. .+", cells[0]):
            continue
        names = re.findall(r"`([^`]+)`", cells[1])
        layers.append({"" if n.endswith("__init__.py") else n.rstrip("/") for n in names})
    return layers


def documented_upward_imports(text: str) -> tuple[int, set[tuple[str, str]]]:
    """docs/architecture.md's count of imports that go up a layer and its list of them
    (``- `game.deals` imports `players.specs`: why``)."""
    count = re.search(r"Imports that go up a layer: ([0-9]+)", text)
    pairs = re.findall(r"^- `([\w.]+)` imports `([\w.]+)`", text, re.M)
    found = {(f"canasta_sim.{a}", f"canasta_sim.{b}") for a, b in pairs}
    return (int(count[1]) if count else -1), found


def test_the_docs_parsers_read_a_table_and_a_list():
    text = (
        "| 0. Base | `cards`, `nb/` | x | y |\n| 1. Top | `canasta_sim/__init__.py` | x | y |\n"
        "Imports that go up a layer: 1\n\n- `game.deals` imports `players.specs`: why\n"
    )
    assert documented_layers(text) == [{"cards", "nb"}, {""}]
    assert documented_upward_imports(text) == (
        1,
        {("canasta_sim.game.deals", "canasta_sim.players.specs")},
    )


def test_the_docs_state_the_layers_of_the_test():
    assert documented_layers(ARCHITECTURE.read_text()) == LAYERS


def test_the_docs_state_the_imports_that_go_up():
    assert documented_upward_imports(ARCHITECTURE.read_text()) == (len(EXCEPTIONS), EXCEPTIONS)


def test_at_most_twelve_modules_at_the_top_of_the_package():
    top = [p for p in ROOT.glob("*.py")]
    assert len(top) <= 12, sorted(p.name for p in top)


def test_no_two_modules_or_packages_share_a_name():
    # one name per idea: a module and a package of the same name (bots.py, nb/bots/) count too
    names = [m.rpartition(".")[2] for m in _modules() if m != "canasta_sim"]
    assert sorted({n for n in names if names.count(n) > 1}) == []


#: Deal's private fields; its public accessors (state, rules_array, view, event_log) serve code
#: outside the game's own subpackage.
DEAL_PRIVATE = {"_state", "_r", "_view", "_g", "_log", "_seed", "_minimums", "_scores"}


def private_deal_reads(path: Path) -> list[str]:
    """``name._field`` reads of :data:`DEAL_PRIVATE` fields on anything but ``self``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in DEAL_PRIVATE
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            out.append(f"{path.name}:{node.lineno}: .{node.attr}")
    return out


def test_the_private_read_check_finds_one(tmp_path):
    code = tmp_path / "x.py"
    code.write_text("def f(deal):\n    return deal._state, deal.state, self._r\n")
    assert private_deal_reads(code) == ["x.py:2: ._state"]


def test_only_the_game_reads_deals_private_fields():
    outside = [p for p in ROOT.rglob("*.py") if "game" not in p.relative_to(ROOT).parts[:1]]
    outside += list((ROOT.parent / "tests").rglob("*.py"))
    found = [hit for p in outside for hit in private_deal_reads(p)]
    assert found == []


def test_no_module_imports_an_old_module_path():
    # an old path still imports (canasta_sim._moved), with a warning: the package never uses one
    from canasta_sim._moved import MOVED

    old = {f"canasta_sim.{name}" for name in MOVED}
    found = []
    for name, path in _modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = (
                    (f"{base}.{node.module}" if node.module else base)
                    if node.level
                    else node.module
                )
                targets = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found += [f"{name}: {t}" for t in targets if t in old]
    assert found == []


def attribute_injections(path: Path) -> list[str]:
    """Module-level ``Name.attr = ...`` assignments onto a name the module imported: a module
    changing another's class or module when it is imported (a tie the import graph misses)."""
    tree = ast.parse(path.read_text())
    imported = {
        (a.asname or a.name).partition(".")[0]
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for a in node.names
    }
    out = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                if t.value.id in imported:
                    out.append(f"{path.name}:{node.lineno}: {t.value.id}.{t.attr}")
    return out


def test_the_injection_check_finds_one(tmp_path):
    code = tmp_path / "x.py"
    code.write_text("from .deals import Deal\nDeal.seating = 1\nlocal = 2\nlocal.x = 3\n")
    assert attribute_injections(code) == ["x.py:2: Deal.seating"]


def test_no_module_sets_attributes_on_what_it_imports():
    # a dependency is an import the graph above sees: Python bots are seated by the caller
    # (players.pybot.seated), not registered on Deal when the package is imported
    found = [hit for p in ROOT.rglob("*.py") for hit in attribute_injections(p)]
    assert found == []


#: The bounds every module meets, each checked plainly: a module has fewer lines than
#: MAX_MODULE_LINES, a function outside ``nb/`` at most MAX_FUNCTION_LINES code lines (a kernel
#: over it is listed in docs/architecture.md, "Long kernels", with the reason).
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80


def function_lengths(source: str) -> dict[str, int]:
    """Code lines of every function and method of ``source`` (qualified name -> lines):
    lines holding a token of its code, its docstring, comments and blank lines not counted
    (a nested function counts in its own entry and in the function around it)."""
    code = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip | {tokenize.ENDMARKER}:
            code.update(range(tok.start[0], tok.end[0] + 1))
    out: dict[str, int] = {}

    def visit(node, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = set(range(child.lineno, child.end_lineno + 1))
                first = child.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    if isinstance(first.value.value, str):
                        lines -= set(range(first.lineno, first.end_lineno + 1))
                out[prefix + child.name] = len(lines & code)
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return out


def test_function_lengths_count_code_lines_only():
    source = (
        "def f(a,\n"
        "      b):\n"
        '    """Doc\n'
        '    string."""\n'
        "    # a comment\n"
        "\n"
        "    x = 1\n"
        "\n"
        "    def g():\n"
        "        return 2\n"
        "    return x\n"
        "class C:\n"
        "    def m(self):\n"
        "        pass\n"
    )
    assert function_lengths(source) == {"f": 6, "f.g": 2, "C.m": 2}


def long_kernels_listed() -> set[str]:
    """The kernels docs/architecture.md lists under "Long kernels" (``nb/...py: name``)."""
    text = (ROOT.parent / "docs" / "architecture.md").read_text()
    section = text.split("## Long kernels", 1)[1].split("\n## ", 1)[0]
    return {f"{m[1]}: {m[2]}" for m in re.finditer(r"^- `(nb/[\w/]+\.py)` `(\w+)`", section, re.M)}


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _package_modules() -> list[str]:
    """Every module's path below the package, sorted."""
    return sorted(_relative(p) for p in ROOT.rglob("*.py"))


@pytest.mark.parametrize("module", _package_modules())
def test_every_module_is_under_700_lines(module):
    lines = len((ROOT / module).read_text().splitlines())
    assert lines < MAX_MODULE_LINES, f"{module}: {lines} lines"


@pytest.mark.parametrize("module", [m for m in _package_modules() if not m.startswith("nb/")])
def test_no_function_outside_nb_is_over_80_code_lines(module):
    found = function_lengths((ROOT / module).read_text())
    assert {k: n for k, n in found.items() if n > MAX_FUNCTION_LINES} == {}


def test_the_long_kernels_are_the_ones_the_architecture_lists():
    found = {
        f"{_relative(p)}: {name}"
        for p in (ROOT / "nb").rglob("*.py")
        for name, n in function_lengths(p.read_text()).items()
        if n > MAX_FUNCTION_LINES
    }
    assert found == long_kernels_listed()
