"""Discord shards (issue 26.5): ``SHARD_COUNT`` and ``SHARD_IDS`` make the process an
``AutoShardedClient`` on those shards only, through discord.py's own sharding, and a game
is played on a server of its shard as on an unsharded bot."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.adapters.discord import LogicBot, ShardedLogicBot, build_discord
from bot.app import App
from bot.config import Settings, load_settings
from bot.limits import Limits
from bot.store import SQLiteStore
from tests.helpers.discord_strict import strict_run


def settings_of(**environ: str) -> tuple[Settings, list[str]]:
    warnings: list[str] = []
    return load_settings(environ, env_file=None, warn=warnings.append), warnings


def test_shard_settings_are_read_and_checked() -> None:
    assert settings_of()[0].shard_count == 0
    settings, warnings = settings_of(SHARD_COUNT="4", SHARD_IDS="0-1,3")
    assert (settings.shard_count, settings.shard_ids, warnings) == (4, (0, 1, 3), [])
    settings, _ = settings_of(SHARD_COUNT="2")
    assert settings.shard_ids == (0, 1), "every shard when SHARD_IDS is unset"
    for environ in ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, {"SHARD_COUNT": "two"},
                    {"SHARD_IDS": "1"}, {"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}):
        settings, warnings = settings_of(**environ)
        assert settings.shard_count == 0 and len(warnings) == 1, environ
        assert "no shards" in warnings[0]


async def test_a_process_runs_its_shards_and_plays_on_their_servers(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "shard.sqlite3")
    settings = Settings(database_path=str(tmp_path / "shard.sqlite3"), shard_count=2,
                        shard_ids=(1,))
    bot = build_discord(App.build(settings, store, seed_source=itertools.count(1).__next__,
                                  limits=Limits.unlimited()))
    assert isinstance(bot, ShardedLogicBot) and isinstance(bot, LogicBot)
    bot.run_turn_timers = False
    bot.run_daily_schedule = False
    try:
        async with strict_run(bot) as env:
            assert (bot.shard_count, bot.shard_ids) == (2, [1])
            mine = env.create_guild("Class 4A", shard_id=1)
            other = env.create_guild("Class 4B", shard_id=0)
            assert bot.get_guild(mine.id) is not None
            assert bot.get_guild(other.id) is None, "shard 0's servers are another process's"
            channel = mine.create_text_channel("games")
            alice = mine.add_member(env.create_user("alice"))
            started = await alice.slash(channel, "play", game="lgame", level="easy")
            assert started.acknowledged and not started.ephemeral

            await bot.wait_for_background()
            record = await store.running_game("discord", str(channel.id))
            assert record is not None and record.game == "lgame"
            assert record.board_ref is not None, "its board was posted in the channel"
    finally:
        await bot.wait_for_background()
        await store.close()
