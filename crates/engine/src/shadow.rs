//! H.G. Muller's *shadow score*: repetition draws found in the search no longer pollute the
//! transposition table. After his post on the Winboard forum about hash-table pollution by
//! repetition draws (<http://www.open-aurec.com/wbforum/viewtopic.php?f=4&t=3863>), which
//! gives the algorithm as pseudo-code and calls it "untested!".
//!
//! # The problem
//!
//! A repetition inside the search is scored as a draw ([`crate::search::keys`]: Zarkov's rule).
//! That draw belongs to the *path*: the position repeats one higher up on the current line.
//! Every score backed up from it rests on the path too, yet the table stores it under the
//! position's key alone, and another path that reaches the same position without the
//! repetition reads a draw that is not there (the graph-history interaction).
//!
//! # The shadow score
//!
//! Next to the real score, every node returns a *shadow score*: the score the position would
//! have if repetition draws inside the tree did not count. It is a range `[lower, upper]`
//! (Muller's "contingency minimax"), since some moves were never searched for it, and comes
//! with the ply of the repeated position the real score depends on ([`Range::rep_ply`]):
//!
//! - a position that stood **twice in the game history** already is a draw on every path:
//!   real and shadow score are both the draw ([`crate::search::keys::DrawOrigin::Game`]);
//! - a position that repeats one **inside the tree** (or once in the game and once in the
//!   tree) is a draw for the real score, but for the shadow score the move that led there is
//!   a total uncertainty `(-inf, +inf)`, and the node reports the ply of the earlier
//!   occurrence (the earliest, if there are several). As in the post, the lower end is the
//!   best shadow score found so far at that earlier occurrence, which is on the current line
//!   ([`Frame::tentative`]: Muller keeps it up to date in the table entry "as early as
//!   possible"); a position before the root has none yet (`-inf`).
//! - every other leaf (evaluation, mate, the fifty-move rule, a table cutoff) depends on no
//!   history: its shadow score is its real score.
//!
//! A node backs the ranges up as the post's negamax does ([`Accumulator`]): a child whose
//! dependence is on this node or below (`rep_ply >= ply`) counts with its real score (the
//! repetition is then part of this node's own subtree, the same on every path to it), others
//! with their negated range; the node keeps the *pessimistic* best (the best lower end) and
//! the *optimistic* best (the best upper end), and the draw depth as the minimum `rep_ply`
//! over *all* moves searched (Muller's edit: a move not chosen may still have been rejected
//! only because of the draw). A beta cutoff sets the optimistic best to `+inf`: the moves not
//! searched might be arbitrarily good. When the search returns to the ply the dependence was
//! based on, the dependence is dropped: the history it rested on has become the future.
//!
//! # What is stored
//!
//! The search still returns the real score: the root's move and score are the same rules
//! as before. Only the table changes ([`ShadowScore::On`]): where a node's real score depends
//! on the path above it (`rep_ply < ply`), the shadow score is stored instead of the real
//! one. The table entry holds one bound ([`super::tt`]: 12 bytes, Rival's layout), so
//! [`stored_bound`] picks one end of the shadow range: the lower end on a fail high, the
//! upper end on a fail low; for an exact real score with a range, the end nearer the real
//! score (the tighter one). A range open at both ends stores no value (only the move, as a
//! lower bound of `-inf` that can never cut). Why one bound and not a wider entry: see the
//! section "Shadow score" of `crates/engine/README.md` (a two-bound entry is 16 bytes: a quarter fewer entries in
//! the same memory, measured there).

use super::score::{INF, MAX_PLY};
use super::search::keys::{DrawOrigin, KeyHistory};
use super::tt::Bound;

/// UCI `ShadowScore`: what the table stores for scores that rest on a repetition draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShadowScore {
    /// The real score, as every engine does (the default until games show it costs nothing).
    #[default]
    Off,
    /// Muller's shadow score where it differs from the real one.
    On,
}

/// What a search stores where the real score depends on the path (the shadow bookkeeping
/// runs for all but [`StorePolicy::Real`], unless a probe asks for it: [`Frame::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorePolicy {
    /// The real score (plain search).
    Real,
    /// The shadow score ([`ShadowScore::On`]).
    Shadow,
    /// Nothing at all (a score that cannot be polluted: the reference of `bench pollution`).
    Independent,
}

