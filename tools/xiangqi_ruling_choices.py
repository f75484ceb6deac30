#!/usr/bin/env python3
"""Fairy-Stockfish beside tests/data/xiangqi/ruling_choices.toml.

For every entry (positions with game history where the WXF ruling decides the move):

- replays the game, the good and bad moves and the entry's lines with pyffish's legal move
  generator (Fairy-Stockfish's rules as a library), so a move threefold accepts and
  Fairy-Stockfish does not shows up;
- rules each line as Fairy-Stockfish does: it rules a repetition at the third occurrence,
  so the line's cycle (the moves since the earlier occurrence of its final position) is
  played once more and `is_optional_game_end` is asked for the side to move; compared with
  the line's recorded `fsf`;
- asks the Fairy-Stockfish engine (`/usr/games/fairy-stockfish`, 11.1 in Debian) for its
  move at `go depth 12` from the position after the game, compared with `fsf_move`.

Prints one line per entry and exits 1 if anything differs from the file. Needs
`python3 -m pip install pyffish==0.0.90` and `apt-get install fairy-stockfish`.
Fairy-Stockfish writes ranks 1-10 where UCCI (and threefold) write 0-9.

    python3 tools/xiangqi_ruling_choices.py [FILE] [--engine PATH] [--depth N]
"""
import argparse
import re
import subprocess
import sys
import tomllib

import pyffish as sf

VARIANT = "xiangqi"


def to_fsf(ucci):
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", ucci)
    if not m:
        raise ValueError(f"not a UCCI move: {ucci}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def from_fsf(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if not m:
        raise ValueError(f"not a Fairy-Stockfish move: {move}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def illegal(fen, moves):
    """The first illegal move of `moves` (UCCI) from `fen`, or None."""
    played = []
    for m in moves:
        if to_fsf(m) not in sf.legal_moves(VARIANT, fen, played):
            return m
        played.append(to_fsf(m))
    return None


def placement(fen, moves):
    """Board and side to move after `moves`: what a repetition compares."""
    return " ".join(sf.get_fen(VARIANT, fen, moves).split()[:2])


def third_occurrence_ruling(fen, moves):
    """Fairy-Stockfish's ruling for the side to move once the final position's cycle
    has run once more (its third occurrence): win / loss / draw / undecided."""
    played = [to_fsf(m) for m in moves]
    final = placement(fen, played)
    earlier = [k for k in range(len(played) - 1, -1, -1) if placement(fen, played[:k]) == final]
    if not earlier:
        return "no repetition"
    cycle = played[earlier[0]:]
    end, value = sf.is_optional_game_end(VARIANT, fen, played + cycle)
    if not end:
        return "undecided"
    return "win" if value > 0 else "loss" if value < 0 else "draw"


class Engine:
    """The Fairy-Stockfish UCI engine, one search per position, single-threaded."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send(f"setoption name UCI_Variant value {VARIANT}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def bestmove(self, fen, moves, depth):
        self.send("ucinewgame")
        self.send(f"position fen {fen} moves {' '.join(to_fsf(m) for m in moves)}")
        self.send(f"go depth {depth}")
        for line in self.proc.stdout:
            if line.startswith("bestmove"):
                return from_fsf(line.split()[1])
        raise RuntimeError("the engine ended without a bestmove")

    def close(self):
        self.send("quit")
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default="tests/data/xiangqi/ruling_choices.toml")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    parser.add_argument("--depth", type=int, default=12)
    args = parser.parse_args()
    with open(args.file, "rb") as f:
        choices = tomllib.load(f)["choice"]
    engine = Engine(args.engine)
    problems = 0
    for c in choices:
        notes = []
        game = c["moves"].split()
        bad_move = illegal(c["fen"], game)
        if bad_move:
            notes.append(f"illegal game move {bad_move}")
        for m in c["good"] + c["bad"] + [c["fsf_move"]]:
            if illegal(c["fen"], game + [m]):
                notes.append(f"illegal choice {m}")
        rulings = []
        for key in ("bad_line", "good_line"):
            line = c.get(key)
            if not line:
                continue
            moves = game + line["moves"].split()
            if illegal(c["fen"], moves):
                notes.append(f"illegal {key}")
                continue
            now = third_occurrence_ruling(c["fen"], moves)
            rulings.append(f"{key} fsf {now} (threefold {line['ruling']})")
            if now != line["fsf"]:
                notes.append(f"{key}: fsf was {line['fsf']}, now {now}")
        move = engine.bestmove(c["fen"], game, args.depth)
        verdict = "good" if move in c["good"] else "bad" if move in c["bad"] else "other"
        if move != c["fsf_move"]:
            notes.append(f"fsf_move was {c['fsf_move']}, now {move}")
        problems += bool(notes)
        flag = ("  CHANGED: " + "; ".join(notes)) if notes else ""
        print(f"{c['name']} [{c['kind']}]: {'; '.join(rulings)}; fsf plays {move} ({verdict}){flag}")
    engine.close()
    print(f"{len(choices)} entries, {problems} changed")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
