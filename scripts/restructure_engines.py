"""One-off migration tool of issue 39: ``engines/`` from flat, game-prefixed modules to one
package per game. Kept in the repository so that a branch started before the move can be
brought over after merging it: run it again on the merged tree and it moves what is left
and rewrites the new code's imports.

    .venv/bin/python scripts/restructure_engines.py            # move and rewrite
    .venv/bin/python scripts/restructure_engines.py --check    # exit 1 if anything is left

What it does, from the explicit tables below and nothing else:

1. ``git mv`` every old module (``MOVES``) to its new path, where the old file still exists
   and the new one does not; a package folder it creates gets an ``__init__.py``
   (``NEW_PACKAGES``).
2. In every ``.py`` file under ``SCAN_DIRS`` (``KEEP_OLD_NAMES`` excepted), rewrites imports, with
   the file's syntax tree telling where they stand:
   * ``from engines.booleo_cards import X`` → ``from engines.booleo.cards import X``;
   * ``from engines import booleo_agents`` → ``from engines.booleo import agents as
     booleo_agents`` (the old name stays bound, so the code using it is unchanged);
   * ``from engines.booleo import deck_cards``: the game's package exports only its small
     public API now (``engines/<game>/__init__.py``), so a name it no longer exports is
     imported from the module it lives in (``FACE_NAMES``): ``from engines.booleo.cards
     import deck_cards``. Inside a game's own package even the public names come from
     their modules (``INSIDE_NAMES``), so that no module of a game imports its
     ``__init__``;
   * ``booleo.deck_cards`` where ``booleo`` is the game's package (``from engines import
     booleo``) → ``booleo_cards.deck_cards``, with ``from engines.booleo import cards as
     booleo_cards`` added.
   A name is only sent to a module that exists and binds it, so the tool could run before
   the hand edits that made ``state.py`` (the move-only commit) and again after them.
3. In ``.py`` and ``.md`` files, rewrites the old paths in text: ``engines.booleo_agents``
   → ``engines.booleo.agents``, ``engines/booleo_store.py`` → ``engines/booleo/serial.py``,
   ``engines.lgame.solve`` → ``engines.lgame.solver.solve`` (strings such as the registry's
   module paths and ``GameInfo.agents`` included).
4. Sorts the imports of the files it changed and drops the ones left unused (``ruff
   --select I001,F401 --fix``), when ruff is installed.

Running it twice changes nothing the second time. Files it does not know (another branch's
``engines/puzzles/``) are rewritten like any other; an old game-prefixed module that is not
in ``MOVES`` is reported, not moved.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCAN_DIRS = ("engines", "renderers", "bot", "tests", "benchmarks", "scripts", "docs")
GAMES = ("booleo", "digitalo", "lgame", "rithmomachia", "turing")

# Old file → new file. A game's old face module becomes its package's __init__.py.
MOVES: tuple[tuple[str, str], ...] = (
    # shared: analysis helpers, and the parts the two card games share
    ("engines/analysis.py", "engines/analysis/__init__.py"),
    ("engines/card_hints.py", "engines/analysis/card_hints.py"),
    ("engines/card_lookahead.py", "engines/cards/lookahead.py"),
    ("engines/pyramid.py", "engines/cards/pyramid.py"),
    # bOOleO
    ("engines/booleo.py", "engines/booleo/__init__.py"),
    ("engines/booleo_agents.py", "engines/booleo/agents.py"),
    ("engines/booleo_cards.py", "engines/booleo/cards.py"),
    ("engines/booleo_menu.py", "engines/booleo/menu.py"),
    ("engines/booleo_notation.py", "engines/booleo/notation.py"),
    ("engines/booleo_rules.py", "engines/booleo/rules.py"),
    ("engines/booleo_store.py", "engines/booleo/serial.py"),
    ("engines/booleo_views.py", "engines/booleo/views.py"),
    # Digitalo
    ("engines/digitalo.py", "engines/digitalo/__init__.py"),
    ("engines/digitalo_agents.py", "engines/digitalo/agents.py"),
    ("engines/digitalo_cards.py", "engines/digitalo/cards.py"),
    ("engines/digitalo_menu.py", "engines/digitalo/menu.py"),
    ("engines/digitalo_notation.py", "engines/digitalo/notation.py"),
    ("engines/digitalo_rules.py", "engines/digitalo/rules.py"),
    ("engines/digitalo_store.py", "engines/digitalo/serial.py"),
    ("engines/digitalo_views.py", "engines/digitalo/views.py"),
    # the L-game
    ("engines/lgame.py", "engines/lgame/__init__.py"),
    ("engines/lgame_agent.py", "engines/lgame/agents.py"),
    ("engines/lgame_analysis.py", "engines/lgame/analysis.py"),
    ("engines/lgame_board.py", "engines/lgame/board.py"),
    ("engines/lgame_grid.py", "engines/lgame/grid.py"),
    ("engines/lgame_rules.py", "engines/lgame/rules.py"),
    ("engines/lgame_solver.py", "engines/lgame/solver.py"),
    # Boolean Rithmomachia
    ("engines/rithmomachia.py", "engines/rithmomachia/__init__.py"),
    ("engines/rithmomachia_agent.py", "engines/rithmomachia/agents.py"),
    ("engines/rithmomachia_analysis.py", "engines/rithmomachia/analysis.py"),
    ("engines/rithmomachia_board.py", "engines/rithmomachia/board.py"),
    ("engines/rithmomachia_equations.py", "engines/rithmomachia/equations.py"),
    ("engines/rithmomachia_grid.py", "engines/rithmomachia/grid.py"),
    ("engines/rithmomachia_menu.py", "engines/rithmomachia/menu.py"),
    ("engines/rithmomachia_moves.py", "engines/rithmomachia/moves.py"),
    ("engines/rithmomachia_notation.py", "engines/rithmomachia/notation.py"),
    ("engines/rithmomachia_rules.py", "engines/rithmomachia/rules.py"),
    ("engines/rithmomachia_store.py", "engines/rithmomachia/serial.py"),
    ("engines/rithmomachia_views.py", "engines/rithmomachia/views.py"),
    # the Turing Machine: the same role names as the other games
    ("engines/turing/game.py", "engines/turing/state.py"),
    ("engines/turing/agent.py", "engines/turing/agents.py"),
)

NEW_PACKAGES: dict[str, str] = {
    "engines/cards/__init__.py":
        '"""What the card games (bOOleO, Digitalo) share: the pyramid of gate cards and the\n'
        'determinised lookahead of their expert players. Imports no game."""\n',
}

