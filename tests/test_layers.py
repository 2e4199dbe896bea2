"""The layers, read from the source with ``ast``: imports point down
(engines ← renderers ← bot ← bot.adapters), no import cycle anywhere outside tests/, and
the pure layers (engines, renderers) import nothing that does I/O or talks to a platform.

Every import counts, also one inside a function: a lazy import still ties two modules
together, and hiding a cycle in a function only moves it."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from tests.helpers.paths import REPO_ROOT

PACKAGES = ("engines", "renderers", "bot", "benchmarks")
# Lower layers first; a module may import its own layer and those before it. The entry
# point ``python -m bot`` starts the adapters, so it sits above them.
LAYERS = ("engines", "renderers", "bot", "bot.adapters", "bot.__main__", "benchmarks")
PURE_LAYERS = ("engines", "renderers")
FORBIDDEN_IN_PURE = ("bot", "asyncio", "aiosqlite", "asyncpg", "discord", "telegram",
                     "aiohttp", "sqlite3", "socket", "subprocess")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str) -> set[str]:
    """Every module ``path`` imports, absolute, wherever in the file the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            # ``from engines import lgame`` imports the submodule engines.lgame.
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def project_graph(root: Path = REPO_ROOT) -> dict[str, set[str]]:
    modules = {module_name(path, root): path for package in PACKAGES
               for path in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {target for target in imports_of(path, name)}
    return graph


def layer_of(module: str) -> int | None:
    best: int | None = None
    for index, layer in enumerate(LAYERS):
        if module == layer or module.startswith(layer + "."):
            best = index  # the longest prefix wins: bot.adapters over bot
    return best


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    problems = []
    for module, targets in graph.items():
        own = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                problems.append(f"{module} imports {target}, a higher layer")
    return sorted(problems)


def impure_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    problems = []
    for module, targets in graph.items():
        if layer_of(module) is None or LAYERS[layer_of(module) or 0] not in PURE_LAYERS:
            continue
        for target in targets:
            if any(target == bad or target.startswith(bad + ".") for bad in FORBIDDEN_IN_PURE):
                problems.append(f"{module} imports {target}")
    return sorted(problems)


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm),
    among the modules of the graph; imports of outside modules are ignored."""
    edges = {module: sorted(t for t in targets if t in graph and t != module)
             for module, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def package_edges(graph: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """A package importing its own submodule is not a cycle of design, so a package's
    ``__init__`` that re-exports is checked apart: drop edges from a package to the
    modules inside it."""
    return {module: {t for t in targets if not t.startswith(module + ".")}
            for module, targets in graph.items()}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return package_edges(project_graph())


def test_imports_point_down(graph: dict[str, set[str]]) -> None:
    assert upward_imports(graph) == []


def test_no_import_cycles(graph: dict[str, set[str]]) -> None:
    assert cycles(graph) == []


def test_engines_and_renderers_are_pure(graph: dict[str, set[str]]) -> None:
    assert impure_imports(graph) == []


def test_the_checks_catch_an_upward_import_and_a_cycle() -> None:
    """The checks themselves can fail: a renderer importing the service, an engine
    importing asyncio, and two adapter modules importing each other."""
    bad = {
        "engines.lgame": {"asyncio"},
        "renderers.lgame": {"bot.service", "engines.lgame"},
        "bot.adapters.telegram.client": {"bot.adapters.telegram.commands"},
        "bot.adapters.telegram.commands": {"bot.adapters.telegram.client"},
    }
    assert upward_imports(bad) == ["renderers.lgame imports bot.service, a higher layer"]
    assert impure_imports(bad) == ["engines.lgame imports asyncio",
                                   "renderers.lgame imports bot.service"]
    assert cycles(bad) == [["bot.adapters.telegram.client", "bot.adapters.telegram.commands"]]
