//! Xiangqi as a [`Game`]: threefold's xiangqi board ([`threefold_xiangqi`]), its evaluation
//! ([`eval`]), and the WXF judge inside the search.
//!
//! # The judge in the search
//!
//! In xiangqi a repetition is a ruling: the side that perpetually checks or chases loses,
//! mutual violations and idle repetitions draw. The search applies the rulings as Daniel Tan
//! and Neftali Watkinson Medina's engine does ("Complete Implementation of WXF Chinese Chess
//! Rules", 2024, <https://arxiv.org/abs/2412.17334>, section 5, Algorithms 9 and 10):
//!
//! - **Detection** is Zarkov's list of keys ([`KeyHistory`], the chess default), kept for
//!   the game and the line; only where it finds a repetition is the judge asked.
//! - **At which occurrence**: at the first repetition, at any node below the root, whether
//!   the earlier occurrence is in the tree or in the game before the root — as the paper's
//!   engine rules. A cycle that one side can play once it can play again, and the ruling of
//!   the next cycle is the ruling of this one (the same moves), so the side the ruling
//!   condemns must leave the cycle, and leaving it later gains nothing over leaving it now;
//!   the referee (the WXF arbiter, Fairy-Stockfish) rules at the third occurrence, which
//!   comes if neither side leaves. Where the position has stood twice before, that ruling is
//!   the one made (over both cycles, `ntimes` 2); else the first cycle's (`ntimes` 1). Chess's
//!   rule (a second occurrence before the root counts only beyond two plies) would let the
//!   engine walk into a forbidden repetition at the root's first ply, planning to leave it a
//!   cycle later. With the judge off, a repetition is a draw by chess's rule.
//! - **`judge_prune`** (Algorithm 10, [`Record::judge_prune`]): at the first repetition, a
//!   side to move whose own moves were idle cannot lose; when a draw already reaches beta
//!   the opponent's moves are not judged.
//! - **Lazy chase computation** (section 5.1): the record of the game and the line
//!   ([`Record`], pushed and popped with every move of the search) computes a move's chase
//!   information only when a ruling needs it, and caches it while the entry stands. A node
//!   that is cut off by a capture never computes any: the paper's staged evaluation of
//!   chasing moves is the limit case of this, where nothing is computed before a repetition.
//! - **The table.** A ruling's win or loss is scored as a mate at the node (the game is over
//!   there), but it rests on the path: another path to a node above it may not repeat at all.
//!   The search therefore tracks, for each node, the earliest ply its value rests on by a
//!   ruling ([`crate::game::Verdict`]'s `since`), and a node whose value rests on a position above
//!   it is not stored in the table (see `crate::search`); a node at or above the earlier
//!   occurrence is stored, as the cycle below it repeats on every path. Draws are scored and
//!   stored as chess draws are.
//! - **Option `Judge`** (on by default): off, every repetition is a draw as in chess (the
//!   perpetual check and chase rules unknown: a baseline for measurements).
//!
//! # What the search does in xiangqi as in chess, and what it leaves out
//!
//! The same negamax runs for both games: table cutoffs, null-move pruning (with a rook, horse
//! or cannon on the board), reverse futility and futility pruning, late-move pruning and
//! reductions, internal iterative reduction, the check extension, killers and history,
//! aspiration windows. Xiangqi adds the counter move ([`crate::game::Game::COUNTER_MOVES`]:
//! after the killers, the quiet move that last refuted the previous move; +29 ± 26 Elo over
//! 400 games against the search without it, the engine README's table). Left out: static
//! exchange evaluation (a cannon's capture needs a screen, so the chess routine does not
//! apply; a capture of a piece worth less than its capturer is "losing" when the point it
//! lands on is attacked, [`Position::lands_attacked`]: tried last, and not pruned at shallow
//! depth as chess's losing captures are, [`crate::game::Game::PRUNE_LOSING_CAPTURES`]),
//! the upcoming-repetition test (Stockfish's cuckoo tables are chess's moves), and the
//! fifty-move rule: the WXF rules have none (Fairy-Stockfish's xiangqi draws after 100 plies
//! without a capture, and so does a match refereed by pyffish; the search does not know it).
//!
//! # The folder
//!
//! - [`Game`] for threefold's xiangqi position, with the judge in the search (this file);
//! - [`ordering`]: the picker, which generates pseudo-legal moves and tests a move's legality
//!   only when it hands the move out, and the quiescence search's list;
//! - [`eval`]: the evaluation (its weights, fitted to Fairy-Stockfish's scores, in
//!   [`eval::params`]).

