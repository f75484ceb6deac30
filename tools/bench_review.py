#!/usr/bin/env python3
"""The review benchmark (issue 37): for one PGN file, in one run, runs alternated, the medians of

- pgn-reader's tokenizing rate (the field's PGN reader, a visitor touching every tag and SAN:
  crates/lab/examples/pgn_reader_rate.rs), over FILE.pgn and FILE.pgn.zst;
- python-chess's chess.pgn.read_game over the file (or its first --py-mb MB, cut at a game's
  start: it is about a hundred times slower; the output says so);
- `threefold review --pgn F --all --no-engine --threads N` for N = 1 and 2 and F = FILE.pgn and
  FILE.pgn.zst;

as MB of PGN (uncompressed) per second, wall clock and CPU (user + system: on a shared machine
the wall clock measures the neighbours too), and the peak RSS of each command (the largest of
its runs, from GNU time's %M: os.wait4's ru_maxrss starts at this script's own size).

    python3 tools/bench_review.py FILE.pgn [--runs 5] [--py-runs N] [--py-mb N]
        [--bin target/release/threefold] [--bin /tmp/threefold-before ...]
        [--threads 1,2] [--no-threads] [--no-zst] [--reader PATH]

FILE.pgn.zst is made with the zstd command if it is missing. --bin may be given several times
(before/after). --no-threads runs threefold without --threads and --no-zst on the .pgn only (a
binary without these). --reader is the pgn_reader_rate example's binary (default: built with
cargo in target/release/examples/). A file to measure:

    cargo run --release -p threefold-lab --example gen_pgn -- --mb 100 --seed 1 --out db.pgn
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pgn", help="the PGN file (FILE.pgn; FILE.pgn.zst is made beside it)")
    p.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    p.add_argument("--py-runs", type=int, default=None, help="runs of python-chess (default: --runs)")
    p.add_argument("--py-mb", type=float, default=None, help="python-chess reads only the first N MB")
    p.add_argument("--bin", action="append", default=[], help="threefold binary (repeatable)")
    p.add_argument("--threads", default="1,2", help="thread counts of threefold (default 1,2)")
    p.add_argument("--no-threads", action="store_true", help="run threefold without --threads")
    p.add_argument("--no-zst", action="store_true", help="run threefold on the .pgn only")
    p.add_argument("--reader", default=None, help="the pgn_reader_rate binary")
    a = p.parse_args(argv)
    a.bin = a.bin or [os.path.join(ROOT, "target/release/threefold")]
    a.py_runs = a.runs if a.py_runs is None else a.py_runs
    return a


# A child's ru_maxrss starts at the size of the process it was forked from (Linux keeps the
# high-water mark across exec): this script's own 35 MB. GNU time, a small process, forks the
# command and reports the command's own peak; without it the peak is not known.
GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def timed(cmd):
    """Runs cmd (stdout discarded); returns (CPU seconds, wall seconds, peak RSS in MB or None)
    from os.wait4 (and GNU time for the peak). A failure ends the benchmark with the command's
    last lines on stderr."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile(mode="r") as peak:
        run = [GNU_TIME, "-f", "%M", "-o", peak.name] + cmd if GNU_TIME else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(run, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").splitlines()[-3:]
            sys.exit("\n".join(tail + [f"{' '.join(cmd)}: exit status {proc.returncode}"]))
        kb = peak.read().split()[-1:] if GNU_TIME else []
    return ru.ru_utime + ru.ru_stime, wall, int(kb[0]) / 1024 if kb else None


def python_chess_once(path):
    import chess.pgn

    c0, t0 = time.process_time(), time.perf_counter()
    games = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while chess.pgn.read_game(f) is not None:
            games += 1
    return time.process_time() - c0, time.perf_counter() - t0, None


def zst_of(path):
    zst = path + ".zst"
    if not os.path.exists(zst):
        subprocess.run(["zstd", "-q", "-T0", path, "-o", zst], check=True)
    return zst


def prefix_of(path, mb):
    """The first `mb` MB of the file, cut before the game that crosses the limit."""
    with open(path, "rb") as f:
        head = f.read(int(mb * 1e6))
    cut = head.rfind(b"\n[Event ")
    if cut > 0 and len(head) == int(mb * 1e6):
        head = head[: cut + 1]
    fd, name = tempfile.mkstemp(suffix=".pgn", prefix="bench_review_")
    with os.fdopen(fd, "wb") as f:
        f.write(head)
    return name


def reader_binary(given):
    if given:
        return given
    binary = os.path.join(ROOT, "target/release/examples/pgn_reader_rate")
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "threefold-lab", "--example", "pgn_reader_rate"],
        cwd=ROOT,
        check=True,
    )
    return binary


def main(argv):
    a = parse_args(argv)
    import chess

    path = a.pgn
    mb = os.path.getsize(path) / 1e6
    zst = zst_of(path)
    reader = reader_binary(a.reader)
    py_path = prefix_of(path, a.py_mb) if a.py_mb else path
    py_mb = os.path.getsize(py_path) / 1e6
    # (name, MB of PGN it reads, how to run it once, runs)
    jobs = [
        ("pgn-reader 0.29 tokenizing, .pgn", mb, lambda: timed([reader, path]), a.runs),
        ("pgn-reader 0.29 tokenizing, .pgn.zst", mb, lambda: timed([reader, zst]), a.runs),
    ]
    for b in a.bin:
        for f, kind in [(path, ".pgn"), (zst, ".pgn.zst")][: 1 if a.no_zst else 2]:
            base = [b, "review", "--pgn", f, "--all", "--no-engine"]
            if a.no_threads:
                jobs.append((f"{b} review --all --no-engine, {kind}", mb, lambda c=base: timed(c), a.runs))
                continue
            for n in a.threads.split(","):
                cmd = base + ["--threads", n]
                jobs.append((f"{b} review --all --no-engine --threads {n}, {kind}", mb, lambda c=cmd: timed(c), a.runs))
    py_name = f"python-chess {chess.__version__} read_game"
    if py_path != path:
        py_name += f" (first {py_mb:.1f} MB only)"
    jobs.append((py_name, py_mb, lambda: python_chess_once(py_path), a.py_runs))
    results = {name: [] for name, _, _, _ in jobs}
    for i in range(max(a.runs, a.py_runs)):
        for name, _, once, runs in jobs:
            if i < runs:
                results[name].append(once())
    if py_path != path:
        os.remove(py_path)
    print(f"{path}: {mb:.1f} MB ({os.path.getsize(zst) / 1e6:.1f} MB as .zst); MB of PGN per second, medians")
    width = max(len(name) for name, _, _, _ in jobs)
    print(f"{'command':<{width}}  runs  MB/s wall  MB/s CPU  wall s   CPU s  peak RSS")
    for name, size, _, _ in jobs:
        times = results[name]
        cpu = statistics.median(t[0] for t in times)
        wall = statistics.median(t[1] for t in times)
        rss = [t[2] for t in times if t[2] is not None]
        peak = f"{max(rss):6.1f} MB" if rss else "       -"
        print(
            f"{name:<{width}}  {len(times):>4}  {size / max(wall, 1e-6):9.2f}  {size / max(cpu, 1e-6):8.2f}  {wall:6.2f}  {cpu:6.2f}  {peak}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
