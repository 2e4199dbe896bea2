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

The machinery (moves, import and text rewrites, the command line) is shared with
``scripts/restructure_bot.py``: ``scripts/restructure_common.py``; what is the games' own
(the faces' names, ``booleo.deck_cards`` through a face) is ``EngineImportRewriter`` here.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared part, beside this
from restructure_common import (
    Edit,
    ImportRewriter,
    Plan,
    Report,
    module_binds,
    module_of,
)
from restructure_common import main as run_main
from restructure_common import restructure as run_plan

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


FACES = tuple(f"engines.{game}" for game in GAMES)


def _check_tables() -> None:
    """A name sent to a module must not shadow a submodule of the package it leaves."""
    submodules = {module_of(new) for _, new in MOVES}
    for face, table in (*FACE_NAMES.items(), *INSIDE_NAMES.items()):
        for name in table:
            if f"{face}.{name}" in submodules:
                raise SystemExit(f"{face}.{name} is both a name and a module")


def stray_modules(root: Path) -> list[str]:
    """Another branch's new module with an old game prefix: where it goes is a decision."""
    warnings = []
    for flat in sorted((root / "engines").glob("*.py")):
        relative = flat.relative_to(root).as_posix()
        if any(flat.stem.startswith(f"{game}_") or flat.stem == game for game in GAMES) \
                and relative not in PATH_MAP:
            warnings.append(f"{relative} is not in MOVES: add it to the table")
    return warnings


# Files that hold the old names on purpose: this tool and its test.
KEEP_OLD_NAMES = ("scripts/restructure_engines.py", "tests/test_restructure_engines.py")

PLAN = Plan(MOVES, SCAN_DIRS, KEEP_OLD_NAMES, NEW_PACKAGES, FACE_NAMES, stray_modules)
MODULE_MAP = PLAN.module_map
PATH_MAP = PLAN.path_map


# ------------------------------------------------------------------------ the imports

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


def alias_for(module: str) -> str:
    """The name a module gets where the tool imports it: ``engines.booleo.cards`` →
    ``booleo_cards``, read like the old flat module names."""
    return "_".join(module.split(".")[1:])


class EngineImportRewriter(ImportRewriter):
    """The shared rewrites, plus the game packages' faces: a game's own modules import
    its public names from their modules, and ``booleo.deck_cards`` through a face
    binding becomes the name imported from its module."""

    def __init__(self, plan: Plan, root: Path, path: Path, data: bytes) -> None:
        super().__init__(plan, root, path, data)
        self.inside = package_of(path, root)
        self.face_file = is_face_file(path, root)

    def _home(self, face: str, name: str) -> str | None:
        """Where ``face``'s ``name`` is to be imported from in this file, if not the face."""
        if self.face_file and self.module == face:
            return None  # the package's own __init__ defines its exports
        home = FACE_NAMES.get(face, {}).get(name)
        if home is None and self.inside == face:
            home = INSIDE_NAMES.get(face, {}).get(name)
        return home if home is not None and module_binds(self.root, home, name) else None

    def extra(self) -> None:
        self.rewrite_attributes()

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


# ---------------------------------------------------------------------------- running

def restructure(root: Path, dry_run: bool = False, git: bool | None = None,
                ruff: bool = True) -> Report:
    _check_tables()
    return run_plan(PLAN, root, dry_run, git, ruff, EngineImportRewriter)


def main(argv: list[str] | None = None) -> int:
    return run_main(restructure, ROOT, __doc__.splitlines()[0] if __doc__ else None, argv)


if __name__ == "__main__":
    sys.exit(main())
