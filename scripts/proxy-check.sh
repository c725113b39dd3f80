#!/usr/bin/env bash
# bgtrack serve behind a real reverse proxy (issue 41 item 1): nginx from Debian on loopback with
# TLS from a throwaway certificate, configured with the very recipe docs/server.md gives (the
# `<!-- proxy-check: nginx -->` block, only its port, certificate paths and upstream port
# replaced), and `bgtrack serve --trusted-proxy 127.0.0.1/32` behind it.
#
# It shows that the share pages' rate limit counts each client behind the proxy, not the proxy:
# 30 requests for an unknown link from 127.0.0.2, the 31st from it refused 429, a valid link from
# 127.0.0.3 answered 200, and 127.0.0.2 unable to escape its limit with its own X-Forwarded-For.
# Then it prints the client addresses the server logged.
#
# Usage: scripts/proxy-check.sh [--bin PATH]   (default Tools/.build/debug/bgtrack; BGTRACK_BIN also works)
# Needs nginx, openssl, curl and python3 on PATH; installs nothing (apt-get install nginx openssl curl).
set -euo pipefail

bin="${BGTRACK_BIN:-Tools/.build/debug/bgtrack}"
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        *) echo "usage: $0 [--bin PATH]" >&2; exit 2 ;;
    esac
done

missing=()
for tool in nginx openssl curl python3; do
    command -v "$tool" > /dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "proxy-check: missing ${missing[*]}; install them first: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
if [ ! -x "$bin" ]; then
    echo "proxy-check: no bgtrack binary at $bin; build it (swift build --package-path Tools --product bgtrack) or pass --bin PATH" >&2
    exit 1
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
root="$(cd "$(dirname "$0")/.." && pwd)"

work="$(mktemp -d)"
serve_pid=""
cleanup() {
    if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2> /dev/null || true; fi
    if [ -n "$serve_pid" ]; then kill "$serve_pid" 2> /dev/null || true; wait "$serve_pid" 2> /dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "proxy-check: FAILED: $*" >&2
    echo "--- bgtrack serve log (last 20 lines)" >&2
    tail -20 "$work/serve.log" >&2 || true
    echo "--- nginx error log" >&2
    cat "$work/error.log" >&2 || true
    exit 1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
app_port="$(free_port)"
tls_port="$(free_port)"

# A throwaway self-signed certificate for 127.0.0.1.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$work/key.pem" -out "$work/cert.pem" 2> "$work/openssl.log" \
    || { cat "$work/openssl.log" >&2; fail "openssl could not make a certificate"; }

# The recipe from the docs, with this run's ports and paths.
recipe="$(awk '/<!-- proxy-check: nginx -->/ { on = 1; next } on && /^```nginx/ { inside = 1; next }
    inside && /^```/ { exit } inside { print }' "$root/docs/server.md")"
[ -n "$recipe" ] || fail "no <!-- proxy-check: nginx --> block in docs/server.md"
echo "$recipe" | sed \
    -e "s|listen 443 ssl;|listen 127.0.0.1:$tls_port ssl;|" \
    -e "s|/etc/ssl/bgtrack/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/ssl/bgtrack/privkey.pem|$work/key.pem|" \
    -e "s|proxy_pass http://127.0.0.1:8080;|proxy_pass http://127.0.0.1:$app_port;|" > "$work/site.conf"
grep -q "127.0.0.1:$tls_port ssl" "$work/site.conf" && grep -q "127.0.0.1:$app_port;" "$work/site.conf" \
    || fail "the docs' recipe no longer has 'listen 443 ssl;' and 'proxy_pass http://127.0.0.1:8080;' to replace"
mkdir -p "$work/tmp"
user_line=""
if [ "$(id -u)" = 0 ]; then user_line="user root;"; fi
cat > "$work/nginx.conf" << EOF
$user_line
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 64; }
http {
    access_log $work/access.log;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;
    include $work/site.conf;
}
EOF

db="$work/tracks.sqlite"
"$bin" device add iphone-42 --db "$db" > "$work/device.txt"
share="$("$bin" share create --device iphone-42 --live --db "$db" --url "https://127.0.0.1:$tls_port" | grep '/s/')"
[ -n "$share" ] || fail "bgtrack share create printed no link"

"$bin" serve --db "$db" --host 127.0.0.1 --port "$app_port" --trusted-proxy 127.0.0.1/32 > "$work/serve.log" 2>&1 &
serve_pid=$!
nginx -c "$work/nginx.conf" -e "$work/error.log" 2> "$work/nginx-start.log" \
    || { cat "$work/nginx-start.log" >&2; fail "nginx did not start"; }

for _ in $(seq 1 600); do
    curl -skf -o /dev/null "https://127.0.0.1:$tls_port/healthz" && break
    sleep 0.1
done
[ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$tls_port/healthz")" = 200 ] \
    || fail "https://127.0.0.1:$tls_port/healthz through nginx did not answer 200"

# status CLIENT-ADDRESS URL [curl options…]
status() {
    local from="$1" url="$2"
    shift 2
    curl -sk -o /dev/null -w '%{http_code}' --interface "$from" "$@" "$url"
}
bogus="https://127.0.0.1:$tls_port/s/shr_$(printf 'x%.0s' $(seq 1 43))"
answers=""
for _ in $(seq 1 30); do answers+="$(status 127.0.0.2 "$bogus") "; done
echo "30 requests for an unknown link from 127.0.0.2: $(echo "$answers" | tr -s ' ' '\n' | grep . | sort | uniq -c | xargs)"
[ "$(echo "$answers" | tr ' ' '\n' | grep -c '^404$')" = 30 ] || fail "expected 30 × 404, got: $answers"
limited="$(status 127.0.0.2 "$bogus")"
echo "the 31st from 127.0.0.2: $limited"
[ "$limited" = 429 ] || fail "the 31st request from 127.0.0.2 answered $limited, not 429"
spoofed="$(status 127.0.0.2 "$share" -H 'X-Forwarded-For: 192.0.2.77')"
echo "a valid link from 127.0.0.2 claiming X-Forwarded-For 192.0.2.77: $spoofed"
[ "$spoofed" = 429 ] || fail "127.0.0.2 escaped its limit with its own X-Forwarded-For ($spoofed)"
other="$(status 127.0.0.3 "$share")"
echo "a valid link from 127.0.0.3: $other"
[ "$other" = 200 ] || fail "a valid share link from another client (127.0.0.3) answered $other, not 200"

echo "client addresses the server logged (requests: client):"
grep -o 'client=[0-9a-f.:]*' "$work/serve.log" | sort | uniq -c | sed 's/^/  /'
grep -q 'client=127.0.0.3' "$work/serve.log" || fail "the server's log does not name client 127.0.0.3"
grep -q 'proxy=127.0.0.1' "$work/serve.log" || fail "the server's log does not name the proxy"
metrics="$(curl -sk "https://127.0.0.1:$tls_port/metrics" | grep '^bgtrack_forwarded_requests_total' || true)"
echo "metrics: ${metrics//$'\n'/; }"
echo "proxy-check: OK (nginx $(nginx -v 2>&1 | sed 's|.*/||'), TLS on 127.0.0.1:$tls_port → bgtrack on 127.0.0.1:$app_port)"
