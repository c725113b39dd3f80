#!/usr/bin/env bash
# An encrypted OwnTracks message against a live `bgtrack serve`, twice: with the system's libsodium
# (loaded at run time) it is stored; with the library absent (BGTRACK_LIBSODIUM pointing at no file,
# as on a machine without libsodium23) it is kept aside, answered 503 so the phone keeps it, with a
# reason that says what to install. The message is one of the PyNaCl vectors of
# Tests/TrackServerTests/OwnTracksEncryption (secret "s3cret").
#
# usage: scripts/owntracks-encrypted-check.sh [BGTRACK]   (default: Tools/.build/debug/bgtrack)
set -euo pipefail
cd "$(dirname "$0")/.."
bgtrack=$(readlink -f "${1:-Tools/.build/debug/bgtrack}")
[ -x "$bgtrack" ] || { echo "no $bgtrack; run: swift build --package-path Tools --product bgtrack" >&2; exit 2; }
command -v curl >/dev/null || { echo "owntracks-encrypted-check: needs curl" >&2; exit 2; }
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
body=$(sed -n '/name: "shortASCII"/,/Vector(/p' Tests/TrackServerTests/OwnTracksEncryption/OwnTracksVectors.swift |
    sed -n '/body:/,/)/p' | grep -oE '#"[^"]*("[^#][^"]*)*"#' | sed -E 's/^#"//; s/"#$//' | tr -d '\n')
case "$body" in '{"_type":"encrypted","data":"'*'"}') ;; *) echo "could not read the vector: $body" >&2; exit 2 ;; esac

run() { # label, environment assignment or "", expected status
    local label=$1 env=$2 expected=$3 db="$work/$1.sqlite" token port status
    token=$("$bgtrack" device add phone --db "$db" | tail -n 1)
    echo s3cret | "$bgtrack" device set phone --db "$db" --owntracks-key - >/dev/null
    env $env "$bgtrack" serve --db "$db" --port 0 >"$work/$label.out" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        port=$(grep -oE "listening on 127\.0\.0\.1:[0-9]+" "$work/$label.out" | head -n 1 | cut -d: -f2 || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$work/$label.out" >&2; echo "the server did not start" >&2; exit 1; }
    status=$(curl -s -o "$work/$label.body" -w '%{http_code}' -u "alice:$token" \
        -H 'Content-Type: application/json' --data-binary "$body" "http://127.0.0.1:$port/ingest/owntracks")
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
    echo "$label: HTTP $status $(head -c 400 "$work/$label.body")"
    [ "$status" = "$expected" ] || { echo "expected HTTP $expected" >&2; exit 1; }
    stored=$(sqlite3 "$db" 'SELECT count(*) FROM sample')
    kept=$(sqlite3 "$db" 'SELECT count(*) FROM rejected_point')
    echo "  stored: $stored, kept aside: $kept"
    [ "$stored,$kept" = "$4" ] || { echo "expected stored,kept aside = $4" >&2; exit 1; }
}
command -v sqlite3 >/dev/null || { echo "owntracks-encrypted-check: needs the sqlite3 command" >&2; exit 2; }
run with-libsodium "" 200 1,0
run without-libsodium "BGTRACK_LIBSODIUM=/nonexistent/libsodium.so.23" 503 0,1
grep -q 'apt-get install libsodium23' "$work/without-libsodium.body" || {
    echo "the refusal does not say what to install" >&2
    exit 1
}
echo "owntracks-encrypted-check: stored with libsodium; kept aside (503) with its reason without"
