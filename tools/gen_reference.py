#!/usr/bin/env python3
"""Generate tests/data/reference.jsonl: reference data for the FIDE repetition rules.

Run from anywhere, no arguments:  python3 tools/gen_reference.py
It rewrites tests/data/reference.jsonl (relative to the repository root) and prints a
summary to stderr.  Output is deterministic: every game uses its own random.Random
seeded from a fixed string, no set/dict iteration order is relied on for choices, and the
JSON is written with sorted lists and fixed separators.  Requires python-chess (written
against 1.11.2).

Output format
-------------
One JSON object per line, one line per GAME:

    {"name": str, "fen": start FEN, "moves": [UCI...], "plies": [ply...]}

``plies`` has len(moves)+1 entries: ply 0 is the start position, ply i the position after
moves[i-1].  Every ply object has exactly these fields (the spec of
``threefold analyze --json``):

    ply                    int
    move                   UCI of the move that led here (null at ply 0); castling as e1g1
    fen                    board.fen() (ep square only if a legal ep capture exists)
    repetitions            occurrences of this position so far, this one included (1 = first)
    earlier                sorted earlier ply indices holding the same position
    claim_threefold        repetitions >= 3 and the side to move has a legal move
    claim_threefold_moves  sorted legal moves after which the position would stand for
                           (at least) the 3rd time
    claim_fifty            halfmove clock >= 100 and a legal move exists
    claim_fifty_moves      if halfmove clock >= 99 and legal moves exist: sorted legal moves
                           that are neither captures (incl. e.p.) nor pawn moves (castling
                           qualifies); else []
    fivefold               repetitions >= 5
    seventy_five           halfmove clock >= 150 and the side to move has a legal move
    outcome                null | "checkmate" | "stalemate" | "insufficient" | "fivefold" |
                           "seventyfive" -- the first that applies, in exactly that order
                           (insufficient = python-chess is_insufficient_material())

A game stops at the first ply whose outcome is non-null.

"Same position" is FIDE 9.2.3: side to move, piece placement, castling RIGHTS (not
whether castling is possible right now) and the en passant square only if an e.p.
capture is actually legal.  That is python-chess's ``Board._transposition_key()``.
The repetition count is computed by this script itself over the WHOLE game history with
a dictionary keyed by that key; it does not use python-chess's own repetition code,
which walks back only to the last irreversible move.  Afterwards every ply is cross
checked against python-chess's built-ins (is_repetition(3), is_fivefold_repetition,
can_claim_threefold_repetition, can_claim_fifty_moves, is_seventyfive_moves,
is_checkmate, is_stalemate); disagreements are printed to stderr (there were none with
python-chess 1.11.2).  python-chess's is_insufficient_material() is the same algorithm as
shakmaty 0.30's Position::is_insufficient_material().

Game categories (the ``name`` starts with the category)
-------------------------------------------------------
euwe          Euwe's knight sequence from the initial position: block 0 = b1c3 b8c6 c3b1
              c6b8, block 1 = g1f3 g8f6 f3g1 f6g8, block k uses bit popcount(k) % 2
              (Thue-Morse).  The move *sequence* never repeats three times in a row, but
              the initial position recurs after every block, so the game is a fivefold
              at ply 16 (threefold claimable from ply 8).  Also the complementary
              sequence (block k uses 1 - bit) for the same reason.
castle_lost   Positions with castling rights; the pieces shuffle so the position repeats
              with rights, then a king or rook goes and comes back (same placement but
              NOT the same position: rights were lost), then the new rights-less
              position is repeated until it can be claimed.  Variants: both kings, one
              king, h-rooks, a-rooks, one side only.  Then a biased shuffle continues.
castle_blocked  Castling rights intact but castling temporarily impossible (a knight
              standing between king and rook, f1 attacked by a bishop that moves away
              and back, the initial position, the king in check from a queen that is
              blocked and unblocked): the rights are part of the position, whether
              castling is possible at that moment is not, so these positions repeat.
              Then a biased shuffle continues.
ep_pinned     A double pawn push whose e.p. capture is only pseudo-legal (capturing pawn
              pinned on a file, on a diagonal, or the horizontal "both pawns leave the
              rank" discovered check; or the push itself gives a discovered check that
              e.p. does not parry).  The position after the push IS the same as the one
              reached later by shuffling knights; the FEN shows no ep square.
ep_legal      The same set-ups where the e.p. capture is legal (no pin; a pinned pawn
              capturing along its pin line; a second, unpinned capturer; a double push
              giving check that the e.p. capture parries).  The position after the push
              is NOT the same as the later shuffled ones.
mate          Shuffling endgames (K+R, K+Q, back-rank, minor pieces) with a strong
              preference for checkmating moves, avoided during the first 10-45 plies
              (except in the first game per position): checkmates reached after
              shuffling and repetitions.
stalemate     The same with a preference for stalemating moves.
insufficient  Minor-piece endings with a preference for captures, ending in K+B v K,
              K+N v K, K v K or same-coloured bishops; also scripted: a threefold
              shuffle and then the last capture leaving K+B v K, a king taking the last
              pawn (K+N v K), and a capture leaving same-coloured bishops.
mate_repeat   Scripted: the position stands for the 3rd time (claim) and a shuffle move
              would complete another threefold, but the side to move mates instead, or
              only the next shuffle move would be the 3rd occurrence and a mate is
              played instead; also mates with the halfmove clock going 99 -> 100 and
              149 -> 150 (mate takes precedence over 9.3 / 9.6.2; no claim is possible
              in the mated position), and the same clocks with a non-mating move.
              (A mating move can never itself complete a repetition: the same position
              would have been mate at its earlier occurrence.  The only key component
              that could change that, a legal e.p. capture parrying the check, requires
              the double push to give the check, which cannot recur.)
edge          Start positions that are already decided (checkmate, stalemate, K v K,
              same-coloured bishops, halfmove clock 150, mate at clock 150, stalemate at
              clock 150), fivefold and seventy-five reached on the same ply (fivefold
              wins), a capture or pawn move on clock 149, and threefold together with
              fifty-move claims.
fifty         Long reversible shuffles from valid positions whose halfmove clock is 90,
              95, 98 or 99: crossing 9.3 (claim_fifty_moves at 99, claim_fifty at 100).
seventyfive   The same from clocks 140, 145, 149, ending by 9.6.2 (or a zeroing move).
shuffle       The bulk: random games from varied valid positions (hand-written ones and
              positions reached by random play from the initial position, many still
              with castling rights) where reversible piece moves are strongly preferred,
              as are moves returning a piece to its previous square and moves into
              already-seen positions, so threefold and fivefold happen often.
marathon      Very long games (up to 2000 plies) that avoid fivefold and reset the clock
              with pawn moves/captures when it gets high: a benchmark for whole-history
              repetition counting.
random        Ordinary games of uniformly random legal moves (up to 200 plies) from the
              initial position and from random positions, for breadth.
"""

