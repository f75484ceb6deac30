//! When a repetition is ruled: the one setting every part of threefold that rules a xiangqi
//! game reads (the judge and the arbiter, the engine, the drills, the review, the benchmarks,
//! the command line and the trainer's screen and configuration file).
//!
//! Tan and Watkinson Medina's judge (`judge_ntimes`) takes `ntimes`, how many times the final
//! position must have stood *before* a ruling is made. Two values mean something under the
//! WXF rules, and they are the two [`RuleAt`]s:
//!
//! - `ntimes` 1, [`RuleAt::FirstRepetition`]: the position stands for the second time. The
//!   paper's engine rules here: a cycle one side can play once it can play again, so the
//!   side a ruling condemns must leave the cycle now.
//! - `ntimes` 2, [`RuleAt::ThirdOccurrence`]: the position stands for the third time. Arbiters
//!   and Fairy-Stockfish rule here; it is the default everywhere.
//!
//! Numbers are written two ways in threefold, and both are read here: the command line and
//! the puzzle files count earlier occurrences (`--ntimes 1|2`, `ntimes = 1|2`:
//! [`RuleAt::from_ntimes`]); the trainer's configuration file counts occurrences
//! (`xiangqi_rule_at = 2|3`: [`RuleAt::from_occurrence`]). The names (`first-repetition`,
//! `third-occurrence`) are read by [`str::parse`] and written by [`Display`](std::fmt::Display).

use std::fmt;
use std::str::FromStr;

/// At which occurrence of a position a repetition is ruled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleAt {
    /// At the first repetition: the position has stood once before (`ntimes` 1), as the
    /// paper's engine rules.
    FirstRepetition,
    /// At the third occurrence: the position has stood twice before (`ntimes` 2), as arbiters
    /// and Fairy-Stockfish rule. The default.
    #[default]
    ThirdOccurrence,
}

/// A text that names no [`RuleAt`] (the text as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseRuleAtError {
    /// Not a rule's name ([`str::parse`]).
    NotAName(String),
    /// Not an `ntimes` (1 or 2) nor a name ([`RuleAt::parse_ntimes`]).
    NotNtimes(String),
}

impl fmt::Display for ParseRuleAtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRuleAtError::NotAName(s) => write!(
                f,
                "'{s}' names no occurrence to rule at: first-repetition or third-occurrence"
            ),
            ParseRuleAtError::NotNtimes(s) => write!(
                f,
                "'{s}' is not 1 (first-repetition: rule at the first repetition) or 2 \
                 (third-occurrence: rule at the third occurrence)"
            ),
        }
    }
}

impl std::error::Error for ParseRuleAtError {}

impl RuleAt {
    /// Both, the first repetition first.
    pub const ALL: [RuleAt; 2] = [RuleAt::FirstRepetition, RuleAt::ThirdOccurrence];

    /// The paper's `ntimes`: how many times the position must have stood before (1 or 2).
    pub fn ntimes(self) -> usize {
        match self {
            RuleAt::FirstRepetition => 1,
            RuleAt::ThirdOccurrence => 2,
        }
    }

    /// How many times the position must have stood, this time included (2 or 3): the
    /// configuration file's number.
    pub fn occurrence(self) -> u8 {
        self.ntimes() as u8 + 1
    }

    /// The rule whose `ntimes` is `n` (1 or 2; anything else is none).
    pub fn from_ntimes(n: usize) -> Option<RuleAt> {
        RuleAt::ALL.into_iter().find(|r| r.ntimes() == n)
    }

    /// The rule an `ntimes` names as the command line and puzzle files write it: `1` or `2`,
    /// or the rule's name.
    pub fn parse_ntimes(s: &str) -> Result<RuleAt, ParseRuleAtError> {
        s.trim()
            .parse::<usize>()
            .ok()
            .and_then(RuleAt::from_ntimes)
            .or_else(|| s.parse().ok())
            .ok_or_else(|| ParseRuleAtError::NotNtimes(s.to_string()))
    }

    /// The rule whose occurrence is `n` (2 or 3; anything else is none).
    pub fn from_occurrence(n: u8) -> Option<RuleAt> {
        RuleAt::ALL.into_iter().find(|r| r.occurrence() == n)
    }

