//! What a measurement sees of a search: the [`Probe`] the search is generic over.
//!
//! The measurements (the repetition audit of `threefold bench --audit`, Rookie's hit counts,
//! the hash-table pollution of `threefold bench pollution`, the detectors' test against the
//! rules core) live in the `threefold-lab` crate and in the tests, not here. They watch a search
//! through [`Engine::search`](crate::Engine::search), which takes a probe; the
//! search calls the probe's methods at the points below, each call behind `if P::ACTIVE`.
//! [`Probe::ACTIVE`] is a constant and the search is monomorphised per probe type, so for the
//! plain search (whose probe is `()`) every such
//! `if` is `if false` and compiles to nothing: the search a game uses has no instrumentation
//! branch, only the code it needs to play. (Stockfish's search is a template on its node type
//! for the same reason: what a kind of node does not need is not compiled into it.)
//!
//! The points a probe sees:
//! - [`Probe::enter`] / [`Probe::leave`]: the search line, a move (or null move) at a time,
//!   from the root (the game before the root is the caller's: it gave it to the search);
//! - [`Probe::repetition`]: the chosen detector's raw [`Answer`] at a node, with Zarkov's list
//!   of keys of the game and the line;
//! - [`Probe::stored`] / [`Probe::cutoff`]: what the table stores where Muller's shadow score
//!   is computed ([`crate::shadow`]), and the table cutoffs (for the pollution count).
//!   [`Probe::SHADOW`] turns the shadow bookkeeping on in a plain search.
//!
//! A probe only watches: it is given shared references and cannot change what the search
//! does, so a search with any probe visits the same nodes as the plain one.

use crate::game::Game;
use crate::search::keys::{KeyHistory, Repetition};
use crate::shadow::Range;
use crate::tt::Bound;

/// The chosen repetition detector's raw answer at a node ([`crate::chess::repetition::Method`]; chess's detectors are the only ones that answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Zarkov's scan: its verdict (Zarkov counts, so the rule's verdict is what it says).
    Zarkov(Repetition),
    /// Rookie: `None` when the position's counter was zero (no back-trace ran); else a hit,
    /// with the back-trace's earlier occurrences (0, 1, or 2 = two or more) and verdict.
    Rookie(Option<(u32, Repetition)>),
    /// Belle: whether an open entry was found (any repetition it sees is a draw).
    Belle(bool),
    /// Axon: whether every chain is closed (any repetition it sees is a draw).
    Axon(bool),
}

impl Answer {
    /// What the search does with the answer.
    pub fn verdict(self) -> Repetition {
        match self {
            Answer::Zarkov(r) => r,
            Answer::Rookie(hit) => hit.map_or(Repetition::None, |(_, r)| r),
            Answer::Belle(seen) | Answer::Axon(seen) => {
                if seen {
                    Repetition::Draw
                } else {
                    Repetition::None
                }
            }
        }
    }
}

/// A table store at a node where the shadow bookkeeping runs ([`Probe::stored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    /// The node's position key.
    pub key: u64,
    /// Its ply from the root.
    pub ply: usize,
    /// The real score and its bound.
    pub real: (i32, Bound),
    /// What was stored: the real score, the shadow bound, or `(-INF, Lower)` (no value).
    pub stored: (i32, Bound),
    /// The node's shadow score ([`crate::shadow::Range`]).
    pub range: Range,
    /// The table took the entry (its replacement rule may refuse it).
    pub written: bool,
}

/// A watcher of a search of the game `G` (chess by default). Every method does nothing by
/// default; `()` is the probe that watches nothing (the plain search), for every game.
pub trait Probe<G: Game> {
    /// Whether the search calls the probe at all (false: every call is compiled away).
    const ACTIVE: bool = false;
    /// Whether the probe wants [`Probe::stored`] at every node: turns the shadow bookkeeping
    /// on even where the table stores the real score.
    const SHADOW: bool = false;

    /// The search entered `child`: by `by` from the last position entered, or by a null move
    /// (`None`).
    #[inline(always)]
    fn enter(&mut self, _child: &G, _by: Option<&G::Move>) {}

    /// The search left the last position it entered.
    #[inline(always)]
    fn leave(&mut self) {}

    /// The detector answered `answer` for the last position of `keys` (the game and the line).
    #[inline(always)]
    fn repetition(&mut self, _keys: &KeyHistory, _answer: Answer) {}

    /// A node stored `store` (only with [`Probe::SHADOW`], or the shadow score on).
    #[inline(always)]
    fn stored(&mut self, _store: &Store, _keys: &KeyHistory) {}

    /// A table cutoff returned the stored value of `key`.
    #[inline(always)]
    fn cutoff(&mut self, _key: u64, _keys: &KeyHistory) {}
}

/// The plain search's probe: watches nothing, costs nothing.
impl<G: Game> Probe<G> for () {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_answers() {
        use Repetition::{Draw, None as No};
        assert_eq!(Answer::Zarkov(Draw).verdict(), Draw);
        assert_eq!(Answer::Rookie(None).verdict(), No);
        assert_eq!(Answer::Rookie(Some((0, No))).verdict(), No);
        assert_eq!(Answer::Rookie(Some((1, Draw))).verdict(), Draw);
        assert_eq!(Answer::Belle(true).verdict(), Draw);
        assert_eq!(Answer::Axon(false).verdict(), No);
    }
}
