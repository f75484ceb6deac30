#!/usr/bin/env python3
"""Check the engine findings of tests/data/review/ against Stockfish, with the same history.

For each hand-made game, the positions the review's tests (tests/review.rs) expect a finding
at are given to Stockfish as `position fen <start> moves <game so far>`, so it sees the
repetitions of the game exactly as threefold's engine does. Printed: Stockfish's score of its
best move and of the move played there (`go searchmoves`), from the side to move's view, and
whether the expectation holds.

    python3 tools/review_check.py [--stockfish /usr/games/stockfish] [--nodes 2000000]

Exit status 1 if any expectation fails. Needs python-chess (python3 -m pip install chess).
"""
import argparse
import pathlib
import sys

import chess
import chess.engine
import chess.pgn

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "review"
WINNING = 150  # centipawns: crates/review/src/params.rs WINNING_CP
DRAWISH = 50  # crates/review/src/params.rs DRAWISH_CP

# (file, ply, what): ply is the position before the move the finding is about.
#  "repetition": the best move (a repetition) scores about 0, the move played at most -WINNING.
#  "allowed": the mover was winning (>= WINNING), and after the move played the opponent
#             can claim (checked by python-chess: can_claim_threefold_repetition).
#  "worth-claiming": the side to move could claim, and playing on (the position after the
#             move played, searched by Stockfish) scores <= -WINNING for it.
#  "fivefold": the mover was winning (>= WINNING), the move played makes the fifth
#             occurrence (python-chess: is_fivefold_repetition) and scores about 0.
#  "walked":  the mover was winning (>= WINNING), the move played scores about 0, and the
#             game goes on with the opponent's forced repetition: four plies in which each
#             of the opponent's moves gives check, each reply is the only legal move, and the
#             position after the move played comes back.
CHECKS = [
    ("missed_perpetual.pgn", 6, "repetition"),
    ("lost_with_claim.pgn", 6, "allowed"),
    ("lost_with_claim.pgn", 7, "worth-claiming"),
    ("won_drawn_by_claim.pgn", 6, "allowed"),
    ("allowed_fivefold.pgn", 15, "fivefold"),
    ("walked_into_repetition.pgn", 0, "walked"),
]


def cp(score):
    return score.score(mate_score=100000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=2_000_000)
    args = ap.parse_args()
    ok = True
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as sf:
        for name, ply, what in CHECKS:
            with open(DATA / name, encoding="utf-8") as f:
                game = chess.pgn.read_game(f)
            board = game.board()
            moves = list(game.mainline_moves())
            for m in moves[:ply]:
                board.push(m)
            played = moves[ply]
            limit = chess.engine.Limit(nodes=args.nodes)
            best = sf.analyse(board, limit)
            best_cp = cp(best["score"].relative)
            best_move = board.san(best["pv"][0])
            only = sf.analyse(board, limit, root_moves=[played])
            played_cp = cp(only["score"].relative)
            after = board.copy()
            after.push(played)
            if what == "repetition":
                good = abs(best_cp) <= DRAWISH and played_cp <= -WINNING
            elif what == "fivefold":
                good = (
                    best_cp >= WINNING
                    and after.is_fivefold_repetition()
                    and abs(played_cp) <= DRAWISH
                )
            elif what == "walked":
                good = (
                    best_cp >= WINNING
                    and abs(played_cp) <= DRAWISH
                    and forced_repetition(after, moves[ply + 1 : ply + 5])
                )
            elif what == "allowed":
                good = best_cp >= WINNING and (
                    after.can_claim_threefold_repetition()
                    or after.can_claim_fifty_moves()
                )
            else:
                # The move played may be the claim move itself (written without a claim):
                # playing on is then judged from the position after it, which Stockfish
                # (like threefold) does not score as a draw at its root.
                on = cp(sf.analyse(after, limit)["score"].relative)
                played_cp = -on
                good = (board.can_claim_draw() or board_claim_with(board)) and played_cp <= -WINNING
            ok &= good
            print(
                f"{name} ply {ply} ({what}): best {best_move} {best_cp:+d}, "
                f"played {board.san(played)} {played_cp:+d}: {'ok' if good else 'FAILED'}"
            )
    sys.exit(0 if ok else 1)


def forced_repetition(board, line):
    """Whether `line` (from `board`) is a forced repetition by the side to move: each of its
    moves gives check, each reply is the only legal move, and `board`'s position comes back."""
    b = board.copy()
    start = b._transposition_key()
    for i, m in enumerate(line):
        if i % 2 == 1 and b.legal_moves.count() != 1:
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return len(line) == 4 and b._transposition_key() == start


def board_claim_with(board):
    """Whether some move would make a claimable position (FIDE 9.2 a / 9.3 a)."""
    for m in board.legal_moves:
        b = board.copy()
        b.push(m)
        if b.is_repetition(3) or b.halfmove_clock >= 100:
            return True
    return False


if __name__ == "__main__":
    main()
