#!/usr/bin/env bash
# What an app fetches when it adds BackgroundTracker: a throwaway app package whose only dependency
# is the library product, by path, declared as Xcode's "Add Package Dependencies" declares it
# (default traits, no options), resolved in a temporary folder.
# Prints every package the resolution fetched; exits 1 if any is not GRDB (the one package the
# library links). Also builds the app for the host unless --no-build.
#
# usage: scripts/app-resolve-check.sh [PACKAGE_ROOT] [--no-build]
set -euo pipefail
root=$(readlink -f "${1:-$(dirname "$0")/..}")
build=1
[ "${2:-}" = "--no-build" ] && build=0
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ThrowawayApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "BackgroundTracker", package: "$(basename "$root")")])
    ]
)
SWIFT
cat >"$app/Sources/App/main.swift" <<'SWIFT'
import BackgroundTracker

print("linked", String(describing: BackgroundTracker.Configuration.self))
SWIFT
cd "$app"
swift package resolve >"$app/resolve.log" 2>&1 || { cat "$app/resolve.log" >&2; exit 1; }
fetched=$(swift package show-dependencies --format flatlist 2>/dev/null | sort -u | grep -v -i "^$(basename "$root")$" || true)
count=$(printf '%s\n' "$fetched" | grep -c . || true)
echo "packages fetched besides BackgroundTracker: $count"
printf '%s\n' "$fetched" | sed 's/^/  /'
if [ "$build" = 1 ]; then
    swift build 2>&1 | tail -1
fi
if printf '%s\n' "$fetched" | grep -qv -i '^grdb'; then
    echo "app-resolve-check: the app fetched packages it does not link" >&2
    exit 1
fi
