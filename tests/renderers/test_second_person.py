"""Every message reads right for a player called "You" and for a count of 1 (issue 40,
defect 11): "You wins", "it is You's now", "You reads it as bit 1" and "1 moves" were
seen in the lessons, which call their learner "You" ("Jij", "Du").

Every catalogue message is rendered in every language through ``translate``, once with
the reader's word for each person it names (the others "Bo") and once with 1 for each
other placeholder, in the form the code uses for a count of 1 (``<key>.one`` where there
is one), and checked for what goes wrong in each language: a third-person verb after
the pronoun, a possessive of it, a pronoun in a place that needs another case, a plural
noun after 1.
"""

from __future__ import annotations

import re
import string

import pytest

from renderers.i18n import CATALOGUE, LANGUAGES, READER_KEY, translate
from renderers.second_person import FORM_TEXTS, PERSON_PLACEHOLDERS

READER = {language: CATALOGUE[language][READER_KEY] for language in LANGUAGES}
OTHER_PERSON = "Bo"
ANY_VALUE = "X"

WRONG_FOR_THE_READER = {
    "en": (r"\bYou'?s\b",  # possessive
           r"\bYou (is|has|was|does|\w*[^s\W]s)\b"),  # "You wins", "You reads"
    "nl": (r"\bJij'?s\b",
           r"\bJij (is|heeft|zal|wil)\b",  # "jij bent", "jij hebt"…
           r"\b(aan|van|voor|tegen|met|door|dan|bij|op|om) Jij\b",  # "van jou", "aan jou"
           r"\b(is|heeft|kan|zal|mag|wint|\w+t) Jij\b"),  # inverted: "win jij"
    "de": (r"\bDu'?s\b",
           r"\bDu (ist|hat|wird|kann|darf|muss|will|soll|\w*[^s\W]t|\w+te)\b",  # "du hast"…
           r"\b(an|von|mit|für|gegen|bei|zu|als|dem|den|der|gehört|jetzt) Du\b",  # dir, dich
           r"\b(ist|hat|kann|darf|\w*[^s\W]t) Du\b"),  # inverted: "kannst du"
}
NOT_BEFORE_ONE = r"(?<![+\-\w.#/])"
WRONG_FOR_ONE = {
    "en": (NOT_BEFORE_ONE + r"1 (moves|rounds|tests|games|gates|points|minutes|seconds|days|"
           r"wins|losses|draws|pieces|cards|hints|players|codes|steps|times|turns|victories|"
           r"plies|captures|verifiers|results|tasks|characters)\b",
           NOT_BEFORE_ONE + r"1 (stay|are|were|have|let)\b",
           NOT_BEFORE_ONE + r"1 of (your|the) [^.;:]*? (let|stay|are|were|have)\b"),
    "nl": (NOT_BEFORE_ONE + r"1 (zetten|rondes|ronden|tests|spellen|partijen|poorten|punten|"
           r"minuten|seconden|dagen|stukken|kaarten|spelers|codes|stappen|keren|beurten|"
           r"overwinningen|slagen|halve zetten|tekens)\b",),
    "de": (NOT_BEFORE_ONE + r"1 (Züge|Zügen|Runden|Tests|Spiele|Spielen|Partien|Punkte|"
           r"Punkten|Minuten|Sekunden|Tage|Tagen|Figuren|Karten|Codes|Schritte|Siege|"
           r"Halbzügen|Gattern)\b",),
}
# Placeholders that are never 1 where these messages are shown, and why.
NEVER_ONE = {
    ("assign.task.daily", "count"): "assign.task.daily_once says it for 1",
    ("daily.streak", "days"): "a streak is shown from 2 days on",
    ("hint.turing.why", "codes"): "a test is hinted only while 2 codes or more are left",
    ("hint.card.gate", "size"): "a pyramid has 3 gates or more",
    ("booleo.seat_header", "total"): "a pyramid has 3 gates or more",
    ("booleo.seat_header.one", "total"): "a pyramid has 3 gates or more",
    ("digitalo.seat_header", "total"): "a pyramid has 3 gates or more",
    ("digitalo.seat_header.one", "total"): "a pyramid has 3 gates or more",
    ("lgame.danger.some", "total"): "some of the moves but not all: 2 or more",
    ("lgame.danger.some.one", "total"): "some of the moves but not all: 2 or more",
    ("reason.booleo_max_turns", "turns"): "the option's minimum is 10",
    ("rithmo.end.move_limit", "limit"): "the option's minimum is 10",
    ("console.line_too_long", "length"): "only a line longer than the limit is refused",
    ("daily.post", "size"): "a puzzle has 4 to 6 verifiers",
    ("turing.error.size", "choices"): "a puzzle has 4 to 6 verifiers",
    ("turing.error.player_count", "most"): "a game holds up to 6 players",
    ("error.player_count", "count"): "every game is for 2 players or more",
    ("turing.error.no_tests_left", "most"): "a round has 3 tests",
    ("rithmomachia.error.bad_step", "shape"): "a shape's name, which 'steps' follows as a verb",
    ("turing.error.criteria_cards", "criteria"): "a list of criteria",
}
# A puzzle's verdicts name moves in notation ("c2 N E wins in 2"), never a count.
PUZZLE_NOTATION = {"move", "answer", "reply"}
# Placeholders with a person's name elsewhere that hold something else in these messages.
NOT_A_PERSON = {("digitalo.score", "target"): "the score the match is played to"}
_FORMATTER = string.Formatter()


