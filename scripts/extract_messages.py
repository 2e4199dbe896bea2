"""Collect every user-facing message from the code and keep the gettext catalogues in step.

The catalogues live in ``renderers/locale/<lang>/LC_MESSAGES/logic_bot.po``. Their msgid is
the message key (``game.to_move``), their msgstr the text; the English file is generated
from the code, the other languages are written by translators.

Usage (from the repository root)::

    .venv/bin/python scripts/extract_messages.py          # update the .po files, report gaps
    .venv/bin/python scripts/extract_messages.py --check  # change nothing; exit 1 on a gap
    .venv/bin/python scripts/extract_messages.py --locations  # only the #: comments

Without ``--check`` the script rewrites the English catalogue (key -> English default as
written in the code) and merges every other language with it: translations are kept, keys
new in English are added with an empty msgstr (the bot shows English until someone fills
them in), a translation whose English text changed is flagged ``fuzzy`` (the bot ignores
it until a translator checks it and removes the flag), and each entry gets the current
English text as a ``#.`` comment so translators see what to translate. Keys a language has
but English lacks are reported, not deleted. After adding a sentence to the code: run the
script, translate the new empty (or fuzzy) entries in every language, run it again.

The full rewrite writes each catalogue in one form: entries sorted by key, comments
wrapped at 76 columns as Babel wraps them, no Babel version or date in the header, so that
running it twice changes nothing. Entries added or edited by hand out of that form (out
of order, or a comment left unwrapped) are put back in it by the next full run, which is
then a large but content-free diff. ``--locations`` changes only the ``#:`` comments, in
place, for when code moved and nothing else should.

``--check`` exits non-zero when the English catalogue lacks a message of the code, when a
language misses a key (or leaves it empty or fuzzy), or when a translation's
``{placeholder}`` set differs from the English one. ``tests/renderers/test_i18n.py`` runs the same
checks.

What is collected, by walking ``bot/``, ``renderers/`` and ``engines/`` with ``ast``:

* calls of ``translate``/``lookup`` and the adapters' wrappers (``t``, ``_t``) whose key
  is a string literal (or a conditional between literals, paired with a conditional
  default on the same test), with the literal default that follows the key, if any;
* ``GameError`` and every subclass found in the code (``InvalidMove``, ``IllegalMove``,
  ``NotYourTurn``, ...) constructed with a literal key and default; literals joined with
  ``+`` and module-level string constants count as literals;
* ``engines.base.Message("key", "English {param}", ...)``, the translatable texts engines
  build at run time (menu labels, notation hints and names inside errors), like errors;
* ``("key", "English text")`` pairs anywhere (keys chosen before the call, from a dict or
  a conditional), a key followed by its text in any helper's arguments (``_per_seat``),
  and ``translate(lang, KEYS[i], DEFAULTS[i])`` over module-level tuples;
* the Discord command texts, ``text("English", "cmd.key")``;
* each renderer's ``RULES`` as ``rules.<game>``;
* the literal labels of engine menu ``Choice``s as ``<game>.choice.<label>``, the key the
  service looks labels up by. A label that is a ``Message(...)`` call is collected as one;
  other labels built at run time (cell names, card names, a ``Message`` chosen earlier)
  are listed as dynamic, for a reviewer to check that they are notation or ``Message``s;
* the families of keys the code builds from its own data (``runtime_messages``: Turing
  criteria with words, modes, difficulties, presets, Rithmomachia sides and victories,
  the gate lessons, Telegram command texts);
* every key already in the English catalogue, since some keys are only ever built at run
  time (``reason.<reason>``, ``telegram.cmd.<name>``).

English texts come from the code's defaults, except for keys some call site uses without
a default (the catalogue's text is theirs) and keys used with several different defaults
(left as they are, and reported: the code should give each text its own key). Calls whose
key is not a literal are listed as dynamic so that a reviewer can check them.
"""

from __future__ import annotations

import argparse
import ast
import io
import itertools
import re
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from babel.util import TextWrapper

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("bot", "renderers", "engines")
LOCALE_DIR = ROOT / "renderers" / "locale"
DOMAIN = "logic_bot"
ENGLISH = "en"
# ``write_po`` wraps comments at this width even when told not to wrap (as xgettext does).
LOCATION_WIDTH = 76

