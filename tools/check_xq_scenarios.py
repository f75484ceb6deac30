#!/usr/bin/env python3
"""Check the xiangqi scenarios (scenarios/xiangqi-*.toml) as the scenario format defines them.

  check_xq_scenarios.py [--bin THREEFOLD] [--allow-unknown-result] [FILE...]
                                             (default: scenarios/xiangqi-*.toml)

For every [[scenario]]: the fields are present and well formed (players, event, site, a year
in the date, a result (1-0, 0-1 or 1/2-1/2; with --allow-unknown-result also *), a source, a kebab-case motif, an id unique over the files); the moves
play legally from `start` (pyffish, Fairy-Stockfish's rules as a library); `begin <
repetition <= number of moves`; `repetition - begin` is 2 to 40 plies; at `begin` it is
`player`'s turn; threefold's WXF judge (`threefold xiangqi analyze --json`, third occurrence)
has ruled nothing at or before `begin` and first rules at ply `repetition`. Fairy-Stockfish's
own repetition ruling at that ply is printed beside threefold's, as a second opinion.

One line per problem, `file: id: what is wrong`; exit status 1 if there is any. Needs
pyffish (python3 -m pip install pyffish==0.0.90) and a threefold binary (`--bin`, else
$THREEFOLD, else target/debug/threefold, else `threefold` on PATH).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pyffish as sf

V = "xiangqi"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
RESULTS = {"1-0", "0-1", "1/2-1/2"}
UNKNOWN_RESULT = "*"  # accepted only with --allow-unknown-result (tools/xq_scenario_candidates.toml)
REQUIRED = ["id", "red", "black", "event", "site", "date", "result", "moves", "begin",
            "player", "repetition", "motif", "source", "note"]


def fsf_move(ucci):
    """UCCI (ranks 0-9) to Fairy-Stockfish's coordinates (ranks 1-10)."""
    return f"{ucci[0]}{int(ucci[1]) + 1}{ucci[2]}{int(ucci[3]) + 1}"


def full_fen(start):
    if start in ("", "standard"):
        return START
    fields = start.split()
    if len(fields) == 2:
        fields += ["-", "-", "0", "1"]
    if len(fields) > 1 and fields[1] == "r":
        fields[1] = "w"
    return " ".join(fields)


def move_tokens(text):
    """The moves of `moves`, move numbers ("12." or "12...") dropped."""
    return [t for t in text.split() if not re.fullmatch(r"\d+\.+", t)]


def threefold_bin(arg):
    for cand in (arg, os.environ.get("THREEFOLD"), "target/debug/threefold"):
        if cand and os.path.exists(cand):
            return cand
    return shutil.which("threefold")


def judge_rows(binary, fen, moves):
    """threefold's per-ply analysis: (rows, error line)."""
    r = subprocess.run([binary, "xiangqi", "analyze", "--fen", fen, "--moves", " ".join(moves),
                        "--json"], capture_output=True, text=True)
    rows = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    err = r.stderr.strip().splitlines()
    return rows, (err[0] if r.returncode != 0 and err else None)


def fsf_ruling(fen, ucci_moves):
    end, value = sf.is_optional_game_end(V, fen, [fsf_move(m) for m in ucci_moves])
    if not end:
        return "none"
    side = "red" if sf.get_fen(V, fen, [fsf_move(m) for m in ucci_moves]).split()[1] == "w" else "black"
    if value == 0:
        return "draw"
    return f"{side} {'wins' if value > 0 else 'loses'}"