def fields(text: str) -> set[str]:
    return {re.split(r"[.\[!:]", name)[0] for _, name, _, _ in _FORMATTER.parse(text) if name}


def indexed(key: str) -> set[str]:
    """Placeholders a message indexes (``{scores_binary[0]}``): never a plain count."""
    return {re.split(r"[.\[]", name)[0] for language in LANGUAGES
            for _, name, _, _ in _FORMATTER.parse(CATALOGUE[language].get(key, ""))
            if name and ("[" in name or "." in name)}


def is_form(key: str) -> bool:
    """A form the code or ``translate`` picks for its base key, checked through it."""
    return key.endswith((".one", ".other")) or re.search(r"\.you_\w+$", key) is not None


def family_fields(key: str) -> set[str]:
    """Every placeholder of a key and its forms, in every language: what to fill."""
    found: set[str] = set()
    for language in LANGUAGES:
        for candidate in (key, f"{key}.one"):
            found |= fields(CATALOGUE[language].get(candidate, ""))
    return found


def base_keys() -> list[str]:
    return sorted(key for key in CATALOGUE["en"] if not is_form(key))


def rendered(language: str, key: str, params: dict[str, object]) -> str:
    return translate(language, key, CATALOGUE["en"].get(key) or FORM_TEXTS.get(key), **params)


def problems(text: str, patterns: tuple[str, ...]) -> list[str]:
    return [found.group(0) for pattern in patterns
            for found in [re.search(pattern, text)] if found]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_reads_right_for_a_player_called_you(language: str) -> None:
    wrong = []
    for key in base_keys():
        names = family_fields(key)
        people = [p for p in PERSON_PLACEHOLDERS
                  if p in names and (key, p) not in NOT_A_PERSON]
        forms = [key] + ([f"{key}.one"] if f"{key}.one" in CATALOGUE["en"] else [])
        for form in forms:
            for person in people:
                params: dict[str, object] = {
                    name: (READER[language] if name == person
                           else OTHER_PERSON if name in PERSON_PLACEHOLDERS else ANY_VALUE)
                    for name in names}
                text = rendered(language, form, params)
                found = problems(text, WRONG_FOR_THE_READER[language])
                if found:
                    wrong.append(f"{form} ({person}): {found} in {text!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_reads_right_for_a_count_of_one(language: str) -> None:
    wrong = []
    for key in base_keys():
        names = family_fields(key)
        form = f"{key}.one" if f"{key}.one" in CATALOGUE["en"] else key
        for counted in sorted(names - set(PERSON_PLACEHOLDERS) - indexed(key)):
            if (key, counted) in NEVER_ONE or (form, counted) in NEVER_ONE:
                continue
            if key.startswith("puzzle.") and counted in PUZZLE_NOTATION:
                continue
            params: dict[str, object] = {
                name: 1 if name == counted
                else OTHER_PERSON if name in PERSON_PLACEHOLDERS else ANY_VALUE
                for name in names}
            text = rendered(language, form, params)
            found = problems(text, WRONG_FOR_ONE[language])
            if found:
                wrong.append(f"{form} ({counted}=1): {found} in {text!r}")
    assert not wrong, "\n".join(wrong)


def test_the_reader_is_told_about_in_the_second_person_and_others_by_name() -> None:
    """The check above on two messages of the issue, in words: the lessons' learner and a
    player named Bo."""
    assert translate("en", "game.over.win", name="You", reason="x") == "Game over: you win (x)."
    assert translate("en", "game.over.win", name="Bo", reason="x") == "Game over: Bo wins (x)."
    flipped = translate("de", "rithmo.capture.flipped", equation="e", cell="2b2", name="Du")
    assert flipped.endswith("gehört jetzt dir"), flipped