# Functions whose first literal key-shaped argument is a catalogue key, and whose next
# positional argument (or ``default=``) is the English default.
TRANSLATE_FUNCTIONS = frozenset({"translate", "lookup", "t", "_t"})
ERROR_BASES = frozenset({"GameError"})
# engines.base.Message(key, default, **params): collected exactly like an error.
MESSAGE_CLASSES = frozenset({"Message"})
KEY_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z0-9_-]+)+$")


@dataclass
class Message:
    key: str
    default: str | None
    locations: set[str] = field(default_factory=set)


@dataclass
class Extraction:
    messages: dict[str, Message] = field(default_factory=dict)
    # Keys seen with two different English defaults: the English catalogue can hold only one.
    conflicts: dict[str, set[str]] = field(default_factory=dict)
    # "path:line: code" of calls whose key (or menu label) is built at run time.
    dynamic: list[str] = field(default_factory=list)
    # Keys some call site uses without a default: the catalogue's text is their source.
    bare: set[str] = field(default_factory=set)

    def add(self, key: str, default: str | None, location: str) -> None:
        if default is None:
            self.bare.add(key)
        known = self.messages.get(key)
        if known is None:
            self.messages[key] = Message(key, default, {location})
            return
        known.locations.add(location)
        if default is None:
            return
        if known.default is None:
            known.default = default
        elif known.default != default:
            self.conflicts.setdefault(key, {known.default}).add(default)


def literal(node: ast.expr | None, constants: dict[str, str] | None = None) -> str | None:
    """The string a node always evaluates to: literals, module-level string constants
    (``EXPECTED``) and ``+`` of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and constants:
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal(node.left, constants), literal(node.right, constants)
        if left is not None and right is not None:
            return left + right
    return None


def literal_options(node: ast.expr | None, constants: dict[str, str] | None = None) -> list[str]:
    """Every string a node may evaluate to: a literal, or each branch of ``a if c else b``."""
    if isinstance(node, ast.IfExp):
        return literal_options(node.body, constants) + literal_options(node.orelse, constants)
    value = literal(node, constants)
    return [] if value is None else [value]


def is_key(text: str | None) -> bool:
    return text is not None and KEY_RE.match(text) is not None


def is_text(text: str | None) -> bool:
    """Whether a literal reads as a sentence rather than a key, module path or token."""
    return text is not None and not is_key(text) and (" " in text or "{" in text)


def module_tuples(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level ``NAME = ("a", "b")`` tuples of literals, such as ``SEAT_KEYS``."""
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Tuple | ast.List)):
            items = [literal(item) for item in node.value.elts]
            if items and all(item is not None for item in items):
                found[node.targets[0].id] = [item for item in items if item is not None]
    return found