pub mod eval;
pub mod ordering;

use threefold_xiangqi::judge::{Outcome, Record, RuleAt};
use threefold_xiangqi::{Color, Kind, Move, Position, Square};

use crate::States;
use crate::evalcache::EvalSlots;
use crate::game::{Game, Verdict};
use crate::probe::Probe;
use crate::search::keys::{KeyHistory, Repetition};
use crate::search::ordering::update_history_score;
use crate::search::params::DELTA_MARGIN;
use eval::{evaluate, piece_value};
use ordering::{
    POINTS, XiangqiHistory, XiangqiPicker, XiangqiQList, kind_at, losing_capture, point,
};

/// What the engine keeps of xiangqi between searches.
pub struct XiangqiState {
    /// Zarkov's list of keys: where a repetition is.
    keys: KeyHistory,
    /// The game and the line, for the judge (kept only with the judge on).
    record: Record,
    history: Box<XiangqiHistory>,
    /// UCI `Judge`: rule repetitions by the WXF rules (else every repetition is a draw).
    judge: bool,
    /// Static evaluations by key, kept across searches.
    evals: EvalSlots,
}

impl XiangqiState {
    /// An empty state, judge on.
    pub fn new() -> XiangqiState {
        XiangqiState {
            keys: KeyHistory::new(),
            record: Record::new(Position::start()),
            history: Box::new([[[0; POINTS]; POINTS]; 2]),
            judge: true,
            evals: EvalSlots::new(),
        }
    }

    /// Whether repetitions are judged by the WXF rules.
    pub fn judge(&self) -> bool {
        self.judge
    }

    /// UCI `Judge`.
    pub fn set_judge(&mut self, on: bool) {
        self.judge = on;
    }
}

impl Default for XiangqiState {
    fn default() -> XiangqiState {
        XiangqiState::new()
    }
}

/// Whether `m` is irreversible in the judge's sense (a capture or a pawn's advance).
#[inline]
fn irreversible(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || pos.is_pawn_advance(m)
}

impl Game for Position {
    type Move = Move;
    type State = XiangqiState;
    type History = XiangqiHistory;
    type Picker<'p> = XiangqiPicker<'p>;
    type QList = XiangqiQList;
    const RULINGS: bool = true;
    const STALEMATE_LOSES: bool = true;
    const COUNTER_MOVES: bool = true;
    const MOVE_HORIZON: u32 = 40;
    const SCALED_SOFT_LIMIT: bool = true;
    const PRUNE_LOSING_CAPTURES: bool = false;

    #[inline(always)]
    fn state(states: &mut States) -> &mut XiangqiState {
        &mut states.xiangqi
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        Position::key(self)
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline(always)]
    fn first_player_to_move(&self) -> bool {
        self.side_to_move() == Color::Red
    }

    #[inline(always)]
    fn side(&self) -> usize {
        self.side_to_move() as usize
    }

    fn first_legal_move(&self) -> Option<Move> {
        self.legal_moves().as_slice().first().copied()
    }

    #[inline(always)]
    fn rule_draw(&self, _in_check: bool) -> bool {
        false
    }

    #[inline(always)]
    fn is_quiet(&self, m: Move) -> bool {
        !self.is_capture(m)
    }

    #[inline(always)]
    fn gives_check(&self, m: Move) -> bool {
        Position::gives_check(self, m)
    }

    #[inline(always)]
    fn key_after(&self, _key: u64, m: Move) -> Option<u64> {
        Some(Position::key_after(self, m))
    }

    #[inline(always)]
    fn apply(&mut self, m: Move) {
        self.make(m);
    }

    #[inline(always)]
    fn apply_keyed(&mut self, _key: u64, m: Move) -> u64 {
        self.make(m);
        self.key()
    }

    #[inline(always)]
    fn null_move(&self) -> Option<Position> {
        let us = self.side_to_move();
        self.pieces()
            .any(|(_, p)| {
                p.color == us && matches!(p.kind, Kind::Rook | Kind::Horse | Kind::Cannon)
            })
            .then(|| self.with_side_flipped())
    }

