#!/usr/bin/env bash
# The kill campaign: scripts/kill-campaign.sh [BGTRACK] [--kills N] [--seed S] [--work DIR].
# BGTRACK defaults to the release build (`swift build --package-path Tools -c release --product bgtrack` first).
set -euo pipefail
cd "$(dirname "$0")/.."
bgtrack=Tools/.build/release/bgtrack
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then bgtrack=$1; shift; fi
[ -x "$bgtrack" ] || { echo "no $bgtrack; run: swift build --package-path Tools -c release --product bgtrack" >&2; exit 2; }
exec python3 scripts/kill_campaign.py "$bgtrack" "$@"
