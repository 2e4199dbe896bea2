"""Telegram's command menus: one per scope (everyone, private chats, group admins) and per
language the catalogue translates, checked against Telegram's documented limits before
they are published (what breaks one is logged and published fitted), and published only
when they differ from the last ones, with a refusal explained menu by menu."""

from __future__ import annotations

import logging
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.adapters.telegram.limits import (
    COMMAND_DESCRIPTION_LIMIT,
    COMMAND_NAME,
    COMMANDS_PER_MENU,
    command_problems,
    scope_name,
)
from bot.adapters.telegram.messages import TelegramMessages
from renderers.i18n import lookup, supported_languages, translate

log = logging.getLogger(__name__)

# Commands shown in Telegram's menu, in order; settings only where it can be used.
COMMANDS = ("play", "puzzle", "daily", "leaderboard", "join", "board", "move", "hand", "hint",
            "resign", "abandon", "rematch", "replay", "learn", "progress", "games", "stats",
            "cues", "rules", "help", "forget_me")
# English menu texts of the commands added with results and ratings, until the catalogue
# has them (translate falls back to these).
COMMAND_DEFAULTS = {
    "rematch": "Play this chat's last game again, seats swapped",
    "games": "The games running in this group, with links",
    "stats": "Wins, losses, draws and ratings (reply to someone for theirs)",
    "forget_me": "Delete your results and ratings",
    "cues": "Whether you are pinged when it is your turn: /cues on or off",
    "hint": "A hint against the computer or in a puzzle (the game is then not counted)",
    "replay": "Step through a finished game: /replay or /replay 12",
    "learn": "A short guided lesson of a game, in a private chat: /learn lgame",
    "progress": "Where you stand on this class's assignments (sent privately)",
}
ADMIN_COMMANDS = (*COMMANDS, "settings")
# Moderator commands, in the admins' menu only. Kept out of the check that a language
# translates every command, so adding them cannot drop existing translated menus.
MODERATOR_COMMANDS = {
    "timer": "Turn timers here: /timer 5 15 forfeit (or ai, or off)",
    "export": "This group's results as a CSV file",
    "classboard": "One message listing every game here and whose turn it is: /classboard "
                  "(or off)",
    "tournament": "A tournament here: /tournament create <game>, then start, pause, resume "
                  "or end",
    "assign": "Work for the class: /assign win 3 lgame medium by 2026-12-01 (or list, "
              "close 2)",
}


class CommandMenuRefused(TelegramError):
    """Telegram refused one command menu: which one (its scope and language), and the
    refusal itself, for the log line that says so."""

    def __init__(self, scope: dict[str, Any], language: str | None,
                 refusal: TelegramError) -> None:
        super().__init__(refusal.message)
        self.scope = scope
        self.language = language
        self.refusal = refusal


