"""Reading a Telegram board's move menu."""

from __future__ import annotations

from tests.helpers.telegram_fake import Sent
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World


def menu_keys(message: Sent) -> list[dict[str, str]]:
    """The move-menu buttons of a board: service payloads of kind ``m``."""
    return [b for b in message.buttons if b.get("callback_data", "").startswith("m:")]


async def group_lgame(world: World) -> int:
    """Alice and Bob in a group L-game, started and joined with buttons; its id."""
    await world.say(ALICE, GROUP, "/play lgame")
    await world.click(ALICE, world.last(GROUP), "whoever joins")
    await world.click(BOB, await world.board(GROUP), "Join")
    record = await world.store.running_game("telegram", str(GROUP["id"]))
    assert record is not None
    return record.id
