#!/usr/bin/env bash
# Issue 13's load run: a throwaway PostgreSQL, two `bgtrack serve` processes on it (release build,
# 127.0.0.1), and `bgtrack load` driving both; everything is stopped and removed at the end.
#
#   bash scripts/load-two-servers.sh                       # 500 devices, 10 minutes, 500-point batches
#   bash scripts/load-two-servers.sh --devices 50 --duration 30s --protocol owntracks --batch 1
#
# Arguments are passed to `bgtrack load` after the defaults, so they override them. The exit status
# is bgtrack load's: 0 only with no error, no sample lost, none duplicated.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --package-path Tools --traits Postgres -c release --product bgtrack >/dev/null
bin=$(swift build --package-path Tools --traits Postgres -c release --show-bin-path)/bgtrack

pg_dir=$(mktemp -d)
logs=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    bash scripts/postgres-temp.sh stop "$pg_dir"
    rm -rf "$logs"
}
trap cleanup EXIT

url=$(bash scripts/postgres-temp.sh start "$pg_dir")
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ports=()
for n in 1 2; do
    port=$(free_port)
    "$bin" serve --postgres "$url" --port "$port" --log-level warning >"$logs/server-$n.log" 2>&1 &
    pids+=("$!")
    ports+=("$port")
done
for port in "${ports[@]}"; do
    for _ in $(seq 1 300); do
        curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
        sleep 0.2
    done
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || {
        echo "load-two-servers: the server on port $port did not come up; its log:" >&2
        cat "$logs"/server-*.log >&2
        exit 1
    }
done
echo "PostgreSQL ${url#postgres://}; servers on 127.0.0.1:${ports[0]} and 127.0.0.1:${ports[1]}" >&2
status=0
"$bin" load --server "http://127.0.0.1:${ports[0]}" --server "http://127.0.0.1:${ports[1]}" --postgres "$url" \
    --devices 500 --duration 10m --batch 500 --protocol native "$@" || status=$?
if grep -qiE "error|critical" "$logs"/server-*.log; then
    echo "the servers logged errors:" >&2
    grep -iE "error|critical" "$logs"/server-*.log | head -20 >&2
fi
exit "$status"
