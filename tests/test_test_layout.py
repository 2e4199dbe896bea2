"""The tests' own layout (issue 39), read from the files with ``ast``:

* no module imports a test module: of tests/, only tests/helpers/ is imported, by the
  tests, the helpers and the benchmarks alike (every import counts, also one inside a
  function);
* nothing under tests/ imports a benchmark but the benchmarks' own tests
  (tests/benchmarks/): code that both need lives in tests/helpers/ (``scripted_play``);
* shared helpers live in tests/helpers/ only: elsewhere under tests/ a Python file is a
  test module (``test_*.py``), a ``conftest.py`` or a package's empty ``__init__.py``,
  and tests/helpers/ holds no test module;
* tests mirror the packages: each folder of tests/ names the top folder, package or module
  it tests (tests/adapters/ stands for bot/adapters/, so tests/bot/adapters/ stands for
  nothing), and each package of engines/, of bot/ and of bot/adapters/ has its folder of
  tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.imports import imports_of, module_name
from tests.helpers.paths import REPO_ROOT

# Where Python files that could import a test module live.
SOURCE_FOLDERS = ("engines", "renderers", "bot", "benchmarks", "scripts", "tests")
# tests/<folder>/ and the code it mirrors, from the repository's root.
MIRRORS = {"engines": "engines", "renderers": "renderers", "bot": "bot",
           "adapters": "bot/adapters", "benchmarks": "benchmarks"}
# Code whose every package has a folder of tests (bot/adapters/'s is tests/adapters/, not
# tests/bot/adapters/).
MIRRORED_PACKAGES = ("engines", "bot", "bot/adapters")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _modules(root: Path) -> dict[str, Path]:
    return {module_name(path, root): path for folder in SOURCE_FOLDERS
            for path in sorted((root / folder).rglob("*.py"))}


def _imported_modules(path: Path, module: str, root: Path) -> set[str]:
    """What ``path`` imports, without the names taken from a module (``from a.b import c``
    counts a.b, and a.b.c too when a.b is a package)."""
    targets = imports_of(path, module)

    def name_from_a_module(target: str) -> bool:
        parent = target.rpartition(".")[0]
        return parent in targets and (root / f"{parent.replace('.', '/')}.py").is_file()

    return {target for target in targets if not name_from_a_module(target)}


def imports_of_test_modules(root: Path = REPO_ROOT) -> list[str]:
    """Imports of a module under tests/ other than the ``tests`` package and tests/helpers/."""
    return sorted(f"{module} imports {target}, a test module"
                  for module, path in _modules(root).items()
                  for target in _imported_modules(path, module, root)
                  if _within(target, "tests") and target != "tests"
                  and not _within(target, "tests.helpers"))


def benchmark_imports(root: Path = REPO_ROOT) -> list[str]:
    """Imports of a benchmark from under tests/, but for the benchmarks' own tests."""
    return sorted(f"{module} imports {target}, a benchmark"
                  for module, path in _modules(root).items()
                  if _within(module, "tests") and not _within(module, "tests.benchmarks")
                  for target in _imported_modules(path, module, root)
                  if _within(target, "benchmarks"))


def _has_code(path: Path) -> bool:
    body = ast.parse(path.read_text(encoding="utf-8")).body
    docstring = (body and isinstance(body[0], ast.Expr)
                 and isinstance(body[0].value, ast.Constant))
    return len(body) > (1 if docstring else 0)


