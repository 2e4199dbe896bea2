"""Hostile input through the real discord.py client (simcord): forged component custom ids
and select values on a live board, and slash commands with hostile arguments, in every
game, from both players and a stranger.

Every interaction is answered with something readable that is not the internal-error
apology, and only what the rules allow the clicking member right now may change a stored
game (the oracles are in ``tests/helpers/hostile.py``).
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from simcord.actors import _component_interaction  # forging needs the raw dispatcher

from bot.adapters.discord import menus
from bot.adapters.discord.menus import BUTTON_PREFIX, SELECT_PREFIX, select_payload
from bot.service import Place, User
from engines.registry import game_names
from renderers.i18n import translate
from tests.helpers import hostile
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World, components_of, discord_world

COMMANDS = ("move", "play", "rules", "leaderboard", "hand", "board")


@dataclass
class Table:
    """One example's game: its channel, the board message and what is on it."""

    channel: Any
    place: Place
    game_id: int
    message: Any
    payloads: list[str]
    moves: list[str]

    @property
    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in components_of(self.message) if "custom_id" in c]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in components_of(self.message) if c["type"] == 3]


def offered_payloads(message: Any) -> set[str]:
    """The service payloads a message offers, by button or select option alike (a board
    posted again may use the other)."""
    payloads = set()
    for component in components_of(message):
        custom_id = str(component.get("custom_id", ""))
        if component["type"] == 2 and custom_id.startswith(BUTTON_PREFIX):
            payloads.add(custom_id[len(BUTTON_PREFIX):])
        elif component["type"] == 3 and custom_id.startswith(SELECT_PREFIX):
            prefix = custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
            payloads |= {select_payload(prefix, str(o["value"])) for o in component["options"]}
    return payloads


async def board_message(world: World, channel: Any, game_id: int) -> Any:
    """The message the store names as the game's board (a /board posts a new one)."""
    record = await world.store.get_game(game_id)
    assert record is not None and record.board_ref is not None
    message_id = int(record.board_ref["message"])
    return next(m for m in channel.history() if m.id == message_id)


def user_of(world: World, actor: Any) -> User:
    return world.bot.user_for(actor.member) if actor.member is not None else User(
        "discord", str(actor.id), actor.name)


async def set_table(world: World, counter: Any, game: str, open_seat: bool,
                    moves: list[int], menu_buttons: int) -> Table:
    """A new channel with a game set up from the draws and its board posted by the bot;
    ``menu_buttons`` below a menu's size turns its buttons into select menus."""
    channel = world.guild.create_text_channel(f"fuzz-{next(counter)}")
    place = Place("discord", str(channel.id), server=str(world.guild.id))
    players = (user_of(world, world.alice), user_of(world, world.bob))
    service = world.bot.service
    game_id = await hostile.start_fuzzed_game(service, place, players, game, open_seat, moves)
    menus.MAX_MENU_BUTTONS = menu_buttons
    try:
        board = (await service.board(place)).board
        assert board is not None
        await world.bot.update_board(place, board)
    finally:
        menus.MAX_MENU_BUTTONS = menus.ROW_WIDTH * menus.MENU_ROWS
    return Table(channel, place, game_id, await board_message(world, channel, game_id),
                 await hostile.visible_payloads(service, place, players),
                 await hostile.move_texts(service, place))


@dataclass(frozen=True)
class Act:
    """One hostile interaction, drawn in full before it is sent."""

    actor: str  # alice, bob or carol
    kind: str  # click, select or a command name
    custom_id: str = ""
    values: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()


def draw_act(data: st.DataObject, table: Table) -> Act:
    actor = data.draw(st.sampled_from(["alice", "bob", "carol"]), label="actor")
    kinds = ["click", "click", *COMMANDS] + (["select", "select"] if table.selects else [])
    kind = data.draw(st.sampled_from(kinds), label="kind")
    if kind == "click":
        # Explicit weights: one_of leans towards its later branches.
        form = data.draw(st.integers(0, 5), label="custom id form")
        if form < 2:  # a real id of the board, clicked by anyone, stale or not
            custom_id = data.draw(st.sampled_from(table.custom_ids or ["lb:x"]))
        elif form < 4:
            custom_id = BUTTON_PREFIX + data.draw(hostile.hostile_payload(table.payloads))
        elif form == 4:
            custom_id = (f"{SELECT_PREFIX}{data.draw(hostile.hostile_payload(table.payloads))}"
                         f":{data.draw(st.integers(0, 11))}")
        else:
            custom_id = data.draw(hostile.hostile_text(110))
        return Act(actor, kind, custom_id=custom_id)
    if kind == "select":
        select = data.draw(st.sampled_from(table.selects), label="select")
        real = [str(option["value"]) for option in select["options"]]
        values = data.draw(st.lists(st.one_of(hostile.near_miss(real), hostile.hostile_text(12)),
                                    max_size=3), label="values")
        return Act(actor, kind, custom_id=str(select["custom_id"]), values=tuple(values))
    text = st.one_of(hostile.hostile_text(), hostile.near_miss(
        [*table.moves, *game_names(), *hostile.option_texts()]))
    options: dict[str, str] = {}
    if kind == "move":
        options["notation"] = data.draw(text, label="notation")
    elif kind in ("rules", "play") or (
            kind == "leaderboard" and data.draw(st.booleans(), label="with game")):
        options["game"] = data.draw(text, label="game")
    if kind == "play":
        for name in ("options", "level"):
            if data.draw(st.booleans(), label=f"with {name}"):
                options[name] = data.draw(text, label=name)
    # Discord refuses empty required options and values over 6000 characters itself.
    options = {name: value[:6000] or "?" for name, value in options.items()}
    return Act(actor, kind, options=tuple(options.items()))