import collections
import json
import os
import random
import sys

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "reference.jsonl")

STARTPOS = chess.STARTING_FEN

# ---------------------------------------------------------------------------------------
# Analysis of one game
# ---------------------------------------------------------------------------------------

DISAGREEMENTS = []


class Game:
    """Plays a game move by move and records the ply objects."""

    def __init__(self, name, fen):
        board = chess.Board(fen)
        if not board.is_valid():
            raise ValueError("invalid start FEN for %s: %s (%s)" % (name, fen, board.status()))
        if board.clean_castling_rights() != board.castling_rights:
            raise ValueError("unclean castling rights in %s: %s" % (name, fen))
        self.name = name
        self.board = board
        self.start_fen = board.fen()
        self.counts = {}  # transposition key -> list of plies
        self.moves = []
        self.plies = []
        self.last = {chess.WHITE: None, chess.BLACK: None}  # last move of each side
        self.info = None
        self._record(None, want_mates=False)

    @property
    def over(self):
        return self.plies[-1]["outcome"] is not None

    def _record(self, move_uci, want_mates):
        board = self.board
        key = board._transposition_key()
        lst = self.counts.setdefault(key, [])
        earlier = list(lst)
        ply = len(self.plies)
        lst.append(ply)
        reps = len(lst)
        legal = list(board.legal_moves)
        has_legal = bool(legal)
        hm = board.halfmove_clock

        # Per legal move: count of the resulting position (including it), zeroing, mate.
        child = []
        three_moves = []
        for m in legal:
            zeroing = board.is_zeroing(m)
            board.push(m)
            c = len(self.counts.get(board._transposition_key(), ())) + 1
            mate = stale = False
            replies = None
            hang = False
            if want_mates:
                replies = board.legal_moves.count()
                hang = (board.is_attacked_by(board.turn, m.to_square)
                        and not board.is_attacked_by(not board.turn, m.to_square))
                mate = replies == 0 and board.is_check()
                stale = replies == 0 and not mate
            board.pop()
            if c >= 3:
                three_moves.append(m.uci())
            child.append((m, c, zeroing, mate, stale, replies, hang))
        three_moves.sort()

        if hm >= 99 and has_legal:
            fifty_moves = sorted(m.uci() for (m, _c, z, _a, _b, _r, _h) in child if not z)
        else:
            fifty_moves = []

        fivefold = reps >= 5
        seventy_five = hm >= 150 and has_legal
        if not has_legal and board.is_check():
            outcome = "checkmate"
        elif not has_legal:
            outcome = "stalemate"
        elif board.is_insufficient_material():
            outcome = "insufficient"
        elif fivefold:
            outcome = "fivefold"
        elif seventy_five:
            outcome = "seventyfive"
        else:
            outcome = None

        p = collections.OrderedDict()
        p["ply"] = ply
        p["move"] = move_uci
        p["fen"] = board.fen()
        p["repetitions"] = reps
        p["earlier"] = earlier
        p["claim_threefold"] = reps >= 3 and has_legal
        p["claim_threefold_moves"] = three_moves
        p["claim_fifty"] = hm >= 100 and has_legal
        p["claim_fifty_moves"] = fifty_moves
        p["fivefold"] = fivefold
        p["seventy_five"] = seventy_five
        p["outcome"] = outcome
        self.plies.append(p)
        self.info = child
        self._crosscheck(p, has_legal)

    def _crosscheck(self, p, has_legal):
        b = self.board
        checks = [
            ("is_repetition(3)", b.is_repetition(3), p["repetitions"] >= 3),
            ("is_fivefold_repetition", b.is_fivefold_repetition(), p["fivefold"]),
            ("can_claim_threefold_repetition", b.can_claim_threefold_repetition(),
             p["claim_threefold"] or bool(p["claim_threefold_moves"])),
            ("can_claim_fifty_moves", b.can_claim_fifty_moves(),
             p["claim_fifty"] or (b.halfmove_clock >= 99 and bool(p["claim_fifty_moves"]))),
            ("is_seventyfive_moves", b.is_seventyfive_moves(), p["seventy_five"]),
            ("is_checkmate", b.is_checkmate(), p["outcome"] == "checkmate"),
            ("is_stalemate", b.is_stalemate(), p["outcome"] == "stalemate"),
        ]
        for what, theirs, ours in checks:
            if theirs != ours:
                DISAGREEMENTS.append((self.name, p["ply"], what, theirs, ours, self.start_fen,
                                      [m.uci() for m in b.move_stack]))

    def push(self, move, want_mates=False):
        if isinstance(move, str):
            move = chess.Move.from_uci(move)
        if self.over:
            raise RuntimeError("%s: game already over" % self.name)
        if move not in self.board.legal_moves:
            raise ValueError("%s: illegal move %s in %s" % (self.name, move.uci(), self.board.fen()))
        self.last[self.board.turn] = move
        self.board.push(move)
        self.moves.append(move.uci())
        self._record(move.uci(), want_mates)

    def script(self, ucis, want_mates=False):
        for u in ucis.split() if isinstance(ucis, str) else ucis:
            self.push(u, want_mates)

    def to_json(self):
        return json.dumps(
            collections.OrderedDict(
                [("name", self.name), ("fen", self.start_fen), ("moves", self.moves), ("plies", self.plies)]),
            separators=(",", ":"))