def module_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments, which messages are often built from."""
    found: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            value = literal(node.value, found)
            if value is not None:
                found[node.targets[0].id] = value
    return found


def call_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def source_files(root: Path = ROOT) -> Iterator[Path]:
    for folder in SOURCE_DIRS:
        yield from sorted((root / folder).rglob("*.py"))


def error_classes(trees: Iterable[ast.Module]) -> set[str]:
    """``GameError`` and its subclasses, by name, followed through any depth of subclassing."""
    found = set(ERROR_BASES)
    classes = [(node.name, {b.id for b in node.bases if isinstance(b, ast.Name)}
                | {b.attr for b in node.bases if isinstance(b, ast.Attribute)})
               for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for name, bases in classes:
            if name not in found and bases & found:
                found.add(name)
                grown = True
    return found


def imports_message(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "engines.base"
               and any(alias.name in MESSAGE_CLASSES for alias in node.names)
               for node in ast.walk(tree))


def game_of(path: Path, root: Path) -> str | None:
    """The game an engine file belongs to: any file of ``engines/<game>/``."""
    parts = path.relative_to(root).parts
    if parts[0] != "engines" or len(parts) < 2:
        return None
    name = parts[1].removesuffix(".py")
    return name if name in games(root) else None


def games(root: Path = ROOT) -> list[str]:
    """The shipped games: every engine with a renderer of the same name."""
    return sorted(p.stem for p in (root / "renderers").glob("*.py")
                  if p.stem not in {"__init__", "common", "i18n", "pyramid"}
                  and ((root / "engines" / p.name).exists()
                       or (root / "engines" / p.stem).is_dir()))


def _translate_call(call: ast.Call) -> list[tuple[str, ast.expr | None]] | None:
    """(key, default node) pairs of a ``translate``-like call, None when it is not one, and
    an empty list when its key is built at run time."""
    for index, arg in enumerate(call.args):
        keys = [k for k in literal_options(arg) if KEY_RE.match(k)]
        if keys:
            following = call.args[index + 1] if index + 1 < len(call.args) else None
            default = following if following is not None else keyword(call, "default")
            if (isinstance(arg, ast.IfExp) and isinstance(default, ast.IfExp)
                    and ast.dump(arg.test) == ast.dump(default.test)):
                # t("a.key" if c else "b.key", "A text" if c else "B text"): pair branches
                return [(k, d) for k, d in ((literal(arg.body), default.body),
                                            (literal(arg.orelse), default.orelse))
                        if k is not None]
            return [(key, default) for key in keys]
        if isinstance(arg, ast.JoinedStr):
            return []
    return None


def _parallel_tuples(call: ast.Call, tuples: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Key/default pairs of ``translate(lang, KEYS[i], DEFAULTS[i])`` with module tuples."""
    names = [arg.value.id for arg in call.args
             if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name)]
    if len(names) < 2 or names[0] not in tuples or names[1] not in tuples:
        return []
    keys, defaults = tuples[names[0]], tuples[names[1]]
    if len(keys) != len(defaults) or not all(is_key(k) for k in keys):
        return []
    return list(zip(keys, defaults, strict=True))


