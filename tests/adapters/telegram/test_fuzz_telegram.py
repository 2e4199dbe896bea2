"""Hostile input through the real python-telegram-bot ``Application`` and the loopback fake
Bot API: forged callback data on group boards and private hand messages, and commands with
hostile arguments, in every game, from both players and a stranger.

Every callback query is answered once, every command gets a message, no answer is the
internal-error apology, Telegram never refuses what the bot sends (HTML it cannot parse,
text too long), and only what the rules allow the person right now may change a stored game
(the oracles are in ``tests/helpers/hostile.py``).
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import Place, User
from engines.registry import game_names
from tests.helpers import hostile
from tests.helpers.telegram_fake import Person, Sent, group_chat, plain_text
from tests.helpers.telegram_world import ALICE, BOB, CAROL, World, telegram_world

PEOPLE = {"alice": ALICE, "bob": BOB, "carol": CAROL}
COMMANDS = ("move", "play", "rules", "start", "leaderboard", "hand", "board", "timer", "daily")
MODERATOR = User("telegram", "0", "Mod", is_moderator=True)


def user_of(person: Person) -> User:
    return User("telegram", str(person.id), person.first_name)


@dataclass
class Table:
    chat: dict[str, Any]
    place: Place
    game_id: int
    board: Sent
    payloads: list[str]
    moves: list[str]


async def set_table(world: World, counter: Any, game: str, open_seat: bool,
                    moves: list[int]) -> Table:
    """A new group with a game set up from the draws, its board posted by the bot (which
    also sends the players to move their hands privately)."""
    number = next(counter)
    chat = group_chat(-100_700_000 - number, f"Fuzz {number}")
    await world.say(ALICE, chat, "hello")  # the fake knows a chat once someone wrote in it
    place = Place("telegram", str(chat["id"]), server=str(chat["id"]))
    service = world.bot.service
    game_id = await hostile.start_fuzzed_game(service, place, (user_of(ALICE), user_of(BOB)),
                                              game, open_seat, moves)
    reply = await service.board(place)
    await world.bot.post_board(place, reply)
    await world.settle()
    return Table(chat, place, game_id, await world.board(chat),
                 await hostile.visible_payloads(service, place, (user_of(ALICE), user_of(BOB))),
                 await hostile.move_texts(service, place))


@dataclass(frozen=True)
class Act:
    person: str
    kind: str  # press, private text, or a command
    where: str = "board"  # a press on the board or on the person's last private message
    data: str = ""
    text: str = ""


def own_kinds(table: Table) -> st.SearchStrategy[str]:
    """The bot's own callback kinds (set-up, rules, settings), forged."""
    return st.one_of(
        st.builds(lambda who, rest: f"p:{who}:{rest}",
                  st.sampled_from([str(ALICE.id), str(CAROL.id), "", "x"]),
                  hostile.near_miss([*game_names(), "lgame:ai-strong", "turing:ai-solo:9",
                                     "turing:open:1", "booleo:open", "-", "lgame:ai-nobody"])),
        hostile.near_miss([f"r:{name}" for name in game_names()]),
        hostile.near_miss(["s:language:de", "s:board:text", "s:language:xx", "s:", "s:board"]))


def draw_act(data: st.DataObject, table: Table) -> Act:
    person = data.draw(st.sampled_from(sorted(PEOPLE)), label="person")
    kind = data.draw(st.sampled_from(["press", "press", "press", "private text", *COMMANDS]),
                     label="kind")
    if kind == "press":
        where = data.draw(st.sampled_from(["board", "private"]), label="where")
        # Explicit weights: one_of leans towards its later branches.
        form = data.draw(st.integers(0, 4), label="data form")
        payload = data.draw(hostile.hostile_payload(table.payloads) if form < 3
                            else own_kinds(table) if form == 3 else hostile.hostile_text(70),
                            label="data")
        # Telegram carries 1-64 bytes of callback data; anything else never arrives.
        payload = payload.encode("utf-8", "surrogatepass")[:64].decode("utf-8", "ignore")
        return Act(person, kind, where, data=payload or "x")
    text = data.draw(st.one_of(hostile.hostile_text(), hostile.near_miss(
        [*table.moves, *game_names(), *hostile.option_texts(), f"hand-{table.game_id}",
         "daily-m1", "07:30", "off", "5 15 forfeit"])), label="text")
    if kind == "play" and hostile.slow_set_up("", text):
        text = "?"
    return Act(person, kind, text=text)


