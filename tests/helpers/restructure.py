"""Issue 39's moves run again after a merge (``scripts/restructure_bot.py`` and
``scripts/restructure_engines.py``), as both tools' tests check them: each tool loaded from
its script, a copy of today's package with a branch's old-style module planted in it, and
the rewritten module run and linted."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.helpers.paths import REPO_ROOT


def load_tool(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def plant_branch(root: Path, package: str, module: str, old_style: str, docs: str) -> Path:
    """Under ``root``: a copy of today's ``package`` with a new subpackage ``drills`` whose
    ``module`` holds ``old_style`` code, and ``docs/drills.md`` holding ``docs``, as a
    branch written before the move brings them. Returns the planted module's path."""
    shutil.copytree(REPO_ROOT / package, root / package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / package / "drills").mkdir()
    (root / package / "drills" / "__init__.py").write_text("", encoding="utf-8")
    planted = root / package / "drills" / module
    planted.write_text(old_style, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "drills.md").write_text(docs, encoding="utf-8")
    return planted


def run_and_lint(root: Path, planted: Path, statement: str) -> str:
    """Runs ``statement`` in ``root`` (where it imports the planted module) and asserts it
    succeeds and that ruff, with the repository's settings, finds nothing to say about
    ``planted``. Returns what the statement printed."""
    run = subprocess.run([sys.executable, "-c", statement], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
                           str(REPO_ROOT / "pyproject.toml"), str(planted)],
                          capture_output=True, text=True, timeout=120)
    assert lint.returncode == 0, lint.stdout
    return run.stdout