def extract(root: Path = ROOT) -> Extraction:
    """Every message the code uses, with its English default where the code gives one."""
    result = Extraction()
    parsed = [(path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
              for path in source_files(root)]
    error_types = error_classes(tree for _, tree in parsed)
    for path, tree in parsed:
        # Only where engines.base.Message is defined or imported: the Telegram adapter
        # has a Message class of its own.
        uses_message = path.relative_to(root).as_posix() == "engines/base.py" or (
            imports_message(tree))
        errors = error_types | (MESSAGE_CLASSES if uses_message else set())
        relative = path.relative_to(root).as_posix()
        game = game_of(path, root)
        constants = module_constants(tree)
        tuples = module_tuples(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                # ("rithmo.to_move", "{name} ({side}) to move…"): a key chosen before the
                # translate call, often from a dict or a conditional.
                key, text = literal(node.elts[0]), literal(node.elts[1], constants)
                if key is not None and text is not None and is_key(key) and is_text(text):
                    result.add(key, text, relative)
            if (isinstance(node, ast.Assign) and relative.startswith("renderers/")
                    and any(isinstance(t, ast.Name) and t.id == "RULES" for t in node.targets)):
                rules = literal(node.value)
                if rules is not None:  # the service looks rules up as rules.<game>
                    result.add(f"rules.{path.stem}", rules, relative)
            if not isinstance(node, ast.Call):
                continue
            name = call_name(node)
            where = f"{relative}:{node.lineno}"
            parallel = _parallel_tuples(node, tuples) if name in TRANSLATE_FUNCTIONS else []
            for key, text in parallel:
                # translate(language, SEAT_KEYS[seat], SEAT_DEFAULTS[seat])
                result.add(key, text, relative)
            if parallel:
                continue
            if name not in TRANSLATE_FUNCTIONS and name not in errors:
                # Helpers that pass a key and its default on, such as digitalo's _per_seat.
                for first, second in itertools.pairwise(node.args):
                    key, text = literal(first), literal(second, constants)
                    if key is not None and text is not None and is_key(key) and is_text(text):
                        result.add(key, text, relative)
            if name in TRANSLATE_FUNCTIONS:
                found = _translate_call(node)
                if found is None:
                    continue
                if not found:
                    result.dynamic.append(f"{where}: {ast.unparse(node)}")
                for key, default_node in found:
                    result.add(key, literal(default_node, constants), relative)
            elif name in errors:
                key_node = node.args[0] if node.args else keyword(node, "key")
                default_node = node.args[1] if len(node.args) > 1 else keyword(node, "default")
                error_key = literal(key_node)
                error_default = literal(default_node, constants)
                if error_key is None or error_default is None:
                    if key_node is not None:  # a bare re-raise passes no arguments
                        result.dynamic.append(f"{where}: {ast.unparse(node)}")
                    continue
                result.add(error_key, error_default, relative)
            elif name == "_plural" and len(node.args) == 5:
                # renderers/turing.py: _plural(language, key, count, one, other)
                stem = literal(node.args[1])
                one, other = literal(node.args[3]), literal(node.args[4])
                if stem is not None and one is not None and other is not None:
                    result.add(f"{stem}.one", one, relative)
                    result.add(f"{stem}.other", other, relative)
            elif name == "text" and len(node.args) == 2 and relative.startswith("bot/"):
                english, command_key = literal(node.args[0]), literal(node.args[1])
                if english is not None and command_key is not None and KEY_RE.match(command_key):
                    result.add(command_key, english, relative)
            elif name == "Choice" and game is not None:
                label_node = node.args[1] if len(node.args) > 1 else keyword(node, "label")
                if isinstance(label_node, ast.Call) and call_name(label_node) in errors:
                    continue  # the walk reaches the Message call itself
                labels = literal_options(label_node)
                for label in labels:
                    result.add(f"{game}.choice.{label}", label, relative)
                if not labels:
                    result.dynamic.append(f"{where}: {ast.unparse(node)}")
    for key, default, location in runtime_messages():
        result.add(key, default, location)
    return result


def _needs_words(label: str) -> bool:
    """Whether a label has words to translate once its ``{placeholders}`` are removed;
    ``{t} < 3`` is notation and stays as it is in every language."""
    return re.search(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", label)) is not None


def runtime_messages() -> Iterator[tuple[str, str, str]]:
    """Keys the code builds at run time from its own data, with the English text the code
    falls back to: each family mirrors one f-string key in the code (the location named)."""
    from bot.adapters.common import PUZZLE_PRESETS
    from engines.cards.pyramid import LESSONS
    from engines.turing.cards import CRITERIA
    from engines.turing.puzzle import DIFFICULTIES, MODES
    from renderers.rithmomachia import SIDES, VICTORIES

    where = "renderers/turing.py"
    for criterion_id, criterion in CRITERIA.items():
        if _needs_words(criterion.label):
            yield f"turing.criterion.{criterion_id}", criterion.label, where
    for mode in MODES:
        yield f"turing.mode.{mode}", mode, where
    for difficulty in DIFFICULTIES:
        yield f"turing.difficulty.{difficulty}", difficulty, where
    yield "turing.guess.right", "{code} (right)", where
    yield "turing.guess.wrong", "{code} (wrong)", where
    for index, (label, _) in enumerate(PUZZLE_PRESETS):
        yield f"turing.preset.{index}", label, "bot/adapters/common.py"
    where = "renderers/rithmomachia.py"
    for kind in VICTORIES:
        yield f"rithmo.victory.{kind}", kind.capitalize(), where
    for label in ("simple", "compound", "perfect"):  # engines/rithmomachia/moves.py: verdicts
        yield f"rithmo.label.{label}", label.capitalize(), where
    for seat, side in enumerate(SIDES):
        yield f"rithmo.side.{seat}", side, where
    where = "renderers/booleo.py"
    yield "booleo.event.placed", "{name} placed {card} on {slot}.", where
    yield "booleo.event.replaced", "{name} replaced {old} on {slot} with {card}.", where
    # bot/adapters/telegram/command_sync.py: command menu texts given in the code, not the
    # catalogue
    from bot.adapters.telegram import command_sync as telegram

    for table in ("COMMAND_DEFAULTS", "MODERATOR_COMMANDS"):
        for name, text in getattr(telegram, table, {}).items():
            yield f"telegram.cmd.{name}", text, "bot/adapters/telegram/command_sync.py"
    for game in ("booleo", "digitalo"):  # engines/cards/pyramid.py: gate_refusal
        for card, lesson in LESSONS.items():
            yield f"{game}.error.gate_invalid.{card.lower()}", lesson, "engines/cards/pyramid.py"


# ------------------------------------------------------------------------ catalogues
def po_path(language: str, root: Path = ROOT) -> Path:
    return root / "renderers" / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(root: Path = ROOT) -> list[str]:
    """English first, then every other language that has a catalogue."""
    found = sorted(p.name for p in (root / "renderers" / "locale").iterdir()
                   if po_path(p.name, root).exists() and p.name != ENGLISH)
    return [ENGLISH, *found]


def read_catalogue(language: str, root: Path = ROOT) -> Catalog:
    path = po_path(language, root)
    if not path.exists():
        return Catalog(locale=None, domain=DOMAIN)
    with path.open("rb") as handle:
        return read_po(handle, domain=DOMAIN)


def texts(catalog: Catalog) -> dict[str, str]:
    """Key -> text for the entries that have a text (empty and fuzzy ones do not count)."""
    return {m.id: m.string for m in catalog
            if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
            and not m.fuzzy}


def placeholders(template: str) -> set[str]:
    """The ``{fields}`` a template formats, e.g. ``{"name", "scores_binary[0]"}``."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    except ValueError:
        return {"<malformed braces>"}


def english_texts(extraction: Extraction, current: dict[str, str]) -> dict[str, str]:
    """The English catalogue the code asks for.

    The code's default is the English text, so that editing a sentence in the code is
    all it takes. Keys some call site uses without a default keep the catalogue's text:
    ``error.not_your_turn`` names the player to move in the catalogue, and engines'
    shorter default only shows when they cannot fill ``{name}``. A key
    the code uses with several different defaults stays as the catalogue has it (or
    out): ``translate`` prefers the catalogue, so any one text would replace the others
    in English output. Such a key should be split in the code.
    """
    merged = dict(current)
    for key, message in extraction.messages.items():
        if (message.default and key not in extraction.conflicts
                and (key not in extraction.bare or key not in merged)):
            merged[key] = message.default
    return merged


def render_po(language: str, entries: dict[str, str], english: dict[str, str],
              locations: dict[str, set[str]], fuzzy: Iterable[str] = ()) -> bytes:
    """One catalogue as .po text; ``fuzzy`` keys keep their text but are flagged for
    review (the bot ignores them until a translator removes the flag)."""
    flagged = set(fuzzy)
    catalog = Catalog(locale=None, domain=DOMAIN, project="logic-bot",
                      header_comment=f"# logic-bot messages ({language}). msgid is the message "
                                     "key; see scripts/extract_messages.py.",
                      fuzzy=False)
    catalog.mime_headers  # noqa: B018 (Babel builds the header lazily)
    for key in sorted(set(english) | set(entries)):
        comments = [] if language == ENGLISH or key not in english else [english[key]]
        catalog.add(key, string=entries.get(key, ""), auto_comments=comments,
                    locations=[(p, 0) for p in sorted(locations.get(key, ()))],
                    flags=["fuzzy"] if key in flagged else [])
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_lineno=False, omit_header=False)
    # Babel stamps the creation date and its own version; drop both so that an unchanged
    # catalogue stays unchanged, whichever Babel writes it.
    lines = [line for line in buffer.getvalue().decode("utf-8").splitlines(keepends=True)
             if not line.startswith(('"POT-Creation-Date:', '"PO-Revision-Date:',
                                     '"Generated-By:'))]
    return "".join(lines).encode("utf-8")


def location_lines(paths: Iterable[str]) -> list[str]:
    """The ``#:`` comment of an entry used in ``paths``, wrapped as ``write_po`` wraps it."""
    wrapper = TextWrapper(width=LOCATION_WIDTH, break_long_words=False)
    return [f"#: {line.strip()}\n" for line in wrapper.wrap(" ".join(sorted(paths)))]


def relocate_po(text: str, locations: dict[str, set[str]]) -> str:
    """A catalogue's text with each entry's ``#:`` comment naming where the code uses its
    key now, and every other line as it was: entries keep their order, their comments
    and their wrapping, however a hand edit left them."""
    out: list[str] = []
    flags: list[str] = []  # an entry's ``#,`` line, which follows its locations
    for line in text.splitlines(keepends=True):
        if line.startswith("#:"):
            continue
        if line.startswith("#,"):
            flags.append(line)
            continue
        if line.startswith("msgid "):
            key = ast.literal_eval(line[len("msgid "):].strip())
            if key:
                out += location_lines(locations.get(key, ()))
        out += flags
        flags = []
        out.append(line)
    return "".join(out)


def relocate(root: Path = ROOT) -> None:
    """``--locations``: every catalogue's ``#:`` comments brought up to date in place."""
    extraction = extract(root)
    locations = {k: m.locations for k, m in extraction.messages.items()}
    for language in languages(root):
        path = po_path(language, root)
        path.write_text(relocate_po(path.read_text(encoding="utf-8"), locations),
                        encoding="utf-8")


@dataclass
class Report:
    stale_english: bool = False
    missing: dict[str, list[str]] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    placeholder_mismatch: dict[str, list[str]] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return (self.stale_english or any(self.missing.values())
                or any(self.placeholder_mismatch.values()))


def compare(english: dict[str, str], catalogues: dict[str, dict[str, str]]) -> Report:
    report = Report()
    for language, entries in catalogues.items():
        report.missing[language] = sorted(set(english) - set(entries))
        report.extra[language] = sorted(set(entries) - set(english))
        report.placeholder_mismatch[language] = sorted(
            key for key in set(english) & set(entries)
            if placeholders(english[key]) != placeholders(entries[key]))
    return report


def run(check: bool, root: Path = ROOT) -> int:
    extraction = extract(root)
    current = texts(read_catalogue(ENGLISH, root))
    english = english_texts(extraction, current)
    locations = {k: m.locations for k, m in extraction.messages.items()}
    english_po = render_po(ENGLISH, english, english, locations)
    others = {lang: texts(read_catalogue(lang, root)) for lang in languages(root)[1:]}
    report = compare(english, others)
    english_path = po_path(ENGLISH, root)
    # Stale means a message the code uses is missing: moved call sites (the #: comments)
    # alone do not make the catalogue wrong.
    report.stale_english = not english_path.exists() or current != english
    if not check:
        english_path.parent.mkdir(parents=True, exist_ok=True)
        english_path.write_bytes(english_po)
        # A translation of an English text that changed is out of date: flag it fuzzy.
        changed = {key for key, text in current.items() if english.get(key, text) != text}
        for language in others:
            catalog = read_catalogue(language, root)
            drafts = {m.id: m.string for m in catalog if isinstance(m.id, str) and m.id
                      and isinstance(m.string, str) and m.string}
            fuzzy = {m.id for m in catalog if isinstance(m.id, str) and m.id and m.fuzzy}
            po_path(language, root).write_bytes(render_po(
                language, drafts, english, locations, (fuzzy | changed) & set(drafts)))
            others[language] = texts(read_catalogue(language, root))
        report = compare(english, others)
    unseen = sorted(set(english) - set(extraction.messages))
    print(f"{len(english)} English messages ({len(extraction.messages)} found in the code, "
          f"{len(unseen)} only in the catalogue, for keys built at run time).")
    for key, defaults in sorted(extraction.conflicts.items()):
        kept = (f"the catalogue keeps {english[key]!r}" if key in english
                else "it stays out of the catalogues, so it is not translated")
        print(f"note: {key} has {len(defaults)} different English defaults in the code; {kept}")
    if report.stale_english:
        print("English catalogue is out of date: run scripts/extract_messages.py")
    for language in others:
        print(f"{language}: {len(english) - len(report.missing[language])}/{len(english)} "
              "translated")
        for key in report.missing[language]:
            print(f"  missing: {key}")
        for key in report.placeholder_mismatch[language]:
            print(f"  placeholders differ: {key}")
        for key in report.extra[language]:
            print(f"  not in English (obsolete?): {key}")
    if not check and extraction.dynamic:
        print(f"{len(extraction.dynamic)} calls with keys or labels built at run time:")
        for line in extraction.dynamic:
            print(f"  {line}")
    return 1 if check and report.failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when a catalogue is incomplete")
    parser.add_argument("--locations", action="store_true",
                        help="only bring the #: comments (where the code uses each key) up "
                             "to date, every other line as it is")
    args = parser.parse_args(argv)
    if args.locations:
        relocate()
        return 0
    return run(args.check)


if __name__ == "__main__":
    sys.exit(main())
