"""The message catalogue: every user-facing sentence, by key and language.

The texts live in gettext catalogues, ``renderers/locale/<lang>/LC_MESSAGES/logic_bot.po``,
whose msgid is the message key and msgstr the text; they are read once, at import, into
``CATALOGUE`` (language -> key -> text), which the rest of the bot and the tests use.
``scripts/extract_messages.py`` regenerates the English catalogue from the code and reports
what the other languages miss.

Other languages fall back to English key by key, so a missing translation shows English
rather than a key name. Engine errors carry their own English template
(``GameError.default``) and are looked up here by ``GameError.key`` first, so translators
can override them without touching engines; the words engines build at run time (menu
labels, the notation hints and names inside errors) are ``engines.base.Message``s, which
``translate`` and ``localise`` resolve the same way.

Reading the package's own data files at import is the only input/output here, so that
renderers stay pure functions of their arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from engines.base import Message
from renderers.second_person import FORM_TEXTS, PERSON_PLACEHOLDERS, second_person_key

DEFAULT_LANGUAGE = "en"
# The order is the order languages are offered in (settings menus, command menus).
LANGUAGES = ("en", "nl", "de")
DOMAIN = "logic_bot"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def catalogue_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalogue(language: str) -> dict[str, str]:
    """Key -> text of one language's .po file; empty when the file is missing.

    Empty and fuzzy entries are left out, so that they fall back to English instead of
    showing nothing or a guess.
    """
    path = catalogue_path(language)
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        # locale=None: the plural rules Babel would load for a locale are not used here.
        catalog = read_po(handle, locale=None, domain=DOMAIN)
    return {message.id: message.string for message in catalog
            if isinstance(message.id, str) and message.id
            and isinstance(message.string, str) and message.string and not message.fuzzy}


# Texts without parameters, by (language, key, default): most of a move's ~46 lookups
# (menu labels, prompts, buttons) are such, the same ones again and again (issue 25).
# Bounded: a fixed menu label is its own key, and some games' labels are many.
_PLAIN_TEXTS: dict[tuple[str, str, str | None], str] = {}
PLAIN_TEXTS_KEPT = 20_000


# Texts formatted with parameters that are all plain strings or integers, per language,
# key, default and parameters: a board's lines and prompts ("{name} to move") come back
# with the same names at every press and every version of a game (about six calls in
# seven at 100 tables). Bounded like the plain texts.
_FORMATTED: dict[tuple[str, str, str | None, tuple[tuple[str, Any], ...]], str] = {}


def _forget_texts() -> None:
    _PLAIN_TEXTS.clear()
    _FORMATTED.clear()


class _Texts(dict[str, str]):
    """One language's texts; a change (a test standing in a translation) empties the caches
    of plain and formatted texts, so they never serve a text the catalogue no longer
    holds."""

    def __setitem__(self, key: str, value: str) -> None:
        _forget_texts()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        _forget_texts()
        super().__delitem__(key)


CATALOGUE: dict[str, dict[str, str]] = {language: _Texts(load_catalogue(language))
                                        for language in LANGUAGES}


def supported_languages() -> list[str]:
    return list(CATALOGUE)


def normalise_language(code: str | None) -> str:
    """Map platform locales such as ``en-US`` or ``nl_BE`` onto a catalogue language."""
    if not code:
        return DEFAULT_LANGUAGE
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in CATALOGUE else DEFAULT_LANGUAGE


def translate(language: str, key: str, default: str | None = None, **params: Any) -> str:
    """The message ``key`` in ``language``, formatted with ``params``.

    Falls back to English, then to ``default``, then to the key itself, and never raises:
    a broken translation must not turn a helpful message into a crash. Params that are
    engine ``Message``s (a notation hint, a shape's name) are translated first, so no
    English word reaches another language through a placeholder.
    """
    if not params:
        plain = _PLAIN_TEXTS.get((language, key, default))
        if plain is None:
            if len(_PLAIN_TEXTS) >= PLAIN_TEXTS_KEPT:
                _PLAIN_TEXTS.clear()
            plain = _PLAIN_TEXTS[(language, key, default)] = _translate(language, key, default,
                                                                        {})
        return plain
    for value in params.values():
        if type(value) is not str and type(value) is not int:
            return _translate(language, key, default, params)  # a Message, a float …
    kept = (language, key, default, tuple(params.items()))
    text = _FORMATTED.get(kept)
    if text is None:
        if len(_FORMATTED) >= PLAIN_TEXTS_KEPT:
            _FORMATTED.clear()
        text = _FORMATTED[kept] = _translate(language, key, default, params)
    return text


# The key whose text is a language's word for the reader: the lessons call their learner
# so ("You", "Jij", "Du"). A person called by it is told about in the second person.
READER_KEY = "lesson.you"


def _translate(language: str, key: str, default: str | None, params: dict[str, Any]) -> str:
    params = {name: localise(language, value) if isinstance(value, Message) else value
              for name, value in params.items()}
    if any(placeholder in params for placeholder in PERSON_PLACEHOLDERS):
        reader = (CATALOGUE.get(language, {}).get(READER_KEY)
                  or CATALOGUE[DEFAULT_LANGUAGE].get(READER_KEY) or "You")
        form = second_person_key(key, params, reader.casefold())
        if form != key:
            key, default = form, FORM_TEXTS[form]
    template = (CATALOGUE.get(language, {}).get(key)
                or CATALOGUE[DEFAULT_LANGUAGE].get(key)
                or default
                or key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        if default is not None and template != default:
            try:
                return default.format(**params)
            except (KeyError, IndexError, ValueError):
                return default
        return template


def localise(language: str, text: str, key: str | None = None) -> str:
    """``text`` as a player of ``language`` reads it: an engine ``Message`` by its own key;
    other text by ``key`` when one is given (a fixed menu label, ``<game>.choice.<label>``),
    else unchanged, because notation and names read the same in every language."""
    if isinstance(text, Message):
        return translate(language, text.key, text.default, **text.params)
    return text if key is None else translate(language, key, text)


def lookup(language: str, key: str) -> str | None:
    """The translation of ``key`` in exactly ``language``, or None: no English fallback.

    Platforms that localise their own interface (Discord's command names) need to know
    when a translation is missing, so that they can fall back themselves.
    """
    return CATALOGUE.get(language, {}).get(key)
