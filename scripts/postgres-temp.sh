#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for tests: `postgres-temp.sh start DIR` initialises a cluster in DIR (an
# empty or missing directory), starts it on 127.0.0.1 at a free port as an unprivileged user, creates
# the database bgtrack_test and prints its URL; `postgres-temp.sh stop DIR` stops it and removes DIR.
#
#   dir=$(mktemp -d); url=$(bash scripts/postgres-temp.sh start "$dir")
#   BGTRACK_TEST_POSTGRES_URL=$url swift test --package-path Tools --disable-xctest --filter TrackServerTests
#   bash scripts/postgres-temp.sh stop "$dir"
#
# Trust authentication on loopback only: a test cluster, never a server to keep.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin
command -v pg_ctl >/dev/null 2>&1 && bin=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
[ -x "$bin/initdb" ] || {
    echo "postgres-temp: initdb not found in $bin; install PostgreSQL 15 (apt-get install postgresql-15)" >&2
    exit 1
}

# PostgreSQL refuses to run as root: as root, run it as the `postgres` user (Debian's package
# creates it) or a `bgtrack-pg` user made here.
as_user() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
    else
        local user=postgres
        if ! id -u "$user" >/dev/null 2>&1; then
            user=bgtrack-pg
            id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
        fi
        runuser -u "$user" -- "$@"
    fi
}

cmd=${1:-}
dir=${2:-}
[ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

case "$cmd" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        owner=postgres
        id -u postgres >/dev/null 2>&1 || owner=bgtrack-pg
        as_user true
        chown "$owner" "$dir"
    fi
    chmod 700 "$dir"
    as_user "$bin/initdb" -D "$dir/data" -U bgtrack --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    # A free port: try a few random ones above the usual services.
    for _ in $(seq 1 20); do
        port=$((20000 + RANDOM % 30000))
        if as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=200" \
            start >/dev/null 2>&1; then
            echo "$port" >"$dir/port"
            as_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U bgtrack bgtrack_test
            echo "postgres://bgtrack@127.0.0.1:$port/bgtrack_test"
            exit 0
        fi
    done
    echo "postgres-temp: PostgreSQL did not start; its log:" >&2
    cat "$dir/server.log" >&2 || true
    exit 1
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_user "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
