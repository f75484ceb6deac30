#!/usr/bin/env python3
"""Keep the real games in which a position stands three times.

Reads PGN scores copied by hand from public collections (a scratch file, each game
preceded by a `Source` tag naming the commit-pinned file it was read from), replays
each with python-chess and keeps only complete games: White, Black, Event, Site, Date
and Result given, every move legal from the initial position (or the FEN/SetUp the
game names), and some position standing a third time (FIDE 9.2: same player to move,
same pieces, same castling and en passant rights). Games already in the other real-game
files given with --known are left out, and at most three games come from one event.

    python3 tools/check_real_games.py SCRATCH.pgn --known tools/real_games.pgn \
        --out tools/real_games_more.pgn --md tools/real_games_more.md
"""
import argparse
import collections
import io
import sys

import chess
import chess.pgn

TAGS = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Source"]
NEEDED = ["White", "Black", "Event", "Site", "Date", "Result", "Source"]


def key(game):
    h = game.headers
    return (h.get("White"), h.get("Black"), h.get("Date"), h.get("Event"))


def third_occurrence(game):
    """(ply, san, board before the move, board after) of the first third occurrence, or None."""
    board = game.board()
    for ply, move in enumerate(game.mainline_moves(), 1):
        san = board.san(move)
        before = board.copy()
        board.push(move)
        if board.is_repetition(3):
            return ply, san, before, board.copy()
    return None


def position_key(board):
    """Pieces, side to move, castling rights and a legal en passant square: FIDE 9.2's sameness."""
    return " ".join(board.fen(en_passant="legal").split()[:4])


def motif(game, ply):
    """What the players did between the first and the third occurrence of the position.

    'perpetual check' when every move of one side in that stretch gave check, 'shuffle with
    checks' when some did, 'shuffle' when none did; then the pieces each side moved
    (K, Q, R, B, N, P). A fortress or a king walk takes a reader's eye, not this function."""
    board = game.board()
    moves = list(game.mainline_moves())[:ply]
    keys = [position_key(board)]
    for move in moves:
        board.push(move)
        keys.append(position_key(board))
    first = keys.index(keys[ply])
    board = game.board()
    for move in moves[:first]:
        board.push(move)
    checks = {chess.WHITE: [], chess.BLACK: []}
    pieces = {chess.WHITE: set(), chess.BLACK: set()}
    for move in moves[first:ply]:
        side = board.turn
        pieces[side].add(board.piece_at(move.from_square).symbol().upper())
        checks[side].append(board.gives_check(move))
        board.push(move)
    if any(c and all(c) for c in checks.values()):
        kind = "perpetual check"
    elif any(any(c) for c in checks.values()):
        kind = "shuffle with checks"
    else:
        kind = "shuffle"
    order = "KQRBNP"
    who = "; ".join(f"{name} {''.join(sorted(pieces[side], key=order.index))}"
                    for side, name in ((chess.WHITE, "White"), (chess.BLACK, "Black")) if pieces[side])
    return f"{kind} ({who})"