def sent_texts(world: World, mark: int) -> list[str]:
    """The texts of the messages the bot sent or edited since request ``mark``, including
    edits Telegram refused as unchanged (the person still sees that text)."""
    return [plain_text(str(params["text"])) for method, params in world.fake.requests[mark:]
            if method in ("sendMessage", "editMessageText")]


async def perform(world: World, table: Table, act: Act) -> None:
    person = PEOPLE[act.person]
    user = user_of(person)
    record = await world.store.running_game("telegram", table.place.channel)
    if act.kind == "press":
        allowed = hostile.press_may_change(record, user, act.data)
    elif act.kind == "move":
        allowed = hostile.move_may_change(record, user, " ".join(act.text.split())[:200])
    else:
        allowed = False
    near = hostile.ids_near(table.game_id, act.data)
    before = await hostile.snapshot(world.store, near)
    keys = (await world.board(table.chat)).buttons
    mark = len(world.fake.requests)
    refusals = len(world.fake.refusals)
    answers: list[dict[str, Any]] = []
    if act.kind == "press":
        private = world.fake.bot_messages(person.id)
        source = private[-1] if act.where == "private" and private else table.board
        answers = await world.press(person, source, act.data)
        assert len(answers) == 1, (act, answers)
    elif act.kind == "private text":
        await world.say(person, person.private_chat, act.text.strip() or "?")
    else:
        await world.say(person, table.chat, f"/{act.kind} {act.text}")
    assert world.fake.unanswered() == [], act
    texts = [str(answer.get("text", "")) for answer in answers] + sent_texts(world, mark)
    assert any(text.strip() for text in texts), f"no answer to {act}"
    for text in texts:
        assert not any(apology in text for apology in hostile.INTERNAL_APOLOGIES), (act, text)
    refused = [r for r in world.fake.refusals[refusals:] if "not modified" not in r[1]]
    assert refused == [], (act, refused)
    after = await hostile.snapshot(world.store, near)
    changed = hostile.changed_games(before, after) & before.keys()
    assert changed <= ({table.game_id} if allowed else set()), (act, changed)
    if act.person == "carol" and not allowed:
        # Nothing a stranger does takes the game's buttons away or changes them.
        assert (await world.board(table.chat)).buttons == keys, act
        if act.kind == "press":  # and her press is refused in words only she sees (a
            # toast for "you are not playing", an alert for anything she must read)
            assert answers[0].get("text"), (act, answers)
    await world.bot.service.abandon(table.place, MODERATOR)


async def fuzz_telegram(tmp_path: Path, examples: int) -> None:
    async with telegram_world(tmp_path, seed_source=lambda: hostile.SEED) as world:
        for person in (ALICE, BOB):  # they get their hands privately; Carol never started
            await world.say(person, person.private_chat, "/start")
        loop = asyncio.get_running_loop()
        counter = itertools.count(1)

        @hostile.fuzz_settings(examples)
        @given(st.data())
        def example(data: st.DataObject) -> None:
            game, open_seat, moves = hostile.draw_table(data)
            table = hostile.on_loop(loop, set_table(world, counter, game, open_seat, moves))
            hostile.on_loop(loop, perform(world, table, draw_act(data, table)))

        await hostile.run_in_thread(example)


async def test_hostile_telegram_updates(tmp_path: Path) -> None:
    await fuzz_telegram(tmp_path, hostile.FAST_EXAMPLES)


@pytest.mark.slow
async def test_many_hostile_telegram_updates(tmp_path: Path) -> None:
    await fuzz_telegram(tmp_path, hostile.SLOW_EXAMPLES)


