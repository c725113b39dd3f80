#!/usr/bin/env python3
"""Hostile connections against a running `bgtrack serve` (issue 9, items 7-8).

1. N silent TCP connections (default 1,100, more than a 1,024 open-file limit) and 6 slowloris
   sockets that send a request head one byte per second: when does the server close them, and does
   /healthz keep answering meanwhile?
2. A burst of keep-alive connections (default 10,000), each answered one /healthz and then left
   idle: the server's resident memory before, during and after the idle timeout closed them.
3. A 413: a client that writes a whole oversized body before reading still gets the 413, with and
   without `Connection: close`, at 10, 20 and 100 MiB (--oversized-mb), and the socket closes.

Usage: connection-check.py HOST PORT SERVER_PID [--silent N] [--burst N] [--header-timeout S]
       [--idle-timeout S] [--max-body BYTES] [--token DEVICE_TOKEN] [--oversized-mb 10,20,100]
Prints a report and exits 1 if a check failed.
"""
import argparse
import resource
import select
import socket
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("host")
parser.add_argument("port", type=int)
parser.add_argument("pid", type=int)
parser.add_argument("--silent", type=int, default=1100)
parser.add_argument("--slowloris", type=int, default=6)
parser.add_argument("--burst", type=int, default=10000)
parser.add_argument("--header-timeout", type=float, default=15)
parser.add_argument("--idle-timeout", type=float, default=60)
parser.add_argument("--max-body", type=int, default=4 << 20)
parser.add_argument("--token", default="bgd_unknown", help="a device token, so the 413 is not a 401")
parser.add_argument("--only-oversized", action="store_true", help="run only check 3")
parser.add_argument("--oversized-mb", default="10,20,100",
                    help="sizes in MiB of the oversized uploads, each sent with and without Connection: close")
args = parser.parse_args()

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
failures = []


