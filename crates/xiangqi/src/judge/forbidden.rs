//! Which moves the judge would rule forbidden now: the one answer the trainer's board marks,
//! the drills' `break` question and the review's forbidden-move finding all read.

use super::record::Record;
use super::rule_at::RuleAt;
use super::ruling::Ruling;
use crate::board::{Color, Move};
use crate::notation::wxf;

/// A legal move after which the judge, ruling at the given occurrence, rules its mover lost:
/// it brings a position back and completes the mover's own perpetual check or chase, which
/// outranks the opponent's moves over the repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forbidden {
    pub mv: Move,
    /// The judge's ruling of the game after the move (its loser is the mover).
    pub ruling: Ruling,
}

impl Forbidden {
    /// Why, in one sentence: "R2+1 is forbidden: the position after it stood after ply 4;
    /// Red checks on every move: … — perpetual check." `record` is the game before the move.
    pub fn reason(&self, record: &Record) -> String {
        let pos = record.current();
        let mover = pos.side_to_move();
        let side = match mover {
            Color::Red => &self.ruling.red,
            Color::Black => &self.ruling.black,
        };
        let stood = match self.ruling.earlier.first() {
            Some(k) => format!("the position after it stood after ply {k}"),
            None => "it brings a position back".to_string(),
        };
        let worse = match self.ruling.kind() {
            Some(k) => format!(" ({}: {} loses)", k.name(), mover.title()),
            None => String::new(),
        };
        format!(
            "{} is forbidden{worse}: {stood}; {}",
            wxf(pos, self.mv),
            side.summary()
        )
    }
}

impl Record {
    /// The ruling that makes the legal move `m` forbidden now, if it is: the judge ruling the
    /// game after `m` `at` the given occurrence rules the mover lost. (A move that leaves the
    /// opponent without a legal move is never forbidden: that loss is the opponent's.)
    pub fn forbidden(&self, m: Move, at: RuleAt) -> Option<Ruling> {
        let mover = self.current().side_to_move();
        let mut after = self.clone();
        after.push(m);
        let ruling = after.judge(at);
        (ruling.loser() == Some(mover)).then_some(ruling)
    }

    /// Every legal move of the side to move that [`Record::forbidden`] rules forbidden, in
    /// the order the moves are generated.
    pub fn forbidden_moves(&self, at: RuleAt) -> Vec<Forbidden> {
        self.current()
            .legal_moves()
            .as_slice()
            .iter()
            .filter_map(|&mv| {
                self.forbidden(mv, at)
                    .map(|ruling| Forbidden { mv, ruling })
            })
            .collect()
    }

    /// The legal moves of the side to move split by [`Record::forbidden`]: those that are
    /// not forbidden (the moves that break off one's own perpetual in time), in the order
    /// the moves are generated, and the forbidden ones with their rulings.
    pub fn allowed_and_forbidden(&self, at: RuleAt) -> (Vec<Move>, Vec<Forbidden>) {
        let forbidden = self.forbidden_moves(at);
        let allowed = self
            .current()
            .legal_moves()
            .as_slice()
            .iter()
            .copied()
            .filter(|m| forbidden.iter().all(|f| f.mv != *m))
            .collect();
        (allowed, forbidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::notation::parse_move;

    fn play(fen: &str, moves: &str) -> Record {
        let mut r = Record::new(Position::from_fen(fen).expect("legal"));
        for token in moves.split_whitespace() {
            let m = parse_move(r.current(), token).expect("a legal move");
            r.push(m);
        }
        r
    }

    /// The paper's Figure 1: Red checks on every move (R2+1 K6+1 R2-1 K6-1). After three
    /// plies R2+1 would bring the position after ply 1 back: forbidden at the first
    /// repetition, not yet at the third occurrence, which it reaches four plies later. No
    /// other Red move is forbidden. Broken to see it fail: `forbidden` made to test
    /// `loser() != Some(mover)` (every other move is then listed and R2+1 is not).
    #[test]
    fn the_move_that_completes_a_perpetual_check_is_forbidden() {
        let fen = "5k3/7R1/9/9/9/9/9/9/9/4K4 w";
        let r = play(fen, "R2+1 K6+1 R2-1 K6-1");
        let check = parse_move(r.current(), "R2+1").unwrap();
        let first: Vec<Move> = r
            .forbidden_moves(RuleAt::FirstRepetition)
            .iter()
            .map(|f| f.mv)
            .collect();
        assert_eq!(first, vec![check]);
        assert!(r.forbidden_moves(RuleAt::ThirdOccurrence).is_empty());
        let f = &r.forbidden_moves(RuleAt::FirstRepetition)[0];
        let reason = f.reason(&r);
        assert!(
            reason.starts_with("R2+1 is forbidden (perpetual check: Red loses)"),
            "{reason}"
        );
        assert!(reason.contains("stood after ply 1"), "{reason}");
        let r = play(fen, "R2+1 K6+1 R2-1 K6-1 R2+1 K6+1 R2-1 K6-1");
        assert!(r.forbidden(check, RuleAt::ThirdOccurrence).is_some());
    }
}
