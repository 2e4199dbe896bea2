"""The bot's own buttons on Telegram, apart from the games' buttons: the ``/play`` set-up
pickers (game, opponent, Turing preset), the rules menu and the group's settings panel.

Their callback data never looks like a service payload (``m:``, ``h:``, ``j:``, ``g:``,
``e:``):
``p:<user>:<game>[:<opponent>[:<preset>]]`` sets up a game, ``r:<game>`` shows rules and
``s:<setting>:<value>`` changes a chat setting. They edit the message they are on, so
they count only on a message that carries them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import CallbackQuery
from telegram import Message as TgMessage

from bot.adapters.answers import error_text, rules_answer
from bot.adapters.base import TURN_CUES
from bot.adapters.common import PUZZLE_PRESETS
from bot.adapters.delivery import Drawn, Shown
from bot.adapters.end_panel import end_choice, is_end_panel
from bot.adapters.telegram.chats import PLATFORM, callback_data_of, is_private, topic_of
from bot.adapters.telegram.layout import Key, Message, fit, text_blocks, text_message
from bot.adapters.telegram.presses import BoardPresses
from bot.learn.replays import ReplayStep
from bot.service import Opponent, Place, User, ai_player
from engines.base import GameError
from engines.registry import game_names, get_game, resolve_name
from renderers.i18n import supported_languages, translate

if TYPE_CHECKING:
    from bot.adapters.telegram.client import TelegramBot

BOARD_STYLES = ("emoji", "text")


def replay_message(step: ReplayStep) -> Message:
    """A replay step with start, back, forward and end (``v:<game>:<step>``)."""
    rows: tuple[tuple[Key, ...], ...] = ()
    if step.ok:
        rows = ((Key("⏮", f"v:{step.game_id}:{step.first}"),
                 Key("◀", f"v:{step.game_id}:{step.back}"),
                 Key("▶", f"v:{step.game_id}:{step.forward}"),
                 Key("⏭", f"v:{step.game_id}:{step.end}")),)
    return Message(fit(text_blocks(step.text)), rows)




def rows_of(keys: list[Key], width: int) -> tuple[tuple[Key, ...], ...]:
    return tuple(tuple(keys[start:start + width]) for start in range(0, len(keys), width))


class SetupButtons:
    """Pickers and panels, and the routing of every button press to them or to the game."""

    def __init__(self, client: TelegramBot) -> None:
        self.client = client
        self.presses = BoardPresses(client)  # the game buttons (``presses.py``)
        self.service = client.service

    def t(self, place: Place, key: str, **params: object) -> str:
        return self.client.t(place, key, **params)

    @staticmethod
    def error_text(place: Place, error: GameError) -> str:
        return error_text(place, error)

    def rules_text(self, place: Place, game: str) -> str:
        return rules_answer(self.client.app, place, game)

    def game_picker(self, place: Place, user: User) -> Message:
        keys = [Key(get_game(name).TITLE, f"p:{user.id}:{name}") for name in game_names()]
        keys.append(Key(self.t(place, "telegram.play.cancel"), f"p:{user.id}:-"))
        return text_message(self.t(place, "telegram.play.choose_game"), rows_of(keys, 2))

    def opponent_picker(self, place: Place, user: User, game: str) -> Message:
        module = get_game(game)
        if module.INFO.solo:
            keys = [Key(self.t(place, "telegram.play.solo"), f"p:{user.id}:{game}:ai-solo")]
        else:
            keys = [Key(self.t(place, "telegram.play.vs_ai", level=level),
                        f"p:{user.id}:{game}:ai-{level}") for level in module.LEVELS]
        if not is_private(place.channel):
            keys.append(Key(self.t(place, "telegram.play.open"), f"p:{user.id}:{game}:open"))
        keys.append(Key(self.t(place, "telegram.play.cancel"), f"p:{user.id}:-"))
        return text_message(self.t(place, "telegram.play.choose_opponent", game=module.TITLE),
                            rows_of(keys, 2))

    def preset_picker(self, place: Place, user: User, game: str, opponent: str) -> Message:
        """The game's presets, the first (a teaching game, for newcomers) on top."""
        if game == "turing":
            keys = [Key(translate(place.language, f"turing.preset.{index}", label),
                        f"p:{user.id}:turing:{opponent}:{index}")
                    for index, (label, _) in enumerate(PUZZLE_PRESETS)]
            keys.append(Key(self.t(place, "telegram.play.cancel"), f"p:{user.id}:-"))
            return text_message(self.t(place, "turing.choose_preset"), rows_of(keys, 3))
        keys = [Key(translate(place.language, preset.label.key, preset.label.default),
                    f"p:{user.id}:{game}:{opponent}:{index}")
                for index, preset in enumerate(get_game(game).INFO.presets)]
        keys.append(Key(self.t(place, "telegram.play.cancel"), f"p:{user.id}:-"))
        return text_message(self.t(place, "telegram.play.choose_preset",
                                   game=get_game(game).TITLE), rows_of(keys, 1))

    @staticmethod
    def preset_options(game: str, index: str) -> str | None:
        """The options of preset ``index`` of ``game``; None for no such preset."""
        presets = ([options for _, options in PUZZLE_PRESETS] if game == "turing"
                   else [preset.options for preset in get_game(game).INFO.presets])
        return presets[int(index)] if index.isdigit() and int(index) < len(presets) \
            else None

    def puzzle_picker(self, place: Place, user: User) -> Message:
        keys = [Key(translate(place.language, f"turing.preset.{index}", label),
                    f"p:{user.id}:turing:ai-solo:{index}")
                for index, (label, _) in enumerate(PUZZLE_PRESETS)]
        keys.append(Key(self.t(place, "telegram.play.cancel"), f"p:{user.id}:-"))
        return text_message(self.t(place, "turing.choose_puzzle"), rows_of(keys, 3))

    async def game_in_topic(self, message: TgMessage, place: Place, user: User, game: str,
                            rival: Opponent, options: str,
                            creator_seat: int | None = None) -> str | None:
        """In a forum group's General topic, start the game in a topic of its own and post
        its board there; the sentence to leave in General (with a link to the board), or
        None when the game belongs where it was asked for (any other chat or topic)."""
        if not message.chat.is_forum or topic_of(message) is not None:
            return None
        rival_name = (rival.user.name if rival.user is not None
                      else ai_player(rival.level or "strong")["name"] if rival.kind == "ai"
                      else "…")
        name = self.t(place, "telegram.topic_name", game=get_game(game).TITLE,
                      players=f"{user.name} vs {rival_name}")
        refusal = await self.service.start_refusal(place, user, game, rival, options)
        if refusal is not None:
            return refusal  # said in General, before a topic is opened for nothing
        game_place = await self.client.new_game_place(message, place, name)
        if game_place == place:
            return None
        reply = await self.service.start_game(game_place, user, game, rival, options,
                                              creator_seat)
        if not reply.ok or reply.board is None:
            return reply.notice or self.t(place, "error.internal")
        await self.client.post_board(game_place, reply)
        record = await self.service.game_record(reply.board.game_id)
        link = self.client.game_link(record) if record is not None else ""
        return self.t(place, "telegram.topic_opened", game=get_game(game).TITLE, link=link)

    async def setup_pressed(self, query: CallbackQuery, source: TgMessage,
                            parts: list[str]) -> None:
        """A button of the /play setup; only the person who typed /play may use it."""
        place = await self.client.place_of_message(source, query.from_user)
        user = self.client.user_for(query.from_user)
        owner, choice = parts[0], parts[1:]
        if owner != user.id:
            await self.client.answer(query, self.t(place, "telegram.play.not_yours"),
                                     alert=True)
            return
        if choice == ["-"]:
            await self.client.edit(source.chat.id, source.message_id,
                                   text_message(self.t(place, "telegram.play.cancelled")))
            return
        try:
            game = resolve_name(choice[0])
        except GameError:
            await self.foreign(query, place)
            return
        if len(choice) == 1:
            await self.client.edit(source.chat.id, source.message_id,
                                   self.opponent_picker(place, user, game))
            return
        opponent = choice[1]
        if opponent == "open" and not is_private(place.channel):
            rival = Opponent("open")
        elif opponent.startswith("ai-"):
            rival = Opponent("ai", opponent[3:])
        else:
            await self.foreign(query, place)
            return
        options = ""
        has_presets = game == "turing" or bool(get_game(game).INFO.presets)
        if has_presets and len(choice) == 2:
            await self.client.edit(source.chat.id, source.message_id,
                                   self.preset_picker(place, user, game, opponent))
            return
        if has_presets:
            chosen = self.preset_options(game, choice[2])
            if chosen is None:
                await self.foreign(query, place)
                return
            options = chosen
        in_topic = await self.game_in_topic(source, place, user, game, rival, options)
        if in_topic is not None:
            await self.client.answer(query)
            await self.client.edit(source.chat.id, source.message_id, text_message(in_topic))
            return
        table = await self.client.place_for_new_game(place, user, game, rival)
        if isinstance(table, str):
            await self.client.answer(query, table, alert=True)
            return
        place = table
        reply = await self.service.start_game(place, user, game, rival, options)
        if not reply.ok or reply.board is None:
            # Said in an alert, never over the message: a second tap of this button (while
            # the first started the game) would otherwise replace the new game's board.
            await self.client.answer(query, reply.notice or self.t(place, "error.internal"),
                                     alert=True)
            return
        await self.client.answer(query)  # the message becoming the board is the answer
        board = reply.board
        message = await self.client.compose_board(place, board, ai_thinking=reply.ai_to_move,
                                                  header=reply.announcements)
        drawn = Drawn.NOTHING  # the setup message not turned into the board: one is posted
        if await self.client.edit_outcome(source.chat.id, source.message_id,
                                          message) is Shown.SHOWN:
            await self.client.remember_message(place, board.game_id, source, board.version)
            drawn = Drawn.BOARD_AND_NEWS
        await self.client.game_changed(place, reply, drawn=drawn)

    async def settings_panel(self, place: Place, chat_id: int) -> Message:
        language = await self.client.chat_setting(chat_id, "language") or "auto"
        style = await self.client.chat_setting(chat_id, "board") or "emoji"
        cues = "off" if await self.client.chat_setting(chat_id, TURN_CUES) == "off" else "on"
        summary = "\n".join([
            self.t(place, "telegram.settings.title"),
            self.t(place, "telegram.settings.language", value=self.t(
                place, "telegram.settings.language_auto") if language == "auto" else language),
            self.t(place, "telegram.settings.board", value=self.t(
                place, f"discord.settings.{style}")),
            self.t(place, "discord.settings.turn_cues",
                   value=self.t(place, f"discord.settings.{cues}"))])
        language_keys = [Key(("✓ " if code == language else "") + code, f"s:language:{code}")
                         for code in ["auto", *supported_languages()]]
        style_keys = [Key(("✓ " if name == style else "") + self.t(
            place, f"discord.settings.{name}"), f"s:board:{name}") for name in BOARD_STYLES]
        cue_keys = [Key(("✓ " if value == cues else "") + self.t(
            place, "telegram.settings.cues", value=self.t(place, f"discord.settings.{value}")),
            f"s:{TURN_CUES}:{value}") for value in ("on", "off")]
        return text_message(summary, (*rows_of(language_keys, 4), tuple(style_keys),
                                      tuple(cue_keys)))

    async def setting_pressed(self, query: CallbackQuery, source: TgMessage,
                              parts: list[str]) -> None:
        place = await self.client.place_of_message(source, query.from_user)
        valid = {"language": ["auto", *supported_languages()], "board": list(BOARD_STYLES),
                 TURN_CUES: ["on", "off"]}
        if len(parts) != 2 or parts[1] not in valid.get(parts[0], []):
            await self.foreign(query, place)
            return
        if not await self.client.is_admin(source.chat, query.from_user):
            await self.client.answer(query, self.t(place, "telegram.settings.admins_only"),
                                     alert=True)
            return
        await self.client.set_chat_setting(source.chat.id, parts[0], parts[1])
        place = await self.client.place_of_message(source, query.from_user)
        await self.client.answer(query, self.t(place, "telegram.settings.saved"))
        await self.client.edit(source.chat.id, source.message_id,
                               await self.settings_panel(place, source.chat.id))

    async def own_button(self, query: CallbackQuery) -> None:
        """The bot's own buttons: game set-up (``p:``), rules (``r:``), settings (``s:``),
        a replay's steps (``v:``)."""
        source = query.message
        data = query.data or ""
        if not isinstance(source, TgMessage):
            await self.too_old(query)
            return
        kind, _, rest = data.partition(":")
        if data not in callback_data_of(source):
            # The bot's own buttons edit the message they are on: data forged onto another
            # message (a live board) must not turn it into a set-up or settings panel.
            place = await self.client.place_of_message(source, query.from_user)
            await self.foreign(query, place)
            return
        if kind == "v":
            await self.replay_pressed(query, source, rest.split(":"))
        elif kind == "p":
            await self.setup_pressed(query, source, rest.split(":"))
        elif kind == "r":
            place = await self.client.place_of_message(source, query.from_user)
            if rest not in game_names():
                await self.foreign(query, place)
                return
            await self.client.answer(query)
            await self.client.reply_text(source, place, self.rules_text(place, rest))
        else:
            await self.setting_pressed(query, source, rest.split(":"))

    async def replay_pressed(self, query: CallbackQuery, source: TgMessage,
                             parts: list[str]) -> None:
        """A replay's start, back, forward or end: the step replaces the message."""
        place = await self.client.place_of_message(source, query.from_user)
        if len(parts) != 2 or not all(part.isdigit() for part in parts):
            await self.foreign(query, place)
            return
        await self.client.answer(query)
        step = await self.client.app.replays.step(
            int(parts[0]), int(parts[1]), place.language, place.emoji, place=place,
            user=self.client.user_for(query.from_user))
        await self.client.edit(source.chat.id, source.message_id, replay_message(step))

    async def game_button(self, query: CallbackQuery) -> None:
        """A game's button, an ended game's panel, or data the bot never sent: the service
        judges every payload by one rule, and answers anything it does not accept the
        same way."""
        source = query.message
        if not isinstance(source, TgMessage):
            await self.too_old(query)
            return
        if is_end_panel(query.data):
            await self.end_panel_pressed(query, source, query.data or "")
            return
        await self.presses.press(query, source, query.data or "")

    async def end_panel_pressed(self, query: CallbackQuery, source: TgMessage,
                                data: str) -> None:
        """A button of an ended game's panel: the game again as a new board, the rules
        or the replay below the board, or the presser's results in a pop-up."""
        user = self.client.user_for(query.from_user)
        place = await self.client.place_of_message(source, query.from_user)
        choice = await end_choice(self.client.app, place, user, data)
        if choice.action == "again":
            # The rematch itself refuses a second one (``Service.rematch``).
            place = await self.client.free_place(place)
            reply = await self.service.rematch(place, user, choice.game_id)
            if not reply.ok or reply.board is None:
                await self.client.answer(query, reply.notice or self.t(place, "error.internal"),
                                         alert=True)
                return
            await self.client.answer(query)
            await self.client.post_board(place, reply, reply_to=source.message_id)
        elif choice.action == "replay":
            await self.client.answer(query)
            step = await self.client.app.replays.step(choice.game_id, 0, place.language,
                                                      place.emoji, place=place, user=user)
            await self.client.send(place.channel, replay_message(step),
                                   reply_to=source.message_id)
        elif choice.action == "rules":
            await self.client.answer(query)
            await self.client.reply_text(source, place, choice.text)
        else:  # the presser's results fit a pop-up; so does a refusal
            await self.client.answer(query, choice.text, alert=True)

    async def too_old(self, query: CallbackQuery) -> None:
        """A press on a message too old for Telegram to send with the click."""
        place = Place(PLATFORM, str(query.from_user.id), self.client.settings.language)
        await self.foreign(query, place)

    async def foreign(self, query: CallbackQuery, place: Place) -> None:
        await self.client.answer(query, self.t(place, "error.foreign_button"), alert=True)
