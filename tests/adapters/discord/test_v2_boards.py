"""The boards you tap (the L-game, Rithmomachia) are Components V2 messages on Discord from
their first send to their end panel, through simcord, which holds Discord's V2 rules: no
content, the flag never removed by an edit, at most 40 components. Every way the bot
edits a board keeps it V2: a click on it, a typed /move (the stored board_ref, after a
restart too), /board posting it anew (the old one retired as V2 text), the end panel."""

from __future__ import annotations

from pathlib import Path

from engines.lgame import LGameState
from tests.helpers.discord_play import board_message, message_by_id
from tests.helpers.discord_text import interactive, is_v2, text_displays, visible_text, walk
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.menus import END_PANEL_LABELS

GRID_LABEL = "▦ Tap the board"


def assert_v2(message: object) -> None:
    assert is_v2(message) and not getattr(message, "content", "")
    assert len(list(walk(getattr(message, "components", [])))) <= 40


async def movers(world: World) -> tuple[object, object, LGameState]:
    record = await world.store.running_game("discord", str(world.channel.id))
    assert record is not None
    state = LGameState.from_dict(record.state)
    alice_moves = record.players[state.to_move()[0]]["id"] == str(world.alice.id)
    return ((world.alice, world.bob, state) if alice_moves
            else (world.bob, world.alice, state))


async def test_an_l_game_board_stays_v2_through_every_edit(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        assert_v2(board)
        texts = text_displays(board)
        # The start line, the board, the turn line: a text display each.
        assert len(texts) == 3 and "started" in texts[0] and "🟥" in texts[1], texts
        assert "Choose your move" in texts[2]
        first_id = board.id

        mover, other, _ = await movers(world)
        grid = next(c for c in components_of(board) if c.get("label") == GRID_LABEL)
        # A spectator's tap is refused privately; the board is left as it was.
        refused = await world.carol.click(board, custom_id=grid["custom_id"])
        assert refused.ephemeral and "not playing" in refused.response.content
        assert visible_text(await board_message(world)) == visible_text(board)
        await mover.click(board, custom_id=grid["custom_id"])  # type: ignore[attr-defined]
        board = await board_message(world)
        assert board.id == first_id and "Tap a square" in visible_text(board)
        assert_v2(board)

        # After a restart the stored board_ref is edited: a typed move redraws it, V2.
        await world.restart()
        offered = await mover.autocomplete(  # type: ignore[attr-defined]
            world.channel, "move", "notation", "")
        played = await mover.slash(  # type: ignore[attr-defined]
            world.channel, "move", notation=offered[0]["value"])
        assert played.ephemeral
        board = await board_message(world)
        assert board.id == first_id
        assert_v2(board)
        assert "Choose your move" in text_displays(board)[-1]
        # The grid, opened by the new mover on the board from before the restart.
        mover, other, _ = await movers(world)
        grid = next(c for c in components_of(board) if c.get("label") == GRID_LABEL)
        tapped = await mover.click(board, custom_id=grid["custom_id"])  # type: ignore[attr-defined]
        assert tapped.acknowledged and not tapped.ephemeral
        assert "Tap a square" in visible_text(await board_message(world))

        # /board posts it anew, V2; the old message is retired as V2 text, no buttons.
        await world.carol.slash(world.channel, "board")
        board = await board_message(world)
        assert board.id != first_id
        assert_v2(board)
        old = message_by_id(world.channel, first_id)
        assert_v2(old)
        assert visible_text(old) == "(This board moved further down.)"
        assert interactive(old) == []

        # The end panel is the same V2 message with its buttons.
        await other.slash(world.channel, "resign")  # type: ignore[attr-defined]
        final = await board_message(world)
        assert final.id == board.id
        assert_v2(final)
        assert "Game over" in visible_text(final)
        assert [c["label"] for c in components_of(final)] == END_PANEL_LABELS


async def test_a_rithmomachia_board_is_v2_from_placement_on(tmp_path: Path) -> None:
    """A placement game offers no grid until its pieces are placed, yet its board is V2
    from the first message, since the message could not change kind later."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="rithmomachia",
                                opponent=world.bob, options="setup=placement")
        board = await board_message(world)
        assert_v2(board)
        assert not any(c.get("label") == GRID_LABEL for c in components_of(board))
        assert any("```" in text for text in text_displays(board)), "its levels' code block"


async def test_other_games_boards_stay_classic(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="turing")
        board = await board_message(world)
        assert not is_v2(board) and board.content
