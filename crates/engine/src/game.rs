//! The games the search plays: what one alpha-beta search needs of a game, as a trait.
//!
//! The search ([`crate::search`]) is written once, generic over [`Game`], and monomorphised:
//! chess ([`shakmaty::Chess`], in [`crate::chess`]) and xiangqi ([`threefold_xiangqi::Position`],
//! in [`crate::xiangqi`]) each get their own compiled copy of the one negamax, the one quiescence search,
//! the one table, the one time manager and the one UCI loop, with the game's code inlined into
//! it. Nothing of the search is written twice; what differs between the games is here:
//!
//! - the position, its moves and keys: making a move, the key after it (early, for the
//!   table's prefetch), a null move, whether a move gives check, packing a move into the
//!   table's 16 bits and back;
//! - move ordering: the staged move picker of a full-width node and the quiescence search's
//!   list (what is a capture, what MVV-LVA and static exchange say);
//! - the evaluation and its cache;
//! - the game's record and its repetitions: chess's detectors (a repetition is a draw) or
//!   xiangqi's WXF judge (a repetition is a ruling: a draw, or a loss for the side that
//!   perpetually checks or chases);
//! - the end of a game without moves: checkmate loses in both games, stalemate draws in chess
//!   and loses in xiangqi; the fifty-move rule and insufficient material are chess's.
//!
//! What both games share lives beside the search, not here: the key history
//! ([`crate::search::keys`]) and the history and killer tables' arithmetic
//! ([`crate::search::ordering`]). The per-game state the engine keeps between searches (the
//! record of the game, the history table, the evaluation cache, chess's detectors) is the
//! game's [`Game::State`], held by [`crate::Engine`] for each game in [`crate::States`]. The
//! trait knows no game's detector: the one that keeps its marks in the search's table
//! (chess's Belle) is reached through the default-empty hooks [`Game::mark`],
//! [`Game::unmark`] and [`Game::mark_game`], which only chess overrides.

use std::fmt;

use crate::States;
use crate::probe::Probe;
use crate::search::keys::KeyHistory;
use crate::search::ordering::{Picker, Scores};
use crate::tt::Tt;

/// What a repetition rule makes of the last position of the line ([`Game::repetition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No repetition the rule counts: search on.
    None,
    /// A draw.
    Draw,
    /// The side to move has lost by the rules (xiangqi: it perpetually checked or chased).
    /// `since`: the ply (from the root; negative: in the game before it) of the earlier
    /// occurrence the ruling counts from. The ruling rests on the path from there: a value
    /// that depends on it is not stored in the table where another path could read it back.
    Loss { since: i32 },
    /// The side to move has won by the rules (its opponent perpetually checked or chased).
    Win { since: i32 },
}