def check_scenario(sc, binary, problems, notes, allow_unknown=False):
    sid = sc.get("id", "?")
    bad = problems.append
    for key in REQUIRED:
        if key not in sc or (isinstance(sc[key], str) and not sc[key].strip()):
            bad(f"{sid}: `{key}` is missing or empty")
    if problems and any(p.startswith(f"{sid}: `") for p in problems):
        return
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", sid):
        bad(f"{sid}: the id may hold only a-z, 0-9 and '-'")
    if not re.fullmatch(r"\d{4}\.(\d\d|\?\?)\.(\d\d|\?\?)", sc["date"]):
        bad(f"{sid}: date {sc['date']!r} is not YYYY.MM.DD ('??' for an unknown month or day)")
    if sc["result"] not in RESULTS and not (allow_unknown and sc["result"] == UNKNOWN_RESULT):
        bad(f"{sid}: result {sc['result']!r} is not one of 1-0, 0-1, 1/2-1/2")
    if sc["player"] not in ("red", "black"):
        bad(f"{sid}: player {sc['player']!r} is neither red nor black")
    if not re.fullmatch(r"[a-z]+(-[a-z]+)*", sc["motif"]):
        bad(f"{sid}: motif {sc['motif']!r} is not a kebab-case word")
    if not re.search(r"https?://", sc["source"]):
        bad(f"{sid}: the source names no public URL")
    begin, rep = sc["begin"], sc["repetition"]
    fen = full_fen(sc.get("start", "standard"))
    if not sf.validate_fen(fen, V) == 1:
        bad(f"{sid}: start {sc.get('start')!r} is not a xiangqi FEN")
        return
    tokens = move_tokens(sc["moves"])
    rows, err = judge_rows(binary, fen, tokens)
    if err:
        bad(f"{sid}: threefold refuses the moves: {err}")
        return
    ucci = [r["ucci"] for r in rows]
    played = []
    for i, m in enumerate(ucci, 1):
        if fsf_move(m) not in sf.legal_moves(V, fen, played):
            bad(f"{sid}: ply {i} ({tokens[i - 1]}) is illegal for pyffish")
            return
        played.append(fsf_move(m))
    if not (isinstance(begin, int) and isinstance(rep, int) and 0 <= begin < rep <= len(ucci)):
        bad(f"{sid}: begin {begin} < repetition {rep} <= {len(ucci)} moves does not hold")
        return
    if not 2 <= rep - begin <= 40:
        bad(f"{sid}: repetition - begin is {rep - begin} plies, not 2 to 40")
    to_move = sf.get_fen(V, fen, played[:begin]).split()[1]
    if {"w": "red", "b": "black"}[to_move] != sc["player"]:
        bad(f"{sid}: at ply {begin} it is not {sc['player']}'s turn")
    ruled = [r["ply"] for r in rows if r.get("ruling")]
    if ruled and ruled[0] <= begin:
        bad(f"{sid}: the judge already rules at ply {ruled[0]}, at or before begin {begin}")
    elif not ruled:
        bad(f"{sid}: the judge rules at no ply; repetition says {rep}")
    elif ruled[0] != rep:
        bad(f"{sid}: the judge first rules at ply {ruled[0]}, not at repetition {rep}")
    else:
        r = rows[rep - 1]["ruling"]
        verdict = "draw" if r["result"] == "draw" else f"{r['result']} for {r['side']}"
        notes.append(f"{sid}: ply {rep}: threefold: {verdict} "
                     f"(red {r['red']['level']}, black {r['black']['level']}); "
                     f"Fairy-Stockfish: {fsf_ruling(fen, ucci[:rep])}")


def main(argv):
    binary_arg, allow_unknown = None, False
    while argv[:1] in (["--bin"], ["--allow-unknown-result"]):
        if argv[0] == "--bin":
            binary_arg, argv = argv[1], argv[2:]
        else:
            allow_unknown, argv = True, argv[1:]
    binary = threefold_bin(binary_arg)
    if not binary:
        print("no threefold binary: give --bin PATH or set THREEFOLD", file=sys.stderr)
        return 2
    files = argv or sorted(glob.glob("scenarios/xiangqi-*.toml"))
    seen, count, errors = {}, 0, 0
    for path in files:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            print(f"{path}: {e}")
            errors += 1
            continue
        if data.get("game") != "xiangqi":
            print(f"{path}: `game = \"xiangqi\"` is missing")
            errors += 1
        for key in ("name", "description"):
            if not data.get(key):
                print(f"{path}: `{key}` is missing")
                errors += 1
        for sc in data.get("scenario", []):
            count += 1
            problems, notes = [], []
            sid = sc.get("id", "?")
            if sid in seen:
                problems.append(f"{sid}: id also used in {seen[sid]}")
            seen[sid] = path
            check_scenario(sc, binary, problems, notes, allow_unknown)
            for p in problems:
                print(f"{path}: {p}")
            for n in [] if problems else notes:
                print(f"{path}: ok {n}")
            errors += len(problems)
    print(f"{count} scenarios in {len(files)} files, {errors} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