# The names a game's old face module exported and where each lives now; the rest of the
# old 45-name hubs. Names a package still exports (its public API) are not listed. Also a
# module that was split: the names that left it.
_BOOLEO_CARDS = ("ALL_CARDS BASIC_GATES CARD_BY_TOKEN CARD_RANK CARD_TOKENS COPIES "
                 "EXTENDED_GATES GATE_CARDS HAND_SIZE MENU_LIMIT NOT_CARD NO_PLACE_MARK PHASES "
                 "SEATS SEAT_NAMES TOP_LESSON complete_and_valid deck_cards flip_dirty gate_fits "
                 "is_invalid parse_slot_name resolve_flip settle slot_name sort_cards top_rule")
_DIGITALO_CARDS = ("ALL_CARDS CARD_BY_TOKEN CARD_RANK CARD_TOKENS GATES GATE_CARDS HAND_SIZE "
                   "INVERTER NO_PLACE_MARK PHASES SEATS SEAT_NAMES TARGET binary complete "
                   "deck_cards gate_copies gate_view least_gates_each match_winners position_at "
                   "resolve_flip slot_at sort_cards")
_LGAME_SOLVER = ("KEY_SPACE LOSS NEUTRAL_PAIRS PAIR_COUNT PAIR_INDEX PAIR_SYMMETRY "
                 "PLACEMENT_SYMMETRY START_KEY START_NEUTRALS START_O START_X UNKNOWN WIN "
                 "SolvedTable all_position_keys canonical_key neutral_results position_key "
                 "predecessors solve solve_statistics solved_table split_key successors")
