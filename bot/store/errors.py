"""The store's exceptions, the same for every database."""

from __future__ import annotations


class ChannelBusy(Exception):
    """A channel already holds a running game."""


class NewerSchema(Exception):
    """The database was written by a newer version of the bot."""


class StoreUnavailable(Exception):
    """The database cannot be used: a corrupt, truncated or unreadable file, a read-only
    mount, or a server that refuses or cannot be reached. ``str()`` is one paragraph for
    the person running the bot: what is wrong, where the database is, and what to do
    (restore a backup, fix the permissions, start the server); ``python -m bot`` prints it
    instead of a traceback."""


def unusable_file(path: object, problem: object) -> str:
    """``StoreUnavailable``'s paragraph for a SQLite file."""
    where = "an in-memory database" if str(path) == ":memory:" else f"the file {path}"
    return (f"The bot cannot use its database, {where}: {problem}. If the disk or mount is "
            "read-only, or the file or its folder belongs to another user, give the bot "
            "write access (DATABASE_PATH says where the file is). If the file is damaged "
            "(corrupt, truncated or not a database), stop every bot process, move the file "
            "and any '-wal' and '-shm' files beside it aside, copy your newest backup in its "
            "place and start again; docs/operations.md explains backups and restores. The "
            "bot has not started so as not to make the damage worse.")


def unreachable_server(url: str, problem: object) -> str:
    """``StoreUnavailable``'s paragraph for a PostgreSQL server."""
    return (f"The bot cannot use its PostgreSQL database at {redact(url)}: {problem}. Check "
            "that the server runs and accepts connections from this machine, that the user, "
            "password and database in DATABASE_URL are right and the user may create tables "
            "in it; to restore a backup, use pg_restore as docs/operations.md explains. The "
            "bot has not started.")


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at:
        return url
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else url
