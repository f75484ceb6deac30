#!/usr/bin/env bash
# Measures the xiangqi strength levels (threefold_engine::level under UCI_Variant xiangqi) on a
# scale anchored on Fairy-Stockfish 11.1 at full strength at 10+0.1 (= 0), with
# Fairy-Stockfish at fixed depths as the rungs between (tools/uci_fixed_depth.py), 100 games
# a match with the workplace's xq_match.py (pyffish referee) over tools/xq_openings.txt (each
# opening with both colours). docs/levels/xiangqi/README.md says how the figures follow.
#
#   tools/calibrate_xq_levels.sh ladder OUT_DIR              the rungs (no threefold in them)
#   tools/calibrate_xq_levels.sh level BINARY OUT_DIR L RUNG one level against a rung (d1..d20,
#                                                            n1000.. (nodes a move), full)
#
# One log a match in OUT_DIR (NAME.txt, NAME.games); the last line of each log is
# xq_match.py's RESULT, from the first-named side. A rung is a depth and a level a search
# size; played at 60+1 no clock binds them, so those matches do not depend on the machine's
# load. Only the anchor's match (`full`, at 10+0.1; its rung stops early if its clock
# says so, with 100 ms of `Move Overhead` kept back for the pipes, so that it never loses on
# time) does. PAIRS (default "full:n30000 n30000:d10 ...") names the ladder's matches.
set -eu
MATCH=${MATCH:-../shared/tools/xq_match.py}
PY=${PY:-python3}
FSF=${FSF:-/usr/games/fairy-stockfish}
GAMES=${GAMES:-100}
HERE=$(cd "$(dirname "$0")" && pwd)
OPENINGS=$HERE/xq_openings.txt
rung() { # dN (depth), nN (nodes a move) or full: a command line
    case $1 in
        full) echo "$FSF" ;;
        d*) echo "$PY $HERE/uci_fixed_depth.py --depth ${1#d} $FSF" ;;
        n*) echo "$PY $HERE/uci_fixed_depth.py --nodes ${1#n} $FSF" ;;
    esac
}
tc() { if [ "$1" = full ] || [ "$2" = full ]; then echo 10+0.1; else echo 60+1; fi; }
case ${1:-} in
    ladder)
        OUT=$2
        mkdir -p "$OUT"
        for pair in ${PAIRS:-full:n30000 n30000:d10 d10:d8 d8:d6 d6:d4 d4:d2 d2:d1}; do
            a=${pair%:*} b=${pair#*:}
            "$PY" "$MATCH" --engine "$(rung "$a")" --ranks 1 --opponent-cmd "$(rung "$b")" \
                --opponent-ranks 1 --opponent-option "Move Overhead=100" --tc "$(tc "$a" "$b")" \
                --games "$GAMES" --openings "$OPENINGS" \
                --games-out "$OUT/$a-vs-$b.games" >"$OUT/$a-vs-$b.txt" 2>&1
        done
        ;;
    level)
        BIN=$2 OUT=$3 L=$4 R=$5
        mkdir -p "$OUT"
        "$PY" "$MATCH" --engine "$BIN uci" --ranks 0 --option "Level=$L" \
            --opponent-cmd "$(rung "$R")" --opponent-ranks 1 --tc "$(tc level "$R")" \
            --games "$GAMES" --openings "$OPENINGS" \
            --games-out "$OUT/level-$L-vs-$R.games" >"$OUT/level-$L-vs-$R.txt" 2>&1
        ;;
    *)
        sed -n '2,16p' "$0"
        exit 2
        ;;
esac
