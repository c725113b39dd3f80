#!/usr/bin/env bash
# A shared day in a real browser (issue 25 item 3), called by scripts/browser-check.sh with a demo's
# data directory and its map URL: creates a share link for the demo's day with `bgtrack share
# create`, serves the demo's database with `bgtrack serve --log-level trace`, and loads the link in
# headless Chromium with a net log. Fails unless the page draws the track with zero console
# messages, and the secret appears nowhere but in the page's own URL: not in the DOM, not in any
# other request (URL or Referer header), not in the server's log; and the page answers with
# Referrer-Policy: no-referrer and Cache-Control: no-store.
#
# Then the shared day and a live share (`share create --live`) go through scripts/page-layout-check.py.
#
#   scripts/browser-check-share.sh BIN DATA MAP_URL WORK [SHOTS_DIR]   # SHOTS_DIR gets shared-day.png,
#                                                                      # live-share.png and their -phone.png
set -euo pipefail
bin="$1" data="$2" map_url="$3" work="$4" shots="${5:-}"
device="$(python3 -c 'import sys, urllib.parse as u; print(u.unquote(u.urlparse(sys.argv[1]).path.split("/")[2]))' "$map_url")"
day="$(python3 -c 'import sys, urllib.parse as u; print(u.parse_qs(u.urlparse(sys.argv[1]).query)["day"][0])' "$map_url")"
next="$(python3 -c 'import sys, datetime as d; print(d.date.fromisoformat(sys.argv[1]) + d.timedelta(days=1))' "$day")"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"

"$bin" share create --db "$data/server.sqlite" --device "$device" --from "$day" --to "$next" --expires 1d \
    --url "http://127.0.0.1:$port" >"$work/share.out"
url="$(grep '/s/shr_' "$work/share.out")"
secret="${url##*/s/}"
"$bin" share create --db "$data/server.sqlite" --device "$device" --live --expires 1d \
    --url "http://127.0.0.1:$port" >"$work/share-live.out"
live_url="$(grep '/s/shr_' "$work/share-live.out")"
"$bin" serve --db "$data/server.sqlite" --port "$port" --log-level trace >"$work/share-serve.log" 2>&1 &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null || true; wait $serve_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

headers="$(curl -s -D - -o /dev/null "$url")"
echo "$headers" | grep -qi '^referrer-policy: no-referrer' || { echo "share check: no Referrer-Policy: no-referrer" >&2; exit 1; }
echo "$headers" | grep -qi '^cache-control: no-store' || { echo "share check: no Cache-Control: no-store" >&2; exit 1; }

out="$work/shared-day"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,860 \
    --enable-logging=stderr --v=0 --virtual-time-budget=8000 --log-net-log="$out.netlog" \
    --net-log-capture-mode=IncludeSensitive --dump-dom "$url" >"$out.dom" 2>"$out.log" || true
messages="$(grep -c ':CONSOLE' "$out.log" || true)"
echo "  shared-day: ${messages} console messages, $(wc -c <"$out.dom") bytes of DOM"
[ "$messages" = "0" ] || { grep ':CONSOLE' "$out.log" >&2; echo "share check: console messages" >&2; exit 1; }
segments="$(grep -o 'track-seg' "$out.dom" | wc -l)"
echo "    track segments: $segments"
[ "$segments" -gt 0 ] || { echo "share check: no track drawn on the shared page" >&2; exit 1; }
if grep -q "$secret" "$out.dom"; then echo "share check: the secret is in the page" >&2; exit 1; fi
if grep -q "$secret" "$work/share-serve.log"; then echo "share check: the secret is in the server log" >&2; exit 1; fi
grep -q '/s/…' "$work/share-serve.log" || { echo "share check: the request was not logged (redacted)" >&2; exit 1; }
python3 - "$out.netlog" "$secret" "$url" <<'PY'
import json, sys
netlog, secret, page = sys.argv[1], sys.argv[2], sys.argv[3]
with open(netlog) as f:
    text = f.read().rstrip().rstrip(",")
if not text.endswith("}"):
    text = text.rstrip("]").rstrip().rstrip(",") + "]}"
events = json.loads(text)["events"]
urls, leaks, header_sets, referers = set(), [], 0, 0
for event in events:
    params = event.get("params") or {}
    if "url" in params:
        urls.add(params["url"])
    headers = params.get("headers")
    if isinstance(headers, list):
        header_sets += 1
        for line in headers:
            if line.lower().startswith("referer"):
                referers += 1
                if secret in line:
                    leaks.append(line)
others = [u for u in urls if secret in u and u != page]
print(f"    requests seen: {len(urls)} URLs, {header_sets} header sets ({referers} with a Referer); "
      f"the secret outside the page's own URL: {len(others)} URLs, {len(leaks)} Referers")
if header_sets == 0:
    print("share check: the net log holds no request headers; cannot check the Referer", file=sys.stderr)
    sys.exit(1)
if others or leaks:
    print("share check: the secret left the page:", others, leaks, file=sys.stderr)
    sys.exit(1)
PY
# Both shared pages at both sizes (scripts/page-layout-check.py): the live share's position is a
# marker with its time and its accuracy circle, inside the visible map.
# And the demo's day on this server, whose clock is the machine's: the device is offline, so the
# page has its offline banner.
offline_url="http://127.0.0.1:$port/devices/${map_url#*/devices/}"
python3 "$(dirname "$0")/page-layout-check.py" ${shots:+--screenshots "$shots"} \
    demo-map-offline "$offline_url" '.track-seg,.start-marker,.end-marker,=#offline,no-tiles' \
    shared-day "$url" '.track-seg,.start-marker,.end-marker,no-tiles' \
    live-share "$live_url" '.live-marker,.live-accuracy,.live-label,no-tiles' </dev/null
if grep -q "${live_url##*/s/}" "$work/share-serve.log"; then echo "share check: the live secret is in the server log" >&2; exit 1; fi
echo "share check: passed"
