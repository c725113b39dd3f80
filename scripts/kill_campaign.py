#!/usr/bin/env python3
"""The kill campaign (issue 9, item 16): `bgtrack serve` and `bgtrack device` as separate
processes; one of them (chosen by a seeded random draw) is SIGKILLed at a random moment, then
restarted on the same files, again and again. At the end every `seq` the phone created must be
on the server exactly once, still pending on the phone, or quarantined with a reason.

Usage: kill_campaign.py BGTRACK [--kills N] [--seed S] [--work DIR]
Exit status 1 if a sample was lost or duplicated, or a process would not start.
"""
import argparse
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("bgtrack")
parser.add_argument("--kills", type=int, default=100)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--work", default=None, help="keep the databases and logs here (default: a temp dir)")
args = parser.parse_args()

rng = random.Random(args.seed)
work = args.work or tempfile.mkdtemp(prefix="bgtrack-kill-campaign-")
os.makedirs(work, exist_ok=True)
server_db = os.path.join(work, "server.sqlite")
phone_db = os.path.join(work, "phone.sqlite")
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
url = f"http://127.0.0.1:{port}"

token = subprocess.run(
    [args.bgtrack, "device", "add", "phone", "--db", server_db], check=True, capture_output=True, text=True
).stdout.strip().splitlines()[-1]


def start_server():
    log = open(os.path.join(work, "server.log"), "a")
    process = subprocess.Popen(
        [args.bgtrack, "serve", "--db", server_db, "--port", str(port), "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            time.sleep(0.05)
    sys.exit("the server did not start within 30 s; see " + os.path.join(work, "server.log"))


def start_device():
    log = open(os.path.join(work, "device.log"), "a")
    # 30 s between samples and 10 s between uploads of device time, 600 times faster than the
    # wall clock: a sample every 50 ms and small batches, so kills land mid-upload.
    return subprocess.Popen(
        [args.bgtrack, "device", "--server", url, "--token", token, "--db", phone_db, "--name", "phone",
         "--interval", "30", "--upload-interval", "10", "--batch-size", "50", "--speedup", "600"],
        stdout=log, stderr=subprocess.STDOUT)


start = time.monotonic()
server = start_server()
device = start_device()
kills = {"server": 0, "device": 0}
schedule = []
for number in range(1, args.kills + 1):
    wait = rng.uniform(0.2, 1.2)
    victim = rng.choice(["server", "device"])
    schedule.append(f"{number}:{victim}@+{wait:.2f}s")
    time.sleep(wait)
    if victim == "server":
        server.send_signal(signal.SIGKILL)
        server.wait()
        server = start_server()
    else:
        device.send_signal(signal.SIGKILL)
        device.wait()
        device = start_device()
    kills[victim] += 1

# Let the device drain its backlog to the running server, then stop both for good.
time.sleep(3)
device.send_signal(signal.SIGKILL)
device.wait()
server.send_signal(signal.SIGKILL)
server.wait()
elapsed = time.monotonic() - start

phone = sqlite3.connect(phone_db)
created = phone.execute("SELECT next_seq FROM sync_state WHERE id = 1").fetchone()[0] - 1
pending = {row[0] for row in phone.execute("SELECT seq FROM sample")}
quarantined = {row[0]: row[1] for row in phone.execute("SELECT seq, reason FROM quarantine")}
phone.close()
stored = sqlite3.connect(server_db)
counts = dict(stored.execute(
    "SELECT s.seq, count(*) FROM sample s JOIN device d ON d.id = s.device_id WHERE d.name = 'phone' "
    "GROUP BY s.seq").fetchall())
stored.close()



def account(counts, pending, quarantined):
    on_server = set(counts)
    lost = [seq for seq in range(1, created + 1)
            if seq not in on_server and seq not in pending and seq not in quarantined]
    duplicated = [seq for seq, count in counts.items() if count > 1]
    unknown = sorted(on_server - set(range(1, created + 1)))
    return on_server, lost, duplicated, unknown


on_server, lost, duplicated, unknown = account(counts, pending, quarantined)
# The accounting has teeth: the same counts with one stored sample removed and another stored
# twice must come out as exactly one lost and one duplicated.
delivered = sorted(set(counts) - pending)
if len(delivered) >= 2:
    sabotaged = dict(counts)
    del sabotaged[delivered[0]]
    sabotaged[delivered[1]] += 1
    _, sabotage_lost, sabotage_duplicated, _ = account(sabotaged, pending, quarantined)
    if (sabotage_lost, sabotage_duplicated) != ([delivered[0]], [delivered[1]]):
        sys.exit("the accounting did not detect a planted loss and duplicate")
    print("accounting self-check: a planted loss and duplicate are detected")
print(f"kill campaign, seed {args.seed}: {args.kills} SIGKILLs ({kills['server']} server, {kills['device']} device) "
      f"in {elapsed:.0f} s; files in {work}")
print(f"schedule: {' '.join(schedule[:10])}{' …' if len(schedule) > 10 else ''}")
print(f"samples the phone created: {created}")
print(f"  on the server: {len(on_server)} (of them still pending on the phone, acknowledgement lost "
      f"in a kill: {len(on_server & pending)})")
print(f"  pending on the phone only: {len(pending - on_server)}")
print(f"  quarantined with a reason: {len(quarantined)}")
print(f"lost: {len(lost)}  duplicated on the server: {len(duplicated)}  on the server but never created: {len(unknown)}")
if lost:
    print(f"lost seqs: {lost[:20]}")
if duplicated:
    print(f"duplicated seqs: {duplicated[:20]}")
if created == 0 or lost or duplicated or unknown:
    sys.exit(1)
