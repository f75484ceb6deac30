#!/usr/bin/env python3
"""Compare threefold's PGN reader with python-chess on generated PGN files.

Generates a corpus of PGN files (random legal games written in many legal styles: tags
long and short, escaped quotes, comments over lines and holding fake moves, nested
variations, NAGs, move numbers with and without spaces, 0-0 castling, wrapped lines, CRLF,
a byte order mark, % escape lines, ; comments, FEN starts, several games per file, games
without a result) plus mutated copies (malformed tags, garbage tokens, random bytes,
truncation). Then for every file it reads each game with `threefold analyze --pgn F
--game N --json` and with python-chess, and sorts the files:

  agree        both read every game, same number of games, same main lines (UCI)
  DISAGREE     both read every game but differ: a bug (exit status 1)
  both-refuse  threefold refuses, python-chess reports errors too
  we-refuse    threefold refuses, python-chess reads it without errors (python-chess skips
               tokens it cannot read, so garbage is "accepted" there); listed with
               threefold's message so each can be judged
  we-accept    threefold reads it, python-chess reports errors (listed)

Valid generated files must all be in `agree`. Usage:

  python3 tools/pgn_compare.py [--bin target/release/threefold] [--files 1000] [--seed 1]
                               [--keep DIR]
"""

import argparse
import json
import logging
import os
import random
import re
import subprocess
import sys
import tempfile

import chess
import chess.pgn


# --- generation -------------------------------------------------------------------------

def random_game(rng, plies, start_fen=None):
    board = chess.Board(start_fen) if start_fen else chess.Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over(claim_draw=False):
            break
        m = rng.choice(legal)
        moves.append((board.copy(stack=False), m))
        board.push(m)
    return moves


def san_of(board, m, rng, zeros):
    s = board.san(m)
    if zeros and s.startswith("O-O"):
        s = s.replace("O", "0")
    if rng.random() < 0.05:
        s += rng.choice(["!", "?", "!?", "?!", "!!", "??"])
    return s


def comment(rng):
    kinds = [
        "{a comment}",
        "{over\ntwo lines with Nf3 in it}",
        "{ [%clk 0:01:00] }",
        "{with a blank line\n\ninside}",
        "{1. e4 e5 fake moves (in a comment)}",
        "{braces ( ) ; and \"quotes\"}",
    ]
    return rng.choice(kinds)


def variation(rng, board, depth=0):
    """A short legal variation from `board` (before the main-line move)."""
    toks = ["("]
    b = board.copy(stack=False)
    for _ in range(rng.randint(1, 4)):
        legal = list(b.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        if b.turn == chess.WHITE or rng.random() < 0.3:
            toks.append(f"{b.fullmove_number}{'.' if b.turn == chess.WHITE else '...'}")
        toks.append(b.san(m))
        if rng.random() < 0.2:
            toks.append(comment(rng))
        if depth < 2 and rng.random() < 0.15:
            toks.extend(variation(rng, b, depth + 1))
        b.push(m)
    toks.append(")")
    return toks


def tag_value(rng):
    v = rng.choice(["Casual game", "?", "Club ch.", "x" * rng.randint(200, 600),
                    'A "quoted" name', "back\\slash", "Müller", ""])
    return v.replace("\\", "\\\\").replace('"', '\\"')


def write_game(rng, fen_start):
    """One game as PGN text and its main line in UCI."""
    start_fen = None
    if fen_start:
        pre = random_game(rng, rng.randint(4, 30))
        b = chess.Board()
        for _, m in pre:
            b.push(m)
        if not b.is_game_over():
            start_fen = b.fen()
    moves = random_game(rng, rng.randint(0, 90), start_fen)
    lines = []
    if rng.random() < 0.9:
        tags = [("Event", tag_value(rng)), ("Site", "?"), ("Date", "2024.01.02"),
                ("Round", "1"), ("White", tag_value(rng)), ("Black", "B"),
                ("Result", "*")]
        if start_fen:
            tags += [("SetUp", "1"), ("FEN", start_fen)]
        if rng.random() < 0.3:
            tags.append(("Annotator", tag_value(rng)))
        for k, v in tags:
            sep = rng.choice([" ", " ", "  ", "\t"])
            lines.append(f"[{k}{sep}\"{v}\"]")
        lines.append("")
    elif start_fen:
        lines.append(f'[FEN "{start_fen}"]')
        lines.append("")
    toks = []
    zeros = rng.random() < 0.3
    glue = rng.random() < 0.3  # "1.e4" instead of "1. e4"
    if rng.random() < 0.2:
        toks.append(comment(rng))
    first = True
    for board, m in moves:
        num = None
        if board.turn == chess.WHITE:
            num = f"{board.fullmove_number}."
        elif first or (toks and toks[-1].startswith("{")) or (toks and toks[-1] == ")"):
            num = f"{board.fullmove_number}..."
        san = san_of(board, m, rng, zeros)
        if num and glue:
            toks.append(num + san)
        else:
            if num:
                toks.append(num)
            toks.append(san)
        first = False
        r = rng.random()
        if r < 0.06:
            toks.append(comment(rng))
        elif r < 0.10:
            toks.append(f"${rng.randint(1, 200)}")
        elif r < 0.15:
            toks.extend(variation(rng, board))
    # The standard requires a result; it is left out only where the moves end the game
    # unambiguously (a game without moves needs one before the next game).
    result = rng.choice(["*", "1-0", "0-1", "1/2-1/2", None if moves else "*"])
    if result:
        toks.append(result)
    # Wrap at a random width; ';' comments only at line ends.
    width = rng.choice([40, 79, 255, 10**6])
    line = ""
    for t in toks:
        if line and len(line) + 1 + len(t) > width:
            if rng.random() < 0.1:
                line += " ; a rest-of-line comment"
            lines.append(line)
            if rng.random() < 0.05:
                lines.append("% an escaped line")
            line = t
        else:
            line = f"{line} {t}" if line else t
    if line:
        lines.append(line)
    return "\n".join(lines), [m.uci() for _, m in moves]


def write_file(rng):
    games = []
    for _ in range(rng.randint(1, 4)):
        games.append(write_game(rng, rng.random() < 0.2))
    sep = rng.choice(["\n\n", "\n\n\n"])
    text = sep.join(g for g, _ in games) + "\n"
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.05:
        text = "\ufeff" + text
    return text.encode("utf-8")


MUTATIONS = [
    "malformed-tag", "garbage-token", "random-bytes", "truncate", "stray-paren",
    "hello-world",
]


def mutate(rng, data, kind):
    """The mutated bytes, and the line an error must name when the mutation is one
    (garbage tokens and malformed tags; None for the other kinds)."""
    text = data.decode("utf-8", "replace")
    line_of = lambda i: text.count("\n", 0, i) + 1
    if kind == "malformed-tag":
        i = text.find('"]')
        if i < 0:
            return b'[Event "q"uote"]\n\n1. e4 *\n', 1
        return (text[:i] + '"x' + text[i:]).encode(), line_of(i)
    if kind == "garbage-token":
        spaces = [i for i, c in enumerate(text) if c == " "] or [len(text)]
        i = rng.choice(spaces)
        token = rng.choice(["blah", "e9", "Kx", "@", "<", "&", "1-0-1"])
        return (text[:i] + " " + token + text[i:]).encode(), line_of(i)
    if kind == "random-bytes":
        i = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 50)))
        return data[:i] + junk + data[i:], None
    if kind == "truncate":
        return data[: rng.randrange(len(data) + 1)], None
    if kind == "stray-paren":
        i = text.rfind(" ")
        return ((text[:i] + " (" + text[i:]).encode() if i >= 0 else data), None
    return b"hello world\n", 1


