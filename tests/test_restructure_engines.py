"""scripts/restructure_engines.py, the move of issue 39, run again after a merge: on a copy
of today's engines with a branch's new code that still uses the old flat modules, it
rewrites that code to the packages, the code then runs, and a second run changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.paths import REPO_ROOT
from tests.helpers.restructure import load_tool, plant_branch, run_and_lint

# Merge tools for branches begun before issue 39's move, run before such a merge
# (`./run-tests --slow -k restructure`): each test copies or rewrites a tree
# (10-55 s), and an old import left in this tree fails the import checks anyway.
pytestmark = pytest.mark.slow

# A module another branch adds, written against the engines before the move.
OLD_STYLE = '''"""Puzzles from positions."""

from engines import booleo, lgame_solver
from engines import rithmomachia as r
from engines.lgame import LGameState, solve
from engines.rithmomachia_agent import RithmomachiaAgent
from engines.turing.game import parse_code


def pieces() -> list[object]:
    table = lgame_solver.solved_table()
    return [booleo.deck_cards(False)[:2], booleo.new_game({}, 2, 1).n, table.outcome_of(0),
            solve, LGameState, RithmomachiaAgent, parse_code("241"),
            r.CELL_NAMES[0], r.new_game({}, 2, 1).turn]
'''


def test_a_branch_merged_after_the_move_is_brought_over(tmp_path: Path) -> None:
    tool = load_tool("restructure_engines")
    puzzles = plant_branch(
        tmp_path, "engines", "positions.py", OLD_STYLE,
        "Built on `engines/lgame_solver.py` (`engines.lgame.solve`) and "
        "`engines.turing.game`.\n")
    (tmp_path / "engines" / "booleo_drills.py").write_text("", encoding="utf-8")

    report = tool.restructure(tmp_path, git=False)
    assert sorted(report.rewritten) == ["docs/drills.md", "engines/drills/positions.py"]
    assert report.warnings == [
        "engines/booleo_drills.py is not in MOVES: add it to the table"]
    rewritten = puzzles.read_text(encoding="utf-8")
    for old in ("lgame_solver import", "rithmomachia_agent", "turing.game",
                "from engines.lgame import LGameState, solve", "booleo.deck_cards", "r.CELL"):
        assert old not in rewritten
    assert (tmp_path / "docs" / "drills.md").read_text(encoding="utf-8") == (
        "Built on `engines/lgame/solver.py` (`engines.lgame.solver.solve`) and "
        "`engines.turing.state`.\n")
    # The rewritten module runs against the packages, and ruff finds nothing to say.
    run_and_lint(tmp_path, puzzles,
                 "from engines.drills.positions import pieces; print(pieces())")

    again = tool.restructure(tmp_path, git=False)
    assert not again.changed
    assert puzzles.read_text(encoding="utf-8") == rewritten


def test_the_tree_here_has_nothing_left_to_move() -> None:
    """Run on this repository, the tool finds nothing to do: no old module, no old path."""
    report = load_tool("restructure_engines").restructure(REPO_ROOT, dry_run=True)
    assert not report.changed and report.warnings == []
