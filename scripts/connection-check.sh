#!/usr/bin/env bash
# Starts `bgtrack serve` with a 1,024 soft open-file limit (serve raises it) and short timeouts,
# then runs scripts/connection-check.py against it: silent and slowloris sockets, a keep-alive
# burst, and oversized uploads of 10, 20 and 100 MiB with and without `Connection: close` (each
# must get its 413 and a closed socket). Usage: scripts/connection-check.sh [BGTRACK]
# [extra connection-check.py flags, e.g. --only-oversized]. The default binary is the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
bgtrack=${1:-Tools/.build/debug/bgtrack}
shift || true
header=${HEADER_TIMEOUT:-5}
idle=${IDLE_TIMEOUT:-30}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
token=$("$bgtrack" device add phone --db "$work/tracks.sqlite" | tail -1)
(ulimit -Sn 1024; exec "$bgtrack" serve --db "$work/tracks.sqlite" --port "$port" --log-level notice \
    --header-timeout "$header" --idle-timeout "$idle") >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
echo "server log:"; sed 's/^/  /' "$work/server.log"
status=0
python3 scripts/connection-check.py 127.0.0.1 "$port" "$pid" --header-timeout "$header" --idle-timeout "$idle" --token "$token" "$@" || status=$?
echo "metrics:"; curl -fsS "http://127.0.0.1:$port/metrics" | grep '^bgtrack_connections' | sed 's/^/  /'
exit $status
