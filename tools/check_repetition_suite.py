#!/usr/bin/env python3
"""Checks every answer of assets/repetition_suite.txt with Stockfish, given the same game
history (`position fen <start> moves <history>`), and measures Stockfish's solve rate at a
node budget.

    python3 tools/check_repetition_suite.py [--depth 24] [--nodes 200000] [--engine PATH]

A position passes when Stockfish's best move at `--depth` is one of its `bm` moves, or none
of its `am` moves. Prints one line per position (best move, score, verdict) and, last, the
number verified and Stockfish's solve rate at `--nodes` nodes per position (fresh hash
each time, one thread). Exit status 1 if any answer disagrees with Stockfish.

Needs python-chess (tools/ scripts only; the Rust tests never run Stockfish).
"""
import argparse
import pathlib
import sys

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_suite(path):
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        kind, *moves = f[4].split()
        rows.append({"line": n, "id": f[0], "category": f[1], "fen": f[2],
                     "history": f[3].split(), "kind": kind, "moves": moves})
    return rows


def board_of(row):
    b = chess.Board(row["fen"])
    for u in row["history"]:
        b.push_uci(u)  # raises on an illegal move
    return b


def solved(row, best):
    if row["kind"] == "bm":
        return best in row["moves"]
    return best not in row["moves"]


def search(engine, row, limit):
    # python-chess sends `position fen <start> moves <history>`: the same game the
    # threefold engine gets, so Stockfish sees every earlier occurrence.
    b = chess.Board(row["fen"])
    for u in row["history"]:
        b.push_uci(u)
    engine.configure({"Clear Hash": None})
    info = engine.analyse(b, limit, game=object())
    best = info["pv"][0].uci() if info.get("pv") else None
    return best, info["score"].pov(b.turn), info.get("depth")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default=str(ROOT / "assets" / "repetition_suite.txt"))
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=24)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    rows = read_suite(pathlib.Path(args.suite))
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": args.hash})
    bad = 0
    at_nodes = 0
    for row in rows:
        board_of(row)
        best, score, depth = search(engine, row, chess.engine.Limit(depth=args.depth))
        ok = solved(row, best)
        bad += not ok
        nbest, nscore, _ = search(engine, row, chess.engine.Limit(nodes=args.nodes))
        at_nodes += solved(row, nbest)
        print(f"{row['id']:<8} {row['category']:<9} {row['kind']} {' '.join(row['moves']):<10} "
              f"depth {depth}: {best} {score}  {'ok' if ok else 'DISAGREES'}   "
              f"{args.nodes} nodes: {nbest} {'ok' if solved(row, nbest) else 'miss'}",
              flush=True)
    engine.quit()
    print(f"verified {len(rows) - bad}/{len(rows)} at depth {args.depth}; "
          f"stockfish solves {at_nodes}/{len(rows)} at {args.nodes} nodes")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