class CommandSync(TelegramMessages):
    """The command menus' publication through the application's bot."""

    synced_commands: int

    def command_menus(self) -> list[tuple[Any, str | None, list[BotCommand]]]:
        """(scope, language, commands) for every menu: English by default, and each
        language whose catalogue translates the menu."""
        menus = []
        languages: list[str | None] = [None]
        languages += [code for code in supported_languages()
                      if code != "en" and all(lookup(code, f"telegram.cmd.{name}")
                                              for name in ADMIN_COMMANDS)]
        for language in languages:
            def listed(names: tuple[str, ...], lang: str = language or "en") -> list[BotCommand]:
                return [BotCommand(name, translate(lang, f"telegram.cmd.{name}",
                                                   COMMAND_DEFAULTS.get(name)
                                                   or MODERATOR_COMMANDS.get(name)))
                        for name in names]
            menus += [(BotCommandScopeDefault(), language, listed(COMMANDS)),
                      (BotCommandScopeAllPrivateChats(), language, listed(ADMIN_COMMANDS)),
                      (BotCommandScopeAllChatAdministrators(), language,
                       listed((*ADMIN_COMMANDS, *MODERATOR_COMMANDS)))]
        return menus

    def menus_within_limits(self) -> list[tuple[Any, str | None, list[BotCommand]]]:
        """``command_menus``, checked against Telegram's documented limits before they are
        published, so that a limit is never learnt from a refused start-up. Whatever breaks
        one is logged at every start (the menu, the command, the field and its length, and
        the catalogue entry to fix) and published fitted: a description cut to the limit,
        a command Telegram cannot take left out, at most 100 commands."""
        menus = []
        for scope, language, commands in self.command_menus():
            menu = scope_name(scope.to_dict(), language)
            unusable = command_problems([], scope=scope.to_dict(), language_code=language)
            if unusable:
                log.error("telegram: the command menu for %s is not published: %s", menu,
                          "; ".join(map(str, unusable)))
                continue
            fitted = [command for command in (self._fitted_command(menu, language, command)
                                              for command in commands) if command]
            if len(fitted) > COMMANDS_PER_MENU:
                log.error("telegram: the command menu for %s has %d commands; Telegram allows "
                          "%d, so only the first %d are published", menu, len(fitted),
                          COMMANDS_PER_MENU, COMMANDS_PER_MENU)
                fitted = fitted[:COMMANDS_PER_MENU]
            menus.append((scope, language, fitted))
        return menus

    @staticmethod
    def _fitted_command(menu: str, language: str | None,
                        command: BotCommand) -> BotCommand | None:
        """``command`` within Telegram's limits, logged when it was not; None when its name
        is one Telegram refuses, which no text can mend."""
        problems = command_problems([command.to_dict()])
        if not problems:
            return command
        name, description = command.command, command.description.strip()
        fitted: BotCommand | None = None
        if not COMMAND_NAME.fullmatch(name):
            outcome = "it is left out of the menu"
        elif not description:
            fitted = BotCommand(name, name)
            outcome = "it is published with its name as its description"
        else:
            fitted = BotCommand(name, description[:COMMAND_DESCRIPTION_LIMIT - 1] + "…")
            outcome = f"it is published cut to {COMMAND_DESCRIPTION_LIMIT} characters"
        log.error("telegram: the command menu for %s breaks a limit of Telegram's "
                  "(https://core.telegram.org/bots/api#botcommand): %s; %s. Shorten "
                  "telegram.cmd.%s in renderers/locale/%s/LC_MESSAGES/logic_bot.po", menu,
                  "; ".join(map(str, problems)), outcome, name, language or "en")
        return fitted

    async def sync_commands_if_changed(self) -> bool:
        """Publish the command menus when they differ from the last ones published, as a
        restart changes nothing and Telegram rate-limits these calls too. A refusal names
        the menu it met (``explain_command_refusal``); the menus published before it stay."""
        menus = self.menus_within_limits()

        async def publish() -> None:
            for scope, language, commands in menus:
                try:
                    await self.bot.set_my_commands(commands, scope=scope,
                                                   language_code=language)
                except TelegramError as refusal:
                    raise CommandMenuRefused(scope.to_dict(), language, refusal) from refusal
            self.synced_commands += len(menus)

        return await self.publish_if_changed(
            f"commands:{self.bot.id}",
            [[scope.to_dict(), language, [c.to_dict() for c in commands]]
             for scope, language, commands in menus], publish)

    def explain_command_refusal(self, error: Exception, payload: Any) -> str:
        """Which menu Telegram refused and what it said, and what in that menu breaks a
        documented limit (``payload`` holds each menu as [scope, language, commands]). As
        the menus are checked before they are published, the usual finding is none: then
        Telegram refused something its documentation does not cover, or failed."""
        said = f"Telegram said \"{error}\""
        if not isinstance(error, CommandMenuRefused):
            return said
        commands: list[dict[str, Any]] = next(
            (listed for scope, language, listed in payload
             if scope == error.scope and language == error.language), [])
        problems = command_problems(commands, scope=error.scope, language_code=error.language)
        found = ("; ".join(map(str, problems)) if problems else
                 f"each of its {len(commands)} commands is within the documented limits "
                 "(bot/adapters/telegram/limits.py)")
        return f"the menu for {scope_name(error.scope, error.language)}: {said}; {found}"
