"""The numbered migrations of both databases, written once (issue 39): ``MIGRATIONS[i]``
upgrades a database from version ``i``. ``sqlite_schema`` and ``postgres_schema`` render
them in their database's words (``migrations``) and apply them, each in one transaction
with its version stamp.

A migration that has been released is never changed, only followed by a new one: the
databases out there were built by it. ``tests/bot/store/test_schema.py`` holds each
rendered migration's fingerprint, so a change to one (or to a word it uses) fails there.

The words in braces are each database's own:

* ``{id}``: a table's own id, numbered by the database; ``{bigint}``: a 64-bit integer (a
  game id, a seed); ``{real}``: a float; ``{json}``: the JSON that queries look into
  (``games.players``; SQLite keeps text, PostgreSQL ``jsonb``); ``{bool}``: a boolean;
  ``{unlogged}``: a table whose rows may be lost in a crash;
* ``{log_each_move}``, ``{rate_each_result}``: the triggers (SQLite's own statement, a
  PL/pgSQL function and its trigger on PostgreSQL), and ``{lock_game}`` migration 11.

The rules live in the database on both: the partial unique index is "one running game
per channel"; ``log_each_move`` writes a save's move in the save's own statement;
``rate_each_result`` keeps ``ratings`` from the ``results`` insert, so a game is counted
once (the primary key) with its ratings, or not at all. Times are ISO text on both, so both
databases return the very same values, and ``migrate-db`` copies rows verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping

# The move a save carries, appended to its game's log by the trigger ``log_each_move``.
LOG_MOVE = """INSERT INTO moves (game_id, version, seat, kind, action, at)
        VALUES (NEW.id, NEW.version, NEW.last_seat, NEW.last_kind, NEW.last_action,
                NEW.updated_at);"""

MIGRATIONS: list[str] = [
    # 1: games, their move log, and per-channel settings. ``log_each_move`` appends the
    # move a save carries to ``moves`` in the save's own statement (``LOG_MOVE``).
    """
    CREATE TABLE games (
        id          {id},
        platform    TEXT    NOT NULL,
        channel     TEXT    NOT NULL,
        game        TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        seed        {bigint} NOT NULL,
        state       TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        players     {json}    NOT NULL,
        status      TEXT    NOT NULL
                    CHECK (status IN ('waiting', 'active', 'finished', 'abandoned')),
        board_ref   TEXT,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        last_seat   INTEGER,
        last_kind   TEXT,
        last_action TEXT
    );
    CREATE UNIQUE INDEX one_running_game_per_channel
        ON games (platform, channel) WHERE status IN ('waiting', 'active');
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE moves (
        game_id  {bigint} NOT NULL REFERENCES games (id),
        version  INTEGER NOT NULL,
        seat     INTEGER,
        kind     TEXT    NOT NULL,
        action   TEXT    NOT NULL,
        at       TEXT    NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    {log_each_move}
    CREATE TABLE channel_settings (
        platform TEXT NOT NULL,
        channel  TEXT NOT NULL,
        key      TEXT NOT NULL,
        value    TEXT NOT NULL,
        PRIMARY KEY (platform, channel, key)
    );
    """,
    # 2: the daily Turing Machine challenge: where it is posted, and who played it.
    """
    CREATE TABLE daily_schedules (
        platform    TEXT NOT NULL,
        channel     TEXT NOT NULL,
        server      TEXT NOT NULL,
        post_time   TEXT NOT NULL,
        language    TEXT NOT NULL,
        last_posted TEXT,
        PRIMARY KEY (platform, channel)
    );
    CREATE TABLE daily_attempts (
        day          TEXT    NOT NULL,
        platform     TEXT    NOT NULL,
        user_id      TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        server       TEXT    NOT NULL,
        game_id      {bigint},
        status       TEXT    NOT NULL CHECK (status IN ('playing', 'solved', 'failed')),
        rounds       INTEGER,
        tests        INTEGER,
        beat_machine INTEGER,
        finished_at  TEXT,
        PRIMARY KEY (day, platform, user_id)
    );
    CREATE INDEX daily_attempts_by_server ON daily_attempts (day, server);
    """,
    # 3: results and ratings. ``games.server`` is the Discord guild or Telegram group a game
    # was played in ('' for private chats and older games), for per-server leaderboards and
    # /games. ``results`` has one row per human seat of a finished game; its primary key
    # makes counting a game twice (a restart, a second process) an integrity error. Only
    # user ids and display names are kept about a person.
    """
    ALTER TABLE games ADD COLUMN server TEXT NOT NULL DEFAULT '';
    CREATE INDEX games_by_server ON games (platform, server, status);
    CREATE TABLE results (
        game_id       {bigint} NOT NULL REFERENCES games (id),
        platform      TEXT    NOT NULL,
        user_id       TEXT    NOT NULL,
        name          TEXT    NOT NULL,
        server        TEXT    NOT NULL,
        game          TEXT    NOT NULL,
        opponent      TEXT    NOT NULL CHECK (opponent IN ('human', 'ai')),
        outcome       TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
        rating_before {real},
        rating_after  {real},
        at            TEXT    NOT NULL,
        PRIMARY KEY (game_id, platform, user_id)
    );
    CREATE INDEX results_by_player ON results (platform, user_id, game);
    CREATE INDEX results_by_server ON results (platform, server, game);
    CREATE TABLE ratings (
        platform TEXT    NOT NULL,
        user_id  TEXT    NOT NULL,
        game     TEXT    NOT NULL,
        name     TEXT    NOT NULL,
        rating   {real}    NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (platform, user_id, game)
    );
    {rate_each_result}
    """,
    # 4: turn timers. One row per channel: the game version whose turn is being timed,
    # when this process first saw it, and whether the reminder and the forfeit (or stand-in
    # move) were claimed. Claims are guarded UPDATEs, so a restart or a second process
    # never fires a timer twice, and the start time survives a restart.
    """
    CREATE TABLE turn_timers (
        platform   TEXT    NOT NULL,
        channel    TEXT    NOT NULL,
        game_id    {bigint} NOT NULL,
        version    INTEGER NOT NULL,
        started_at TEXT    NOT NULL,
        reminded   INTEGER NOT NULL DEFAULT 0,
        acted      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (platform, channel)
    );
    """,
    # 5: the channel's newest games first, for ``last_finished_game`` (every /rematch).
    # Without it SQLite read every game of the platform through ``games_by_server`` and
    # sorted them; ``id`` in the index gives the order, so it reads the channel's games
    # from the newest until the first finished one.
    """
    CREATE INDEX games_by_channel ON games (platform, channel, id);
    """,
    # 6: who plays a computer turn. One row per game: the version whose computer move a
    # process claimed, the claimant, and when the claim lapses (seconds since 1970, the
    # database's own clock), so that another process takes the turn over when one dies.
    """
    CREATE TABLE computer_turn_leases (
        game_id    {bigint} PRIMARY KEY,
        version    INTEGER NOT NULL,
        holder     TEXT    NOT NULL,
        expires_at {real}    NOT NULL
    );
    """,
    # 7: per-person rate buckets shared by the processes on one database (issue 26): the
    # tokens left and when they were counted (seconds since 1970, the database's clock).
    # A single process keeps its buckets in memory instead (``Service.rate_refusal``); the
    # table is here so that both stores behave the same. Unlogged on PostgreSQL: a bucket
    # is worth nothing after a crash (it refills within seconds), so its writes skip the WAL.
    """
    CREATE {unlogged}TABLE rate_buckets (
        platform TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        tokens   {real} NOT NULL,
        at       {real} NOT NULL,
        allowed  {bool} NOT NULL,
        PRIMARY KEY (platform, user_id)
    );
    """,
    # 8: tournaments (issue 27). One row per tournament: its bracket and settings as JSON,
    # a version guarding every save as in ``games`` (two processes cannot both advance a
    # round), and the message showing sign-ups and standings; one open per channel.
    """
    CREATE TABLE tournaments (
        id          {id},
        platform    TEXT    NOT NULL,
        server      TEXT    NOT NULL,
        channel     TEXT    NOT NULL,
        status      TEXT    NOT NULL,
        state       TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        message_ref TEXT,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX one_open_tournament ON tournaments (platform, channel)
        WHERE status IN ('signup', 'running', 'paused');
    CREATE INDEX tournaments_by_server ON tournaments (platform, server, id);
    """,
    # 9: assignments (issue 27): work set for a class (a server or group) with a deadline
    # day; the task as JSON (``bot.classroom.assignments.Task``). Progress is not stored: it is
    # counted from the games finished in the assignment's window, which the index on
    # finished games by time finds without reading the others.
    """
    CREATE TABLE assignments (
        id         {id},
        platform   TEXT    NOT NULL,
        server     TEXT    NOT NULL,
        channel    TEXT    NOT NULL,
        task       TEXT    NOT NULL,
        created_by TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        deadline   TEXT    NOT NULL,
        status     TEXT    NOT NULL
    );
    CREATE INDEX assignments_by_server ON assignments (platform, server, status);
    CREATE INDEX games_finished_by_time ON games (platform, status, updated_at);
    """,
    # 10: a daily post's claim is a lease: ``claimed_until`` (UTC, ISO) while the post is
    # being made, NULL once made. A process killed between the claim and the post leaves
    # a lease that runs out, and another process posts the day after all.
    """
    ALTER TABLE daily_schedules ADD COLUMN claimed_until TEXT;
    """,
    # 11: PostgreSQL's game lock and the game's read in one round trip (the function
    # ``logic_bot_lock_game``, ``PostgresStore.game_lock``); nothing on SQLite, whose
    # lock stays in the process. The numbers stay the same on both databases.
    "{lock_game}",
    # 12: the puzzle trainer (issue 41, ``bot/store/puzzle_rows.py``). An attempt keeps its
    # puzzle's JSON (never shown: the proof, a card game's whole deal) and its first
    # answer; a person has one open puzzle per game and one puzzle of the day per game and
    # day. Ratings are Glicko-2, per person and game, and per puzzle (its share code).
    """
    CREATE TABLE puzzle_attempts (
        id            {id},
        platform      TEXT    NOT NULL,
        user_id       TEXT    NOT NULL,
        name          TEXT    NOT NULL,
        server        TEXT    NOT NULL,
        game          TEXT    NOT NULL,
        code          TEXT    NOT NULL,
        themes        TEXT    NOT NULL,
        theme         TEXT    NOT NULL,
        daily         TEXT    NOT NULL,
        puzzle        TEXT    NOT NULL,
        status        TEXT    NOT NULL,
        answer        TEXT,
        verdict       TEXT,
        started_at    TEXT    NOT NULL,
        answered_at   TEXT,
        rating_before {real},
        rating_after  {real}
    );
    CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (platform, user_id, game, id);
    CREATE UNIQUE INDEX one_open_puzzle ON puzzle_attempts (platform, user_id, game)
        WHERE status = 'open' AND daily = '';
    CREATE UNIQUE INDEX one_puzzle_of_the_day ON puzzle_attempts (platform, user_id, game,
        daily) WHERE daily <> '';
    CREATE INDEX puzzle_attempts_by_day ON puzzle_attempts (daily, game) WHERE daily <> '';
    CREATE INDEX puzzle_answers_by_time ON puzzle_attempts (platform, answered_at)
        WHERE status = 'solved';
    CREATE TABLE puzzle_players (
        platform    TEXT    NOT NULL,
        user_id     TEXT    NOT NULL,
        game        TEXT    NOT NULL,
        rating      {real}    NOT NULL,
        deviation   {real}    NOT NULL,
        volatility  {real}    NOT NULL,
        tried       INTEGER NOT NULL,
        solved      INTEGER NOT NULL,
        streak      INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        PRIMARY KEY (platform, user_id, game)
    );
    CREATE TABLE puzzle_ratings (
        code       TEXT    PRIMARY KEY,
        game       TEXT    NOT NULL,
        rating     {real}    NOT NULL,
        deviation  {real}    NOT NULL,
        volatility {real}    NOT NULL,
        tried      INTEGER NOT NULL,
        solved     INTEGER NOT NULL
    );
    """,
    # 13: a scheduled daily post per channel and game (issue 41): ``game`` is whose puzzle
    # of the day is posted, 'turing' for the daily challenge, which every older schedule
    # was. The key becomes (platform, channel, game), so the table is made anew (SQLite
    # cannot change a primary key) and the rows are copied as they were.
    """
    CREATE TABLE daily_schedules_by_game (
        platform      TEXT NOT NULL,
        channel       TEXT NOT NULL,
        game          TEXT NOT NULL,
        server        TEXT NOT NULL,
        post_time     TEXT NOT NULL,
        language      TEXT NOT NULL,
        last_posted   TEXT,
        claimed_until TEXT,
        PRIMARY KEY (platform, channel, game)
    );
    INSERT INTO daily_schedules_by_game (platform, channel, game, server, post_time,
        language, last_posted, claimed_until)
        SELECT platform, channel, 'turing', server, post_time, language, last_posted,
               claimed_until FROM daily_schedules;
    DROP TABLE daily_schedules;
    ALTER TABLE daily_schedules_by_game RENAME TO daily_schedules;
    """,
]


def migrations(words: Mapping[str, str]) -> list[str]:
    """``MIGRATIONS`` in one database's words."""
    return [migration.format_map(words) for migration in MIGRATIONS]
