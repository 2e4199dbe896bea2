"""The gettext catalogues: complete in every language, consistent with the code, and
actually used, so that a Dutch or German class never meets an English sentence."""

from __future__ import annotations

import copy
import importlib.util
import io
import itertools
import pickle
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.service import Button, Opponent, Place, Reply, Service
from bot.store import SQLiteStore
from engines.base import GameError, GameState, Message
from engines.registry import game_names, get_game
from renderers import renderer_for
from renderers.i18n import (
    CATALOGUE,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    catalogue_path,
    localise,
    translate,
)
from tests.helpers.paths import REPO_ROOT
from tests.helpers.people import ALICE, BOB, CAROL

SCRIPT = REPO_ROOT / "scripts" / "extract_messages.py"


def _load_script() -> ModuleType:
    # scripts/ is not a package; load the tool itself so that the test and the tool can
    # never disagree about what counts as a message.
    spec = importlib.util.spec_from_file_location("extract_messages", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


extract_messages = _load_script()
ENGLISH = CATALOGUE[DEFAULT_LANGUAGE]
TRANSLATED = [language for language in LANGUAGES if language != DEFAULT_LANGUAGE]
GAMES = ("lgame", "turing", "booleo", "digitalo", "rithmomachia")
# Keys the engines use with several English texts (one per game); they stay out of the
# catalogues until the engines give each text its own key. A new one fails the test.
KNOWN_CONFLICTS: set[str] = set()
# Phrases that only ever come from an untranslated English message.
ENGLISH_PHRASES = ("to move", "to play", "Game over", "Your hand", "pyramid", "wins",
                   "Draw pile", "discard pile", "Level", "captured", "not your turn",
                   "Round", "Victories", "Last move", "Still possible", "Your notes",
                   "no cards", " gates", "(right)", "(wrong)", "White", "Black", "South",
                   "North", "is not", "There is no", "=yes", "=no")
# Words of the texts engines build at run time (menu labels, notation hints, names inside
# refusals). Checked as whole words, after quoted notation such as 'discard XOR0' is
# removed, because typed commands read the same in every language.
ENGINE_WORDS = re.compile(
    r"\b(Type|Expected|a move like|a placement like|Discard|discard|cancel|counter \(undo|"
    r"counter the|push|pushing|takes|Test [A-F]|Row|Pyramid|Circle|Triangle|Square|or|"
    r"and code|on position|start card|bit card|the flip|the claim|propose|guess|next|"
    r"Propose a code|Guess the code)\b")
QUOTED_NOTATION = re.compile(r"'[^']{1,24}'")
# Options that reach more of each game's texts than the defaults: claims and challenges,
# the placement phase, a second neutral move, the assist's notes.
VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    "lgame": ({}, {"sudden_death": True}),
    "turing": ({}, {"assist": True}),
    "booleo": ({}, {"referee": False}),
    "digitalo": ({},),
    "rithmomachia": ({}, {"setup": "placement"}),
}
UNFORMATTED = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?(![rsa])?\}")
# A raw code such as "turing_all_wrong" means a key was missing and its code was shown.
RAW_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture(scope="module")
def extraction() -> Any:
    return extract_messages.extract()


# --------------------------------------------------------------------- the catalogues
def test_catalogues_are_the_po_files() -> None:
    for language in LANGUAGES:
        assert catalogue_path(language).exists(), language
        on_disk = extract_messages.texts(extract_messages.read_catalogue(language))
        assert CATALOGUE[language] == on_disk, language
    assert len(ENGLISH) > 400, "the English catalogue was not loaded"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_has_every_english_key(language: str) -> None:
    missing = sorted(set(ENGLISH) - set(CATALOGUE[language]))
    assert not missing, f"{language} lacks {missing}: run scripts/extract_messages.py"
    extra = sorted(set(CATALOGUE[language]) - set(ENGLISH))
    assert not extra, f"{language} has keys English lacks: {extra}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_are_the_same_in_every_language(language: str) -> None:
    differing = {key: (sorted(extract_messages.placeholders(text)),
                       sorted(extract_messages.placeholders(CATALOGUE[language][key])))
                 for key, text in ENGLISH.items()
                 if key in CATALOGUE[language]
                 and extract_messages.placeholders(text)
                 != extract_messages.placeholders(CATALOGUE[language][key])}
    assert not differing


