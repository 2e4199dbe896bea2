"""The store's frequent reads use an index: checked on SQLite's own query plan of the very
statement the store sends, so a changed query or a dropped index shows here, not as a slow
bot (the suite is no place for timing)."""

from __future__ import annotations

from bot.store import SQLiteStore


async def test_a_rematch_reads_the_channel_s_games_by_index_without_sorting(
        sqlite_store: SQLiteStore) -> None:
    store = sqlite_store
    sent: list[str] = []
    await store._db.set_trace_callback(sent.append)  # the statements, parameters filled in
    assert await store.last_finished_game("test", "c1") is None
    await store._db.set_trace_callback(None)
    [query] = [s for s in sent if s.lstrip().upper().startswith("SELECT")]
    async with store._db.execute(f"EXPLAIN QUERY PLAN {query}") as cursor:
        plan = " | ".join(str(row[3]) for row in await cursor.fetchall())
    assert "USING INDEX games_by_channel (platform=? AND channel=?)" in plan, plan
    assert "TEMP B-TREE" not in plan, plan
