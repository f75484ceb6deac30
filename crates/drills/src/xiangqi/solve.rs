//! Answers computed by the WXF judge ([`threefold_xiangqi::judge`]): checking a file's
//! stated answer and judging a player's. Nothing here rules a repetition, a chase or a
//! protection itself: rulings come from [`threefold_xiangqi::judge::JudgedGame`] (a `break` question from [`threefold_xiangqi::judge::Record::forbidden_moves`]), statuses from
//! [`threefold_xiangqi::judge::Record::move_note`], protections from [`is_protected`] and [`get_defenders`].

use threefold_xiangqi::judge::{
    MoveNote, Outcome, Ruling, Status, get_defenders, is_protected, value,
};
use threefold_xiangqi::notation::{MoveError, parse_move, wxf};
use threefold_xiangqi::{Color, Kind, Square};

use super::{
    ChaseStatus, Verdict, XiangqiAnswer, XiangqiPuzzle, XiangqiQuestion, parse_piece, piece_code,
};
use crate::check::{Checker, Feedback};

/// Why a protection is real or not, as [`is_protected`] and [`get_defenders`] see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protection {
    /// The defender on this point can legally recapture.
    By { square: Square, kind: Kind },
    /// A defender could recapture, but the victim is worth more than its attacker, so the
    /// recapture does not protect it (the paper's `is_protected`).
    WorthMore { defender: Square },
    /// No piece can legally recapture along the line as it stands before the capture.
    None,
}

/// The judge's answer to a puzzle, with its own words and the plies it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub answer: XiangqiAnswer,
    /// The judge's explanation (its ruling, the move's status, the protection found).
    pub detail: String,
    /// The plies to highlight (the judged span, the move asked about).
    pub plies: Vec<usize>,
    /// For `protected`: why.
    pub protection: Option<Protection>,
}

/// Why the judge gives no answer of the kind the question asks for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// `ruling`: the moves do not complete a repetition the judge rules.
    #[error(
        "no ruling: the final position has stood {occurrences} time(s) before, and a ruling at {at} needs {ntimes}"
    )]
    NoRuling {
        occurrences: usize,
        ntimes: usize,
        at: &'static str,
    },
    /// `ruling`: the judge ruled before the last move (the moves after it were played past
    /// the ruling).
    #[error("the judge rules after ply {ply} already ({headline}); end the moves there")]
    RuledEarlier { ply: usize, headline: String },
    /// `ruling`: the side to move has no legal move: a loss, not a repetition ruling.
    #[error("the game is over: {0}")]
    Ended(String),
    /// `chase`: the move asked about is a cancel (a capture or a pawn advance).
    #[error("move {0} is a capture or a pawn advance: a cancel, never judged")]
    Cancel(usize),
}

/// Why a typed answer was not read ([`parse_answer`]): each says what to type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("answer red-loses, black-loses or draw")]
    NotAVerdict,
    #[error("answer none, check, or the chased pieces (kind and point, like \"rook b7\")")]
    NotAChase(String),
    #[error("answer yes or no")]
    NotYesOrNo,
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A puzzle whose stated answer differs from the judge's: the one type of both games, its
/// `by` [`Checker::Judge`].
pub use crate::check::Mismatch;

/// Who a ruling goes against (a repetition ruling or a side left without a move).
fn loser(r: &Ruling) -> Option<Color> {
    match r.outcome {
        Outcome::Loss => Some(r.side),
        Outcome::Win => Some(r.side.other()),
        Outcome::Draw | Outcome::Undecided => None,
    }
}

