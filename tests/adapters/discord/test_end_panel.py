"""An ended game's panel on Discord, through simcord: the rating change under the final
board, and its buttons (play again, my results, rules, replay), which work only in the
channel where the game ended."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.adapters.discord.components import build_view
from bot.adapters.discord.layout import Layout
from bot.adapters.discord.menus import BUTTON_PREFIX, MenuButton
from tests.helpers.discord_play import board_message, message_by_id
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.menus import END_PANEL_LABELS


def button(message: discord.Message, label: str) -> dict[str, Any]:
    return next(c for c in components_of(message) if c.get("label") == label)


def texts_of(result: Any) -> list[str]:
    return [m.content for m in ([result.response] if result.response else [])
            + result.followups]


async def finished_lgame(world: World) -> discord.Message:
    await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
    await world.bob.slash(world.channel, "resign")
    return await board_message(world)


async def test_the_final_board_celebrates_and_offers_the_next_steps(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        final = await finished_lgame(world)
        assert "Game over: alice wins (bob resigned)." in visible_text(final)
        assert "🏆 alice: rating 1200 → 1216 (+16)" in visible_text(final)
        assert [c["label"] for c in components_of(final)] == END_PANEL_LABELS
        assert button(final, "🔁 Play again")["style"] == discord.ButtonStyle.primary.value
        assert button(final, "📖 Rules")["style"] == discord.ButtonStyle.secondary.value

        results = await world.bob.click(final, custom_id=button(final, "📊 My results")[
            "custom_id"])
        assert results.ephemeral and "L-game: 0 won, 1 lost" in results.response.content
        rules = await world.carol.click(final, custom_id=button(final, "📖 Rules")["custom_id"])
        assert rules.ephemeral and "L-game" in rules.response.content
        replay = await world.carol.click(final, custom_id=button(final, "🔎 Replay")[
            "custom_id"])
        assert replay.ephemeral
        assert [c["label"] for c in components_of(replay.response)] == ["⏮", "◀", "▶", "⏭"]

        again = button(final, "🔁 Play again")["custom_id"]
        stranger = await world.carol.click(final, custom_id=again)
        assert stranger.ephemeral and "Only a player" in stranger.response.content
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        rematch = await world.bob.click(final, custom_id=again)
        assert rematch.acknowledged and not rematch.ephemeral
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and [p["name"] for p in record.players] == ["bob", "alice"]
        new_board = await board_message(world)
        assert new_board.id != final.id
        kept = message_by_id(world.channel, final.id)
        assert [c["label"] for c in components_of(kept)] == END_PANEL_LABELS, \
            "the final board stays as it was"
        twice = await world.alice.click(kept, custom_id=again)
        assert twice.ephemeral and "already" in " ".join(texts_of(twice)).lower()
        assert len(await world.store.games_with_status("active")) == 1


async def test_a_panel_button_forged_elsewhere_does_nothing(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        final = await finished_lgame(world)
        data = button(final, "🔁 Play again")["custom_id"][len(BUTTON_PREFIX):]
        other = world.guild.create_text_channel("corner")
        for payload in (data, data.replace(":again", ":stats"),
                        data.replace(":again", ":bogus")):
            layout = Layout("A board", [MenuButton("Press", BUTTON_PREFIX + payload, 0, True)],
                            [])
            view = build_view(layout)
            assert view is not None
            forged = await world.bot.get_partial_messageable(other.id).send(layout.content,
                                                                            view=view)
            result = await world.bob.click(forged, custom_id=BUTTON_PREFIX + payload)
            assert result.ephemeral and "not valid" in " ".join(texts_of(result))
        assert await world.store.games_with_status("active", "waiting") == []
