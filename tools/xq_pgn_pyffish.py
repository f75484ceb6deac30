#!/usr/bin/env python3
"""pyffish's side of the xiangqi PGN round trip (tests/xiangqi_pgn.rs).

  xq_pgn_pyffish.py read FILE     each game of a PGN file replayed with pyffish (every SAN
                                  must be the get_san of exactly one legal move); prints one
                                  line per game: the final position's board and side to move
  xq_pgn_pyffish.py write N SEED  N random games played by pyffish, written as PGN with its
                                  own SAN (get_san_moves); one JSON line per game:
                                  {"pgn": ..., "fen": board and side after the last move}

Needs pyffish (python3 -m pip install pyffish==0.0.90): Fairy-Stockfish's rules as a library.
"""
import json, random, re, sys

import pyffish as sf

V = "xiangqi"


def board_side(fen):
    return " ".join(fen.split()[:2])


def games(text):
    """(tags, movetext) of each game in a PGN text."""
    out, tags, moves, in_moves = [], {}, [], False
    for line in text.splitlines() + [""]:
        s = line.strip()
        if s.startswith("["):
            if in_moves:
                out.append((tags, " ".join(moves)))
                tags, moves, in_moves = {}, [], False
            m = re.match(r'\[(\w+)\s+"(.*)"\]', s)
            tags[m.group(1)] = m.group(2)
        elif s:
            in_moves = True
            moves.append(s)
    if tags or moves:
        out.append((tags, " ".join(moves)))
    return out


def replay(tags, movetext):
    cur = tags.get("FEN") or sf.start_fen(V)
    movetext = re.sub(r"\{[^}]*\}", " ", movetext)
    for tok in movetext.split():
        if re.fullmatch(r"\d+\.+", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        # Only the moves to the point the token names need their SAN written.
        to = re.search(r"([a-i]\d+)[+#]?$", tok).group(1)
        legal = [m for m in sf.legal_moves(V, cur, []) if re.match(r"[a-i]\d+" + to + "$", m)]
        hits = [m for m in legal if sf.get_san(V, cur, m) == tok]
        if len(hits) != 1:
            sys.exit(f"{tok!r} in {cur}: {len(hits)} legal moves are written so")
        cur = sf.get_fen(V, cur, hits)
    return board_side(cur)


def write(n, seed):
    rnd = random.Random(seed)
    start = sf.start_fen(V)
    for g in range(n):
        moves, cur = [], start
        for _ in range(rnd.randrange(20, 160)):
            legal = sf.legal_moves(V, cur, [])
            if not legal:
                break
            moves.append(rnd.choice(legal))
            cur = sf.get_fen(V, cur, moves[-1:])
        san = sf.get_san_moves(V, start, moves)
        words = []
        for i, s in enumerate(san):
            if i % 2 == 0:
                words.append(f"{i // 2 + 1}.")
            words.append(s)
        pgn = (f'[Event "pyffish random game {g}"]\n[Variant "xiangqi"]\n[Result "*"]\n\n'
               + " ".join(words) + " *\n")
        print(json.dumps({"pgn": pgn, "fen": board_side(sf.get_fen(V, start, moves))}))


if __name__ == "__main__":
    if sys.argv[1] == "read":
        for tags, movetext in games(open(sys.argv[2]).read()):
            print(replay(tags, movetext))
    elif sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)
