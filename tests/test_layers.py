"""The layers, read from the source with ``ast``: imports point down
(engines ← renderers ← bot ← bot.adapters), no import cycle anywhere outside tests/, and
the pure layers (engines, renderers) import nothing that does I/O or talks to a platform.

Inside ``engines/``, one package per game (issue 39): no game imports another game, the
shared parts the games build on (``SHARED_BELOW_GAMES``) import no game, and a game's own
modules import nothing from its package's ``__init__`` but its submodules (the
``__init__`` is the game's face for the others, and imports them).

Inside ``bot/``, one package per feature (issue 39): the frame (its flat modules and the
store) imports neither the service nor a feature; the service (``bot/service/``) imports
no feature; a feature imports no other feature (but where ``FEATURE_USES`` says why), and
reaches the service only through its face, ``bot.service`` (the ``Service`` façade and the
reply types), never a module inside it; the adapters too. The features hear the service
through its events (``bot.events``), wired in ``App.build``, which with ``python -m bot``
may import anything. A module of the service or of a feature imports nothing from its own
package's ``__init__`` but its submodules.

Every import counts, also one inside a function: a lazy import still ties two modules
together, and hiding a cycle in a function only moves it."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from engines.registry import game_names, get_game
from tests.helpers.imports import imports_of, module_name
from tests.helpers.paths import REPO_ROOT

PACKAGES = ("engines", "renderers", "bot", "benchmarks")
# Issue 39: a module does one thing, and none is over ~600 lines; past this the guard
# fails, naming each module that must be split by its concerns.
MODULE_LINE_LIMIT = 650
SIZED_PACKAGES = ("bot", "engines", "renderers")
# Lower layers first; a module may import its own layer and those before it. The entry
# point ``python -m bot`` starts the adapters, so it sits above them.
LAYERS = ("engines", "renderers", "bot", "bot.adapters", "bot.__main__", "benchmarks")
PURE_LAYERS = ("engines", "renderers")
FORBIDDEN_IN_PURE = ("bot", "asyncio", "aiosqlite", "asyncpg", "discord", "telegram",
                     "aiohttp", "sqlite3", "socket", "subprocess")
# What the games build on: these import no game. The analysis helpers, lessons, replays,
# the registry and the command line sit above the games and may import any of them.
SHARED_BELOW_GAMES = ("engines.base", "engines.cards", "engines.json_copy",
                      "engines.state_checks")
# bot/: the service, and the packages that are neither it nor a feature.
SERVICE = "bot.service"
NOT_FEATURES = ("service", "store", "adapters")
# The composition root and the entry point assemble everything: no rule of bot/ binds them.
COMPOSITION = ("bot.app", "bot.__main__")
# A feature that uses another feature's face, and why.
FEATURE_USES: dict[str, set[str]] = {
    # a tournament's time control is the classroom's turn timer policy
    "bot.tournaments": {"bot.classroom"},
}


def project_graph(root: Path = REPO_ROOT) -> dict[str, set[str]]:
    modules = {module_name(path, root): path for package in PACKAGES
               for path in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {target for target in imports_of(path, name)}
    return graph


def long_modules(root: Path = REPO_ROOT, limit: int = MODULE_LINE_LIMIT) -> list[str]:
    """Each module of ``SIZED_PACKAGES`` longer than ``limit`` lines, with its length."""
    found = []
    for package in SIZED_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{path.relative_to(root).as_posix()}: {lines} lines")
    return found


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


def game_packages() -> tuple[str, ...]:
    """The game packages: the module each registered game is played from."""
    return tuple(get_game(name).__name__ for name in game_names())


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def game_of(module: str, games: Iterable[str]) -> str | None:
    return next((game for game in games if _within(module, game)), None)


def cross_game_imports(graph: Mapping[str, Iterable[str]], games: Iterable[str]) -> list[str]:
    """A game's module importing another game's, and a shared part below the games
    importing any game."""
    games = tuple(games)
    problems = []
    for module, targets in graph.items():
        own = game_of(module, games)
        shared = any(_within(module, part) for part in SHARED_BELOW_GAMES)
        if own is None and not shared:
            continue
        for target in targets:
            theirs = game_of(target, games)
            if theirs is not None and theirs != own:
                problems.append(f"{module} imports {target}, of "
                                + (f"another game ({theirs})" if own else f"a game ({theirs})"))
    return sorted(problems)


def own_face_imports(games: Iterable[str], root: Path = REPO_ROOT) -> list[str]:
    """A game's module importing a name from its own package's ``__init__`` (anything but
    a submodule): the ``__init__`` imports the game's modules, so this is a cycle in
    waiting, and the name has a module of its own to come from."""
    problems = []
    for game in games:
        folder = root.joinpath(*game.split("."))
        submodules = {path.stem for path in folder.glob("*.py")} | {
            path.parent.name for path in folder.glob("*/__init__.py")}
        for path in sorted(folder.rglob("*.py")):
            if path == folder / "__init__.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == game:
                    names = [a.name for a in node.names if a.name not in submodules]
                    if names:
                        problems.append(f"{module_name(path, root)} imports {', '.join(names)} "
                                        f"from {game}")
    return sorted(problems)


def feature_packages(root: Path = REPO_ROOT) -> tuple[str, ...]:
    """bot/'s packages that are features: every one but the service, the store and the
    adapters (a new package is a feature unless said otherwise)."""
    return tuple(sorted(f"bot.{path.parent.name}" for path in (root / "bot").glob("*/__init__.py")
                        if path.parent.name not in NOT_FEATURES))


def bot_part(module: str, features: Iterable[str]) -> str | None:
    """Which part of bot/ ``module`` is: ``SERVICE``, its feature's package, "frame" (the
    flat modules and the store), "adapters", or None (the composition, outside bot/)."""
    if not _within(module, "bot") or any(_within(module, c) for c in COMPOSITION):
        return None
    if _within(module, SERVICE):
        return SERVICE
    if _within(module, "bot.adapters"):
        return "adapters"
    return next((feature for feature in features if _within(module, feature)), "frame")


def bot_part_imports(graph: Mapping[str, Iterable[str]], features: Iterable[str]) -> list[str]:
    """An import between parts of bot/ that the rules of issue 39 forbid (the module
    docstring). Only imports of modules count: ``from bot.service import Reply`` adds
    ``bot.service.Reply`` to the graph, a name, not a module inside the service."""
    features = tuple(features)
    problems = []
    for module, targets in graph.items():
        own = bot_part(module, features)
        for target in sorted(targets):
            theirs = bot_part(target, features)
            if own is None or theirs is None or own == theirs or target not in graph:
                continue
            if own == "frame" and theirs != "frame":
                problems.append(f"{module} imports {target}: the frame imports no "
                                + ("service" if theirs == SERVICE else "feature"))
            elif own == SERVICE and theirs in features:
                problems.append(f"{module} imports {target}: the service imports no feature")
            elif own in features and theirs in features \
                    and theirs not in FEATURE_USES.get(own, set()):
                problems.append(f"{module} imports {target}: a feature imports no other "
                                "feature (it hears it through bot.events)")
            elif own in (*features, "adapters") and theirs == SERVICE and target != SERVICE:
                problems.append(f"{module} imports {target}: only the service's face "
                                f"({SERVICE}) is for others")
    return sorted(problems)


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


def test_no_module_passes_the_line_limit() -> None:
    assert long_modules() == []


def test_the_line_limit_catches_a_planted_long_module(tmp_path: Path) -> None:
    """The guard can fail: a planted tree with an adapter module and a renderer past the
    limit is reported, module by module; one exactly at the limit, and a long file outside
    the sized packages (a benchmark), are not."""
    files = {
        "bot/adapters/discord/client.py": MODULE_LINE_LIMIT + 1,
        "bot/app.py": 10,
        "engines/lgame/rules.py": MODULE_LINE_LIMIT,
        "renderers/lgame.py": MODULE_LINE_LIMIT + 50,
        "benchmarks/load.py": MODULE_LINE_LIMIT * 2,
    }
    for name, lines in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n" * lines, encoding="utf-8")
    assert long_modules(tmp_path) == [
        f"bot/adapters/discord/client.py: {MODULE_LINE_LIMIT + 1} lines",
        f"renderers/lgame.py: {MODULE_LINE_LIMIT + 50} lines",
    ]
    (tmp_path / "renderers/lgame.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "bot/adapters/discord/client.py").write_text("x = 1\n", encoding="utf-8")
    assert long_modules(tmp_path) == []


def test_each_game_is_a_package_of_its_own() -> None:
    """Every registered game is played from ``engines/<name>/``, a package."""
    for name, package in zip(game_names(), game_packages(), strict=True):
        assert package == f"engines.{name}"
        assert (REPO_ROOT / "engines" / name / "__init__.py").is_file()


def test_no_game_imports_another_game(graph: dict[str, set[str]]) -> None:
    assert cross_game_imports(graph, game_packages()) == []


def test_a_game_imports_its_own_names_from_their_modules() -> None:
    assert own_face_imports(game_packages()) == []


def test_bot_is_the_frame_the_service_and_one_package_per_feature() -> None:
    """``ls bot/``: the frame's flat modules, the store, the service, the adapters, and
    the features, each a package."""
    assert feature_packages() == ("bot.classroom", "bot.community", "bot.learn",
                                  "bot.puzzles", "bot.tournaments")


def test_the_service_the_features_and_the_frame_keep_apart(graph: dict[str, set[str]]) -> None:
    assert bot_part_imports(graph, feature_packages()) == []


def test_the_service_and_the_features_import_their_own_names_from_their_modules() -> None:
    assert own_face_imports((SERVICE, *feature_packages())) == []


def test_the_rules_of_bot_catch_a_planted_violation(tmp_path: Path) -> None:
    """The bot/ checks can fail: a planted tree where the frame imports the service, the
    service a feature and its own face, a feature another feature and the service's
    inside, and an adapter the service's inside; what the rules allow (the service's face,
    the events, the store, the classroom from tournaments, anything from App) is not
    reported."""
    files = {
        "bot/__init__.py": "",
        "bot/events.py": "from bot.store import GameRecord\n",
        "bot/tables.py": "from bot.service import Place\n",
        "bot/store/__init__.py": "GameRecord = 1\n",
        "bot/service/__init__.py": "from bot.service.core import Core\nPlace = Service = 1\n",
        "bot/service/core.py": "from bot.events import GameFinished\n"
                               "from bot.service import Place\n"
                               "def later() -> None:\n    from bot.community import Community\n",
        "bot/community/__init__.py": "from bot.service.core import Core\n"
                                     "from bot.puzzles.trainer import Trainer\n",
        "bot/community/ratings.py": "from bot.community import Community\n",
        "bot/puzzles/__init__.py": "",
        "bot/puzzles/trainer.py": "from bot.events import PlayerForgotten\n"
                                  "from bot.service import Service\nfrom bot.store import "
                                  "GameRecord\nTrainer = 1\n",
        "bot/classroom/__init__.py": "",
        "bot/tournaments/__init__.py": "from bot.classroom import Classroom\n",
        "bot/app.py": "from bot.community import Community\nfrom bot.service.core import Core\n",
        "bot/adapters/__init__.py": "",
        "bot/adapters/base.py": "from bot.service import Place\nfrom bot.service.core import Core\n"
                                "from bot.community import Community\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    features = feature_packages(tmp_path)
    assert features == ("bot.classroom", "bot.community", "bot.puzzles", "bot.tournaments")
    planted = package_edges(project_graph(tmp_path))
    assert bot_part_imports(planted, features) == [
        "bot.adapters.base imports bot.service.core: only the service's face (bot.service) "
        "is for others",
        "bot.community imports bot.puzzles.trainer: a feature imports no other feature (it "
        "hears it through bot.events)",
        "bot.community imports bot.service.core: only the service's face (bot.service) is for "
        "others",
        "bot.service.core imports bot.community: the service imports no feature",
        "bot.tables imports bot.service: the frame imports no service",
    ]
    assert own_face_imports((SERVICE, *features), tmp_path) == [
        "bot.community.ratings imports Community from bot.community",
        "bot.service.core imports Place from bot.service",
    ]
    # The checks pass on the tree once the planted imports are gone.
    for name in ("bot/tables.py", "bot/community/ratings.py"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "bot/service/core.py").write_text("from bot.events import GameFinished\n",
                                                  encoding="utf-8")
    (tmp_path / "bot/community/__init__.py").write_text(
        "from bot.events import GameFinished\nfrom bot.service import Service\n",
        encoding="utf-8")
    (tmp_path / "bot/adapters/base.py").write_text(
        "from bot.service import Place\nfrom bot.community import Community\n",
        encoding="utf-8")
    assert bot_part_imports(package_edges(project_graph(tmp_path)), features) == []
    assert own_face_imports((SERVICE, *features), tmp_path) == []


def test_the_game_rules_catch_a_planted_violation(tmp_path: Path) -> None:
    """The game checks can fail: a tree with a bOOleO module importing Digitalo's cards,
    the shared pyramid importing bOOleO, and a bOOleO module importing a name from its own
    package (its submodules, and any game from the analysis above them, stay allowed)."""
    files = {
        "engines/booleo/__init__.py": "from engines.booleo.state import State\n",
        "engines/booleo/state.py": "from engines.booleo import menu\nState = 1\n",
        "engines/booleo/menu.py": "from engines.digitalo.cards import sort_cards\n",
        "engines/booleo/agents.py": "from engines.booleo import State, cards\n",
        "engines/booleo/cards.py": "",
        "engines/digitalo/__init__.py": "",
        "engines/digitalo/cards.py": "def sort_cards() -> None: ...\n",
        "engines/cards/__init__.py": "",
        "engines/cards/pyramid.py": "def gate() -> None:\n    from engines import booleo\n",
        "engines/analysis/__init__.py": "from engines.booleo import State\n"
                                        "from engines.digitalo import cards\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    games = ("engines.booleo", "engines.digitalo")
    planted = package_edges(project_graph(tmp_path))
    assert cross_game_imports(planted, games) == [
        "engines.booleo.menu imports engines.digitalo.cards, of another game (engines.digitalo)",
        "engines.booleo.menu imports engines.digitalo.cards.sort_cards, of another game "
        "(engines.digitalo)",
        "engines.cards.pyramid imports engines.booleo, of a game (engines.booleo)",
    ]
    assert own_face_imports(games, tmp_path) == [
        "engines.booleo.agents imports State from engines.booleo"]
    # The checks pass on the tree once the planted imports are gone.
    (tmp_path / "engines/booleo/menu.py").write_text("", encoding="utf-8")
    (tmp_path / "engines/cards/pyramid.py").write_text("", encoding="utf-8")
    (tmp_path / "engines/booleo/agents.py").write_text(
        "from engines.booleo import cards\nfrom engines.booleo.state import State\n",
        encoding="utf-8")
    assert cross_game_imports(package_edges(project_graph(tmp_path)), games) == []
    assert own_face_imports(games, tmp_path) == []
