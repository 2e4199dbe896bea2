"""What a teacher sees: one screenshot per classroom step per platform, for docs/teachers.md.

Run from the repository root. It needs the dev extras (simcord), like
``benchmarks/ux_screens.py``, whose page drawing and screenshots it reuses; progress goes
to stderr::

    python benchmarks/teacher_screens.py [--platforms discord,telegram]
                                         [--out docs/screens/teachers] [--no-screenshots]

A class is run through the real adapters, as in the adapter tests: Discord through
simcord, Telegram through the loopback Bot API fake. A teacher (a Discord member with
the teacher role, a Telegram group admin) and four students take the steps of
``docs/teachers.md`` in order (``STEPS``): the teacher role (Discord) or the group's
settings (Telegram), a lesson (``/learn``), a game against the easy computer, the class
board, an assignment and a student's ``/progress``, the class's progress, the daily
challenge, a tournament from sign-up to round 1, and the export. After each step the
messages that step added are captured as the person named in ``STEPS`` sees them (a
Discord ephemeral answer only by the one who asked; a Telegram private chat only by its
owner) and drawn, unchanged, by ``benchmarks/ux_pages.py`` into one page per platform
(``discord.html``, ``telegram.html``, a section per step); with ``chromium`` on the PATH
each section becomes ``<platform>-<step>.png``, 360 px wide.

Nothing here is made up for the picture: the text and buttons are the bot's own answers
to the commands shown, at a fixed clock (2026-11-30) so that the daily challenge's date
and the assignment's deadline stay the same from run to run.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.progress import Progress
from benchmarks.ux_capture import (
    BOT_NAME,
    blocks_text,
    discord_blocks,
    discord_rows,
    telegram_bubble,
    with_names,
)
from benchmarks.ux_pages import PHONE_WIDTH, page
from benchmarks.ux_scene import Bubble, Scene, Screen
from benchmarks.ux_screens import chromium_command, screenshot

try:
    import discord

    from tests.helpers.clock import FakeClock
    from tests.helpers.discord_text import is_v2
    from tests.helpers.discord_world import World as DiscordWorld
    from tests.helpers.discord_world import components_of, discord_world
    from tests.helpers.puzzle_grid import grid_presses
    from tests.helpers.telegram_fake import Person, Sent
    from tests.helpers.telegram_world import GROUP, telegram_world
    from tests.helpers.telegram_world import World as TelegramWorld
except ImportError as missing:  # simcord is a dev extra: say so instead of a traceback
    sys.exit(f"benchmarks/teacher_screens.py needs the dev extras ({missing.name} is "
             "missing): run ./run-tests once, or .venv/bin/pip install -e '.[dev]'")

PLATFORMS = ("discord", "telegram")
# The steps of docs/teachers.md that have a picture, in the guide's order, with what the
# picture shows.
STEPS: dict[str, str] = {
    "teacher-role": "the teacher role (Discord) or the group's settings (Telegram)",
    "learn": "a student's first lesson, /learn",
    "play-easy": "a student's game against the easy computer",
    "class-board": "the class board",
    "assign": "an assignment, and a student's /progress",
    "progress": "the class's progress, for the teacher",
    "daily": "the daily challenge, scheduled and posted",
    "puzzle": "a student's /puzzle lgame, in private",
    "puzzle-taps": "the answer tapped on the board, as a move in a game",
    "puzzle-wrong": "a wrong first answer, with its reason",
    "puzzle-right": "the next puzzle, answered right, with the rating's change",
    "puzzle-daily": "the L-game's puzzle of the day, scheduled and posted",
    "tournament-signup": "a tournament open for sign-up",
    "tournament": "the tournament started: round 1",
    "export": "the results, exported",
}
DEFAULT_OUT = Path("docs/screens/teachers")
# A Monday morning, before the daily challenge's 07:30 in Brussels (06:30 UTC).
START = dt.datetime(2026, 11, 30, 6, 0, tzinfo=dt.UTC)
DAILY_AT = "07:30 Europe/Brussels"
PUZZLE_AT = "08:00 Europe/Brussels"  # the L-game's puzzle of the day: 07:00 UTC
PUZZLE_GAME = "lgame"
TAPS_SHOWN = 2  # "Tap the board" and the first square of the new L, then the picture
PRIVATE_SHOWN = 2  # the latest messages of a Telegram private chat that are drawn
THREAD_CREATED = 18  # Discord's message type of "… started a thread"


@dataclass
class Step:
    name: str
    viewer: str
    screens: list[Screen]

    def scene(self, platform: str) -> Scene:
        caption = (f"{STEPS[self.name]}: {platform}, as {self.viewer} sees it "
                   f"({PHONE_WIDTH} px wide).")
        return Scene(platform, self.name, self.viewer, 0, self.screens, caption=caption,
                     name=self.name)


# ------------------------------------------------------------------ Discord
class DiscordClass:
    """A server with a head (who may manage it), a teacher with the teacher role, and four
    students; a channel for the class (#class) and one for games (#games)."""

    def __init__(self, world: DiscordWorld) -> None:
        self.world = world
        env, guild = world.env, world.guild
        self.head = guild.add_member(env.create_user("head"), roles=[guild.create_role(
            "Head", permissions=discord.Permissions(manage_guild=True))])
        self.teachers = guild.create_role("Teachers", permissions=discord.Permissions.none())
        self.teacher = guild.add_member(env.create_user("ms-jansen"), roles=[self.teachers])
        self.alice, self.bob, self.carol = world.alice, world.bob, world.carol
        self.dave = guild.add_member(env.create_user("dave"))
        self.room = guild.create_text_channel("class")
        self.games = world.channel
        self.bot_id = world.bot.user.id if world.bot.user is not None else 0

    def mark(self, channel: Any) -> int:
        """The newest message of ``channel`` now: a step's messages come after it."""
        stored = self.world.env.backend.messages.get(channel.id, {})
        return max((int(m.id) for m in stored.values()), default=0)

    def screen(self, channel: Any, since: int, viewer: Any) -> Screen:
        """The messages of ``channel`` after ``since``, as ``viewer`` sees them (the others'
        ephemeral answers left out), as ``ux_capture.discord_screens`` draws a game."""
        backend = self.world.env.backend
        names = {backend_id: user.name for backend_id, user in backend.users.items()}
        stored = backend.messages.get(channel.id, {})
        bubbles: list[Bubble] = []
        for message in sorted(stored.values(), key=lambda m: int(m.id)):
            if int(message.id) <= since or not message.visible_to(viewer.id):
                continue
            meta = message.interaction_metadata or {}
            header = ""
            if meta.get("name"):
                user = (meta.get("user") or {}).get("username", "someone")
                header = f"{user} used /{meta['name']}"
            mine = message.author_id == self.bot_id
            author = BOT_NAME if mine else names.get(message.author_id, "someone")
            components = [dict(c) for c in message.components]
            blocks = discord_blocks(components, names) if is_v2(message) else []
            text = blocks_text(blocks) if blocks else with_names(str(message.content), names)
            if int(message.type) == THREAD_CREATED:  # Discord's own line, in grey
                text = f"🧵 {author} started a thread: **{message.content}**"
            files = [f"{a.get('filename', 'file')} · {max(1, int(a.get('size', 0)) // 1024)} KB"
                     for a in (message.attachments or [])]
            bubbles.append(Bubble(author, text, [] if blocks else discord_rows(components),
                                  blocks, bot=mine, edited=message.edited_timestamp is not None,
                                  private=message.is_ephemeral, header=header, files=files))
        return Screen(f"# {channel.name}", "Class 3B", bubbles)

    async def settle(self) -> None:
        await self.world.bot.app.tournaments.settle()
        await self.world.bot.wait_for_background()

    async def slash(self, who: Any, channel: Any, name: str, **options: Any) -> Any:
        done = await who.slash(channel, name, **options)
        assert done.acknowledged, (name, done)
        await self.settle()
        return done

    async def step(self, name: str, channel: Any, viewer: Any,
                   action: Callable[[], Awaitable[None]], since: int | None = None) -> Step:
        """``action``, then what it added to ``channel`` (after ``since``, when given: a
        step that shows an earlier one's messages too)."""
        since = self.mark(channel) if since is None else since
        await action()
        return Step(name, viewer.name, [self.screen(channel, since, viewer)])


async def discord_steps(world: DiscordWorld, clock: FakeClock) -> list[Step]:
    c = DiscordClass(world)
    world.bot.class_board_delay = 0.0
    world.bot.daily.clock = clock
    steps: list[Step] = []

    async def role() -> None:
        await c.slash(c.head, c.room, "logic-settings teacher-role", role=c.teachers)
    steps.append(await c.step("teacher-role", c.room, c.head, role))

    async def learn() -> None:
        await c.slash(c.alice, c.games, "learn", game="lgame")
    steps.append(await c.step("learn", c.games, c.alice, learn))

    async def easy() -> None:
        await c.slash(c.alice, c.games, "play", game="lgame", level="easy")
    steps.append(await c.step("play-easy", c.games, c.alice, easy))

    # Two classmates play each other: #games is busy, so their game opens a thread.
    await c.slash(c.bob, c.games, "play", game="lgame", opponent=c.carol)

    async def board() -> None:
        await c.slash(c.teacher, c.room, "class-board")
    steps.append(await c.step("class-board", c.room, c.teacher, board))

    async def assign() -> None:
        await c.slash(c.teacher, c.room, "assign", task="finish", game="lgame", count=2,
                      deadline="7")
        thread = next(t for t in c.games.threads)
        await c.slash(c.carol, thread, "resign")
        await c.slash(c.bob, c.room, "progress")
    steps.append(await c.step("assign", c.room, c.bob, assign))

    async def progress() -> None:
        await c.slash(c.teacher, c.room, "progress", everyone=True)
    steps.append(await c.step("progress", c.room, c.teacher, progress))

    async def daily() -> None:
        await c.slash(c.teacher, c.room, "daily", schedule=DAILY_AT)
        clock.now = START.replace(hour=6, minute=31)
        posted = await world.bot.post_daily_due()
        assert posted == 1, posted
        await c.settle()
    steps.append(await c.step("daily", c.room, c.teacher, daily))
    steps += await discord_puzzle_steps(c, clock)

    before = c.mark(c.room)

    async def sign_up() -> None:
        await c.slash(c.teacher, c.room, "tournament create", game="lgame",
                      format="round_robin")
        message = next(m for m in reversed(c.room.history())
                       if m.content.startswith("🏆 Tournament #"))
        [button] = [x["custom_id"] for x in components_of(message)
                    if str(x.get("custom_id", "")).startswith("lt:")]
        for student in (c.alice, c.bob, c.carol, c.dave):
            signed = await student.click(message, custom_id=button)
            assert signed.acknowledged, signed
        await c.settle()
    steps.append(await c.step("tournament-signup", c.room, c.teacher, sign_up))

    async def start() -> None:
        await c.slash(c.teacher, c.room, "tournament start")
    steps.append(await c.step("tournament", c.room, c.teacher, start, since=before))

    async def export() -> None:
        await c.slash(c.teacher, c.room, "export")
    steps.append(await c.step("export", c.room, c.teacher, export))
    return steps


async def discord_puzzle_steps(c: DiscordClass, clock: FakeClock) -> list[Step]:
    """A student's puzzles in a message only she sees: the puzzle, a wrong first answer
    tapped on the board, the next puzzle right; then the L-game's puzzle of the day."""
    world = c.world
    steps: list[Step] = []
    since = c.mark(c.games)
    shown: list[Any] = []

    async def puzzle() -> None:
        done = await c.slash(c.alice, c.games, "puzzle", game=PUZZLE_GAME)
        shown.append(done.response)
    steps.append(await c.step("puzzle", c.games, c.alice, puzzle))

    async def answer(right: bool, first: int = 0, last: int | None = None) -> None:
        """Tap the answer (``right`` or a wrong one) on the board: its presses from
        ``first`` to ``last``, "Tap the board" being the first."""
        attempt = await world.store.open_puzzle("discord", str(c.alice.id), PUZZLE_GAME)
        assert attempt is not None
        message = shown[-1]
        for data in grid_presses(attempt, right)[first:last]:
            message = (await c.alice.click(message, custom_id=f"lp:{data}")).response
        shown.append(message)

    async def taps() -> None:
        await answer(False, last=TAPS_SHOWN)
    steps.append(await c.step("puzzle-taps", c.games, c.alice, taps, since=since))

    async def wrong() -> None:
        await answer(False, first=TAPS_SHOWN)
    steps.append(await c.step("puzzle-wrong", c.games, c.alice, wrong, since=since))

    async def right() -> None:
        [next_id] = [x["custom_id"] for x in components_of(shown[-1])
                     if str(x.get("custom_id", "")).endswith(":n")]
        shown.append((await c.alice.click(shown[-1], custom_id=next_id)).response)
        await answer(True)
    steps.append(await c.step("puzzle-right", c.games, c.alice, right, since=since))

    async def daily() -> None:
        await c.slash(c.teacher, c.room, "daily", game=PUZZLE_GAME, schedule=PUZZLE_AT)
        clock.now = START.replace(hour=7, minute=1)
        posted = await world.bot.post_daily_due()
        assert posted == 1, posted
        await c.settle()
    steps.append(await c.step("puzzle-daily", c.room, c.teacher, daily))
    return steps


# ------------------------------------------------------------------ Telegram
TEACHER = Person(4001, "Ms Jansen")
STUDENTS = (Person(4002, "Ann", username="ann"), Person(4003, "Ben"), Person(4004, "Cem"),
            Person(4005, "Dana"))


class TelegramClass:
    """The group "Class 3B" with its admin, the teacher, and four students who have each
    pressed Start in the bot's private chat."""

    def __init__(self, world: TelegramWorld) -> None:
        self.world = world
        self.group = GROUP
        world.fake.admins[GROUP["id"]] = {TEACHER.id}

    def mark(self, chat_id: int) -> int:
        return max((m.message_id for m in self.world.fake.chat_messages(chat_id)), default=0)

    def bubbles(self, chat_id: int, since: int) -> list[Bubble]:
        fake = self.world.fake
        documents = {(chat, caption): name for chat, name, _, caption in fake.documents}
        bubbles = []
        for sent in fake.chat_messages(chat_id):
            if sent.message_id <= since:
                continue
            bubble = telegram_bubble(sent)
            name = documents.get((chat_id, sent.html)) if self.is_document(sent) else None
            if name is not None:
                bubble.files = [name]
            bubbles.append(bubble)
        return bubbles

    def is_document(self, sent: Sent) -> bool:
        return sent.reply_markup is None and any(
            chat == sent.chat["id"] and caption == sent.html
            for chat, _, _, caption in self.world.fake.documents)

    async def step(self, name: str, viewer: Person,
                   action: Callable[[], Awaitable[None]], private: bool = False,
                   since: int | None = None, private_since: int | None = None) -> Step:
        """``action``, then what it added to the group (after ``since``, when given), and
        with ``private`` the viewer's private chat (after ``private_since``, when given:
        a message an earlier step sent and this one changed)."""
        since = self.mark(self.group["id"]) if since is None else since
        mine = self.mark(viewer.id) if private_since is None else private_since
        await action()
        await self.world.settle()
        screens = [Screen(str(self.group["title"]), "6 members",
                          self.bubbles(self.group["id"], since))]
        if private:
            shown = self.bubbles(viewer.id, mine)
            # The private chat's own commands and answers, the latest few.
            screens.append(Screen(BOT_NAME, f"bot · private chat with {viewer.first_name}",
                                  shown[-PRIVATE_SHOWN:]))
        if not screens[0].bubbles:
            screens = screens[1:]
        return Step(name, viewer.first_name, screens)

    async def say(self, person: Person, text: str, reply_to: Sent | None = None) -> Sent:
        return await self.world.say(person, self.group, text, reply_to=reply_to)


async def telegram_steps(world: TelegramWorld, clock: FakeClock) -> list[Step]:
    c = TelegramClass(world)
    ann, ben, cem, _ = STUDENTS
    for person in (TEACHER, *STUDENTS):
        await world.say(person, person.private_chat, "/start")
    world.bot.class_board_delay = 0.0
    steps: list[Step] = []

    async def settings() -> None:
        await c.say(TEACHER, "/settings")
    steps.append(await c.step("teacher-role", TEACHER, settings))

    async def learn() -> None:
        await c.say(ann, "/learn lgame")
    steps.append(await c.step("learn", ann, learn, private=True))

    async def easy() -> None:
        await c.say(ann, "/play lgame easy")
    steps.append(await c.step("play-easy", ann, easy))

    # Two classmates play each other at a table of their own in the same group.
    invitation = await c.say(cem, "Ben, a game?")
    await c.say(ben, "/play lgame", reply_to=invitation)

    async def board() -> None:
        await c.say(TEACHER, "/classboard")
    steps.append(await c.step("class-board", TEACHER, board))

    async def assign() -> None:
        await c.say(TEACHER, "/assign finish 2 lgame in 7")
        await c.say(cem, "/resign")
        await c.say(ben, "/progress")
    steps.append(await c.step("assign", ben, assign, private=True))

    async def progress() -> None:
        await c.say(TEACHER, "/progress all")
    steps.append(await c.step("progress", TEACHER, progress, private=True))

    async def daily() -> None:
        await c.say(TEACHER, f"/daily {DAILY_AT}")
        clock.now = START.replace(hour=6, minute=31)
        posted = await world.bot.post_daily_due()
        assert posted == 1, posted
    steps.append(await c.step("daily", TEACHER, daily))
    steps += await telegram_puzzle_steps(c, clock)

    before = c.mark(c.group["id"])

    async def sign_up() -> None:
        await c.say(TEACHER, "/tournament create lgame")
        message = next(m for m in reversed(world.fake.bot_messages(c.group["id"]))
                       if m.text.startswith("🏆 Tournament #"))
        for student in STUDENTS:
            await world.click(student, message, "Sign up")
    steps.append(await c.step("tournament-signup", TEACHER, sign_up))

    async def start() -> None:
        await c.say(TEACHER, "/tournament start")
        await world.bot.app.tournaments.settle()
    steps.append(await c.step("tournament", TEACHER, start, since=before))

    async def export() -> None:
        await c.say(TEACHER, "/export")
    steps.append(await c.step("export", TEACHER, export, private=True))
    return steps


async def telegram_puzzle_steps(c: TelegramClass, clock: FakeClock) -> list[Step]:
    """A student's puzzles in her private chat: the puzzle, a wrong first answer tapped
    on the board, the next puzzle right; then the L-game's puzzle of the day."""
    world = c.world
    ann = STUDENTS[0]
    steps: list[Step] = []
    since = c.mark(ann.id)

    async def puzzle() -> None:
        await world.say(ann, ann.private_chat, f"/puzzle {PUZZLE_GAME}")
    steps.append(await c.step("puzzle", ann, puzzle, private=True))
    page = world.last(ann.private_chat)

    async def answer(right: bool, first: int = 0, last: int | None = None) -> None:
        attempt = await world.store.open_puzzle("telegram", str(ann.id), PUZZLE_GAME)
        assert attempt is not None
        for data in grid_presses(attempt, right)[first:last]:
            await world.press(ann, world.fake.messages[(page.chat["id"], page.message_id)],
                              f"z:{data}")

    async def taps() -> None:
        await answer(False, last=TAPS_SHOWN)
    steps.append(await c.step("puzzle-taps", ann, taps, private=True, private_since=since))

    async def wrong() -> None:
        await answer(False, first=TAPS_SHOWN)
    steps.append(await c.step("puzzle-wrong", ann, wrong, private=True, private_since=since))

    async def right() -> None:
        shown = world.fake.messages[(page.chat["id"], page.message_id)]
        [next_key] = [key["callback_data"] for key in shown.buttons
                      if str(key.get("callback_data", "")).endswith(":n")]
        await world.press(ann, shown, next_key)
        await answer(True)
    steps.append(await c.step("puzzle-right", ann, right, private=True, private_since=since))

    async def daily() -> None:
        await c.say(TEACHER, f"/daily {PUZZLE_GAME} {PUZZLE_AT}")
        clock.now = START.replace(hour=7, minute=1)
        posted = await world.bot.post_daily_due()
        assert posted == 1, posted
    steps.append(await c.step("puzzle-daily", TEACHER, daily))
    return steps


# ------------------------------------------------------------------ main
async def capture(platform: str) -> list[Step]:
    clock = FakeClock(START)
    with tempfile.TemporaryDirectory() as folder:
        if platform == "discord":
            async with discord_world(Path(folder), clock=clock) as world:
                return await discord_steps(world, clock)
        async with telegram_world(Path(folder), clock=clock) as telegram:
            return await telegram_steps(telegram, clock)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--platforms", default=",".join(PLATFORMS),
                        help="comma-separated: discord, telegram")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder for the pages and PNGs (default: {DEFAULT_OUT})")
    parser.add_argument("--no-screenshots", action="store_true",
                        help="write the pages only, even if chromium is installed")
    args = parser.parse_args()
    chosen = [word.strip() for word in args.platforms.split(",") if word.strip()]
    if not chosen or set(chosen) - set(PLATFORMS):
        parser.error(f"--platforms: choose from {', '.join(PLATFORMS)}")
    args.platforms = chosen
    return args


