"""The capture of ``benchmarks/ux_screens.py``: a game played a few moves through the real
adapters, as ``benchmarks/ux_walk.py`` plays it, then the messages the fakes hold, as they
stand, seen by the player whose turn is next (see that script's docstring)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import ux_walk
from benchmarks.ux_scene import Block, Bubble, Control, Scene, Screen
from engines.registry import get_game
from tests.helpers.discord_text import is_v2
from tests.helpers.discord_world import World as DiscordWorld

BOT_NAME = "Logic Bot"
PRIVATE_SHOWN = 2  # the latest messages of a Telegram private chat that are drawn


DISCORD_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}


V2_KINDS = {1: "row", 9: "section", 10: "text", 14: "separator", 17: "container"}


def discord_control(part: dict[str, Any]) -> Control | None:
    """A button or a string select as the page draws it; None for anything else."""
    if part.get("type") == 2:
        emoji = part.get("emoji") or {}
        label = " ".join(str(x) for x in (emoji.get("name"), part.get("label")) if x)
        style = DISCORD_STYLES.get(int(part.get("style", 2)), "secondary")
        return Control("link" if style == "link" else "button", label, style,
                       bool(part.get("disabled")))
    if part.get("type") == 3:
        return Control("select", str(part.get("placeholder") or ""),
                       disabled=bool(part.get("disabled")),
                       options=[str(o.get("label", "")) for o in part.get("options", [])])
    return None


def discord_rows(components: list[dict[str, Any]]) -> list[list[Control]]:
    rows: list[list[Control]] = []
    for row in components:
        controls = [c for c in map(discord_control, row.get("components", [row])) if c]
        if controls:
            rows.append(controls)
    return rows


def discord_blocks(components: list[dict[str, Any]], names: dict[int, str]) -> list[Block]:
    """A Components V2 message's components as blocks, nested ones kept nested (a
    container's children, a section's text displays and accessory)."""
    blocks: list[Block] = []
    for component in components:
        kind = V2_KINDS.get(int(component.get("type", 0)), "other")
        children = list(component.get("components") or [])
        if kind == "text":
            blocks.append(Block("text", with_names(str(component.get("content", "")), names)))
        elif kind == "section":
            text = "\n".join(str(c.get("content", "")) for c in children
                             if c.get("type") == 10)
            accessory = discord_control(dict(component.get("accessory") or {}))
            blocks.append(Block("section", with_names(text, names),
                                [accessory] if accessory else []))
        elif kind == "row":
            blocks.append(Block("row", controls=[c for c in map(discord_control, children)
                                                 if c]))
        elif kind == "container":
            blocks.append(Block("container", children=discord_blocks(children, names),
                                accent=component.get("accent_color")))
        elif kind == "separator":
            blocks.append(Block("separator", divider=bool(component.get("divider", True))))
        else:
            blocks.append(Block("other", str(component.get("type"))))
    return blocks


def blocks_text(blocks: list[Block]) -> str:
    """The text of V2 blocks, in order (nested ones included), one after another."""
    parts: list[str] = []
    for block in blocks:
        if block.kind in ("text", "section") and block.text:
            parts.append(block.text)
        parts.extend(filter(None, [blocks_text(block.children)]))
    return "\n".join(parts)


def telegram_rows(markup: dict[str, Any] | None) -> list[list[Control]]:
    rows: list[list[Control]] = []
    for row in (markup or {}).get("inline_keyboard", []):
        rows.append([Control("link" if "url" in button else "button", str(button["text"]),
                             str(button.get("style", "link" if "url" in button else "")))
                     for button in row])
    return rows


async def capture(platform: str, game: str, seed: int, moves: int,
                  first_tap: bool = False, board: str = "emoji",
                  grid: int | None = None) -> Scene:
    """Play ``moves`` moves of ``game`` on ``platform`` as ``ux_walk`` does and capture
    what the next player sees."""
    seeds = ux_walk.Seeds()
    seeds.set(seed, game)
    with tempfile.TemporaryDirectory() as folder:
        async with ux_walk.platform_world(platform, Path(folder), seeds) as world:
            table: ux_walk.DiscordTable | ux_walk.TelegramTable
            private_before: dict[int, int] = {}
            if isinstance(world, DiscordWorld):
                table = ux_walk.DiscordTable(world, game, 0)
            else:
                table = ux_walk.TelegramTable(world, game, 0)
                private_before = {person.id: len(world.fake.bot_messages(person.id))
                                  for person in ux_walk.TELEGRAM_PEOPLE}
            await ux_walk.walk_game(table, seed, board, moves)
            seat = await prepare_view(table, seed, table.tally.moves, first_tap, grid)
            board_id = int(((await table.record()).board_ref or {}).get("message", 0))
            if isinstance(table, ux_walk.DiscordTable):
                screens = discord_screens(table, seat, board_id)
                viewer = table.players[seat].name
            else:
                screens = telegram_screens(table, seat, board_id, private_before)
                viewer = table.players[seat].first_name
    return Scene(platform, game, viewer, table.tally.moves, screens)


async def prepare_view(table: ux_walk.DiscordTable | ux_walk.TelegramTable, seed: int,
                       moves: int, first_tap: bool, grid: int | None = None) -> int:
    """The seat whose turn is next (the walk's own order), with their hand open if the
    game hides hands and, with ``first_tap``, the first step of their move tapped."""
    record = await table.record()
    module = get_game(table.game)
    state = module.State.from_dict(record.state)
    movers = state.to_move()
    if record.status != "active" or not movers:
        return 0
    seat = movers[moves % len(movers)]
    version = ux_walk.menu_version(record, state, seat)
    options = [o for o in table.menu(seat, record) or [] if o.version == version]
    if not options and module.INFO.hidden_information:
        await table.open_hand(seat)  # what the player would tap first
        options = [o for o in table.menu(seat, record) or [] if o.version == version]
    if first_tap and options:
        target = ux_walk.Mind(table.game, seed).target(state, seat)
        step = next((o for o in options if o.path == target[:1]), options[0])
        await table.press(seat, step)
    if grid is not None and options:
        # The board's grid (the L-game, Rithmomachia): opened, then ``grid`` taps of the
        # way to the move this player wants.
        mind = ux_walk.Mind(table.game, seed)
        mind.target(state, seat)
        wanted = mind.last_wanted
        path = ux_walk.grid_path(state, seat, wanted) if wanted is not None else None
        for depth in range(1, 2 + grid if path is not None else 0):
            assert path is not None
            if depth > len(path) - 1:
                break  # the next tap would make the move
            shown = [o for o in table.menu(seat, record) or [] if o.version == version]
            tapped = next((o for o in shown if o.path == path[:depth]), None)
            if tapped is None:
                break
            await table.press(seat, tapped)
    return seat


def discord_screens(table: ux_walk.DiscordTable, seat: int, board_id: int
                    ) -> list[Screen]:
    """The channel from the board message on, as the player at ``seat`` sees it: the
    ephemeral messages of the others left out."""
    backend = table.world.env.backend
    viewer = table.players[seat].id
    names = {backend_id: user.name for backend_id, user in backend.users.items()}
    stored = backend.messages.get(table.channel.id, {})
    bubbles: list[Bubble] = []
    for message in sorted(stored.values(), key=lambda m: int(m.id)):
        if message.id < board_id or not message.visible_to(viewer):
            continue
        meta = message.interaction_metadata or {}
        header = ""
        if meta.get("name"):
            user = (meta.get("user") or {}).get("username", "someone")
            header = f"{user} used /{meta['name']}"
        author = BOT_NAME if message.author_id == table.bot_id \
            else names.get(message.author_id, "someone")
        components = [dict(c) for c in message.components]
        blocks = discord_blocks(components, names) if is_v2(message) else []
        text = blocks_text(blocks) if blocks else with_names(str(message.content), names)
        bubbles.append(Bubble(author, text, [] if blocks else discord_rows(components),
                              blocks, bot=message.author_id == table.bot_id,
                              edited=message.edited_timestamp is not None
                              and message.id == board_id,
                              private=message.is_ephemeral, header=header))
    return [Screen(f"# {table.channel.name}", "Class 3B", bubbles)]


def with_names(content: str, names: dict[int, str]) -> str:
    """Mentions as Discord draws them need the user's name: ``<@id>`` becomes
    ``<@id:name>`` for the Markdown below (the id stays, the text is otherwise as sent)."""
    return re.sub(r"<@!?(\d+)>",
                  lambda m: f"<@{m[1]}:{names.get(int(m[1]), 'unknown-user')}>", content)


def telegram_screens(table: ux_walk.TelegramTable, seat: int, board_id: int,
                     private_before: dict[int, int]) -> list[Screen]:
    """The group from the board message on, and the latest messages of the private chat
    of the player at ``seat`` since the game began."""
    fake = table.world.fake
    group = fake.chat_messages(table.chat["id"])
    bubbles = [telegram_bubble(m) for m in group if m.message_id >= board_id]
    screens = [Screen(str(table.chat["title"]), "3 members", bubbles)]
    person = table.players[seat]
    private = fake.bot_messages(person.id)[private_before.get(person.id, 0):]
    if private:
        screens.append(Screen(BOT_NAME, f"bot · private chat with {person.first_name}",
                              [telegram_bubble(m) for m in private[-PRIVATE_SHOWN:]]))
    return screens


def telegram_bubble(sent: Any) -> Bubble:
    is_bot = bool(sent.sender.get("is_bot"))
    author = BOT_NAME if is_bot else str(sent.sender.get("first_name", "someone"))
    return Bubble(author, str(sent.html), telegram_rows(sent.reply_markup), bot=is_bot,
                  edited=bool(sent.edits))
