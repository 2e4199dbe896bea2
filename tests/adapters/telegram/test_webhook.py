"""Telegram webhook workers (bot/adapters/telegram/webhook.py): the real worker server on
127.0.0.1, real HTTP requests, and the real bot's handlers behind it, replying to the
loopback fake Bot API (tests/helpers/telegram_fake.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.adapters.telegram import TelegramBot
from bot.adapters.telegram import webhook as webhook_module
from bot.adapters.telegram.webhook import SECRET_HEADER, RecentIds
from bot.config import Settings, load_settings
from tests.helpers.telegram_fake import BOT_USERNAME, Fault, Person, Sent
from tests.helpers.telegram_play import menu_keys
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world

SECRET = "s3cret_token-1"
PUBLIC_URL = "https://bot.example.org/telegram/updates"


@asynccontextmanager
async def worker_world(tmp_path: Path) -> AsyncIterator[tuple[World, httpx.AsyncClient]]:
    """A world whose bot is webhook worker 0 on an ephemeral port, and an HTTP client."""
    async with (telegram_world(tmp_path, telegram_webhook_url=PUBLIC_URL,
                               telegram_webhook_worker=0, telegram_webhook_listen="127.0.0.1",
                               telegram_webhook_port=0, telegram_webhook_secret=SECRET) as world,
                httpx.AsyncClient(timeout=15) as http):
        yield world, http


def worker_url(bot: TelegramBot, path: str = "/telegram/updates") -> str:
    assert bot.webhook_worker is not None
    return f"http://127.0.0.1:{bot.webhook_worker.port}{path}"


async def deliver(http: httpx.AsyncClient, bot: TelegramBot, update: dict[str, Any],
                  secret: str | None = SECRET) -> int:
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    response = await http.post(worker_url(bot), json=update, headers=headers)
    return response.status_code


def typed(world: World, person: Person, chat: dict[str, Any], text: str) -> dict[str, Any]:
    """The update Telegram would send for ``person`` typing ``text`` in ``chat``."""
    world.fake.user_message(person, chat, text)
    return world.fake.updates[-1]


def help_update(world: World, person: Person = ALICE) -> dict[str, Any]:
    return typed(world, person, person.private_chat, "/help")


async def until(condition: Any, seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.005)


# --------------------------------------------------------------------- start-up
async def test_worker_zero_registers_the_webhook_and_other_workers_only_serve(
        tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        assert world.fake.webhook == PUBLIC_URL and world.fake.webhook_secret == SECRET
        second = world.new_bot(replace(world.settings, telegram_webhook_worker=1))
        await second.start()
        try:
            assert second.application.updater is None, "a worker has no updater"
            assert len(world.fake.calls("setWebhook")) == 1, "worker 1 leaves it to worker 0"
            assert await deliver(http, second, help_update(world)) == 200
            assert "/play" in world.last(ALICE.private_chat).text, "worker 1 answers too"
        finally:
            await second.stop()
        assert world.fake.calls("getUpdates") == [], "no worker polls"
        assert world.fake.calls("deleteWebhook") == [], "a stopping worker keeps the webhook"


# ----------------------------------------------------------------- refusals
async def test_a_missing_or_wrong_secret_is_refused_and_nothing_is_handled(
        tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        update = help_update(world)
        assert await deliver(http, world.bot, update, secret=None) == 403
        assert await deliver(http, world.bot, update, secret="s3cret_token-2") == 403
        assert await deliver(http, world.bot, update, secret="") == 403
        await world.bot.wait_for_background()
        assert world.fake.calls("sendMessage") == [], "a refused update reaches no handler"
        # A refusal does not count the id as seen: Telegram's own delivery still works.
        assert await deliver(http, world.bot, update) == 200
        assert len(world.fake.calls("sendMessage")) >= 1


async def test_malformed_bodies_are_refused_and_the_worker_keeps_serving(
        tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        for body in (b"{not json", b"\xff\xfe\x00", b"", b"[]", b'"update"',
                     b'{"update_id": "7", "message": {}}', b'{"update_id": 7.5}',
                     b'{"message": {"text": "/help"}}'):
            response = await http.post(worker_url(world.bot), content=body,
                                       headers={SECRET_HEADER: SECRET})
            assert response.status_code == 400, body
        # An update Telegram could send but PTB cannot read is confirmed (not sent again
        # and again), and skipped.
        unreadable = {"update_id": 9_000, "callback_query": {"id": "77"}}
        assert await deliver(http, world.bot, unreadable) == 200
        assert world.bot.webhook_worker is not None
        assert world.bot.webhook_worker.refused == 8 and world.bot.webhook_worker.taken == 0
        assert await deliver(http, world.bot, help_update(world)) == 200
        assert "/play" in world.last(ALICE.private_chat).text
        wrong_path = await http.post(worker_url(world.bot, "/elsewhere"), json={},
                                     headers={SECRET_HEADER: SECRET})
        assert wrong_path.status_code == 404


async def test_a_redelivered_update_is_handled_once(tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        update = help_update(world)
        assert await deliver(http, world.bot, update) == 200
        sent = len(world.fake.calls("sendMessage"))
        assert sent >= 1
        # Telegram sends it again (say the first answer was lost on the way): confirmed,
        # not handled.
        assert await deliver(http, world.bot, update) == 200
        assert await deliver(http, world.bot, dict(update)) == 200
        await world.bot.wait_for_background()
        assert len(world.fake.calls("sendMessage")) == sent
        assert world.bot.webhook_worker is not None
        assert world.bot.webhook_worker.repeats == 2 and world.bot.webhook_worker.taken == 1


def test_recent_ids_forget_the_oldest_beyond_their_size() -> None:
    recent = RecentIds(size=3)
    assert [recent.first_time(i) for i in (1, 2, 3, 1, 4)] == [True, True, True, False, True]
    assert recent.first_time(1), "1 was the oldest of four, so it is forgotten"
    assert not recent.first_time(4)


# ------------------------------------------------------------------- order
async def test_one_chats_updates_are_handled_in_order_even_when_the_first_is_slow(
        tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        chat = ALICE.private_chat
        # The first reply takes 0.8 s to reach Telegram.
        world.fake.inject(Fault("sendMessage", status=0, delay=0.8, chat_id=ALICE.id))
        first = typed(world, ALICE, chat, "/start")
        second = typed(world, ALICE, chat, "/stats")
        first_post = asyncio.ensure_future(deliver(http, world.bot, first))
        await until(lambda: world.fake.calls("sendMessage"))  # the slow reply is on its way
        assert await deliver(http, world.bot, second) == 200
        assert await first_post == 200
        await world.bot.wait_for_background()
        texts = [message.text for message in world.fake.bot_messages(ALICE.id)]
        assert "logic games" in texts[0], "the /start reply, though slow, comes first"
        assert "logic games" not in texts[-1], texts


async def test_different_chats_are_handled_side_by_side(tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        world.fake.inject(Fault("sendMessage", status=0, delay=1.5, chat_id=ALICE.id))
        alices = asyncio.ensure_future(deliver(http, world.bot, help_update(world, ALICE)))
        await until(lambda: world.fake.calls("sendMessage"))
        started = time.perf_counter()
        assert await deliver(http, world.bot, help_update(world, BOB)) == 200
        assert time.perf_counter() - started < 1.0, "Bob does not wait for Alice's chat"
        assert world.fake.bot_messages(BOB.id), "Bob has his answer"
        assert not world.fake.bot_messages(ALICE.id), "while Alice's is still on its way"
        assert await alices == 200
        assert world.fake.bot_messages(ALICE.id)


async def test_a_slow_update_is_answered_in_time_and_finished_after(tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        assert world.bot.webhook_worker is not None
        world.bot.webhook_worker.answer_within = 0.2
        world.fake.inject(Fault("sendMessage", status=0, delay=1.0, chat_id=ALICE.id))
        started = time.perf_counter()
        assert await deliver(http, world.bot, help_update(world)) == 200
        assert time.perf_counter() - started < 0.8, "Telegram is not kept waiting"
        assert not world.fake.bot_messages(ALICE.id)
        await until(lambda: world.fake.bot_messages(ALICE.id))


async def test_updates_left_unfinished_by_a_stopping_worker_are_sent_back_with_503(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with worker_world(tmp_path) as (world, http):
        worker = world.bot.webhook_worker
        assert worker is not None
        monkeypatch.setattr(webhook_module, "DRAIN_SECONDS", 0.2)
        world.fake.inject(Fault("sendMessage", status=0, delay=3.0, chat_id=ALICE.id))
        slow = asyncio.ensure_future(deliver(http, world.bot, help_update(world)))
        await until(lambda: world.fake.calls("sendMessage"))
        queued = asyncio.ensure_future(deliver(http, world.bot, typed(
            world, ALICE, ALICE.private_chat, "/stats")))
        await until(lambda: worker.taken == 2)
        await worker.stop()
        assert await slow == 503 and await queued == 503, "Telegram is to send both again"


async def test_a_caller_that_gives_up_waiting_leaves_the_worker_serving(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with worker_world(tmp_path) as (world, http):
        world.fake.inject(Fault("sendMessage", status=0, delay=0.6, chat_id=ALICE.id))
        with pytest.raises(httpx.ReadTimeout):
            await http.post(worker_url(world.bot), json=help_update(world),
                            headers={SECRET_HEADER: SECRET}, timeout=0.2)
        await until(lambda: world.fake.bot_messages(ALICE.id))
        await asyncio.sleep(0.1)  # the late answer meets the closed connection
        assert await deliver(http, world.bot, help_update(world, BOB)) == 200
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


# ------------------------------------------------------------------ health
async def test_the_health_endpoint_follows_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with worker_world(tmp_path) as (world, http):
        health = worker_url(world.bot, "/healthz")
        healthy = await http.get(health)
        assert healthy.status_code == 200 and healthy.text == "ok\n"

        async def failing(*args: Any) -> None:
            raise ConnectionError("the database went away")
        monkeypatch.setattr(world.store, "get_setting", failing)
        assert (await http.get(health)).status_code == 503

        async def hanging(*args: Any) -> None:
            await asyncio.sleep(5)
        monkeypatch.setattr(world.store, "get_setting", hanging)
        monkeypatch.setattr(webhook_module, "HEALTH_TIMEOUT", 0.1)
        assert (await http.get(health)).status_code == 503, "too slow counts as down"

        monkeypatch.undo()
        assert (await http.get(health)).status_code == 200
        second = world.new_bot(replace(world.settings, telegram_webhook_worker=1))
        await second.start()
        second_health = worker_url(second, "/healthz")
        assert (await http.get(second_health)).status_code == 200
        await second.application.stop()  # the application stopped under its server
        assert (await http.get(second_health)).status_code == 503
        await second.stop()


# -------------------------------------------------------------- two workers
async def test_a_games_moves_alternating_between_two_workers_all_apply_in_order(
        tmp_path: Path) -> None:
    async with worker_world(tmp_path) as (world, http):
        second = world.new_bot(replace(world.settings, telegram_webhook_worker=1))
        await second.start()
        workers = [world.bot, second]
        deliveries = 0

        async def send(update: dict[str, Any]) -> None:
            """The next update, to the other worker than the last one."""
            nonlocal deliveries
            worker = workers[deliveries % 2]
            deliveries += 1
            assert await deliver(http, worker, update) == 200
            for bot in workers:
                await bot.wait_for_background()

        async def press(person: Person, message: Sent, data: str) -> dict[str, Any]:
            query = world.fake.press(person, message, data)
            await send(world.fake.updates[-1])
            answers = world.fake.answers.get(query, [])
            assert len(answers) == 1, answers
            return answers[0]

        try:
            await send(typed(world, ALICE, GROUP, f"/play@{BOT_USERNAME} lgame"))
            picker = world.last(GROUP)
            await press(ALICE, picker, picker.button("whoever joins")["callback_data"])
            board = await world.board(GROUP)
            joining = await press(BOB, board, board.button("Join")["callback_data"])
            assert not joining.get("show_alert"), joining
            joined = await world.store.running_game("telegram", str(GROUP["id"]))
            assert joined is not None

            presses = 0
            record = joined
            while record.version < joined.version + 4:  # four whole moves, two each
                board = await world.board(GROUP)
                mover = BOB if "Bob" in board.text.splitlines()[-1] else ALICE
                answer = await press(mover, board, menu_keys(board)[0]["callback_data"])
                assert not answer.get("show_alert"), answer
                presses += 1
                assert presses < 60, "the moves did not complete"
                latest = await world.store.running_game("telegram", str(GROUP["id"]))
                assert latest is not None and latest.version in (record.version,
                                                                  record.version + 1)
                record = latest

            moves = await world.store.moves(record.id)
            assert [(m.seat, m.kind) for m in moves] == [
                (1, "join"), (0, "action"), (1, "action"), (0, "action"), (1, "action")], \
                "each move saved once, in turn, whichever worker took its presses"
            assert world.bot.webhook_worker is not None and second.webhook_worker is not None
            assert world.bot.webhook_worker.taken > 2 and second.webhook_worker.taken > 2
            assert world.fake.refusals == []
        finally:
            await second.stop()


# ---------------------------------------------------------------- settings
def test_worker_settings_are_checked() -> None:
    base = {"TELEGRAM_WEBHOOK_URL": PUBLIC_URL, "TELEGRAM_WEBHOOK_SECRET": SECRET}
    warnings: list[str] = []
    assert load_settings({**base, "TELEGRAM_WEBHOOK_WORKER": "1"}, None,
                         warnings.append).telegram_webhook_worker == 1
    assert load_settings(base, None, warnings.append).telegram_webhook_worker is None
    assert warnings == []

    assert load_settings({**base, "TELEGRAM_WEBHOOK_WORKER": "one"}, None,
                         warnings.append).telegram_webhook_worker is None
    assert "TELEGRAM_WEBHOOK_WORKER='one'" in warnings.pop()
    assert load_settings({"TELEGRAM_WEBHOOK_WORKER": "0"}, None,
                         warnings.append).telegram_webhook_worker is None
    assert "needs TELEGRAM_WEBHOOK_URL" in warnings.pop()
    no_secret = load_settings({"TELEGRAM_WEBHOOK_URL": PUBLIC_URL,
                               "TELEGRAM_WEBHOOK_WORKER": "0"}, None, warnings.append)
    assert no_secret.telegram_webhook_worker == 0
    assert "without TELEGRAM_WEBHOOK_SECRET" in warnings.pop() and warnings == []
    assert Settings().telegram_webhook_worker is None