def test_every_message_the_code_uses_is_in_every_catalogue(extraction: Any) -> None:
    used = set(extraction.messages) - set(extraction.conflicts)
    assert len(used) > 400, "the extraction found too little: is the tool broken?"
    for language in LANGUAGES:
        missing = sorted(used - set(CATALOGUE[language]))
        assert not missing, f"{language} lacks {missing}: run scripts/extract_messages.py"


def test_english_texts_are_the_code_defaults(extraction: Any) -> None:
    """The catalogue must not change English output: every default in the code is the
    catalogue's text, except for keys with several defaults (kept out) and keys some call
    site uses without a default (the catalogue's text is theirs)."""
    conflicts = set(extraction.conflicts)
    assert conflicts <= KNOWN_CONFLICTS, "give each English text its own key"
    for key, message in extraction.messages.items():
        if message.default and key not in conflicts and key not in extraction.bare:
            assert ENGLISH[key] == message.default, key
    for key in conflicts - {"error.not_in_menu"}:
        assert key not in ENGLISH, key


def test_check_mode_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert extract_messages.main(["--check"]) == 0, capsys.readouterr().out


def test_locations_only_rewrite_changes_nothing_but_the_location_comments() -> None:
    text = ('# header\nmsgid ""\nmsgstr ""\n\n'
            '#. A long English text, as a hand edit may leave it, longer than a wrapped line.\n'
            '#: bot/old_place.py\n#, fuzzy\nmsgid "b.key"\nmsgstr "B"\n\n'
            'msgid "a.key"\nmsgstr "A"\n')
    paths = {f"bot/feature_{n}/module_with_a_long_name.py" for n in range(4)}
    moved = extract_messages.relocate_po(text, {"b.key": {"bot/new_place.py"}, "a.key": paths})
    assert moved == text.replace("bot/old_place.py", "bot/new_place.py").replace(
        'msgid "a.key"', "".join(extract_messages.location_lines(paths)) + 'msgid "a.key"')
    # Wrapped as the full rewrite (Babel's write_po) wraps them.
    catalog = Catalog(locale=None, domain="logic_bot")
    catalog.add("a.key", "A", locations=[(path, 0) for path in sorted(paths)])
    written = io.BytesIO()
    write_po(written, catalog, width=0, include_lineno=False, omit_header=True)
    assert extract_messages.location_lines(paths) == [
        line for line in written.getvalue().decode().splitlines(keepends=True)
        if line.startswith("#:")]
    assert extract_messages.relocate_po(moved, {"b.key": {"bot/new_place.py"},
                                                "a.key": paths}) == moved


def test_placeholders_parse_indexes_and_conversions() -> None:
    assert extract_messages.placeholders("{a} {b[0]} {c!r} {{x}}") == {"a", "b[0]", "c"}


# ------------------------------------------------------------ a whole game, translated
def _positions(game: str, seed: int, options: dict[str, Any] | None = None
               ) -> Iterator[GameState]:
    """A random game from start to end or 80 plies: the state before each move and at the
    end (one object, moved on after each yield)."""
    state = get_game(game).new_game(options or {}, 2, seed)
    rng = random.Random(seed)
    for ply in range(80):
        yield state
        if state.outcome() is not None:
            return
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        # In the Turing Machine a random guess ends the game at once: test for a while.
        patient = [a for a in actions if not state.action_text(a).startswith("guess")]
        state.apply(seat, rng.choice(patient if ply < 12 and patient else actions))


def _play(game: str, seed: int) -> list[tuple[dict[str, Any], int | None]]:
    """Views of a random game (public and each player's), from start to end or 80 plies."""
    return [(view, seat) for state in _positions(game, seed)
            for view, seat in [(state.view(None), None),
                               *((state.view(seat), seat) for seat in range(2))]]


def _assert_translated(text: str, language: str, where: str) -> None:
    leaked = [phrase for phrase in ENGLISH_PHRASES if phrase in text]
    leaked += ENGINE_WORDS.findall(QUOTED_NOTATION.sub("", text))
    assert not leaked, f"{where} ({language}) shows English {leaked}:\n{text}"
    assert not UNFORMATTED.search(text), f"{where} ({language}) left a placeholder:\n{text}"


