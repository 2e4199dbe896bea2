"""The shared statements' spelling per database (``bot/store/dialect.py``): named
parameters, list parameters and words. The statements themselves run on both databases in
every other store test (``any_store``)."""

from __future__ import annotations

from bot.store.dialect import POSTGRES, SQLITE

QUERY = ("SELECT name FROM results WHERE platform=:platform AND user_id IN (:users) "
         "AND at{bytewise} > ':not_a_parameter' AND note='[]'::jsonb IS NOT NULL "
         "AND server=:platform ORDER BY at{bytewise}")


def test_sqlite_binds_by_name_and_spreads_a_list() -> None:
    text, bound = SQLITE.named(QUERY, {"platform": "test", "users": ["ann", "bo"],
                                       "unused": 1})
    assert "user_id IN (:users_0,:users_1)" in text
    assert "COLLATE" not in text and "{" not in text
    assert bound == {"platform": "test", "users_0": "ann", "users_1": "bo", "unused": 1}
    empty, _ = SQLITE.named(QUERY, {"platform": "test", "users": []})
    assert "user_id IN ()" in empty  # SQLite's empty list: nothing matches


def test_postgres_numbers_each_name_once_and_takes_a_list_as_an_array() -> None:
    text, args = POSTGRES.numbered_args(QUERY, {"users": ("ann",), "platform": "test",
                                                "unused": 1})
    assert text == ("SELECT name FROM results WHERE platform=$1 AND user_id = ANY($2::text[]) "
                    "AND at COLLATE \"C\" > ':not_a_parameter' AND note='[]'::jsonb IS NOT "
                    "NULL AND server=$1 ORDER BY at COLLATE \"C\"")
    assert args == ["test", ["ann"]]


def test_the_words_of_both_databases_are_the_same_words() -> None:
    assert SQLITE.words.keys() == POSTGRES.words.keys()
    for dialect in (SQLITE, POSTGRES):
        assert "kind" in dialect.statement("SELECT {seat[kind]} FROM games, {seats}")
