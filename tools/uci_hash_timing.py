#!/usr/bin/env python3
"""What a GUI waits for with a large Hash, and what the clock of a `go` sees.

For each Hash size (MB) given, drives `BINARY uci` as a GUI does and prints: the time
from `setoption name Hash value N` to `readyok`, from `ucinewgame` to `readyok`, the wall
time of `go wtime 500 btime 500 movestogo 1` from the start position (with its last
`info` line's nps and depth), and the median and largest time from `stop` to `bestmove`
over five `go infinite` searches stopped after 0.3 to 0.7 s.

    python3 tools/uci_hash_timing.py target/release/threefold 16 4096 16000

A table of 16000 MB takes that much memory while it runs.
"""
import subprocess, sys, time, statistics, threading, queue

def run(binary, hash_mb, stop_runs=5):
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    q = queue.Queue()
    def reader():
        for line in p.stdout:
            q.put((time.perf_counter(), line.rstrip("\n")))
        q.put((time.perf_counter(), None))
    threading.Thread(target=reader, daemon=True).start()
    def send(s):
        p.stdin.write(s + "\n"); p.stdin.flush()
    def until(prefix, timeout=60):
        lines = []
        while True:
            t, l = q.get(timeout=timeout)
            if l is None: raise SystemExit("engine ended")
            lines.append(l)
            if l.startswith(prefix): return t, lines
    send("uci"); until("uciok")
    t0 = time.perf_counter()
    send(f"setoption name Hash value {hash_mb}"); send("isready")
    t1, lines = until("readyok")
    notes = [l for l in lines if l.startswith("info string")]
    send("ucinewgame"); send("isready")
    t2a = time.perf_counter(); t2, _ = until("readyok")
    send("position startpos")
    t3 = time.perf_counter()
    send("go wtime 500 btime 500 movestogo 1")
    t4, lines = until("bestmove")
    infos = [l for l in lines if l.startswith("info depth")]
    last = infos[-1].split() if infos else []
    def field(k):
        return last[last.index(k) + 1] if k in last else "-"
    stops = []
    for i in range(stop_runs):
        send("ucinewgame"); send("isready"); until("readyok")
        send("position startpos moves e2e4 e7e5 g1f3")
        send("go infinite")
        time.sleep(0.3 + 0.1 * i)
        ts = time.perf_counter()
        send("stop")
        tb, _ = until("bestmove")
        stops.append((tb - ts) * 1000)
    send("quit"); p.wait(timeout=30)
    return dict(hash=hash_mb, ready_ms=(t1 - t0) * 1000, newgame_ms=(t2 - t2a) * 1000,
                go_ms=(t4 - t3) * 1000, nps=field("nps"), depth=field("depth"),
                stop_median_ms=statistics.median(stops), stop_max_ms=max(stops), notes=notes)

if __name__ == "__main__":
    binary = sys.argv[1]
    for h in [int(x) for x in sys.argv[2:]]:
        r = run(binary, h)
        print(f"Hash {r['hash']:>6}: setoption+isready {r['ready_ms']:8.1f} ms, ucinewgame+isready {r['newgame_ms']:7.1f} ms, "
              f"go wtime 500 movestogo 1: {r['go_ms']:7.1f} ms, nps {r['nps']}, depth {r['depth']}, "
              f"stop median {r['stop_median_ms']:.1f} ms (max {r['stop_max_ms']:.1f}) {r['notes']}", flush=True)