_LGAME_AGENTS = ("LGameAgent _loses_in_one _scored_moves perfect_preference placements_left "
                 "sensible_move squeeze_moves table_moves")
_RITHMO_BOARD = ("CELL_BY_NAME CELL_NAMES HOME_LEVEL LAYOUT_SHAPES PYRAMID REACH SHAPE_NAMES "
                 "SHAPE_OF bits cell_at code_of owner_of standard_board value_of")
_RITHMO_EQUATIONS = ("BINARY OPS Rules capture_equations captured_cells captures iter_cells "
                     "normalise_ops occupancy rules_for")
_RITHMO_MOVES = ("SEATS counts encode_move generate_moves make_move move_parts move_text "
                 "position_key victories")
_RITHMO_NOTATION = ("EXPECTED EXPECTED_PLACE parse_cell parse_move_cells parse_placement "
                    "placement_text")


def _names(home: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), home)


FACE_NAMES: dict[str, dict[str, str]] = {
    "engines.booleo": {
        **_names("engines.booleo.cards", _BOOLEO_CARDS),
        **_names("engines.booleo.notation", "EXPECTED Move parse_move"),
        **_names("engines.booleo.rules", "LATER_OPTIONS"),
        **_names("engines.cards.pyramid", "LESSONS position_of pyramid_slots"),
    },
    "engines.digitalo": {
        **_names("engines.digitalo.cards", _DIGITALO_CARDS),
        **_names("engines.digitalo.notation", "EXPECTED Move parse_move"),
        **_names("engines.digitalo.rules", "LATER_OPTIONS"),
        **_names("engines.cards.pyramid", "position_of"),
    },
    "engines.lgame": {
        **_names("engines.lgame.rules", "EXPECTED LATER_OPTIONS neutral_step_text"),
        **_names("engines.lgame.solver", _LGAME_SOLVER),
        **_names("engines.lgame.agents", _LGAME_AGENTS),
        **_names("engines.lgame.board", "PLACEMENTS PLACEMENT_BY_CODE l_moves"),
        **_names("engines.lgame.views", "MARKS"),
    },
    "engines.rithmomachia": {
        **_names("engines.rithmomachia.board", _RITHMO_BOARD),
        **_names("engines.rithmomachia.equations", _RITHMO_EQUATIONS),
        **_names("engines.rithmomachia.moves", _RITHMO_MOVES),
        **_names("engines.rithmomachia.notation", _RITHMO_NOTATION),
        **_names("engines.rithmomachia.rules", "SEAT_NAMES"),
    },
    "engines.turing": {},
    # turing/game.py became state.py, then split: the rules class and what it needs are in
    # rules.py, state.py keeps the State class, new_game and replay.
    "engines.turing.state": _names("engines.turing.rules", (
        "NAME TITLE MAX_PLAYERS PUZZLE_CODE_PATTERN OPTIONS COLOUR_SYMBOLS DIGITS Sheet "
        "check_puzzle_code check_solution_code parse_code machine_scores beats")),
}

# Where a game's public names live, for the game's own modules: they import them from
# there, never from their package's __init__ (which imports them: a cycle in waiting).
INSIDE_NAMES: dict[str, dict[str, str]] = {
    "engines.booleo": {
        **_names("engines.booleo.state", "BooleoState State"),
        **_names("engines.booleo.rules", "NAME OPTIONS LEVELS"),
    },
    "engines.digitalo": {
        **_names("engines.digitalo.state", "DigitaloState State"),
        **_names("engines.digitalo.rules", "NAME OPTIONS LEVELS"),
    },
    "engines.lgame": {
        **_names("engines.lgame.state", "LGameState State"),
        **_names("engines.lgame.rules", "NAME OPTIONS"),
        **_names("engines.lgame.agents", "LEVELS make_agent"),
    },
    "engines.rithmomachia": {
        **_names("engines.rithmomachia.state", "RithmomachiaState State"),
        **_names("engines.rithmomachia.rules", "NAME OPTIONS LEVELS"),
    },
    "engines.turing": {
        **_names("engines.turing.state", "TuringState State NAME OPTIONS TITLE new_game"),
        **_names("engines.turing.agents", "TuringAgent"),
    },
}