async def test_a_lone_surrogate_in_a_typed_move_still_gets_an_answer(tmp_path: Path) -> None:
    """Found by the fuzzing: refusals quote what was typed, and a lone surrogate (a UTF-16
    pair cut in two, or bytes decoded leniently) made the HTTP client's UTF-8 encoding fail,
    so the refusal was never sent. Outgoing text now carries U+FFFD in its place."""
    async with telegram_world(tmp_path) as world:
        table = await set_table(world, itertools.count(1), "lgame", False, [])
        await world.say(ALICE, table.chat, "/move c4\udc80")
        await world.say(ALICE, table.chat, "/play \ud83d")
        answers = [m.text for m in world.fake.bot_messages(table.chat["id"])[-2:]]
        assert "c4\ufffd" in answers[0] and "\ufffd" in answers[1], answers
        assert world.fake.refusals == []


def test_outgoing_text_never_carries_a_lone_surrogate() -> None:
    from bot.adapters.common import valid_unicode
    from bot.adapters.discord.markdown import fit_content
    from bot.adapters.telegram.layout import Block, alert_text, split_text

    assert valid_unicode("a\udc80b\ud83d") == "a\ufffdb\ufffd"
    assert valid_unicode("ok 💥") == "ok 💥"
    for text in (Block("x\udcff").html(), alert_text("\udcff"), *split_text("y\ud800"),
                 fit_content(["z\udc80"])):
        text.encode("utf-8")  # raises on a lone surrogate


async def test_an_unknown_command_in_a_private_chat_gets_the_help(tmp_path: Path) -> None:
    """Found by the fuzzing: a command the bot lacks, typed in a private chat (where every
    message is for the bot), got no answer at all. In a group it stays unanswered, as it
    may be meant for another bot there."""
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        before = len(world.fake.bot_messages(chat["id"]))
        await world.say(ALICE, chat, "/frobnicate now")
        assert len(world.fake.bot_messages(chat["id"])) == before + 1
        assert "/play" in world.last(chat).text
        group = group_chat(-1_009_999, "Class")
        await world.say(ALICE, group, "/frobnicate")
        assert world.fake.bot_messages(group["id"]) == []


async def test_forged_data_cannot_rewrite_another_message(tmp_path: Path) -> None:
    """Found by the fuzzing: the bot's own set-up buttons edit the message they are on,
    so a stranger's "p:<her id>:-" forged onto the live board turned it into "No game
    started." without buttons; and a stale game button forged onto another bot message (the
    rules menu) replaced that message with "the board moved". Now set-up, rules and settings
    data count only on a message that carries it, and only an older board is retired."""
    async with telegram_world(tmp_path, seed_source=lambda: hostile.SEED) as world:
        table = await set_table(world, itertools.count(1), "lgame", False, [])
        board_text = table.board.text
        stale = table.board.buttons[0]["callback_data"]
        [answer] = await world.press(CAROL, table.board, f"p:{CAROL.id}:-")
        assert answer.get("show_alert") and answer.get("text")
        assert (await world.board(table.chat)).text == board_text
        assert (await world.board(table.chat)).buttons == table.board.buttons
        # Another process moves, so this one's board is one version behind.
        moved = await world.bot.service.move(table.place, user_of(ALICE), table.moves[0])
        assert moved.ok, moved.notice
        await world.say(BOB, table.chat, "/rules")
        rules = world.last(table.chat)
        rules_text = rules.text
        [answer] = await world.press(ALICE, rules, stale)
        assert answer.get("show_alert") and "out of date" in answer["text"]
        assert world.fake.messages[(table.chat["id"], rules.message_id)].text == rules_text


async def test_a_public_menu_button_pressed_in_a_private_chat_is_refused(
        tmp_path: Path) -> None:
    """Found by the fuzzing: a group game's board button (a game without hidden hands)
    forged onto a private message was taken as a press in that group's game, and its menu
    step was answered with nothing at all. Only games with hidden hands send buttons to
    private chats; anything else is refused where it was pressed."""
    async with telegram_world(tmp_path, seed_source=lambda: hostile.SEED) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        table = await set_table(world, itertools.count(1), "lgame", False, [])
        step = next(key["callback_data"] for key in table.board.buttons
                    if key["callback_data"].startswith("m:"))
        [answer] = await world.press(ALICE, world.last(ALICE.private_chat), step)
        assert answer.get("show_alert") and answer.get("text"), answer
