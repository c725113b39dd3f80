#!/usr/bin/env bash
# A year's map: first and second read (issue 41 item 2). Generates a year of one phone (a sample
# every 2 minutes from 06:00 to 24:00 UTC, a seeded walk: 197,100 points) as GeoJSON, imports it
# with `bgtrack import` (every day pending, as after any import or migration), starts
# `bgtrack serve`, waits for the background worker to work out the days (`bgtrack_detail_pending_days`
# in /metrics reaching 0), then reads the year's map twice and prints both times.
#
# Usage: scripts/year-map-check.sh [--bin PATH] [--days 365]
# Needs curl and python3; installs nothing.
set -euo pipefail

bin="${BGTRACK_BIN:-Tools/.build/debug/bgtrack}"
days=365
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --days) days="$2"; shift 2 ;;
        *) echo "usage: $0 [--bin PATH] [--days 365]" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "year-map-check: no bgtrack binary at $bin; build it or pass --bin PATH" >&2; exit 1; }
work="$(mktemp -d)"
serve_pid=""
cleanup() {
    if [ -n "$serve_pid" ]; then kill "$serve_pid" 2> /dev/null || true; wait "$serve_pid" 2> /dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

db="$work/tracks.sqlite"
"$bin" device add phone --db "$db" > /dev/null
operator="$("$bin" operator add ops --db "$db" | grep -o 'bgo_[0-9a-f]*' | head -1)"
python3 - "$work/year.geojson" "$days" << 'EOF'
import json, math, random, sys, time
out, days = sys.argv[1], int(sys.argv[2])
random.seed(41)
day0 = (int(time.time()) // 86_400 - days) * 86_400
lat, lon, features = 48.85, 2.35, []
for day in range(days):
    for minute in range(6 * 60, 24 * 60, 2):
        lat += random.uniform(-0.0005, 0.0005)
        lon += random.uniform(-0.0005, 0.0005)
        features.append({"type": "Feature", "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
                         "properties": {"time": (day0 + day * 86_400 + minute * 60) * 1000}})
json.dump({"type": "FeatureCollection", "features": features}, open(out, "w"))
open(out + ".range", "w").write(f"{day0 * 1000} {(day0 + days * 86_400) * 1000} {len(features)}\n")
EOF
read -r from to count < "$work/year.geojson.range"
start=$(date +%s.%N)
"$bin" import --device phone --db "$db" "$work/year.geojson" > "$work/import.log" 2>&1
echo "imported $count points over $days days in $(python3 -c "import time; print(round(time.time() - $start, 1))") s"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin" serve --db "$db" --port "$port" > "$work/serve.log" 2>&1 &
serve_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do curl -sf -o /dev/null "$base/healthz" && break; sleep 0.1; done
start=$(date +%s.%N)
while true; do
    pending="$(curl -s "$base/metrics" | awk '/^bgtrack_detail_pending_days / { print $2 }')"
    [ "$pending" = 0 ] && break
    sleep 0.5
done
echo "the background worker worked out every day in $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
for attempt in first second third; do
    curl -s -o "$work/map.json" -w "year map, $attempt read: HTTP %{http_code}, %{size_download} bytes in %{time_total} s; " \
        -H "Authorization: Bearer $operator" "$base/v1/devices/phone/map?from=$from&to=$to"
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["points"], "points at zoom", m["zoom"])' "$work/map.json"
done
