//! The game clocks of the chess and xiangqi screens: base time and increment, flag fall,
//! and the stop for a claim (FIDE 6.12). One clock for both games, over the side type of
//! each ([`Side`]). A leaf of the trainer.

use std::time::{Duration, Instant};

/// A side of a two-player game, as a clock counts it.
pub trait Side: Copy + Eq {
    /// 0 for the side that moves first (White, Red), 1 for the other.
    fn index(self) -> usize;
    fn other(self) -> Self;
}

impl Side for shakmaty::Color {
    fn index(self) -> usize {
        match self {
            shakmaty::Color::White => 0,
            shakmaty::Color::Black => 1,
        }
    }
    fn other(self) -> Self {
        !self
    }
}

impl Side for crate::xiangqi::Color {
    fn index(self) -> usize {
        match self {
            crate::xiangqi::Color::Red => 0,
            crate::xiangqi::Color::Black => 1,
        }
    }
    fn other(self) -> Self {
        crate::xiangqi::Color::other(self)
    }
}

/// Game clocks: base + increment, flag fall (chess's by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock<Color: Side = shakmaty::Color> {
    pub base: Duration,
    pub inc: Duration,
    /// Time left for White and Black when their clock last stopped.
    pub left: [Duration; 2],
    /// Whose clock runs, since when.
    pub running: Option<(Color, Instant)>,
    /// The clocks are stopped while a claim is made and ruled (FIDE 6.12,
    /// 9.5.1): whose clock starts again when play goes on.
    pub halted: Option<Color>,
}

/// The index of a side in [`Clock::left`].
pub fn idx<C: Side>(c: C) -> usize {
    c.index()
}

impl<Color: Side> Clock<Color> {
    pub fn new(base: Duration, inc: Duration) -> Clock<Color> {
        Clock {
            base,
            inc,
            left: [base, base],
            running: None,
            halted: None,
        }
    }
    pub fn remaining(&self, c: Color, now: Instant) -> Duration {
        let left = self.left[idx(c)];
        match self.running {
            Some((r, since)) if r == c => left.saturating_sub(now.saturating_duration_since(since)),
            _ => left,
        }
    }
    /// `c` completed a move: stop its clock, add the increment, start the
    /// other (or, with the clocks halted for a claim, let the other's start
    /// when play goes on).
    pub fn moved(&mut self, c: Color, now: Instant) {
        let left = self.remaining(c, now);
        self.left[idx(c)] = left.saturating_add(self.inc);
        if self.halted.is_some() {
            self.halted = Some(c.other());
        } else {
            self.running = Some((c.other(), now));
        }
    }
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left[idx(c)] = self.remaining(c, now);
        }
        self.running = None;
        self.halted = None;
    }
    /// Stop the running clock for a claim (FIDE 6.12): it restarts on [`Clock::resume`].
    pub fn halt(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.stop(now);
            self.halted = Some(c);
        }
    }
    /// Play goes on after a claim: the halted clock runs again.
    pub fn resume(&mut self, now: Instant) {
        if let Some(c) = self.halted.take() {
            self.running = Some((c, now));
        }
    }
}
