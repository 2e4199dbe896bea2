"""What the re-runnable restructure tools of issue 39 share: ``scripts/restructure_engines.py``
(``engines/`` to one package per game) and ``scripts/restructure_bot.py`` (``bot/`` to one
package per feature). Each tool is a ``Plan``, explicit tables and nothing else, run by
``restructure``:

1. ``git mv`` every old file (``Plan.moves``) to its new path, where the old file still
   exists and the new one does not (both there: a warning, merge them by hand); a package
   folder a move creates gets the ``__init__.py`` the plan gives (``new_packages``).
2. In every ``.py`` file under ``scan_dirs`` (``keep_old_names`` excepted) the imports are
   rewritten, with the file's syntax tree telling where they stand: ``from old import X``
   → ``from new import X``; ``from package import old_leaf`` → ``from new_package import
   new_leaf as old_leaf`` (the old name stays bound, so the code using it is unchanged);
   ``import old`` → ``import new``; a name that left a module (``names``) is imported from
   the module it lives in now, once that module exists and binds it.
3. In ``.py`` and ``.md`` files the old paths are rewritten in text too: dotted module
   paths (strings such as ``monkeypatch.setattr("bot.x.Y", …)`` included), file paths, and
   ``module.name`` of a name that moved.
4. The files it changed get their imports sorted and the unused ones dropped (``ruff
   --select I001,F401 --fix``), when ruff is installed.

Running a plan twice changes nothing the second time. A file the tables do not know is
rewritten like any other; ``Plan.strays`` reports the files whose place is a decision (an
old-style module another branch added).
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path


def module_of(path: str) -> str:
    """``engines/booleo/__init__.py`` → ``engines.booleo``."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


@dataclass
class Plan:
    """One restructure: what moves where, and where to look."""

    moves: tuple[tuple[str, str], ...]  # old file → new file
    scan_dirs: tuple[str, ...]
    keep_old_names: tuple[str, ...] = ()  # files that hold the old names on purpose
    new_packages: Mapping[str, str] = field(default_factory=dict)  # path → its text
    # A module (by its new name) → the names that left it → the module each lives in now.
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Warnings about files whose place is a decision: called with the tree's root.
    strays: Callable[[Path], list[str]] | None = None
    # Whether the text rules read a .py file's code too, not only its strings and comments.
    # Off where an old module's path can also be a variable's attribute (``bot.puzzles.daily`` of
    # a ``bot: LogicBot``): code then changes only through its syntax tree.
    text_in_code: bool = True
    module_map: dict[str, str] = field(init=False)
    path_map: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.module_map = {module_of(old): module_of(new) for old, new in self.moves
                           if module_of(old) != module_of(new)}
        self.path_map = dict(self.moves)

    def check(self) -> None:
        """A name sent to a module must not shadow a module of the new tree."""
        submodules = {module_of(new) for _, new in self.moves}
        for module, table in self.names.items():
            for name in table:
                if f"{module}.{name}" in submodules:
                    raise SystemExit(f"{module}.{name} is both a name and a module")


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


def move_files(plan: Plan, root: Path, report: Report, dry_run: bool, git: bool) -> None:
    for old, new in plan.moves:
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
    moved_into = {(root / new).parent for old, new in report.moved}
    for path, text in plan.new_packages.items():
        package = root / path
        if (package.parent.is_dir() or (dry_run and package.parent in moved_into)) \
                and not package.exists():
            report.created.append(path)
            if not dry_run:
                package.write_text(text, encoding="utf-8")
                if git:
                    subprocess.run(["git", "-C", str(root), "add", path], check=True)
    if plan.strays is not None:
        report.warnings.extend(plan.strays(root))


