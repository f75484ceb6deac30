//! Xiangqi ruling drills: puzzle files with `game = "xiangqi"`, whose every answer is the
//! WXF repetition judge's ([`threefold_xiangqi::judge`], after Tan and Watkinson Medina,
//! "Complete Implementation of WXF Chinese Chess Rules", 2024,
//! <https://arxiv.org/abs/2412.17334>).
//!
//! In xiangqi a repetition is not a claim but a ruling: perpetual check loses, a perpetual
//! chase of one unprotected piece loses, equal violations draw, anything else draws. The
//! four questions drill the parts of that ruling:
//!
//! | `ask`       | the question                                          | extra keys       | `answer` |
//! |-------------|-------------------------------------------------------|------------------|----------|
//! | `ruling`    | the moves complete a repetition: how is it ruled?     | `ntimes` (opt.)  | `"red-loses"`, `"black-loses"`, `"draw"` |
//! | `chase`     | is move `at` (1-based) a chase, and of which piece?   | `at = 5`         | `"none"`, `"check"`, or `["rook b7"]` (the chased pieces: kind and point after the move) |
//! | `protected` | the attack `attack` (a capture, UCCI): is its victim protected as the judge counts protection? | `attack = "h3h7"` | `"yes"` / `"no"` |
//! | `break`     | the side to move: which moves is it not ruled lost for? | `ntimes` (opt.) | `["R2=1", "K5=4"]` (all of them, WXF or UCCI), or `[]` |
//!
//! - `ruling`: the judge ([`JudgedGame`]) rules at the last move and not before: the
//!   final position has stood `ntimes` times before (2, the default: at its third
//!   occurrence, as WXF arbiters and Fairy-Stockfish rule; 1: at the first repetition, as the
//!   paper's engine does). The answer names the loser, or a draw.
//! - `chase`: the status the judge gives the move ([`Record::move_note`]): a check, a chase
//!   of the pieces it lists (the threats the reply answered), or idle ("none"). The move
//!   must be reversible (a capture or pawn advance is a cancel, never judged) and have a
//!   reply among the moves (a move's status depends on the reply).
//! - `protected`: the capture is made by either side in the final position (by the side that
//!   just moved, it is asked as the judge asks after a move, with the side to move flipped);
//!   the answer is [`is_protected`]'s: a defender that can legally recapture along the line
//!   as it stands before the capture, unless the victim is worth more than the attacker.
//! - `break`: for each legal move of the side to move, the judge rules the game after it
//!   ([`JudgedGame`], at the puzzle's `ntimes`); the answer is every move after which the
//!   mover is not ruled lost — not by a repetition it completes, nor by leaving the opponent
//!   nothing (the only loss a ruling can hand the mover at once is a repetition). The game
//!   must not be over or ruled already.
//!
//! Moves (`moves`, `answer` of `break`) are WXF (`C2=5`, `H2+3`, tandem `R+=3`) or UCCI
//! (`h2e2`), read against the position they are played in; move numbers ("12.") are
//! skipped. `start` is a xiangqi FEN or "standard".
//!
//! # For the xiangqi drill screen
//!
//! ```
//! use threefold_drills::load_builtin;
//! use threefold_drills::xiangqi::{judge_answer, parse_answer, solve};
//!
//! let coll = load_builtin();
//! let theme = &coll.xiangqi[0]; // the chess screen's `coll.themes` never holds these
//! let p = &theme.puzzles[0];
//! let record = p.record(); // the start position, the moves, each move's status
//! println!("{}: {}", theme.name, p.prompt());
//! let sol = solve(p).expect("the judge answers every built-in puzzle");
//! let given = parse_answer(p, &sol.answer.code()).expect("the answer's own code reads back");
//! let fb = judge_answer(p, &given);
//! assert!(fb.correct);
//! println!("{}\n{}", fb.expected, fb.explanation);
//! # let _ = record;
//! ```

pub mod from_games;
mod load;
mod solve;

