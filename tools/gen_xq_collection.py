#!/usr/bin/env python3
"""A xiangqi game collection for `threefold review --xiangqi`: Fairy-Stockfish self-play.

The public master collections (xqbase and the like) are PGN with the moves in UCCI/ICCS
coordinates and no Variant tag; this writes games the same way, so the review's figures can
be measured without a network:

    [Event "Fairy-Stockfish self-play"]
    ...
    [Result "1/2-1/2"]
    [Termination "repetition"]

    1. h2e2 h9g7 2. h0g2 i9h9 ...  1/2-1/2

Each game opens with `--random-plies` random legal moves (seeded: the same `--seed` gives
the same openings), then Fairy-Stockfish plays both sides (`go nodes N`, one thread; or
`--movetime MS`). The game ends as pyffish (Fairy-Stockfish's rules as a library) ends it:
no legal move (checkmate or stalemate, both lost in xiangqi), or `is_optional_game_end`,
which rules repetitions at the third occurrence (perpetual check and chase lose) and also
applies Fairy-Stockfish's fifty-move rule (100 plies without a capture); the Termination tag
says which (`fifty-move rule` when the FEN's halfmove clock has reached 100). A game reaching
`--max-plies` is adjudicated a draw (`Termination "move limit"`).

Usage: nice python3 tools/gen_xq_collection.py OUT.pgn [--games 200] [--nodes 3000]
           [--movetime MS] [--random-plies 6] [--max-plies 300] [--seed 37]
Needs pyffish (python3 -m pip install pyffish==0.0.90) and a fairy-stockfish binary
(`--engine`, default /usr/games/fairy-stockfish, `apt-get install fairy-stockfish`). The same
arguments give the same games (`go nodes` on one thread; the openings seeded). 200 games at
3000 nodes took about 9 minutes of CPU (25 minutes on a 2-core machine shared with builds);
tests/data/xiangqi/fsf_selfplay.pgn is that collection.
"""
import argparse
import random
import re
import subprocess
import sys
import time

import pyffish as sf

V = "xiangqi"


def ucci(fsf_move):
    """Fairy-Stockfish's coordinates (ranks 1-10) as UCCI's (ranks 0-9)."""
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", fsf_move)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {V}")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"fairy-stockfish ended while waiting for '{prefix}'")
            if line.startswith(prefix):
                return line.strip()

    def best(self, moves, go):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        return self.wait("bestmove").split()[1]

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def play(engine, rng, args, start):
    """One game: (moves in Fairy-Stockfish coordinates, result, termination)."""
    go = f"go movetime {args.movetime}" if args.movetime else f"go nodes {args.nodes}"
    moves = []
    engine.new_game()
    while True:
        legal = sf.legal_moves(V, start, moves)
        if not legal:
            # No legal move: the side to move has lost (checkmate or stalemate).
            value = sf.game_result(V, start, moves)
            red_to_move = len(moves) % 2 == 0
            red_wins = (value > 0) == red_to_move
            mate = sf.gives_check(V, start, moves)
            return moves, "1-0" if red_wins else "0-1", "checkmate" if mate else "stalemate"
        end, value = sf.is_optional_game_end(V, start, moves)
        if end:
            red_to_move = len(moves) % 2 == 0
            if value == 0:
                result = "1/2-1/2"
            else:
                result = "1-0" if (value > 0) == red_to_move else "0-1"
            # The fifty-move rule when the FEN's halfmove clock has reached 100 (a position
            # may have stood twice then too), else a repetition.
            clock = int(sf.get_fen(V, start, moves).split()[-2])
            why = "fifty-move rule" if clock >= 100 else "repetition"
            return moves, result, why
        if len(moves) >= args.max_plies:
            return moves, "1/2-1/2", "move limit"
        if len(moves) < args.random_plies:
            m = rng.choice(legal)
        else:
            m = engine.best(moves, go)
        moves.append(m)


def pgn(number, moves, result, termination, args):
    tags = [
        ("Event", "Fairy-Stockfish self-play"),
        ("Site", "threefold tools/gen_xq_collection.py"),
        ("Date", "????.??.??"),
        ("Round", str(number)),
        ("White", "Fairy-Stockfish"),
        ("Black", "Fairy-Stockfish"),
        ("Result", result),
        ("Termination", termination),
        ("TimeControl", f"movetime {args.movetime} ms" if args.movetime else f"nodes {args.nodes}"),
    ]
    out = "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n"
    words = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(ucci(m))
    words.append(result)
    line, lines = "", []
    for w in words:
        if line and len(line) + 1 + len(w) > 80:
            lines.append(line)
            line = ""
        line = f"{line} {w}" if line else w
    lines.append(line)
    return out + "\n".join(lines) + "\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--movetime", type=int, help="milliseconds per move instead of --nodes")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    start = sf.start_fen(V)
    engine = Engine(args.engine)
    t0 = time.time()
    ends = {}
    with open(args.out, "w") as f:
        for n in range(1, args.games + 1):
            moves, result, why = play(engine, rng, args, start)
            f.write(pgn(n, moves, result, why, args))
            f.flush()
            ends[why] = ends.get(why, 0) + 1
            print(f"\rgame {n}/{args.games}: {len(moves)} plies, {result} ({why}); "
                  f"{time.time() - t0:.0f} s", end="", file=sys.stderr)
    engine.quit()
    print(file=sys.stderr)
    print(f"{args.games} games in {time.time() - t0:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
