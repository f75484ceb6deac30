//! Move ordering, the part both games share: the butterfly history of quiet moves (its
//! bound and its update), the killer moves' place above it, and what a game's staged picker
//! hands the search ([`Picked`], [`Picker`]). Each game's picker is its own
//! ([`crate::chess::movepick`], [`crate::xiangqi::ordering`]); the tables' shapes differ
//! (chess's 2×64×64, xiangqi's 2×90×90), their arithmetic does not.
//!
//! The history heuristic is Jonathan Schaeffer's ("The History Heuristic and Alpha-Beta
//! Search Enhancements in Practice", IEEE PAMI 11(11), 1989); the bounded update (a bonus
//! that shrinks as the score nears [`HISTORY_MAX`]) is Stockfish's "gravity", as the
//! chessprogramming wiki's page "History Heuristic" describes it
//! (<https://www.chessprogramming.org/History_Heuristic>). Killer moves: the same wiki's
//! "Killer Heuristic" (<https://www.chessprogramming.org/Killer_Heuristic>).

use crate::game::Game;

/// Maximum magnitude of a history score.
pub const HISTORY_MAX: i32 = 16384;

/// Ordering score of a killer move (above any history score, so late-move reductions treat
/// killers as moves with good history).
pub const KILLER_SCORE: i32 = 3 * HISTORY_MAX;

/// Adds `bonus` to the history score `h` (a malus if negative), keeping it within
/// ±[`HISTORY_MAX`]: the nearer the bound, the smaller the step.
#[inline(always)]
pub fn update_history_score(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// A move handed out by a [`Picker`].
#[derive(Clone, Copy, Debug)]
pub struct Picked<M> {
    pub m: M,
    /// Ordering score within its stage: the history score for quiet moves,
    /// [`KILLER_SCORE`] for killers, MVV-LVA for captures (0 for losing ones), `i32::MAX`
    /// for the TT move; for evasions, the score of the one list.
    pub score: i32,
    /// A capture that loses material by static exchange.
    pub losing: bool,
}

/// A history table seen as one run of scores, whatever its shape (chess's 2×64×64, xiangqi's
/// 2×90×90), so that ageing and clearing are written once.
pub trait Scores {
    fn scores_mut(&mut self) -> &mut [i32];
}

impl<const N: usize> Scores for [[[i32; N]; N]; 2] {
    fn scores_mut(&mut self) -> &mut [i32] {
        self.as_flattened_mut().as_flattened_mut()
    }
}

/// The staged move picker of a full-width node: hands out the TT move, the captures, the
/// killers and the quiet moves, generating each stage only when it is reached.
pub trait Picker<G: Game> {
    /// The next move, or `None` when every move has been handed out.
    fn next(&mut self, history: &G::History) -> Option<Picked<G::Move>>;
    /// From now on, no more quiet moves (killers included): late-move pruning.
    fn skip_quiets(&mut self);
}
