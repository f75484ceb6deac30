#!/usr/bin/env python3
"""Check that every line of threefold's opening book (assets/book.txt) is legal and ends
in a balanced position: Stockfish's score of the final position within +-0.70 pawns.

Needs python-chess (`python3 -m pip install chess`) and Stockfish (Debian's `stockfish`,
/usr/games/stockfish). Usage: tools/check_book.py [--depth 14] [--limit 70] [BOOK]
Prints one line per opening with its score; exit 1 if a line is illegal or unbalanced.
"""
import argparse, sys
import chess, chess.engine

ap = argparse.ArgumentParser()
ap.add_argument("book", nargs="?", default="assets/book.txt")
ap.add_argument("--depth", type=int, default=14)
ap.add_argument("--limit", type=int, default=70, help="centipawns")
ap.add_argument("--engine", default="/usr/games/stockfish")
a = ap.parse_args()

bad = 0
with chess.engine.SimpleEngine.popen_uci(a.engine) as sf:
    for n, line in enumerate(open(a.book, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, sans = line.partition("|")
        board = chess.Board()
        try:
            for san in sans.split():
                board.push_san(san)
        except ValueError as e:
            print(f"{a.book}:{n}: {name.strip()}: {e}")
            bad += 1
            continue
        info = sf.analyse(board, chess.engine.Limit(depth=a.depth))
        cp = info["score"].white().score(mate_score=100000)
        ok = abs(cp) <= a.limit
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {cp:+5d}  {name.strip()}")
print(f"{bad} problem(s)")
sys.exit(1 if bad else 0)