def press_payload(act: Act, table: Table) -> str | None:
    """The service payload an act reaches the service with, when it can reach it at all:
    discord.py dispatches only ids that are on the message and match our templates."""
    if act.custom_id not in table.custom_ids:
        return None
    if act.kind == "click" and act.custom_id.startswith(BUTTON_PREFIX):
        return act.custom_id[len(BUTTON_PREFIX):]
    if act.kind == "select" and len(act.values) == 1:
        prefix = act.custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
        return select_payload(prefix, act.values[0])
    return None


async def perform(world: World, table: Table, act: Act) -> None:
    actor = {"alice": world.alice, "bob": world.bob, "carol": world.carol}[act.actor]
    user = user_of(world, actor)
    record = await world.store.running_game("discord", table.place.channel)
    payload = press_payload(act, table)
    if act.kind in ("click", "select"):
        allowed = payload is not None and hostile.press_may_change(record, user, payload)
    elif act.kind == "move":
        allowed = hostile.move_may_change(record, user, dict(act.options)["notation"][:200])
    else:
        allowed = False
    near = hostile.ids_near(table.game_id, payload or "")
    before = await hostile.snapshot(world.store, near)
    offered = offered_payloads(await board_message(world, table.channel, table.game_id))
    if act.kind in ("click", "select"):
        stored = world.env.backend.get_message(table.channel.id, table.message.id)
        data: dict[str, Any] = {"custom_id": act.custom_id,
                                "component_type": 2 if act.kind == "click" else 3}
        if act.kind == "select":
            data["values"] = list(act.values)
        result = await _component_interaction(actor, stored, data)
    else:
        result = await actor.slash(table.channel, act.kind, **dict(act.options))
    await world.bot.wait_for_background()
    assert result.acknowledged, act
    texts = [visible_text(message) for message in
             ([result.response] if result.response is not None else []) + result.followups]
    assert any(text.strip() for text in texts), f"no answer to {act}"
    for text in texts:
        assert not any(apology in text for apology in hostile.INTERNAL_APOLOGIES), (act, text)
    after = await hostile.snapshot(world.store, near)
    changed = hostile.changed_games(before, after) & before.keys()
    assert changed <= ({table.game_id} if allowed else set()), (act, changed)
    if act.actor == "carol" and not allowed:
        # Nothing a stranger does takes the game's buttons away or changes them, and
        # whatever she clicks is answered for her eyes only.
        board = await board_message(world, table.channel, table.game_id)
        assert offered_payloads(board) == offered, act
        if act.kind in ("click", "select"):
            assert result.ephemeral, act
    # Running games stay few, so that each snapshot stays quick.
    await world.bot.service.abandon(table.place, User("discord", "mod", "Mod", True))


async def fuzz_discord(tmp_path: Path, examples: int) -> None:
    async with discord_world(tmp_path, seed_source=lambda: hostile.SEED) as world:
        loop = asyncio.get_running_loop()
        counter = itertools.count(1)

        @hostile.fuzz_settings(examples)
        @given(st.data())
        def example(data: st.DataObject) -> None:
            game, open_seat, moves = hostile.draw_table(data)
            menu_buttons = data.draw(st.sampled_from([2, 20]), label="menu buttons")
            table = hostile.on_loop(loop, set_table(world, counter, game, open_seat, moves,
                                                    menu_buttons))
            hostile.on_loop(loop, perform(world, table, draw_act(data, table)))

        await hostile.run_in_thread(example)


async def test_hostile_discord_interactions(tmp_path: Path) -> None:
    await fuzz_discord(tmp_path, hostile.FAST_EXAMPLES)


@pytest.mark.slow
async def test_many_hostile_discord_interactions(tmp_path: Path) -> None:
    await fuzz_discord(tmp_path, hostile.SLOW_EXAMPLES)


async def test_a_select_id_sent_as_a_button_click_is_answered(tmp_path: Path) -> None:
    """Found by the fuzzing: discord.py dispatches a dynamic item only to a component of
    the clicked type, and ``on_interaction`` took any id on the message as handled, so a
    select's id sent as a button click was never answered ("interaction failed")."""
    async with discord_world(tmp_path) as world:
        table = await set_table(world, itertools.count(1), "lgame", False, [], menu_buttons=2)
        [select, *_] = table.selects
        before = await hostile.snapshot(world.store)
        stored = world.env.backend.get_message(table.channel.id, table.message.id)
        result = await _component_interaction(world.alice, stored, {
            "custom_id": select["custom_id"], "component_type": 2})
        assert result.acknowledged and result.ephemeral
        assert result.response is not None
        assert visible_text(result.response) == translate("en", "error.foreign_button")
        assert await hostile.snapshot(world.store) == before