def main() -> None:
    args = arguments()
    began = time.perf_counter()
    progress = Progress("teacher screens")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    scenes: dict[str, list[Scene]] = {}
    for platform in args.platforms:
        steps = asyncio.run(capture(platform))
        scenes[platform] = [step.scene(platform) for step in steps]
        for step in steps:
            progress.say(f"{platform} {step.name}: "
                         f"{sum(len(s.bubbles) for s in step.screens)} messages, as "
                         f"{step.viewer} sees them")
        path = out / f"{platform}.html"
        path.write_text(page(platform, scenes[platform], seed=0, captions=False),
                        encoding="utf-8")
        progress.say(f"wrote {path}")
    binary = None if args.no_screenshots else chromium_command()
    if binary is None:
        print(f"No chromium on the PATH (or --no-screenshots): the pages are in {out}",
              file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as profile:
        for platform, shown in scenes.items():
            for scene in shown:
                png = out / f"{platform}-{scene.anchor}.png"
                png.unlink(missing_ok=True)
                url = f"{(out / f'{platform}.html').resolve().as_uri()}#{scene.anchor}"
                height, _, _ = screenshot(binary, url, png, Path(profile))
                progress.say(f"{png}: {PHONE_WIDTH}x{height}, "
                             f"{png.stat().st_size // 1024} KB")
    print(f"{time.perf_counter() - began:.0f} s; pages and screenshots in {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
