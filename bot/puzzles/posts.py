"""A game's scheduled puzzle of the day (issue 41), as a channel's daily post shows it.

The schedule itself is the daily challenge's (``bot.puzzles.daily``: one row per channel
and game, claimed once a day); this is what a trainer game's post says: the title, the
day's puzzle drawn as its solvers will see it, the task, and yesterday's leaderboard of
the class, as the Turing challenge's post carries yesterday's. The puzzle is the one the
Solve button opens (``PuzzleTrainer.daily_puzzle``: the same everywhere for that day).
"""

from __future__ import annotations

import datetime as dt

from bot.puzzles.pages import board_text, theme_name
from bot.puzzles.trainer import PuzzleTrainer
from bot.store import DailySchedule
from engines.puzzles import Puzzle
from renderers.i18n import translate


async def scheduled_post_text(trainer: PuzzleTrainer, schedule: DailySchedule,
                              day: dt.date) -> str:
    """The post of ``schedule.game``'s puzzle of ``day``. Making the puzzle may raise
    (``WorkersBusy``, a timeout): the daily loop then counts the post as failed and tries
    again a minute later."""
    language = schedule.language
    _, made = await trainer.daily_puzzle(schedule.game, day.isoformat())
    puzzle = Puzzle.from_dict(made)
    yesterday = await trainer.leaderboard_text(
        language, schedule.game, day - dt.timedelta(days=1), schedule.server or None,
        empty_ok=False)
    parts = [trainer.daily_post_text(language, schedule.game, day),
             board_text(puzzle.game, puzzle.position(), puzzle.seat, language, True,
                        addressed=False),
             translate(language, "puzzle.daily_theme", "Theme: {theme}",
                       theme=theme_name(language, puzzle.theme)),
             yesterday]
    return "\n\n".join(part for part in parts if part)