def _menu_labels(state: GameState, seat: int, language: str, steps: int = 300) -> set[str]:
    """The labels of ``seat``'s whole menu tree (up to ``steps`` menus, breadth first) as
    the service shows them."""
    labels: set[str] = set()
    paths: list[tuple[str, ...]] = [()]
    while paths and steps:
        path, steps = paths.pop(0), steps - 1
        for choice in state.menu(seat, path):
            labels.add(localise(language, choice.label,
                                f"{state.game_name}.choice.{choice.label}"))
            if choice.action is None:
                paths.append((*path, choice.token))
    return labels


def _refusals(state: GameState, seat: int, language: str) -> set[str]:
    """Translated refusals of typed moves: text that is no move at all, another game's
    notation, and moves of real pieces to cells they cannot reach (which name shapes,
    sides and how a piece steps)."""
    typed = ["", "zz9", "a1", "AND1 9.9", "INV 9", "c4 N N", "test Z", "guess 9", "next",
             "place 0101 4d4", "1a1-1a2-1a3", "discard AND1"]
    view = state.view(seat)
    if state.game_name == "rithmomachia":
        cells = [piece["cell"] for piece in view["board"]][::5]
        typed += [f"{cell}-{to}" for cell in cells for to in ("1a1", "2b2", "3c4", "4d4")]
        typed += [f"place {value:04b} {cell}" for value in view["unplaced"][seat][:3]
                  for cell in ("1a1", "1b2", "4d4", "4c3")]
    texts = set()
    for text in typed:
        try:
            state.parse_action(text, seat)
        except GameError as error:  # as the service's _error_text renders it
            texts.add(translate(language, error.key, error.default, **error.params))
    return texts


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_renders_in_the_language(game: str, language: str) -> None:
    assert game in game_names()
    renderer = renderer_for(game)
    private = getattr(renderer, "render_private", None)
    for seed in (1, 2, 3):
        for view, seat in _play(game, seed):
            for emoji in (False, True):
                if seat is None:
                    text = renderer.render(view, ["Ann", "Bo"], language, emoji)
                elif private is not None:
                    text = private(view, ["Ann", "Bo"], language, emoji)
                else:
                    continue
                _assert_translated(text, language, f"{game} seed {seed}")
                assert not RAW_CODE.search(text), f"{game} ({language}) shows a code:\n{text}"
    rules = translate(language, f"rules.{game}", getattr(renderer, "RULES", ""))
    assert rules != getattr(renderer, "RULES", "")


@pytest.mark.parametrize("language", TRANSLATED)
async def test_refused_moves_are_explained_in_the_language(tmp_path: Path,
                                                           language: str) -> None:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        service = Service(store, seed_source=lambda: 5)
        for number, game in enumerate(GAMES):
            place = Place("test", f"channel-{number}", language=language, emoji=False)
            started = await service.start_game(place, ALICE, game, Opponent("user", user=BOB))
            assert started.ok, started.notice
            assert started.board is not None
            _assert_translated(started.board.text, language, game)
            notices = []
            for user in (ALICE, BOB, CAROL):  # one is to move, one waits, one is a stranger
                for typed in ("zz9", "a1"):
                    refused = await service.move(place, user, typed)
                    assert not refused.ok, (game, user, typed)
                    notices.append(refused.notice or "")
            for notice in notices:
                assert notice, game
                _assert_translated(notice, language, game)
    finally:
        await store.close()


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_menus_refusals_and_moves_of_a_whole_game_are_in_the_language(game: str,
                                                                      language: str) -> None:
    """The words engines build at run time: every menu label of the player to move, the
    refusals of typed moves, and moves as announcements name them (``action_text``)."""
    texts: dict[str, str] = {}  # text -> the first game that showed it
    for options in VARIANTS[game]:
        for seed in (1, 2):
            for state in _positions(game, seed, options):
                for seat in state.to_move():
                    found = _menu_labels(state, seat, language) | _refusals(state, seat,
                                                                           language)
                    found |= {localise(language, state.action_text(action))
                              for action in state.legal_actions(seat)}
                    for text in found:
                        texts.setdefault(text, f"{game} {options} seed {seed}")
    assert len(texts) > 20, "too few texts: is the game still played?"
    for text, where in sorted(texts.items()):
        _assert_translated(text, language, where)


async def _press_first_allowed(service: Service, place: Place,
                               buttons: list[Button]) -> Reply | None:
    """The reply to the first button that Alice or Bob, whoever moves, may press (the
    referee refuses wrong gates), or None."""
    for button, user in itertools.product(buttons, (ALICE, BOB)):
        pressed = await service.press(place, user, button.payload)
        if pressed.ok:
            return pressed
    return None


