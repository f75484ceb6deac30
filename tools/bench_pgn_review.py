#!/usr/bin/env python3
"""Time `threefold review --all --no-engine` beside python-chess reading the same PGN file
(chess.pgn.read_game for every game), in the same run, runs alternated, and print the
median speed of each in MB of PGN per second.

Both are timed in CPU seconds (user + system) as well as wall-clock seconds: on a shared
machine the wall clock measures the neighbours too.

    python3 tools/bench_pgn_review.py FILE.pgn [--runs 3] [--py-runs 3]
        [--bin target/release/threefold] [--bin /tmp/threefold-before ...]

python-chess is slow (about 100 times slower here), so --py-runs can be smaller than --runs.
"""
import os
import resource
import statistics
import subprocess
import sys
import time

import chess
import chess.pgn

args = sys.argv[1:]
path = None
runs = 3
py_runs = None
binaries = []
while args:
    a = args.pop(0)
    if a == "--runs":
        runs = int(args.pop(0))
    elif a == "--py-runs":
        py_runs = int(args.pop(0))
    elif a == "--bin":
        binaries.append(args.pop(0))
    else:
        path = a
if path is None:
    sys.exit(__doc__)
py_runs = runs if py_runs is None else py_runs
binaries = binaries or ["target/release/threefold"]
mb = os.path.getsize(path) / 1e6


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def threefold_once(binary):
    c0, t0 = child_cpu(), time.perf_counter()
    subprocess.run(
        [binary, "review", "--pgn", path, "--all", "--no-engine"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return child_cpu() - c0, time.perf_counter() - t0


def python_chess_once():
    c0, t0 = time.process_time(), time.perf_counter()
    games = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while chess.pgn.read_game(f) is not None:
            games += 1
    return time.process_time() - c0, time.perf_counter() - t0


python_name = f"python-chess {chess.__version__} read_game"
results = {f"{b} review --all --no-engine": [] for b in binaries}
results[python_name] = []
for i in range(max(runs, py_runs)):
    if i < runs:
        for b in binaries:
            results[f"{b} review --all --no-engine"].append(threefold_once(b))
    if i < py_runs:
        results[python_name].append(python_chess_once())
print(f"{path}: {mb:.1f} MB")
for name, times in results.items():
    cpu = statistics.median(t[0] for t in times)
    wall = statistics.median(t[1] for t in times)
    print(
        f"{name}: median of {len(times)}: {mb / cpu:.2f} MB/s CPU ({cpu:.2f} s), "
        f"{mb / wall:.2f} MB/s wall ({wall:.2f} s)"
    )
