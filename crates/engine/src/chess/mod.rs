//! Chess: what the generic search ([`crate::search`]) plays when it plays chess.
//!
//! - [`Game`] for shakmaty's position (this file): threefold's keys (the arbiter's, from
//!   [`threefold_rules::key`]), the staged picker, the evaluation and the repetition
//!   detectors (a repetition is a draw). Each method is what the chess search did inline
//!   before the search became generic; `threefold bench` counts the same nodes.
//! - [`movepick`]: move ordering (the staged picker, MVV-LVA, static exchange evaluation);
//! - [`moves`]: checks and legality of a move without playing it;
//! - [`eval`]: the evaluation (its weights, fitted to labelled positions, in [`eval::params`]);
//! - [`repetition`]: the four detectors of the chessprogramming wiki's page "Repetitions"
//!   (<https://www.chessprogramming.org/Repetitions>) and the upcoming repetition of
//!   Stockfish's cuckoo tables, chosen by the UCI option `Repetition`; Belle's keeps its
//!   marks in the search's table, through the hooks [`Game::mark`], [`Game::unmark`] and
//!   [`Game::mark_game`] that only chess overrides;
//! - [`book`]: the opening book of the trainer and of UCI's `OwnBook`.
//!
//! The shadow score ([`crate::shadow`]) is the search's, for both games: it reads the key
//! history every game keeps.

pub mod book;
pub mod eval;
pub mod movepick;
pub mod moves;
pub mod repetition;

use shakmaty::{Chess, Move, Position};

use crate::States;
use crate::game::{Game, Verdict};
use crate::probe::Probe;
use crate::search::keys::{KeyHistory, Repetition};
use crate::search::ordering::{Picker, update_history_score};
use crate::search::params::DELTA_MARGIN;
use crate::tt::{Tt, pack_move};
use eval::{EvalCache, see_value};
use movepick::{
    HistoryTable, MovePicker, Picked, ScoredMoves, gen_captures, is_noisy, loses_material, mvv_lva,
    side,
};
use moves::{decode_move, gives_check};
use repetition::Tracker;
use threefold_rules::key::{incremental_key_after, play_keyed, position_key};

/// What the engine keeps of chess between searches.
pub struct ChessState {
    /// The game's keys and the chosen repetition detector's data.
    pub keys: Tracker,
    pub history: Box<HistoryTable>,
    pub evals: EvalCache,
}

impl ChessState {
    /// An empty state: Zarkov's detector, no history.
    pub fn new() -> ChessState {
        ChessState {
            keys: Tracker::new(),
            history: Box::new([[[0; 64]; 64]; 2]),
            evals: EvalCache::new(),
        }
    }
}

impl Default for ChessState {
    fn default() -> ChessState {
        ChessState::new()
    }
}

impl Picker<Chess> for MovePicker<'_> {
    #[inline(always)]
    fn next(&mut self, history: &HistoryTable) -> Option<Picked> {
        MovePicker::next(self, history)
    }

    #[inline(always)]
    fn skip_quiets(&mut self) {
        MovePicker::skip_quiets(self)
    }
}

impl Game for Chess {
    type Move = Move;
    type State = ChessState;
    type History = HistoryTable;
    type Picker<'p> = MovePicker<'p>;
    type QList = ScoredMoves;
    const RULINGS: bool = false;
    const STALEMATE_LOSES: bool = false;
    const COUNTER_MOVES: bool = false;
    const MOVE_HORIZON: u32 = 25;
    const SCALED_SOFT_LIMIT: bool = false;
    const PRUNE_LOSING_CAPTURES: bool = true;

    #[inline(always)]
    fn state(states: &mut States) -> &mut ChessState {
        &mut states.chess
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        position_key(self)
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.is_check()
    }

    #[inline(always)]
    fn first_player_to_move(&self) -> bool {
        self.turn().is_white()
    }

    #[inline(always)]
    fn side(&self) -> usize {
        side(self.turn())
    }

    fn first_legal_move(&self) -> Option<Move> {
        self.legal_moves().first().cloned()
    }

    #[inline(always)]
    fn rule_draw(&self, in_check: bool) -> bool {
        if self.halfmoves() >= 100 && !(in_check && self.legal_moves().is_empty()) {
            return true;
        }
        (self.board().pawns() | self.board().rooks_and_queens()).is_empty()
            && self.is_insufficient_material()
    }

    #[inline(always)]
    fn is_quiet(&self, m: Move) -> bool {
        !is_noisy(&m)
    }

    #[inline(always)]
    fn gives_check(&self, m: Move) -> bool {
        gives_check(self, m)
    }

    #[inline(always)]
    fn key_after(&self, key: u64, m: Move) -> Option<u64> {
        incremental_key_after(self, key, m)
    }

    #[inline(always)]
    fn apply(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    #[inline(always)]
    fn apply_keyed(&mut self, key: u64, m: Move) -> u64 {
        play_keyed(self, key, m)
    }

    #[inline(always)]
    fn null_move(&self) -> Option<Chess> {
        let us = self.us();
        let non_pawn = us & !self.board().pawns() & !self.board().kings();
        if !non_pawn.any() {
            return None;
        }
        self.clone().swap_turn().ok()
    }

    #[inline(always)]
    fn pack(m: Move) -> u16 {
        pack_move(&m)
    }

    #[inline(always)]
    fn decode(&self, p: u16, in_check: bool) -> Option<Move> {
        decode_move(self, p, in_check)
    }

    #[inline(always)]
    fn picker(&self, tt: Option<Move>, killers: [u16; 2], _counter: u16) -> MovePicker<'_> {
        MovePicker::new(self, tt, killers)
    }

