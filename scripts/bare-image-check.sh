#!/usr/bin/env bash
# Every C header and library the package's C modules use (ours under Sources/, and GRDB's system
# SQLite module) must come from a Debian package of the bare image (scripts/bare-image-packages.txt),
# so the README's two commands build on a fresh machine with nothing installed first. .ci/run runs
# this before it installs anything, so its own installs cannot hide a missing step.
#
# usage: scripts/bare-image-check.sh   (after `swift package --package-path Tools resolve`)
set -euo pipefail
cd "$(dirname "$0")/.."
image=scripts/bare-image-packages.txt
grdb=$(ls -d Tools/.build/checkouts/GRDB.swift 2>/dev/null || true)
[ -n "$grdb" ] || { echo "bare-image-check: run 'swift package --package-path Tools resolve' first" >&2; exit 2; }

# <header> of every #include <...> in our C sources and the system modules' shims.
mapfile -t headers < <(
    grep -rhoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<[^>]+>' \
        Sources --include='*.h' --include='*.c' "$grdb/Sources/GRDBSQLite" |
        sed -E 's/.*<([^>]+)>.*/\1/' | sort -u
)
# link "x" of every system module map and linkedLibrary("x") of the manifests: the linker needs
# libx.so, which a -dev package ships.
mapfile -t libraries < <(
    {
        grep -rhoE 'link[[:space:]]+"[^"]+"' Sources "$grdb/Sources/GRDBSQLite" --include='module.modulemap'
        grep -hoE 'linkedLibrary\("[^"]+"\)' Package.swift Tools/Package.swift
    } | sed -E 's/.*"([^"]+)".*/\1/' | sort -u
)

owner() { dpkg -S "$1" 2>/dev/null | head -n 1 | cut -d: -f1; }
fail=0
check() { # what file
    local what=$1 file=$2 package
    if [ -z "$file" ]; then
        echo "  MISSING  $what: not found on this machine"
        fail=1
        return
    fi
    package=$(owner "$file")
    [ -n "$package" ] || package=$(owner "$(readlink -f "$file")")
    if [ -z "$package" ]; then
        echo "  ?        $what: $file belongs to no Debian package (the toolchain's own?)"
    elif grep -qx "$package" "$image"; then
        echo "  ok       $what: $package"
    else
        echo "  NOT IN THE IMAGE  $what: $package (a fresh machine lacks it; load it at run time or vendor it)"
        fail=1
    fi
}
echo "C headers our C modules and GRDB include:"
for header in "${headers[@]}"; do
    file=$(printf '#include <%s>\n' "$header" | cc -M -x c - 2>/dev/null | tr ' \\' '\n\n' |
        grep -E "/$header\$" | head -n 1 || true)
    check "<$header>" "$file"
done
echo "libraries they link:"
for library in "${libraries[@]}"; do
    file=$(for dir in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib /lib/x86_64-linux-gnu; do
        [ -e "$dir/lib$library.so" ] && echo "$dir/lib$library.so" && break
    done || true)
    check "-l$library" "$file"
done
if [ "$fail" -ne 0 ]; then
    echo "bare-image-check: a C module needs what the bare image lacks (above)" >&2
    exit 1
fi
echo "bare-image-check: every C header and library is in the bare image"
