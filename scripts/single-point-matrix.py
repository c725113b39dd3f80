#!/usr/bin/env python3
"""Issue 23 item 5's comparison, as BENCHMARKS.md's wrk tables were made.

Single OwnTracks and OsmAnd points against `bgtrack serve` (every answer fsynced) and, in the same
run, against OwnTracks HTTP servers you started yourself (the OwnTracks Recorder's /pub), driven by
wrk with scripts/wrk-single-point.lua; rounds alternate the servers. Each round starts our server on
a fresh database, with a fresh device for each cell, and checks that the database stored at least
every request wrk counted (rows = requests answered; wrk stops counting before the last answers).

    python3 scripts/single-point-matrix.py --bin Tools/.build/release/bgtrack
    python3 scripts/single-point-matrix.py --bin Tools/.build/release/bgtrack \\
        --peer recorder-G=18084 --peer recorder=18083 --rounds 3 --seconds 8

Build and start a peer yourself (BENCHMARKS.md says how the Recorder there was built and run);
nothing here builds one. Prints one line per cell, then at the largest connection count each
round's ratio of ours to the first peer, the medians, and the ratio of the medians. Exits 1 when a
cell failed (wrk errors, fewer rows than requests), 2 on bad arguments.
"""

import argparse
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LUA = os.path.join(ROOT, "scripts", "wrk-single-point.lua")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "bgtrack"),
                        help="the bgtrack binary (default: Tools/.build/release/bgtrack; build it with "
                             "swift build --package-path Tools -c release --product bgtrack)")
    parser.add_argument("--peer", action="append", default=[], metavar="LABEL=PORT",
                        help="an OwnTracks HTTP server on 127.0.0.1:PORT (repeatable)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8, help="per cell")
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    peers = []
    for peer in args.peer:
        label, _, port = peer.partition("=")
        if not label or not port.isdigit() or not 0 < int(port) < 65536:
            parser.error(f"--peer {peer!r}: write LABEL=PORT, for example recorder-G=18084")
        peers.append((label, int(port)))
    if not 1 <= args.rounds <= 100:
        parser.error("--rounds: 1 to 100")
    if not 1 <= args.seconds <= 3600:
        parser.error("--seconds: 1 to 3600")
    if any(not 1 <= c <= 1024 for c in args.connections):
        parser.error("--connections: each 1 to 1024")
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed (Debian: apt-get install wrk)")
    if not os.access(args.bin, os.X_OK):
        parser.error(f"--bin {args.bin}: not an executable; build it with "
                     "swift build --package-path Tools -c release --product bgtrack")
    return args, peers


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(port, connections, seconds, *script_args):
    """One wrk cell: (requests/s, p50, p99, requests counted, errors line or None)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", LUA,
               f"http://127.0.0.1:{port}", "--", *script_args]
    out = subprocess.run(command, capture_output=True, text=True, check=False).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    count = re.search(r"(\d+) requests in", out)
    errors = re.search(r"(Non-2xx.*|Socket errors.*)", out)
    if not (rate and p50 and p99 and count):
        return None
    return float(rate.group(1)), p50.group(1), p99.group(1), int(count.group(1)), errors and errors.group(1)


def ours_round(args, number, results):
    """Our server on a fresh database: every protocol and connection count, a fresh device each."""
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "tracks.sqlite")
        cells = [(protocol, c) for c in args.connections for protocol in ("owntracks", "osmand")]
        tokens = {}
        for protocol, connections in cells:
            device = f"{protocol}{connections}"
            added = subprocess.run([args.bin, "device", "add", device, "--db", database],
                                   capture_output=True, text=True, check=False)
            token = re.search(r"bgd_[A-Za-z0-9_-]+", added.stdout)
            if added.returncode != 0 or not token:
                sys.exit(f"bgtrack device add {device} failed (exit {added.returncode}): "
                         f"{(added.stderr or added.stdout).strip()}")
            tokens[device] = token.group(0)
        port = free_port()
        server = subprocess.Popen([args.bin, "serve", "--db", database, "--port", str(port),
                                   "--log-level", "warning"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    if server.poll() is not None:
                        sys.exit(f"bgtrack serve exited with {server.returncode} before answering /healthz")
                    time.sleep(0.1)
            else:
                sys.exit(f"bgtrack serve did not answer /healthz on port {port} within 30 s")
            counted = 0
            for protocol, connections in cells:
                device = f"{protocol}{connections}"
                cell = wrk(port, connections, args.seconds, protocol, device, tokens[device])
                report(number, "ours", protocol, connections, cell, results)
                counted += cell[3] if cell else 0
        finally:
            server.terminate()
            server.wait()
        with sqlite3.connect(database) as connection:
            stored = connection.execute("SELECT count(*) FROM sample").fetchone()[0]
        ok = stored >= counted
        print(f"round {number} ours rows stored {stored} for {counted} requests counted"
              + ("" if ok else " (FEWER: an acknowledged point is missing)"))
        return ok


def report(number, server, protocol, connections, cell, results):
    if cell is None:
        print(f"round {number} {server} {protocol} c={connections}: wrk gave no result")
        results.setdefault("failed", True)
        return
    rate, p50, p99, _, errors = cell
    print(f"round {number} {server} {protocol} c={connections} {rate:,.0f} req/s p50 {p50} p99 {p99}"
          + (f" ({errors})" if errors else ""))
    if errors:
        results.setdefault("failed", True)
    results.setdefault((server, protocol, connections), []).append(rate)


def main():
    args, peers = parse_args()
    results = {}
    ok = True
    for number in range(1, args.rounds + 1):
        ok = ours_round(args, number, results) and ok
        for label, port in peers:
            for connections in args.connections:
                report(number, label, "recorder", connections,
                       wrk(port, connections, args.seconds, "recorder", "bench", "load"), results)
    top = max(args.connections)
    for protocol in ("owntracks", "osmand"):
        ours = results.get(("ours", protocol, top), [])
        if not ours:
            continue
        line = f"{protocol} c={top}: ours median {statistics.median(ours):,.0f}"
        if peers:
            label = peers[0][0]
            theirs = results.get((label, "recorder", top), [])
            if len(theirs) == len(ours):
                rounds = ", ".join(f"{a / b:.1f}x" for a, b in zip(ours, theirs))
                line += (f"; {label} median {statistics.median(theirs):,.0f}; ratio of medians "
                         f"{statistics.median(ours) / statistics.median(theirs):.2f}x; rounds {rounds}")
        print(line)
    return 0 if ok and not results.get("failed") else 1


if __name__ == "__main__":
    sys.exit(main())
