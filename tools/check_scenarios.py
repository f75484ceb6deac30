#!/usr/bin/env python3
"""Independent python-chess check of the chess scenarios and of the motif rule.

A second opinion beside `threefold drills --check` (issue 39 items 2 and 3):

* every `scenarios/chess-*.toml` scenario, as the scenario format defines it: the
  fields are present and well formed, the moves play legally from `start`,
  `begin < repetition <= number of moves`, `repetition - begin` is 2 to 40 plies,
  `player` is to move at `begin`, no position stands three times at or before
  `begin`, and after ply `repetition` a position stands for the third time for the
  first time in the game;
* the motif rule on every chess puzzle file (`puzzles/*.toml` without
  `game = "xiangqi"`): a puzzle's motif is its start position (FEN without the
  move counters) with its moves in UCI up to and including the first move that
  brings back a position that stood before in the puzzle (all its moves if none
  does); no motif may belong to more than max(1, n // 10) of a theme's n puzzles.

    python3 tools/check_scenarios.py                      # puzzles/ and scenarios/
    python3 tools/check_scenarios.py --puzzles DIR --scenarios DIR

One line per problem (`file: id: what is wrong`), exit 1 if there is any.
"""
import argparse
import pathlib
import re
import sys
import tomllib
from collections import defaultdict

import chess

from puzzle_helper import tokens

ROOT = pathlib.Path(__file__).resolve().parent.parent
ID_RE = re.compile(r"^[a-z0-9-]+$")
DATE_RE = re.compile(r"^(\d{4})\.(\d\d|\?\?)\.(\d\d|\?\?)$")
RESULTS = {"1-0", "0-1", "1/2-1/2"}
MOTIF_RE = re.compile(r"^[a-z]+(-[a-z]+)*$")
REQUIRED = ("id", "white", "black", "event", "site", "date", "result", "moves",
            "begin", "player", "repetition", "motif", "source", "note")


def start_board(start):
    if start is None or start.strip().lower() == "standard":
        return chess.Board()
    return chess.Board(start)


def play(start, moves):
    """The board at the start and the moves (chess.Move) of a SAN move text."""
    board = start_board(start)
    first = board.copy()
    out = []
    for san in tokens(moves):
        mv = board.parse_san(san)
        board.push(mv)
        out.append(mv)
    return first, out


def motif(puzzle):
    """The puzzle's motif: start FEN without counters and the UCI moves up to the first return."""
    board, moves = play(puzzle.get("start"), puzzle.get("moves", ""))
    fen = " ".join(board.fen().split()[:4])
    seen = {board._transposition_key()}
    ucis = []
    for mv in moves:
        board.push(mv)
        ucis.append(mv.uci())
        key = board._transposition_key()
        if key in seen:
            break
        seen.add(key)
    return fen + " | " + " ".join(ucis)


def check_motifs(puzzle_dir, problems):
    report = []
    for path in sorted(puzzle_dir.glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("game", "chess") != "chess":
            continue
        groups = defaultdict(list)
        puzzles = data.get("puzzle", [])
        for p in puzzles:
            try:
                groups[motif(p)].append(p["id"])
            except (ValueError, KeyError) as err:
                problems.append(f"{path.name}: {p.get('id', '?')}: cannot play the moves: {err}")
        limit = max(1, len(puzzles) // 10)
        worst = max((len(v) for v in groups.values()), default=0)
        report.append((path.name, len(puzzles), len(groups), worst, limit))
        for key, ids in groups.items():
            if len(ids) > limit:
                problems.append(
                    f"{path.name}: motif shared by {len(ids)} of {len(puzzles)} puzzles "
                    f"(at most {limit}): {', '.join(ids)} [{key}]")
    return report


def check_scenario(name, s, problems):
    sid = s.get("id", "?")

    def bad(what):
        problems.append(f"{name}: {sid}: {what}")

    for key in REQUIRED:
        if key not in s or s[key] in ("", None):
            bad(f"missing field `{key}`")
    if any(key not in s for key in ("moves", "begin", "repetition", "player")):
        return
    if not ID_RE.match(sid):
        bad("id must be a-z, 0-9 and '-'")
    m = DATE_RE.match(str(s.get("date", "")))
    if not m:
        bad(f"date {s.get('date')!r} is not YYYY.MM.DD (?? allowed for month and day)")
    if s.get("result") not in RESULTS:
        bad(f"result {s.get('result')!r} is not 1-0, 0-1 or 1/2-1/2")
    if not MOTIF_RE.match(str(s.get("motif", ""))):
        bad(f"motif {s.get('motif')!r} is not a kebab-case word")
    if s.get("player") not in ("white", "black"):
        bad(f"player {s.get('player')!r} is not white or black")
        return
    try:
        board, moves = play(s.get("start", "standard"), s["moves"])
    except ValueError as err:
        bad(f"the moves do not play: {err}")
        return
    begin, rep = s["begin"], s["repetition"]
    if not (isinstance(begin, int) and isinstance(rep, int)):
        bad("begin and repetition must be ply numbers")
        return
    if not 0 <= begin < rep <= len(moves):
        bad(f"need 0 <= begin ({begin}) < repetition ({rep}) <= {len(moves)} plies")
        return
    if not 2 <= rep - begin <= 40:
        bad(f"repetition - begin is {rep - begin} plies (2 to 40)")
    first_three = None
    for ply, mv in enumerate(moves, 1):
        if ply == begin + 1:
            turn = "white" if board.turn == chess.WHITE else "black"
            if turn != s["player"]:
                bad(f"at begin ({begin}) {turn} is to move, not {s['player']}")
        board.push(mv)
        if first_three is None and board.is_repetition(3):
            first_three = ply
    if first_three is None:
        bad("no position stands three times in the moves")
    elif first_three <= begin:
        bad(f"a position stands three times after ply {first_three}, at or before begin ({begin})")
    elif first_three != rep:
        bad(f"the first threefold repetition comes after ply {first_three}, not {rep}")


def check_scenarios(scenario_dir, problems):
    seen = {}
    count = 0
    for path in sorted(scenario_dir.glob("chess-*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("game", "chess") != "chess":
            problems.append(f"{path.name}: a chess-*.toml file says game = {data.get('game')!r}")
            continue
        for key in ("name", "description"):
            if not data.get(key):
                problems.append(f"{path.name}: missing `{key}`")
        for s in data.get("scenario", []):
            count += 1
            sid = s.get("id", "?")
            if sid in seen:
                problems.append(f"{path.name}: {sid}: id already used in {seen[sid]}")
            seen[sid] = path.name
            check_scenario(path.name, s, problems)
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=pathlib.Path, default=ROOT / "puzzles")
    ap.add_argument("--scenarios", type=pathlib.Path, default=ROOT / "scenarios")
    args = ap.parse_args()
    problems = []
    report = check_motifs(args.puzzles, problems)
    count = check_scenarios(args.scenarios, problems) if args.scenarios.is_dir() else 0
    for line in problems:
        print(line)
    total = sum(r[1] for r in report)
    for name, n, motifs, worst, limit in report:
        print(f"# {name}: {n} puzzles, {motifs} motifs, largest motif {worst} (limit {limit})")
    print(f"# {total} chess puzzles; {count} chess scenarios; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