/// The judge's answer to `puzzle`.
pub fn solve(puzzle: &XiangqiPuzzle) -> Result<Solution, SolveError> {
    let record = puzzle.record();
    let ntimes = puzzle.rule_at.ntimes();
    match &puzzle.question {
        XiangqiQuestion::Ruling { .. } => {
            let judged = puzzle.judged();
            let Some(r) = judged.standing() else {
                let r = judged.ruling();
                return Err(SolveError::NoRuling {
                    occurrences: r.occurrences,
                    ntimes,
                    at: puzzle.rule_at.words(),
                });
            };
            if let Some(e) = r.ending {
                return Err(SolveError::Ended(format!(
                    "{} after ply {}",
                    e.name(),
                    r.ply
                )));
            }
            if r.ply < record.ply() {
                return Err(SolveError::RuledEarlier {
                    ply: r.ply,
                    headline: r.headline(),
                });
            }
            let verdict = loser(r).map_or(Verdict::Draw, Verdict::Loses);
            Ok(Solution {
                answer: XiangqiAnswer::Ruling(verdict),
                detail: format!("{}.\n{}", r.headline(), r.explanation()),
                plies: r.window.map_or(Vec::new(), |(j, n)| (j + 1..=n).collect()),
                protection: None,
            })
        }
        XiangqiQuestion::Chase { ply, .. } => {
            let ply = *ply;
            let mover = record.position(ply - 1).side_to_move();
            match record.move_note(ply) {
                MoveNote::Judged(report) => {
                    let st = &report.status;
                    let answer = match st.status {
                        Status::Check => ChaseStatus::Check,
                        Status::Idle => ChaseStatus::None,
                        Status::Chase => ChaseStatus::chases(
                            st.chased
                                .iter()
                                .map(|a| (a.victim_kind, a.victim))
                                .collect(),
                        ),
                    };
                    Ok(Solution {
                        answer: XiangqiAnswer::Chase(answer),
                        detail: format!("{}.", report.explain(mover)),
                        plies: vec![ply],
                        protection: None,
                    })
                }
                _ => Err(SolveError::Cancel(ply)),
            }
        }
        XiangqiQuestion::Protected { attack, .. } => {
            let pos = record.current();
            let asked = if attack.by == pos.side_to_move() {
                pos.clone()
            } else {
                pos.with_side_flipped()
            };
            let cap = attack.capture;
            let (from, to) = (cap.from(), cap.to());
            let (a, v) = (attack.attacker, attack.victim);
            let (protection, detail) = match is_protected(&asked, cap) {
                Some(d) => {
                    let kind = asked.piece_at(d.from()).map_or(Kind::King, |p| p.kind);
                    (
                        Protection::By {
                            square: d.from(),
                            kind,
                        },
                        format!(
                            "Protected: after {} takes on {to}, the {} on {} can legally take back ({}).",
                            piece_code(a, from),
                            kind.name(),
                            d.from(),
                            d.ucci()
                        ),
                    )
                }
                None => match get_defenders(&asked, cap).first() {
                    Some(d) => (
                        Protection::WorthMore { defender: d.from() },
                        format!(
                            "Not protected: the {} on {} could take back, but the {} (value {}) is worth more than the attacking {} (value {}), and a piece worth more than its attacker is not protected by a recapture (Tan and Watkinson Medina's is_protected).",
                            asked.piece_at(d.from()).map_or("piece", |p| p.kind.name()),
                            d.from(),
                            v.name(),
                            value(v),
                            a.name(),
                            value(a)
                        ),
                    ),
                    None => (
                        Protection::None,
                        format!(
                            "Not protected: after {} takes on {to}, no {} piece can legally take back along the lines as they stood before the capture.",
                            piece_code(a, from),
                            attack.by.other().name()
                        ),
                    ),
                },
            };
            Ok(Solution {
                answer: XiangqiAnswer::Protected(matches!(protection, Protection::By { .. })),
                detail,
                plies: vec![record.ply()],
                protection: Some(protection),
            })
        }
        XiangqiQuestion::Break { .. } => {
            let pos = record.current();
            let mover = pos.side_to_move();
            // The judge's one list of the moves forbidden now (the trainer's board marks
            // the same), at the puzzle's occurrence.
            let (safe, forbidden) = record.allowed_and_forbidden(puzzle.rule_at);
            let lost: Vec<String> = forbidden
                .iter()
                .map(|f| format!("{} ({})", wxf(pos, f.mv), f.ruling.headline()))
                .collect();
            let detail = if lost.is_empty() {
                format!("No move of {} is ruled lost.", mover.title())
            } else {
                format!(
                    "Ruled lost at once for {}: {}. Every other move is not.",
                    mover.title(),
                    lost.join("; ")
                )
            };
            Ok(Solution {
                answer: XiangqiAnswer::moves(safe),
                detail,
                plies: Vec::new(),
                protection: None,
            })
        }
    }
}

