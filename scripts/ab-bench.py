#!/usr/bin/env python3
"""Same-run A/B of two release builds (issue 42 item 4, must-show 3).

    git clone -q . /tmp/ab-base && git -C /tmp/ab-base checkout -q 28e21c7   # the baseline, once
    python3 scripts/ab-bench.py --build --base /tmp/ab-base/.build/release --new Tools/.build/release

Each of --base and --new is a release build directory holding `bgtrack-bench` and `bgtrack`
(`swift build -c release --product bgtrack-bench`, then `--product bgtrack`; --build does that
first, one after the other). 28e21c7 has one package at the root (its builds are in
/tmp/ab-base/.build); since then the tools are in Tools/. Other options: --rounds N (default 3),
--quick (1 round, 100 MB import, shorter runs; a few minutes), --only server,import,demo,...,
--log FILE (every run's full output). The benchmarks run
interleaved, each one base and new back to back, the order swapped every round (base-new, then
new-base, ...), so both builds see the same machine load and neither always goes first:

  - native batch ingest      `bgtrack-bench server`        (HTTP ingest, its variants, fair raw SQLite)
  - single-point ingest      `bgtrack-bench single-point`  (OwnTracks and OsmAnd, group commit, /healthz)
  - import, 1 GB Records.json `bgtrack import`             (rate, CPU, peak RSS; see below)
  - a year on one map        `bgtrack-bench yearmap`       (1 device-year)
  - parse                    `bgtrack-bench parse`         (native batch parser; JSONParser where built)

The import: the Records.json `bgtrack-bench import --formats takeout-records --records-size 1GB`
generates (`bgtrack-bench import-gen`, seed 7, the base build's generator) is written once, and
each run is what that command does with it: `bgtrack device add`, then `bgtrack import` into a
fresh store under /usr/bin/time (and in the first round the same file again, which must add 0),
without generating it again and without its raw-commit baseline, which here is the other build
(--import-via-bench runs `bgtrack-bench import` itself: about 2.5× the time).

It prints a markdown table of medians (benchmark | base median | new median | new/base | runs) and
the per-run values. Then byte-identity, base (or --identity-base DIR: 28e21c7 still ran iOS 6-16
rows and the demo on the keep-alive machine directly, which issue 39 removed, so its compare matrix
and demo report differ from main's by design) against new, as a line diff:

  - the compare matrix: `bgtrack compare` (table) and `bgtrack compare --format json`; nothing
    stripped (the command prints no timings);
  - the demo report: the `report-DAY.txt` that `bgtrack demo --exit` writes into its --data
    directory, for one fixed day in UTC (`--day`/`--time-zone` where the build has them; a build
    without them simulates its fixed first day, which the other builds are then given). Stripped:
    the loopback port (`127.0.0.1:PORT`, curl's `127.0.0.1 port PORT`), curl's time to a refused
    connection (`after N ms`) and the minted tokens (`token=...`); the --data path is
    the same for every run. The new build's demo runs twice, to show the report is deterministic
    after that stripping (--no-repeat-demo: once).

Every child runs with TMPDIR in a scratch directory under /tmp, removed after each run (the 1 GB
file, the stores). Python 3 standard library only. Flags are checked against each build's `--help`
before anything runs. Exit status: 0 when every run succeeded and both outputs are identical.
"""

import argparse
import datetime
import difflib
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

# --------------------------------------------------------------------------------------------
# The benchmarks: the arguments (default and --quick) and what to read from the output.
# --------------------------------------------------------------------------------------------

# (benchmark key, subcommand, default flags, --quick flags)
BENCHES = [
    ("server", "server", ["--points", "50000", "--repetitions", "3"], ["--points", "20000", "--repetitions", "1"]),
    (
        "single-point",
        "single-point",
        ["--seconds", "2", "--rounds", "1", "--connections", "1", "16", "--modes", "on"],
        ["--seconds", "1", "--rounds", "1", "--connections", "16", "--modes", "on"],
    ),
    (
        "import",
        "import",
        ["--formats", "takeout-records", "--records-size", "1GB"],
        ["--formats", "takeout-records", "--records-size", "100MB"],
    ),
    ("yearmap", "yearmap", ["--device-years", "1", "--repeats", "6"], ["--device-years", "1", "--repeats", "3"]),
    ("parse", "parse", ["--points", "10000", "--repetitions", "10"], ["--points", "10000", "--repetitions", "3"]),
]

