"""The L-game's board as buttons (issue 23, "boards you tap"), on Discord and Telegram.

Two classmates play in a channel or group. The player to move presses "▦ Tap the board":
the move menu becomes the board itself, four rows of four squares in the board's own
colours. Two taps fix the new L, which the grid then shows 🟩 (the preview); a tap on a
neutral piece and one on an empty square finish the move, which is saved exactly as the
list menu would have made it. A tap no L could cover is answered with the reason, and the
opponent's taps are refused."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from engines.base import GRID_TOKEN, GameError
from engines.lgame import LGameState
from engines.lgame import board as lgame_board
from engines.lgame import grid as lgame_grid
from engines.lgame.board import PLACEMENT_BY_CODE, PLACEMENTS
from engines.rithmomachia import RithmomachiaState
from engines.rithmomachia import grid as rithmomachia_grid
from tests.helpers.discord_play import board_message
from tests.helpers.discord_text import as_dict, is_v2, text_displays, visible_text, walk
from tests.helpers.discord_world import components_of, discord_world
from tests.helpers.telegram_world import ALICE, BOB, GROUP, telegram_world

GRID_LABEL = "▦ Tap the board"


def planned_taps(state: LGameState) -> tuple[tuple[str, str], str, str, str]:
    """Two squares that fix a legal L, a neutral piece and where it goes, and the action
    those four taps make, read from the engine's own grid."""
    seat = state.to_move()[0]
    for action in sorted(state.legal_actions(seat)):
        parts = action.split()
        if len(parts) != 2:
            continue
        cells = PLACEMENTS[PLACEMENT_BY_CODE[parts[0]]].cell_names
        for pair in itertools.permutations(cells, 2):
            try:
                step = state.menu(seat, (GRID_TOKEN, *pair))
            except GameError:
                continue
            if any(choice.token == "-" for choice in step):
                return pair, parts[1][:2], parts[1][2:], action
    raise AssertionError("no move is made in four taps")


def grid_rows_discord(message: Any) -> list[list[str]]:
    """The labels of a message's action rows, in order (nested ones in a V2 message
    too): the board's grid first, then the rows under it."""
    rows = [as_dict(c) for c in walk(message.components) if as_dict(c).get("type") == 1]
    return [[str(child.get("label", "")) for child in row.get("components", [])]
            for row in rows]


def assert_v2_board(message: Any) -> None:
    """A board you tap on Discord: Components V2 (no content), the board in a text
    display of its own above the one with the turn line or prompt, within V2's 40
    components."""
    assert is_v2(message) and not message.content
    assert len(text_displays(message)) >= 2
    assert len(list(walk(message.components))) <= 40


def custom_id_for(message: Any, token: str) -> str:
    """The grid button whose payload ends with ``token`` (a square's name)."""
    found = [c["custom_id"] for c in components_of(message)
             if str(c.get("custom_id", "")).endswith(f".{token}")
             or str(c.get("custom_id", "")).endswith(f":{token}")]
    assert len(found) == 1, (token, [c.get("custom_id") for c in components_of(message)])
    return str(found[0])


