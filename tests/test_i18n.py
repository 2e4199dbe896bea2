"""The gettext catalogues: complete in every language, consistent with the code, and
actually used, so that a Dutch or German class never meets an English sentence."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.service import Opponent, Place, Service
from bot.store import SQLiteStore
from engines.base import GameError
from engines.registry import game_names, get_game
from renderers import renderer_for
from renderers.i18n import CATALOGUE, DEFAULT_LANGUAGE, LANGUAGES, catalogue_path, translate
from tests.conftest import ALICE, BOB, CAROL

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "extract_messages.py"


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
                   "North", "is not", "There is no")
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


def test_placeholders_parse_indexes_and_conversions() -> None:
    assert extract_messages.placeholders("{a} {b[0]} {c!r} {{x}}") == {"a", "b[0]", "c"}


# ------------------------------------------------------------ a whole game, translated
def _play(game: str, seed: int) -> list[tuple[object, int | None]]:
    """Views of a random game (public and each player's), from start to end or 80 plies."""
    module = get_game(game)
    state = module.new_game({}, 2, seed)
    rng = random.Random(seed)
    views: list[tuple[object, int | None]] = []
    for ply in range(80):
        views += [(state.view(None), None), *((state.view(seat), seat) for seat in range(2))]
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        # In the Turing Machine a random guess ends the game at once: test for a while.
        patient = [a for a in actions if not state.action_text(a).startswith("guess")]
        state.apply(seat, rng.choice(patient if ply < 12 and patient else actions))
    return views


def _assert_translated(text: str, language: str, where: str) -> None:
    leaked = [phrase for phrase in ENGLISH_PHRASES if phrase in text]
    assert not leaked, f"{where} ({language}) shows English {leaked}:\n{text}"
    assert not UNFORMATTED.search(text), f"{where} ({language}) left a placeholder:\n{text}"


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


def test_engine_errors_are_translated_by_key() -> None:
    """The service's translation of an engine refusal: the key wins over the English."""
    error = GameError("error.not_your_turn", "It is not your turn: {name} is to move.",
                      name="Ann")
    for language in TRANSLATED:
        text = translate(language, error.key, error.default, **error.params)
        assert "Ann" in text and text != error.render()