    #[inline(always)]
    fn pack(m: Move) -> u16 {
        0x8000 | point(m.from()) as u16 | ((point(m.to()) as u16) << 7)
    }

    #[inline(always)]
    fn decode(&self, p: u16, _in_check: bool) -> Option<Move> {
        if p & 0x8000 == 0 {
            return None;
        }
        let (from, to) = ((p & 127) as u8, ((p >> 7) & 127) as u8);
        let from = Square::new(from % 9, from / 9)?;
        let to = Square::new(to % 9, to / 9)?;
        let own = self.piece_at(from)?.color == self.side_to_move();
        let m = Move::new(from, to);
        (own && self.is_legal(m)).then_some(m)
    }

    #[inline(always)]
    fn picker(&self, tt: Option<Move>, killers: [u16; 2], counter: u16) -> XiangqiPicker<'_> {
        XiangqiPicker::new(self, tt, killers, counter)
    }

    #[inline(always)]
    fn update_history(history: &mut XiangqiHistory, s: usize, m: Move, bonus: i32) {
        update_history_score(&mut history[s][point(m.from())][point(m.to())], bonus);
    }

    #[inline(always)]
    fn qlist() -> XiangqiQList {
        XiangqiQList::new()
    }

    #[inline(always)]
    fn fill_qlist(&self, list: &mut XiangqiQList, in_check: bool) {
        list.fill(self, in_check);
    }

    #[inline(always)]
    fn next_q(list: &mut XiangqiQList) -> Option<Move> {
        list.next_best()
    }

    #[inline(always)]
    fn q_skip(&self, m: Move, stand_pat: i32, alpha: i32) -> bool {
        stand_pat + piece_value(kind_at(self, m.to())) + DELTA_MARGIN <= alpha
            || losing_capture(self, m)
    }

    #[inline(always)]
    fn evaluate(state: &mut XiangqiState, pos: &Position, key: u64) -> i32 {
        state.evals.get_or_evaluate(key, || evaluate(pos))
    }

    #[inline(always)]
    fn history(state: &XiangqiState) -> &XiangqiHistory {
        &state.history
    }

    #[inline(always)]
    fn history_mut(state: &mut XiangqiState) -> &mut XiangqiHistory {
        &mut state.history
    }

    fn record_game(state: &mut XiangqiState, start: &Position, moves: &[Move]) -> Position {
        state.keys.clear();
        state.record = Record::new(start.clone());
        let mut pos = start.clone();
        state.keys.push(pos.key(), false);
        for &m in moves {
            if !pos.is_legal(m) {
                break;
            }
            let irr = irreversible(&pos, m);
            pos.make(m);
            state.keys.push(pos.key(), irr);
            state.record.push_made(m, pos.clone(), irr, pos.in_check());
        }
        state.keys.set_root();
        pos
    }

    #[inline(always)]
    fn push(state: &mut XiangqiState, pos: &Position, m: Move, child: &Position, key: u64) {
        let irr = irreversible(pos, m);
        state.keys.push(key, irr);
        if state.judge {
            state
                .record
                .push_made(m, child.clone(), irr, child.in_check());
        }
    }

    #[inline(always)]
    fn push_null_move(state: &mut XiangqiState, _child: &Position, key: u64) {
        state.keys.push_null_move(key);
        if state.judge {
            state.record.push_null();
        }
    }

    #[inline(always)]
    fn pop(state: &mut XiangqiState) {
        state.keys.pop();
        if state.judge {
            state.record.pop();
        }
    }

    #[inline(always)]
    fn keys(state: &XiangqiState) -> &KeyHistory {
        &state.keys
    }

    #[inline(always)]
    fn repetition<P: Probe<Position>>(
        state: &XiangqiState,
        _probe: &mut P,
        _ply: usize,
        draw: i32,
        beta: i32,
    ) -> Verdict {
        let (earlier, rule) = state.keys.back_trace();
        if !state.judge {
            // Every repetition a draw, by chess's rule (Zarkov's).
            return if rule == Repetition::None {
                Verdict::None
            } else {
                Verdict::Draw
            };
        }
        // Never before a repetition; once before, at the first repetition; twice, the third
        // occurrence.
        match RuleAt::reached(earlier as usize) {
            Some(at) => judge(state, at, draw, beta),
            None => Verdict::None,
        }
    }

    #[inline(always)]
    fn upcoming(_state: &XiangqiState, _pos: &Position, _ply: usize) -> bool {
        false
    }
}