def module_of(path: str) -> str:
    """``engines/booleo/__init__.py`` → ``engines.booleo``."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


MODULE_MAP: dict[str, str] = {module_of(old): module_of(new) for old, new in MOVES
                              if module_of(old) != module_of(new)}
PATH_MAP: dict[str, str] = {old: new for old, new in MOVES}
FACES = tuple(f"engines.{game}" for game in GAMES)


def _check_tables() -> None:
    """A name sent to a module must not shadow a submodule of the package it leaves."""
    submodules = {module_of(new) for _, new in MOVES}
    for face, table in (*FACE_NAMES.items(), *INSIDE_NAMES.items()):
        for name in table:
            if f"{face}.{name}" in submodules:
                raise SystemExit(f"{face}.{name} is both a name and a module")


# --------------------------------------------------------------------------- the tree

@dataclass
class Report:
    moved: list[tuple[str, str]] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    rewritten: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.moved or self.created or self.rewritten)


def is_git(root: Path) -> bool:
    return subprocess.run(["git", "-C", str(root), "rev-parse", "--git-dir"],
                          capture_output=True).returncode == 0


def move_files(root: Path, report: Report, dry_run: bool, git: bool) -> None:
    for old, new in MOVES:
        source, target = root / old, root / new
        if not source.exists():
            continue
        if target.exists():
            report.warnings.append(f"{old} and {new} both exist: merge them by hand")
            continue
        report.moved.append((old, new))
        if dry_run:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if git:
            subprocess.run(["git", "-C", str(root), "mv", old, new], check=True)
        else:
            source.rename(target)
    for path, text in NEW_PACKAGES.items():
        package = root / path
        if package.parent.is_dir() and not package.exists():
            report.created.append(path)
            if not dry_run:
                package.write_text(text, encoding="utf-8")
                if git:
                    subprocess.run(["git", "-C", str(root), "add", path], check=True)
    # Another branch's new module with an old game prefix: where it goes is a decision.
    for flat in sorted((root / "engines").glob("*.py")):
        relative = flat.relative_to(root).as_posix()
        if any(flat.stem.startswith(f"{game}_") or flat.stem == game for game in GAMES) \
                and relative not in PATH_MAP:
            report.warnings.append(f"{relative} is not in MOVES: add it to the table")


# Files that hold the old names on purpose: this tool and its test.
KEEP_OLD_NAMES = ("scripts/restructure_engines.py", "tests/test_restructure_engines.py")


def scanned_files(root: Path) -> Iterator[Path]:
    for folder in SCAN_DIRS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".py", ".md") or not path.is_file():
                continue
            if ".venv" in path.parts or "__pycache__" in path.parts \
                    or path.relative_to(root).as_posix() in KEEP_OLD_NAMES:
                continue
            yield path


# ------------------------------------------------------------------------ the imports

@dataclass
class Edit:
    start: int  # byte offsets into the file
    end: int
    text: bytes


class Source:
    """A file's bytes with the offsets of its lines: ``ast`` counts columns in bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0]
        for index, byte in enumerate(data):
            if byte == 0x0A:
                self.starts.append(index + 1)

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column

    def line(self, number: int) -> bytes:
        end = self.starts[number] if number < len(self.starts) else len(self.data)
        return self.data[self.starts[number - 1]:end].rstrip(b"\r\n")

    def comment_after(self, line: int, column: int) -> str:
        """The ``# comment`` on ``line`` after ``column``, or ''."""
        rest = self.line(line)[column:].decode("utf-8")
        mark = rest.find("#")
        return rest[mark:].rstrip() if mark >= 0 else ""