async def test_an_l_game_move_tapped_on_the_discord_board(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        state = LGameState.from_dict(record.state)
        (first, second), source, target, action = planned_taps(state)
        mover = world.alice if record.players[state.to_move()[0]]["id"] == str(
            world.alice.id) else world.bob
        other = world.bob if mover is world.alice else world.alice

        board = await board_message(world)
        assert_v2_board(board)  # from its first message, which can never turn classic
        board_id = board.id
        grid_button = next(c for c in components_of(board) if c.get("label") == GRID_LABEL)
        await mover.click(board, custom_id=grid_button["custom_id"])
        board = await board_message(world)
        assert board.id == board_id, "the grid is the same message, edited in place"
        assert_v2_board(board)
        rows = grid_rows_discord(board)
        # The board in its shape: four rows of four squares, then back.
        assert [len(row) for row in rows] == [4, 4, 4, 4, 1], rows
        assert all(label in "🟥🟦⚫⬜" for row in rows[:4] for label in row), rows
        assert "Tap a square of your new L" in text_displays(board)[-1]
        assert "🟥" in text_displays(board)[-2], "the board above the prompt"

        # The opponent cannot tap; a square no L covers is refused with the reason.
        refused = await other.click(board, custom_id=custom_id_for(board, first))
        assert refused.ephemeral and "not your turn" in refused.response.content
        blocked = next(name for name in lgame_board.CELL_NAMES
                       if name in state.view(None)["pieces"]["XO"[1 - state.to_move()[0]]])
        answer = await mover.click(board, custom_id=custom_id_for(board, blocked))
        assert answer.ephemeral and "No move of your L covers" in answer.response.content

        await mover.click(board, custom_id=custom_id_for(board, first))
        board = await board_message(world)
        assert lgame_grid.POSSIBLE in "".join("".join(row) for row in grid_rows_discord(board)[:4])
        await mover.click(board, custom_id=custom_id_for(board, second))
        board = await board_message(world)
        assert "Your new L is 🟩" in visible_text(board)
        rows = grid_rows_discord(board)
        assert sum(row.count(lgame_grid.TAPPED) for row in rows[:4]) == 4
        # With V2's room, "Neutrals stay" has a row of its own above the back row.
        assert [len(row) for row in rows] == [4, 4, 4, 4, 1, 1], rows
        assert rows[4] == ["Neutrals stay"] and rows[5] == ["↩ back"], rows
        await mover.click(board, custom_id=custom_id_for(board, source))
        board = await board_message(world)
        assert "Tap the empty square" in visible_text(board)
        await mover.click(board, custom_id=custom_id_for(board, target))

        saved = await world.store.get_game(record.id)
        assert saved is not None and saved.version == record.version + 1
        moves = await world.store.moves(record.id)
        assert [m.action for m in moves if m.kind == "action"] == [action]
        # The next player's menu starts from the list again, with the grid a tap away, on
        # the same message, still V2.
        board = await board_message(world)
        assert board.id == board_id
        assert_v2_board(board)
        assert any(c.get("label") == GRID_LABEL for c in components_of(board))


async def test_an_l_game_move_tapped_on_the_telegram_board(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, GROUP, "shall we?")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        board = await world.board(GROUP)
        record = max([r for r in await world.store.games_with_status("active")
                      if r.channel == str(GROUP["id"])], key=lambda r: r.id)
        state = LGameState.from_dict(record.state)
        (first, second), source, target, action = planned_taps(state)
        mover = ALICE if record.players[state.to_move()[0]]["id"] == str(ALICE.id) else BOB
        other = BOB if mover is ALICE else ALICE

        await world.click(mover, board, GRID_LABEL)
        board = await world.board(GROUP)
        rows = board.reply_markup["inline_keyboard"] if board.reply_markup else []
        assert [len(row) for row in rows[:4]] == [4, 4, 4, 4], rows
        assert "Tap a square of your new L" in board.text

        def data(message: Any, token: str) -> str:
            found = [b["callback_data"] for b in message.buttons
                     if str(b.get("callback_data", "")).endswith(f".{token}")]
            assert len(found) == 1, token
            return str(found[0])

        refused = await world.press(other, board, data(board, first))
        assert "not your turn" in refused[0]["text"]
        # The shared board stays where the mover is: a refusal throws nobody back.
        board = await world.board(GROUP)
        assert "Tap a square of your new L" in board.text
        for token in (first, second):
            await world.press(mover, board, data(board, token))
            board = await world.board(GROUP)
        assert "Your new L is 🟩" in board.text
        await world.press(mover, board, data(board, source))
        board = await world.board(GROUP)
        await world.press(mover, board, data(board, target))

        moves = await world.store.moves(record.id)
        assert [m.action for m in moves if m.kind == "action"] == [action]


def planned_rithmo_taps(state: Any) -> tuple[str, str, str]:
    """A piece on the level first on view and an empty target on the level then on view:
    two taps, and the action they make (read from the engine's grid)."""
    seat = state.to_move()[0]
    for piece in state.menu(seat, (GRID_TOKEN,)):
        if not str(piece.label).startswith(rithmomachia_grid.MOVABLE):
            continue
        for target in state.menu(seat, (GRID_TOKEN, piece.token)):
            if target.label == rithmomachia_grid.TARGET and target.action is not None:
                return piece.token, target.token, target.action
    raise AssertionError("no move in two taps")


async def test_a_rithmomachia_move_tapped_on_a_level_on_discord_and_telegram(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path / "discord") as world:
        await world.alice.slash(world.channel, "play", game="rithmomachia",
                                opponent=world.bob)
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        state = RithmomachiaState.from_dict(record.state)
        piece, target, action = planned_rithmo_taps(state)
        mover = world.alice if record.players[state.to_move()[0]]["id"] == str(
            world.alice.id) else world.bob
        board = await board_message(world)
        grid_button = next(c for c in components_of(board) if c.get("label") == GRID_LABEL)
        await mover.click(board, custom_id=grid_button["custom_id"])
        board = await board_message(world)
        assert_v2_board(board)
        rows = grid_rows_discord(board)
        # A rank of the level on view in each row, its key at the end, then back.
        assert [len(row) for row in rows] == [5, 5, 5, 5, 1], rows
        assert [row[4] for row in rows[:4]] == ["L4", "L3", "L2", "[1]"]
        # Another level, and back: nothing is played by looking.
        await mover.click(board, custom_id=custom_id_for(board, "v3"))
        board = await board_message(world)
        assert [row[4] for row in grid_rows_discord(board)[:4]] == ["L4", "[3]", "L2", "L1"]
        await mover.click(board, custom_id=custom_id_for(board, "v1"))
        board = await board_message(world)
        await mover.click(board, custom_id=custom_id_for(board, piece))
        board = await board_message(world)
        assert f"Tap where {piece} goes" in visible_text(board)
        await mover.click(board, custom_id=custom_id_for(board, target))
        moves = await world.store.moves(record.id)
        assert [m.action for m in moves if m.kind == "action"] == [action]
        assert_v2_board(await board_message(world))

    async with telegram_world(tmp_path / "telegram") as world:
        bob_line = await world.say(BOB, GROUP, "shall we?")
        await world.say(ALICE, GROUP, "/play rithmomachia", reply_to=bob_line)
        board = await world.board(GROUP)
        record = max([r for r in await world.store.games_with_status("active")
                      if r.channel == str(GROUP["id"])], key=lambda r: r.id)
        state = RithmomachiaState.from_dict(record.state)
        piece, target, action = planned_rithmo_taps(state)
        mover = ALICE if record.players[state.to_move()[0]]["id"] == str(ALICE.id) else BOB
        await world.click(mover, board, GRID_LABEL)
        board = await world.board(GROUP)
        rows = board.reply_markup["inline_keyboard"] if board.reply_markup else []
        assert [len(row) for row in rows[:4]] == [5, 5, 5, 5], rows
        for token in (piece, target):
            data = next(b["callback_data"] for b in board.buttons
                        if str(b.get("callback_data", "")).endswith(f".{token}"))
            await world.press(mover, board, data)
            board = await world.board(GROUP)
        moves = await world.store.moves(record.id)
        assert [m.action for m in moves if m.kind == "action"] == [action]
