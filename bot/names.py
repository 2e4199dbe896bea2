"""Display names, cleaned once where a person enters the bot.

A name is shown inside boards, turn lines and announcements, so it must not be able to
pretend: no line breaks (a name that starts a new line reads like the bot's own text), no
right-to-left overrides that flip the text after it, no invisible characters that make two
names look alike or a name look empty, no code fences that break a board's block.
"""

from __future__ import annotations

import unicodedata

NAME_LIMIT = 32

# Characters that draw nothing but are not format characters (category Cf), which are
# dropped as a class: the Hangul fillers and the braille blank, which fonts draw empty and
# which are the usual way to make a name look blank.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Categories dropped whole: controls, format characters (bidi overrides and isolates,
# zero-width spaces and joiners, the BOM, soft hyphens), private use, unassigned, and
# the line and paragraph separators.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def _visible(character: str) -> bool:
    if character in "\n\r\t\v\f":
        return True  # folded into spaces below
    return (character not in _BLANK_LOOKING
            and unicodedata.category(character) not in _DROPPED_CATEGORIES)


def clean_display_name(name: str, user_id: str = "") -> str:
    """``name`` as the bot shows it: on one line, visible characters only, no backticks,
    at most ``NAME_LIMIT`` characters; a name with nothing visible left becomes
    ``Player <the last digits of the id>``, so that it still tells people apart."""
    kept = "".join(character for character in unicodedata.normalize("NFC", name)
                   if _visible(character))
    flat = " ".join(kept.replace("`", "'").split())
    if not flat:
        digits = "".join(ch for ch in user_id if ch.isdigit())[-4:]
        flat = f"Player {digits}" if digits else "Player"
    return flat[:NAME_LIMIT].rstrip()