def package_of(path: Path, root: Path) -> str:
    """The game package a file belongs to (``engines.lgame``), or ''; its __init__ is its
    face, and counts as outside."""
    parts = path.relative_to(root).with_suffix("").parts
    if len(parts) >= 3 and parts[0] == "engines" and f"engines.{parts[1]}" in FACES \
            and parts[-1] != "__init__":
        return f"engines.{parts[1]}"
    return ""


def is_face_file(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    return len(parts) == 3 and parts[0] == "engines" and parts[2] == "__init__.py" \
        and f"engines.{parts[1]}" in FACES


def module_file(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


_BOUND: dict[Path, set[str]] = {}


def module_binds(root: Path, module: str, name: str) -> bool:
    """Whether ``module`` exists and binds ``name`` at its top level (defines or imports
    it): only then is ``name`` imported from there."""
    path = module_file(root, module)
    if path is None:
        return False
    if path not in _BOUND:
        names: set[str] = set()
        statements = list(ast.parse(path.read_bytes()).body)
        while statements:
            node = statements.pop()
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t)
                             if isinstance(n, ast.Name))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names.update(a.asname or a.name.partition(".")[0] for a in node.names)
            elif isinstance(node, ast.If | ast.Try):
                statements.extend([*node.body, *node.orelse])
        _BOUND[path] = names
    return name in _BOUND[path]


def alias_for(module: str) -> str:
    """The name a module gets where the tool imports it: ``engines.booleo.cards`` →
    ``booleo_cards``, read like the old flat module names."""
    return "_".join(module.split(".")[1:])


def render_from(indent: str, module: str, names: list[tuple[str, str | None, str]],
                comment: str) -> str:
    """``from module import names`` as ruff's isort would lay it out (it sorts afterwards);
    per-name comments keep their names, one per line."""
    parts = [f"{name} as {asname}" if asname is not None else name for name, asname, _ in names]
    one = f"{indent}from {module} import {', '.join(parts)}"
    trailing = f"  {comment}" if comment else ""
    if not any(c for _, _, c in names) and len(one + trailing) <= 100:
        return one + trailing
    lines = [f"{indent}from {module} import ({trailing}"]
    for part, (_, _, name_comment) in zip(parts, names, strict=True):
        lines.append(f"{indent}    {part},{'  ' + name_comment if name_comment else ''}")
    lines.append(f"{indent})")
    return "\n".join(lines)


