"""The slash commands. Each one is a thin call into the service plus an answer.

Names and descriptions are ``locale_str``s with catalogue keys, so the translator can
localise them; the English text written here is what Discord shows without a translation.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.discord.layout import hand_layout
from bot.adapters.discord.translator import text
from bot.classroom import parse_policy
from bot.service import Opponent, Place, Reply, User
from engines.base import GameError
from engines.registry import game_names, get_game, resolve_name
from renderers.i18n import supported_languages, translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot

AUTOCOMPLETE_LIMIT = 25
PLATFORM_NAME = "discord"
FIRST_SEATS = {"me": 0, "opponent": 1, "random": None}


def _game_or_none(name: str | None) -> str | None:
    try:
        return resolve_name(name or "")
    except GameError:
        return None


async def complete_game(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    choices = []
    for name in game_names():
        title = get_game(name).TITLE
        if typed in name or typed in title.lower():
            choices.append(app_commands.Choice(name=title, value=name))
    return choices[:AUTOCOMPLETE_LIMIT]


async def complete_level(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    game = _game_or_none(getattr(interaction.namespace, "game", None))
    names = game_names() if game is None else [game]
    levels: list[str] = []
    for name in names:
        module = get_game(name)
        offered = ("solo",) if getattr(module, "SOLO", False) else module.LEVELS
        levels += [level for level in offered if level not in levels]
    return [app_commands.Choice(name=level, value=level) for level in levels
            if current.lower() in level][:AUTOCOMPLETE_LIMIT]


async def complete_options(interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
    """Offer each option of the chosen game, appended to what is typed so far."""
    game = _game_or_none(getattr(interaction.namespace, "game", None))
    if game is None:
        return []
    typed = current.strip()
    already = {word.split("=")[0] for word in typed.split()}
    choices = [app_commands.Choice(name=typed[:100], value=typed[:100])] if typed else []
    for spec in get_game(game).OPTIONS:
        if spec.name in already:
            continue
        word = spec.name if spec.kind is bool else f"{spec.name}={spec.default}"
        value = f"{typed} {word}".strip()
        choices.append(app_commands.Choice(name=f"{value} — {spec.help}"[:100],
                                           value=value[:100]))
    return choices[:AUTOCOMPLETE_LIMIT]


def register_commands(bot: LogicBot) -> None:
    tree = bot.tree
    service = bot.service

    async def complete_move(interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        place = await bot.place_for(interaction)
        texts = await service.move_suggestions(place, bot.actor(interaction), current,
                                               AUTOCOMPLETE_LIMIT)
        return [app_commands.Choice(name=t[:100], value=t[:100]) for t in texts]

    async def refused_for_speed(interaction: discord.Interaction, place: Place) -> bool:
        """For commands that only read: past the person's rate limit, say so instead."""
        refusal = service.rate_refusal(place, bot.actor(interaction))
        if refusal is not None:
            await bot.notify(interaction, refusal)
        return refusal is not None

    async def post_new_game(interaction: discord.Interaction, place: Place,
                            work: Awaitable[Reply]) -> None:
        """A new game (/play, /rematch): its board here, or why it did not start."""
        reply = await bot.within_deadline(interaction, work, component=False)
        if not reply.ok or reply.board is None:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        await bot.post_board(interaction, place, reply, reply.announcements)

    async def change(interaction: discord.Interaction,
                     action: Callable[[Place, User], Awaitable[Reply]]) -> None:
        """Join, resign or abandon: a change made away from the board."""
        place = await bot.place_for(interaction)
        actor = await bot.moderator_actor(interaction)
        reply = await bot.within_deadline(interaction, action(place, actor), component=False)
        await bot.answer_change(interaction, place, reply)

    @tree.command(name=text("play", "cmd.play.name"),
                  description=text("Start a game here, against a member, the computer or "
                                   "whoever joins", "cmd.play.description"))
    @app_commands.describe(
        game=text("Which game", "cmd.play.game"),
        opponent=text("A member to play against (leave empty to let anyone join)",
                      "cmd.play.opponent"),
        level=text("Play the computer at this level", "cmd.play.level"),
        options=text("Rule options, for example: sudden_death", "cmd.play.options"),
        first=text("Who moves first", "cmd.play.first"))
    @app_commands.choices(first=[
        app_commands.Choice(name=text("me", "cmd.play.first.me"), value="me"),
        app_commands.Choice(name=text("my opponent", "cmd.play.first.opponent"),
                            value="opponent"),
        app_commands.Choice(name=text("toss a coin", "cmd.play.first.random"),
                            value="random")])
    @app_commands.autocomplete(game=complete_game, level=complete_level,
                               options=complete_options)
    async def play(interaction: discord.Interaction, game: str,
                   opponent: discord.User | None = None, level: str | None = None,
                   options: str | None = None, first: str | None = None) -> None:
        place = await bot.place_for(interaction)
        user = bot.actor(interaction)
        against_bot = opponent is not None and bot.user is not None and opponent.id == bot.user.id
        if level or against_bot:
            rival = Opponent("ai", level or "")
        elif opponent is not None and opponent.bot:
            await bot.notify(interaction, bot.t(place, "discord.no_bots"))
            return
        elif opponent is not None:
            rival = Opponent("user", user=bot.user_for(opponent))
        else:
            rival = Opponent("open")
        missing = bot.missing_permissions(interaction)
        if missing:
            await bot.notify(interaction, bot.t(place, "discord.missing_permissions",
                                                permissions=", ".join(missing)))
            return
        creator_seat = FIRST_SEATS.get(first or "me", 0)
        problem = await service.start_refusal(place, user, game, rival, options or "")
        if problem is not None:
            await bot.notify(interaction, problem)
            return
        if await bot.wants_thread(interaction):
            await bot.play_in_thread(interaction, place, user, game, rival, options or "",
                                     creator_seat, opponent)
            return
        await post_new_game(interaction, place, service.start_game(
            place, user, game, rival, options or "", creator_seat))

    @tree.command(name=text("join", "cmd.join.name"),
                  description=text("Take the open seat in this channel's game",
                                   "cmd.join.description"))
    async def join(interaction: discord.Interaction) -> None:
        await change(interaction, service.join)

    @tree.command(name=text("board", "cmd.board.name"),
                  description=text("Show this channel's game board again, at the bottom",
                                   "cmd.board.description"))
    async def board(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        reply = await bot.within_deadline(interaction, service.board(place, bot.actor(interaction)),
                                          component=False)
        if not reply.ok or reply.board is None:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.no_game"))
            return
        await bot.post_board(interaction, place, reply)

    @tree.command(name=text("move", "cmd.move.name"),
                  description=text("Type a move in the game's notation (buttons work too)",
                                   "cmd.move.description"))
    @app_commands.describe(notation=text("Your move; suggestions list the legal ones",
                                         "cmd.move.notation"))
    @app_commands.autocomplete(notation=complete_move)
    async def move(interaction: discord.Interaction, notation: str) -> None:
        place = await bot.place_for(interaction)
        reply = await bot.within_deadline(
            interaction, service.move(place, bot.actor(interaction), notation[:200]),
            component=False)
        if not reply.ok:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        if reply.hand is not None:
            await bot.send(interaction, hand_layout(reply.hand, place.language,
                                                    bot.t(place, "discord.move_played")),
                           ephemeral=True)
        else:
            await bot.notify(interaction, bot.t(place, "discord.move_played"))
        await bot.after_change(place, reply)
        await bot.announce(place.channel, reply.announcements)

    @tree.command(name=text("hand", "cmd.hand.name"),
                  description=text("See your own cards and options, privately",
                                   "cmd.hand.description"))
    async def hand(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        reply = await bot.within_deadline(interaction, service.hand(place, bot.actor(interaction)),
                                          component=False)
        if reply.hand is not None:
            await bot.send(interaction, hand_layout(reply.hand, place.language, reply.notice),
                           ephemeral=True)
        else:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))

    @tree.command(name=text("resign", "cmd.resign.name"),
                  description=text("Give up this channel's game", "cmd.resign.description"))
    async def resign(interaction: discord.Interaction) -> None:
        await change(interaction, service.resign)

    @tree.command(name=text("abandon", "cmd.abandon.name"),
                  description=text("End this channel's game without a result (players and "
                                   "moderators)", "cmd.abandon.description"))
    @app_commands.describe(game=text("Moderators: the number of a game elsewhere in this "
                                     "server, as /games lists it", "cmd.abandon.game"))
    async def abandon(interaction: discord.Interaction,
                      game: app_commands.Range[int, 1, None] | None = None) -> None:
        if game is None:
            await change(interaction, service.abandon)
            return
        place = await bot.place_for(interaction)
        record = await service.game_in_server(place, game)
        if record is None:
            await bot.notify(interaction, translate(
                place.language, "abandon.no_such_game",
                "No game #{number} is running in this server; /games lists them.",
                number=game))
            return
        if not await is_server_moderator(interaction):
            await bot.notify(interaction, moderators_only(place))
            return
        # The game's own place: its board and announcements go to its channel, in its
        # language, and the moderator gets a short private confirmation here.
        remote = bot.place_of_record(record)
        reply = await bot.within_deadline(
            interaction, service.abandon(remote, bot.user_for(interaction.user, True), game),
            component=False)
        if not reply.ok:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        await bot.notify(interaction, translate(place.language, "abandon.remote_done",
                                                "Game #{number} is ended.", number=game))
        await bot.timer_acted(remote, reply)

    @tree.command(name=text("rules", "cmd.rules.name"),
                  description=text("The rules of a game, with an example",
                                   "cmd.rules.description"))
    @app_commands.describe(game=text("Which game", "cmd.rules.game"))
    @app_commands.autocomplete(game=complete_game)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        place = await bot.place_for(interaction)
        try:
            answer = service.rules_text(place, game)
        except GameError as error:
            answer = translate(place.language, error.key, error.default, **error.params)
        await bot.notify(interaction, answer)

    @tree.command(name=text("help", "cmd.help.name"),
                  description=text("What this bot does and how to play",
                                   "cmd.help.description"))
    async def help_command(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        await bot.notify(interaction, service.help_text(place, "discord.help.commands"))

    @tree.command(name=text("puzzle", "cmd.puzzle.name"),
                  description=text("A Turing Machine puzzle to solve alone, against the "
                                   "machine's score", "cmd.puzzle.description"))
    @app_commands.describe(
        difficulty=text("easy, standard or hard", "cmd.puzzle.difficulty"),
        verifiers=text("How many verifiers", "cmd.puzzle.verifiers"),
        mode=text("classic, extreme or nightmare", "cmd.puzzle.mode"),
        assist=text("Show which criteria are still possible (for learning)",
                    "cmd.puzzle.assist"),
        code=text("A puzzle code to replay, such as TM-C4E-23NNR2QV", "cmd.puzzle.code"))
    # discord.py types every list of one choices() call alike; mixing str and int choices
    # is valid at runtime.
    @app_commands.choices(  # type: ignore[misc]
        difficulty=[app_commands.Choice(name=d, value=d) for d in ("easy", "standard", "hard")],
        verifiers=[app_commands.Choice(name=str(n), value=n) for n in (4, 5, 6)],
        mode=[app_commands.Choice(name=m, value=m) for m in ("classic", "extreme", "nightmare")])
    async def puzzle(interaction: discord.Interaction, difficulty: str = "standard",
                     verifiers: int = 4, mode: str = "classic", assist: bool = False,
                     code: str | None = None) -> None:
        place = await bot.place_for(interaction)
        options = f"{difficulty} verifiers={verifiers} {mode}" + (" assist" if assist else "")
        if code:
            options += f" puzzle={code.strip()[:60]}"
        reply = await bot.within_deadline(
            interaction, service.start_game(place, bot.actor(interaction), "turing",
                                            Opponent("ai"), options), component=False)
        if not reply.ok or reply.board is None:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        await bot.post_board(interaction, place, reply, reply.announcements)

    @tree.command(name=text("daily", "cmd.daily.name"),
                  description=text("Today's Turing Machine challenge; managers can post it "
                                   "here every day", "cmd.daily.description"))
    @app_commands.describe(schedule=text("HH:MM in UTC or with a zone (07:30 Europe/Brussels) to "
                                         "post it daily, or off (moderators)",
                                         "cmd.daily.schedule"))
    async def daily(interaction: discord.Interaction, schedule: str | None = None) -> None:
        place = await bot.place_for(interaction)
        server = str(interaction.guild_id or 0)
        if schedule:
            if not await bot.is_moderator(interaction):
                await bot.notify(interaction, moderators_only(place))
                return
            answer = (await bot.daily.unschedule(place) if schedule.strip().lower() == "off"
                      else await bot.daily.schedule(place, server, schedule))
            await bot.notify(interaction, answer)
            return
        text_now = bot.daily.post_text(place.language, bot.daily.today())
        await bot.send(interaction, bot.daily_layout(text_now, server, place.language),
                       ephemeral=False)

    @tree.command(name=text("leaderboard", "cmd.leaderboard.name"),
                  description=text("Rankings of a game, or today's daily challenge results: "
                                   "this server and everyone", "cmd.leaderboard.description"))
    @app_commands.describe(game=text("A game's rankings (leave empty for the daily "
                                     "challenge)", "cmd.leaderboard.game"))
    @app_commands.autocomplete(game=complete_game)
    async def leaderboard(interaction: discord.Interaction, game: str | None = None) -> None:
        place = await bot.place_for(interaction)
        if await refused_for_speed(interaction, place):
            return
        parts = []
        if game:
            if interaction.guild_id is not None:
                parts.append(await bot.community.leaderboard_text(place, game[:60],
                                                                  place.server))
            parts.append(await bot.community.leaderboard_text(place, game[:60], None))
            await bot.notify(interaction, "\n\n".join(dict.fromkeys(parts)))
            return
        day = bot.daily.today()
        if interaction.guild_id is not None:
            parts.append(await bot.daily.leaderboard_text(place.language, day,
                                                          str(interaction.guild_id)))
        parts.append(await bot.daily.leaderboard_text(place.language, day, None))
        await bot.notify(interaction, "\n\n".join(parts))

    @tree.command(name=text("stats", "cmd.stats.name"),
                  description=text("Wins, losses, draws and ratings: yours or a member's",
                                   "cmd.stats.description"))
    @app_commands.describe(player=text("Whose results (leave empty for your own)",
                                       "cmd.stats.player"))
    async def stats(interaction: discord.Interaction,
                    player: discord.User | None = None) -> None:
        place = await bot.place_for(interaction)
        if await refused_for_speed(interaction, place):
            return
        person = bot.user_for(player or interaction.user)
        await bot.notify(interaction, await bot.community.stats_text(place, person.id,
                                                                     person.name))

    @tree.command(name=text("rematch", "cmd.rematch.name"),
                  description=text("Play this channel's last game again, seats swapped",
                                   "cmd.rematch.description"))
    async def rematch(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        missing = bot.missing_permissions(interaction)
        if missing:
            await bot.notify(interaction, bot.t(place, "discord.missing_permissions",
                                                permissions=", ".join(missing)))
            return
        await post_new_game(interaction, place, service.rematch(place, bot.actor(interaction)))

    @tree.command(name=text("games", "cmd.games.name"),
                  description=text("The games running in this server, with links",
                                   "cmd.games.description"))
    async def games(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        if await refused_for_speed(interaction, place):
            return
        await bot.notify(interaction, await bot.community.games_text(place, bot.board_link))

    @tree.command(name=text("forget-me", "cmd.forget_me.name"),
                  description=text("Delete your results and ratings; past games keep you as "
                                   "\"a former player\"", "cmd.forget_me.description"))
    async def forget_me(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        result = await bot.community.forget_me(place, bot.actor(interaction))
        await bot.notify(interaction, result.notice)
        for game_place, reply in result.ended:
            await bot.after_change(game_place, reply)
            await bot.announce(game_place.channel, reply.announcements)

    async def is_server_moderator(interaction: discord.Interaction) -> bool:
        """Rights over the whole server (its settings, games in other channels) come from
        the member's roles, not from one channel's overrides: manage messages or manage
        server across the server, or the teacher role."""
        member = interaction.user
        permissions = getattr(member, "guild_permissions", None)
        if permissions is not None and (permissions.manage_messages
                                        or permissions.manage_guild):
            return True
        role = await bot.guild_setting(interaction.guild_id, "teacher_role")
        return bool(role) and any(str(r.id) == role for r in getattr(member, "roles", []))

    def moderators_only(place: Place) -> str:
        return translate(place.language, "moderation.only_moderators",
                         "Only moderators can do that here: members who can manage "
                         "messages, or who have the teacher role.")

    @tree.command(name=text("timer", "cmd.timer.name"),
                  description=text("Turn timers in this channel: a reminder, then a loss "
                                   "or a computer move (moderators)", "cmd.timer.description"))
    @app_commands.describe(
        remind=text("Minutes before reminding the player to move (0: none)",
                    "cmd.timer.remind"),
        limit=text("Minutes before acting (0: never)", "cmd.timer.limit"),
        then=text("What happens at the limit", "cmd.timer.then"),
        off=text("Switch turn timers off here", "cmd.timer.off"))
    @app_commands.choices(then=[
        app_commands.Choice(name=text("the player loses", "cmd.timer.then.forfeit"),
                            value="forfeit"),
        app_commands.Choice(name=text("the computer moves for them", "cmd.timer.then.ai"),
                            value="ai")])
    async def timer(interaction: discord.Interaction, remind: int | None = None,
                    limit: int | None = None, then: str = "forfeit",
                    off: bool = False) -> None:
        place = await bot.place_for(interaction)
        if remind is None and limit is None and not off:
            policy = await bot.classroom.policy(PLATFORM_NAME, place.channel)
            await bot.notify(interaction, bot.classroom.describe(place.language, policy))
            return
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, moderators_only(place))
            return
        if off:
            await bot.notify(interaction, await bot.classroom.set_policy(place, None))
            return
        parsed = parse_policy([str(remind or 0), str(limit or 0), then])
        if parsed is None:
            await bot.notify(interaction, bot.classroom.usage(place.language))
            return
        await bot.notify(interaction, await bot.classroom.set_policy(place, parsed))

    @tree.command(name=text("export", "cmd.export.name"),
                  description=text("This server's game results as a CSV file (moderators)",
                                   "cmd.export.description"))
    async def export(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        if await refused_for_speed(interaction, place):
            return
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, moderators_only(place))
            return
        data = await bot.classroom.export_csv(PLATFORM_NAME, place.server)
        name = bot.classroom.export_name(place.server, bot.daily.today())
        await interaction.response.send_message(
            translate(place.language, "export.ready", "The results of this server, as CSV."),
            file=discord.File(io.BytesIO(data.encode("utf-8")), filename=name),
            ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    settings = app_commands.Group(
        name=text("logic-settings", "cmd.settings.name"),
        description=text("Server settings for logic-bot", "cmd.settings.description"),
        # Visible to every member, since Discord cannot show a command to a role it does
        # not know: a teacher-role member without permissions sets the language, boards
        # and threads too. Each subcommand checks at run time.
        guild_only=True)

    async def settings_summary(interaction: discord.Interaction) -> str:
        place = await bot.place_for(interaction)
        guild_id = interaction.guild_id
        language = await bot.guild_setting(guild_id, "language") or "auto"
        threads = await bot.guild_setting(guild_id, "threads") == "on"
        style = await bot.guild_setting(guild_id, "board") or "emoji"
        return "\n".join([
            bot.t(place, "discord.settings.language",
                  value=bot.t(place, "discord.settings.language_auto")
                  if language == "auto" else language),
            bot.t(place, "discord.settings.threads",
                  value=bot.t(place, "discord.settings.on" if threads
                              else "discord.settings.off")),
            bot.t(place, "discord.settings.board",
                  value=bot.t(place, f"discord.settings.{style}"))])

    async def store_setting(interaction: discord.Interaction, key: str, value: str) -> None:
        """Moderators set the server's settings; only managers name the teacher role,
        since it hands out moderation."""
        assert interaction.guild_id is not None  # the group is guild_only
        place = await bot.place_for(interaction)
        if key == "teacher_role" and not interaction.permissions.manage_guild:
            await bot.notify(interaction, bot.t(place, "discord.settings_only_managers"))
            return
        if not await is_server_moderator(interaction):
            await bot.notify(interaction, moderators_only(place))
            return
        await bot.set_guild_setting(interaction.guild_id, key, value)
        await bot.notify(interaction, await settings_summary(interaction))

    @settings.command(name=text("show", "cmd.settings.show.name"),
                      description=text("Show this server's settings",
                                       "cmd.settings.show.description"))
    async def settings_show(interaction: discord.Interaction) -> None:
        await bot.notify(interaction, await settings_summary(interaction))

    @settings.command(name=text("language", "cmd.settings.language.name"),
                      description=text("The language the bot uses in this server",
                                       "cmd.settings.language.description"))
    @app_commands.describe(value=text("A language, or auto for each member's own",
                                      "cmd.settings.language.value"))
    @app_commands.choices(value=[app_commands.Choice(name=code, value=code)
                                 for code in ["auto", *supported_languages()]])
    async def settings_language(interaction: discord.Interaction, value: str) -> None:
        await store_setting(interaction, "language", value)

    @settings.command(name=text("threads", "cmd.settings.threads.name"),
                      description=text("Whether each new game opens its own thread",
                                       "cmd.settings.threads.description"))
    @app_commands.describe(enabled=text("On: every /play opens a thread for its game",
                                        "cmd.settings.threads.enabled"))
    async def settings_threads(interaction: discord.Interaction, enabled: bool) -> None:
        await store_setting(interaction, "threads", "on" if enabled else "off")

    @settings.command(name=text("board", "cmd.settings.board.name"),
                      description=text("Draw boards with emoji squares or as monospace text",
                                       "cmd.settings.board.description"))
    @app_commands.describe(style=text("How boards are drawn", "cmd.settings.board.style"))
    @app_commands.choices(style=[
        app_commands.Choice(name=text("emoji squares", "cmd.settings.board.emoji"),
                            value="emoji"),
        app_commands.Choice(name=text("monospace text", "cmd.settings.board.text"),
                            value="text")])
    async def settings_board(interaction: discord.Interaction, style: str) -> None:
        await store_setting(interaction, "board", style)

    @settings.command(name=text("teacher-role", "cmd.settings.teacher.name"),
                      description=text("A role whose members may moderate games here",
                                       "cmd.settings.teacher.description"))
    @app_commands.describe(role=text("The teachers' role (leave empty to remove it)",
                                     "cmd.settings.teacher.role"))
    async def settings_teacher(interaction: discord.Interaction,
                               role: discord.Role | None = None) -> None:
        await store_setting(interaction, "teacher_role", str(role.id) if role else "")

    tree.add_command(settings)