/// No dependence on the path: the real score is the shadow score.
pub const NO_REP: i32 = i32::MAX;

/// A node's shadow score: `[lower, upper]` and the ply of the repetition its real score
/// depends on ([`NO_REP`]: none; then `lower`/`upper` are not used, the real score is it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lower: i32,
    pub upper: i32,
    pub rep_ply: i32,
}

impl Range {
    /// The shadow score of a node that depends on no history.
    pub const EXACT: Range = Range {
        lower: -INF,
        upper: INF,
        rep_ply: NO_REP,
    };

    /// Whether the real score depends on a position above `ply` (then the shadow differs).
    pub fn depends_above(&self, ply: usize) -> bool {
        self.rep_ply < ply as i32
    }
}

/// Backs the children's shadow scores up at one node: Muller's `best_pes_score`,
/// `best_opt_score` and `draw_depth`.
#[derive(Clone, Copy, Debug)]
pub struct Accumulator {
    ply: i32,
    pes: i32,
    opt: i32,
    draw_ply: i32,
}

impl Accumulator {
    /// A node at `ply` before any move.
    pub fn new(ply: usize) -> Accumulator {
        Accumulator {
            ply: ply as i32,
            pes: -INF,
            opt: -INF,
            draw_ply: NO_REP,
        }
    }

    /// A move searched: `score` is its real score from this node's side (the negated child
    /// value), `child` the child's shadow score (from the child's side).
    #[inline]
    pub fn add(&mut self, score: i32, child: Range) {
        let (lo, hi) = if child.rep_ply >= self.ply {
            // Not based on less deep nodes: unconditional.
            (score, score)
        } else {
            self.draw_ply = self.draw_ply.min(child.rep_ply);
            (-child.upper, -child.lower)
        };
        self.pes = self.pes.max(lo);
        self.opt = self.opt.max(hi);
    }

    /// A score that needs no child (quiescence's stand pat).
    #[inline]
    pub fn add_exact(&mut self, score: i32) {
        self.pes = self.pes.max(score);
        self.opt = self.opt.max(score);
    }

    /// A beta cutoff: the moves left unsearched might be arbitrarily good.
    #[inline]
    pub fn cutoff(&mut self) {
        self.opt = INF;
    }

    /// The best lower end so far (what a repetition of this node may count on).
    pub fn pessimistic(&self) -> i32 {
        self.pes
    }

    /// The node's shadow score.
    pub fn finish(&self) -> Range {
        if self.draw_ply == NO_REP {
            Range::EXACT
        } else {
            Range {
                lower: self.pes,
                upper: self.opt,
                rep_ply: self.draw_ply,
            }
        }
    }
}

/// The value and bound to store for a node whose real score `real` (bound `bound`) depends on
/// the path, given its shadow score `range` (one bound: see the module docs). `None`: nothing
/// is known (store no value).
pub fn stored_bound(real: i32, bound: Bound, range: Range) -> Option<(i32, Bound)> {
    let (lo, hi) = (range.lower, range.upper);
    let lower = (lo > -INF).then_some((lo, Bound::Lower));
    let upper = (hi < INF).then_some((hi, Bound::Upper));
    match bound {
        Bound::Lower => lower,
        Bound::Upper => upper,
        Bound::Exact if lo == hi => Some((lo, Bound::Exact)),
        Bound::Exact => match (lower, upper) {
            (Some(l), Some(u)) => Some(if real - lo <= hi - real { l } else { u }),
            (l, u) => l.or(u),
        },
    }
}

/// The shadow bookkeeping of one search.
#[derive(Debug)]
pub struct Frame {
    /// What the table gets.
    pub policy: StorePolicy,
    /// Whether ranges are computed at all (false: plain search, nothing runs).
    pub track: bool,
    /// `ranges[ply]`: the shadow score the node at `ply` returned.
    pub ranges: Vec<Range>,
    /// `tentative[ply]`: the best lower end found so far at the node at `ply` (Muller's
    /// `HASH_ENTRY->lower_bound`, kept up to date after every move).
    pub tentative: Vec<i32>,
}

impl Frame {
    /// Bookkeeping for `policy`; `watched`: a probe wants the ranges even for a plain
    /// search ([`crate::probe::Probe::SHADOW`]: `bench pollution`).
    pub fn new(policy: StorePolicy, watched: bool) -> Frame {
        Frame {
            policy,
            track: policy != StorePolicy::Real || watched,
            ranges: vec![Range::EXACT; MAX_PLY + 2],
            tentative: vec![-INF; MAX_PLY + 2],
        }
    }

