//! The Euwe stepper: Euwe's Thue–Morse knight sequence ply by ply, with the
//! former German rule's status (never triggered) beside FIDE's (a claim after
//! two blocks, the fivefold ending after four).

use std::time::{Duration, Instant};

use crate::rules::Game;
use crate::rules::euwe::{self, Cube, EuweIndex};

use super::keys::Cmd;

/// How many plies the stepper prepares (32 blocks).
pub const MAX_PLY: usize = 128;

#[derive(Clone, Debug)]
pub struct EuweState {
    pub game: Game,
    pub ply: usize,
    pub autoplay: bool,
    last_step: Option<Instant>,
}

impl Default for EuweState {
    fn default() -> Self {
        EuweState::new()
    }
}

impl EuweState {
    pub fn new() -> EuweState {
        EuweState {
            game: euwe::euwe_game(MAX_PLY),
            ply: 0,
            autoplay: false,
            last_step: None,
        }
    }

    pub fn command(&mut self, cmd: Cmd, delay: &mut Duration) {
        match cmd {
            Cmd::EuweNext => self.ply = (self.ply + 1).min(MAX_PLY),
            Cmd::EuwePrev => self.ply = self.ply.saturating_sub(1),
            Cmd::EuweJumpStart => self.ply = 0,
            Cmd::EuweJumpEnd => self.ply = MAX_PLY,
            Cmd::EuweJumpFivefold => self.ply = self.fivefold_ply().unwrap_or(self.ply),
            Cmd::EuweAutoplay => {
                self.autoplay = !self.autoplay;
                self.last_step = None;
                if self.ply >= MAX_PLY {
                    self.ply = 0;
                }
            }
            Cmd::EuweFaster => *delay = (*delay / 2).max(Duration::from_millis(25)),
            Cmd::EuweSlower => *delay = (*delay * 2).min(Duration::from_secs(4)),
            _ => {}
        }
    }

    pub fn tick(&mut self, now: Instant, delay: Duration) {
        if !self.autoplay {
            return;
        }
        match self.last_step {
            None => self.last_step = Some(now),
            Some(t) if now.saturating_duration_since(t) >= delay => {
                self.last_step = Some(now);
                if self.ply < MAX_PLY {
                    self.ply += 1;
                } else {
                    self.autoplay = false;
                }
            }
            Some(_) => {}
        }
    }

    /// Thue–Morse bits of the blocks begun up to the current ply, and the index of the current block.
    pub fn bits(&self) -> (Vec<u8>, Option<u64>) {
        if self.ply == 0 {
            return (Vec::new(), None);
        }
        let cur = EuweIndex::of_ply(self.ply);
        (
            (0..=cur.block).map(euwe::thue_morse).collect(),
            Some(cur.block),
        )
    }

    /// The former German rule: the first cube of moves up to the current ply, if any.
    pub fn german(&self) -> Option<Cube> {
        (1..=self.ply).find_map(|p| euwe::german_rule_at(&self.game, p))
    }

    /// The first ply at which the position has appeared three times (claim 9.2 b).
    pub fn threefold_ply(&self) -> Option<usize> {
        (0..=MAX_PLY).find(|&p| self.game.occurrences(p) >= 3)
    }

    /// The ply of the fivefold repetition (9.6.1), which ends the game.
    pub fn fivefold_ply(&self) -> Option<usize> {
        self.game.termination().map(|t| t.ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_ends_it_the_old_rule_never_does() {
        let mut e = EuweState::new();
        assert_eq!(e.threefold_ply(), Some(8));
        assert_eq!(e.fivefold_ply(), Some(16));
        e.ply = MAX_PLY;
        assert_eq!(e.german(), None);
        let (bits, cur) = e.bits();
        assert_eq!(&bits[..8], &[0, 1, 1, 0, 1, 0, 0, 1]);
        assert_eq!(cur, Some(31));
    }

    #[test]
    fn stepping_and_autoplay() {
        let mut e = EuweState::new();
        let mut d = Duration::from_millis(100);
        e.command(Cmd::EuweNext, &mut d);
        e.command(Cmd::EuweNext, &mut d);
        e.command(Cmd::EuwePrev, &mut d);
        assert_eq!(e.ply, 1);
        e.command(Cmd::EuweJumpFivefold, &mut d);
        assert_eq!(e.ply, 16);
        e.command(Cmd::EuweAutoplay, &mut d);
        let t0 = Instant::now();
        e.tick(t0, d);
        e.tick(t0 + Duration::from_millis(50), d);
        assert_eq!(e.ply, 16);
        e.tick(t0 + Duration::from_millis(100), d);
        assert_eq!(e.ply, 17);
        e.command(Cmd::EuweFaster, &mut d);
        assert_eq!(d, Duration::from_millis(50));
    }
}