# ---------------------------------------------------------------------------------------
# Move choice
# ---------------------------------------------------------------------------------------

DEFAULT_POLICY = dict(
    uniform=False,
    rev=10.0,      # non-capture, non-pawn, non-castling moves
    pawn=0.3,      # non-capture pawn moves
    cap=0.5,       # captures (incl. e.p.)
    castle=2.0,    # castling
    ret=6.0,       # multiplier: move undoes the side's own previous move
    rep=2.0,       # multiplier 1 + rep*(count-1) for moves into already-seen positions
    avoid5=False,  # strongly avoid moves that would make a fivefold
    mate=1.0,      # multiplier for mating moves
    stale=1.0,     # multiplier for stalemating moves
    mate_after=0,  # before this many plies mating/stalemating moves are avoided instead
    squeeze=None,  # colour whose moves get weight / (1 + opponent replies)^3 after mate_after
    hm_boost=None,  # (clock, factor): from this clock on multiply pawn/capture weights
)


def choose(game, rng, pol):
    board = game.board
    info = game.info
    if not info:
        return None
    if pol["uniform"]:
        return info[rng.randrange(len(info))][0]
    last = game.last[board.turn]
    hm = board.halfmove_clock
    weights = []
    for (m, c, zeroing, mate, stale, replies, hang) in info:
        if board.is_capture(m):
            w = pol["cap"]
        elif board.piece_type_at(m.from_square) == chess.PAWN:
            w = pol["pawn"]
        elif board.is_castling(m):
            w = pol["castle"]
        else:
            w = pol["rev"]
        if zeroing and pol["hm_boost"] and hm >= pol["hm_boost"][0]:
            w *= pol["hm_boost"][1]
        if last is not None and m.from_square == last.to_square and m.to_square == last.from_square:
            w *= pol["ret"]
        if c > 1:
            w *= 1.0 + pol["rep"] * (c - 1)
        if pol["avoid5"] and c >= 5:
            w *= 1e-4
        early = len(game.moves) < pol["mate_after"]
        if not early and replies is not None and board.turn == pol["squeeze"]:
            w /= (1.0 + replies) ** 3
            if hang and not mate:
                w *= 1e-4  # do not leave the moved piece en prise
        if mate:
            w *= 1e-3 if early else pol["mate"]
        if stale:
            w *= 1e-3 if early else pol["stale"]
        weights.append(w)
    return rng.choices([x[0] for x in info], weights=weights, k=1)[0]


def play(game, rng, pol, max_plies):
    want = pol["mate"] != 1.0 or pol["stale"] != 1.0
    # The first recorded ply (start or end of script) was analysed without mate info.
    if want and not game.over:
        game.plies.pop()
        key = game.board._transposition_key()
        game.counts[key].pop()
        if not game.counts[key]:
            del game.counts[key]
        game._record(game.moves[-1] if game.moves else None, True)
    while not game.over and len(game.moves) < max_plies:
        m = choose(game, rng, pol)
        game.push(m, want)
    return game


def policy(**kw):
    p = dict(DEFAULT_POLICY)
    for k, v in kw.items():
        if k not in p:
            raise KeyError(k)
        p[k] = v
    return p


