#!/usr/bin/env python3
"""Each strength level's Elo from the logs of tools/calibrate_levels.sh.

    tools/level_table.py DIR [BINARY]

A log named level-N-vs-sfE.txt is a match of level N against Stockfish at UCI_Elo E: the
level's Elo is E plus the match's difference. A log named level-N-vs-level-M.txt anchors level
N on level M (a level below Stockfish's lowest UCI_Elo, 1350): M's Elo plus the difference, the
two error bars added in quadrature. Reads match.py's last line (RESULT games=... elo=E err=X,
err being the 95% half-width). Prints the README's table and the rows of level::ELO; with
BINARY (threefold), each level's search as its UCI loop describes it (`setoption name Level`).
"""
import math, re, subprocess, sys
from pathlib import Path

runs = {}
for f in sorted(Path(sys.argv[1]).glob("level-*-vs-*.txt")):
    m = re.match(r"level-(\d+)-vs-(sf(\d+)|level-(\d+))\.txt", f.name)
    res = [l for l in f.read_text().splitlines() if l.startswith("RESULT ")]
    if not m or not res:
        sys.exit(f"{f}: not a finished match log")
    kv = dict(x.split("=") for x in res[-1].split()[1:])
    runs[int(m.group(1))] = {
        "sf": int(m.group(3)) if m.group(3) else None,
        "anchor": int(m.group(4)) if m.group(4) else None,
        "games": int(kv["games"]), "w": int(kv["wins"]), "d": int(kv["draws"]), "l": int(kv["losses"]),
        "score": float(kv["score"]), "diff": float(kv["elo"]), "err": float(kv["err"]),
    }

elo = {}
def rate(n):
    if n in elo:
        return elo[n]
    r = runs[n]
    if r["sf"] is not None:
        elo[n] = (r["sf"] + r["diff"], r["err"])
    else:
        a, ae = rate(r["anchor"])
        elo[n] = (a + r["diff"], math.hypot(ae, r["err"]))
    return elo[n]

def search(n):
    if len(sys.argv) < 3:
        return ""
    cmds = f"setoption name Level value {n}\nquit\n"
    out = subprocess.run([sys.argv[2], "uci"], input=cmds, capture_output=True, text=True).stdout
    m = re.search(r"info string Level \d+: measured .*? \((.*)\)", out)
    return m.group(1) if m else "?"

print("| level | search | Elo (95 %) | games | +won =drawn −lost (score) | against |")
print("|---|---|---|---|---|---|")
for n in sorted(runs):
    e, err = rate(n)
    r = runs[n]
    against = f"Stockfish `UCI_Elo` {r['sf']}" if r["sf"] else f"level {r['anchor']} (anchor)"
    print(f"| {n} | {search(n)} | **{e:.0f} ± {err:.0f}** | {r['games']} | +{r['w']} ={r['d']} −{r['l']} ({r['score']:.3f}) | {against} |")
print()
for n in sorted(runs):
    e, err = rate(n)
    print(f"    Elo {{ elo: {e:.0f}, err: {err:.0f} }},")
