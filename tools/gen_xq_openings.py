#!/usr/bin/env python3
"""Writes xiangqi match openings: two-ply lines (Red's first move and Black's reply) that
Fairy-Stockfish 11.1 at `--depth` scores within a band for Red, no first move more than
`--per-move` times, drawn in a seeded order. One line an opening, moves in ranks 1-10 (the
format of xq_match.py's --openings). Needs pyffish and Debian's fairy-stockfish.

  /work/venv/bin/python tools/gen_xq_openings.py --count 100 > tools/xq_openings.txt
"""
import argparse, random, subprocess, sys

import pyffish as sf


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--low", type=int, default=-40, help="lowest score for Red, cp (default -40)")
    ap.add_argument("--high", type=int, default=100, help="highest score for Red, cp (default 100)")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--per-move", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    eng = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        eng.stdin.write(s + "\n")
        eng.stdin.flush()

    def wait(word):
        for line in eng.stdout:
            if line.startswith(word):
                return line
        sys.exit("the engine stopped")

    send("uci"); wait("uciok")
    send("setoption name UCI_Variant value xiangqi")
    send("setoption name Threads value 1")
    send("isready"); wait("readyok")
    start = sf.start_fen("xiangqi")
    lines = [[a, b] for a in sf.legal_moves("xiangqi", start, [])
             for b in sf.legal_moves("xiangqi", start, [a])]
    random.Random(args.seed).shuffle(lines)
    kept, per = [], {}
    for moves in lines:
        if len(kept) == args.count:
            break
        if per.get(moves[0], 0) >= args.per_move:
            continue
        send("ucinewgame")
        send(f"position fen {start} moves {' '.join(moves)}")
        send(f"go depth {args.depth}")
        score = None
        for line in eng.stdout:
            if " score cp " in line:
                score = int(line.split(" score cp ")[1].split()[0])
            elif " score mate " in line:
                score = None
            if line.startswith("bestmove"):
                break
        if score is None:
            continue
        red = score  # Red to move after two plies: the score is Red's
        if args.low <= red <= args.high:
            kept.append(moves)
            per[moves[0]] = per.get(moves[0], 0) + 1
            print(" ".join(moves), flush=True)
            print(f"{len(kept)}: {' '.join(moves)} {red:+d}", file=sys.stderr)
    send("quit")


if __name__ == "__main__":
    main()