/// The judge's ruling on the last position of the line, which has stood often enough before
/// to be ruled `at`: Algorithm 10's `judge_prune` at the first repetition, the full judgement
/// at the third occurrence.
#[inline(never)]
fn judge(state: &XiangqiState, at: RuleAt, draw: i32, beta: i32) -> Verdict {
    let record = &state.record;
    let outcome = match at {
        RuleAt::FirstRepetition => record.judge_prune(draw, beta),
        RuleAt::ThirdOccurrence => record.judge_ntimes(at),
    };
    let since = || {
        let j = record
            .occurrences(record.ply())
            .nth(at.ntimes() - 1)
            .unwrap_or(0);
        j as i32 - state.keys.root() as i32
    };
    match outcome {
        Outcome::Draw => Verdict::Draw,
        Outcome::Loss => Verdict::Loss { since: since() },
        Outcome::Win => Verdict::Win { since: since() },
        // The keys saw a repetition the record does not (a key collision): search on.
        Outcome::Undecided => Verdict::None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use threefold_xiangqi::Position;
    use threefold_xiangqi::notation::parse_ucci;

    use crate::{Engine, Limits, Request, Score};

    /// The picker hands out every legal move once and nothing else (it tests legality only
    /// when it comes to a move): over the positions of random games from several starts,
    /// in and out of check, with and without a TT move, its moves are the legal moves.
    #[test]
    fn the_picker_hands_out_exactly_the_legal_moves() {
        use crate::game::Game;
        use crate::search::ordering::Picker;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let history: super::ordering::XiangqiHistory =
            [[[0; super::ordering::POINTS]; super::ordering::POINTS]; 2];
        let (mut positions, mut in_check) = (0, 0);
        for fen in [
            threefold_xiangqi::START_FEN,
            "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
            "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
        ] {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..120 {
                    let legal = pos.legal_moves();
                    if legal.as_slice().is_empty() {
                        break;
                    }
                    let mut expected: Vec<_> = legal.as_slice().to_vec();
                    expected.sort_by_key(|m| m.ucci());
                    let tt = (rand(2) == 0).then(|| expected[rand(expected.len())]);
                    let mut picker = pos.picker(tt, [0, 0], 0);
                    let mut got = Vec::new();
                    while let Some(p) = picker.next(&history) {
                        got.push(p.m);
                    }
                    got.sort_by_key(|m| m.ucci());
                    assert_eq!(got, expected, "{}", pos.fen());
                    positions += 1;
                    in_check += usize::from(pos.in_check());
                    let m = expected[rand(expected.len())];
                    pos.make(m);
                }
            }
        }
        assert!(
            positions > 5_000 && in_check > 200,
            "{positions} {in_check}"
        );
    }

    /// The counter move to the previous move comes right after the killers, before quiet
    /// moves with a better history (`Game::COUNTER_MOVES`).
    #[test]
    fn the_picker_tries_the_counter_move_after_the_killers() {
        use crate::game::Game;
        use crate::search::ordering::{HISTORY_MAX, Picker};
        let pos = Position::start();
        let mv = |t: &str| parse_ucci(&pos, t).expect("a legal move");
        let mut history: super::ordering::XiangqiHistory =
            [[[0; super::ordering::POINTS]; super::ordering::POINTS]; 2];
        let best = mv("c3c4");
        history[0][super::ordering::point(best.from())][super::ordering::point(best.to())] =
            HISTORY_MAX;
        let killer = <Position as Game>::pack(mv("h0g2"));
        let counter = <Position as Game>::pack(mv("h2e2"));
        let mut picker = pos.picker(None, [killer, 0], counter);
        let mut quiets = Vec::new();
        while let Some(p) = picker.next(&history) {
            if pos.is_quiet(p.m) {
                quiets.push(p.m.ucci());
            }
        }
        assert_eq!(quiets[..3], ["h0g2", "h2e2", "c3c4"], "{quiets:?}");
    }

    /// The picker flags a capture that may lose material (a rook taking a defended pawn) as
    /// losing, and no other move, so that the search prunes it where it prunes losing
    /// captures.
    #[test]
    fn the_picker_flags_losing_captures() {
        use crate::game::Game;
        use crate::search::ordering::Picker;
        let pos = Position::from_fen("3k5/9/9/9/4p4/4p4/9/9/4R4/4K4 w - - 0 1").expect("a FEN");
        let history: super::ordering::XiangqiHistory =
            [[[0; super::ordering::POINTS]; super::ordering::POINTS]; 2];
        let mut picker = pos.picker(None, [0, 0], 0);
        let mut losing = Vec::new();
        let mut n = 0;
        while let Some(p) = picker.next(&history) {
            n += 1;
            if p.losing {
                losing.push(p.m.ucci());
            }
        }
        assert!(n > 10, "{n}");
        assert_eq!(losing, ["e1e4"]);
    }

    fn search(fen: &str, moves: &str, depth: u32, judge: bool) -> (String, Score) {
        let start = Position::from_fen(fen).expect("a legal FEN");
        let mut pos = start.clone();
        let mut line = Vec::new();
        for t in moves.split_whitespace() {
            let m = parse_ucci(&pos, t).expect("a legal move");
            pos.make(m);
            line.push(m);
        }
        let mut e = Engine::new(4).expect("a 4 MB table");
        e.set_judge(judge);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = e.search(
            &Request::new(&start, &line, &limits, &AtomicBool::new(false)),
            &mut (),
            &mut |_| {},
        );
        (r.best.expect("a move").ucci(), r.score)
    }

    #[test]
    fn a_side_left_without_a_move_has_lost() {
        // Black's king on d9 cannot move (d8 is the rook's, e9 faces Red's king), and it is
        // not in check: stalemate, which loses in xiangqi.
        let start = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("FEN");
        let mut e = Engine::new(4).expect("a 4 MB table");
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let r = e.search(
            &Request::new(&start, &[], &limits, &AtomicBool::new(false)),
            &mut (),
            &mut |_| {},
        );
        assert_eq!((r.best, r.score), (None, Score::Mate(0)));
        // Red to move wins at once: closing rank 8 stalemates, the d-file mates.
        let (best, score) = search("3k5/9/9/9/9/9/9/9/R8/4K3R w - - 0 1", "", 4, true);
        assert!(["a1a8", "a1d1"].contains(&best.as_str()), "{best}");
        assert_eq!(score, Score::Mate(1));
    }

    #[test]
    fn the_search_finds_a_mate_in_two() {
        // Two rooks against a bare king: a1a8 leaves no move; any mate found is at most
        // the first move's distance.
        let (_, score) = search("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1", "", 8, true);
        assert!(matches!(score, Score::Mate(n) if n > 0), "{score:?}");
    }

    /// Figure 4 of Tan and Watkinson Medina (WXF diagram 34): after `h2c2 c7h7 c2h2` Black's
    /// cannon completes the cycle with h7c7 and the judge rules Red's rook's perpetual chase
    /// a loss. That win rests on the game before the root: the root's value must not be
    /// stored, where a search of the same position without that history would read it back
    /// (there h7c7 repeats nothing). Without the history the root's value is stored.
    #[test]
    fn a_value_resting_on_the_game_before_the_root_is_not_stored() {
        let fen = "2baka3/1P7/2c6/8r/9/3n5/9/7R1/4N1R2/3AKA3 w - - 0 1";
        let start = Position::from_fen(fen).expect("a legal FEN");
        let mut pos = start.clone();
        let mut line = Vec::new();
        for t in "h2c2 c7h7 c2h2".split_whitespace() {
            let m = parse_ucci(&pos, t).expect("a legal move");
            pos.make(m);
            line.push(m);
        }
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(4).expect("a 4 MB table");
        let r = e.search(
            &Request::new(&start, &line, &limits, &stop),
            &mut (),
            &mut |_| {},
        );
        assert_eq!(r.best.map(|m| m.ucci()), Some("h7c7".to_string()));
        assert_eq!(r.score, Score::Mate(1));
        assert!(
            e.tt.peek(pos.key(), 0).is_none(),
            "the ruled win was stored"
        );
        // The same position as a game of its own: nothing repeats, the value is stored.
        let mut fresh = Engine::new(4).expect("a 4 MB table");
        let r = fresh.search(
            &Request::new(&pos, &[], &limits, &stop),
            &mut (),
            &mut |_| {},
        );
        assert!(!matches!(r.score, Score::Mate(_)), "{:?}", r.score);
        assert!(fresh.tt.peek(pos.key(), 0).is_some());
    }
}