    /// The latest rule a position that stood `times_before` times before has reached: none
    /// before a repetition, the first repetition once, the third occurrence from twice on.
    pub fn reached(times_before: usize) -> Option<RuleAt> {
        match times_before {
            0 => None,
            1 => Some(RuleAt::FirstRepetition),
            _ => Some(RuleAt::ThirdOccurrence),
        }
    }

    /// The other rule (the trainer's toggle).
    pub fn other(self) -> RuleAt {
        match self {
            RuleAt::FirstRepetition => RuleAt::ThirdOccurrence,
            RuleAt::ThirdOccurrence => RuleAt::FirstRepetition,
        }
    }

    /// The name written and read: `first-repetition`, `third-occurrence`.
    pub fn name(self) -> &'static str {
        match self {
            RuleAt::FirstRepetition => "first-repetition",
            RuleAt::ThirdOccurrence => "third-occurrence",
        }
    }

    /// In a sentence: "the first repetition", "the third occurrence".
    pub fn words(self) -> &'static str {
        match self {
            RuleAt::FirstRepetition => "the first repetition",
            RuleAt::ThirdOccurrence => "the third occurrence",
        }
    }
}

impl fmt::Display for RuleAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleAt {
    type Err = ParseRuleAtError;

    /// A name, in any case, with `-`, `_` or a space between the words.
    fn from_str(s: &str) -> Result<RuleAt, ParseRuleAtError> {
        let key: String = s
            .trim()
            .chars()
            .map(|c| match c {
                '_' | ' ' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        RuleAt::ALL
            .into_iter()
            .find(|r| r.name() == key)
            .ok_or_else(|| ParseRuleAtError::NotAName(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rule's name, `ntimes` and occurrence read back as the same rule; other numbers and
    /// words are none. Broken to see it fail: `occurrence` as `self.ntimes() as u8` (2|3 read
    /// as the wrong rule).
    #[test]
    fn every_form_round_trips() {
        for r in RuleAt::ALL {
            assert_eq!(r.name().parse::<RuleAt>(), Ok(r));
            assert_eq!(r.to_string().parse::<RuleAt>(), Ok(r));
            assert_eq!(RuleAt::from_ntimes(r.ntimes()), Some(r));
            assert_eq!(RuleAt::from_occurrence(r.occurrence()), Some(r));
            assert_eq!(RuleAt::reached(r.ntimes()), Some(r));
            assert_eq!(r.other().other(), r);
            assert_ne!(r.other(), r);
        }
        assert_eq!(RuleAt::from_occurrence(2), Some(RuleAt::FirstRepetition));
        assert_eq!(RuleAt::from_occurrence(3), Some(RuleAt::ThirdOccurrence));
        assert_eq!(RuleAt::from_ntimes(1), Some(RuleAt::FirstRepetition));
        assert_eq!(RuleAt::from_ntimes(2), Some(RuleAt::ThirdOccurrence));
        assert_eq!(
            "Third_Occurrence".parse::<RuleAt>(),
            Ok(RuleAt::ThirdOccurrence)
        );
        assert_eq!(RuleAt::from_ntimes(3), None);
        assert_eq!(RuleAt::from_occurrence(1), None);
        assert_eq!(RuleAt::reached(0), None);
        assert_eq!(RuleAt::reached(5), Some(RuleAt::ThirdOccurrence));
        assert!("second".parse::<RuleAt>().is_err());
        assert!("2".parse::<RuleAt>().is_err());
        assert_eq!(RuleAt::parse_ntimes("1"), Ok(RuleAt::FirstRepetition));
        assert_eq!(RuleAt::parse_ntimes("2"), Ok(RuleAt::ThirdOccurrence));
        assert_eq!(
            RuleAt::parse_ntimes("first-repetition"),
            Ok(RuleAt::FirstRepetition)
        );
        assert_eq!(
            RuleAt::parse_ntimes("3"),
            Err(ParseRuleAtError::NotNtimes("3".into()))
        );
        assert_eq!(RuleAt::default(), RuleAt::ThirdOccurrence);
    }
}
