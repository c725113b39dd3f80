#!/usr/bin/env bash
# The map pages in a real browser (issue 11): runs `bgtrack demo` twice on 127.0.0.1, without tiles
# and with tiles from a local tile server that draws them itself, then loads the day's map and the
# index page in headless Chromium. Fails unless each page loads with zero console messages, the
# track, gap, start/end and point elements are in the DOM, and with tiles at least one tile was
# requested from the local server and drawn by Leaflet. Then every page a person opens (the index,
# the day, the day over tiles, the year map, a shared day and a live share) at 1400x1000 and at a
# phone's 390x844 through scripts/page-layout-check.py: no text over other text, the map on the
# first screen with what the page is about inside it, and without tiles a note on turning them on.
#
#   scripts/browser-check.sh [--screenshots DIR]    # DIR gets demo-map, demo-map-tiles, demo-index, demo-year,
#                                                   # shared-day and live-share .png (1400x1000) and -phone.png
#                                                   # (390x844), demo-gaps.json (the day's gap reasons), year-map.png
#                                                   # (a device-year) and demo-timeline.json (the day's GET …/timeline)
#   (BGTRACK_BROWSER_YEAR=0 skips the year-on-one-map case, which builds a 262,800-point store)
#
# Needs chromium and libjs-leaflet (Debian packages). Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=""
if [ "${1:-}" = "--screenshots" ]; then shots="${2:?--screenshots needs a directory}"; mkdir -p "$shots"; fi

for tool in chromium python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "browser check: $tool is missing (apt-get install -y chromium)" >&2; exit 1; }
done
[ -f /usr/share/javascript/leaflet/leaflet.js ] || { echo "browser check: apt-get install -y libjs-leaflet" >&2; exit 1; }
bin="$(swift build --package-path Tools --show-bin-path)/bgtrack"
[ -x "$bin" ] || swift build --package-path Tools --product bgtrack

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# Starts a demo day in the background, waits for its report, writes the map URL to DATA.url.
# (Not called in $(…): the server's pid must reach this shell's list so cleanup stops it.)
demo() {
    local data="$1"; shift
    local port; port="$(free_port)"
    # A fixed past day in a fixed zone: the same pages on every run, and a device long silent, so
    # the shared day served on the real clock shows its offline banner.
    "$bin" demo --data "$data" --port "$port" --day 2024-11-25 --time-zone Europe/Berlin "$@" >"$data.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 600); do
        grep -q '^Index:' "$data.log" 2>/dev/null && break
        sleep 0.1
    done
    grep -q '^Result: nothing lost' "$data.log" || { cat "$data.log" >&2; echo "browser check: the demo did not finish cleanly" >&2; exit 1; }
    grep '^Map:' "$data.log" | awk '{print $2}' >"$data.url"
}

# Loads a page; writes its DOM to $2.dom and fails on any console message.
load() {
    local url="$1" out="$2"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,860 \
        --enable-logging=stderr --v=0 --virtual-time-budget=8000 --dump-dom "$url" >"$out.dom" 2>"$out.log" || true
    local messages; messages="$(grep -c ':CONSOLE' "$out.log" || true)"
    echo "  $(basename "$out"): ${messages} console messages, $(wc -c <"$out.dom") bytes of DOM"
    if [ "$messages" != "0" ]; then grep ':CONSOLE' "$out.log" >&2; echo "browser check: console messages on $out" >&2; exit 1; fi
}

count() { grep -o "$1" "$2" | wc -l; }
require() {  # require PATTERN FILE WHAT
    local n; n="$(count "$1" "$2")"
    echo "    $3: $n"
    [ "$n" -gt 0 ] || { echo "browser check: no $3 in $(basename "$2")" >&2; exit 1; }
}

