"""Replay steps and hints as text (``renderers.replay``), from real games' frames."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from engines.analysis import hint, replay
from engines.base import GameState
from engines.lgame.analysis import move_results
from engines.registry import get_game
from renderers.common import PHONE_COLUMNS, code_widths
from renderers.i18n import LANGUAGES
from renderers.replay import TREE_LINES, render_hint, render_step

NAMES = ["Ann", "Bo"]
GAMES = ("lgame", "rithmomachia", "booleo", "digitalo", "turing")


def played(game: str, seed: int) -> GameState:
    module = get_game(game)
    players = 1 if game == "turing" else 2
    state = module.new_game({}, players, seed)
    rng = random.Random(seed)
    for number in range(300):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        if game == "turing":
            actions = [a for a in actions if a.startswith("guess") == (number >= 9)]
        state.apply(seat, rng.choice(actions))
    if state.outcome() is None:
        state.resign(state.to_move()[0])
    return state


@cache
def analysed(game: str, seed: int = 6) -> dict[str, Any]:
    return replay(game, played(game, seed).to_dict(), 1 if game == "turing" else 2)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_a_replay_renders(game: str, language: str) -> None:
    found = analysed(game)
    last = len(found["frames"]) - 1
    for index in range(last + 1):
        text = render_step(found, index, NAMES, language, emoji=index % 2 == 0)
        assert text.startswith("⏯️") and f" {index} " in text.split("\n")[0]
        assert f" {last}" in text.split("\n")[0]
    # Out of range asks for the nearest end, never crashes.
    assert render_step(found, last + 5, NAMES, language, True) == render_step(
        found, last, NAMES, language, True)


@pytest.mark.parametrize("game", ["booleo", "digitalo"])
def test_card_game_steps_show_both_hands(game: str) -> None:
    found = analysed(game)
    for index in (0, len(found["frames"]) // 2, len(found["frames"]) - 1):
        text = render_step(found, index, NAMES, "en", True)
        assert "🂠 Ann's hand:" in text and "🂠 Bo's hand:" in text


def test_l_game_steps_mark_the_moves_that_changed_the_perfect_result() -> None:
    found = analysed("lgame")
    marked = [i for i, m in enumerate(found["mistakes"]) if m]
    assert marked, "random play throws results away"
    index = marked[0]
    text = render_step(found, index, NAMES, "en", True)
    mistake = found["mistakes"][index]
    assert f"Better: {mistake['better_text']}." in text
    clean = next(i for i, m in enumerate(found["mistakes"]) if i and not m)
    assert "Better:" not in render_step(found, clean, NAMES, "en", True)
    last = render_step(found, len(found["frames"]) - 1, NAMES, "en", True)
    assert f"changed the perfect result: {len(marked)}." in last


def test_rithmomachia_steps_show_each_capture_equation() -> None:
    found = analysed("rithmomachia", 7)
    captured = [(i, e) for i, f in enumerate(found["frames"]) for e in f["events"]
                if e["type"] == "capture"]
    assert captured
    index, event = captured[0]
    assert str(event["equation"]) in render_step(found, index, NAMES, "en", True)
    last = render_step(found, len(found["frames"]) - 1, NAMES, "de", True)
    assert all(str(e["equation"]) in last for _, e in captured[:5])


def test_turing_steps_tell_what_each_test_ruled_out_and_end_with_the_machine_tree() -> None:
    found = analysed("turing", 8)
    tested = [i for i, effect in enumerate(found["tests"]) if effect]
    assert tested
    effect = found["tests"][tested[0]]
    text = render_step(found, tested[0], NAMES, "en", True)
    assert (f"ruled out {effect['before'] - effect['after']} of {effect['before']} possible "
            f"codes, {effect['after']} left") in text
    last = render_step(found, len(found["frames"]) - 1, NAMES, "en", True)
    assert "The machine's plan" in last and "R1 " in last
    # After the game, the last step lists what every test ruled out.
    assert last.count("🔎 Ann: ") == len(tested)
    assert code_widths(last) and max(code_widths(last)) <= PHONE_COLUMNS


def test_a_deep_machine_tree_is_cut_to_phone_width_and_length() -> None:
    leaf: dict[str, Any] = {"kind": "code", "code": "241", "rounds": 9, "tests": 40}
    node = leaf
    for depth in range(60):
        node = {"kind": "test", "verifier": "ABCDEF"[depth % 6], "yes": leaf, "no": node}
    tree = {"kind": "round", "round": 1, "proposal": "111", "codes": 61, "next": node}
    found = {"game": "turing", "frames": [{"kind": "end", "seat": None, "action": None,
                                           "text": "", "events": [],
                                           "public": analysed("turing", 8)["frames"][-1][
                                               "public"], "private": []}],
             "tests": [None], "machine": {"tree": tree, "proven": False, "worst": [9, 40]}}
    text = render_step(found, 0, NAMES, "en", False)
    assert max(code_widths(text)) <= PHONE_COLUMNS
    assert f"… {60 * 2 + 1 - TREE_LINES} more" in text
    assert "not proven optimal" in text


def test_hints_render_in_every_language() -> None:
    from engines import lgame
    state = lgame.new_game({}, 2, 1)
    found = hint("lgame", state.to_dict(), 0, 1)
    assert move_results(state)[found["action"]] == "draw"
    texts = {language: render_hint(found, language) for language in LANGUAGES}
    assert texts["en"].startswith("💡 Perfect move:") and "perfect play draws" in texts["en"]
    assert len(set(texts.values())) == len(LANGUAGES)
    for game in ("booleo", "digitalo", "rithmomachia", "turing"):
        module = get_game(game)
        start = module.new_game({}, 1 if game == "turing" else 2, 3)
        seat = start.to_move()[0]
        shown = {language: render_hint(hint(game, start.to_dict(), seat, 0), language)
                 for language in LANGUAGES}
        assert all(text.startswith("💡") for text in shown.values())
        assert shown["en"] != shown["de"], game
