//! A game judged as it is played: the first ruling made stands.

use super::record::Record;
use super::rule_at::RuleAt;
use super::ruling::{Outcome, Ruling};
use crate::board::{Move, Position};

/// A game judged as it is played. A ruling ends the game as a chess ending does (threefold's
/// `Game::play_past_end` keeps the first ending): the first ply at which [`Record::judge`]
/// rules — a repetition ruled, or a side left without a legal move — stands, and moves made
/// after it are played past it, which changes nothing. `threefold xiangqi judge` and
/// `analyze`, the trainer and the drills read a game's ruling from here, so a perpetual
/// chase ruled at ply 14 with `--ntimes 1` is not "undecided" one ply later.
#[derive(Clone, Debug)]
pub struct JudgedGame {
    record: Record,
    rule_at: RuleAt,
    /// The first ruling made (never [`Outcome::Undecided`]).
    standing: Option<Ruling>,
}

impl JudgedGame {
    /// A game from `start`, ruled `at` the first repetition or the third occurrence; a start
    /// position without a legal move is ruled at once.
    pub fn new(start: Position, at: RuleAt) -> JudgedGame {
        let record = Record::new(start);
        let mut game = JudgedGame {
            record,
            rule_at: at,
            standing: None,
        };
        game.rule();
        game
    }

    /// `record`'s game judged ply by ply from its start.
    pub fn of(record: &Record, at: RuleAt) -> JudgedGame {
        let mut game = JudgedGame::new(record.position(0).clone(), at);
        for ply in 1..=record.ply() {
            game.push(record.move_at(ply));
        }
        game
    }

    /// Judges the current position if nothing stands yet.
    fn rule(&mut self) {
        if self.standing.is_none() {
            let r = self.record.judge(self.rule_at);
            if r.outcome != Outcome::Undecided {
                self.standing = Some(r);
            }
        }
    }

    /// Plays a legal move (after a ruling too: it is then played past the ruling).
    pub fn push(&mut self, m: Move) {
        self.record.push(m);
        self.rule();
    }

    /// Takes back the last move; a ruling made at the ply taken back goes with it.
    pub fn pop(&mut self) {
        self.record.pop();
        if self
            .standing
            .as_ref()
            .is_some_and(|r| r.ply > self.record.ply())
        {
            self.standing = None;
        }
    }

    /// The moves played, with their statuses.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The occurrence a ruling needs.
    pub fn rule_at(&self) -> RuleAt {
        self.rule_at
    }

    /// [`RuleAt::ntimes`] of [`JudgedGame::rule_at`]: the earlier occurrences a ruling needs
    /// (1: first repetition, 2: third occurrence).
    pub fn ntimes(&self) -> usize {
        self.rule_at.ntimes()
    }

    /// The ruling that stands, if one was made.
    pub fn standing(&self) -> Option<&Ruling> {
        self.standing.as_ref()
    }

    /// The game's ruling: the one that stands, or else the judge's word on the current
    /// position (undecided).
    pub fn ruling(&self) -> Ruling {
        self.standing
            .clone()
            .unwrap_or_else(|| self.record.judge(self.rule_at))
    }

    /// How many moves were played after the ruling that stands (0 without one).
    pub fn played_past(&self) -> usize {
        self.standing
            .as_ref()
            .map_or(0, |r| self.record.ply() - r.ply)
    }

    /// One sentence when moves went on past the ruling: which plies, and that the ruling
    /// stands.
    pub fn past_note(&self) -> Option<String> {
        let r = self.standing.as_ref()?;
        let n = self.record.ply();
        (n > r.ply).then(|| {
            let plies = if n == r.ply + 1 {
                format!("ply {n} was")
            } else {
                format!("plies {}–{n} were", r.ply + 1)
            };
            format!(
                "The ruling was made after ply {} and stands: {plies} played past it.",
                r.ply
            )
        })
    }
}
