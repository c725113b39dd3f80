#!/usr/bin/env bash
# A full disk is an answer (issue 41 item 2): `bgtrack serve` with its database on an 8 MB tmpfs,
# native batches (500 samples each, ten minutes apart, through a year) uploaded until the disk is
# full. It shows the refused upload's answer (503, Retry-After, the message), /healthz and /metrics
# on the full disk, the year's map read twice on the full disk (status, points, time), the server's
# shutdown log, and that every acknowledged sample is stored.
#
# Usage: scripts/full-disk-check.sh [--bin PATH] [--size 8m] [--dir DIR]
#   --dir DIR   use DIR (a small filesystem you made) instead of mounting a tmpfs (which needs root)
# Needs curl and python3; installs nothing.
set -euo pipefail

bin="${BGTRACK_BIN:-Tools/.build/debug/bgtrack}"
size=8m
dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--bin PATH] [--size 8m] [--dir DIR]" >&2; exit 2 ;;
    esac
done
for tool in curl python3; do
    command -v "$tool" > /dev/null 2>&1 || { echo "full-disk-check: missing $tool (apt-get install -y $tool)" >&2; exit 1; }
done
[ -x "$bin" ] || { echo "full-disk-check: no bgtrack binary at $bin; build it or pass --bin PATH" >&2; exit 1; }

work="$(mktemp -d)"
mounted=""
serve_pid=""
cleanup() {
    if [ -n "$serve_pid" ]; then kill "$serve_pid" 2> /dev/null || true; wait "$serve_pid" 2> /dev/null || true; fi
    if [ -n "$mounted" ]; then umount "$mounted" || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ -z "$dir" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "full-disk-check: mounting a $size tmpfs needs root; run as root or pass --dir on a small filesystem" >&2
        exit 1
    fi
    dir="$work/disk"
    mkdir -p "$dir"
    mount -t tmpfs -o "size=$size" tmpfs "$dir"
    mounted="$dir"
fi
echo "database filesystem: $(df -h "$dir" | tail -1 | awk '{print $2 " size, " $4 " free"}')"

db="$dir/tracks.sqlite"
token="$("$bin" device add phone --db "$db" | grep -o 'bgd_[A-Za-z0-9_-]*' | head -1)"
operator="$("$bin" operator add ops --db "$db" | grep -o 'bgo_[A-Za-z0-9_-]*' | head -1)"
[ -n "$token" ] && [ -n "$operator" ] || { echo "full-disk-check: could not read the tokens" >&2; exit 1; }
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin" serve --db "$db" --port "$port" --min-free-mb 1 > "$work/serve.log" 2>&1 &
serve_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do curl -sf -o /dev/null "$base/healthz" && break; sleep 0.1; done

# Upload until the disk refuses: batches of 500 samples, 10 min apart, from a year ago.
python3 - "$base" "$token" "$work" << 'EOF'
import json, sys, time, urllib.request, uuid, urllib.error
base, token, work = sys.argv[1], sys.argv[2], sys.argv[3]
start = int(time.time() * 1000) - 365 * 86_400_000
acknowledged, batches, t, seq = 0, 0, start, 0
while True:
    samples = []
    for _ in range(500):
        seq += 1
        samples.append({"id": str(uuid.uuid4()), "seq": seq, "t": t, "lat": 48.85 + (t // 600_000 % 1000) / 10_000,
                        "lon": 2.35 + (t // 600_000 % 700) / 10_000, "acc": 8})
        t += 600_000
    body = json.dumps({"batch": str(uuid.uuid4()), "device": "phone", "samples": samples}).encode()
    request = urllib.request.Request(base + "/v1/batches", data=body, method="POST", headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as answer:
            acknowledged += len(json.load(answer)["accepted"])
            batches += 1
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        print(f"after {batches} batches ({acknowledged} samples acknowledged): HTTP {error.code}, "
              f"Retry-After: {error.headers.get('Retry-After')}\n  {text}")
        break
    if t > int(time.time() * 1000):
        print(f"the year fitted ({acknowledged} samples): use a smaller --size"); break
open(work + "/acknowledged", "w").write(str(acknowledged))
open(work + "/range", "w").write(f"{start} {t}\n")
EOF
acknowledged="$(cat "$work/acknowledged")"
read -r from to < "$work/range"
echo "free now: $(df -h "$dir" | tail -1 | awk '{print $4}')"
echo "/healthz: $(curl -s "$base/healthz")"
echo "/metrics: $(curl -s "$base/metrics" | grep -E '^bgtrack_storage|status="503"' | tr '\n' ' ')"

# The year's map on the full disk, twice: the first read costs what the second does (no read writes).
for attempt in first second; do
    curl -s -o "$work/map.json" -w "map ($attempt read): HTTP %{http_code} in %{time_total} s, " \
        -H "Authorization: Bearer $operator" "$base/v1/devices/phone/map?from=$from&to=$to"
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m.get("points"), "points at zoom", m.get("zoom"), "of the year, exact:", m.get("exact"))' "$work/map.json" 2> /dev/null \
        || cat "$work/map.json"
done
status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $operator" "$base/v1/devices/phone/track?from=$from&to=$to&format=csv")"
echo "the year's track as CSV on the full disk: HTTP $status"

kill -TERM "$serve_pid"
wait "$serve_pid" || true
serve_pid=""
echo "the server's log from the refusal to the end:"
grep -E 'disk is full|draining|connections closed|store closed' "$work/serve.log" | sed -E 's/^/  /' | cut -c1-240 | uniq | tail -6
stored="$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM sample").fetchone()[0])' "$db")"
echo "acknowledged $acknowledged, stored $stored"
if [ "$stored" != "$acknowledged" ]; then echo "full-disk-check: FAILED: acknowledged samples lost" >&2; exit 1; fi
echo "full-disk-check: OK"