HIGHER, LOWER, SAME = "↑", "↓", "="  # which way is better; SAME: a count that must not change

NUMBER = r"([0-9]+(?:\.[0-9]+)?)"


def parse_server(out):
    figures = {}
    patterns = [
        ("HTTP ingest, points/s", HIGHER, r"HTTP POST /v1/batches.*?median [0-9.]+ s\s+" + NUMBER + r" points/s"),
        ("HTTP ingest --no-timeline, points/s", HIGHER, r"--no-timeline .*?: " + NUMBER + r" points/s"),
        ("HTTP ingest --group-commit off, points/s", HIGHER, r"--group-commit off .*?: " + NUMBER + r" points/s"),
        ("HTTP ingest --durability normal, points/s", HIGHER, r"--durability normal .*?: " + NUMBER + r" points/s"),
        ("parse and insert, no HTTP, points/s", HIGHER, r"parse and insert in process.*?: " + NUMBER + r" points/s"),
        ("fair raw SQLite (baseline), points/s", HIGHER, r"^\s*fair raw SQLite \(.*\): " + NUMBER + r" points/s"),
        ("HTTP ingest / fair raw", HIGHER, r"HTTP ingest / fair raw: " + NUMBER),
    ]
    for name, better, pattern in patterns:
        match = re.search(pattern, out, re.M)
        if match:
            figures[name] = (float(match.group(1)), better)
    return figures


def parse_single_point(out):
    figures = {}
    for line in out.splitlines():
        match = re.match(r"^\s*(\d+)  (/healthz|OwnTracks group|OsmAnd group|OwnTracks off|OsmAnd off)\s+(\d+)\b", line)
        if not match:
            continue
        conns, name, rate = match.group(1), match.group(2), float(match.group(3))
        figures[f"{name}, {conns} conns, req/s"] = (rate, HIGHER)
        # p50 and p99 (ms): the last two decimals before the acks column.
        decimals = re.findall(r"(?<![\d.])\d+\.\d+(?![\d.×])", line.split(" acks")[0][match.end() :])
        if len(decimals) >= 2:
            figures[f"{name}, {conns} conns, p99 ms"] = (float(decimals[-1]), LOWER)
    if "rows stored = requests acknowledged in every ingest cell" not in out:
        figures["rows = acks check"] = (0.0, SAME)
    return figures


def parse_import(out):
    figures = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 11 or cells[0] != "takeout-records":
            continue

        def number(text):
            return float(re.match(r"[0-9.]+", text).group(0))

        figures["import points (same file)"] = (number(cells[2]), SAME)
        figures["import time, s"] = (number(cells[3]), LOWER)
        figures["import points/s"] = (number(cells[4]), HIGHER)
        figures["import CPU s"] = (number(cells[5]), LOWER)
        figures["import points per CPU s"] = (number(cells[6]), HIGHER)
        figures["import peak RSS, MB (bgtrack import)"] = (number(cells[7]), LOWER)
        figures["2nd import: added (must be 0)"] = (number(cells[8]), SAME)
        figures["raw commit (baseline), points/s"] = (number(cells[9]), HIGHER)
        figures["import / raw commit"] = (number(cells[10]), HIGHER)
    return figures


def parse_yearmap(out):
    figures = {}
    match = re.search(r"filled in " + NUMBER + " s", out)
    if match:
        figures["fill 258,600 rows, s"] = (float(match.group(1)), LOWER)
    match = re.search(r"detail backfill: .*?\(" + NUMBER + " rows/s\)", out)
    if match:
        figures["detail backfill, rows/s"] = (float(match.group(1)), HIGHER)
    labels = [
        ("map, whole year", "map, whole year"),
        ("map, one week at zoom 16", "map, one week z16"),
        ("every point (track, polyline)", "every point, polyline"),
        ("every point (track, GeoJSON)", "every point, GeoJSON"),
    ]
    for prefix, name in labels:
        match = re.search(r"^\s*" + re.escape(prefix) + r"[^:]*: " + NUMBER + r" ms, (\d+) bytes", out, re.M)
        if match:
            figures[f"{name}, ms (median)"] = (float(match.group(1)), LOWER)
            figures[f"{name}, bytes"] = (float(match.group(2)), SAME)
    return figures


