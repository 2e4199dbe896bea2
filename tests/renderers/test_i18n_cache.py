"""Texts without parameters are kept per language and key (issue 25), and the kept text
never outlives a change to the catalogue or grows without bound."""

from __future__ import annotations

import pytest

from renderers import i18n
from renderers.i18n import CATALOGUE, translate


def test_a_plain_text_follows_the_catalogue_when_it_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    english = CATALOGUE["en"]["menu.back"]
    assert translate("nl", "menu.back") == CATALOGUE["nl"]["menu.back"]
    assert translate("nl", "menu.back") == CATALOGUE["nl"]["menu.back"]  # the kept one
    monkeypatch.setitem(CATALOGUE["nl"], "menu.back", "Terug!")
    assert translate("nl", "menu.back") == "Terug!"
    monkeypatch.delitem(CATALOGUE["nl"], "menu.back")  # as if not yet translated
    assert translate("nl", "menu.back") == english
    monkeypatch.undo()
    assert translate("nl", "menu.back") == CATALOGUE["nl"]["menu.back"] != "Terug!"


def test_defaults_and_parameters_are_not_mixed_up() -> None:
    assert translate("de", "no.such.key", "Fallback") == "Fallback"
    assert translate("de", "no.such.key", "Other") == "Other"
    assert translate("de", "no.such.key") == "no.such.key"
    started = translate("en", "game.started", game="L-game", players="Ann vs Bob")
    assert "L-game" in started and "Ann vs Bob" in started
    assert translate("en", "game.started", game="Digitalo", players="X") != started


def test_the_kept_texts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "PLAIN_TEXTS_KEPT", 10)
    for n in range(25):
        assert translate("en", f"label.{n}", f"label {n}") == f"label {n}"
    assert len(i18n._PLAIN_TEXTS) <= 10


def test_a_formatted_text_is_kept_per_parameters_and_follows_the_catalogue(
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = translate("en", "game.started", game="L-game", players="Ann vs Bob")
    assert translate("en", "game.started", game="L-game", players="Ann vs Bob") == first
    assert translate("en", "game.started", game="L-game", players="Cy vs Di") != first
    monkeypatch.setitem(CATALOGUE["en"], "game.started", "{game}: {players}!")
    assert translate("en", "game.started", game="L-game", players="Ann vs Bob") == \
        "L-game: Ann vs Bob!"
    monkeypatch.undo()
    assert translate("en", "game.started", game="L-game", players="Ann vs Bob") == first


def test_the_kept_formatted_texts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "PLAIN_TEXTS_KEPT", 10)
    for n in range(25):
        assert translate("en", "no.such.key", "{n} of {total}", n=n, total=25) == f"{n} of 25"
    assert len(i18n._FORMATTED) <= 10
