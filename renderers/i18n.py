"""The message catalogue: every user-facing sentence, by key and language.

English is complete. Other languages fall back to English key by key, so a missing
translation shows English rather than a key name. Engine errors carry their own English
template (``GameError.default``) and are looked up here by ``GameError.key`` first, so
translators can override them without touching engines.

This is plain data so that renderers stay pure; the classroom issue moves it to gettext
catalogues without changing the ``translate`` signature.
"""

from __future__ import annotations

from typing import Any

DEFAULT_LANGUAGE = "en"

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        # general
        "help.title": "logic-bot: logic games to play together or against the computer.",
        "help.games": "Games: {games}.",
        "help.commands": (
            "Commands: play <game> [vs ai <level> | vs <player>] [options], join, board, "
            "move <notation>, resign, abandon, rules <game>, help."
        ),
        "help.buttons": "You never need to type a move: choose it with the buttons.",
        # game lifecycle
        "game.started": "{game} started: {players}.",
        "game.waiting": "{game}: waiting for a second player. Use join to take the seat.",
        "game.lobby": "{game}: {players} so far. Join to play; any player can start.",
        "game.joined": "{name} joined the game.",
        "game.to_move": "To move: {name} ({mark}).",
        "game.over.win": "Game over: {name} wins ({reason}).",
        "game.over.draw": "Game over: draw ({reason}).",
        "game.over.abandoned": "The game was abandoned.",
        "game.resigned": "{name} resigned.",
        "game.abandoned_by": "{name} abandoned the game.",
        "reason.no_l_move": "{loser} had no legal L move",
        "reason.resigned": "{loser} resigned",
        "reason.repetition": "the same position came up three times",
        "reason.move_limit": "the move limit of {limit} was reached",
        "reason.abandoned": "abandoned",
        "reason.booleo_pyramid": "a complete pyramid",
        "reason.booleo_max_turns": "the limit of {turns} turns was reached",
        "reason.booleo_no_cards": "no cards were left to play",
        "reason.digitalo_points": "{scores_binary[0]} to {scores_binary[1]} in binary",
        "reason.digitalo_max_rounds": "the round limit, at {scores_binary[0]} to "
                                      "{scores_binary[1]}",
        "menu.choose": "Choose your move.",
        "menu.choose_step": "Your move so far: {path}. Choose the next part.",
        "ai.name": "Computer · {level}",
        "menu.back": "↩ back",
        "menu.join": "Join this game",
        "menu.start_now": "▶ Start now",
        "menu.hand": "🂠 My hand",
        "menu.choose_privately": "open your hand to choose your move.",
        "menu.pick": "Choose… ({first}–{last})",
        "menu.more": "More options than fit here: type the move with /move.",
        "hand.none": "The {game} has no hidden cards: everything is on the board.",
        # errors
        "error.no_game": "There is no game running here. Start one with: play <game>.",
        "error.game_running": (
            "A game of {game} is already running here. Finish it, resign or abandon it first."
        ),
        "error.not_a_player": "You are not playing in this game.",
        "error.not_your_turn": "It is not your turn: {name} is to move.",
        "error.game_over": "The game is over.",
        "error.start_players_only": "Only players who joined can start the game.",
        "error.already_started": "The game has already started.",
        "error.stale": "This board is out of date; here is the current one.",
        "error.bad_payload": "That button is not valid. Here is the current board.",
        "error.not_in_menu": "That option is not on the menu.",
        "error.already_playing": "You are already playing in this game.",
        "error.cannot_join": "This game is not waiting for players.",
        "error.busy": "Someone else moved at the same moment. Here is the current board.",
        "error.internal": (
            "Something went wrong on our side. The game is unchanged; please try again."
        ),
        "error.moderator_only": "Only the players or a moderator can abandon this game.",
        # board words
        "board.last_move": "Last move by {name} ({mark}): {move}",
        "board.legend": "[ ] last move · lower case: where it came from",
        # console
        # discord
        "discord.help.commands": (
            "Commands: /play, /join, /board, /move, /hand, /resign, /abandon, /rules, /help. "
            "Server managers: /logic-settings."
        ),
        "board.turn": "▶ {name}: {prompt}",
        "board.waiting_for": "⏳ {name} is thinking…",
        "discord.thread_starter": "{creator} started {game}. The game is in the thread below.",
        "discord.thread_name": "{game}: {players}",
        "discord.thread_failed": (
            "I could not open a thread here (missing permission), so the game is in this "
            "channel."
        ),
        "board.moved": "(This board moved further down.)",
        "discord.move_played": "Move played. The board above is updated.",
        "discord.no_bots": (
            "Other bots cannot play. Leave opponent empty, or pick a level to play me."
        ),
        "discord.missing_permissions": (
            "I cannot keep a board up to date here: ask a server manager to give me {permissions} "
            "in this channel."
        ),
        "discord.done": "Done.",
        "discord.guild_only": "This command works in a server, not in direct messages.",
        "discord.settings_only_managers": (
            "Only members who can manage the server can change settings."
        ),
        "discord.settings.language": "Language for this server: {value}.",
        "discord.settings.language_auto": "each member's own Discord language",
        "discord.settings.threads": "New games open their own thread: {value}.",
        "discord.settings.board": "Board style: {value}.",
        "discord.settings.on": "on",
        "discord.settings.off": "off",
        "discord.settings.emoji": "emoji squares",
        "discord.settings.text": "monospace text",
        "error.foreign_button": "That button does not belong to a game here.",
        # telegram
        "telegram.help.commands": (
            "Commands: /play (pick a game with the buttons), /join, /board, /move, /hand, "
            "/resign, /abandon, /rules, /help. Group admins: /settings."
        ),
        "telegram.welcome": (
            "Hello! I host logic games. Play me here in private, or add me to a group to "
            "play each other."
        ),
        "telegram.cmd.play": "Start a game: pick it with the buttons",
        "telegram.cmd.join": "Take the open seat in this chat's game",
        "telegram.cmd.board": "Show this chat's game board again, at the bottom",
        "telegram.cmd.move": "Type a move in the game's notation (buttons work too)",
        "telegram.cmd.hand": "Your own cards and options, in private",
        "telegram.cmd.resign": "Give up this chat's game",
        "telegram.cmd.abandon": "End this chat's game without a result",
        "telegram.cmd.rules": "The rules of a game, with an example",
        "telegram.cmd.help": "What this bot does and how to play",
        "telegram.cmd.puzzle": "A Turing Machine puzzle to solve alone",
        "telegram.cmd.daily": "Today's Turing Machine challenge (admins: /daily 07:30 posts it)",
        "telegram.cmd.leaderboard": "Today's daily challenge leaderboard",
        "telegram.play.solo": "🧩 Solo against the machine",
        "turing.choose_puzzle": "Which puzzle? You play alone, against the machine's score.",
        "turing.choose_preset": "Which puzzle: difficulty, verifiers and mode?",
        "daily.play": "▶ Play",
        "discord.daily.in_dm": "Your attempt is waiting in our direct messages: {link}",
        "discord.daily.no_dm": (
            "I cannot send you a direct message. Allow direct messages from this server's "
            "members (Privacy Settings), then press Play again."
        ),
        "telegram.cmd.settings": "Language and board style for this chat",
        "telegram.play.choose_game": "Which game?",
        "telegram.play.choose_opponent": "{game}: who do you want to play?",
        "telegram.play.vs_ai": "🤖 computer: {level}",
        "telegram.play.open": "👥 whoever joins",
        "telegram.play.cancel": "✖ cancel",
        "telegram.play.cancelled": "No game started.",
        "telegram.play.not_yours": "These buttons belong to whoever typed /play. Type /play "
                                   "to set up your own game.",
        "telegram.play.first": "first= takes me, opponent or random, for example: "
                               "/play lgame first=random",
        "telegram.done": "Done.",
        "telegram.move.usage": (
            "Type your move after /move, in the game's notation. The buttons on the board "
            "work too."
        ),
        "telegram.move.usage_with": (
            "Type your move after /move, in the game's notation, for example: {moves}. "
            "The buttons on the board work too."
        ),
        "telegram.hand.title": "🂠 Your hand in {chat}",
        "telegram.hand.your_group": "your group",
        "telegram.hand.sent": "Your hand is in our private chat.",
        "telegram.hand.start_me": (
            "{name}: your cards are private, and I can only send them once you have opened "
            "a chat with me. Press the button, then Start."
        ),
        "telegram.hand.open_chat": "🂠 Get my hand privately",
        "telegram.hand.gone": (
            "That link belongs to a game that is over, or one you are not playing."
        ),
        "telegram.anonymous": (
            "Messages sent as the group or a channel cannot play: send the command as "
            "yourself."
        ),
        "telegram.rules.choose": "Rules of which game?",
        "telegram.settings.title": "Settings for this chat:",
        "telegram.settings.language": "Language: {value}.",
        "telegram.settings.language_auto": "each person's own Telegram language",
        "telegram.settings.board": "Board style: {value}.",
        "telegram.settings.admins_only": "Only this group's admins can change its settings.",
        "telegram.settings.saved": "Saved.",
        "console.welcome": "logic-bot — local console. Choose by number; type 'help' any time.",
        "console.resuming": "Welcome back: resuming your unfinished game.",
        "console.main_menu": "What would you like to do?",
        "console.play_ai": "Play the {game} against the computer",
        "console.play_local": "Play the {game} with a friend on this computer",
        "console.read_rules": "Read the rules of the {game}",
        "console.help": "Help",
        "console.quit": "Quit",
        "console.bye": "Goodbye!",
        "console.saved": "Game saved. Start again to carry on where you left off.",
        "console.pick_number": "Please type a number from the list (1–{count}), or 'help'.",
        "console.option_question": "Rules option '{option}' ({help})?",
        "console.option_off": "off (standard rules)",
        "console.option_on": "on",
        "console.level_question": "How strong should the computer be?",
        "console.first_question": "Who moves first?",
        "console.first_me": "me",
        "console.first_computer": "the computer",
        "console.first_random": "toss a coin",
        "console.thinking": "The computer is thinking…",
        "console.commands": (
            "Console: type the number of an option, or a move in notation (for example "
            "'d4 S W a4>a1'). Words: help, rules, board, resign, abandon, quit."
        ),
        "console.not_a_terminal": "(reading moves from standard input)",
    },
    "nl": {},
    "de": {},
}


def supported_languages() -> list[str]:
    return list(CATALOGUE)


def normalise_language(code: str | None) -> str:
    """Map platform locales such as ``en-US`` or ``nl_BE`` onto a catalogue language."""
    if not code:
        return DEFAULT_LANGUAGE
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in CATALOGUE else DEFAULT_LANGUAGE


def translate(language: str, key: str, default: str | None = None, **params: Any) -> str:
    """The message ``key`` in ``language``, formatted with ``params``.

    Falls back to English, then to ``default``, then to the key itself, and never raises:
    a broken translation must not turn a helpful message into a crash.
    """
    template = (CATALOGUE.get(language, {}).get(key)
                or CATALOGUE[DEFAULT_LANGUAGE].get(key)
                or default
                or key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        if default is not None and template != default:
            try:
                return default.format(**params)
            except (KeyError, IndexError, ValueError):
                return default
        return template


def lookup(language: str, key: str) -> str | None:
    """The translation of ``key`` in exactly ``language``, or None: no English fallback.

    Platforms that localise their own interface (Discord's command names) need to know
    when a translation is missing, so that they can fall back themselves.
    """
    return CATALOGUE.get(language, {}).get(key)