def varied_policy(rng, **kw):
    """A shuffle-biased policy with randomised strength."""
    p = policy(rev=rng.choice([4.0, 8.0, 15.0, 30.0]),
               pawn=rng.choice([0.1, 0.3, 0.6]),
               cap=rng.choice([0.1, 0.3, 1.0]),
               castle=rng.choice([0.5, 2.0, 5.0]),
               ret=rng.choice([1.0, 3.0, 6.0, 12.0]),
               rep=rng.choice([0.0, 1.0, 3.0, 6.0]))
    p.update(kw)
    return p


# ---------------------------------------------------------------------------------------
# Start positions
# ---------------------------------------------------------------------------------------

# Hand-written middlegame / endgame positions (all checked with is_valid()).
CURATED = [
    STARTPOS,
    # Italian four knights, all castling rights.
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    # Queens still on, both sides can castle either way.
    "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8",
    # Open position, only kingside rights.
    "r1bqk2r/pp3ppp/2n1pn2/3p4/1b1P4/2NBPN2/PP3PPP/R1BQK2R w Kk - 0 8",
    # Castled kings, rooks and minors.
    "r4rk1/pp2bppp/2n1pn2/q2p4/3P1B2/2PBPN2/PP1N1PPP/R2Q1RK1 b - - 3 11",
    # Heavy pieces.
    "2r2rk1/pp3ppp/2q1p3/3p4/3P4/2Q1P3/PP3PPP/2R2RK1 w - - 0 20",
    # Rook endgame.
    "8/5pk1/6p1/2r4p/7P/6P1/3R1PK1/8 w - - 10 45",
    # Minor piece endgame.
    "8/4kpp1/2n1p2p/8/3N4/4P1P1/5PKP/2B5 b - - 4 35",
    # Queen endgame.
    "6k1/5pp1/7p/8/8/6QP/5PPK/1q6 w - - 12 50",
    # Pieces only, no pawns.
    "r3k3/8/2n5/8/4B3/8/3N4/4K2R w Kq - 0 30",
    # Black to move with both rights, white without.
    "r3k2r/ppq2ppp/2nbpn2/3p4/3P4/2NBPN2/PPQ2PPP/R4RK1 b kq - 5 10",
    # Rook + minor vs rook.
    "4r1k1/5ppp/8/8/8/2B5/5PPP/3R2K1 w - - 0 30",
]

CASTLE_FEN = "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8"
CYCLE_QS = "c3b1 c6b8 b1c3 b8c6"   # knight cycle keeping everything else

CASTLE_LOST = [
    # (detail, fen, script)
    ("both-kings", CASTLE_FEN,
     CYCLE_QS + " e1d1 e8d8 d1e1 d8e8 " + CYCLE_QS + " " + CYCLE_QS),
    ("white-king", CASTLE_FEN,
     CYCLE_QS + " e1f1 c6b8 f1e1 b8c6 " + CYCLE_QS + " " + CYCLE_QS),
    ("black-king", CASTLE_FEN,
     CYCLE_QS + " c3b1 e8f8 b1c3 f8e8 " + CYCLE_QS + " " + CYCLE_QS),
    ("h-rooks", CASTLE_FEN,
     CYCLE_QS + " h1g1 h8g8 g1h1 g8h8 " + CYCLE_QS + " " + CYCLE_QS),
    ("a-rooks", CASTLE_FEN,
     CYCLE_QS + " a1b1 a8b8 b1a1 b8a8 " + CYCLE_QS + " " + CYCLE_QS),
    ("white-h-rook-twice", CASTLE_FEN,
     CYCLE_QS + " h1f1 c6b8 f1h1 b8c6 " + CYCLE_QS + " a1b1 c6b8 b1a1 b8c6 " + CYCLE_QS + " " + CYCLE_QS),
    ("italian-king", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
     "f3g1 f6g8 g1f3 g8f6 e1f1 e8f8 f1e1 f8e8 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6"),
    ("pieces-only", "r3k3/8/2n5/8/4B3/8/3N4/4K2R w Kq - 0 30",
     "d2f3 c6b8 f3d2 b8c6 h1h2 a8a7 h2h1 a7a8 d2f3 c6b8 f3d2 b8c6 d2f3 c6b8 f3d2 b8c6"),
]

CASTLE_BLOCKED = [
    # Knight between king and rook (f3-g1), then it is possible again.
    ("knight-between", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
     "f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"),
    # f1 attacked by the bishop on a6: white may not castle short; rights intact.
    ("f1-attacked", "r3k2r/p1ppqppp/bpn2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 10",
     "f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 c3b1 a6b7 b1c3 b7a6 c3b1 a6b7 b1c3 b7a6"),
    # Bishop alternately attacking f1 and not: the rights never change.
    ("attack-toggles", "r3k2r/p1ppqppp/bpn2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 10",
     "c3b1 a6b7 b1c3 b7a6 c3b1 a6b7 b1c3 b7a6 c3b1 a6b7 b1c3 b7a6"),
    # Initial position: all four castlings blocked by own pieces.
    ("initial", STARTPOS, "g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8"),
    # King in check (castling impossible) by a queen, block and unblock, rights intact.
    ("check", "r3k2r/ppp2ppp/1qn2n2/4p3/4P3/5N2/PPP1BPPP/RNBQK2R b KQkq - 0 10",
     "b6b4 c1d2 b4b6 d2c1 b6b4 c1d2 b4b6 d2c1 b6b4"),
]

