"""Menu labels a 14-year-old reads (issue 23.4): the L-game names placements by their
squares and the neutral step in words, bOOleO says which gate a card replaces; labels stay
short enough for a button, in every language, and the tokens and actions do not change."""

from __future__ import annotations

import random

import pytest

from engines import booleo, digitalo, lgame
from engines.base import Choice
from engines.lgame.board import PLACEMENT_BY_CODE, PLACEMENTS
from renderers.i18n import LANGUAGES, localise

BUTTON = 20  # characters a Telegram or Discord button shows on a phone without cutting
# Dutch and German run longer; a few existing translations take up to this many.
TRANSLATED_BUTTON = 24


def labels(choices: list[Choice], language: str, game: str = "") -> list[str]:
    """The labels as the service shows them: a ``Message`` by its key, a fixed label by
    ``<game>.choice.<label>``."""
    return [localise(language, choice.label, f"{game}.choice.{choice.label}" if game else None)
            for choice in choices]


@pytest.mark.parametrize("sudden_death", [False, True])
def test_l_placements_are_named_by_their_squares(sudden_death: bool) -> None:
    state = lgame.new_game({"sudden_death": sudden_death}, 2, 0)
    rng = random.Random(5)
    for _ in range(12):
        if state.outcome() is not None:
            break
        seat = state.turn
        first = state.menu(seat, ())
        for choice in first:
            squares = sorted(PLACEMENTS[PLACEMENT_BY_CODE[choice.token]].cell_names)
            assert choice.label == "L on " + " ".join(squares)
            assert len(squares) == 4
        for language in LANGUAGES:
            assert max(map(len, labels(first, language))) <= BUTTON
        placement = rng.choice(first)
        steps = state.menu(seat, (placement.token,))
        keep, *moves = steps
        assert keep.token == "-" and keep.label == "Neutrals stay"
        for move in moves:
            source, target = move.token[:2], move.token[2:]
            assert move.label == f"Neutral {source}→{target}"
        for language in LANGUAGES:
            assert max(map(len, labels(steps, language))) <= BUTTON
        if sudden_death and moves:
            second = state.menu(seat, (placement.token, moves[0].token))
            assert second[0].label == "Other neutral stays"
            assert localise("de", second[0].label) == "Der andere bleibt"
            for language in LANGUAGES:
                assert max(map(len, labels(second, language))) <= BUTTON
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_the_neutral_step_reads_in_every_language() -> None:
    state = lgame.new_game({}, 2, 0)
    placement = state.menu(0, ())[0]
    step = state.menu(0, (placement.token,))[1]
    assert localise("nl", step.label).startswith("Neutraal ")
    assert localise("de", placement.label).startswith("L auf ")
    assert localise("nl", placement.label).startswith("L op ")


def test_a_booleo_slot_label_says_which_gate_the_card_replaces() -> None:
    """``2.3 replaces AND→0`` (was ``2.3 (1 0) for AND→0``); the action is unchanged."""
    found = 0
    for seed in range(40):
        state = booleo.new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            for card in state.menu(seat, ()):
                if card.action is not None or card.token in ("C", "P", "N"):
                    continue
                for slot in state.menu(seat, (card.token,)):
                    text = localise("en", slot.label)
                    if " replaces " not in text:
                        continue
                    found += 1
                    name, old = text.split(" replaces ")
                    assert slot.action is not None and slot.action.endswith(" " + name)
                    assert "→" in old and len(text) <= BUTTON
                    assert " vervangt " in localise("nl", slot.label)
                    assert " ersetzt " in localise("de", slot.label)
                    assert " for " not in text
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if found >= 5:
            return
    raise AssertionError(f"only {found} replace options in 40 random games")


def test_digitalo_menu_labels_fit_a_button() -> None:
    """Every label of Digitalo's menus, the answer to a pending inverter included, in
    every language, within a button's width."""
    countered = 0
    for seed in range(30):
        state = digitalo.new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(120):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            top = state.menu(seat, ())
            steps = [step for choice in top if choice.action is None
                     for step in state.menu(seat, (choice.token,))]
            for language in LANGUAGES:
                shown = labels(top + steps, language, "digitalo")
                limit = BUTTON if language == "en" else TRANSLATED_BUTTON
                assert max(map(len, shown)) <= limit, shown
            counter = [c for c in top + steps if c.action == "counter"]
            countered += bool(counter)
            for choice in counter:
                assert localise("en", choice.label) in ("Counter the flip",
                                                        f"{choice.token}: undo the flip")
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert countered > 0, "no pending inverter in 30 random matches"
