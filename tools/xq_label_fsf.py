#!/usr/bin/env python3
"""Labelled xiangqi positions from Fairy-Stockfish's self-play (see tools/TUNING.md, "Xiangqi").

Fairy-Stockfish 11.1 (`apt-get install fairy-stockfish`, UCI_Variant xiangqi, one thread) plays
itself at a fixed depth from random openings (`--random-plies` random legal plies, 4 to 10 by
default, drawn by pyffish). Its search of each position gives the label: the score of the
deepest completed iteration. Every quiet position from the end of the opening on is written:
the side to move is not in check and Fairy-Stockfish's best move is not a capture (a capture
pending means the static evaluation cannot see the score). Positions scored as a mate are left
out. To spread the material balances, `--random-move` of the moves played are random legal
moves instead of the engine's (the position before is still labelled by the engine).

Games end by pyffish's rulings (checkmate, stalemate, repetition with Fairy-Stockfish's
perpetual check and chase rules), by adjudication (a mate score, or both sides' searches
beyond 2,000 cp for the same side 4 plies in a row), or as a draw after `--max-plies`.

Output: one `FEN;result;cp` line a position (the format of tools/label_stockfish.py), the FEN as
pyffish writes it (which threefold's `Position::from_fen` reads: only move coordinates differ,
Fairy-Stockfish counting ranks 1-10 where UCCI counts 0-9), `result` the game's result for Red
(1, 0.5, 0) and `cp` Fairy-Stockfish's score for Red. Written game by game, flushed, so a run
stopped early keeps every finished game.

Needs pyffish (`pip install pyffish==0.0.90`). One Fairy-Stockfish process: one core.

Usage: tools/xq_label_fsf.py [--minutes 40] [--games N] [--depth 8] [--seed 1] > xq_labelled.txt
"""
import argparse
import random
import subprocess
import sys
import time

import pyffish as sf

VARIANT = "xiangqi"


class Fsf:
    def __init__(self, path, hash_mb):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {VARIANT}")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")
        self.ready()

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish ended unexpectedly")
            if line.startswith(prefix):
                return line

    def ready(self):
        self.send("isready")
        self.until("readyok")

    def search(self, start, moves, depth):
        """(kind, value, bestmove): kind 'cp' or 'mate', from the side to move's view."""
        self.send(f"position fen {start} moves {' '.join(moves)}" if moves else f"position fen {start}")
        self.send(f"go depth {depth}")
        kind, value = None, None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish ended unexpectedly")
            words = line.split()
            if words and words[0] == "bestmove":
                return kind, value, words[1] if len(words) > 1 else None
            if "score" in words and "lowerbound" not in words and "upperbound" not in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=5)


def play(fsf, rng, args):
    """One game: the labelled positions (fen, cp for Red) and the result for Red."""
    start = sf.start_fen(VARIANT)
    moves = []
    for _ in range(rng.randint(args.random_plies[0], args.random_plies[1])):
        legal = sf.legal_moves(VARIANT, start, moves)
        if not legal:
            return [], None
        moves.append(rng.choice(legal))
    fsf.send("ucinewgame")
    fsf.ready()
    found = []
    streak = 0  # plies in a row beyond the adjudication bound, signed for Red
    result = 0.5
    while len(moves) < args.max_plies:
        legal = sf.legal_moves(VARIANT, start, moves)
        red = len(moves) % 2 == 0  # the standard start has Red to move
        if not legal:  # checkmate or stalemate: the side to move loses
            result = 0.0 if red else 1.0
            break
        end, value = sf.is_optional_game_end(VARIANT, start, moves)
        if end:  # repetition ruling, value for the side to move
            result = 0.5 if value == 0 else ((1.0 if value > 0 else 0.0) if red else (0.0 if value > 0 else 1.0))
            break
        kind, value, best = fsf.search(start, moves, args.depth)
        if kind is None or best is None or best not in legal:
            break
        if kind == "mate":
            wins = value > 0
            result = 1.0 if wins == red else 0.0
            break
        cp_red = value if red else -value
        if (not sf.gives_check(VARIANT, start, moves)
                and not sf.is_capture(VARIANT, start, moves, best)):
            found.append((sf.get_fen(VARIANT, start, moves), cp_red))
        sign = (cp_red > args.adjudicate) - (cp_red < -args.adjudicate)
        streak = streak + sign if sign and (streak == 0 or (streak > 0) == (sign > 0)) else sign
        if abs(streak) >= 4:
            result = 1.0 if streak > 0 else 0.0
            break
        moves.append(rng.choice(legal) if rng.random() < args.random_move else best)
    return found, result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=40.0, help="stop starting games after this")
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, nargs=2, default=[4, 10], metavar=("MIN", "MAX"))
    ap.add_argument("--random-move", type=float, default=0.03)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--adjudicate", type=int, default=2000)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fsf = Fsf(args.fsf, args.hash)
    t0 = time.monotonic()
    positions = games = 0
    while games < args.games and time.monotonic() - t0 < args.minutes * 60:
        found, result = play(fsf, rng, args)
        if result is None:
            continue
        games += 1
        for fen, cp in found:
            print(f"{fen};{result:g};{cp}")
        sys.stdout.flush()
        positions += len(found)
        if games % 20 == 0:
            print(f"{games} games, {positions} positions, {time.monotonic() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    fsf.quit()
    print(f"done: {games} games, {positions} positions, {time.monotonic() - t0:.0f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
