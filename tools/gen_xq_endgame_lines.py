#!/usr/bin/env python3
"""Endgame starting lines for xq_match.py's --openings: from played games, the moves up to the
first position whose phase (counted as ElephantEye counts it: rook 6, horse or cannon 3,
advisor, elephant or pawn 1, both sides; 66 at the start) is at most LIMIT, kept when the side
to move is not in check and Fairy-Stockfish 11.1 at depth 10 scores the position within 250 cp
(an ending still to be played, not one already decided), one line per distinct position.

Used to measure evaluation changes that only matter late in a game (the endgame scale,
docs/xiangqi-strength/README.md): a match over the usual openings reaches such endings too
rarely to show them.

Needs pyffish (`python3 -m pip install pyffish==0.0.90`) and /usr/games/fairy-stockfish, driven
by xq_label_fsf.py's `Fsf` (run it from its place in tools/).
Usage: gen_xq_endgame_lines.py LIMIT COUNT GAMES_FILE... > lines.txt
(GAMES_FILE: xq_match.py --games-out files; the games are shuffled with seed 1.)
"""
import random, sys

import pyffish as sf

from xq_label_fsf import Fsf

WEIGHT = {"r": 6, "h": 3, "n": 3, "c": 3, "a": 1, "b": 1, "e": 1, "p": 1, "k": 0}


def main():
    limit, count, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    start = sf.start_fen("xiangqi")
    fsf = Fsf("/usr/games/fairy-stockfish", 16)
    games = []
    for path in files:
        games += [line.split(";", 1)[1].split() for line in open(path)]
    random.Random(1).shuffle(games)
    out, seen = [], set()
    for moves in games:
        for k in range(20, len(moves)):
            board = sf.get_fen("xiangqi", start, moves[:k]).split()[0]
            if sum(WEIGHT.get(c.lower(), 0) for c in board if c.isalpha()) > limit:
                continue
            if board not in seen and not sf.gives_check("xiangqi", start, moves[:k]):
                kind, cp, _ = fsf.search(start, moves[:k], 10)
                if kind == "cp" and abs(cp) <= 250:
                    seen.add(board)
                    out.append(" ".join(moves[:k]))
            break
        if len(out) >= count:
            break
    fsf.quit()
    print(f"# {len(out)} endgame starting lines: tools/gen_xq_endgame_lines.py {limit} {count} "
          "(games files); one line of moves each, ranks 1-10")
    for line in out:
        print(line)


if __name__ == "__main__":
    main()