def parse_parse(out):
    figures = {}
    match = re.search(r"parse only: .*?best " + NUMBER + r" µs per point, median " + NUMBER, out)
    if match:
        figures["native parser, best µs/point"] = (float(match.group(1)), LOWER)
        figures["native parser, median µs/point"] = (float(match.group(2)), LOWER)
    match = re.search(r"JSONDecoder into BatchRequest.*?best " + NUMBER + r" µs per point.*?takes " + NUMBER + "×", out)
    if match:
        figures["JSONDecoder (baseline), best µs/point"] = (float(match.group(1)), LOWER)
        figures["native / JSONDecoder (best)"] = (float(match.group(2)), LOWER)
    match = re.search(r"JSONParser into JSONValue.*?best " + NUMBER + r" µs per point.*?takes " + NUMBER + "×", out)
    if match:
        figures["JSONParser, best µs/point (since c54a26e)"] = (float(match.group(1)), LOWER)
        figures["JSONParser / JSONDecoder (best)"] = (float(match.group(2)), LOWER)
    return figures


PARSERS = {
    "server": parse_server,
    "single-point": parse_single_point,
    "import": parse_import,
    "yearmap": parse_yearmap,
    "parse": parse_parse,
}

TITLES = {
    "server": "native batch ingest (`bgtrack-bench server`)",
    "single-point": "single-point ingest (`bgtrack-bench single-point`)",
    "import": "import, Takeout `Records.json` (`bgtrack-bench import`)",
    "yearmap": "a year on one map (`bgtrack-bench yearmap`)",
    "parse": "parse (`bgtrack-bench parse`)",
}

# --------------------------------------------------------------------------------------------
# Running.
# --------------------------------------------------------------------------------------------


