#!/usr/bin/env bash
# Makes sure a PostgreSQL server runs and holds a test role and database, then prints the
# URL the tests use (LOGIC_BOT_TEST_POSTGRES). Idempotent: run it as often as you like.
#
# * A server already answering at the URL (LOGIC_BOT_TEST_POSTGRES, or the default below)
#   is used as it is.
# * Otherwise Debian's cluster 15/main is started with `pg_ctlcluster 15 main start` when
#   it exists (as root), and the role and database are created through the `postgres`
#   superuser's local socket.
# * Where no PostgreSQL exists it prints nothing and exits 0, and the PostgreSQL tests
#   skip (or fail, with LOGIC_BOT_REQUIRE_POSTGRES=1 as CI sets it).
#
# Progress goes to stderr; stdout is the URL alone, so `url=$(scripts/ensure-postgres.sh)`.
set -euo pipefail

role="${LOGIC_BOT_TEST_PG_ROLE:-logic_bot_test}"
password="${LOGIC_BOT_TEST_PG_PASSWORD:-logic_bot_test}"
database="${LOGIC_BOT_TEST_PG_DATABASE:-logic_bot_test}"
port="${LOGIC_BOT_TEST_PG_PORT:-5432}"
url="${LOGIC_BOT_TEST_POSTGRES:-postgresql://$role:$password@127.0.0.1:$port/$database}"

answers() {
    # A TCP connection to the port is enough to know a server listens; the tests find out
    # the rest themselves and say so.
    command -v pg_isready >/dev/null 2>&1 || return 1
    pg_isready -q -h 127.0.0.1 -p "$port" >/dev/null 2>&1
}

as_postgres() {
    # psql as the `postgres` superuser over the local socket (peer authentication).
    if [ "$(id -u)" = 0 ]; then
        su postgres -s /bin/sh -c "psql -X -q -p $port -v ON_ERROR_STOP=1 $*"
    else
        sudo -n -u postgres psql -X -q -p "$port" -v ON_ERROR_STOP=1 "$@"
    fi
}

if [ -n "${LOGIC_BOT_TEST_POSTGRES:-}" ] && answers; then
    echo "$url"
    exit 0
fi

if ! answers; then
    # Debian's cluster 15/main, or else the first cluster Debian knows of.
    cluster=""
    if [ -d /etc/postgresql/15/main ]; then
        cluster="15 main"
    elif command -v pg_lsclusters >/dev/null 2>&1; then
        cluster="$(pg_lsclusters -h 2>/dev/null | awk 'NR == 1 {print $1, $2}')"
    fi
    if [ -n "$cluster" ] && command -v pg_ctlcluster >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "Starting PostgreSQL $cluster…" >&2
        # shellcheck disable=SC2086  # "version name", two arguments
        pg_ctlcluster $cluster start >&2 || true
        for _ in $(seq 1 50); do
            answers && break
            sleep 0.2
        done
    fi
fi

if ! answers; then
    echo "No PostgreSQL found: its tests will skip." >&2
    exit 0
fi

if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
    exists=$(as_postgres -tA -c "\"SELECT 1 FROM pg_roles WHERE rolname='$role'\"" || true)
    if [ "$exists" != "1" ]; then
        echo "Creating the role $role…" >&2
        as_postgres -c "\"CREATE ROLE $role LOGIN PASSWORD '$password' CREATEDB\""
    fi
    exists=$(as_postgres -tA -c "\"SELECT 1 FROM pg_database WHERE datname='$database'\"" \
        || true)
    if [ "$exists" != "1" ]; then
        echo "Creating the database $database…" >&2
        as_postgres -c "\"CREATE DATABASE $database OWNER $role\""
    fi
fi
echo "$url"
