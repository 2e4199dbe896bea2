"""Command names and descriptions through discord.py's ``Translator``.

Every ``locale_str`` the commands use carries a catalogue key in its extras. English is
the text written in the code; other languages come from the catalogue, and a missing
translation returns None so that Discord shows the English text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from renderers.i18n import DEFAULT_LANGUAGE, lookup, normalise_language


def text(english: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(english, key=key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = normalise_language(locale.value)
        if language == DEFAULT_LANGUAGE and not locale.value.startswith(DEFAULT_LANGUAGE):
            return None  # a language we do not have: Discord falls back to English
        key = string.extras.get("key")
        if not key or language == DEFAULT_LANGUAGE:
            return None
        return lookup(language, key)