    /// A node at `ply` is entered: no dependence until one is found.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        self.ranges[ply] = Range::EXACT;
        self.tentative[ply] = -INF;
    }

    /// The node at `ply` is a repetition draw (the scan said so): its shadow score.
    pub fn repetition(&mut self, ply: usize, keys: &KeyHistory) {
        self.ranges[ply] = match keys.draw_origin() {
            None | Some(DrawOrigin::Game) => Range::EXACT,
            Some(DrawOrigin::Tree { earliest, nearest }) => Range {
                lower: usize::try_from(nearest).map_or(-INF, |p| self.tentative[p]),
                upper: INF,
                rep_ply: earliest,
            },
        };
    }

    /// What to store at a node at `ply` with real score `best` (bound `bound`) and shadow
    /// score `range`: `Some` value and bound, or `None` for no value (the move only).
    pub fn to_store(
        &self,
        ply: usize,
        best: i32,
        bound: Bound,
        range: Range,
    ) -> Option<(i32, Bound)> {
        if !range.depends_above(ply) {
            return Some((best, bound));
        }
        match self.policy {
            StorePolicy::Real => Some((best, bound)),
            StorePolicy::Shadow => stored_bound(best, bound, range),
            StorePolicy::Independent => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependence_is_dropped_at_the_ply_it_was_based_on() {
        // A child at ply 3 drew by repeating the node at ply 1: [-inf, inf] from ply 1.
        let rep = Range {
            lower: -INF,
            upper: INF,
            rep_ply: 1,
        };
        let mut at2 = Accumulator::new(2);
        at2.add(0, rep);
        at2.add(-50, Range::EXACT);
        let r2 = at2.finish();
        assert_eq!((r2.lower, r2.upper, r2.rep_ply), (-50, INF, 1));
        // Back at ply 1: the repetition is this node's own, the real score counts.
        let mut at1 = Accumulator::new(1);
        at1.add(0, r2);
        at1.add(-20, Range::EXACT);
        assert_eq!(at1.finish(), Range::EXACT);
        // At ply 2 a sibling without dependence narrows nothing above the real score.
        assert!(r2.depends_above(2) && !r2.depends_above(1));
    }

    #[test]
    fn draw_depth_is_the_minimum_over_all_moves_and_cutoffs_open_the_top() {
        let mut a = Accumulator::new(5);
        a.add(
            10,
            Range {
                lower: -30,
                upper: -10,
                rep_ply: 3,
            },
        );
        a.add(
            0,
            Range {
                lower: -INF,
                upper: INF,
                rep_ply: 1,
            },
        );
        a.add(20, Range::EXACT);
        let r = a.finish();
        assert_eq!((r.lower, r.upper, r.rep_ply), (20, INF, 1));
        let mut b = Accumulator::new(5);
        b.add(
            40,
            Range {
                lower: -60,
                upper: -40,
                rep_ply: 2,
            },
        );
        assert_eq!((b.finish().lower, b.finish().upper), (40, 60));
        b.cutoff();
        assert_eq!(b.finish().upper, INF);
    }

    #[test]
    fn one_bound_is_chosen_by_the_real_bound_and_nearness() {
        let r = |lower, upper| Range {
            lower,
            upper,
            rep_ply: 0,
        };
        assert_eq!(
            stored_bound(0, Bound::Lower, r(-40, INF)),
            Some((-40, Bound::Lower))
        );
        assert_eq!(stored_bound(0, Bound::Lower, r(-INF, 5)), None);
        assert_eq!(
            stored_bound(0, Bound::Upper, r(-INF, 70)),
            Some((70, Bound::Upper))
        );
        assert_eq!(
            stored_bound(0, Bound::Exact, r(30, 30)),
            Some((30, Bound::Exact))
        );
        assert_eq!(
            stored_bound(0, Bound::Exact, r(-10, 200)),
            Some((-10, Bound::Lower))
        );
        assert_eq!(
            stored_bound(0, Bound::Exact, r(-200, 10)),
            Some((10, Bound::Upper))
        );
        assert_eq!(stored_bound(0, Bound::Exact, r(-INF, INF)), None);
    }
}