def rss_mib():
    with open(f"/proc/{args.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def open_fds():
    import os
    return len(os.listdir(f"/proc/{args.pid}/fd"))


def healthz(timeout=5.0):
    """(ok, milliseconds) for one GET /healthz on a new connection."""
    start = time.monotonic()
    try:
        with socket.create_connection((args.host, args.port), timeout=timeout) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bgtrack\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        return data.startswith(b"HTTP/1.1 200"), (time.monotonic() - start) * 1000
    except OSError:
        return False, (time.monotonic() - start) * 1000


def closed_by_peer(sock):
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(0):
            return False
        return sock.recv(4096, socket.MSG_PEEK) == b""
    except (ConnectionResetError, OSError):
        return True


def connection_checks():
    # 1. Silent and slowloris connections.
    print(f"server pid {args.pid}: {open_fds()} open files, {rss_mib():.1f} MiB resident before")
    start = time.monotonic()
    silent = [socket.create_connection((args.host, args.port)) for _ in range(args.silent)]
    slow = []
    for _ in range(args.slowloris):
        sock = socket.create_connection((args.host, args.port))
        sock.sendall(b"POST /v1/batches HTTP/1.1\r\nHost: bgtrack\r\n")
        slow.append(sock)
    print(f"opened {len(silent)} silent and {len(slow)} slowloris connections; server has {open_fds()} open files")
    silent_closed_at = slow_closed_at = None
    health = []
    while time.monotonic() - start < args.header_timeout + 20:
        for sock in slow:
            try:
                sock.send(b"X")
            except OSError:
                pass
        health.append(healthz())
        if silent_closed_at is None and all(closed_by_peer(s) for s in silent):
            silent_closed_at = time.monotonic() - start
        if slow_closed_at is None and all(closed_by_peer(s) for s in slow):
            slow_closed_at = time.monotonic() - start
        if silent_closed_at is not None and slow_closed_at is not None:
            break
        time.sleep(1)
    for sock in silent + slow:
        sock.close()
    answered = sum(1 for ok, _ in health if ok)
    worst = max(ms for _, ms in health)
    print(f"silent connections all closed by the server after {silent_closed_at and round(silent_closed_at, 1)} s")
    print(f"slowloris connections all closed by the server after {slow_closed_at and round(slow_closed_at, 1)} s")
    print(f"/healthz meanwhile: {answered} of {len(health)} answered 200, slowest {worst:.0f} ms")
    if silent_closed_at is None or slow_closed_at is None:
        failures.append("silent or slowloris connections were not closed")
    if answered != len(health):
        failures.append("/healthz did not always answer")

    # 2. A burst of keep-alive connections, then the idle timeout.
    time.sleep(1)
    before = rss_mib()
    burst_start = time.monotonic()
    burst = []
    for _ in range(args.burst):
        sock = socket.create_connection((args.host, args.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bgtrack\r\n\r\n")
        burst.append(sock)
    ok = 0
    for sock in burst:
        sock.settimeout(10)
        try:
            ok += sock.recv(4096).startswith(b"HTTP/1.1 200")
        except OSError:
            pass
    during = rss_mib()
    fds_during = open_fds()
    print(f"burst: {ok} of {len(burst)} keep-alive connections answered in {time.monotonic() - burst_start:.1f} s; "
          f"server has {fds_during} open files")
    wait_start = time.monotonic()
    while time.monotonic() - wait_start < args.idle_timeout + 20:
        if all(closed_by_peer(s) for s in burst):
            break
        time.sleep(1)
    idle_closed = time.monotonic() - wait_start
    for sock in burst:
        sock.close()
    time.sleep(2)
    after = rss_mib()
    print(f"memory: {before:.1f} MiB before, {during:.1f} MiB during, {after:.1f} MiB after "
          f"(idle connections closed {idle_closed:.1f} s after the burst; {open_fds()} open files after)")
    if ok != len(burst):
        failures.append(f"only {ok} of {len(burst)} burst connections answered")
    if open_fds() > 64:
        failures.append("the burst's connections were not closed")


if not args.only_oversized:
    connection_checks()


# 3. Oversized bodies from a client that writes the whole body before reading, with and without
#    `Connection: close` (issue 23, item 3): each must see its 413, and the server must close the
#    socket well before the idle timeout.
def oversized(body_size, close):
    headers = (b"POST /v1/batches HTTP/1.1\r\nHost: bgtrack\r\nAuthorization: Bearer " + args.token.encode()
               + b"\r\nContent-Type: application/json\r\nContent-Length: " + str(body_size).encode() + b"\r\n"
               + (b"Connection: close\r\n" if close else b"") + b"\r\n")
    start = time.monotonic()
    closed = False
    with socket.create_connection((args.host, args.port), timeout=args.idle_timeout + 30) as sock:
        sock.sendall(headers)
        sent = 0
        chunk = b"a" * 65536
        try:
            while sent < body_size:
                sent += sock.send(chunk[: body_size - sent])
            answer = b""
            while True:
                part = sock.recv(65536)
                if not part:
                    closed = True
                    break
                answer += part
        except OSError as error:
            answer = f"error {error}".encode()
    return answer.split(b"\r\n", 1)[0].decode(errors="replace"), closed, time.monotonic() - start


sizes = [args.max_body + (1 << 20)] + [int(mb) << 20 for mb in args.oversized_mb.split(",") if mb]
for body_size in sizes:
    for close in (False, True):
        status, closed, seconds = oversized(body_size, close)
        mode = "Connection: close" if close else "keep-alive"
        print(f"oversized body ({body_size >> 20} MiB, {mode}, written in full before reading): {status}; "
              f"socket {'closed by the server' if closed else 'NOT closed'} after {seconds:.2f} s")
        if not status.startswith("HTTP/1.1 413"):
            failures.append(f"the {body_size >> 20} MiB upload ({mode}) saw '{status}', not a 413")
        elif not closed or seconds >= args.idle_timeout:
            failures.append(f"the {body_size >> 20} MiB upload ({mode}) was not closed before the idle timeout")

for failure in failures:
    print(f"FAILED: {failure}")
sys.exit(1 if failures else 0)