def stray_helpers(root: Path = REPO_ROOT) -> list[str]:
    """Python files under tests/ that are neither tests nor in tests/helpers/, and test
    modules among the helpers."""
    problems = []
    for path in sorted((root / "tests").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        helper = path.relative_to(root / "tests").parts[0] == "helpers"
        if helper and path.name.startswith("test_"):
            problems.append(f"{where} is a test module among the helpers")
        elif helper or path.name.startswith("test_") or path.name == "conftest.py":
            continue
        elif path.name != "__init__.py" or _has_code(path):
            problems.append(f"{where} is not a test module: shared code goes to tests/helpers/")
    return problems


def _folders(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir()
                  and p.name != "__pycache__" and not p.name.startswith("."))


def _own_folder_of_tests(code: str) -> str | None:
    """The top folder of tests/ that mirrors ``code`` itself, when one does."""
    return next((top for top, mirrored in MIRRORS.items() if mirrored == code), None)


def unmirrored_folders(root: Path = REPO_ROOT) -> list[str]:
    """Folders of tests/ that name no code, and packages with no folder of tests."""
    problems = []
    tests = root / "tests"
    for top in _folders(tests):
        if top.name != "helpers" and top.name not in MIRRORS:
            problems.append(f"tests/{top.name}/ mirrors no top folder of the code")
    for top, code in MIRRORS.items():
        below = [tests / top] if (tests / top).is_dir() else []
        while below:
            folder = below.pop(0)
            below += _folders(folder)
            if folder == tests / top:
                continue
            mirrored = root / code / folder.relative_to(tests / top)
            owner = _own_folder_of_tests(mirrored.relative_to(root).as_posix())
            if owner is not None and owner != top:
                problems.append(f"{folder.relative_to(root).as_posix()}/ mirrors "
                                f"{mirrored.relative_to(root).as_posix()}, whose tests are "
                                f"in tests/{owner}/")
            elif not ((mirrored / "__init__.py").is_file()
                      or mirrored.with_suffix(".py").is_file()):
                problems.append(f"{folder.relative_to(root).as_posix()}/ mirrors nothing: "
                                f"{mirrored.relative_to(root).as_posix()} is no package "
                                "or module")
    for code in MIRRORED_PACKAGES:
        top = next(top for top, mirrored in MIRRORS.items() if mirrored == code)
        for init in sorted((root / code).glob("*/__init__.py")):
            if _own_folder_of_tests(f"{code}/{init.parent.name}") is not None:
                continue
            if not (tests / top / init.parent.name).is_dir():
                problems.append(f"{code}/{init.parent.name}/ has no folder of tests "
                                f"(tests/{top}/{init.parent.name}/)")
    return problems


def test_no_module_imports_a_test_module() -> None:
    assert imports_of_test_modules() == []


def test_only_the_benchmarks_tests_import_benchmarks() -> None:
    assert benchmark_imports() == []


def test_shared_helpers_live_in_tests_helpers() -> None:
    assert stray_helpers() == []


def test_tests_mirror_the_packages() -> None:
    assert unmirrored_folders() == []


def test_the_layout_checks_catch_planted_violations(tmp_path: Path) -> None:
    """The checks can fail: a tree with a test importing another test module (once inside a
    function), a benchmark importing a test module, a helper importing a benchmark, a
    helper module among the tests, a test among the helpers, a folder of tests for no
    package, a second folder for bot/adapters/' tests (tests/bot/adapters/), and a game
    package and a bot package without tests. Imports of tests/helpers/, and of benchmarks
    by the benchmarks' tests, stay allowed."""
    files = {
        "engines/__init__.py": "",
        "engines/booleo/__init__.py": "",
        "engines/digitalo/__init__.py": "",
        "bot/__init__.py": "",
        "bot/adapters/__init__.py": "",
        "bot/adapters/console/__init__.py": "",
        "bot/classroom/__init__.py": "",
        "bot/service/__init__.py": "",
        "benchmarks/load.py": "from tests.helpers.scripted_play import Table\n"
                              "from tests.engines.booleo.test_rules import deal\n",
        "tests/__init__.py": "",
        "tests/conftest.py": "from tests.helpers.paths import REPO_ROOT\n",
        "tests/helpers/__init__.py": "",
        "tests/helpers/scripted_play.py": "from benchmarks.load import main\n",
        "tests/helpers/test_paths.py": "",
        "tests/benchmarks/__init__.py": "",
        "tests/benchmarks/test_load.py": "from benchmarks.load import main\n",
        "tests/adapters/__init__.py": "",
        "tests/adapters/console/__init__.py": "",
        "tests/bot/__init__.py": "",
        "tests/bot/adapters/__init__.py": "",
        "tests/bot/classroom/__init__.py": "",
        "tests/engines/__init__.py": '"""Engine tests."""\n',
        "tests/engines/booleo/__init__.py": "",
        "tests/engines/booleo/cases.py": "CASES = []\n",
        "tests/engines/booleo/test_rules.py": (
            "from tests.engines.booleo import cases\n"
            "from tests.helpers import scripted_play\n\n\n"
            "def deal() -> None:\n"
            "    from ..chess.test_moves import board\n"),
        "tests/engines/chess/__init__.py": "",
        "tests/engines/chess/test_moves.py": "board = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert imports_of_test_modules(tmp_path) == [
        "benchmarks.load imports tests.engines.booleo.test_rules, a test module",
        "tests.engines.booleo.test_rules imports tests.engines.booleo, a test module",
        "tests.engines.booleo.test_rules imports tests.engines.booleo.cases, a test module",
        "tests.engines.booleo.test_rules imports tests.engines.chess.test_moves, a test module",
    ]
    assert benchmark_imports(tmp_path) == [
        "tests.helpers.scripted_play imports benchmarks.load, a benchmark"]
    assert stray_helpers(tmp_path) == [
        "tests/engines/booleo/cases.py is not a test module: shared code goes to tests/helpers/",
        "tests/helpers/test_paths.py is a test module among the helpers",
    ]
    assert unmirrored_folders(tmp_path) == [
        "tests/engines/chess/ mirrors nothing: engines/chess is no package or module",
        "tests/bot/adapters/ mirrors bot/adapters, whose tests are in tests/adapters/",
        "engines/digitalo/ has no folder of tests (tests/engines/digitalo/)",
        "bot/service/ has no folder of tests (tests/bot/service/)",
    ]
    # Without the planted faults the tree passes.
    for name in ("tests/engines/booleo/cases.py", "tests/helpers/test_paths.py",
                 "tests/engines/chess/test_moves.py", "tests/engines/chess/__init__.py",
                 "tests/bot/adapters/__init__.py"):
        (tmp_path / name).unlink()
    (tmp_path / "tests/engines/chess").rmdir()
    (tmp_path / "tests/bot/adapters").rmdir()
    (tmp_path / "tests/engines/digitalo").mkdir()
    (tmp_path / "tests/bot/service").mkdir()
    (tmp_path / "tests/engines/booleo/test_rules.py").write_text(
        "from tests.helpers import scripted_play\n", encoding="utf-8")
    (tmp_path / "tests/helpers/scripted_play.py").write_text("", encoding="utf-8")
    (tmp_path / "benchmarks/load.py").write_text(
        "from tests.helpers.scripted_play import Table\n", encoding="utf-8")
    assert imports_of_test_modules(tmp_path) == []
    assert benchmark_imports(tmp_path) == []
    assert stray_helpers(tmp_path) == []
    assert unmirrored_folders(tmp_path) == []