use std::fmt;
use std::path::PathBuf;

use threefold_xiangqi::judge::{JudgedGame, Record};
use threefold_xiangqi::notation::wxf;
use threefold_xiangqi::{Color, Kind, Move, Position, Square};

pub use load::load_str;
pub(crate) use load::move_tokens;
pub use solve::{
    AnswerError, Mismatch, Protection, Solution, SolveError, check, judge_answer, parse_answer,
    solve,
};

use super::types::Origin;

#[cfg(doc)]
use threefold_xiangqi::judge::is_protected;

/// Which occurrence of the final position a ruling is made at: the judge's own type (a
/// puzzle's `ntimes`, read by [`RuleAt::from_ntimes`]).
pub use threefold_xiangqi::judge::RuleAt;

/// Who a repetition ruling goes against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// This side loses (the other wins).
    Loses(Color),
    Draw,
}

impl Verdict {
    /// Read "red-loses" / "black-wins" (the same), "black-loses" / "red-wins", "draw";
    /// spaces for hyphens and any case.
    pub fn parse(s: &str) -> Option<Verdict> {
        let t = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        match t.as_str() {
            "red-loses" | "black-wins" => Some(Verdict::Loses(Color::Red)),
            "black-loses" | "red-wins" => Some(Verdict::Loses(Color::Black)),
            "draw" => Some(Verdict::Draw),
            _ => None,
        }
    }

    /// The code puzzle files write.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Loses(Color::Red) => "red-loses",
            Verdict::Loses(Color::Black) => "black-loses",
            Verdict::Draw => "draw",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Loses(c) => write!(f, "{} loses, {} wins", c.title(), c.other().title()),
            Verdict::Draw => f.write_str("a draw"),
        }
    }
}

/// A move's status as a `chase` question asks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChaseStatus {
    /// Idle: no chase, no check.
    None,
    /// The move gives check (a check is never also a chase).
    Check,
    /// A chase of these pieces (kind, point after the move), sorted by point, each once,
    /// never empty.
    Chases(Vec<(Kind, Square)>),
}

impl ChaseStatus {
    /// A chase of `pieces` (sorted, duplicates dropped); no pieces is [`ChaseStatus::None`].
    pub fn chases(mut pieces: Vec<(Kind, Square)>) -> ChaseStatus {
        pieces.sort_by_key(|&(k, s)| (s.index(), k));
        pieces.dedup();
        if pieces.is_empty() {
            ChaseStatus::None
        } else {
            ChaseStatus::Chases(pieces)
        }
    }
}

/// One piece as puzzle files name it: kind and point, "rook b7".
pub fn piece_code(kind: Kind, sq: Square) -> String {
    format!("{} {sq}", kind.name())
}

/// Read "rook b7" (also "R b7", "rook@b7", "b7 rook").
pub fn parse_piece(s: &str) -> Option<(Kind, Square)> {
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == '@')
        .filter(|w| !w.is_empty())
        .collect();
    let [a, b] = words[..] else { return None };
    let kind = |w: &str| {
        Kind::ALL.into_iter().find(|k| {
            k.name().eq_ignore_ascii_case(w)
                || (w.len() == 1 && w.eq_ignore_ascii_case(&k.wxf_letter().to_string()))
        })
    };
    match (kind(a), b.parse::<Square>(), kind(b), a.parse::<Square>()) {
        (Some(k), Ok(sq), _, _) | (_, _, Some(k), Ok(sq)) => Some((k, sq)),
        _ => None,
    }
}

/// An answer to a xiangqi puzzle: the file's, the judge's or the player's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum XiangqiAnswer {
    /// For `ruling`.
    Ruling(Verdict),
    /// For `chase`.
    Chase(ChaseStatus),
    /// For `protected`.
    Protected(bool),
    /// For `break`: the moves, sorted by UCCI, each once.
    Moves(Vec<Move>),
}

