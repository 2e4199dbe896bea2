"""Commands that play: ``/play``, ``/puzzle`` (a Turing puzzle), ``/rematch``, ``/join``,
``/resign``, ``/abandon``, ``/board``, ``/move``, ``/hint``, ``/hand``, ``/replay`` and
``/rules``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Message as TgMessage
from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.delivery import Drawn
from bot.adapters.telegram.buttons import replay_message, rows_of
from bot.adapters.telegram.chats import HINT_LINK, is_private
from bot.adapters.telegram.commands.kit import CommandKit
from bot.adapters.telegram.layout import Key, Message, hand_message, text_message, yes_key
from bot.service import Opponent, Place, Reply, User
from engines.base import GameError
from engines.registry import game_names, get_game, resolve_name

FIRST_SEATS = {"me": 0, "opponent": 1, "random": None}
AI_WORDS = {"ai", "bot", "computer", "cpu"}


class GameCommands(CommandKit):
    """The commands about games and their moves."""

    # ------------------------------------------------------------------------ /play
    async def play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/play`` offers buttons; ``/play <game> [level] [options] [first=…]`` starts
        at once. Sent as a reply to someone's message, it invites that person."""
        started = await self._words_or_picker(update, context, self.game_picker)
        if started is None:
            return
        message, place, user, words = started
        try:
            game = resolve_name(words[0])
        except GameError as error:
            await self.client.reply_text(message, place, self.error_text(place, error))
            return
        module = get_game(game)
        level = ""
        first = "me"
        options: list[str] = []
        for word in words[1:]:
            lowered = word.lower()
            if lowered in module.LEVELS:
                level = lowered
            elif lowered in AI_WORDS:
                level = level or "strong"
            elif lowered.startswith("first="):
                first = lowered.partition("=")[2]
            else:
                options.append(word)
        if first not in FIRST_SEATS:
            await self.client.reply_text(message, place, self.t(place, "telegram.play.first"))
            return
        rival = self.invited(message) if not level else Opponent("ai", level)
        if rival is None:
            if not options and first == "me":
                await self.client.send(place.channel, self.opponent_picker(place, user, game),
                                       reply_to=message.message_id)
                return
            rival = Opponent("ai", "strong") if is_private(place.channel) else Opponent("open")
        await self.start_game(message, place, user, game, rival, " ".join(options),
                              FIRST_SEATS[first])

    async def puzzle(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A solo Turing Machine puzzle here: ``/puzzle hard 6 extreme``, or a puzzle code."""
        started = await self._words_or_picker(update, context, self.puzzle_picker)
        if started is None:
            return
        message, place, user, words = started
        options = " ".join(f"verifiers={w}" if w.isdigit() and len(w) == 1 else w
                           for w in words)
        await self.start_game(message, place, user, "turing", Opponent("ai"), options, 0)

    async def _words_or_picker(self, update: Update, context: ContextTypes.DEFAULT_TYPE,
                               picker: Callable[[Place, User], Message]
                               ) -> tuple[TgMessage, Place, User, list[str]] | None:
        """A command that starts something (``/play``, ``/puzzle``): its message, place,
        sender and words; None when it is answered already: sent as the group (refused),
        or without words (its ``picker``'s buttons instead)."""
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return None
        words = list(context.args or [])
        if not words:
            await self.client.send(place.channel, picker(place, user),
                                   reply_to=message.message_id)
            return None
        return message, place, user, words

    async def rematch(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return
        await self.post_board_reply(message, place, await self.service.rematch(place, user))

    # -------------------------------------------------------- changes away from the board
    async def _change(self, update: Update,
                      action: Callable[[Place, User], Awaitable[Reply]],
                      anonymous_allowed: bool = False, own_game: bool = False) -> None:
        """Join, resign or abandon: announced in the chat; the board is edited in place.
        ``own_game``: the game the sender sits in, at whichever table of the group."""
        context = await (self._game_context(update) if own_game else self._context(update))
        if context is None:
            return
        message, place, user = context
        if not anonymous_allowed and await self.anonymous(message, place):
            return
        reply = await action(place, user)
        if not reply.ok:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        await self.client.reply_text(message, place, "\n".join(reply.announcements) or
                                     self.t(place, "telegram.done"))
        await self.client.game_changed(place, reply, drawn=Drawn.NEWS)

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._change(update, self.service.join)

    async def resign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._change(update, self.service.resign, own_game=True)

    async def abandon(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        moderator = await self.client.is_admin(message.chat, person, message.sender_chat)

        async def abandon_as(place: Place, user: User) -> Reply:
            return await self.service.abandon(place, User(user.platform, user.id, user.name,
                                                          moderator))
        await self._change(update, abandon_as, anonymous_allowed=True)

    # --------------------------------------------------------------- board and moves
    async def board(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The board again, at the bottom of the chat."""
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        reply = await self.service.board(place, user)
        await self.post_board_reply(message, place, reply, "error.no_game")

    async def move(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        found = await self._playing_context(update)
        if found is None:
            return
        message, place, user = found
        notation = " ".join(context.args or [])[:200]
        if not notation:
            suggestions = await self.service.move_suggestions(place, user, "", 8)
            key = "telegram.move.usage_with" if suggestions else "telegram.move.usage"
            await self.client.reply_text(message, place, self.t(
                place, key, moves=", ".join(suggestions)))
            return
        await self.typed_move(message, place, user, notation)

    async def typed_move(self, message: TgMessage, place: Place, user: User,
                         notation: str) -> None:
        """A move in notation: the board is posted again below it, as the typed message
        pushed the old one up."""
        reply = await self.service.move(place, user, notation)
        await self.post_board_reply(message, place, reply)

    async def hint(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/hint``: a hint for your move against the computer or in a puzzle, in your
        private chat (it may name your cards); the group is told a hint was taken."""
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        # Asked first, as for the board's button: a hint that cannot reach the player
        # alone is not taken (``Reply.needs_private``).
        reaches = is_private(place.channel) or await self.client.can_write_privately(
            int(user.id))
        reply = await self.service.hint(place, user, reaches=reaches)
        if reply.needs_private:
            await self.client.reply_text(message, place, reply.notice or "", rows=(
                (self.client.hands.open_chat_key(place, HINT_LINK),),))
            return
        if reply.confirm is not None:
            # It would void the game's result: asked first, with the yes under the
            # reply (in a group everyone sees it; the service takes it from the player
            # only, and a press of it goes the way of the board's hint button).
            await self.client.reply_text(message, place, reply.notice or "",
                                         rows=((yes_key(reply.confirm),),))
            return
        text = reply.notice or self.t(place, "error.internal")
        if not reply.ok or is_private(place.channel):
            await self.client.reply_text(message, place, text)
        elif await self.client.send(user.id, text_message(text)) is None:
            # The chat closed since it was known open (the bot blocked): the hint would
            # show the whole group.
            await self.client.reply_text(message, place, self.t(place, "hint.private_only"))
        if reply.ok:
            await self.client.game_changed(place, reply)

    async def replay(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/replay [number]``: step through a finished game (this chat's last one)."""
        message, place, user = await self._context(update)
        typed = (context.args or [""])[0].lstrip("#")
        game_id = int(typed) if typed.isdigit() and len(typed) <= 12 else \
            await self.client.app.replays.last_game(place)
        if game_id is None:
            await self.client.reply_text(message, place, self.t(place, "replay.none_here"))
            return
        step = await self.client.app.replays.step(game_id, 0, place.language, place.emoji,
                                                  place=place, user=user)
        await self.client.send(place.channel, replay_message(step),
                               reply_to=message.message_id)

    async def hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Your hand: in a group it goes to your private chat with the bot."""
        found = await self._playing_context(update)
        if found is None:
            return
        message, place, user = found
        reply = await self.service.hand(place, user)
        if reply.hand is None:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        running = await self.service.board(place)
        game_id = running.board.game_id if running.board is not None else 0
        if is_private(place.channel):
            await self.client.send(place.channel, hand_message(reply.hand, place.language))
        elif (sent := await self.client.send_hand(place, user.id, game_id, reply.hand)) is None:
            await self.client.reply_text(message, place, self.t(place, "error.internal"))
        elif sent:
            await self.client.reply_text(message, place, self.t(place, "telegram.hand.sent"))
        else:
            await self.client.send(place.channel, self.client.start_me(place, user.name,
                                                                       game_id),
                                   reply_to=message.message_id)

    # ------------------------------------------------------------------------ /rules
    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        if not context.args:
            keys = [Key(get_game(name).TITLE, f"r:{name}") for name in game_names()]
            await self.client.send(place.channel, text_message(
                self.t(place, "telegram.rules.choose"), rows_of(keys, 2)),
                reply_to=message.message_id)
            return
        await self.client.reply_text(message, place, self.rules_text(place, context.args[0]))
