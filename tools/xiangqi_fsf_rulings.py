#!/usr/bin/env python3
"""Fairy-Stockfish's ruling for every case of tests/data/xiangqi/own_cases.toml.

Prints one line per case: the ruling recorded in the file (`fsf`), the one pyffish
gives now, and threefold's expected ruling, flagging any change. Needs
`python3 -m pip install pyffish==0.0.90`. Fairy-Stockfish writes ranks 1-10 where
UCCI writes 0-9, so moves are shifted by one rank.
"""
import re
import sys
import tomllib

import pyffish as sf

PATH = sys.argv[1] if len(sys.argv) > 1 else "tests/data/xiangqi/own_cases.toml"


def fsf_move(ucci):
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", ucci)
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def ruling(fen, moves):
    end, value = sf.is_optional_game_end("xiangqi", fen, [fsf_move(m) for m in moves.split()])
    if not end:
        return "undecided"
    return "win" if value > 0 else "loss" if value < 0 else "draw"


changed = 0
with open(PATH, "rb") as f:
    cases = tomllib.load(f)["case"]
for case in cases:
    now = ruling(case["fen"], case["moves"])
    flag = "" if now == case["fsf"] else "  CHANGED"
    changed += bool(flag)
    print(f"{case['name']}: fsf {now}, threefold {case['result']}{flag}")
print(f"{len(cases)} cases, {changed} changed")
sys.exit(1 if changed else 0)
