"""The package's layers point one way: cards -> rules -> deal state -> variants -> table -> players,
records, analysis -> server and commands.

The test reads every module of ``src/skat`` with :mod:`ast` and collects what it imports: ``import x``,
``from x import y`` and relative imports, at module level and inside functions, classes and
``if TYPE_CHECKING:`` blocks alike, and the module names a module passes to ``importlib.import_module``
(or lists in a table of modules it loads by name). Importing ``skat.a.b`` from outside ``skat.a`` also
runs ``skat/a/__init__.py``, so it counts as an import of the package too. Then it fails on

* an import cycle, naming it;
* an import of a higher layer from a lower one (:data:`LAYERS` places every module; a new module must
  be placed there before it passes; a variant's table part is placed by its name, :func:`layer_of`);
* an import of a name from a package's ``__init__`` (``from skat import Game``, ``from skat.solver import
  solve``) by a module outside that package: inside the package, modules import each other by full path
  (``from skat.solver.search import solve``), and the ``__init__`` files only re-export the public API.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "src" / "skat"

BASE, CARDS, RULES, RULE_SETS, DEAL, VARIANTS, TABLE, PLAYERS, FRONT = range(9)
LAYER_NAMES = (
    "base", "cards", "rules", "rule sets", "deal state", "variants", "table", "players, records, analysis",
    "server and commands",
)

LAYERS: dict[str, int] = {
    # base: the leaves every layer may use; they import nothing from the package
    "skat.enums": BASE,  # GameType and the Phase of every variant's deal
    "skat.errors": BASE,
    "skat.schema": BASE,  # how an option is declared (rule sets and the officers' options use it)
    "skat._cython_shim": BASE,
    "skat._version": BASE,
    "skat._compiled": BASE,  # the compiled modules, or their source with SKAT_PURE_PYTHON
    # cards
    "skat.cards": CARDS,
    # rules (skat/rules/): pure functions and small value types, then the rule sets a table agrees on
    "skat.rules.*": RULES,
    "skat.rules.rulesets": RULE_SETS,
    # deal state (skat/deal/): the base of every deal, and one deal of standard Skat with its house rules
    "skat.deal.*": DEAL,
    # variants (skat/variants/): the games found by name, each in its own module, built on the deal state
    "skat.variants.*": VARIANTS,  # but each variant's table part is in the server's layer (is_table_part)
    # table (skat/table/): series of deals and their score sheets
    "skat.table.*": TABLE,
    # players, records, analysis: what plays, writes down or looks at deals and tables
    "skat.players.*": PLAYERS,
    "skat.solver.*": PLAYERS,
    "skat.records.*": PLAYERS,  # ISS records and the protocol's JSON (wire)
    "skat.analysis": PLAYERS,
    "skat.ratings": PLAYERS,  # ratings of three-seat results (OpenSkill's Plackett-Luce, paired SF, ...)
    "skat.lessons": PLAYERS,  # Learn Skat: guided deals (the heuristic player, the wire view)
    # server and commands: the front ends, and the package's public API
    "skat.server.*": FRONT,
    "skat.web.*": FRONT,
    "skat.commands.*": FRONT,
    "skat.cli": FRONT,
    "skat.__main__": FRONT,
    "skat": FRONT,
}
"""Every module's layer: a module name, or ``package.*`` for a package and all its modules."""

ALLOWED: dict[tuple[str, str], str] = {}
"""Imports of a higher layer that stay until a bigger redesign: (importer, imported) -> why."""


def _module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


MODULES = _module_files()
_LOADERS = {"import_module", "__import__", "find_spec"}


