#!/usr/bin/env bash
# Contract test of the live server against its own /openapi.yaml (issue 5, "What it must show" 4).
# Starts `bgtrack serve` on 127.0.0.1 (a free port, a throw-away database), registers a device,
# runs schemathesis with a bounded number of examples, and stops the server whatever happens.
# Fails on any 5xx, an undocumented status code, a wrong content type or a body off its schema.
set -euo pipefail
cd "$(dirname "$0")/.."

examples="${SCHEMATHESIS_EXAMPLES:-25}"

if ! command -v schemathesis >/dev/null 2>&1; then
    echo "== installing schemathesis (PyPI)"
    python3 -m pip install -q 'schemathesis>=4,<5'
fi

bin="$(swift build --package-path Tools --show-bin-path)/bgtrack"
[ -x "$bin" ] || swift build --package-path Tools --product bgtrack

work="$(mktemp -d)"
db="$work/tracks.sqlite"
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap stop_server EXIT

token="$("$bin" device add iphone-42 --db "$db" | tail -n 1)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
base="http://127.0.0.1:$port"

"$bin" serve --db "$db" --host 127.0.0.1 --port "$port" --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 100); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('$base/healthz', timeout=1)" 2>/dev/null; then
        break
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "bgtrack serve exited early:" >&2
        cat "$work/server.log" >&2
        exit 1
    fi
    sleep 0.1
done

echo "== schemathesis against $base/openapi.yaml ($examples examples per operation)"
status=0
schemathesis run "$base/openapi.yaml" \
    --url "$base" \
    --header "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" \
    --seed 20241122 \
    --workers 1 \
    --request-timeout 10 \
    --no-color || status=$?

if grep -q 'request failed' "$work/server.log"; then
    echo "the server logged failed requests (5xx):" >&2
    grep 'request failed' "$work/server.log" >&2 || true
    status=1
fi
exit "$status"