echo "== demo without tiles"
demo "$work/plain"
map_url="$(cat "$work/plain.url")"
load "$map_url" "$work/plain-map"
require 'track-seg' "$work/plain-map.dom" "track segments"
require 'class="[^"]*gap' "$work/plain-map.dom" "gap lines"
require 'gap-label' "$work/plain-map.dom" "gap labels"
require 'start-marker' "$work/plain-map.dom" "start marker"
require 'end-marker' "$work/plain-map.dom" "end marker"
# Issue 24 item 3: every fault of the demo day on the map with the phone's reason.
require 'id="gaps"' "$work/plain-map.dom" "gap reason list"
require 'force-quit' "$work/plain-map.dom" "force-quit reason"
# The demo runs the shell (issue 39): its uploads go through the background URLSession, which
# waits out the 13:00-15:00 outage without telling the app (as iOS does), so the phone reports
# the stopped server's delay (17:00-17:40), not one for the outage.
require 'uploads waited, the server did not answer' "$work/plain-map.dom" "server-down upload delay"
require 'Low Power Mode was on' "$work/plain-map.dom" "Low Power Mode reason"
# The day's timeline (issue 24): the panel's entries, stays as circles, trips coloured by mode.
require 'class="entry stay' "$work/plain-map.dom" "timeline stays listed"
require 'class="entry trip' "$work/plain-map.dom" "timeline trips listed"
require 'timeline-stay' "$work/plain-map.dom" "stay circles"
require 'timeline-trip' "$work/plain-map.dom" "trip lines"
timeline_url="$(python3 -c 'import sys, urllib.parse as u, datetime as d
url = sys.argv[1]; q = u.parse_qs(u.urlsplit(url).query); day = d.date.fromisoformat(q["day"][0])
base, device = url.split("/devices/")[0], url.split("/devices/")[1].split("?")[0]
token = q["token"][0]
print(f"{base}/v1/devices/{device}/timeline?from={day}T00:00:00Z&to={day + d.timedelta(days=1)}T00:00:00Z&token={token}")' "$map_url")"
python3 -c 'import json, sys, urllib.request
body = json.load(urllib.request.urlopen(sys.argv[1]))
kinds = [e["type"] for e in body["entries"]]
print("    timeline JSON: %d stays, %d trips, %d gaps" % tuple(kinds.count(k) for k in ("stay", "trip", "gap")))
json.dump(body, open(sys.argv[2], "w"), indent=1)
sys.exit(0 if "stay" in kinds and "trip" in kinds else 1)' "$timeline_url" "$work/timeline.json" \
    || { echo "browser check: the timeline endpoint has no stays or trips" >&2; exit 1; }
index_url="${map_url%%/devices/*}/?token=${map_url##*token=}"
load "$index_url" "$work/plain-index"
require 'device-marker' "$work/plain-index.dom" "device markers on the index map"

echo "== demo with tiles from a local tile server"
tile_port="$(free_port)"
python3 scripts/tile-server.py "$tile_port" "$work/tiles.log" &
pids+=($!)
demo "$work/tiles" --tile-url "http://127.0.0.1:$tile_port/{z}/{x}/{y}.png"
map_url_tiles="$(cat "$work/tiles.url")"
load "$map_url_tiles" "$work/tiles-map"
require 'leaflet-tile-loaded' "$work/tiles-map.dom" "tiles drawn"
requests="$(wc -l <"$work/tiles.log" 2>/dev/null || echo 0)"
echo "    tile requests seen by the tile server: $requests"
[ "$requests" -gt 0 ] || { echo "browser check: the page requested no tiles" >&2; exit 1; }

