#!/usr/bin/env bash
# Measures each strength level (threefold_engine::level) against Stockfish limited by UCI_Elo,
# 100 games a match at 5+0.05 with match.py (from the workplace's shared tools; it needs
# python-chess and Debian's stockfish), in two queues (one a core). Levels whose strength is
# below Stockfish's lowest UCI_Elo (1350) are anchored by a match against the next level up.
#
#   tools/calibrate_levels.sh BINARY OUT_DIR [MATCH_PY] [OPENINGS] [PYTHON]
# One log a match in OUT_DIR (level-N-vs-X.txt); the last line of each is match.py's RESULT.
set -eu
BIN=$1 OUT=$2
MATCH=${3:-../shared/tools/match.py}
OPENINGS=${4:-../shared/tools/openings.txt}
PY=${5:-python3}
GAMES=${GAMES:-100}
mkdir -p "$OUT"
m() { # level, then --elo N or --opponent-cmd ... ; log name
    local level=$1 log=$2; shift 2
    "$PY" "$MATCH" --engine "$BIN uci" --option "Level=$level" --tc 5+0.05 --games "$GAMES" \
        --openings "$OPENINGS" "$@" >"$OUT/$log" 2>&1
}
(
    m 8 level-8-vs-sf2250.txt --elo 2250
    m 6 level-6-vs-sf1750.txt --elo 1750
    m 3 level-3-vs-sf1350.txt --elo 1350
    m 1 level-1-vs-level-2.txt --opponent-cmd "$BIN uci" --opponent-option Level=2
) &
(
    m 7 level-7-vs-sf2100.txt --elo 2100
    m 5 level-5-vs-sf1550.txt --elo 1550
    m 4 level-4-vs-sf1500.txt --elo 1500
    m 2 level-2-vs-level-3.txt --opponent-cmd "$BIN uci" --opponent-option Level=3
) &
wait
