"""When a game may give hints, and how a game that gave one is marked.

A hint changes what a game means: a result reached with the computer's help is not the
player's own. So hints are only for practice, games against the computer and solo puzzles,
never between people (rated), in the daily challenge, a tournament or an assignment. A
seat that took a hint carries a count (``hints``) in the stored players list, which
``bot.community`` reads to leave the game's result uncounted, and ``bot.classroom.assignments`` to
leave the game out of every assignment.

Since a hint voids a result that counts, the first hint of a game is a question
(``hint_voids_result``): ``Service.hint`` answers it with ``hint_question``, whose yes
button (``i:<game>:<version>:yes``) takes the hint, for that position only. Every platform
draws the question its own way; the rule is here, once.
"""

from __future__ import annotations

from typing import Any

from bot.payloads import HINT_YES, Payload
from bot.replies import Button, Reply
from bot.store import GameRecord
from engines.analysis import HINT_GAMES
from renderers.i18n import translate

# A hint is one search of the strong computer (the L-game's table, the Turing machine's
# next step); past this it is given up on and the player may ask again.
HINT_SECONDS = 20.0
# Options of events whose results must be the players' own work.
EVENT_OPTIONS = ("daily", "tournament", "assignment")


def hint_refusal(record: GameRecord, language: str) -> str | None:
    """Why this game gives no hints, as a sentence in ``language``; None when it may."""
    if record.game not in HINT_GAMES:
        return translate(language, "hint.refused.game", "This game has no hints.")
    if any(record.options.get(name) for name in EVENT_OPTIONS):
        return translate(language, "hint.refused.event",
                         "No hints in the daily challenge, a tournament or an assignment: "
                         "the result must be your own work.")
    humans = sum(1 for p in record.players if p.get("kind") == "human")
    if humans > 1:
        return translate(language, "hint.refused.people",
                         "Hints are only for games against the computer and solo puzzles; "
                         "this game between people counts for the ratings.")
    return None


def with_hint(players: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The players list with ``seat``'s count of hints one higher (a new list)."""
    marked = [dict(p) for p in players]
    marked[seat]["hints"] = int(marked[seat].get("hints", 0)) + 1
    return marked


def hinted(record: GameRecord) -> bool:
    """Whether anyone in this game took a hint, which leaves its result uncounted."""
    return any(int(p.get("hints", 0) or 0) > 0 for p in record.players)


def hint_voids_result(record: GameRecord) -> bool:
    """Whether a hint now would leave a result uncounted that still counts, so that it
    asks first. Hints are only given where one person plays the computer or a solo puzzle
    (``hint_refusal``), and each such result counts until a hint is taken in the game:
    against the computer in /stats and in assignments ("win", "finish"), a solved puzzle
    in an assignment's "solve" task. Once a hint was taken the game counts for nothing
    already, and the next hint costs nothing."""
    return not hinted(record)


def hint_question(record: GameRecord, version: int, language: str) -> Reply:
    """The question before a hint that voids the result: nothing is done (``ok`` False,
    the game unchanged), ``notice`` says why it asks, and ``confirm`` is the yes, for the
    asker's eyes, bound to this game at ``version`` (the seat's menu version): a yes from
    before a move asks again, as the hint would be for a position the player never saw."""
    yes = Payload("i", record.id, version, (HINT_YES,)).encode()
    return Reply(ok=False, notice=translate(
        language, "hint.confirm",
        "A hint now means this game's result will not count. Tap 💡 again to take it."),
        confirm=Button(translate(language, "hint.confirm_button", "💡 Yes, show the hint"),
                       yes))


def says_yes(payload: Payload | None, record: GameRecord, version: int) -> bool:
    """Whether ``payload`` is the yes of the question asked for ``record`` at ``version``."""
    return (payload is not None and payload.says_yes and payload.game_id == record.id
            and payload.version == version)
