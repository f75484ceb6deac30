#!/usr/bin/env python3
"""Label tuning positions with Stockfish's score (see tools/TUNING.md).

Reads `FEN;result` lines (examples/tune_data.rs) and writes `FEN;result;cp` lines, where cp is
Stockfish's score from White's view after `go depth D`. Positions Stockfish scores as a mate
are left out. Needs Debian's stockfish package (/usr/games/stockfish); nothing else.

Usage: tools/label_stockfish.py [--depth 8] [--stockfish /usr/games/stockfish] < in > out
"""
import argparse
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    sf = subprocess.Popen([args.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)

    def send(cmd):
        sf.stdin.write(cmd + "\n")
        sf.stdin.flush()

    def until(prefix):
        while True:
            line = sf.stdout.readline()
            if not line:
                sys.exit("stockfish ended unexpectedly")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    send("setoption name Threads value 1")
    send("setoption name Hash value 16")
    send("isready")
    until("readyok")
    done = mates = 0
    for n, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            fen, result = line.split(";")
        except ValueError:
            sys.exit(f"line {n}: expected 'FEN;result', got {line!r}")
        white = fen.split()[1] == "w"
        send(f"position fen {fen}")
        send(f"go depth {args.depth}")
        score = None
        while True:
            out = sf.stdout.readline()
            if not out:
                sys.exit("stockfish ended unexpectedly")
            if out.startswith("bestmove"):
                break
            words = out.split()
            if "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        if score is None or score[0] != "cp":
            mates += 1
            continue
        cp = score[1] if white else -score[1]
        print(f"{fen};{result};{cp}")
        done += 1
        if done % 10000 == 0:
            print(f"{done} labelled, {mates} mates left out", file=sys.stderr, flush=True)
    send("quit")
    print(f"{done} labelled, {mates} mates left out", file=sys.stderr)


if __name__ == "__main__":
    main()
