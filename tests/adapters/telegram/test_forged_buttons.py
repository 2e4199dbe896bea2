"""Forged buttons on Telegram: every payload kind pressed in every kind of chat, through
the real python-telegram-bot and the fake Bot API. Where the rule refuses, the answer is
the same sentence and the database is unchanged.

Found by a hostile user: from their own private chat, someone in no group pressed a
hand-written ``j:<game>:1:`` and took the open seat of a lobby in another group (and got
its hand), then ``g:<game>:2:`` started it. Game ids are sequential, so every lobby was
reachable."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from bot.service import Opponent, Place, User
from renderers.i18n import translate
from tests.helpers import hostile
from tests.helpers.forged import (
    WHERE,
    Where,
    allowed,
    hand_payload,
    lobby_payload,
    mover_seat,
    whole_move,
)
from tests.helpers.telegram_fake import Person, group_chat
from tests.helpers.telegram_world import ALICE, BOB, CAROL, World, telegram_world

OTHER_GROUP = group_chat(-1_009_000, "Another class")
_group_ids = itertools.count(-1_008_000, -1)
REFUSALS = {translate("en", "error.button_not_valid"), translate("en", "error.bad_payload")}


def user_of(person: Person) -> User:
    return User("telegram", str(person.id), person.first_name)


def place_of(chat: dict[str, Any]) -> Place:
    return Place("telegram", str(chat["id"]), "en", True, server=str(chat["id"]))


async def new_game(world: World, kind: str) -> tuple[dict[str, Any], int]:
    """A running bOOleO game of Alice and Bob (for ``m`` and ``h``), or a Turing Machine
    lobby Alice opened (for ``j`` and ``g``), each in a group of its own."""
    group = group_chat(next(_group_ids), "Class")
    if kind in ("m", "h"):
        reply = await world.bot.service.start_game(place_of(group), user_of(ALICE), "booleo",
                                                   Opponent("user", user=user_of(BOB)))
    else:
        reply = await world.bot.service.start_game(place_of(group), user_of(ALICE), "turing",
                                                   Opponent("open"))
    assert reply.ok and reply.board is not None, reply.notice
    return group, reply.board.game_id


def presser(kind: str, where: Where, seated: Person) -> Person:
    if where == "stranger's private chat":
        return CAROL
    if kind == "j":
        # Joining: Bob, who is not in the lobby, except where the seated player is asked.
        return ALICE if where == "seated player's private chat" else BOB
    return seated


@pytest.mark.parametrize("kind", ["m", "h", "j", "g"])
@pytest.mark.parametrize("where", WHERE)
async def test_a_forged_button_acts_only_where_the_rule_allows(tmp_path: Path, kind: str,
                                                               where: Where) -> None:
    async with telegram_world(tmp_path) as world:
        for person in (ALICE, BOB, CAROL):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, OTHER_GROUP, "/help")
        group, game_id = await new_game(world, kind)
        await world.say(ALICE, group, "/help")
        record = await world.store.get_game(game_id)
        assert record is not None
        seated = ALICE if kind in ("j", "g") else (ALICE, BOB)[mover_seat(record)]
        data = {"m": whole_move, "h": hand_payload}[kind](record) if kind in ("m", "h") \
            else lobby_payload(record, kind)  # type: ignore[arg-type]
        person = presser(kind, where, seated)
        chat = {"own group": group, "another group": OTHER_GROUP,
                "seated player's private chat": person.private_chat,
                "stranger's private chat": person.private_chat}[where]
        before = await hostile.snapshot(world.store, [game_id])
        [answer] = await world.press(person, world.last(chat), data)
        after = await hostile.snapshot(world.store, [game_id])
        if allowed(kind, where):
            assert answer.get("text") not in REFUSALS, answer
            if kind in ("m", "j", "g"):
                assert after[game_id] != before[game_id], "an allowed press must act"
        else:
            assert answer.get("text") in REFUSALS, answer
            assert after == before
            # Nothing reached the group either: no "joined" line, no new board.
            assert not any("joined" in message.text
                           for message in world.fake.bot_messages(group["id"]))
