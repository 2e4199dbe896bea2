"""An ended game's panel, shared by both platforms: what each of its buttons (payload
kind ``e``, see ``bot/payloads.py``) asks for, and whether it may.

The panel works only in the channel where its game ended (``Service.ended_game``); a
forged or misplaced press is answered "That button is not valid." and changes nothing.
"Play again" is a new game made by the service (``Service.rematch`` with the game's
number); the results and the rules are texts for the presser alone; the replay is the
platform's replay message. A platform module only shows the answer its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapters.answers import rules_answer
from bot.app import App
from bot.payloads import Payload
from bot.service import Place, User
from renderers.i18n import translate


@dataclass(frozen=True)
class EndChoice:
    """``action``: one of ``END_ACTIONS``, or "" when the press is refused; ``text``: the
    refusal, the presser's results or the rules (empty for "again" and "replay")."""

    action: str
    game_id: int
    text: str = ""


def is_end_panel(data: object) -> bool:
    payload = Payload.parse(data)
    return payload is not None and payload.kind == "e"


async def end_choice(app: App, origin: Place, user: User, data: str) -> EndChoice:
    payload = Payload.parse(data)
    record = await app.service.ended_game(origin, payload)
    if payload is None or record is None:
        return EndChoice("", payload.game_id if payload else 0,
                         translate(origin.language, "error.button_not_valid"))
    action = payload.last_token
    if action == "again":
        return EndChoice(action, record.id)  # the rematch counts against the rate itself
    refusal = await app.service.rate_refusal(origin, user)
    if refusal is not None:
        return EndChoice("", record.id, refusal)
    if action == "stats":
        return EndChoice(action, record.id,
                         await app.community.stats_text(origin, user.id, user.name,
                                                        game=record.game))
    if action == "rules":
        return EndChoice(action, record.id, rules_answer(app, origin, record.game))
    return EndChoice(action, record.id)