class ImportRewriter:
    def __init__(self, root: Path, path: Path, data: bytes) -> None:
        self.root = root
        self.path = path
        self.source = Source(data)
        self.tree = ast.parse(data, str(path))
        self.inside = package_of(path, root)
        self.face_file = is_face_file(path, root)
        self.module = module_of(path.relative_to(root).as_posix())
        self.edits: list[Edit] = []
        self.appended: dict[int, list[str]] = {}  # statement id → import lines after it
        self.replaced: dict[int, str] = {}

    def _home(self, face: str, name: str) -> str | None:
        """Where ``face``'s ``name`` is to be imported from in this file, if not the face."""
        if self.face_file and self.module == face:
            return None  # the package's own __init__ defines its exports
        home = FACE_NAMES.get(face, {}).get(name)
        if home is None and self.inside == face:
            home = INSIDE_NAMES.get(face, {}).get(name)
        return home if home is not None and module_binds(self.root, home, name) else None

    def _statement_span(self, node: ast.stmt) -> tuple[int, int, str, str]:
        """Byte span of a whole statement line range, its indentation and trailing comment."""
        assert node.end_lineno is not None and node.end_col_offset is not None
        start = self.source.offset(node.lineno, 0)
        end_line = self.source.line(node.end_lineno)
        end = self.source.starts[node.end_lineno - 1] + len(end_line)
        indent = self.source.line(node.lineno)[:node.col_offset].decode("utf-8")
        comment = self.source.comment_after(node.end_lineno, node.end_col_offset)
        return start, end, indent, comment

    def _name_comment(self, node: ast.ImportFrom, alias: ast.alias) -> str:
        if node.lineno == node.end_lineno or alias.end_lineno is None:
            return ""
        assert alias.end_col_offset is not None
        return self.source.comment_after(alias.end_lineno, alias.end_col_offset)

    def rewrite_from(self, node: ast.ImportFrom) -> None:
        if node.level or node.module is None:
            return
        module = MODULE_MAP.get(node.module, node.module)
        groups: dict[str, list[tuple[str, str | None, str]]] = {}
        for alias in node.names:
            comment = self._name_comment(node, alias)
            target, name, asname = module, alias.name, alias.asname
            moved = MODULE_MAP.get(f"{module}.{name}")
            if moved is not None:
                # from engines import booleo_agents → from engines.booleo import agents as …
                target, _, leaf = moved.rpartition(".")
                asname = asname or name
                name = leaf
                if asname == leaf:
                    asname = None
            elif module in FACE_NAMES:
                home = self._home(module, name)
                if home is not None:
                    target = home
            groups.setdefault(target, []).append((name, asname, comment))
        if list(groups) == [node.module] and all(
                (a.name, a.asname) == (n, s)
                for a, (n, s, _) in zip(node.names, groups[node.module], strict=True)):
            return  # nothing to change
        start, end, indent, comment = self._statement_span(node)
        if list(groups) == [module] and module != node.module and all(
                (a.name, a.asname) == (n, s)
                for a, (n, s, _) in zip(node.names, groups[module], strict=True)):
            # Only the module moved: change its name and keep the statement's layout.
            text = self.source.data[start:end].decode("utf-8")
            text = text.replace(f"from {node.module} ", f"from {module} ", 1)
            self.replaced[id(node)] = text
            self.edits.append(Edit(start, end, text.encode("utf-8")))
            return
        lines = [render_from(indent, target, names, comment if i == 0 else "")
                 for i, (target, names) in enumerate(groups.items())]
        text = "\n".join(lines)
        self.replaced[id(node)] = text
        self.edits.append(Edit(start, end, text.encode("utf-8")))

    def rewrite_import(self, node: ast.Import) -> None:
        changed = False
        parts = []
        for alias in node.names:
            name = alias.name
            for old, new in sorted(MODULE_MAP.items(), key=lambda item: -len(item[0])):
                if name == old or name.startswith(old + "."):
                    name = new + name[len(old):]
                    changed = True
                    break
            parts.append(f"{name} as {alias.asname}" if alias.asname else name)
        if not changed:
            return
        start, end, indent, comment = self._statement_span(node)
        text = f"{indent}import {', '.join(parts)}" + (f"  {comment}" if comment else "")
        self.replaced[id(node)] = text
        self.edits.append(Edit(start, end, text.encode("utf-8")))

    def face_bindings(self) -> dict[str, list[tuple[str, ast.stmt]]]:
        """Names bound to a game's package: ``from engines import booleo [as b]``,
        ``import engines.booleo as b``; each with its statements."""
        bound: dict[str, list[tuple[str, ast.stmt]]] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "engines":
                for alias in node.names:
                    module = MODULE_MAP.get(f"engines.{alias.name}", f"engines.{alias.name}")
                    if module in FACES:
                        bound.setdefault(alias.asname or alias.name, []).append((module, node))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in FACES:
                        bound.setdefault(alias.asname, []).append((alias.name, node))
        return bound

    def resolve(self, module: str, name: str) -> str:
        """What ``from module import name`` binds once rewritten, as a dotted path."""
        module = MODULE_MAP.get(module, module)
        full = f"{module}.{name}"
        home = self._home(module, name) if module in FACE_NAMES else None
        return MODULE_MAP.get(full, f"{home}.{name}" if home else full)

    def bindings(self) -> tuple[dict[str, str], set[str]]:
        """Names the file's top level binds by import (``name → dotted path``, after the
        rewrite), and every name any import in the file binds."""
        top: dict[str, str] = {}
        anywhere: set[str] = set()
        for node in ast.walk(self.tree):
            pairs: list[tuple[str, str]] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                pairs = [(a.asname or a.name, self.resolve(node.module, a.name))
                         for a in node.names]
            elif isinstance(node, ast.Import):
                pairs = [(a.asname, MODULE_MAP.get(a.name, a.name))
                         for a in node.names if a.asname]
            anywhere.update(name for name, _ in pairs)
            if node in self.tree.body:
                top.update(pairs)
        return top, anywhere

    def local_names(self) -> dict[int, set[str]]:
        """For every node inside a function, the names its enclosing functions bind: a
        top-level name is not reused where one of them shadows it."""
        found: dict[int, set[str]] = {}

        def visit(node: ast.AST, names: frozenset[str]) -> None:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                own = {n.id for n in ast.walk(node)
                       if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                own |= {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}
                names = names | own
            found[id(node)] = set(names)
            for child in ast.iter_child_nodes(node):
                visit(child, names)

        visit(self.tree, frozenset())
        return found

    def rewrite_attributes(self) -> None:
        """``booleo.deck_cards`` → ``deck_cards`` imported from its module, or, where that
        name is taken in the file, ``booleo_cards.deck_cards``."""
        bound = self.face_bindings()
        if not bound or self.face_file:
            return
        top, imported = self.bindings()
        local = self.local_names()
        identifiers = {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)} | {
            a.arg for a in ast.walk(self.tree) if isinstance(a, ast.arg)} | {
            d.name for d in ast.walk(self.tree)
            if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)} | imported
        planned: dict[str, str] = {}  # name the tool imports → dotted path
        needed: dict[str, list[str]] = {}  # face alias → import lines to add after it
        for node in ast.walk(self.tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound):
                continue
            face = bound[node.value.id][0][0]
            home = self._home(face, node.attr)
            if home is None:
                continue
            target = f"{home}.{node.attr}"
            shadowed = local.get(id(node), set())
            # The name itself where it is free (the shortest line), else a module binding
            # already there, else the module under a name of its own.
            reuse = sorted((name for name, path in top.items()
                            if path in (target, home) and name not in shadowed),
                           key=lambda name: top[name] != target)
            free = planned.get(node.attr) == target or node.attr not in identifiers
            line = ""
            if reuse and (top[reuse[0]] == target or not free):
                name = reuse[0]
                text = name if top[name] == target else f"{name}.{node.attr}"
            elif free:
                name = text = node.attr
                line = f"from {home} import {name}"
            else:
                name = alias_for(home)
                text = f"{name}.{node.attr}"
                parent, _, leaf = home.rpartition(".")
                line = f"from {parent} import {leaf} as {name}"
                if planned.get(name, home) != home or (name in identifiers and name not in top
                                                       and name not in planned):
                    raise SystemExit(f"{self.path}:{node.lineno}: {name} is taken; rewrite "
                                     f"{node.value.id}.{node.attr} by hand")
            if line:
                planned[name] = target if text == name else home
                identifiers.add(name)
                lines = needed.setdefault(node.value.id, [])
                if line not in lines:
                    lines.append(line)
            assert node.end_lineno is not None and node.end_col_offset is not None
            self.edits.append(Edit(self.source.offset(node.lineno, node.col_offset),
                                   self.source.offset(node.end_lineno, node.end_col_offset),
                                   text.encode("utf-8")))
        for face_alias, lines in needed.items():
            for _, statement in bound[face_alias]:
                indent = self.source.line(statement.lineno)[:statement.col_offset].decode()
                _, _, _, comment = self._statement_span(statement)
                # an import below the code that sets up sys.path keeps its ``noqa: E402``
                noqa = f"  {comment}" if comment.startswith("# noqa") else ""
                after = self.appended.setdefault(id(statement), [])
                after.extend(indent + line + noqa for line in lines
                             if indent + line + noqa not in after)

    def run(self) -> bytes:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                self.rewrite_from(node)
            elif isinstance(node, ast.Import):
                self.rewrite_import(node)
        self.rewrite_attributes()
        for node in ast.walk(self.tree):
            if id(node) in self.appended and isinstance(node, ast.stmt):
                start, end, _, _ = self._statement_span(node)
                text = self.replaced.get(id(node)) or self.source.data[start:end].decode()
                self.edits = [e for e in self.edits if (e.start, e.end) != (start, end)]
                self.edits.append(Edit(start, end, "\n".join(
                    [text, *self.appended[id(node)]]).encode("utf-8")))
        data = self.source.data
        for edit in sorted(self.edits, key=lambda e: e.start, reverse=True):
            data = data[:edit.start] + edit.text + data[edit.end:]
        return data


