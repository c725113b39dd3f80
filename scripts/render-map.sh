#!/usr/bin/env bash
# Renders the map page of a recorded day to a PNG with headless Chromium (issue 5, item 5).
#
#   scripts/render-map.sh [out.png]
#
# Starts `bgtrack serve` on 127.0.0.1 with a throw-away database, registers a device and an
# operator, uploads one day (2024-11-22 UTC) of samples every 2–3 minutes through POST /v1/batches
# in 500-sample batches, with two gaps (about 50 min and 2 h 40 min) where the phone was silent,
# then screenshots /devices/<id>?day=2024-11-22. No network beyond loopback; no tiles.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/map-2024-11-22.png}"
mkdir -p "$(dirname "$out")"

command -v chromium >/dev/null 2>&1 || {
    echo "chromium is missing: apt-get install -y chromium" >&2
    exit 1
}
bin="$(swift build --package-path Tools --show-bin-path)/bgtrack"
[ -x "$bin" ] || swift build --package-path Tools --product bgtrack

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

db="$work/tracks.sqlite"
device_token="$("$bin" device add walker --db "$db" | tail -n 1)"
operator_token="$("$bin" operator add screenshot --db "$db" | tail -n 1)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
# --offline-minutes 0.03 (about 2 s): by the time of the screenshot the device is stale, so the
# page shows its offline banner too.
"$bin" serve --db "$db" --host 127.0.0.1 --port "$port" --log-level warning --offline-minutes 0.03 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" \
        2>/dev/null && break
    sleep 0.1
done

# A day around People's Square, Shanghai: a loop walk, a tram ride, a gap, errands, a gap, home.
python3 - "$port" "$device_token" <<'PY'
import json, math, random, sys, urllib.request, uuid
port, token = sys.argv[1], sys.argv[2]
random.seed(22)
day = 1732233600000  # 2024-11-22T00:00:00Z
samples, t, lat, lon, heading, seq = [], day + 6 * 3600_000, 31.2304, 121.4737, 30.0, 0
gaps = {(9 * 3600_000, 50 * 60_000), (14 * 3600_000, 160 * 60_000)}
while t < day + 21 * 3600_000:
    seq += 1
    samples.append({"id": str(uuid.uuid4()), "seq": seq, "t": t, "lat": round(lat, 6), "lon": round(lon, 6),
                    "acc": round(random.uniform(5, 35), 1), "speed": 1.3, "trigger": "timer", "state": "background"})
    step = random.randint(120, 180) * 1000
    for start, length in gaps:
        if t < day + start <= t + step:
            step += length
            lat += 0.022 if start < 12 * 3600_000 else -0.018  # the phone travelled while silent
            lon += 0.015
    heading += random.uniform(-35, 35)
    metres = random.uniform(60, 260)
    lat += metres * math.cos(math.radians(heading)) / 111_320
    lon += metres * math.sin(math.radians(heading)) / (111_320 * math.cos(math.radians(lat)))
    t += step
for i in range(0, len(samples), 500):
    body = json.dumps({"batch": str(uuid.uuid4()), "device": "walker", "samples": samples[i:i + 500]}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/batches", data=body, method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    answer = json.load(urllib.request.urlopen(request))
    print(f"uploaded {len(answer['accepted'])} samples, {len(answer['rejected'])} rejected")
PY

sleep 2.5
url="http://127.0.0.1:$port/devices/walker?day=2024-11-22&token=$operator_token"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,860 \
    --virtual-time-budget=3000 --screenshot="$out" "$url" 2>"$work/chromium.log" || {
    cat "$work/chromium.log" >&2
    exit 1
}
index_png="${out%.png}-index.png"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=900,260 \
    --screenshot="$index_png" "http://127.0.0.1:$port/?token=$operator_token" 2>>"$work/chromium.log"
echo "wrote $out ($(stat -c %s "$out") bytes) from $url" | sed "s/token=[^&]*/token=…/"
echo "wrote $index_png ($(stat -c %s "$index_png") bytes), the index page"
