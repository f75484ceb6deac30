#!/usr/bin/env python3
"""How much the sparring engine's moves lose, by Stockfish (Fairy-Stockfish plays chess too) (issue 39 item 1: "without
playing badly").

Reads the output of `threefold sparring --game chess --verbose` (one line per game, then its
moves in UCI, a move sparring chose instead of the search's best marked `*`), replays every
game with python-chess and scores each move of the sparring engine (not the two random
opening moves) with Stockfish at a fixed depth: the loss is the best move's score minus the
played move's, in centipawns from the mover's side, each score clamped to +-1000 (mates
count as 1000), each position scored alone, without the game before it (so a repetition
the opponent could claim is not scored a draw: offering it is the point). Prints the mean and the 90th percentile of the loss for the moves sparring
changed (`*`) and for the others, so a run with sparring on can be set beside a run with
it off (the same engine's normal moves).

    threefold sparring --game chess --stand-in 2 --runs on --verbose > on.txt
    python3 tools/sparring_loss.py on.txt [--depth 12] [--stockfish /usr/games/fairy-stockfish]
"""

import argparse
import re
import statistics

import chess
import chess.engine

CLAMP = 1000


def games(path):
    """Yields (sparring engine plays first, [(uci, changed)]) per game of the log."""
    lines = open(path, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"game +\d+: sparring engine (first|second):", line)
        if m and i + 1 < len(lines) and lines[i + 1].startswith("  "):
            moves = [(t.rstrip("*"), t.endswith("*")) for t in lines[i + 1].split()]
            yield m.group(1) == "first", moves


def score(engine, board, depth):
    """Stockfish's score of `board` for the side to move, clamped; the position alone, as
    the sparring engine verifies it: a draw the opponent could claim by repetition is not
    counted (offering it is what sparring is for), only how the position stands."""
    info = engine.analyse(chess.Board(board.fen()), chess.engine.Limit(depth=depth))
    cp = info["score"].pov(board.turn).score(mate_score=CLAMP)
    return max(-CLAMP, min(CLAMP, cp))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--stockfish", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    losses = {True: [], False: []}
    for first, moves in games(a.log):
        board = chess.Board()
        for ply, (uci, changed) in enumerate(moves):
            mine = (ply % 2 == 0) == first
            if mine and ply >= 2 and not board.is_game_over():
                best = score(engine, board, a.depth)
                board.push_uci(uci)
                played = -score(engine, board, a.depth - 1) if not board.is_game_over() else (
                    CLAMP if board.is_checkmate() else 0)
                losses[changed].append(max(0, best - played))
            else:
                board.push_uci(uci)
    engine.quit()
    for changed, name in ((True, "moves sparring chose (*)"), (False, "the other moves")):
        xs = sorted(losses[changed])
        if not xs:
            print(f"{name}: none")
            continue
        p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
        print(f"{name}: {len(xs)}, mean loss {statistics.mean(xs):.0f} cp, "
              f"median {statistics.median(xs):.0f}, 90th percentile {p90} cp "
              f"(Stockfish depth {a.depth})")


if __name__ == "__main__":
    main()
