#!/usr/bin/env python3
"""Write one long legal game (thousands of plies) as UCI moves, for timing
`threefold analyze --json` on a single long game:

    python3 tools/gen_long_game.py > /tmp/long.txt
    time target/release/threefold analyze --moves "$(cat /tmp/long.txt)" --json > /dev/null

Reversible shuffling for ~90 plies at a time (never letting a position reach a
fifth occurrence), then a pawn move or a capture to reset the counts, until no
such move is left or the game ends. Deterministic (fixed seed).
"""
import random
import chess

rng = random.Random(7)
board = chess.Board()
counts = {}
moves = []


def key(b):
    return b._transposition_key()


counts[key(board)] = 1
while True:
    if board.is_game_over(claim_draw=False):
        break
    legal = list(board.legal_moves)
    since = board.halfmove_clock
    zeroing = [m for m in legal if board.is_zeroing(m)]
    if since >= 90 and zeroing:
        # Prefer quiet pawn pushes; captures only when no push is left.
        pushes = [m for m in zeroing if not board.is_capture(m)]
        m = rng.choice(pushes or zeroing)
    else:
        quiet = [m for m in legal if not board.is_irreversible(m)]
        safe = []
        for m in quiet:
            board.push(m)
            if counts.get(key(board), 0) < 4 and not board.is_game_over():
                safe.append(m)
            board.pop()
        if safe:
            m = rng.choice(safe)
        elif zeroing:
            m = rng.choice(zeroing)
        else:
            break
    board.push(m)
    moves.append(m.uci())
    counts[key(board)] = counts.get(key(board), 0) + 1
    if board.halfmove_clock >= 148:
        break
print(" ".join(moves))