def log(message):
    print(f"[{datetime.datetime.now(datetime.timezone.utc).strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load():
    try:
        with open("/proc/loadavg") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "?"


HELP_CACHE = {}


def help_text(binary, subcommand):
    key = (binary, subcommand)
    if key not in HELP_CACHE:
        result = subprocess.run(
            [binary] + subcommand.split() + ["--help"], capture_output=True, text=True, timeout=60, env=child_env(None)
        )
        HELP_CACHE[key] = result.stdout + result.stderr
    return HELP_CACHE[key]


def has_flag(binary, subcommand, flag):
    return re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", help_text(binary, subcommand)) is not None


def check_flags(binary, subcommand, arguments):
    """The flags of `arguments` this build's `subcommand --help` does not list."""
    return [arg for arg in arguments if arg.startswith("--") and not has_flag(binary, subcommand, arg)]


def child_env(scratch):
    env = dict(os.environ)
    env["TZ"] = "UTC"
    env["LC_ALL"] = "C.UTF-8"
    if scratch:
        env["TMPDIR"] = scratch
    return env


def run_timed(argv, scratch, timeout, cwd=None, cpu=False):
    """Runs argv under /usr/bin/time; answers (returncode, stdout+stderr, wall s, max RSS MB),
    and with `cpu` also user+system CPU seconds."""
    time_file = os.path.join(scratch, "time.txt")
    full = ["/usr/bin/time", "-o", time_file, "-f", "%e %M %U %S"] + argv if os.path.exists("/usr/bin/time") else argv
    started = time.monotonic()
    # Its own process group, so a timeout or an interrupt ends the benchmark under /usr/bin/time too.
    child = subprocess.Popen(
        full,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env=child_env(scratch),
        cwd=cwd or scratch,
        start_new_session=True,
    )
    try:
        out, _ = child.communicate(timeout=timeout)
        code = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, _ = child.communicate()
        code = -1
        out += f"\n(timed out after {timeout} s)"
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise
    wall = time.monotonic() - started
    rss = cpu_seconds = None
    try:
        with open(time_file) as handle:
            last = handle.read().strip().splitlines()[-1].split()
        wall, rss, cpu_seconds = float(last[0]), float(last[1]) / 1024, float(last[2]) + float(last[3])
    except (OSError, IndexError, ValueError):
        pass
    finally:
        if os.path.exists(time_file):
            os.remove(time_file)
    return (code, out, wall, rss, cpu_seconds) if cpu else (code, out, wall, rss)


def build_products(side, build):
    """`swift build --package-path PACKAGE -c release --product P` for bgtrack-bench and bgtrack,
    where `build` is PACKAGE/.build/release."""
    build = os.path.realpath(build)
    if os.path.basename(build) != "release" or os.path.basename(os.path.dirname(build)) != ".build":
        sys.exit(f"--build needs --{side} as PACKAGE/.build/release, got {build}")
    package = os.path.dirname(os.path.dirname(build))
    for product in ("bgtrack-bench", "bgtrack"):
        log(f"building {product} in {package} (release)")
        result = subprocess.run(["swift", "build", "--package-path", package, "-c", "release", "--product", product])
        if result.returncode != 0:
            sys.exit(f"swift build of {product} in {package} failed (exit {result.returncode})")


def fresh_scratch(root, label):
    path = tempfile.mkdtemp(prefix=label + "-", dir=root)
    return path


def run_bench(build, key, subcommand, arguments, root, timeout, keep_output, import_file=None, second=False):
    if key == "import" and import_file:
        return run_import_direct(build, import_file, root, timeout, keep_output, second)
    scratch = fresh_scratch(root, f"{key}")
    try:
        argv = [os.path.join(build, "bgtrack-bench"), subcommand] + arguments
        if key == "import":
            argv += ["--directory", os.path.join(scratch, "import")]
        code, out, wall, rss = run_timed(argv, scratch, timeout)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if keep_output is not None:
        keep_output.write(f"\n===== {build} {subcommand} {' '.join(arguments)} (exit {code}, {wall:.1f} s)\n{out}")
        keep_output.flush()
    figures = PARSERS[key](out) if code == 0 else {}
    if code == 0:
        figures["bench process wall clock, s"] = (wall, LOWER)
        if rss is not None:
            figures["bench process max RSS, MB"] = (rss, LOWER)
    return code, out, figures


def generate_import_file(build, size, root, timeout):
    """One Records.json for every import run: `bgtrack-bench import-gen` with the seed
    `bgtrack-bench import` uses (7), so it is the file that command would import."""
    path = os.path.join(root, "records.json")
    code, out, wall, _ = run_timed(
        [os.path.join(build, "bgtrack-bench"), "import-gen", "--format", "takeout-records", "--size", size,
         "--seed", "7", "--out", path],
        root,
        timeout,
    )
    if code != 0:
        sys.exit(f"import-gen failed (exit {code}): {out[-800:]}")
    log(f"generated {path} ({os.path.getsize(path) / 1e6:.1f} MB) in {wall:.1f} s: {out.strip().splitlines()[-1]}")
    return path


def parse_import_summary(out):
    """`bgtrack import`'s summary: points, added, time (the lines `Child.value` reads)."""
    values = {}
    for label in ("points", "added", "time"):
        match = re.search(r"^\s*" + label + r"\s+" + NUMBER, out, re.M)
        if match:
            values[label] = float(match.group(1))
    match = re.search(r"^\s*time\s+[0-9.]+ s, " + NUMBER + " points/s", out, re.M)
    if match:
        values["rate"] = float(match.group(1))
    return values


def run_import_direct(build, import_file, root, timeout, keep_output, second):
    """What `bgtrack-bench import` does for one format, without generating the file again and
    without its raw-commit baseline (the other build is the baseline here): `bgtrack device add`,
    then `bgtrack import` into a fresh store (durability full) under /usr/bin/time; with `second`,
    the same file again, which must add 0."""
    scratch = fresh_scratch(root, "import")
    binary = os.path.join(build, "bgtrack")
    database = os.path.join(scratch, "import.sqlite")
    texts = []
    figures = {}
    try:
        code, out, _, _ = run_timed([binary, "device", "add", "phone", "--db", database], scratch, timeout)
        texts.append(out)
        if code == 0:
            argv = [binary, "import", "--device", "phone", "--db", database, import_file]
            code, out, wall, rss, cpu = run_timed(argv, scratch, timeout, cpu=True)
            texts.append(out)
            summary = parse_import_summary(out)
            if code == 0 and {"points", "time"} <= summary.keys():
                figures["import points (same file)"] = (summary["points"], SAME)
                figures["import time, s (bgtrack's own)"] = (summary["time"], LOWER)
                figures["import points/s"] = (summary.get("rate", summary["points"] / summary["time"]), HIGHER)
                if cpu is not None:
                    figures["import CPU s (user+sys)"] = (cpu, LOWER)
                    figures["import points per CPU s"] = (summary["points"] / max(cpu, 1e-3), HIGHER)
                if rss is not None:
                    figures["import peak RSS, MB"] = (rss, LOWER)
            if code == 0 and second:
                code, out, _, _, _ = run_timed(argv, scratch, timeout, cpu=True)
                texts.append(out)
                again = parse_import_summary(out)
                if code == 0 and "added" in again:
                    figures["2nd import: added (must be 0; first round only)"] = (again["added"], SAME)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = "\n".join(texts)
    if keep_output is not None:
        keep_output.write(f"\n===== {build} bgtrack import {import_file} (exit {code})\n{text}")
        keep_output.flush()
    return code, text, figures if code == 0 else {}


# --------------------------------------------------------------------------------------------
# Byte-identity.
# --------------------------------------------------------------------------------------------

DEMO_STRIPS = [
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<port>", "the loopback port (127.0.0.1:PORT"),
    (re.compile(r"127\.0\.0\.1 port \d+"), "127.0.0.1 port <port>", "and curl's 127.0.0.1 port PORT)"),
    (re.compile(r"(Failed to connect to .*? after )\d+ ms"), r"\1<ms> ms", "curl's time to a refused connection (after N ms)"),
    (re.compile(r"token=[A-Za-z0-9_\-]+"), "token=<token>", "the minted tokens (token=...)"),
]


def strip(text, strips):
    for pattern, replacement, _ in strips:
        text = pattern.sub(replacement, text)
    return text


def differing_lines(a, b):
    """Lines removed plus lines added in a line diff of a and b."""
    return sum(
        1
        for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    )


def first_differences(a, b, limit=8):
    """The first `limit` changed lines of a line diff (- base, + new), with their hunk headers."""
    out = []
    changed = 0
    for line in difflib.unified_diff(a.splitlines(), b.splitlines(), "base", "new", lineterm="", n=0):
        if line.startswith(("+++", "---")):
            continue
        if line[:1] in "+-":
            changed += 1
            if changed > limit:
                break
        out.append("  " + line[:300])
    return out


def compare_output(build, arguments, root, timeout):
    """`bgtrack compare ARGS --output FILE`: answers (exit code, the file's text or the log, wall s)."""
    scratch = fresh_scratch(root, "compare")
    try:
        target = os.path.join(scratch, "matrix.out")
        binary = os.path.join(build, "bgtrack")
        argv = [binary, "compare"] + arguments
        use_file = has_flag(binary, "compare", "--output")
        if use_file:
            argv += ["--output", target]
        code, out, wall, _ = run_timed(argv, scratch, timeout)
        text = out
        if use_file and code == 0:
            with open(target, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        return code, text, wall
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def demo_report(build, day, zone, root, timeout):
    """`bgtrack demo --exit` in a fresh --data (the same path every run): answers
    (exit code, report text, the day it simulated, wall s, log)."""
    data = os.path.join(root, "demo-data")
    shutil.rmtree(data, ignore_errors=True)
    scratch = fresh_scratch(root, "demo")
    binary = os.path.join(build, "bgtrack")
    argv = [binary, "demo", "--exit", "--data", data, "--port", "0"]
    if day and has_flag(binary, "demo", "--day"):
        argv += ["--day", day]
    if zone and has_flag(binary, "demo", "--time-zone"):
        argv += ["--time-zone", zone]
    try:
        code, out, wall, _ = run_timed(argv, scratch, timeout)
        reports = sorted(name for name in os.listdir(data) if re.match(r"report-.*\.txt$", name)) if os.path.isdir(data) else []
        if code != 0 or len(reports) != 1:
            return code or 1, "", None, wall, out, argv
        with open(os.path.join(data, reports[0]), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        return 0, text, reports[0][len("report-") : -len(".txt")], wall, out, argv
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# Report.
# --------------------------------------------------------------------------------------------


def fmt(value):
    if value is None:
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:.1f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def median(values):
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="release build dir of the baseline (bgtrack-bench, bgtrack)")
    parser.add_argument("--new", required=True, help="release build dir of the candidate (bgtrack-bench, bgtrack)")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds (default 3, --quick 1)")
    parser.add_argument("--quick", action="store_true", help="smaller runs (100 MB import, fewer repetitions), 1 round")
    parser.add_argument(
        "--only",
        default=None,
        help="comma-separated subset of: " + ",".join(b[0] for b in BENCHES) + ",compare,demo (identity: both)",
    )
    parser.add_argument("--skip-identity", action="store_true", help="no compare matrix / demo report check")
    parser.add_argument(
        "--no-repeat-demo", action="store_true", help="run the new build's demo once (default: twice, for determinism)"
    )
    parser.add_argument(
        "--identity-base",
        default=None,
        help="release build dir to check byte-identity against (default: --base); e.g. a build from before a "
        "refactor when --base is older than changes that were meant to alter the outputs",
    )
    parser.add_argument("--demo-day", default="2024-11-25", help="the demo's day where a build has --day")
    parser.add_argument("--demo-time-zone", default="UTC", help="the demo's zone where a build has --time-zone")
    parser.add_argument(
        "--import-via-bench",
        action="store_true",
        help="import through `bgtrack-bench import` (generates the file each run, adds its raw-commit baseline and "
        "second import: about 2.5× the time) instead of `bgtrack import` of one generated file",
    )
    parser.add_argument("--import-size", default=None, help="the Records.json size (default 1GB, --quick 100MB)")
    parser.add_argument(
        "--build",
        action="store_true",
        help="first `swift build -c release` both products in each package (a DIR of PACKAGE/.build/release), "
        "one after the other; incremental when up to date",
    )
    parser.add_argument("--scratch", default="/tmp", help="parent of the scratch directory (generated files)")
    parser.add_argument("--log", default=None, help="append every benchmark's full output to this file")
    parser.add_argument("--timeout", type=int, default=900, help="seconds before a run is killed")
    args = parser.parse_args()
    # SIGINT or SIGTERM (also when started in the background, where SIGINT comes ignored): the
    # runs so far are printed.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.default_int_handler)

    builds = {"base": os.path.abspath(args.base), "new": os.path.abspath(args.new)}
    if args.build:
        for side, build in builds.items():
            build_products(side, build)
    for side, build in builds.items():
        for binary in ("bgtrack-bench", "bgtrack"):
            if not os.access(os.path.join(build, binary), os.X_OK):
                sys.exit(f"--{side} {build}: no executable {binary}; build it with "
                         f"`swift build -c release --product {binary}`")
    rounds = args.rounds or (1 if args.quick else 3)
    only = set(args.only.split(",")) if args.only else None
    benches = [b for b in BENCHES if only is None or b[0] in only]
    if only and "identity" in only:
        only |= {"compare", "demo"}
    do_compare = not args.skip_identity and (only is None or "compare" in only)
    do_demo = not args.skip_identity and (only is None or "demo" in only)
    do_identity = do_compare or do_demo

    # Flags, checked against both builds before anything runs.
    plan = []
    for key, subcommand, default, quick in benches:
        arguments = quick if args.quick else default
        for side, build in builds.items():
            missing = check_flags(os.path.join(build, "bgtrack-bench"), subcommand, arguments)
            if missing:
                sys.exit(f"{side} build's `bgtrack-bench {subcommand}` has no {' '.join(missing)}; adjust BENCHES")
        if key == "import" and args.import_size:
            arguments = [args.import_size if previous == "--records-size" else arg
                         for previous, arg in zip([None] + arguments, arguments)]
        if key == "import" and not args.import_via_bench:
            for side, build in builds.items():
                for binary, command, flags in (
                    ("bgtrack-bench", "import-gen", ["--format", "--size", "--seed", "--out"]),
                    ("bgtrack", "device add", ["--db"]),
                    ("bgtrack", "import", ["--device", "--db"]),
                ):
                    missing = check_flags(os.path.join(build, binary), command, flags)
                    if missing:
                        sys.exit(f"{side} build's `{binary} {command}` has no {' '.join(missing)}")
        plan.append((key, subcommand, arguments))
    if do_identity:
        reference = {"base": os.path.abspath(args.identity_base or args.base), "new": builds["new"]}
        for side, build in reference.items():
            binary = os.path.join(build, "bgtrack")
            if not os.access(binary, os.X_OK):
                sys.exit(f"{build}: no executable bgtrack")
            for subcommand, flags in (("compare", ["--format"]), ("demo", ["--exit", "--data", "--port"])):
                missing = check_flags(binary, subcommand, flags)
                if missing:
                    sys.exit(f"{side} build's `bgtrack {subcommand}` has no {' '.join(missing)}")

    root = tempfile.mkdtemp(prefix="ab-bench-", dir=args.scratch)
    keep = open(args.log, "a") if args.log else None
    started = time.monotonic()
    loads = [load()]
    log(f"scratch {root}; load {loads[0]}; {rounds} round(s) of {', '.join(p[0] for p in plan)}")
    # results[key][side] = list of figure dicts, failures[key][side] = count
    results = {key: {"base": [], "new": []} for key, _, _ in plan}
    failures = {key: {"base": 0, "new": 0} for key, _, _ in plan}
    failure_logs = []
    import_file = None
    import_bytes = 0
    interrupted = False
    try:
        import_arguments = next((a for k, _, a in plan if k == "import"), None)
        if import_arguments and not args.import_via_bench:
            size = import_arguments[import_arguments.index("--records-size") + 1]
            import_file = generate_import_file(builds["base"], size, root, args.timeout)
            import_bytes = os.path.getsize(import_file)
        identity = []
        try:
            for round_index in range(rounds):
                order = ["base", "new"] if round_index % 2 == 0 else ["new", "base"]
                for key, subcommand, arguments in plan:
                    for side in order:
                        log(f"round {round_index + 1}/{rounds} {key} {side} (load {load()})")
                        code, out, figures = run_bench(
                            builds[side], key, subcommand, arguments, root, args.timeout, keep,
                            import_file=import_file, second=round_index == 0,
                        )
                        if code != 0 or not figures:
                            failures[key][side] += 1
                            failure_logs.append(f"{key} {side} round {round_index + 1}: exit {code}\n{out[-1500:]}")
                            log(f"  FAILED (exit {code})")
                        else:
                            results[key][side].append(figures)
                loads.append(load())
            if do_identity:
                reference = {"base": os.path.abspath(args.identity_base or args.base), "new": builds["new"]}
                identity = check_identity(reference, root, args, do_compare, do_demo)
        except KeyboardInterrupt:
            # SIGINT to this process: the table of the runs so far.
            interrupted = True
            log("interrupted: printing the runs so far")
    finally:
        shutil.rmtree(root, ignore_errors=True)
        if keep:
            keep.close()

    elapsed = time.monotonic() - started
    print(f"## Same-run A/B: base `{builds['base']}` vs new `{builds['new']}`\n")
    print(
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, {rounds} interleaved round(s)"
        f"{' (--quick)' if args.quick else ''}, order swapped each round; load average (1/5/15 min) at the start "
        f"and after each round: {'; '.join(loads)}; {elapsed / 60:.1f} min in all"
        f"{'; INTERRUPTED (SIGINT), the runs so far' if interrupted else ''}.\n"
    )
    print("| benchmark | base median | new median | new/base | runs (base; new) |")
    print("| --- | ---: | ---: | ---: | --- |")
    all_ok = True
    for key, subcommand, arguments in plan:
        if key == "import" and import_file:
            title = (f"import, {import_bytes / 1e6:.1f} MB Takeout `Records.json` (`bgtrack import` "
                     f"of the file `bgtrack-bench import {' '.join(arguments)}` generates, fresh store each run)")
            print(f"| **{title}** | | | | |")
        else:
            print(f"| **{TITLES[key]}** `{' '.join(arguments)}` | | | | |")
        names = []
        for side in ("base", "new"):
            for figures in results[key][side]:
                for name in figures:
                    if name not in names:
                        names.append(name)
        for name in names:
            values = {}
            better = None
            for side in ("base", "new"):
                values[side] = [f[name][0] for f in results[key][side] if name in f]
                for f in results[key][side]:
                    if name in f:
                        better = f[name][1]
            base_median, new_median = median(values["base"]), median(values["new"])
            ratio = "–"
            if base_median and new_median is not None:
                ratio = f"{new_median / base_median:.3f}"
            elif base_median == 0 and new_median == 0:
                ratio = "same"
            if better == SAME and values["base"] and values["new"] and set(values["base"]) != set(values["new"]):
                ratio += " **differs**"
            runs = f"{', '.join(fmt(v) for v in values['base']) or '–'}; {', '.join(fmt(v) for v in values['new']) or '–'}"
            print(f"| {name} {better} | {fmt(base_median)} | {fmt(new_median)} | {ratio} | {runs} |")
        for side in ("base", "new"):
            if failures[key][side]:
                all_ok = False
                print(f"| {key}: {side} FAILED {failures[key][side]} run(s) | | | | |")
    print(
        "\n↑ higher is better, ↓ lower is better, = must be equal (a count or a size). Figures are medians over "
        "the rounds of each benchmark's own median/best; `bench process` rows are `/usr/bin/time` of the whole "
        "`bgtrack-bench` invocation (with --import-via-bench, for `import` that is the generator and the raw "
        "commit; the import's own peak RSS is its row)."
    )
    if identity:
        print(f"\n### Byte-identity, `{os.path.abspath(args.identity_base or args.base)}` (base) vs new\n")
        for line in identity:
            print(line)
            if "DIFFERENT" in line or "FAILED" in line:
                all_ok = False
    if failure_logs:
        print("\n### Failures\n")
        for entry in failure_logs:
            print("```\n" + entry + "\n```")
    return 0 if all_ok and not interrupted else 1


def check_identity(builds, root, args, do_compare, do_demo):
    lines = []
    # The compare matrix: the table and the JSON; nothing stripped.
    matrices = (("compare matrix (table)", []), ("compare matrix (--format json)", ["--format", "json"]))
    for label, arguments in matrices if do_compare else ():
        outputs = {}
        for side in ("base", "new"):
            log(f"identity: {label} {side} (load {load()})")
            code, text, wall = compare_output(builds[side], arguments, root, args.timeout)
            outputs[side] = (code, text, wall)
        if outputs["base"][0] != 0 or outputs["new"][0] != 0:
            lines.append(
                f"- **{label}: FAILED** (exit base {outputs['base'][0]}, new {outputs['new'][0]}): "
                f"{(outputs['base'][1] if outputs['base'][0] else outputs['new'][1])[-500:]}"
            )
            continue
        a, b = outputs["base"][1], outputs["new"][1]
        verdict = "IDENTICAL" if a == b else f"DIFFERENT ({differing_lines(a, b)} lines removed or added)"
        lines.append(
            f"- `bgtrack compare {' '.join(arguments)}` ({label}): **{verdict}** ({len(a.encode())} / {len(b.encode())} "
            f"bytes, {len(a.splitlines())} / {len(b.splitlines())} lines; {outputs['base'][2]:.1f} s / "
            f"{outputs['new'][2]:.1f} s); nothing stripped"
        )
        if a != b:
            lines.append("```")
            lines += first_differences(a, b)
            lines.append("```")
    if not do_demo:
        return lines
    # The demo report. A build without --day simulates its fixed first day: run that one first
    # and give its day to the others.
    sides = sorted(("base", "new"), key=lambda side: has_flag(os.path.join(builds[side], "bgtrack"), "demo", "--day"))
    day = None
    if not has_flag(os.path.join(builds[sides[0]], "bgtrack"), "demo", "--day"):
        day = None  # found from the first run
    else:
        day = args.demo_day
    reports = {}
    for side in sides:
        log(f"identity: demo {side} (load {load()})")
        reports[side] = demo_report(builds[side], day, args.demo_time_zone, root, args.timeout)
        if reports[side][0] == 0 and day is None:
            day = reports[side][2]
    extra = None
    if not args.no_repeat_demo:
        log(f"identity: demo new, second run (load {load()})")
        extra = demo_report(builds["new"], day, args.demo_time_zone, root, args.timeout)
    named = ", ".join(description for _, _, description in DEMO_STRIPS)
    for side in ("base", "new"):
        code, _, simulated, wall, out, argv = reports[side]
        if code != 0:
            lines.append(f"- **demo report: FAILED** ({side}, exit {code}, `{' '.join(argv[1:])}`): {out[-800:]}")
            return lines
    a, b = (strip(reports[side][1], DEMO_STRIPS) for side in ("base", "new"))
    verdict = "IDENTICAL" if a == b else f"DIFFERENT ({differing_lines(a, b)} lines removed or added)"
    commands = "; ".join(f"{side}: `bgtrack {' '.join(reports[side][5][1:])}`" for side in ("base", "new"))
    lines.append(
        f"- demo report (`report-{reports['base'][2]}.txt` / `report-{reports['new'][2]}.txt`): **{verdict}** "
        f"({len(a.splitlines())} / {len(b.splitlines())} lines; {reports['base'][3]:.1f} s / {reports['new'][3]:.1f} s); "
        f"stripped: {named}; {commands}"
    )
    if a != b:
        lines.append("```")
        lines += first_differences(a, b, limit=12)
        lines.append("```")
    if extra is not None:
        if extra[0] != 0:
            lines.append(f"- demo report, new twice: second run FAILED (exit {extra[0]})")
        else:
            again = strip(extra[1], DEMO_STRIPS)
            lines.append(
                f"- demo report, new build twice: **{'IDENTICAL' if again == b else 'DIFFERENT'}** after the same stripping"
            )
            if again != b:
                lines.append("```")
                lines += first_differences(b, again)
                lines.append("```")
    return lines


if __name__ == "__main__":
    sys.exit(main())