# A year on one map (issue 25 item 1): `bgtrack-bench yearmap` builds a device-year (262,800
# points), serves it and writes the year page's URL; the page must draw its track and handle a
# popup event (it then sets data-interactive-ms, milliseconds since navigation start, from its own
# performance clock) within 2 s, three loads in a row, with zero console messages.
if [ "${BGTRACK_BROWSER_YEAR:-1}" != "0" ]; then
    echo "== a year on one map (1 device-year)"
    bench="$(swift build --package-path Tools -c release --show-bin-path)/bgtrack-bench"
    [ -x "$bench" ] || bench="$(swift build --package-path Tools --show-bin-path)/bgtrack-bench"
    [ -x "$bench" ] || { swift build --package-path Tools --product bgtrack-bench; bench="$(swift build --package-path Tools --show-bin-path)/bgtrack-bench"; }
    "$bench" yearmap --device-years 1 --repeats 2 --serve-url-file "$work/year.url" >"$work/year.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 3000); do [ -s "$work/year.url" ] && break; sleep 0.2; done
    [ -s "$work/year.url" ] || { cat "$work/year.log" >&2; echo "browser check: the year store did not start" >&2; exit 1; }
    year_url="$(cat "$work/year.url")"
    for run in 1 2 3; do
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,860 \
            --enable-logging=stderr --v=0 --timeout=6000 --dump-dom "$year_url" >"$work/year-$run.dom" 2>"$work/year-$run.log" || true
        messages="$(grep -c ':CONSOLE' "$work/year-$run.log" || true)"
        ms="$(grep -o 'data-interactive-ms="[0-9]*"' "$work/year-$run.dom" | grep -o '[0-9]*' || true)"
        echo "  year page, load $run: interactive at ${ms:-never} ms, $messages console messages, $(count 'track-seg' "$work/year-$run.dom") track lines"
        [ "$messages" = "0" ] || { grep ':CONSOLE' "$work/year-$run.log" >&2; echo "browser check: console messages on the year page" >&2; exit 1; }
        [ -n "$ms" ] && [ "$ms" -lt 2000 ] || { echo "browser check: the year page was not interactive within 2 s" >&2; exit 1; }
    done
    require 'track-seg' "$work/year-1.dom" "year track lines"
    require 'class="[^"]*gap' "$work/year-1.dom" "year gap lines"
fi

# Pages that read right (issue 37 item 4): each page at 1400x1000 and at a phone's 390x844, no text
# over other text, the map on the first screen with the day's track inside it, the note on tiles.
echo "== pages that read right (text boxes, the map's content)"
demo_year_url="${map_url%%\?*}/map?year=$(python3 -c 'import sys, urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["day"][0][:4])' "$map_url")&token=${map_url##*token=}"
python3 scripts/page-layout-check.py ${shots:+--screenshots "$shots"} \
    demo-index "$index_url" '.device-marker,no-tiles' \
    demo-map "$map_url" '.track-seg,.start-marker,.end-marker,.timeline-stay,no-tiles' \
    demo-map-tiles "$map_url_tiles" '.track-seg,.start-marker,.end-marker,tiles' \
    demo-year "$demo_year_url" '.track-seg,no-tiles'

if [ -n "$shots" ]; then
    shoot() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$3" \
        --virtual-time-budget=8000 --screenshot="$2" "$1" 2>/dev/null; echo "  wrote $2"; }
    # The day's gap intervals as JSON (GET /v1/devices/{id}/gaps for the map's day).
    python3 - "$map_url" "$shots/demo-gaps.json" <<'PY'
import json, sys, urllib.parse, urllib.request
url = urllib.parse.urlsplit(sys.argv[1])
query = urllib.parse.parse_qs(url.query)
device = url.path.rsplit("/", 1)[-1]
day = query["day"][0]
gaps = f"{url.scheme}://{url.netloc}/v1/devices/{device}/gaps?" + urllib.parse.urlencode(
    {"from": day + "T00:00:00Z", "to": day + "T23:59:59Z", "token": query["token"][0]})
body = json.load(urllib.request.urlopen(gaps, timeout=30))
open(sys.argv[2], "w").write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
print("  wrote", sys.argv[2], len(body["gaps"]), "gaps")
PY
    if [ -n "${year_url:-}" ]; then shoot "$year_url" "$shots/year-map.png" 1280,860; fi
    cp "$work/timeline.json" "$shots/demo-timeline.json"; echo "  wrote $shots/demo-timeline.json"
fi
echo "== a shared day (share link)"
bash scripts/browser-check-share.sh "$bin" "$work/plain" "$map_url" "$work" "$shots"
echo "browser check: passed"
