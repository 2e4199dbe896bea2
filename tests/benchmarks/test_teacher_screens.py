"""benchmarks/teacher_screens.py, the pictures of docs/teachers.md: every classroom step
still runs through both adapters and shows what the guide says it shows. Chromium is not
needed: the captured messages and the pages are checked, not the screenshots."""

from __future__ import annotations

import pytest

from benchmarks import teacher_screens
from benchmarks.ux_pages import page


@pytest.mark.parametrize("platform", teacher_screens.PLATFORMS)
async def test_every_classroom_step_is_captured(platform: str) -> None:
    steps = await teacher_screens.capture(platform)
    assert [step.name for step in steps] == list(teacher_screens.STEPS)
    shown = {step.name: "\n".join(bubble.text for screen in step.screens
                                  for bubble in screen.bubbles) for step in steps}
    files = {step.name: [name for screen in step.screens for bubble in screen.bubbles
                         for name in bubble.files] for step in steps}
    assert all(shown.values()), [name for name, text in shown.items() if not text]
    assert "lesson, step 1 of 5" in shown["learn"]
    assert "started" in shown["play-easy"] and "Computer" in shown["play-easy"]
    assert "📋 Class board · 2 running" in shown["class-board"]
    assert "Assignment 1" in shown["assign"] and "1/2" in shown["assign"]
    assert "The class's progress" in shown["progress"]
    assert any(".csv" in name for name in files["progress"])
    assert "Daily Turing Machine challenge" in shown["daily"]
    assert "Find the best move" in shown["puzzle"]
    assert "Tap another square of your new L" in shown["puzzle-taps"]
    assert "❌ Not this one." in shown["puzzle-wrong"]
    assert "✅ Right!" in shown["puzzle-right"] and "Your puzzle rating" in shown["puzzle-right"]
    assert "L-game puzzle of the day · 2026-11-30" in shown["puzzle-daily"]
    assert "Signed up (4)" in shown["tournament-signup"]
    assert "Round 1" in shown["tournament"]
    assert any(name.startswith("results-") for name in files["export"])
    drawn = page(platform, [step.scene(platform) for step in steps], seed=0, captions=False)
    assert drawn.count("<section id=") == len(teacher_screens.STEPS)
    assert 'class="caption"' not in drawn and 'class="file"' in drawn