# --- reading ----------------------------------------------------------------------------

def python_chess_read(path):
    """(games as UCI lists, any errors?) as python-chess reads the file."""
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    games, errors = [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            if g.errors:
                errors = True
            games.append([m.uci() for m in g.mainline_moves()])
    return games, errors


def threefold_read(binary, path):
    """(games as UCI lists, None) or (None, error message) as threefold reads the file."""
    games = []
    n = 1
    while True:
        p = subprocess.run([binary, "analyze", "--pgn", path, "--game", str(n), "--json"],
                           capture_output=True, text=True, errors="replace", timeout=60)
        if p.returncode != 0:
            msg = p.stderr.strip()
            if "there is no game" in msg and games:
                return games, None
            return None, msg
        plies = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        games.append([r["move"] for r in plies if r["move"]])
        n += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/threefold")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write the corpus to this directory and keep it")
    ap.add_argument("--verbose", action="store_true", help="list every file not in 'agree'")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = args.keep or tempfile.mkdtemp(prefix="pgn-compare-")
    os.makedirs(out, exist_ok=True)
    counts = {}
    notes = []
    lines = {True: 0, False: 0}
    for i in range(args.files):
        data = write_file(rng)
        kind = "valid"
        want_line = None
        if rng.random() < 0.3:
            kind = rng.choice(MUTATIONS)
            data, want_line = mutate(rng, data, kind)
        path = os.path.join(out, f"{i:05d}-{kind}.pgn")
        with open(path, "wb") as f:
            f.write(data)
        pc_games, pc_errors = python_chess_read(path)
        tf_games, tf_error = threefold_read(args.bin, path)
        if tf_games is not None and not pc_errors:
            cat = "agree" if tf_games == pc_games else "DISAGREE"
        elif tf_games is None and pc_errors:
            cat = "both-refuse"
        elif tf_games is None:
            cat = "we-refuse"
        else:
            cat = "we-accept"
        if kind == "valid" and cat != "agree":
            cat = "DISAGREE"
        counts[(kind, cat)] = counts.get((kind, cat), 0) + 1
        # A refused mutation must be reported on the line where it was made.
        if tf_error and want_line is not None:
            said = re.search(r"\.pgn:(\d+): ", tf_error)
            right = said is not None and said.group(1) == str(want_line)
            lines[right] += 1
            if not right:
                notes.append(f"WRONG LINE (want {want_line}): {path}: {tf_error}")
        if cat != "agree":
            notes.append(f"{cat}: {path}: {tf_error or ''}")
    for (kind, cat), n in sorted(counts.items()):
        print(f"{kind:15} {cat:12} {n}")
    for n in notes if args.verbose else [n for n in notes if n.split(":")[0] in (
            "DISAGREE", "we-accept") or n.startswith("WRONG LINE")]:
        print(n)
    print(f"error lines checked: {lines[True]} right, {lines[False]} wrong")
    total = sum(counts.values())
    bad = sum(n for (k, c), n in counts.items() if c == "DISAGREE") + lines[False]
    print(f"{total} files, {bad} disagreements or wrong lines; corpus in {out}")
    if not args.keep and bad == 0:
        for name in os.listdir(out):
            os.remove(os.path.join(out, name))
        os.rmdir(out)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