def scanned_files(plan: Plan, root: Path) -> Iterator[Path]:
    for folder in plan.scan_dirs:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".py", ".md") or not path.is_file():
                continue
            if ".venv" in path.parts or "__pycache__" in path.parts \
                    or path.relative_to(root).as_posix() in plan.keep_old_names:
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
    """Rewrites one file's imports of moved modules and names (see the module's
    docstring); a tool with more to rewrite subclasses it (``extra``, ``_home``)."""

    def __init__(self, plan: Plan, root: Path, path: Path, data: bytes) -> None:
        self.plan = plan
        self.module_map = plan.module_map
        self.root = root
        self.path = path
        self.source = Source(data)
        self.tree = ast.parse(data, str(path))
        self.module = module_of(path.relative_to(root).as_posix())
        self.edits: list[Edit] = []
        self.appended: dict[int, list[str]] = {}  # statement id → import lines after it
        self.replaced: dict[int, str] = {}

    def has_names(self, module: str) -> bool:
        """Whether names left ``module`` (so each imported from it is looked up)."""
        return module in self.plan.names

    def _home(self, module: str, name: str) -> str | None:
        """Where ``module``'s ``name`` is to be imported from in this file, if not there."""
        home = self.plan.names.get(module, {}).get(name)
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
        module = self.module_map.get(node.module, node.module)
        groups: dict[str, list[tuple[str, str | None, str]]] = {}
        for alias in node.names:
            comment = self._name_comment(node, alias)
            target, name, asname = module, alias.name, alias.asname
            moved = self.module_map.get(f"{module}.{name}")
            if moved is not None:
                # from engines import booleo_agents → from engines.booleo import agents as …
                target, _, leaf = moved.rpartition(".")
                asname = asname or name
                name = leaf
                if asname == leaf:
                    asname = None
            elif self.has_names(module):
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
            for old, new in sorted(self.module_map.items(), key=lambda item: -len(item[0])):
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

    def rewrite_module_chains(self) -> None:
        """``bot.puzzles.trainer.puzzle_candidates`` in code, where ``bot`` is the package an
        ``import bot.puzzles.trainer`` bound (not a variable of that name in a function): the old
        module's part of the chain becomes the new module's path."""
        packages = {alias.name.partition(".")[0] for node in ast.walk(self.tree)
                    if isinstance(node, ast.Import) for alias in node.names
                    if alias.asname is None and "." in alias.name}
        if not packages:
            return
        local = self.local_names()
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Attribute):
                continue
            parts: list[str] = []
            root: ast.expr = node
            while isinstance(root, ast.Attribute):
                parts.append(root.attr)
                root = root.value
            if not isinstance(root, ast.Name) or root.id not in packages \
                    or root.id in local.get(id(node), set()):
                continue
            dotted = ".".join([root.id, *reversed(parts)])
            new = self.module_map.get(dotted)
            if new is None:
                continue
            assert node.end_lineno is not None and node.end_col_offset is not None
            self.edits.append(Edit(self.source.offset(root.lineno, root.col_offset),
                                   self.source.offset(node.end_lineno, node.end_col_offset),
                                   new.encode("utf-8")))

    def extra(self) -> None:
        """More rewrites of a tool's own, after the import statements' (none here)."""

    def run(self) -> bytes:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                self.rewrite_from(node)
            elif isinstance(node, ast.Import):
                self.rewrite_import(node)
        if not self.plan.text_in_code:
            self.rewrite_module_chains()
        self.extra()
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

TextRule = tuple[re.Pattern[str], str, str | None]


def text_rules(plan: Plan) -> list[TextRule]:
    """(pattern, replacement, ``module:name`` the replacement needs to exist, or None)."""
    rules: list[TextRule] = []
    for old, new in sorted(plan.module_map.items(), key=lambda item: -len(item[0])):
        rules.append((re.compile(rf"(?<![\w.]){re.escape(old)}(?!\w)"), new, None))
    for old, new in plan.path_map.items():
        rules.append((re.compile(rf"(?<![\w/.]){re.escape(old)}(?!\w)"), new, None))
    for module, table in plan.names.items():
        for name, home in table.items():
            pattern = re.compile(rf"(?<![\w.]){re.escape(module)}\.{re.escape(name)}(?!\w)")
            rules.append((pattern, f"{home}.{name}", f"{home}:{name}"))
    return rules


def rewrite_text(text: str, rules: list[TextRule], root: Path) -> str:
    for pattern, replacement, needs in rules:
        if needs is None or module_binds(root, *needs.split(":")):
            text = pattern.sub(replacement, text)
    return text


def rewrite_python_text(text: str, rules: list[TextRule], root: Path) -> str:
    """``rewrite_text`` on a Python file's strings and comments alone."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = [(starts[token.start[0] - 1] + token.start[1],
              starts[token.end[0] - 1] + token.end[1])
             for token in tokenize.generate_tokens(io.StringIO(text).readline)
             if token.type in (tokenize.STRING, tokenize.COMMENT)]
    for start, end in reversed(spans):
        text = text[:start] + rewrite_text(text[start:end], rules, root) + text[end:]
    return text


# ---------------------------------------------------------------------------- running

Rewriter = Callable[[Plan, Path, Path, bytes], ImportRewriter]


def restructure(plan: Plan, root: Path, dry_run: bool = False, git: bool | None = None,
                ruff: bool = True, rewriter: Rewriter = ImportRewriter) -> Report:
    plan.check()
    _BOUND.clear()  # what each module binds, read afresh for this tree
    report = Report()
    move_files(plan, root, report, dry_run, is_git(root) if git is None else git)
    rules = text_rules(plan)
    changed_python: list[Path] = []
    for path in scanned_files(plan, root):
        before = path.read_bytes()
        after = (rewriter(plan, root, path, before).run() if path.suffix == ".py"
                 else before)
        text = (rewrite_python_text(after.decode("utf-8"), rules, root)
                if path.suffix == ".py" and not plan.text_in_code
                else rewrite_text(after.decode("utf-8"), rules, root))
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


def main(run: Callable[..., Report], default_root: Path, description: str | None,
         argv: list[str] | None = None) -> int:
    """The command line of a tool whose ``run(root, dry_run=, git=, ruff=)`` restructures."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--root", type=Path, default=default_root,
                        help="the tree (default: this one)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when something is left to move or rewrite")
    parser.add_argument("--no-git", action="store_true", help="move with rename, not git mv")
    parser.add_argument("--no-ruff", action="store_true",
                        help="do not sort the changed files' imports with ruff")
    args = parser.parse_args(argv)
    report = run(args.root.resolve(), dry_run=args.check,
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
