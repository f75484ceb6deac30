#!/usr/bin/env python3
"""Drive `threefold uci` with python-chess through whole games (against itself, or against
Stockfish with --stockfish ELO) and check every move is legal and the protocol holds.

Usage: tools/uci_game.py [--engine "target/release/threefold uci"] [--games 1]
                         [--movetime 0.05] [--stockfish 1500]
Exit status 0 when every game ended by the laws of chess with no engine error.
"""
import argparse, shlex, sys
import chess, chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/threefold uci")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--movetime", type=float, default=0.05)
    ap.add_argument("--stockfish", type=int, help="play Stockfish limited to this Elo")
    args = ap.parse_args()
    eng = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    eng.configure({"Hash": 32, "Contempt": 10})
    opp = eng
    if args.stockfish:
        opp = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
        opp.configure({"UCI_LimitStrength": True, "UCI_Elo": args.stockfish})
    ok = True
    for g in range(args.games):
        board = chess.Board()
        players = [eng, opp] if g % 2 == 0 else [opp, eng]
        while board.outcome(claim_draw=True) is None and board.ply() < 400:
            p = players[0] if board.turn == chess.WHITE else players[1]
            r = p.play(board, chess.engine.Limit(time=args.movetime), info=chess.engine.INFO_ALL)
            if r.move is None or r.move not in board.legal_moves:
                print(f"game {g+1}: illegal or no move {r.move} at ply {board.ply()}", file=sys.stderr)
                ok = False
                break
            board.push(r.move)
        o = board.outcome(claim_draw=True)
        print(f"game {g+1}: {board.ply()} plies, {o.result() if o else '*'} {o.termination.name if o else 'MAX_PLIES'}")
        print(chess.Board().variation_san(board.move_stack))
    eng.quit()
    if opp is not eng:
        opp.quit()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
