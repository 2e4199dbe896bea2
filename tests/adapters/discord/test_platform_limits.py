"""Discord's documented limits (``bot.adapters.discord.limits``): the whole command tree
in every language within them, each limit refused by the strict test Discord with
Discord's own answer, and a start-up that a refused command sync cannot stop."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.adapters.discord import limits
from bot.adapters.discord.limits import (
    Problem,
    command_list_problems,
    request_problems,
)
from renderers.i18n import CATALOGUE, supported_languages
from tests.helpers.discord_play import board_message, menu_items, play_one_move
from tests.helpers.discord_world import World, discord_world


def synced_commands(world: World) -> list[dict[str, Any]]:
    puts = [r for r in world.env.http_requests if r.method == "PUT"]
    assert puts, "the commands were synced at start-up"
    payload: list[dict[str, Any]] = puts[-1].json
    return payload


def texts_per_locale(commands: list[dict[str, Any]], key: str
                     ) -> dict[str, list[tuple[str, str]]]:
    """Every ``key`` text (name or description) of commands and options, per locale
    (``default`` for the English written in the code), with where it is."""
    found: dict[str, list[tuple[str, str]]] = {}

    def visit(node: dict[str, Any], where: str) -> None:
        found.setdefault("default", []).append((where, node[key]))
        for locale, text in (node.get(f"{key}_localizations") or {}).items():
            found.setdefault(locale, []).append((where, text))
        for option in node.get("options") or []:
            visit(option, f"{where} {option['name']}")

    for command in commands:
        visit(command, f"/{command['name']}")
    return found


async def test_every_command_in_every_language_is_within_discords_limits(
        tmp_path: Path) -> None:
    """The command tree as the bot syncs it, every localisation included, breaks no
    limit; the margin is printed (``pytest -s``) so a translator sees the room left."""
    async with discord_world(tmp_path) as world:
        commands = synced_commands(world)
    assert command_list_problems(commands) == []
    descriptions = texts_per_locale(commands, "description")
    # Every language of the catalogue reaches Discord, under Discord's own locale codes.
    reached = {locale.split("-")[0] for locale in descriptions}
    assert {language for language in supported_languages() if language != "en"} <= reached
    low, high = limits.COMMAND_DESCRIPTION
    print(f"\n{len(commands)} commands of {limits.GLOBAL_CHAT_INPUT_COMMANDS} allowed; "
          f"descriptions may have {low}-{high} characters")
    for locale, texts in sorted(descriptions.items()):
        where, longest = max(texts, key=lambda item: len(item[1]))
        print(f"  {locale:8} longest {len(longest):3} ({where}): {high - len(longest)} left")
        assert len(longest) <= high
    for command in commands:
        size = limits.command_size(command)
        assert size <= limits.COMMAND_TOTAL_CHARACTERS, command["name"]
    largest = max(commands, key=limits.command_size)
    print(f"  largest command /{largest['name']}: {limits.command_size(largest)} of "
          f"{limits.COMMAND_TOTAL_CHARACTERS} characters")


def test_the_101_character_description_is_refused_by_the_check() -> None:
    """The description that kept the bot off real Discord: one character over."""
    command = {"name": "class-board", "description": "x" * 101, "type": 1}
    assert command_list_problems([command]) == [Problem(
        ("0", "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
    assert limits.describe(command_list_problems([command])[0], [command]) == (
        "/class-board description (101 characters): Must be between 1 and 100 in length.")


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "play", "description": "Start a game", "type": 1, **fields}


def string_option(name: str = "game", **fields: Any) -> dict[str, Any]:
    return {"name": name, "description": "Which game", "type": 3, **fields}


def button(custom_id: str = "b", **fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **fields}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(count: int = 2, **fields: Any) -> dict[str, Any]:
    """A string select of ``count`` options (or the ``options`` given)."""
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]
    return {"type": 3, "custom_id": "s", "options": options, **fields}


def text_display(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


V2 = limits.IS_COMPONENTS_V2
# One deliberately bad request per limit: (what, route, body, the text Discord answers).
COMMANDS = "commands"
MESSAGE = "message"
THREAD = "thread"
BAD_REQUESTS: list[tuple[str, str, Any, str]] = [
    ("description over 100", COMMANDS, [command(description="d" * 101)],
     "In 0.description: Must be between 1 and 100 in length."),
    ("empty description", COMMANDS, [command(description="")],
     "In 0.description: Must be between 1 and 100 in length."),
    ("localised description over 100", COMMANDS,
     [command(description_localizations={"de": "d" * 101})],
     "In 0.description_localizations.de: Must be between 1 and 100 in length."),
    ("upper-case name", COMMANDS, [command(name="Play")],
     "In 0.name: Command name is invalid"),
    ("name with a space", COMMANDS, [command(name="class board")],
     "In 0.name: Command name is invalid"),
    ("name over 32", COMMANDS, [command(name="p" * 33)], "In 0.name: Command name is invalid"),
    ("localised name", COMMANDS, [command(name_localizations={"nl": "Speel!"})],
     "In 0.name_localizations.nl: Command name is invalid"),
    ("option description over 100", COMMANDS,
     [command(options=[string_option(description="d" * 101)])],
     "In 0.options.0.description: Must be between 1 and 100 in length."),
    ("26 options", COMMANDS,
     [command(options=[string_option(f"o{i}") for i in range(26)])],
     "In 0.options: Must be 25 or fewer in length."),
    ("26 choices", COMMANDS,
     [command(options=[string_option(choices=[{"name": f"c{i}", "value": f"c{i}"}
                                              for i in range(26)])])],
     "In 0.options.0.choices: Must be 25 or fewer in length."),
    ("choice name over 100", COMMANDS,
     [command(options=[string_option(choices=[{"name": "c" * 101, "value": "c"}])])],
     "In 0.options.0.choices.0.name: Must be between 1 and 100 in length."),
    ("choice value over 100", COMMANDS,
     [command(options=[string_option(choices=[{"name": "c", "value": "v" * 101}])])],
     "In 0.options.0.choices.0.value: Must be 100 or fewer in length."),
    ("command over 4000 characters", COMMANDS,
     [command(options=[string_option(f"o{i}", description="d" * 100, choices=[
         {"name": f"{i}-{j}" + "c" * 90, "value": "v" * 100} for j in range(2)])
         for i in range(12)])],
     "Command exceeds maximum size (4000)"),
    ("101 global commands", COMMANDS, [command(name=f"c{i}") for i in range(101)],
     "Must be 100 or fewer in length."),
    ("content over 2000", MESSAGE, {"content": "c" * 2001},
     "In content: Must be 2000 or fewer in length."),
    ("six action rows", MESSAGE,
     {"content": "x", "components": [row(button(f"b{i}")) for i in range(6)]},
     "In components: Must be 5 or fewer in length."),
    ("six buttons in a row", MESSAGE,
     {"content": "x", "components": [row(*(button(f"b{i}") for i in range(6)))]},
     "In components.0.components: Must be between 1 and 5 in length."),
    ("a select beside a button", MESSAGE,
     {"content": "x", "components": [row(select(), button())]},
     "In components.0.components: Must be between 1 and 5 in length."),
    ("button label over 80", MESSAGE,
     {"content": "x", "components": [row(button(label="l" * 81))]},
     "In components.0.components.0.label: Must be 80 or fewer in length."),
    ("custom id over 100", MESSAGE,
     {"content": "x", "components": [row(button("i" * 101))]},
     "In components.0.components.0.custom_id: Must be between 1 and 100 in length."),
    ("empty custom id", MESSAGE, {"content": "x", "components": [row(button(""))]},
     "In components.0.components.0.custom_id: Must be between 1 and 100 in length."),
    ("duplicate custom ids", MESSAGE,
     {"content": "x", "components": [row(button("same"), button("same"))]},
     "In components.0.components.1.custom_id: Component custom id cannot be duplicated"),
    ("26 select options", MESSAGE, {"content": "x", "components": [row(select(26))]},
     "In components.0.components.0.options: Must be between 1 and 25 in length."),
    ("a select without options", MESSAGE,
     {"content": "x", "components": [row({"type": 3, "custom_id": "s", "options": []})]},
     "In components.0.components.0.options: Must be between 1 and 25 in length."),
    ("select option label over 100", MESSAGE,
     {"content": "x", "components": [row(select(options=[{"label": "l" * 101,
                                                            "value": "v"}]))]},
     "In components.0.components.0.options.0.label: Must be between 1 and 100 in length."),
    ("select option value over 100", MESSAGE,
     {"content": "x", "components": [row(select(options=[{"label": "l",
                                                            "value": "v" * 101}]))]},
     "In components.0.components.0.options.0.value: Must be between 1 and 100 in length."),
    ("select option description over 100", MESSAGE,
     {"content": "x", "components": [row(select(options=[
         {"label": "l", "value": "v", "description": "d" * 101}]))]},
     "In components.0.components.0.options.0.description: Must be 100 or fewer in length."),
    ("placeholder over 150", MESSAGE,
     {"content": "x", "components": [row(select(placeholder="p" * 151))]},
     "In components.0.components.0.placeholder: Must be 150 or fewer in length."),
    ("V2 with content", MESSAGE,
     {"content": "x", "flags": V2, "components": [text_display("t")]},
     "In content: The 'content' field cannot be used when using "
     "MessageFlags.IS_COMPONENTS_V2"),
    ("V2 over 40 components", MESSAGE,
     {"flags": V2, "components": [text_display(f"t{i}") for i in range(41)]},
     "In components: Must be 40 or fewer in length."),
    ("V2 text over 4000", MESSAGE,
     {"flags": V2, "components": [text_display("t" * 2001), text_display("t" * 2000)]},
     "In components: The total length of text displays must be 4000 or fewer."),
    ("section of four texts", MESSAGE,
     {"flags": V2, "components": [{"type": 9, "accessory": button(),
                                   "components": [text_display(str(i)) for i in range(4)]}]},
     "In components.0.components: Must be between 1 and 3 in length."),
    ("section without an accessory", MESSAGE,
     {"flags": V2, "components": [{"type": 9, "components": [text_display("t")]}]},
     "In components.0.accessory: This field is required"),
    ("embed title over 256", MESSAGE, {"embeds": [{"title": "t" * 257}]},
     "In embeds.0.title: Must be 256 or fewer in length."),
    ("thread name over 100", THREAD, {"name": "n" * 101, "type": 11},
     "In name: Must be between 1 and 100 in length."),
]


def route_of(world: World, kind: str) -> Route:
    if kind == COMMANDS:
        return Route("PUT", "/applications/{application_id}/commands",
                     application_id=world.bot.application_id)
    if kind == THREAD:
        return Route("POST", "/channels/{channel_id}/threads", channel_id=world.channel.id)
    return Route("POST", "/channels/{channel_id}/messages", channel_id=world.channel.id)


async def test_the_strict_discord_refuses_each_limit_as_discord_does(tmp_path: Path) -> None:
    """Each bad request, sent through discord.py's HTTP client, raises the
    ``HTTPException`` Discord's answer makes: 400, code 50035, the field and the text."""
    async with discord_world(tmp_path) as world:
        for what, kind, body, text in BAD_REQUESTS:
            with pytest.raises(discord.HTTPException) as refused:
                await world.bot.http.request(route_of(world, kind), json=body)
            error = refused.value
            assert (error.status, error.code) == (400, 50035), what
            assert text in error.text, f"{what}: {error.text}"
        # And the same routes take a request within the limits.
        await world.bot.http.request(route_of(world, MESSAGE), json={
            "content": "c" * 2000, "components": [row(*(button(f"b{i}", label="l" * 80)
                                                        for i in range(5)))]})