# (detail, fen, script, pinned?)
EP_SETUPS = [
    ("file-pin", "1n2k3/8/8/8/4p3/8/3P4/1N2R1K1 w - - 0 1",
     "d2d4 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1", True),
    ("diagonal-pin", "kn6/8/8/8/4p3/8/3P1P2/1N4KB w - - 0 1",
     "d2d4 b8d7 b1c3 d7b8 c3b1 b8d7 b1c3 d7b8 c3b1 b8d7 b1c3 d7b8 c3b1", True),
    ("rank-discovery", "1n6/8/8/8/k3p2R/8/3P2K1/6N1 w - - 0 1",
     "d2d4 b8c6 g1f3 c6b8 f3g1 b8c6 g1f3 c6b8 f3g1 b8c6 g1f3 c6b8 f3g1", True),
    ("black-pushes-file-pin", "4r1k1/3p4/8/4P3/8/8/8/1n2K1N1 b - - 0 1",
     "d7d5 g1f3 b1c3 f3g1 c3b1 g1f3 b1c3 f3g1 c3b1 g1f3 b1c3 f3g1 c3b1", True),
    ("discovered-check", "8/8/8/8/2p5/8/RP5k/4K3 w - - 0 1",
     "b2b4", True),
    ("no-pin", "1n2k3/8/8/8/4p3/8/3P4/RN4K1 w - - 0 1",
     "d2d4 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1", False),
    ("along-pin-line", "kn6/8/8/8/4p3/8/3P1P2/1N4KB w - - 0 1",
     "f2f4 b8d7 b1c3 d7b8 c3b1 b8d7 b1c3 d7b8 c3b1 b8d7 b1c3 d7b8 c3b1", False),
    ("second-capturer", "1n2k3/8/8/8/2p1p3/8/3P4/1N2R1K1 w - - 0 1",
     "d2d4 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1 b8c6 b1c3 c6b8 c3b1", False),
    ("black-pushes-legal", "6k1/3p4/8/4P3/8/8/8/1n2K1N1 b - - 0 1",
     "d7d5 g1f3 b1c3 f3g1 c3b1 g1f3 b1c3 f3g1 c3b1 g1f3 b1c3 f3g1 c3b1", False),
    ("push-gives-check", "1n6/8/8/4k3/4p3/8/3P4/1N4K1 w - - 0 1",
     "d2d4", False),
]

MATE_FENS = [
    "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
    "8/8/2k5/8/8/8/8/3QK3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "7k/8/8/8/8/8/8/KQ6 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "2k5/8/8/8/8/q7/8/4K3 b - - 0 1",
    "6k1/6pp/8/8/8/8/1q6/R5K1 w - - 0 1",
    "4k3/8/4K3/8/8/8/8/2R5 w - - 0 1",
    "3k4/8/3K4/8/8/8/8/R7 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/2R5 w - - 0 1",
    "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
    "5rk1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
]

STALE_FENS = [
    "k7/8/1K6/8/8/8/7Q/8 w - - 0 1",
    "7k/8/8/8/8/8/5Q2/6K1 w - - 0 1",
    "k7/P7/1K6/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/2k5/2p5/2K5 b - - 0 1",
    "7k/5K2/8/8/8/8/8/6R1 w - - 0 1",
    "k7/2Q5/8/8/8/8/8/6K1 w - - 0 1",
]

INSUFF_FENS = [
    "4k3/8/8/3n4/8/8/4B3/4K3 w - - 0 1",
    "8/2n5/3k4/8/3B4/8/3K1N2/8 w - - 0 1",
    "8/8/4k3/8/3p4/4B3/4K3/8 w - - 0 1",
    "8/3b4/4k3/8/8/2N5/3NK3/8 b - - 0 1",
    "8/8/2k5/3n4/4N3/5K2/8/8 w - - 0 1",
    "4k3/3r4/8/8/8/8/3R4/4K3 w - - 0 1",
    "8/5k2/4b3/8/8/2B5/3K4/6n1 w - - 0 1",
]


def random_position(rng, nplies, max_tries=50):
    """A position reached by uniformly random play from the initial position."""
    for _ in range(max_tries):
        b = chess.Board()
        ok = True
        for _ in range(nplies):
            legal = list(b.legal_moves)
            if not legal:
                ok = False
                break
            b.push(legal[rng.randrange(len(legal))])
        if ok and b.is_valid() and b.outcome(claim_draw=False) is None and b.legal_moves.count():
            return b.fen()
    raise RuntimeError("no random position")