def move_text(game):
    return game.board().variation_san(list(game.mainline_moves()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scratch")
    ap.add_argument("--known", action="append", default=[])
    ap.add_argument("--out")
    ap.add_argument("--md")
    a = ap.parse_args()

    known = set()
    for path in a.known:
        with open(path) as f:
            while (g := chess.pgn.read_game(f)) is not None:
                known.add(key(g))

    kept, per_event, seen = [], collections.Counter(), set()
    with open(a.scratch) as f:
        text = f.read()
    stream = io.StringIO(text)
    n = 0
    while (g := chess.pgn.read_game(stream)) is not None:
        n += 1
        h = g.headers
        name = f"game {n} ({h.get('White')} - {h.get('Black')}, {h.get('Event')} {h.get('Date')})"
        missing = [t for t in NEEDED if not h.get(t) or h.get(t) in ("?", "????.??.??", "*")]
        if missing:
            print(f"{name}: left out, no {', '.join(missing)}", file=sys.stderr)
            continue
        if g.errors:
            print(f"{name}: left out, {g.errors[0]}", file=sys.stderr)
            continue
        if key(g) in known or key(g) in seen:
            print(f"{name}: left out, already kept", file=sys.stderr)
            continue
        found = third_occurrence(g)
        if not found:
            print(f"{name}: left out, no position stands three times", file=sys.stderr)
            continue
        if per_event[h["Event"]] >= 3:
            print(f"{name}: left out, a fourth game of its event", file=sys.stderr)
            continue
        per_event[h["Event"]] += 1
        seen.add(key(g))
        kept.append((g, found))
    print(f"{len(kept)} of {n} games kept", file=sys.stderr)

    if a.out:
        with open(a.out, "w") as f:
            for g, _ in kept:
                for t in TAGS:
                    if t in g.headers:
                        f.write(f'[{t} "{g.headers[t]}"]\n')
                if "FEN" in g.headers:
                    f.write(f'[SetUp "1"]\n[FEN "{g.headers["FEN"]}"]\n')
                f.write(f"\n{move_text(g)} {g.headers['Result']}\n\n")
    if a.md:
        with open(a.md, "w") as f:
            f.write(HEADER)
            f.write("| # | White | Black | Event | Date | third occurrence (ply, move) | claim | "
                    "plies played after | motif |\n")
            f.write("|---|---|---|---|---|---|---|---|---|\n")
            for i, (g, (ply, san, before, after)) in enumerate(kept, 1):
                h = g.headers
                num = (ply + 1) // 2
                mv = f"{num}.{san}" if ply % 2 else f"{num}...{san}"
                mover = "White" if before.turn == chess.WHITE else "Black"
                claim = f"{mover}, before playing {mv} (9.2 a)"
                after_n = len(list(g.mainline_moves())) - ply
                note = MOTIF_NOTE.get(key_short(g))
                f.write(f"| {i} | {h['White']} | {h['Black']} | {h['Event']} | {h['Date']} | "
                        f"{ply}, {mv} | {claim} | {after_n} | {motif(g, ply)}"
                        f"{'; ' + note if note else ''} |\n")
    for g, (ply, san, _, _) in kept:
        print(f"{g.headers['White']} - {g.headers['Black']} {g.headers['Event']} {g.headers['Date']}: "
              f"ply {ply} {san} {motif(g, ply)}")


def key_short(g):
    return (g.headers["White"].split(",")[0], g.headers["Black"].split(",")[0])


# A reader's word on a game, added after the computed motif (key: White's and Black's surnames).
MOTIF_NOTE = {
    ("Burnett", "Williams"): "nobody claimed: play went on and Black won",
    ("Jakovenko", "Eljanov"): "nobody claimed: play went on, drawn later",
    ("Wang Yue", "Rublevsky"): "king and pawn ending",
    ("Naiditsch", "Xiu Deshun"): "king and pawn ending, the kings step back and forth",
    ("Kosteniuk", "Lagno"): "closed Ruy Lopez (9.h3 Re8), Ng5/Nf3 against Re8/Rf8 from move 10",
    ("Grischuk", "Kramnik"): "Catalan, drawn at move 14",
    ("Zatonskih", "Abrahamyan"): "armageddon tiebreak game, not a classical one",
}

HEADER = """# More real games in which a position stood three times

Read from public scores and replayed with python-chess by tools/check_real_games.py, which
keeps a game only when its headers are complete (White, Black, Event, Site, Date, Result),
every move is legal and some position stands a third time (same side to move, same pieces,
same castling rights, same en passant capture possible). At most three games come from one
event, and none is one of the eleven in tools/real_games.pgn.

Sources, each game's `Source` tag in tools/real_games_more.pgn naming the file at a pinned
commit: the 1971 British championship from Britbase (John Saunders), the Bundesliga from
the mega2600 collection, and everything from 2013 on from The Week in Chess (Mark
Crowther), all as kept in the rozim/ChessData repository. Scores were copied from those
files, never written from memory; tools/real_games_candidates.pgn holds every score copied,
the ones left out too (most of those were agreed drawn at the second occurrence).

Columns: the ply of the move that brings the position back the third time, counted from
the start; who could claim first (FIDE 9.2 a: the player about to make that move, by
writing it on the scoresheet and declaring the intention; once it is on the board the
player then to move may claim under 9.2 b); how many plies the game went on after it; and
what the players did between the first and third occurrence (computed: perpetual check,
shuffle with checks or shuffle, then the pieces each side moved), with a reader's note
where one helps.

"""

if __name__ == "__main__":
    main()