@pytest.mark.parametrize("language", TRANSLATED)
async def test_menu_buttons_are_in_the_language(tmp_path: Path, language: str) -> None:
    """The service's buttons, pressed down the menu move after move: labels with run-time
    parts (``Test A`` after a proposal) reach players translated, not only fixed ones."""
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        service = Service(store, seed_source=lambda: 5)
        for number, game in enumerate(GAMES):
            place = Place("test", f"channel-{number}", language=language, emoji=False)
            started = await service.start_game(place, ALICE, game, Opponent("user", user=BOB))
            assert started.ok, started.notice
            labels: list[str] = []
            for _ in range(6):
                # The public board's menu, or in games with hidden hands the mover's hand.
                board = (await service.board(place)).board
                hands = [(await service.hand(place, user)).hand for user in (ALICE, BOB)]
                buttons = next((menu.buttons for menu in (board, *hands)
                                if menu is not None and menu.buttons), [])
                moved = False
                for _depth in range(4):  # down the menu until a move is made
                    labels += [button.label for button in buttons]
                    pressed = await _press_first_allowed(service, place, buttons)
                    menu = None if pressed is None else pressed.hand or pressed.board
                    moved = pressed is not None and pressed.moved
                    if menu is not None and not moved:
                        labels.append(menu.prompt)  # names the steps chosen so far
                    if moved or menu is None or not menu.buttons:
                        break
                    buttons = menu.buttons
                if not moved:  # the game ended, or the referee refused every gate here
                    break
            assert labels, game
            for label in labels:
                _assert_translated(label, language, f"{game} button")
    finally:
        await store.close()


def test_a_booklet_puzzle_without_a_solution_is_refused_in_the_language() -> None:
    with pytest.raises(GameError) as refused:
        get_game("turing").new_game({"cards": "4,9", "code": "123"}, 1, 1)
    error = refused.value
    for language in TRANSLATED:
        text = translate(language, error.key, error.default, **error.params)
        assert "123" in text
        _assert_translated(text, language, "turing cards=4,9 code=123")


def test_message_is_its_english_text_and_translates_with_its_params() -> None:
    shape = Message("rithmomachia.shape.circle", "Circle")
    steps = Message("rithmomachia.steps.two", "{first} or {second}", first="a", second="b")
    error = GameError("rithmomachia.error.bad_step", "A {shape} steps one cell {steps}; {to} "
                      "is not such a step from {source}.", shape=shape, steps=steps,
                      to="1a1", source="2c3")
    # English everywhere a plain text goes: equality, formatting, JSON, copies.
    assert shape == "Circle" and f"{steps}" == "a or b" and error.render().startswith(
        "A Circle steps one cell a or b")
    for clone in (copy.deepcopy(steps), pickle.loads(pickle.dumps(steps))):
        assert clone == steps and clone.key == steps.key and clone.params == steps.params
    assert translate("nl", error.key, error.default, **error.params) == (
        "Een Cirkel zet één stap a of b; 1a1 is geen zo'n stap vanaf 2c3.")
    assert localise("de", shape) == "Kreis" and localise("de", "2b3") == "2b3"
    # A fixed label is found by the key the service gives it; one the catalogue lacks stays.
    assert localise("de", "Discard", "booleo.choice.Discard") == "Abwerfen"
    assert localise("de", "{t} < 3", "turing.choice.{t} < 3") == "{t} < 3"


def test_the_extraction_collects_engine_messages(extraction: Any) -> None:
    for key in ("booleo.menu.discard", "turing.menu.test", "rithmomachia.expected",
                "rithmomachia.shape.pyramid", "turing.result.yes"):
        assert key in extraction.messages, key
    # The Telegram adapter's own Message class is not mistaken for engines.base.Message.
    assert not any("telegram" in line and "Message(" in line for line in extraction.dynamic)


def test_engine_errors_are_translated_by_key() -> None:
    """The service's translation of an engine refusal: the key wins over the English."""
    error = GameError("error.not_your_turn", "It is not your turn: {name} is to move.",
                      name="Ann")
    for language in TRANSLATED:
        text = translate(language, error.key, error.default, **error.params)
        assert "Ann" in text and text != error.render()
