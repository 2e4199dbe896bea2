"""End-to-end tests of the Telegram adapter: the real python-telegram-bot ``Application``
talks HTTP to a loopback fake Bot API (``tests/helpers/telegram_fake.py``); no network, no token."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram import Chat

from bot.adapters.telegram.chats import HAND_LINK_PREFIX
from bot.adapters.telegram.command_sync import ADMIN_COMMANDS
from bot.adapters.telegram.pacing import ClickFriendlyRateLimiter
from bot.service import Reply, User
from renderers.i18n import CATALOGUE
from tests.helpers.telegram_fake import BOT_USERNAME, Person, Sent
from tests.helpers.telegram_play import menu_keys
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


def _chat(chat: dict[str, Any]) -> Chat:
    return Chat(int(chat["id"]), str(chat["type"]))


def _user(person: Person) -> User:
    return User("telegram", str(person.id), person.first_name)


def labels(message: Sent) -> list[str]:
    return [button["text"] for button in message.buttons]


async def play_first_options_until_over(world: World, person: Person, chat: dict[str, object],
                                        max_clicks: int = 2000) -> Sent:
    """Play by always pressing the first menu button, as a child might; the AI answers."""
    for _ in range(max_clicks):
        board = await world.board(chat)  # type: ignore[arg-type]
        keys = menu_keys(board)
        if not keys:
            return board
        answers = await world.press(person, board, keys[0]["callback_data"])
        assert len(answers) == 1 and not answers[0].get("show_alert"), answers
    raise AssertionError("the game did not end")


async def test_full_lgame_against_the_ai_in_a_private_chat_with_buttons_only(
        tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        assert "logic games" in world.last(chat).text
        await world.say(ALICE, chat, "/play")
        picker = world.last(chat)
        assert "L-game" in labels(picker)
        await world.click(ALICE, picker, "L-game")
        assert "who do you want to play" in world.last(chat).text
        assert not any("whoever joins" in label for label in labels(world.last(chat))), \
            "nobody can join a private chat"
        await world.click(ALICE, world.last(chat), "easy")
        board = await world.board(chat)
        assert board.message_id == picker.message_id, "the picker became the board"
        assert menu_keys(board), "Alice moves first and has buttons"
        final = await play_first_options_until_over(world, ALICE, chat)
        assert "Game over" in final.text
        record = (await world.store.games_with_status("finished"))[0]
        assert record.status == "finished"
        assert len(world.fake.bot_messages(chat["id"])) <= 4, \
            "the board is edited in place, not posted per move"
        assert world.fake.refusals == []


async def open_group_game(world: World) -> Sent:
    """Alice sets up an L-game in the group with buttons; Bob joins with the board's
    button. Returns the active board."""
    bob_line = await world.say(BOB, GROUP, "hello class")
    assert bob_line.message_id
    await world.say(ALICE, GROUP, f"/play@{BOT_USERNAME} lgame")
    picker = world.last(GROUP)
    assert "whoever joins" in " ".join(labels(picker))
    refused = await world.click(BOB, picker, "whoever joins")
    assert refused[0]["show_alert"] and "typed /play" in refused[0]["text"]
    await world.click(ALICE, picker, "whoever joins")
    board = await world.board(GROUP)
    assert "waiting for a second player" in board.text
    joined = await world.click(BOB, board, "Join")
    assert not joined[0].get("show_alert")
    board = await world.board(GROUP)
    assert menu_keys(board) and "Alice" in board.text
    return board


async def test_two_player_group_game_refuses_strangers_stale_and_forged_buttons(
        tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play@some_other_bot lgame")
        assert world.fake.bot_messages(GROUP["id"]) == [], "a command for another bot"
        board = await open_group_game(world)
        before = board.text

        stranger = await world.press(CAROL, board, menu_keys(board)[0]["callback_data"])
        # "Wait" refusals are light: a toast, not an alert to dismiss.
        assert not stranger[0].get("show_alert") and "not playing" in stranger[0]["text"]
        assert (await world.board(GROUP)).text == before
        wrong_turn = await world.press(BOB, board, menu_keys(board)[0]["callback_data"])
        assert not wrong_turn[0].get("show_alert") and "not your turn" in wrong_turn[0]["text"]

        first_step = menu_keys(board)[0]["callback_data"]
        for _ in range(10):  # Alice completes one move with the first option at each step
            current = await world.board(GROUP)
            keys = menu_keys(current)
            if "Bob" in current.text.splitlines()[-1]:
                break
            await world.press(ALICE, current, keys[0]["callback_data"])
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None and record.version == 3, "join, then Alice's move"

        stale = await world.press(ALICE, board, first_step)
        assert stale[0]["show_alert"] and "out of date" in stale[0]["text"]
        for forged in ("m:999999:1:", "x" * 64, "p:1001:no-such-game", "s:language:klingon",
                       f"m:{record.id}:{record.version}:zz.zz.zz", "r:nope", "h:1:1:"):
            answers = await world.press(ALICE, await world.board(GROUP), forged)
            assert len(answers) == 1 and answers[0]["text"], (forged, answers)
            # Alerts, but for the forged move of the right game: its refusal is only that
            # it is Bob's turn, which a toast says.
            assert bool(answers[0].get("show_alert")) != ("not your turn" in
                                                          answers[0]["text"]), forged
        latest = await world.store.running_game("telegram", str(GROUP["id"]))
        assert latest is not None and latest.version == record.version, "nothing moved"
        assert world.fake.refusals == []


async def test_two_presses_at_once_make_one_move(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await open_group_game(world)
        for _ in range(10):
            board = await world.board(GROUP)
            keys = menu_keys(board)
            finishing = [k for k in keys if "stay" in k["text"]]
            if finishing:
                break
            await world.press(ALICE, board, keys[0]["callback_data"])
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None
        data = finishing[0]["callback_data"]
        first = world.fake.press(ALICE, board, data)
        second = world.fake.press(ALICE, board, data)
        await world.settle()
        answers = [world.fake.answers[first][0], world.fake.answers[second][0]]
        assert sorted(bool(a.get("show_alert")) for a in answers) == [False, True]
        after = await world.store.running_game("telegram", str(GROUP["id"]))
        assert after is not None and after.version == record.version + 1


async def test_names_with_html_are_shown_escaped(tmp_path: Path) -> None:
    eve = Person(1004, "<b>Eve</b>", last_name="& <i>co")
    async with telegram_world(tmp_path) as world:
        await world.say(eve, GROUP, "/play lgame easy")
        board = await world.board(GROUP)
        assert "<b>Eve</b> & <i>co" in board.text, "shown as typed"
        assert "&lt;b&gt;Eve&lt;/b&gt; &amp; &lt;i&gt;co" in board.html
        assert "<b>Eve" not in board.html
        assert world.fake.refusals == []


async def test_old_keyboard_still_works_after_a_restart(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        board = await open_group_game(world)
        await world.press(ALICE, board, menu_keys(board)[0]["callback_data"])
        mid_move = await world.board(GROUP)
        next_step = menu_keys(mid_move)[0]["callback_data"]
        await world.restart()
        assert world.fake.calls("setMyCommands") and len(world.fake.calls("getMe")) == 2
        answers = await world.press(ALICE, mid_move, next_step)
        assert not answers[0].get("show_alert"), answers
        assert (await world.board(GROUP)).text != mid_move.text or \
            world.fake.messages[(GROUP["id"], mid_move.message_id)].edits > 0


async def test_hidden_hands_go_only_to_private_chats_with_a_deep_link_for_newcomers(
        tmp_path: Path, secret_cards: None) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")  # Alice knows the bot; Bob not
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play secrets", reply_to=bob_line)
        board = await world.board(GROUP)
        assert "Bob" in board.text and menu_keys(board) == [], "no cards on the group board"
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None
        alice_cards, bob_cards = record.state["hands"]

        alice_hand = world.last(ALICE.private_chat)
        assert "Your hand" in alice_hand.text and "Class 3B" in alice_hand.text, \
            "Alice, to move, got her hand as soon as the game started"
        back = alice_hand.buttons[-1]
        assert back["text"] == "⬅ Back to Class 3B" and back["url"] == \
            f"https://t.me/c/{str(GROUP['id'])[4:]}/{board.message_id}", \
            "one tap takes Alice back to the group's board"
        peek = await world.click(CAROL, board, "My hand")
        assert not peek[0].get("show_alert") and "not playing" in peek[0]["text"]
        shown = await world.click(ALICE, board, "My hand")
        assert shown[0]["show_alert"] and "Your hand" in shown[0]["text"], \
            "a short hand also shows in an alert only Alice sees"
        alice_hand = world.last(ALICE.private_chat)

        played = await world.press(ALICE, alice_hand, menu_keys(alice_hand)[0]["callback_data"])
        assert not played[0].get("show_alert"), played
        assert menu_keys(world.fake.messages[(ALICE.id, alice_hand.message_id)]) == [], \
            "Alice's hand message now shows no moves: it is Bob's turn"
        link = f"https://t.me/{BOT_USERNAME}?start={HAND_LINK_PREFIX}{record.id}"
        # The last group messages: the invitation, then the turn cue that mentions Bob.
        invitation, cue = world.fake.bot_messages(GROUP["id"])[-2:]
        assert cue.text.startswith("🔔") and f"tg://user?id={BOB.id}" in cue.html
        assert "Bob" in invitation.text and invitation.buttons[0]["url"] == link, \
            "Bob never opened a chat with the bot, so the group gets a link for him"

        through_button = await world.click(BOB, await world.board(GROUP), "My hand")
        assert through_button[0]["url"] == link
        assert world.fake.bot_messages(BOB.id) == []
        await world.say(BOB, BOB.private_chat, f"/start {HAND_LINK_PREFIX}{record.id}")
        bob_hand = world.last(BOB.private_chat)
        assert "Your hand" in bob_hand.text and menu_keys(bob_hand), \
            "the hand arrives as soon as Bob presses Start"
        answers = await world.press(BOB, bob_hand, menu_keys(bob_hand)[0]["callback_data"])
        assert not answers[0].get("show_alert"), answers
        after = await world.store.running_game("telegram", str(GROUP["id"]))
        assert after is not None and after.version == record.version + 2

        for message in world.fake.bot_messages(GROUP["id"]):
            assert "Your hand" not in message.text
            for cards in (alice_cards, bob_cards):
                assert f"Your hand: {', '.join(map(str, cards))}" not in message.text
        hand_texts = [m.text for m in world.fake.bot_messages(ALICE.id)]
        assert all(", ".join(map(str, bob_cards)) not in text for text in hand_texts)
        assert world.fake.refusals == [
            ("sendMessage", "Forbidden: bot can't initiate conversation with a user")] * 2


async def test_joining_a_hidden_game_keeps_the_joiners_hand_off_the_group_board(
        tmp_path: Path, secret_cards: None) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play secrets first=opponent")
        board = await world.board(GROUP)
        await world.click(BOB, board, "Join")
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None and record.players[0]["id"] == str(BOB.id)
        board = await world.board(GROUP)
        assert "Your hand" not in board.text and menu_keys(board) == []
        bob_cards = ", ".join(map(str, record.state["hands"][0]))
        assert all(bob_cards not in m.text for m in world.fake.bot_messages(GROUP["id"]))
        links = [m for m in world.fake.bot_messages(GROUP["id"])
                 if m.buttons and m.buttons[0].get("url")]
        assert len(links) == 1 and "Bob" in links[0].text, "Bob is to move: his link"


async def test_a_press_racing_a_reposted_board_leaves_one_live_board(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with telegram_world(tmp_path) as world:
        board = await open_group_game(world)
        answer = world.bot.answer

        async def slow_answer(*args: Any, **kwargs: Any) -> None:
            await answer(*args, **kwargs)
            await asyncio.sleep(0.3)  # widen the window between the answer and the edit
        monkeypatch.setattr(world.bot, "answer", slow_answer)
        world.fake.press(ALICE, board, menu_keys(board)[0]["callback_data"])
        await asyncio.sleep(0.1)
        world.fake.user_message(BOB, GROUP, "/board")
        await world.settle()
        live = [m for m in world.fake.bot_messages(GROUP["id"]) if menu_keys(m)]
        assert [m.message_id for m in live] == [(await world.board(GROUP)).message_id]
        assert "Your move so far" in live[0].text, "Alice's step shows on the live board"


async def test_settings_are_for_admins_and_change_language_and_board_style(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CATALOGUE["nl"], "telegram.settings.saved", "Opgeslagen.")
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {ALICE.id}
        await world.say(BOB, GROUP, "/settings")
        assert "Only this group's admins" in world.last(GROUP).text
        await world.say(ALICE, GROUP, "/settings")
        panel = world.last(GROUP)
        refused = await world.click(BOB, panel, "text")
        assert refused[0]["show_alert"] and "admins" in refused[0]["text"]
        saved = await world.click(ALICE, panel, "nl")
        assert saved[0]["text"] == "Opgeslagen."
        await world.click(ALICE, world.fake.messages[(GROUP["id"], panel.message_id)],
                          CATALOGUE["nl"]["discord.settings.text"])
        await world.say(BOB, GROUP, "/play lgame easy")
        board = await world.board(GROUP)
        assert "<pre>" in board.html, "the admins chose monospace boards"
        assert world.fake.refusals == []


async def test_typed_commands_resign_abandon_rules_and_help(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/move a1")
        assert "no game running" in world.last(chat).text
        await world.say(ALICE, chat, "/play lgame easy first=me")
        await world.say(ALICE, chat, "/move")
        assert "for example" in world.last(chat).text, "usage lists legal moves"
        await world.say(ALICE, chat, "/move zz9")
        assert "zz9" in world.last(chat).text or "not" in world.last(chat).text
        suggestion = (await world.bot.service.move_suggestions(
            await world.bot.place_for(_chat(chat), None, None), _user(ALICE), "", 1))[0]
        old_board = await world.board(chat)
        await world.say(ALICE, chat, suggestion)  # plain text in a private chat is a move
        board = await world.board(chat)
        assert board.message_id != old_board.message_id, "a typed move reposts the board"
        assert "moved further down" in world.fake.messages[
            (chat["id"], old_board.message_id)].text
        await world.say(ALICE, chat, "/resign")
        assert "Alice resigned" in world.last(chat).text
        await world.say(ALICE, chat, "/rules")
        await world.click(ALICE, world.last(chat), "L-game")
        assert "L-game" in world.last(chat).text and "Example" in world.last(chat).text
        await world.say(ALICE, chat, "/rules nosuchgame")
        assert "nosuchgame" in world.last(chat).text
        await world.say(ALICE, chat, "/help")
        assert "/play" in world.last(chat).text

        await world.say(BOB, GROUP, "/play lgame easy")
        await world.say(CAROL, GROUP, "/abandon")
        assert "Only the players or a moderator" in world.last(GROUP).text
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(CAROL, GROUP, "/abandon")
        assert "Carol abandoned the game" in world.last(GROUP).text
        assert world.fake.refusals == []


async def test_command_menus_are_published_once_and_per_translated_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ADMIN_COMMANDS:
        monkeypatch.setitem(CATALOGUE["nl"], f"telegram.cmd.{name}", f"nl {name} uitleg")
    monkeypatch.delitem(CATALOGUE["de"], "telegram.cmd.play")  # German left incomplete
    async with telegram_world(tmp_path) as world:
        published = world.fake.calls("setMyCommands")
        languages = {call.get("language_code") for call in published}
        assert languages == {None, "nl"}, "English by default, Dutch where translated"
        admin_menus = [c for c in published if c["scope"]["type"] == "all_chat_administrators"]
        assert all(any(cmd["command"] == "settings" for cmd in c["commands"])
                   for c in admin_menus)
        default = [c for c in published if c["scope"]["type"] == "default"]
        assert all(all(cmd["command"] != "settings" for cmd in c["commands"]) for c in default)
        await world.restart()
        assert len(world.fake.calls("setMyCommands")) == len(published), "nothing changed"


async def test_the_production_rate_limiter_leaves_clicks_unqueued() -> None:
    seen: list[tuple[bool, object]] = []

    class Spy(ClickFriendlyRateLimiter):
        async def _run_request(self, chat: bool, group: object, **kwargs: object) -> object:
            seen.append((chat, group))
            return True

    limiter = Spy()
    await limiter.initialize()

    async def request() -> bool:
        return True
    for endpoint, data in (("sendMessage", {"chat_id": -100}),
                           ("editMessageText", {"chat_id": -100, "message_id": 7}),
                           ("answerCallbackQuery", {"callback_query_id": "1"})):
        await limiter.process_request(request, (), {}, endpoint, data, None)
    assert seen == [(True, -100), (True, False), (False, False)], \
        "messages: overall and group limits; edits: overall only; answers: none"


async def test_a_crash_is_logged_answered_briefly_and_the_bot_carries_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async with telegram_world(tmp_path) as world:
        board = await open_group_game(world)

        async def explode(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("disk on fire")
        with monkeypatch.context() as patch:
            patch.setattr(world.bot.service, "press", explode)
            patch.setattr(world.bot.service, "board", explode)
            answers = await world.press(ALICE, board, menu_keys(board)[0]["callback_data"])
            await world.say(ALICE, GROUP, "/board")
        assert answers[0]["show_alert"] and "went wrong" in answers[0]["text"]
        assert "went wrong" in world.last(GROUP).text
        assert "disk on fire" in caplog.text, "the error is logged with its cause"
        assert "disk on fire" not in world.last(GROUP).text
        working = await world.press(ALICE, board, menu_keys(board)[0]["callback_data"])
        assert not working[0].get("show_alert"), "the next press works"


async def test_the_ai_resumes_after_a_restart_and_moves_on_the_old_board(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat

        async def crash_before_moving(place: object) -> None:
            return None
        with monkeypatch.context() as patch:
            patch.setattr(world.bot, "run_ai", crash_before_moving)
            await world.say(ALICE, chat, "/play lgame easy first=opponent")
        record = await world.store.running_game("telegram", str(chat["id"]))
        assert record is not None and record.version == 1, "the computer has not moved"
        board = await world.board(chat)
        assert menu_keys(board) == []
        await world.restart()
        record = await world.store.running_game("telegram", str(chat["id"]))
        assert record is not None and record.version == 2, "the new process moved for it"
        resumed = await world.board(chat)
        assert resumed.message_id == board.message_id and menu_keys(resumed)


async def test_webhook_mode_receives_updates_with_the_secret(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with telegram_world(tmp_path, telegram_webhook_url=f"http://127.0.0.1:{port}/tg",
                              telegram_webhook_listen="127.0.0.1", telegram_webhook_port=port,
                              telegram_webhook_secret="s3cret") as world:
        assert world.fake.webhook.endswith("/tg") and world.fake.webhook_secret == "s3cret"
        assert world.fake.calls("getUpdates") == [], "no polling in webhook mode"
        chat = ALICE.private_chat
        world.fake.started.add(ALICE.id)
        update = {"update_id": 1, "message": {
            "message_id": 1, "date": 1_700_000_000, "chat": chat, "from": ALICE.to_json(),
            "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
        async with aiohttp.ClientSession() as session:
            forged = await session.post(world.fake.webhook, json=update)
            assert forged.status == 403, "a request without the secret is refused"
            accepted = await session.post(
                world.fake.webhook, json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"})
            assert accepted.status == 200
        for _ in range(200):
            if world.fake.bot_messages(ALICE.id):
                break
            await asyncio.sleep(0.01)
        await world.bot.application.update_queue.join()
        assert "/play" in world.last(chat).text


async def test_private_results_go_only_to_each_players_private_chat(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        before = len(world.fake.bot_messages(GROUP["id"]))
        await world.bot.deliver_private(Reply(private={str(ALICE.id): "your score: 7",
                                                       str(BOB.id): "your score: 3"}))
        assert world.last(ALICE.private_chat).text == "your score: 7"
        assert world.fake.bot_messages(BOB.id) == [], "Bob never started the bot"
        assert len(world.fake.bot_messages(GROUP["id"])) == before, "never in the group"