def test_interaction_answers_and_autocomplete_are_checked_too() -> None:
    """An interaction's answer carries the message in ``data``; an autocomplete result
    has at most 25 choices."""
    callback = "/interactions/1/token/callback"
    assert [str(p) for p in request_problems("POST", callback, {
        "type": 4, "data": {"content": "c" * 2001}})] == [
        "In data.content: Must be 2000 or fewer in length."]
    assert [str(p) for p in request_problems("POST", callback, {
        "type": 8, "data": {"choices": [{"name": "n", "value": "v"}] * 26}})] == [
        "In data.choices: Must be 25 or fewer in length."]
    assert request_problems("POST", callback, {"type": 6}) == []
    assert [str(p) for p in request_problems("PATCH", "/webhooks/1/token/messages/@original",
                                             {"content": "c" * 2001})] == [
        "In content: Must be 2000 or fewer in length."]


async def test_a_refused_command_sync_does_not_stop_the_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A translation one word too long: Discord refuses the whole command list. The bot
    starts all the same, logs which command and field in one line, plays on on the
    boards it already had, and the next start tries the sync again."""
    rng = random.Random(3)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        await play_one_move(world.alice, world, rng)
        board = await board_message(world)
        before = await world.store.running_game("discord", str(world.channel.id))
        assert before is not None
        puts_before = sum(1 for r in world.env.http_requests if r.method == "PUT")

        monkeypatch.setitem(CATALOGUE["de"], "cmd.play.description", "x" * 101)
        with caplog.at_level(logging.ERROR):
            await world.restart()
        refusals = [r for r in caplog.records if "was refused" in r.getMessage()]
        assert len(refusals) == 1, [r.getMessage() for r in caplog.records]
        line = refusals[0].getMessage()
        assert "/play description_localizations de (101 characters): Must be between 1 and " \
               "100 in length." in line
        assert "Discord said: Failed to upload commands to Discord (HTTP status 400, error " \
               "code 50035)" in line
        assert refusals[0].exc_info is None, "a refusal is one line, not a traceback"
        assert world.bot.synced_scopes == []

        await play_one_move(world.bob, world, rng)
        assert (await board_message(world)).id == board.id
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == before.version + 1

        caplog.clear()
        await world.restart()  # the next start tries again, and the list is still refused
        assert sum(1 for r in world.env.http_requests if r.method == "PUT") == puts_before + 2
        assert sum("was refused" in r.getMessage() for r in caplog.records) == 1

        # The translation fixed: Discord refused the lists whole, so it still holds the
        # one published before them, which is the list again: nothing to send.
        monkeypatch.undo()
        await world.restart()
        assert world.bot.synced_scopes == []
        assert sum(1 for r in world.env.http_requests if r.method == "PUT") == puts_before + 2


async def test_python_m_bot_starts_and_serves_when_discord_refuses_the_sync(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """``python -m bot``'s own entry (``bot.__main__.run``) with DISCORD_TOKEN set, its
    Discord the strict simcord: the command list breaks a limit, Discord refuses the
    sync, and the bot starts all the same, logs the refusal once and plays a game."""
    from bot.__main__ import run
    from bot.adapters.discord.client import LogicBot
    from bot.config import Settings
    from tests.helpers.discord_strict import strict_run

    monkeypatch.setitem(CATALOGUE["nl"], "cmd.help.description", "h" * 101)
    served: list[int] = []
    log_in = LogicBot.login

    async def login(self: LogicBot, token: str) -> None:
        if token == "simcord.fake.token":  # simcord's log-in, inside ``connect`` below
            await log_in(self, token)

    async def connect(self: LogicBot, *, reconnect: bool = True) -> None:
        """Discord's gateway, played by simcord: a class plays one move, then it ends.
        The commands are those an earlier start published (``strict_sync=False``): this
        start's list was refused whole, so Discord still has the one before."""
        async with strict_run(self, strict_sync=False) as env:
            channel = env.create_guild("Class 3B").create_text_channel("games")
            alice, bob = (channel.guild.add_member(env.create_user(name))
                          for name in ("alice", "bob"))
            started = await alice.slash(channel, "play", game="lgame", opponent=bob)
            assert started.acknowledged and not started.ephemeral
            record = await self.service.store.running_game("discord", str(channel.id))
            assert record is not None
            message = next(m for m in channel.history() if menu_items(m))
            await alice.click(message, custom_id=menu_items(message)[0]["custom_id"])
            served.append(record.id)
            await self.wait_for_background()

    monkeypatch.setattr(LogicBot, "login", login)
    monkeypatch.setattr(LogicBot, "connect", connect)
    settings = Settings(database_path=str(tmp_path / "bot.sqlite3"), discord_token="a.b.c")
    with caplog.at_level(logging.ERROR):
        assert await run(settings) == 0
    assert served, "the bot served a game"
    refusals = [r.getMessage() for r in caplog.records if "was refused" in r.getMessage()]
    assert len(refusals) == 1 and "/help description_localizations nl (101 characters)" \
        in refusals[0], refusals