/// Check a puzzle's stated answer against the judge.
pub fn check(puzzle: &XiangqiPuzzle) -> Result<(), Mismatch> {
    let stated = puzzle.question.stated();
    let pos = puzzle.record().current();
    let mismatch = |computed: String| Mismatch {
        origin: puzzle.answer_origin.clone(),
        id: puzzle.id.clone(),
        stated: stated.describe(pos),
        by: Checker::Judge,
        computed,
    };
    match solve(puzzle) {
        Ok(sol) if sol.answer == stated => Ok(()),
        Ok(sol) => Err(mismatch(sol.answer.describe(pos))),
        Err(e) => Err(mismatch(format!("no answer: {e}"))),
    }
}

/// Judge a player's answer: the right answer is the judge's (which the tests keep equal to
/// the file's); should the judge give none, the file's stated answer is used.
pub fn judge_answer(puzzle: &XiangqiPuzzle, given: &XiangqiAnswer) -> Feedback {
    let (right, detail, plies) = match solve(puzzle) {
        Ok(s) => (s.answer, s.detail, s.plies),
        Err(e) => (puzzle.question.stated(), e.to_string(), Vec::new()),
    };
    Feedback {
        correct: *given == right,
        expected: right.describe(puzzle.record().current()),
        explanation: format!("{}\n\n{}", puzzle.explanation, detail),
        plies_to_highlight: plies,
    }
}

/// Read a player's typed answer, in the words the files use:
///
/// - `ruling`: "red-loses" (or "black wins"), "black-loses" ("red wins"), "draw"
/// - `chase`: "none", "check", or the chased pieces separated by commas ("rook b7")
/// - `protected`: "yes" / "no"
/// - `break`: moves (WXF or UCCI) separated by spaces or commas, or "none"
pub fn parse_answer(puzzle: &XiangqiPuzzle, text: &str) -> Result<XiangqiAnswer, AnswerError> {
    let t = text.trim();
    match &puzzle.question {
        XiangqiQuestion::Ruling { .. } => Verdict::parse(t)
            .map(XiangqiAnswer::Ruling)
            .ok_or(AnswerError::NotAVerdict),
        XiangqiQuestion::Chase { .. } => match t.to_ascii_lowercase().as_str() {
            "none" | "no" | "idle" => Ok(XiangqiAnswer::Chase(ChaseStatus::None)),
            "check" => Ok(XiangqiAnswer::Chase(ChaseStatus::Check)),
            _ => {
                let mut pieces = Vec::new();
                for part in t.split([',', ';']).filter(|p| !p.trim().is_empty()) {
                    pieces.push(
                        parse_piece(part).ok_or_else(|| AnswerError::NotAChase(part.into()))?,
                    );
                }
                if pieces.is_empty() {
                    return Err(AnswerError::NotAChase(t.into()));
                }
                Ok(XiangqiAnswer::Chase(ChaseStatus::chases(pieces)))
            }
        },
        XiangqiQuestion::Protected { .. } => match t.to_ascii_lowercase().as_str() {
            "yes" | "y" => Ok(XiangqiAnswer::Protected(true)),
            "no" | "n" => Ok(XiangqiAnswer::Protected(false)),
            _ => Err(AnswerError::NotYesOrNo),
        },
        XiangqiQuestion::Break { .. } => {
            let pos = puzzle.record().current();
            if t.eq_ignore_ascii_case("none") || t.is_empty() {
                return Ok(XiangqiAnswer::moves(Vec::new()));
            }
            let mut moves = Vec::new();
            for tok in t.split([',', ' ']).filter(|s| !s.is_empty()) {
                moves.push(parse_move(pos, tok)?);
            }
            Ok(XiangqiAnswer::moves(moves))
        }
    }
}
