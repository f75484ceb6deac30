#!/usr/bin/env python3
"""Time python-chess computing what `threefold analyze --json` reports, on the
games of a JSON-lines file (default tests/data/reference.jsonl), for comparison
with `threefold bench rules --games FILE`.

Per ply it uses python-chess's own API as a user would: is_repetition(3) for a
claim now, push/is_repetition(3)/pop over the legal moves for claims with a
move, the halfmove clock for 9.3, is_fivefold_repetition, is_seventyfive_moves,
outcome(). Prints plies per second on its last line.

    python3 tools/bench_python_chess.py [FILE] [--limit PLIES]
"""
import json, sys, time
import chess

path = "tests/data/reference.jsonl"
limit = 20000
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--limit":
        limit = int(args.pop(0))
    else:
        path = a

games = [json.loads(l) for l in open(path)]
plies = 0
t0 = time.perf_counter()
for g in games:
    board = chess.Board(g["fen"])
    for ply in range(len(g["moves"]) + 1):
        if ply:
            board.push_uci(g["moves"][ply - 1])
            plies += 1
        legal = list(board.legal_moves)
        now = bool(legal) and board.is_repetition(3)
        with_moves = []
        for m in legal:
            if board.is_irreversible(m):
                continue
            board.push(m)
            if board.is_repetition(3):
                with_moves.append(m.uci())
            board.pop()
        fifty_now = bool(legal) and board.halfmove_clock >= 100
        fifty_moves = [m.uci() for m in legal if board.halfmove_clock >= 99 and not board.is_zeroing(m)]
        fivefold = board.is_fivefold_repetition()
        seventy_five = board.is_seventyfive_moves()
        outcome = board.outcome()
    if plies >= limit:
        break
secs = time.perf_counter() - t0
print(f"python-chess {chess.__version__}: {plies} plies in {secs:.2f} s")
print(f"plies per second: {plies / secs:.0f}")
