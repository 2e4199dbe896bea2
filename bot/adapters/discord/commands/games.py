"""Slash commands that play: start a game, join, move, see the board or a hand, resign,
abandon, rematch, a Turing puzzle, and the rules and help."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.answers import rules_answer
from bot.adapters.discord.commands import (
    FIRST_SEATS,
    CommandKit,
    complete_game,
    complete_level,
    complete_options,
)
from bot.adapters.discord.commands.puzzles import complete_theme, start_puzzle
from bot.adapters.discord.components import replay_view
from bot.adapters.discord.hands import hand_layout
from bot.adapters.discord.layout import Layout, question_layout
from bot.adapters.discord.markdown import fit_content, rendered
from bot.adapters.discord.translator import text
from bot.service import Opponent
from engines.puzzles import puzzle_games
from engines.registry import get_game
from renderers.i18n import translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot


def add_game_commands(bot: LogicBot, kit: CommandKit) -> None:
    """The commands that start and play games."""
    tree = bot.tree
    service = bot.service

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
        if await bot.wants_thread(interaction, place):
            await bot.play_in_thread(interaction, place, user, game, rival, options or "",
                                     creator_seat, opponent)
            return
        await kit.post_new_game(interaction, place, service.start_game(
            place, user, game, rival, options or "", creator_seat))

    @tree.command(name=text("join", "cmd.join.name"),
                  description=text("Take the open seat in this channel's game",
                                   "cmd.join.description"))
    async def join(interaction: discord.Interaction) -> None:
        await kit.change(interaction, service.join)

    @tree.command(name=text("board", "cmd.board.name"),
                  description=text("Show this channel's game board again, at the bottom",
                                   "cmd.board.description"))
    async def board(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        reply = await service.board(place, bot.actor(interaction))
        if not reply.ok or reply.board is None:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.no_game"))
            return
        await bot.post_board(interaction, place, reply)

    @tree.command(name=text("move", "cmd.move.name"),
                  description=text("Type a move in the game's notation (buttons work too)",
                                   "cmd.move.description"))
    @app_commands.describe(notation=text("Your move; suggestions list the legal ones",
                                         "cmd.move.notation"))
    @app_commands.autocomplete(notation=kit.complete_move)
    async def move(interaction: discord.Interaction, notation: str) -> None:
        place = await bot.place_for(interaction)
        reply = await service.move(place, bot.actor(interaction), notation[:200])
        if not reply.ok:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        if reply.hand is not None:
            await bot.send(interaction, hand_layout(reply.hand, place.language,
                                                    bot.t(place, "discord.move_played")),
                           ephemeral=True)
        else:
            await bot.notify(interaction, bot.t(place, "discord.move_played"))
        await bot.game_changed(place, reply, by=str(interaction.user.id)
                               if reply.hand is not None else None)

    @tree.command(name=text("hand", "cmd.hand.name"),
                  description=text("See your own cards and options, privately",
                                   "cmd.hand.description"))
    async def hand(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        reply = await service.hand(place, bot.actor(interaction))
        if reply.hand is not None:
            await bot.send(interaction, hand_layout(reply.hand, place.language, reply.notice),
                           ephemeral=True)
        else:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))

    @tree.command(name=text("resign", "cmd.resign.name"),
                  description=text("Give up this channel's game", "cmd.resign.description"))
    async def resign(interaction: discord.Interaction) -> None:
        await kit.change(interaction, service.resign)

    @tree.command(name=text("abandon", "cmd.abandon.name"),
                  description=text("End this channel's game without a result (players and "
                                   "moderators)", "cmd.abandon.description"))
    @app_commands.describe(game=text("Moderators: the number of a game elsewhere in this "
                                     "server, as /games lists it", "cmd.abandon.game"))
    async def abandon(interaction: discord.Interaction,
                      game: app_commands.Range[int, 1, None] | None = None) -> None:
        if game is None:
            await kit.change(interaction, service.abandon)
            return
        place = await bot.place_for(interaction)
        record = await service.game_in_server(place, game)
        if record is None:
            await bot.notify(interaction, translate(
                place.language, "abandon.no_such_game",
                "No game #{number} is running in this server; /games lists them.",
                number=game))
            return
        if not await bot.is_moderator(interaction, server_wide=True):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        # The game's own place: its board and announcements go to its channel, in its
        # language, and the moderator gets a short private confirmation here.
        remote = bot.place_of_record(record)
        reply = await service.abandon(remote, bot.user_for(interaction.user, True), game)
        if not reply.ok:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        await bot.notify(interaction, translate(place.language, "abandon.remote_done",
                                                "Game #{number} is ended.", number=game))
        await bot.timer_acted(remote, reply)

    @tree.command(name=text("hint", "cmd.hint.name"),
                  description=text("A hint for your move, in a game against the computer or a "
                                   "puzzle (the result is then not counted)",
                                   "cmd.hint.description"))
    async def hint(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        reply = await service.hint(place, bot.actor(interaction))
        if reply.confirm is not None:
            # It would void the game's result: asked first, with a yes button for the
            # asker's eyes only (pressed, it goes the way of the board's hint button).
            await bot.send(interaction, question_layout(reply.notice or "", reply.confirm),
                           ephemeral=True)
            return
        await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
        if reply.ok:
            await bot.game_changed(place, reply)

    @tree.command(name=text("replay", "cmd.replay.name"),
                  description=text("Step through a finished game, with what each move changed",
                                   "cmd.replay.description"))
    @app_commands.describe(game=text("The game's number (leave empty for this channel's last)",
                                     "cmd.replay.game"))
    async def replay(interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, None] | None = None) -> None:
        place = await bot.place_for(interaction)
        game_id = game or await bot.app.replays.last_game(place)
        if game_id is None:
            await bot.notify(interaction, bot.t(place, "replay.none_here"))
            return
        step = await bot.app.replays.step(
            game_id, 0, place.language, place.emoji, place=place, user=bot.actor(interaction))
        await bot.send(interaction, Layout(fit_content([rendered(step.text)]), [], []),
                       ephemeral=True, view=replay_view(step))

    @tree.command(name=text("rules", "cmd.rules.name"),
                  description=text("The rules of a game, with an example",
                                   "cmd.rules.description"))
    @app_commands.describe(game=text("Which game", "cmd.rules.game"))
    @app_commands.autocomplete(game=complete_game)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        place = await bot.place_for(interaction)
        await bot.notify(interaction, rules_answer(bot.app, place, game))

    @tree.command(name=text("help", "cmd.help.name"),
                  description=text("What this bot does and how to play",
                                   "cmd.help.description"))
    async def help_command(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        await bot.notify(interaction, service.help_text(place, "discord.help.commands"))

    @tree.command(name=text("puzzle", "cmd.puzzle.name"),
                  description=text("A puzzle to solve alone: a game's trainer, or a Turing "
                                   "Machine puzzle", "cmd.puzzle.description_trainer"))
    @app_commands.describe(
        game=text("Which game (the Turing Machine when left empty)", "cmd.puzzle.game"),
        theme=text("The trainer's theme, such as win-in-2", "cmd.puzzle.theme"),
        difficulty=text("easy, standard or hard", "cmd.puzzle.difficulty"),
        verifiers=text("How many verifiers", "cmd.puzzle.verifiers"),
        mode=text("classic, extreme or nightmare", "cmd.puzzle.mode"),
        assist=text("Show which criteria are still possible (for learning)",
                    "cmd.puzzle.assist"),
        code=text("A puzzle code to replay, such as TM-C4E-23NNR2QV", "cmd.puzzle.code"))
    # discord.py types every list of one choices() call alike; mixing str and int choices
    # is valid at runtime.
    @app_commands.choices(  # type: ignore[misc]
        game=[app_commands.Choice(name=get_game(name).TITLE, value=name)
              for name in ("turing", *puzzle_games())],
        difficulty=[app_commands.Choice(name=d, value=d) for d in ("easy", "standard", "hard")],
        verifiers=[app_commands.Choice(name=str(n), value=n) for n in (4, 5, 6)],
        mode=[app_commands.Choice(name=m, value=m) for m in ("classic", "extreme", "nightmare")])
    @app_commands.autocomplete(theme=complete_theme)
    async def puzzle(interaction: discord.Interaction, game: str = "turing",
                     theme: str | None = None, difficulty: str = "standard",
                     verifiers: int = 4, mode: str = "classic", assist: bool = False,
                     code: str | None = None) -> None:
        if game != "turing":  # the puzzle trainer (issue 41), privately
            await start_puzzle(bot, interaction, game, theme)
            return
        place = await bot.place_for(interaction)
        options = f"{difficulty} verifiers={verifiers} {mode}" + (" assist" if assist else "")
        if code:
            options += f" puzzle={code.strip()[:60]}"
        reply = await service.start_game(place, bot.actor(interaction), "turing",
                                         Opponent("ai"), options)
        if not reply.ok or reply.board is None:
            await bot.notify(interaction, reply.notice or bot.t(place, "error.internal"))
            return
        await bot.post_board(interaction, place, reply)

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
        await kit.post_new_game(interaction, place, service.rematch(place, bot.actor(interaction)))