    #[inline(always)]
    fn update_history(history: &mut HistoryTable, s: usize, m: Move, bonus: i32) {
        update_history_score(
            &mut history[s][m.from().map_or(0, |f| f as usize)][m.to() as usize],
            bonus,
        );
    }

    #[inline(always)]
    fn qlist() -> ScoredMoves {
        ScoredMoves::new()
    }

    #[inline(always)]
    fn fill_qlist(&self, list: &mut ScoredMoves, in_check: bool) {
        if in_check {
            list.fill(|moves| *moves = self.legal_moves(), mvv_lva);
        } else {
            list.fill(|moves| gen_captures(self, moves), mvv_lva);
        }
    }

    #[inline(always)]
    fn next_q(list: &mut ScoredMoves) -> Option<Move> {
        list.next_best().map(|(m, _)| m)
    }

    #[inline(always)]
    fn q_skip(&self, m: Move, stand_pat: i32, alpha: i32) -> bool {
        (!m.is_promotion() && stand_pat + m.capture().map_or(0, see_value) + DELTA_MARGIN <= alpha)
            || loses_material(self, &m)
    }

    #[inline(always)]
    fn evaluate(state: &mut ChessState, pos: &Chess, key: u64) -> i32 {
        state.evals.evaluate(pos, key)
    }

    #[inline(always)]
    fn history(state: &ChessState) -> &HistoryTable {
        &state.history
    }

    #[inline(always)]
    fn history_mut(state: &mut ChessState) -> &mut HistoryTable {
        &mut state.history
    }

    fn record_game(state: &mut ChessState, start: &Chess, moves: &[Move]) -> Chess {
        state.keys.record_game(start, moves)
    }

    #[inline(always)]
    fn push(state: &mut ChessState, pos: &Chess, m: Move, _: &Chess, key: u64) {
        state.keys.push(pos, &m, key);
    }

    #[inline(always)]
    fn push_null_move(state: &mut ChessState, _: &Chess, key: u64) {
        state.keys.push_null_move(key);
    }

    #[inline(always)]
    fn pop(state: &mut ChessState) {
        state.keys.pop();
    }

    fn mark_game(state: &mut ChessState, tt: &mut Tt) {
        state.keys.mark_game(tt);
    }

    #[inline(always)]
    fn mark(state: &mut ChessState, tt: &mut Tt, key: u64) {
        state.keys.mark(tt, key);
    }

    #[inline(always)]
    fn unmark(state: &mut ChessState, tt: &mut Tt) {
        state.keys.unmark(tt);
    }

    #[inline(always)]
    fn keys(state: &ChessState) -> &KeyHistory {
        state.keys.keys()
    }

    #[inline(always)]
    fn repetition<P: Probe<Chess>>(
        state: &ChessState,
        probe: &mut P,
        _ply: usize,
        _draw: i32,
        _beta: i32,
    ) -> Verdict {
        match state.keys.repetition(probe) {
            Repetition::Draw => Verdict::Draw,
            Repetition::None => Verdict::None,
        }
    }

    #[inline(always)]
    fn upcoming(state: &ChessState, pos: &Chess, ply: usize) -> bool {
        state.keys.upcoming(pos, ply)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::uci::UciMove;

    use super::*;
    use crate::chess::repetition::Method;

    /// Belle keeps its marks in the search's table, reached only through the hooks of
    /// [`Game`] that chess overrides: the game before the root is marked after it is
    /// recorded ([`Game::mark_game`]), a move of the search marks its position
    /// ([`Game::mark`]) and taking it back unmarks it ([`Game::unmark`]).
    #[test]
    fn belle_marks_the_game_and_the_line_through_the_hooks() {
        let mut tt = Tt::new(1).expect("a 1 MB table");
        let mut st = ChessState::new();
        st.keys.set_method(&mut tt, Method::Belle);
        let start = Chess::default();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for u in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let draw = |st: &ChessState| Chess::repetition(st, &mut (), 1, 0, 0);
        let root = Chess::record_game(&mut st, &start, &moves);
        Chess::mark_game(&mut st, &mut tt);
        // The root stood at the start: Belle sees the repetition in the table.
        assert_eq!(draw(&st), Verdict::Draw);
        // Nf3 from the root: its position stood in the game (ply 1).
        let m = moves[0];
        let mut child = root.clone();
        let key = child.apply_keyed(root.key(), m);
        Chess::push(&mut st, &root, m, &child, key);
        Chess::mark(&mut st, &mut tt, key);
        assert_eq!(draw(&st), Verdict::Draw);
        Chess::pop(&mut st);
        Chess::unmark(&mut st, &mut tt);
        // e4 from the root: a new position; taken back, the root's mark answers again.
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&root).unwrap();
        let mut child = root.clone();
        let key = child.apply_keyed(root.key(), e4);
        Chess::push(&mut st, &root, e4, &child, key);
        Chess::mark(&mut st, &mut tt, key);
        assert_eq!(draw(&st), Verdict::None);
        Chess::pop(&mut st);
        Chess::unmark(&mut st, &mut tt);
        assert_eq!(draw(&st), Verdict::Draw);
        // The next game's record takes the old marks back: the start alone is no repetition.
        Chess::record_game(&mut st, &start, &[]);
        Chess::mark_game(&mut st, &mut tt);
        assert_eq!(draw(&st), Verdict::None);
    }
}
