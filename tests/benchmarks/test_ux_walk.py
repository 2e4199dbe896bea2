"""The player-experience walk (benchmarks/ux_walk.py) still plays a whole game through a
real adapter and reports what its players saw, so that it does not rot between the times
someone measures. The numbers asserted are properties, not timings."""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks import ux_walk
from renderers.common import PHONE_COLUMNS
from tests.helpers.paths import REPO_ROOT


async def test_an_lgame_on_discord_is_walked_to_its_end() -> None:
    # Text boards, so that the board is a code block whose width is measured.
    [tally] = await ux_walk.walk(["discord"], ["lgame"], seed=1, board="text")
    row = tally.summary()
    assert (tally.game, tally.platform, tally.board) == ("lgame", "discord", "text")
    assert tally.moves == len(tally.taps) > 0 and "won" in tally.outcome
    # A move is an L placement then a neutral-piece choice: at least two taps, never more
    # than a handful, and no hand to open in a game without hidden hands.
    assert all(2 <= taps <= 5 for taps in tally.taps), tally.taps
    assert tally.hand_opens == 0 and tally.retargets == 0
    assert row["taps_median"] >= 1 and row["taps_max"] >= row["taps_median"]
    # Every tap redraws the board in place; one board was posted, plus the turn cues.
    assert tally.channel_edits >= tally.moves and tally.channel_posts == 1 + tally.cues_sent
    assert tally.private_posts == 0
    assert tally.cues_sent >= tally.moves - 1 >= 1
    assert tally.cues_alive_max == 1 and tally.cue_excess == 0 and tally.cues_left_at_end == 0
    assert 0 < tally.widest_block <= PHONE_COLUMNS, tally.widest_line


def test_the_json_report_of_a_telegram_walk() -> None:
    command = [sys.executable, "benchmarks/ux_walk.py", "--platforms", "telegram",
               "--games", "booleo", "--moves", "6", "--seed", "3", "--json"]
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    report = json.loads(done.stdout)
    [game] = report["games"]
    assert report["seed"] == 3 and game["game"] == "booleo" and game["moves"] == 6
    # The hand of the player to move is sent to their private chat, so a move is the
    # menu's taps alone; each move edits that private hand and redraws the group's board.
    assert game["taps_median"] >= 1 and game["hand_opens"] == 0
    assert game["private_posts"] >= 6 and game["private_edits"] >= 6
    assert game["channel_edits"] >= 6 and game["cues_alive_max"] <= 1
    assert game["widest_block"] <= PHONE_COLUMNS and game["cue_excess"] == 0
    assert "ux walk: telegram booleo: 6 moves" in done.stderr