/// A game the search can play: the position type itself (`shakmaty::Chess`,
/// `threefold_xiangqi::Position`), with its moves, state and rules. Every method is small and
/// inlined into the search.
pub trait Game: Clone + Sized + 'static {
    /// A move of the game.
    type Move: Copy + PartialEq + fmt::Debug + Send + 'static;
    /// What the engine keeps of this game between searches: the record of the game with the
    /// search's line (repetitions), the history table, caches.
    type State: Send;
    /// The butterfly history table of quiet moves.
    type History: Scores;
    /// The staged picker of a full-width node.
    type Picker<'p>: Picker<Self>;
    /// The quiescence search's list of moves.
    type QList;
    /// Whether a repetition can be a win or a loss ([`Verdict::Win`], [`Verdict::Loss`]):
    /// then the search tracks which values rest on a ruling and keeps them out of the table.
    /// False for chess: no code for it is compiled into the chess search.
    const RULINGS: bool;
    /// A side without a legal move loses even when not in check (xiangqi); else stalemate
    /// draws (chess).
    const STALEMATE_LOSES: bool;
    /// Whether the search keeps a counter move for each move (the quiet move that last cut
    /// off after it) and the picker tries it after the killers: xiangqi.
    const COUNTER_MOVES: bool;
    /// The number of moves a clock without `movestogo` is split over ([`crate::time::budget`]):
    /// 25 in chess; 40 in xiangqi, whose games are longer (at 10+0.1 a horizon of 25 spent
    /// half the clock in the first 20 moves and left 0.1 s a move from the 30th on; 40 gained
    /// +38 ± 25 Elo over 400 games at 2+0.02, `crates/engine/README.md`).
    const MOVE_HORIZON: u32;
    /// Whether the soft deadline stretches or shrinks with the root's best move and score
    /// ([`crate::time::soft_scale`]): xiangqi. Chess keeps the fixed soft deadline.
    const SCALED_SOFT_LIMIT: bool;
    /// Whether captures the picker flags as losing ([`crate::search::ordering::Picked`]'s
    /// `losing`) are skipped at shallow non-PV nodes: chess. Xiangqi's test of a losing
    /// capture is cruder (no exchange is played out, see `xiangqi::ordering::losing_capture`),
    /// and pruning by it lost in a match (−56 ± 26 Elo over 400 games at 1+0.02,
    /// `docs/xiangqi-strength/README.md`, "prune-losing").
    const PRUNE_LOSING_CAPTURES: bool;

    /// The game's state in the engine's [`States`].
    fn state(states: &mut States) -> &mut Self::State;

    // The position.

    /// The position's key (the table's and the repetition record's).
    fn key(&self) -> u64;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Whether the first player (White, Red) is to move: its clock is `wtime`.
    fn first_player_to_move(&self) -> bool;
    /// 0 for the first player, 1 for the second: the history table's index.
    fn side(&self) -> usize;
    /// The first legal move, if any (the answer of a search stopped at once).
    fn first_legal_move(&self) -> Option<Self::Move>;
    /// A draw by a rule other than repetition at a node below the root (chess: the fifty-move
    /// rule, insufficient material).
    fn rule_draw(&self, in_check: bool) -> bool;

    // Moves.

    /// Whether `m` (legal here) is quiet: no capture, no promotion.
    fn is_quiet(&self, m: Self::Move) -> bool;
    /// Whether the legal move `m` gives check, known before it is made.
    fn gives_check(&self, m: Self::Move) -> bool;
    /// The key after `m`, when it can be had without making the move (for the prefetch).
    fn key_after(&self, key: u64, m: Self::Move) -> Option<u64>;
    /// Plays the legal move `m` on this position (a copy the search made of the parent: the
    /// child is made in place, never returned by value, which cost chess 1% in copies).
    fn apply(&mut self, m: Self::Move);
    /// [`Game::apply`], returning the new key computed from `key`.
    fn apply_keyed(&mut self, key: u64, m: Self::Move) -> u64;
    /// The position after a null move, when the null-move search may try one (the side to
    /// move has pieces that make zugzwang unlikely).
    fn null_move(&self) -> Option<Self>;
    /// A move in the table's 16 bits (never 0).
    fn pack(m: Self::Move) -> u16;
    /// The packed move `p` if it is legal here (`in_check`: the side to move is in check).
    fn decode(&self, p: u16, in_check: bool) -> Option<Self::Move>;
    /// The picker of a full-width node, with the (legal) TT move, the ply's killers and the
    /// counter move to the move that led here (packed, 0: none; always 0 unless
    /// [`Game::COUNTER_MOVES`]).
    fn picker(&self, tt: Option<Self::Move>, killers: [u16; 2], counter: u16) -> Self::Picker<'_>;
    /// Adds `bonus` to the history of the quiet move `m` of side `s` (a malus if negative).
    fn update_history(history: &mut Self::History, s: usize, m: Self::Move, bonus: i32);

    // The quiescence search.

    /// An empty quiescence list.
    fn qlist() -> Self::QList;
    /// Fills `list` with every legal move (in check), or with the captures worth searching
    /// in the quiescence search, ordered by MVV-LVA.
    fn fill_qlist(&self, list: &mut Self::QList, in_check: bool);
    /// The next move of the list, best first.
    fn next_q(list: &mut Self::QList) -> Option<Self::Move>;
    /// Whether the quiescence search skips the capture `m` (not in check): delta pruning
    /// against `alpha` from `stand_pat`, or a capture that loses material.
    fn q_skip(&self, m: Self::Move, stand_pat: i32, alpha: i32) -> bool;

    // The state: evaluation, history, the record of the game and its repetitions.

    /// The static evaluation for the side to move.
    fn evaluate(state: &mut Self::State, pos: &Self, key: u64) -> i32;
    /// The history table.
    fn history(state: &Self::State) -> &Self::History;
    /// The history table, to update or age.
    fn history_mut(state: &mut Self::State) -> &mut Self::History;
    /// Halves every history score (at the start of a search).
    fn age_history(state: &mut Self::State) {
        for h in Self::history_mut(state).scores_mut() {
            *h /= 2;
        }
    }
    /// Clears the history table (a new game).
    fn clear_history(state: &mut Self::State) {
        Self::history_mut(state).scores_mut().fill(0);
    }
    /// Records the game `start` + `moves` up to the first illegal move; its last position is
    /// the root of the search and is returned.
    fn record_game(state: &mut Self::State, start: &Self, moves: &[Self::Move]) -> Self;
    /// Enters `child` (key `key`), reached by the legal move `m` from `pos`.
    fn push(state: &mut Self::State, pos: &Self, m: Self::Move, child: &Self, key: u64);
    /// Enters `child` (key `key`), reached by a null move.
    fn push_null_move(state: &mut Self::State, child: &Self, key: u64);
    /// Leaves the last position entered.
    fn pop(state: &mut Self::State);
    /// After [`Game::record_game`]: marks the recorded game in the search's table, for a
    /// repetition detector that keeps its data there (chess's Belle). None by default.
    #[inline(always)]
    fn mark_game(_state: &mut Self::State, _tt: &mut Tt) {}
    /// After [`Game::push`] and [`Game::push_null_move`]: marks the position `key` in the
    /// table, as [`Game::mark_game`]. None by default.
    #[inline(always)]
    fn mark(_state: &mut Self::State, _tt: &mut Tt, _key: u64) {}
    /// After [`Game::pop`]: takes the last mark back. None by default.
    #[inline(always)]
    fn unmark(_state: &mut Self::State, _tt: &mut Tt) {}
    /// Zarkov's list of keys of the game and the line (what the probes and the shadow score
    /// read).
    fn keys(state: &Self::State) -> &KeyHistory;
    /// The repetition rule's verdict on the last position entered, `ply` plies below the
    /// root, with the node's draw score and beta (the judge's `judge_prune` needs them);
    /// `probe` is told what the detector answered.
    fn repetition<P: Probe<Self>>(
        state: &Self::State,
        probe: &mut P,
        ply: usize,
        draw: i32,
        beta: i32,
    ) -> Verdict;
    /// Stockfish's upcoming-repetition test: the side to move can move back to a position
    /// the search scores a draw (chess only).
    fn upcoming(state: &Self::State, pos: &Self, ply: usize) -> bool;
}