def _known(name: str) -> str | None:
    """The package module that an imported dotted name stands for (``skat.deal.game.Game`` -> ``skat.deal.game``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _is_loader_call(node: ast.AST) -> bool:
    """``importlib.import_module(...)``, ``__import__(...)``, ``find_spec(...)``."""
    return isinstance(node, ast.Call) and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in _LOADERS


def _imports(module: str) -> list[tuple[int, str, bool]]:
    """(line, imported module, whether a name comes from a package's __init__) for each import of a module."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if _is_package(module) else module.rpartition(".")[0]
    loads_by_name = any(_is_loader_call(node) for node in ast.walk(tree))
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):  # every statement, in functions and `if TYPE_CHECKING:` blocks too
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known(alias.name)
                if target:  # `import skat.solver` would reach solve through the package's __init__
                    found.append((node.lineno, target, target == alias.name and _is_package(target)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                source = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            target = _known(source)
            if target is None:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in MODULES:  # `from skat import _core` imports the module skat.deal._core
                    found.append((node.lineno, submodule, False))
                else:
                    found.append((node.lineno, target, target == source and _is_package(target)))
        elif _is_loader_call(node):
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value in MODULES:
                found.append((node.lineno, arg.value, False))
        elif loads_by_name and isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a table of modules that the module loads by name (the commands of `skat`, the built-in players)
            name = node.value.partition(":")[0]
            if name.startswith("skat.") and name in MODULES:
                found.append((node.lineno, name, False))
    edges = []
    for line, target, through_init in found:
        if target == module:
            continue
        edges.append((line, target, through_init))
        # importing skat.a.b from outside skat.a runs skat/a/__init__.py first (skat's own runs always)
        parent = target.rpartition(".")[0]
        while parent and parent != "skat":
            if not (module == parent or module.startswith(parent + ".")):
                edges.append((line, parent, False))
            parent = parent.rpartition(".")[0]
    return edges


def _graph() -> tuple[dict[str, dict[str, int]], list[str]]:
    """module -> {imported module: first line}, and the imports of a name from a package's __init__."""
    graph: dict[str, dict[str, int]] = {}
    through_init = set()
    for module in MODULES:
        targets = graph.setdefault(module, {})
        for line, target, through in _imports(module):
            targets.setdefault(target, line)
            if through:
                through_init.add(f"{module} line {line} imports from {target}'s __init__.py")
    return graph, sorted(through_init)


GRAPH, THROUGH_INIT = _graph()


def is_table_part(module: str) -> bool:
    """A variant's table part: a module ``skat.variants.<...>.table`` or ``skat.variants.<...>_table`` (its
    :class:`skat.server.games.TableGame`, which the server loads by the name the variant gives). It belongs to
    the server layer: it may import the server's modules, and nothing below the server imports it."""
    last = module.rpartition(".")[2]
    return module.startswith("skat.variants.") and (last == "table" or last.endswith("_table"))


def layer_of(module: str) -> int | None:
    if module in LAYERS:
        return LAYERS[module]
    if is_table_part(module):
        return FRONT
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        key = ".".join(parts[:i]) + ".*"
        if key in LAYERS:
            return LAYERS[key]
    return None


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(components)


def cycle_through(graph: dict[str, dict[str, int]], component: list[str]) -> list[str]:
    """A shortest cycle from the component's first module back to it, for the message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                return paths[v] + [start]
            if w in members and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError(f"no cycle in {component}")


def test_the_walk_sees_the_package():
    assert {"skat", "skat.cards", "skat.deal.game", "skat.rules.ranking", "skat.solver.search"} <= set(MODULES)
    assert "skat.cards" in GRAPH["skat.rules.ranking"]  # a module-level import
    assert "skat.commands.value" in GRAPH["skat.cli"]  # a module loaded by name


def test_no_import_cycle():
    found = []
    for component in cycles(GRAPH):
        lines = [f"{a} line {GRAPH[a][b]} imports {b}" for a, b in itertools.pairwise(cycle_through(GRAPH, component))]
        found.append(f"cycle among {', '.join(component)}:\n    " + "\n    ".join(lines))
    assert not found, "import cycles:\n" + "\n".join(found)


def test_a_cycle_is_found_and_named():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycle_through(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_every_module_has_a_layer():
    missing = [m for m in MODULES if layer_of(m) is None]
    assert not missing, f"place these modules in tests/test_layers.py LAYERS: {missing}"
    stale = [key for key in LAYERS if key.removesuffix(".*") not in MODULES]
    assert not stale, f"LAYERS names modules that are gone: {stale}"


def test_no_layer_imports_a_higher_one():
    wrong = []
    used = set()
    for module, targets in sorted(GRAPH.items()):
        for target, line in sorted(targets.items()):
            low, high = layer_of(module), layer_of(target)
            if low is None or high is None or high <= low:
                continue
            if (module, target) in ALLOWED:
                used.add((module, target))
                continue
            wrong.append(f"{module} ({LAYER_NAMES[low]}) line {line} imports {target} ({LAYER_NAMES[high]})")
    assert not wrong, "imports of a higher layer:\n" + "\n".join(wrong)
    assert used == set(ALLOWED), f"allowed imports that no longer happen: {set(ALLOWED) - used}"


def test_modules_import_by_full_path():
    assert not THROUGH_INIT, "\n".join(THROUGH_INIT)


def test_a_variants_table_part_is_in_the_servers_layer():
    assert layer_of("skat.variants.officers.table") == FRONT
    assert layer_of("skat.variants.standard_table") == FRONT
    assert layer_of("skat.variants.newgame.table") == FRONT  # a variant added later: no edit here
    assert layer_of("skat.variants.officers.game") == VARIANTS
    assert layer_of("skat.variants.tablecloth") == VARIANTS
    assert layer_of("skat.variants.officers.tables") == VARIANTS
    parts = [m for m in MODULES if is_table_part(m)]
    assert {"skat.variants.officers.table", "skat.variants.standard_table"} <= set(parts)
    lower = [f"{m} imports {t}" for m, targets in GRAPH.items() for t in targets
             if t in parts and (layer_of(m) or 0) < FRONT]
    assert not lower, lower


def test_the_leaves_import_nothing_from_the_package():
    leaves = [m for m in MODULES if layer_of(m) == BASE]
    assert {m: sorted(GRAPH[m]) for m in leaves if GRAPH[m]} == {}


@pytest.mark.parametrize("source, expected, through_init", [
    ("from skat.rules.ranking import GameType\n", {"skat.rules.ranking", "skat.rules"}, False),
    ("def f():\n    from .cards import Card\n", {"skat.cards"}, False),
    ("if TYPE_CHECKING:\n    from skat.deal.game import Game\n", {"skat.deal.game", "skat.deal"}, False),
    ("import skat.solver.kernels as K\n", {"skat.solver.kernels", "skat.solver"}, False),
    ("from skat.deal import _core\n", {"skat.deal._core", "skat.deal"}, False),
    ("import importlib\nimportlib.import_module('skat.table.series')\n", {"skat.table.series", "skat.table"}, False),
    ("import importlib\nNAMES = ('skat.players.heuristic',)\nimportlib.import_module(NAMES[0])\n",
     {"skat.players.heuristic", "skat.players"}, False),
    ("from skat import Game\n", {"skat"}, True),
    ("from skat.solver import solve\n", {"skat.solver"}, True),
])
def test_the_walk_reads_every_kind_of_import(tmp_path, monkeypatch, source, expected, through_init):
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    monkeypatch.setitem(MODULES, "skat.probe", probe)
    found = _imports("skat.probe")
    assert {target for _, target, _ in found} == expected
    assert any(through for _, _, through in found) == through_init


def _layout_entries() -> list[str]:
    """The package's folders (``rules/``) and its public top-level modules (``cards.py``)."""
    entries = [f"{p.name}/" for p in sorted(PACKAGE_DIR.iterdir()) if (p / "__init__.py").is_file()]
    entries += [p.name for p in sorted(PACKAGE_DIR.glob("*.py")) if not p.name.startswith("_")
                and p.name != "cli.py"]
    return entries


def test_the_readme_and_the_architecture_page_show_the_same_layout():
    root = PACKAGE_DIR.parents[1]
    readme = (root / "README.md").read_text()
    layout = readme[readme.index("## Layout"):]
    layout = layout.split("\n## ")[0]
    architecture = (root / "docs" / "architecture.md").read_text()
    entries = _layout_entries()
    assert {"rules/", "deal/", "variants/", "table/", "players/", "solver/", "records/", "server/",
            "commands/"} <= set(entries)
    assert [e for e in entries if e not in layout] == [], "README's Layout lacks these"
    assert [e for e in entries if f"`{e}" not in architecture] == [], "docs/architecture.md lacks these"