# --------------------------------------------------------------------------- the text

def text_rules() -> list[tuple[re.Pattern[str], str, str | None]]:
    """(pattern, replacement, ``module:name`` the replacement needs to exist, or None)."""
    rules: list[tuple[re.Pattern[str], str, str | None]] = []
    for old, new in sorted(MODULE_MAP.items(), key=lambda item: -len(item[0])):
        rules.append((re.compile(rf"(?<![\w.]){re.escape(old)}(?!\w)"), new, None))
    for old, new in PATH_MAP.items():
        rules.append((re.compile(rf"(?<![\w/.]){re.escape(old)}(?!\w)"), new, None))
    for face, table in FACE_NAMES.items():
        for name, home in table.items():
            pattern = re.compile(rf"(?<![\w.]){re.escape(face)}\.{re.escape(name)}(?!\w)")
            rules.append((pattern, f"{home}.{name}", f"{home}:{name}"))
    return rules


def rewrite_text(text: str, rules: list[tuple[re.Pattern[str], str, str | None]],
                 root: Path) -> str:
    for pattern, replacement, needs in rules:
        if needs is None or module_binds(root, *needs.split(":")):
            text = pattern.sub(replacement, text)
    return text


# ---------------------------------------------------------------------------- running

def restructure(root: Path, dry_run: bool = False, git: bool | None = None,
                ruff: bool = True) -> Report:
    _check_tables()
    _BOUND.clear()  # what each module binds, read afresh for this tree
    report = Report()
    move_files(root, report, dry_run, is_git(root) if git is None else git)
    rules = text_rules()
    changed_python: list[Path] = []
    for path in scanned_files(root):
        before = path.read_bytes()
        after = ImportRewriter(root, path, before).run() if path.suffix == ".py" else before
        text = rewrite_text(after.decode("utf-8"), rules, root)
        after = text.encode("utf-8")
        if after != before:
            report.rewritten.append(path.relative_to(root).as_posix())
            if not dry_run:
                path.write_bytes(after)
                if path.suffix == ".py":
                    changed_python.append(path)
    if ruff and changed_python and not dry_run:
        subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "--fix",
                        "--select", "I001,F401", *map(str, changed_python)], cwd=root)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree (default: this one)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when something is left to move or rewrite")
    parser.add_argument("--no-git", action="store_true", help="move with rename, not git mv")
    parser.add_argument("--no-ruff", action="store_true",
                        help="do not sort the changed files' imports with ruff")
    args = parser.parse_args(argv)
    report = restructure(args.root.resolve(), dry_run=args.check,
                         git=False if args.no_git else None, ruff=not args.no_ruff)
    for old, new in report.moved:
        print(f"move {old} -> {new}")
    for path in report.created:
        print(f"create {path}")
    for path in report.rewritten:
        print(f"rewrite {path}")
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not report.changed:
        print("nothing to do")
    return 1 if args.check and (report.changed or report.warnings) else 0


if __name__ == "__main__":
    sys.exit(main())