def with_clock(fen, hm):
    """Same position with the halfmove clock set to hm (and a consistent move number)."""
    b = chess.Board(fen)
    b.ep_square = None
    b.halfmove_clock = hm
    b.fullmove_number = max(b.fullmove_number, hm // 2 + 1)
    return b.fen()


# ---------------------------------------------------------------------------------------
# Categories
# ---------------------------------------------------------------------------------------

def thue_morse(k):
    return bin(k).count("1") % 2


def gen_euwe():
    blocks = {0: "b1c3 b8c6 c3b1 c6b8".split(), 1: "g1f3 g8f6 f3g1 f6g8".split()}
    games = []
    for detail, flip in (("thue-morse", 0), ("complement", 1)):
        g = Game("euwe-%s" % detail, STARTPOS)
        k = 0
        while not g.over:
            for u in blocks[thue_morse(k) ^ flip]:
                if g.over:
                    break
                g.push(u)
            k += 1
        assert g.plies[-1]["outcome"] == "fivefold" and len(g.moves) == 16, g.name
        games.append(g)
    return games


def gen_castle_lost(n_cont):
    games = []
    for i, (detail, fen, script) in enumerate(CASTLE_LOST):
        for j in range(n_cont):
            rng = random.Random("castle_lost/%d/%d" % (i, j))
            g = Game("castle_lost-%s-%d" % (detail, j), fen)
            g.script(script)
            # The position after the script has rights-less repetitions only.
            assert g.plies[-1]["repetitions"] >= 3, g.name
            if j > 0:
                play(g, rng, varied_policy(rng), rng.choice([60, 150, 300]))
            games.append(g)
    return games


def gen_castle_blocked(n_cont):
    games = []
    for i, (detail, fen, script) in enumerate(CASTLE_BLOCKED):
        for j in range(n_cont):
            rng = random.Random("castle_blocked/%d/%d" % (i, j))
            g = Game("castle_blocked-%s-%d" % (detail, j), fen)
            g.script(script)
            if j > 0:
                play(g, rng, varied_policy(rng, castle=rng.choice([0.2, 3.0])),
                     rng.choice([60, 150, 300]))
            games.append(g)
    return games


def gen_ep(n_cont):
    games = []
    for i, (detail, fen, script, pinned) in enumerate(EP_SETUPS):
        cat = "ep_pinned" if pinned else "ep_legal"
        for j in range(n_cont):
            rng = random.Random("ep/%d/%d" % (i, j))
            g = Game("%s-%s-%d" % (cat, detail, j), fen)
            moves = script.split()
            g.push(moves[0])
            after = g.plies[1]
            b = chess.Board(after["fen"])
            ep_in_fen = after["fen"].split()[3] != "-"
            assert ep_in_fen == (not pinned), (g.name, after["fen"])
            g.script(moves[1:])
            if len(moves) > 1:
                # The position after the push recurs: thrice if pinned (same position),
                # only twice otherwise (the first occurrence had a legal ep capture).
                reps = [p["repetitions"] for p in g.plies if p["fen"].split()[:2] == after["fen"].split()[:2]]
                assert reps[-1] == (len(reps) if pinned else len(reps) - 1), (g.name, reps)
            if j > 0:
                play(g, rng, varied_policy(rng), rng.choice([40, 100, 200]))
            games.append(g)
    return games


def gen_endgames(cat, fens, n_each, mate, stale, cap):
    games = []
    for i, fen in enumerate(fens):
        for j in range(n_each):
            rng = random.Random("%s/%d/%d" % (cat, i, j))
            g = Game("%s-%d-%d" % (cat, i, j), fen)
            # The stronger side (by material) squeezes the other one.
            b = g.board
            val = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
            mat = [sum(v * len(b.pieces(pt, col)) for pt, v in val.items()) for col in (chess.BLACK, chess.WHITE)]
            pol = varied_policy(rng, mate=mate, stale=stale, cap=cap,
                                ret=rng.choice([3.0, 8.0]), rep=rng.choice([1.0, 4.0]),
                                mate_after=rng.choice([10, 20, 30, 45]) if j else 0,
                                squeeze=(mat[1] > mat[0]) if cat != "insufficient" and mat[0] != mat[1] else None)
            pol["avoid5"] = (j > 0 and cat != "insufficient") or rng.random() < 0.5
            play(g, rng, pol, 400)
            games.append(g)
    return games


def gen_mate_repeat():
    games = []
    # Threefold claim available (and a shuffle move completing another one), mate instead.
    g = Game("mate_repeat-backrank-claim", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    g.script("a1b1 g8h8 b1a1 h8g8 a1b1 g8h8 b1a1 h8g8")
    assert g.plies[-1]["claim_threefold"] and "a1b1" in g.plies[-1]["claim_threefold_moves"]
    g.push("a1a8")
    assert g.plies[-1]["outcome"] == "checkmate"
    games.append(g)
    # Claim only via the next move (black's shuffle back would be the 3rd), mate instead.
    g = Game("mate_repeat-backrank-move-claim", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    g.script("a1b1 g8h8 b1a1 h8g8 a1b1 g8h8 b1a1 h8g8 a1b1 g8h8")
    assert "b1a1" in g.plies[-1]["claim_threefold_moves"]
    g.push("b1b8")
    assert g.plies[-1]["outcome"] == "checkmate"
    games.append(g)
    # Queen mate after the king was shuffled into a repeated position.
    g = Game("mate_repeat-queen", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
    g.script("b1b2 h8g8 b2b1 g8h8 b1b2 h8g8 b2b1 g8h8")
    assert g.plies[-1]["claim_threefold"]
    g.push("b1b8")
    assert g.plies[-1]["outcome"] == "checkmate"
    games.append(g)
    # Mate with the clock going 99 -> 100 and 149 -> 150 (mate takes precedence).
    for hm in (98, 99, 148, 149):
        side = "b" if hm % 2 == 0 else "w"
        g = Game("mate_repeat-clock-%d" % hm, "6k1/5ppp/8/8/8/8/5PPP/R5K1 %s - - %d 90" % (side, hm))
        if side == "b":
            g.push("g8h8")
        g.push("a1a8")
        assert g.plies[-1]["outcome"] == "checkmate", g.name
        games.append(g)
    # Same but the last move is a non-mating move: 9.3 / 9.6.2 instead.
    for hm in (99, 149):
        g = Game("mate_repeat-clock-nomate-%d" % hm, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - %d 90" % hm)
        g.push("a1b1")
        games.append(g)
    return games


def gen_insufficient_scripted():
    games = []
    # Shuffle (threefold), then the last capture leaves K+B v K.
    g = Game("insufficient-scripted-bishop", "8/8/4k3/8/3p4/4B3/4K3/8 w - - 0 1")
    g.script("e2d2 e6d6 d2e2 d6e6 e2d2 e6d6 d2e2 d6e6 e3d4")
    assert g.plies[-2]["claim_threefold"] and g.plies[-1]["outcome"] == "insufficient"
    games.append(g)
    # The defending king takes the last pawn: K+N v K.
    g = Game("insufficient-scripted-knight", "8/8/8/3k4/3P4/8/8/2N1K3 w - - 0 1")
    g.script("c1b3 d5c4 b3c1 c4d5 c1b3 d5c4 b3c1 c4d4")
    assert g.plies[-1]["outcome"] == "insufficient"
    games.append(g)
    # The last pawn falls: same-coloured bishops (both light-squared) remain.
    g = Game("insufficient-scripted-bishops", "4k3/8/8/3b4/8/5p2/4B3/4K3 w - - 0 1")
    g.script("e1d2 e8d8 d2e1 d8e8 e2f3")
    assert g.plies[-1]["outcome"] == "insufficient"
    games.append(g)
    return games


def gen_edge():
    games = []
    simple = [
        ("start-checkmate", "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"),
        ("start-stalemate", "k7/8/1QK5/8/8/8/8/8 b - - 0 1"),
        ("start-kk", "8/8/3k4/8/8/4K3/8/8 w - - 0 1"),
        ("start-same-colour-bishops", "4k3/8/8/3b4/8/8/4B3/4K3 w - - 0 1"),
        ("start-knight", "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1"),
        ("start-clock150", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 150 100"),
        ("start-clock151", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 151 100"),
        ("start-mate-clock150", "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 150 100"),
        ("start-stalemate-clock150", "k7/8/1QK5/8/8/8/8/8 b - - 150 100"),
        ("start-kk-clock150", "8/8/3k4/8/8/4K3/8/8 w - - 150 100"),
        ("start-clock100", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 100 100"),
    ]
    for detail, fen in simple:
        games.append(Game("edge-%s" % detail, fen))
    # Fivefold and seventy-five on the same ply: fivefold first.
    g = Game("edge-fivefold-and-seventyfive", "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 134 100")
    while not g.over:
        g.script("g1h1 g8h8 h1g1 h8g8")
    assert g.plies[-1]["outcome"] == "fivefold" and g.plies[-1]["seventy_five"], g.name
    games.append(g)
    # Threefold reached at clock >= 100: both claims at once.
    g = Game("edge-threefold-and-fifty", "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 92 100")
    g.script("g1h1 g8h8 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8")
    games.append(g)
    # Zeroing moves at clock 149 keep the game going.
    g = Game("edge-capture-at-149", "r5k1/5pp1/7p/8/8/8/5PPP/R5K1 w - - 149 100")
    g.script("a1a8 g8h7 a8a1 h7g8 a1a8 g8h7")  # capture resets the clock; then shuffles
    games.append(g)
    g = Game("edge-capture-mate-at-149", "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 149 100")
    g.push("a1a8")  # capture that mates
    games.append(g)
    g = Game("edge-pawn-at-149", "r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 149 100")
    g.script("h2h3 g8h8 g1h2 h8g8 h2g1 g8h8 g1h2 h8g8 h2g1")
    games.append(g)
    g = Game("edge-castle-at-99", "4k3/8/8/8/8/8/8/R3K2R w KQ - 99 80")
    g.script("e1g1 e8d8 g1h1 d8e8")
    games.append(g)
    # Promotion by capture and by push.
    g = Game("edge-promotions", "1r2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1")
    g.script("a7b8n h2g1q e1d2 g1d4 d2e2")
    games.append(g)
    return games


def gen_clock(cat, clocks, n_each, seedbase):
    games = []
    k = 0
    for hm in clocks:
        for j in range(n_each):
            rng = random.Random("%s/%d/%d" % (seedbase, hm, j))
            if j % 3 == 0:
                src = CURATED[rng.randrange(len(CURATED))]
            else:
                src = random_position(rng, rng.randrange(12, 70))
            fen = with_clock(src, hm)
            g = Game("%s-%d-%d" % (cat, hm, j), fen)
            pol = varied_policy(rng, ret=rng.choice([0.5, 1.0, 3.0]), rep=rng.choice([0.0, 1.0]),
                                pawn=rng.choice([0.02, 0.1, 0.3]), cap=rng.choice([0.02, 0.1, 0.5]))
            pol["avoid5"] = rng.random() < 0.7
            play(g, rng, pol, 250)
            games.append(g)
            k += 1
    return games


def gen_shuffle(n):
    games = []
    for i in range(n):
        rng = random.Random("shuffle/%d" % i)
        r = rng.random()
        if r < 0.3:
            fen = CURATED[i % len(CURATED)]
        elif r < 0.85:
            fen = random_position(rng, rng.randrange(4, 60))
        else:
            fen = with_clock(random_position(rng, rng.randrange(10, 80)), rng.randrange(0, 150))
        g = Game("shuffle-%03d" % i, fen)
        pol = varied_policy(rng)
        if rng.random() < 0.35:
            # Seek repetitions but stop short of a fivefold: many threefold claims.
            pol.update(rep=rng.choice([3.0, 8.0]), ret=rng.choice([6.0, 12.0]), avoid5=True)
        if rng.random() < 0.3:
            pol["hm_boost"] = (rng.choice([60, 100, 130]), 30.0)
        play(g, rng, pol, rng.choice([150, 300, 400]))
        games.append(g)
    return games


def gen_marathon(n):
    games = []
    for i in range(n):
        rng = random.Random("marathon/%d" % i)
        fen = STARTPOS if i % 2 == 0 else random_position(rng, rng.randrange(4, 16))
        g = Game("marathon-%02d" % i, fen)
        pol = policy(rev=10.0, pawn=0.05, cap=0.05, castle=1.0, ret=rng.choice([1.0, 3.0]),
                     rep=rng.choice([0.5, 2.0]), avoid5=True,
                     hm_boost=(rng.choice([110, 130, 140]), 400.0))
        play(g, rng, pol, 2000)
        games.append(g)
    return games


def gen_random(n):
    games = []
    for i in range(n):
        rng = random.Random("random/%d" % i)
        fen = STARTPOS if i % 2 == 0 else random_position(rng, rng.randrange(2, 40))
        g = Game("random-%03d" % i, fen)
        play(g, rng, policy(uniform=True), 200)
        games.append(g)
    return games


def main():
    games = []
    games += gen_euwe()
    games += gen_castle_lost(4)
    games += gen_castle_blocked(4)
    games += gen_ep(3)
    games += gen_endgames("mate", MATE_FENS, 4, mate=1000.0, stale=0.02, cap=0.02)
    games += gen_endgames("stalemate", STALE_FENS, 5, mate=0.05, stale=1000.0, cap=0.02)
    games += gen_endgames("insufficient", INSUFF_FENS, 5, mate=1.0, stale=1.0, cap=40.0)
    games += gen_insufficient_scripted()
    games += gen_mate_repeat()
    games += gen_edge()
    games += gen_clock("fifty", [90, 95, 98, 99], 8, "fifty")
    games += gen_clock("seventyfive", [140, 145, 149], 8, "seventyfive")
    games += gen_shuffle(160)
    games += gen_marathon(8)
    games += gen_random(40)

    names = [g.name for g in games]
    assert len(names) == len(set(names)), "duplicate game names"
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for g in games:
            f.write(g.to_json())
            f.write("\n")

    # Summary.
    per_cat = collections.OrderedDict()
    outcomes = collections.Counter()
    plies = 0
    for g in games:
        cat = g.name.split("-")[0]
        c = per_cat.setdefault(cat, [0, 0])
        c[0] += 1
        c[1] += len(g.plies)
        plies += len(g.plies)
        outcomes[g.plies[-1]["outcome"] or "none (ply limit)"] += 1
    out = sys.stderr
    print("wrote %s: %d games, %d plies, %d bytes" % (OUT, len(games), plies, os.path.getsize(OUT)), file=out)
    for cat, (n, p) in per_cat.items():
        print("  %-16s %4d games %7d plies" % (cat, n, p), file=out)
    print("  final outcomes: " + ", ".join("%s=%d" % kv for kv in sorted(outcomes.items())), file=out)
    claim3 = sum(1 for g in games for p in g.plies if p["claim_threefold"])
    print("  plies with claim_threefold: %d; with fivefold: %d; with claim_fifty: %d" % (
        claim3, sum(1 for g in games for p in g.plies if p["fivefold"]),
        sum(1 for g in games for p in g.plies if p["claim_fifty"])), file=out)
    if DISAGREEMENTS:
        print("python-chess DISAGREEMENTS: %d" % len(DISAGREEMENTS), file=out)
        for d in DISAGREEMENTS[:50]:
            print("  %s ply %d: %s python-chess=%s ours=%s\n    start %s\n    moves %s" % (
                d[0], d[1], d[2], d[3], d[4], d[5], " ".join(d[6])), file=out)
    else:
        print("python-chess cross-check: no disagreements", file=out)


if __name__ == "__main__":
    main()
