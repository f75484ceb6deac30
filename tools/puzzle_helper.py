#!/usr/bin/env python3
"""Authoring aid for puzzles/*.toml: an independent second opinion.

Recomputes every puzzle's answer with python-chess (1.11.2), independently of
the Rust rules core, and compares it with the answer stated in the file.
`cargo test` does not need this script; it is for authors.

    python3 tools/puzzle_helper.py puzzles/*.toml        # check all
    python3 tools/puzzle_helper.py --show ID puzzles/*.toml  # labels, counts, claims of one puzzle
"""
import re
import sys
import tomllib

import chess


def tokens(text):
    out = []
    for raw in text.split():
        t = raw.lstrip("0123456789")
        if len(t) < len(raw):
            t = t.lstrip(".") if t.startswith(".") else raw
        if t and t not in ("1-0", "0-1", "1/2-1/2", "*"):
            out.append(t)
    return out


def build(p):
    start = p.get("start", "standard")
    board = chess.Board() if start.strip().lower() == "standard" else chess.Board(start)
    labels = ["start"]
    keys = [board._transposition_key()]
    for san in tokens(p.get("moves", "")):
        if board.is_game_over(claim_draw=False) or board.is_fivefold_repetition():
            raise ValueError(f"move {san} after the game ended")
        num, white = board.fullmove_number, board.turn == chess.WHITE
        mv = board.parse_san(san)
        s = board.san(mv).rstrip("+#")
        board.push(mv)
        labels.append(f"{num}.{s}" if white else f"{num}...{s}")
        keys.append(board._transposition_key())
    return board, labels, keys


def norm(label):
    label = re.sub(r"[\s+#!?]", "", str(label))
    return label[len("after"):] if label.startswith("after") else label


def ply_of(labels, ref):
    if isinstance(ref, int):
        return ref
    n = norm(ref)
    if n == "start":
        return 0
    return labels.index(n)


def ending(board):
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient"
    if board.is_fivefold_repetition():
        return "fivefold"
    if board.is_seventyfive_moves():
        return "seventy-five"
    return "no"


def claim_now(board):
    if ending(board) != "no":
        return "game over"
    three = board.is_repetition(3)
    fifty = board.halfmove_clock >= 100
    return {(True, True): "both", (True, False): "threefold", (False, True): "fifty"}.get((three, fifty), "none")


def claim_with(board, mv):
    irreversible = board.is_irreversible(mv)
    zeroing = board.is_zeroing(mv)
    clock = board.halfmove_clock
    board.push(mv)
    try:
        if not irreversible and board.is_repetition(3):
            return "threefold"
        if not zeroing and clock + 1 >= 100:
            return "fifty"
        return "none"
    finally:
        board.pop()


def claim_moves(board):
    out = []
    for mv in board.legal_moves:
        if board.is_irreversible(mv):
            continue
        board.push(mv)
        rep = board.is_repetition(3)
        board.pop()
        if rep:
            out.append(mv)
    return out


CLAIM_ALIASES = {"no": "none", "9.2": "threefold", "9.3": "fifty"}


def compute(p):
    board, labels, keys = build(p)
    ask = p["ask"]
    if ask == "claim":
        return claim_now(board), board, labels, keys
    if ask == "intended":
        return claim_with(board, board.parse_san(p["move"])), board, labels, keys
    if ask == "claim-moves":
        return sorted(board.san(m) for m in claim_moves(board)), board, labels, keys
    if ask == "count":
        ply = ply_of(labels, p["at"]) if "at" in p else len(keys) - 1
        same = [i for i, k in enumerate(keys) if k == keys[ply]]
        return {"count": len(same), "after": [labels[i] for i in same]}, board, labels, keys
    if ask == "same":
        a, b = ply_of(labels, p["first"]), ply_of(labels, p["second"])
        return ("yes" if keys[a] == keys[b] else "no"), board, labels, keys
    if ask == "ending":
        return ending(board), board, labels, keys
    raise ValueError(f"unknown ask {ask}")


def stated(p):
    a = p["answer"]
    ask = p["ask"]
    if ask in ("claim", "intended"):
        return CLAIM_ALIASES.get(a, a)
    if ask == "claim-moves":
        return sorted(a)
    if ask == "count":
        return {"count": a["count"], "after": [norm(x) for x in a["after"]]}
    if ask == "same":
        return {True: "yes", False: "no"}.get(a, a)
    if ask == "ending":
        return {"seventyfive": "seventy-five", "none": "no"}.get(a, a)
    return a


def show(p):
    board, labels, keys = build(p)
    print(f"== {p['id']}")
    for i, (l, k) in enumerate(zip(labels, keys)):
        occ = [j for j in range(i + 1) if keys[j] == k]
        extra = f"  <- occurrence {len(occ)} (also {', '.join(labels[j] for j in occ[:-1])})" if len(occ) > 1 else ""
        print(f"  ply {i:3} {l:12}{extra}")
    print("  FEN:", board.fen())
    print("  ending:", ending(board), " claim now:", claim_now(board), " clock:", board.halfmove_clock)
    if ending(board) == "no":
        print("  9.2a moves:", sorted(board.san(m) for m in claim_moves(board)))


def main(argv):
    show_id = None
    if argv and argv[0] == "--show":
        show_id, argv = argv[1], argv[2:]
    bad = 0
    total = 0
    for path in argv:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        for p in doc.get("puzzle", []):
            total += 1
            if show_id is not None:
                if p["id"] == show_id:
                    show(p)
                continue
            try:
                got = compute(p)[0]
            except Exception as e:  # noqa: BLE001 - report and go on
                print(f"{path}: {p.get('id')}: error: {e}")
                bad += 1
                continue
            want = stated(p)
            if got != want:
                print(f"{path}: {p['id']}: file says {want!r}, python-chess computes {got!r}")
                bad += 1
    if show_id is None:
        print(f"{total} puzzles, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