impl XiangqiAnswer {
    /// A set of moves as an answer: sorted by UCCI, duplicates dropped.
    pub fn moves(mut moves: Vec<Move>) -> XiangqiAnswer {
        moves.sort_by_key(|m| m.ucci());
        moves.dedup();
        XiangqiAnswer::Moves(moves)
    }

    /// The answer as a puzzle file or a player writes it (moves in UCCI).
    pub fn code(&self) -> String {
        match self {
            XiangqiAnswer::Ruling(v) => v.code().to_string(),
            XiangqiAnswer::Chase(ChaseStatus::None) => "none".into(),
            XiangqiAnswer::Chase(ChaseStatus::Check) => "check".into(),
            XiangqiAnswer::Chase(ChaseStatus::Chases(v)) => v
                .iter()
                .map(|&(k, s)| piece_code(k, s))
                .collect::<Vec<_>>()
                .join(", "),
            XiangqiAnswer::Protected(b) => if *b { "yes" } else { "no" }.into(),
            XiangqiAnswer::Moves(ms) if ms.is_empty() => "none".into(),
            XiangqiAnswer::Moves(ms) => ms.iter().map(|m| m.ucci()).collect::<Vec<_>>().join(" "),
        }
    }

    /// The answer in words, moves in WXF as played in `pos` (the puzzle's final position).
    pub fn describe(&self, pos: &Position) -> String {
        match self {
            XiangqiAnswer::Ruling(v) => v.to_string(),
            XiangqiAnswer::Chase(ChaseStatus::None) => "no chase (idle)".into(),
            XiangqiAnswer::Chase(ChaseStatus::Check) => "a check, not a chase".into(),
            XiangqiAnswer::Chase(ChaseStatus::Chases(v)) => format!(
                "a chase of the {}",
                v.iter()
                    .map(|&(k, s)| piece_code(k, s))
                    .collect::<Vec<_>>()
                    .join(" and the ")
            ),
            XiangqiAnswer::Protected(true) => "yes (protected)".into(),
            XiangqiAnswer::Protected(false) => "no (not protected)".into(),
            XiangqiAnswer::Moves(ms) if ms.is_empty() => "no move".into(),
            XiangqiAnswer::Moves(ms) => format!(
                "{{{}}}",
                ms.iter()
                    .map(|&m| wxf(pos, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// The attack a `protected` question asks about: a capture in the puzzle's final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackRef {
    /// The capture (attacker's point to victim's point).
    pub capture: Move,
    pub attacker: Kind,
    pub victim: Kind,
    /// The attacker's side (to move, or the side that just moved).
    pub by: Color,
}

/// A xiangqi question with the answer the file states for it: the kind of question and the
/// kind of answer cannot disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XiangqiQuestion {
    /// `ask = "ruling"`.
    Ruling { stated: Verdict },
    /// `ask = "chase"` with `at`: the move `ply` (1-based, reversible, with a reply).
    Chase { ply: usize, stated: ChaseStatus },
    /// `ask = "protected"` with `attack`.
    Protected { attack: AttackRef, stated: bool },
    /// `ask = "break"`: the stated moves, sorted by UCCI, each once.
    Break { stated: Vec<Move> },
}

impl XiangqiQuestion {
    /// The `ask` code.
    pub fn code(&self) -> &'static str {
        match self {
            XiangqiQuestion::Ruling { .. } => "ruling",
            XiangqiQuestion::Chase { .. } => "chase",
            XiangqiQuestion::Protected { .. } => "protected",
            XiangqiQuestion::Break { .. } => "break",
        }
    }

    /// The `ask` codes, for error messages.
    pub const CODES: &'static [&'static str] = &["ruling", "chase", "protected", "break"];

    /// The answer the file states.
    pub fn stated(&self) -> XiangqiAnswer {
        match self {
            XiangqiQuestion::Ruling { stated } => XiangqiAnswer::Ruling(*stated),
            XiangqiQuestion::Chase { stated, .. } => XiangqiAnswer::Chase(stated.clone()),
            XiangqiQuestion::Protected { stated, .. } => XiangqiAnswer::Protected(*stated),
            XiangqiQuestion::Break { stated } => XiangqiAnswer::moves(stated.clone()),
        }
    }
}

/// One xiangqi drill puzzle.
#[derive(Clone, Debug)]
pub struct XiangqiPuzzle {
    /// Unique over all puzzle files (chess and xiangqi).
    pub id: String,
    pub title: String,
    /// The theme (file stem) it belongs to.
    pub theme: String,
    /// The start position and the moves, played once by the loader.
    pub(crate) record: Record,
    /// The motif ([`crate::motif::xiangqi`]), computed once by the loader.
    pub(crate) motif: String,
    /// The occurrence the judge rules at (`ntimes`).
    pub rule_at: RuleAt,
    pub question: XiangqiQuestion,
    /// Optional wording of the question; [`XiangqiPuzzle::prompt`] supplies a default.
    pub prompt_text: Option<String>,
    /// The author's explanation, citing the WXF rule or the paper.
    pub explanation: String,
    pub tags: Vec<String>,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
    /// Where the case comes from (Fairy-Stockfish's tests, the paper's figures, ...).
    pub source: Option<String>,
    /// Where the puzzle starts in its file.
    pub origin: Origin,
    /// Where the `answer` key is in its file.
    pub answer_origin: Origin,
}

impl XiangqiPuzzle {
    /// The game: start position, moves and their statuses, as the judge keeps them.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The puzzle's motif ([`crate::motif::xiangqi`]).
    pub fn motif(&self) -> &str {
        &self.motif
    }

    /// The game judged ply by ply at the puzzle's `ntimes`: the ruling that stands.
    pub fn judged(&self) -> JudgedGame {
        JudgedGame::of(&self.record, self.rule_at)
    }

    /// The moves in WXF, as played.
    pub fn moves_wxf(&self) -> Vec<String> {
        (1..=self.record.ply())
            .map(|p| wxf(self.record.position(p - 1), self.record.move_at(p)))
            .collect()
    }

    /// The question in words: the file's `prompt`, or a standard wording.
    pub fn prompt(&self) -> String {
        if let Some(p) = &self.prompt_text {
            return p.clone();
        }
        let pos = self.record.current();
        let side = pos.side_to_move().title();
        match &self.question {
            XiangqiQuestion::Ruling { .. } => format!(
                "The last move brings the position back for {}. How do the WXF rules judge this repetition? (red-loses / black-loses / draw)",
                self.rule_at.words()
            ),
            XiangqiQuestion::Chase { ply, .. } => {
                let mover = self.record.position(ply - 1).side_to_move().title();
                format!(
                    "Is {mover}'s move {} (move {ply}) a chase, and of which piece? (none / check / the chased piece, e.g. \"rook b7\")",
                    wxf(self.record.position(ply - 1), self.record.move_at(*ply))
                )
            }
            XiangqiQuestion::Protected { attack, .. } => format!(
                "The {} {} on {} attacks the {} {} on {}. Is the {} protected, as the WXF rules count protection? (yes / no)",
                attack.by.name(),
                attack.attacker.name(),
                attack.capture.from(),
                attack.by.other().name(),
                attack.victim.name(),
                attack.capture.to(),
                attack.victim.name(),
            ),
            XiangqiQuestion::Break { .. } => format!(
                "{side} to move. After which moves is {side} not ruled lost by the repetition rules (ruling at {})? Give all of them (WXF or UCCI), or none.",
                self.rule_at.words()
            ),
        }
    }
}

/// One xiangqi puzzle file: a theme and its puzzles.
#[derive(Clone, Debug)]
pub struct XiangqiTheme {
    /// The file stem: the progress key.
    pub id: String,
    pub name: String,
    pub description: String,
    pub file: PathBuf,
    pub puzzles: Vec<XiangqiPuzzle>,
}
