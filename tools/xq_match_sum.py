"""Sums the games of several xq_match.py runs (their --games-out files) into one result, with
the same Elo and 95% interval as xq_match.py prints: for a match split over processes (one per
core), or one stopped early (its finished games count; the game under way when it stopped
does not). Each line of a games file is: RESULT REASON; MOVES, RESULT from the tested engine's
side. Usage: python3 tools/xq_match_sum.py GAMES_FILE...
"""
import collections, math, sys

w = d = l = 0
reasons = collections.Counter()
for path in sys.argv[1:]:
    for line in open(path):
        s, rest = line.split(" ", 1)
        reasons[rest.split(";", 1)[0].strip()] += 1
        s = float(s)
        w += s == 1.0
        d += s == 0.5
        l += s == 0.0
n = w + d + l
pts = w + d / 2
p = min(max(pts / n, 1e-3), 1 - 1e-3) if n else 0.5
e = -400 * math.log10(1 / p - 1)
var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * (0 - p) ** 2) / max(n, 1)
se = math.sqrt(var / max(n, 1))
lo = min(max(p - 1.96 * se, 1e-3), 1 - 1e-3)
hi = min(max(p + 1.96 * se, 1e-3), 1 - 1e-3)
err = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
print("endings: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
print(f"RESULT games={n} wins={w} draws={d} losses={l} score={pts / max(n, 1):.3f} elo={e:.0f} err={err:.0f}")
