//! Answers computed by the rules core: checking a file's stated answer, and
//! judging a player's answer for the drill screen.
//!
//! Nothing here decides a rule itself: repetition counts, claims and endings
//! all come from [`threefold_rules`].

use std::fmt;

use threefold_rules::claim::{self, Claim, Clocks};
use threefold_rules::notation::MoveError;
use threefold_rules::pgn::PgnReason;
use threefold_rules::{EndingKind, Game, Ground, PlayError};

use super::load::{find_label, tokens};
use super::types::{Answer, ClaimRule, EndingRule, Origin, Puzzle, Question};

/// The rules core's answer to a puzzle, with its own explanation and the
/// plies it refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub answer: Answer,
    /// The rules core's explanation (naming plies as "after 4...Ng8").
    pub detail: String,
    /// The plies worth highlighting on the board or move list.
    pub plies: Vec<usize>,
}

/// Why the rules core cannot answer a puzzle's question.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A claim question asked where the game has already ended (how: the kind).
    #[error("the game is already over ({0}), so no claim can be made")]
    GameOver(EndingKind),
    /// The rules core refused a move of the question (the intended move).
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The game ends in a way no ending question asks about (a claim, a flag, a
    /// resignation, an agreement).
    #[error("unexpected ending in a puzzle: {0}")]
    UnexpectedEnding(EndingKind),
}

/// Why a typed answer was not read ([`parse_answer`]): each says what to type.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AnswerError {
    /// A claim question's answer is not one of the claim words.
    #[error("answer none, threefold, fifty or both")]
    NotAClaim,
    /// An ending question's answer is not one of the ending words.
    #[error("answer no, checkmate, stalemate, insufficient, fivefold or seventy-five")]
    NotAnEnding,
    /// A same-position question's answer is not yes or no.
    #[error("answer yes or no")]
    NotYesOrNo,
    /// The moves typed are not a move list (the PGN lexer's reason).
    #[error(transparent)]
    MoveList(PgnReason),
    /// A move typed cannot be played, and why (the trainer's reading of typed moves).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A place typed names no position of the game.
    #[error("'{0}' names no position of this game")]
    NoSuchPlace(String),
}

/// Compute the answer to `puzzle` with the rules core.
pub fn solve(puzzle: &Puzzle) -> Result<Solution, SolveError> {
    let game = puzzle.game();
    let over = || {
        game.termination()
            .map(|t| SolveError::GameOver(t.ending.kind))
    };
    match &puzzle.question {
        Question::Claim => {
            if let Some(e) = over() {
                return Err(e);
            }
            let three = claim::threefold_now(game);
            let fifty = claim::fifty_now(game);
            let rule = match (three, fifty) {
                (true, true) => ClaimRule::Both,
                (true, false) => ClaimRule::Threefold,
                (false, true) => ClaimRule::Fifty,
                (false, false) => ClaimRule::None,
            };
            // The arbiter's ruling on a claim now, for its explanation.
            let mut g = game.clone();
            let v = claim::judge(&mut g, Claim::Now, Clocks::Off)?;
            Ok(Solution {
                answer: Answer::Claim(rule),
                detail: format!("The arbiter's ruling on a claim now: {}", v.explanation()),
                plies: v.plies,
            })
        }
        Question::Intended { mv } => {
            if let Some(e) = over() {
                return Err(e);
            }
            let mut g = game.clone();
            let v = claim::judge(&mut g, Claim::WithMove(*mv), Clocks::Off)?;
            let rule = match v.ground {
                None => ClaimRule::None,
                Some(Ground::Threefold) => ClaimRule::Threefold,
                Some(Ground::FiftyMoves) => ClaimRule::Fifty,
            };
            Ok(Solution {
                answer: Answer::Claim(rule),
                detail: format!(
                    "The arbiter's ruling on a claim with {}: {}",
                    puzzle.san(*mv),
                    v.explanation()
                ),
                plies: v.plies,
            })
        }
        Question::ClaimMoves => {
            if let Some(e) = over() {
                return Err(e);
            }
            let moves = claim::threefold_moves(game);
            // Highlight the earlier occurrences of the positions those moves make.
            let mut plies = Vec::new();
            let mut parts = Vec::new();
            for &m in &moves {
                let (line, earlier) = claim::occurrence_after(game, m);
                parts.push(line);
                plies.extend(earlier);
            }
            plies.sort_unstable();
            plies.dedup();
            let detail = if parts.is_empty() {
                "No move makes a position appear for the third time, so no claim under FIDE 9.2 a is possible.".to_string()
            } else {
                format!(
                    "{}\nWritten down with a claim, each is correct (FIDE 9.2 a).",
                    parts.join("\n")
                )
            };
            Ok(Solution {
                answer: Answer::moves(moves),
                detail,
                plies,
            })
        }
        Question::Count { at } => {
            let ply = at.as_ref().map_or(game.len(), |r| r.ply);
            let plies = game.same_as(ply);
            let n = plies.len();
            let detail = format!(
                "The position {} appears {} in this game: {}.",
                if ply == 0 {
                    "at the start".to_string()
                } else {
                    format!("after {}", game.ply_label(ply))
                },
                threefold_rules::ending::times(n as u32),
                threefold_rules::ending::list_places(game, &plies)
            );
            Ok(Solution {
                answer: Answer::count(plies.clone()),
                detail,
                plies,
            })
        }
        Question::Same { first, second } => {
            let (a, b) = (first.ply, second.ply);
            let same = game.record(a).key == game.record(b).key;
            let detail = if same {
                format!(
                    "{} and {} hold the same position: same player to move, same pieces on the same squares, same castling rights and en passant possibilities (FIDE 9.2.3).",
                    capitalize(&game.place_label(a)),
                    game.place_label(b)
                )
            } else {
                format!(
                    "{} and {} are different positions under FIDE 9.2.3 ({}).",
                    capitalize(&game.place_label(a)),
                    game.place_label(b),
                    difference(game, a, b)
                )
            };
            Ok(Solution {
                answer: Answer::Same(same),
                detail,
                plies: vec![a.min(b), a.max(b)],
            })
        }
        Question::Ending => match game.termination() {
            None => Ok(Solution {
                answer: Answer::Ending(EndingRule::NotOver),
                detail: "The game goes on: no checkmate, stalemate, dead position, fivefold repetition (FIDE 9.6.1) or seventy-five moves (FIDE 9.6.2).".to_string(),
                plies: Vec::new(),
            }),
            Some(t) => {
                let rule = match t.ending.kind {
                    EndingKind::Checkmate { .. } => EndingRule::Checkmate,
                    EndingKind::Stalemate => EndingRule::Stalemate,
                    EndingKind::InsufficientMaterial => EndingRule::Insufficient,
                    EndingKind::FivefoldRepetition => EndingRule::Fivefold,
                    EndingKind::SeventyFiveMoves => EndingRule::SeventyFive,
                    other => return Err(SolveError::UnexpectedEnding(other)),
                };
                Ok(Solution {
                    answer: Answer::Ending(rule),
                    detail: t.ending.explanation.clone(),
                    plies: t.ending.plies.clone(),
                })
            }
        },
    }
}

/// Why two positions differ, in the terms of FIDE 9.2.3 (read off the
/// positions, for the explanation only; sameness itself is the rules core's).
fn difference(game: &Game, a: usize, b: usize) -> String {
    use shakmaty::{EnPassantMode, Position};
    let (pa, pb) = (game.position_at(a), game.position_at(b));
    let mut why = Vec::new();
    if pa.turn() != pb.turn() {
        why.push("a different player has the move");
    }
    if pa.board() != pb.board() {
        why.push("the pieces stand differently");
    }
    if pa.castles().castling_rights() != pb.castles().castling_rights() {
        why.push("the castling rights differ");
    }
    if pa.ep_square(EnPassantMode::Legal) != pb.ep_square(EnPassantMode::Legal) {
        why.push("an en passant capture is possible in one and not the other");
    }
    if why.is_empty() {
        "they differ".to_string()
    } else {
        why.join("; ")
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A puzzle whose stated answer differs from the computed one: the rules core's for a
/// chess puzzle ([`check`]), the judge's for a xiangqi one ([`crate::xiangqi::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where the puzzle's answer is written.
    pub origin: Origin,
    pub id: String,
    /// The answer the file states, in words.
    pub stated: String,
    /// What computes the answer.
    pub by: Checker,
    /// What it computes, in words (or why it computes nothing).
    pub computed: String,
}

/// What computes a puzzle's answer: chess's rules core or the xiangqi judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checker {
    RulesCore,
    Judge,
}

impl fmt::Display for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Checker::RulesCore => "the rules core",
            Checker::Judge => "the judge",
        })
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: puzzle '{}': the file says {}, but {} computes {}",
            self.origin, self.id, self.stated, self.by, self.computed
        )
    }
}

impl std::error::Error for Mismatch {}

/// Check a puzzle's stated answer against the rules core.
pub fn check(puzzle: &Puzzle) -> Result<(), Mismatch> {
    let mismatch = |stated: String, computed: String| Mismatch {
        origin: puzzle.answer_origin.clone(),
        id: puzzle.id.clone(),
        stated,
        by: Checker::RulesCore,
        computed,
    };
    let game = puzzle.game();
    match solve(puzzle) {
        Ok(sol) if sol.answer == puzzle.answer => Ok(()),
        Ok(sol) => Err(mismatch(
            puzzle.answer.describe(game),
            sol.answer.describe(game),
        )),
        Err(e) => Err(mismatch(
            puzzle.answer.describe(game),
            format!("no answer: {e}"),
        )),
    }
}

/// An explanation or title that names a numbered move ("30.Qe2") that is
/// neither among the moves the puzzle shows nor a move that could be played
/// at that number from one of their positions (the intended move, an
/// alternative): the player looks for it in the move list and cannot find it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{origin}: puzzle '{id}': the {field} names {named}, which is neither among the moves shown ({shown}) nor playable from one of their positions"
)]
pub struct UnshownMove {
    /// Where the puzzle starts in its file.
    pub origin: Origin,
    pub id: String,
    /// "explanation" or "title".
    pub field: &'static str,
    /// The move as the text writes it.
    pub named: String,
    /// The first and last move shown, or "no moves".
    pub shown: String,
}

/// The numbered moves a text names: "30.Qe2", "31...Qf6", "34. Qe2+" as
/// (move number, White to move, SAN without check marks) and as written.
/// Section numbers ("FIDE 9.2", "9.6.1") and years ("1971.") are not moves:
/// a move's SAN starts with a piece letter, a file or castling.
fn numbered_moves(text: &str) -> Vec<((u32, bool, String), String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '.');
        if !starts_number {
            i += 1;
            continue;
        }
        let from = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let number: u32 = chars[from..i]
            .iter()
            .collect::<String>()
            .parse()
            .unwrap_or(0);
        let dots = chars[i..].iter().take_while(|&&c| c == '.').count();
        if dots != 1 && dots != 3 {
            continue;
        }
        let mut j = i + dots;
        if chars.get(j) == Some(&' ') {
            j += 1;
        }
        let san: String = chars[j..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || "x=-+#".contains(c))
            .collect();
        let core = san.trim_end_matches(['+', '#']).to_string();
        let is_move = core.starts_with("O-O")
            || core
                .chars()
                .next()
                .is_some_and(|c| "KQRBNabcdefgh".contains(c))
                && core.chars().any(|c| ('1'..='8').contains(&c))
                && core
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "x=".contains(c));
        if is_move {
            let written = chars[from..j].iter().collect::<String>() + &san;
            out.push(((number, dots == 1, core), written));
        }
        i = j + san.chars().count();
    }
    out
}

/// Check that every numbered move the puzzle's explanation and title name is
/// one of the moves shown, or a legal move at that number from the position
/// before it (a move the question asks about, or an alternative to the one
/// played): never a move from before the start or after the end.
pub fn check_moves_named(puzzle: &Puzzle) -> Result<(), UnshownMove> {
    let game = puzzle.game();
    let strip = |san: &str| san.trim_end_matches(['+', '#']).to_string();
    let known = |(number, white, san): &(u32, bool, String)| {
        (1..=game.len() + 1).any(|p| {
            let n = game.move_number(p);
            if n.number != *number || (n.side == shakmaty::Color::White) != *white {
                return false;
            }
            let played = p <= game.len()
                && game
                    .san_plus(p)
                    .is_some_and(|s| strip(&s.to_string()) == *san);
            played
                || san
                    .parse::<shakmaty::san::San>()
                    .is_ok_and(|s| s.to_move(game.position_at(p - 1)).is_ok())
        })
    };
    let range = match game.len() {
        0 => "no moves".to_string(),
        1 => game.ply_label(1),
        n => format!("{} to {}", game.ply_label(1), game.ply_label(n)),
    };
    for (field, text) in [
        ("explanation", &puzzle.explanation),
        ("title", &puzzle.title),
    ] {
        if let Some((_, written)) = numbered_moves(text).into_iter().find(|(k, _)| !known(k)) {
            return Err(UnshownMove {
                origin: puzzle.origin.clone(),
                id: puzzle.id.clone(),
                field,
                named: written,
                shown: range,
            });
        }
    }
    Ok(())
}

/// The ruling on a player's answer, for the drill screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feedback {
    pub correct: bool,
    /// The right answer, in words.
    pub expected: String,
    /// The puzzle's explanation followed by the rules core's.
    pub explanation: String,
    /// Plies to highlight in the move list / on the board (0 = start).
    pub plies_to_highlight: Vec<usize>,
}

/// Judge a player's answer. The right answer is the rules core's (which the
/// tests keep equal to the file's); should the rules core fail on this
/// puzzle, the file's stated answer is used.
pub fn judge(puzzle: &Puzzle, given: &Answer) -> Feedback {
    let game = puzzle.game();
    let (right, detail, plies) = match solve(puzzle) {
        Ok(s) => (s.answer, s.detail, s.plies),
        Err(e) => (puzzle.answer.clone(), e.to_string(), Vec::new()),
    };
    let correct = *given == right;
    let explanation = if detail.is_empty() {
        puzzle.explanation.clone()
    } else {
        format!("{}\n\n{}", puzzle.explanation, detail)
    };
    Feedback {
        correct,
        expected: right.describe(game),
        explanation,
        plies_to_highlight: plies,
    }
}

/// Read a player's typed answer for `puzzle`, in the same words the files use:
///
/// - `claim` / `intended`: "none", "threefold", "fifty", "both"
/// - `claim-moves`: SAN moves separated by spaces or commas, or "none"
/// - `count`: the places separated by spaces or commas ("start 2...Ng8
///   4...Ng8"); the count is their number
/// - `same`: "yes" / "no"
/// - `ending`: "no", "checkmate", "stalemate", "insufficient", "fivefold", "seventy-five"
pub fn parse_answer(puzzle: &Puzzle, text: &str) -> Result<Answer, AnswerError> {
    let game = puzzle.game();
    let t = text.trim();
    match &puzzle.question {
        Question::Claim | Question::Intended { .. } => ClaimRule::parse(t)
            .map(Answer::Claim)
            .ok_or(AnswerError::NotAClaim),
        Question::Ending => EndingRule::parse(t)
            .map(Answer::Ending)
            .ok_or(AnswerError::NotAnEnding),
        Question::Same { .. } => match t.to_ascii_lowercase().as_str() {
            "yes" | "y" | "same" => Ok(Answer::Same(true)),
            "no" | "n" | "different" => Ok(Answer::Same(false)),
            _ => Err(AnswerError::NotYesOrNo),
        },
        Question::ClaimMoves => {
            let cleaned = t.replace(',', " ");
            if cleaned.trim().eq_ignore_ascii_case("none") {
                return Ok(Answer::Moves(Vec::new()));
            }
            let mut moves = Vec::new();
            for (_, tok) in tokens(&cleaned).map_err(|(_, msg)| AnswerError::MoveList(msg))? {
                // Read as the trainer reads a typed move: a refusal says why.
                let m = threefold_rules::notation::parse_move_lenient(game.position(), &tok)?;
                moves.push(m);
            }
            Ok(Answer::moves(moves))
        }
        Question::Count { .. } => {
            let cleaned = t.replace(',', " ");
            let mut plies = Vec::new();
            for tok in cleaned.split_whitespace() {
                if tok.eq_ignore_ascii_case("after") {
                    continue;
                }
                match find_label(game, tok) {
                    Some(p) => plies.push(p),
                    None => return Err(AnswerError::NoSuchPlace(tok.to_string())),
                }
            }
            Ok(Answer::count(plies))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Move, Role, Square};

    fn first(pick: impl Fn(&Puzzle) -> bool) -> Puzzle {
        crate::load_builtin()
            .puzzles()
            .find(|p| pick(p))
            .expect("a built-in puzzle of that kind")
            .clone()
    }

    /// The rules core's refusals are typed: a claim asked on a game that is over names
    /// the ending, an intended move that cannot be played carries the rules core's error.
    #[test]
    fn a_puzzle_the_rules_core_cannot_answer_says_why() {
        let mut p = first(|p| p.question == Question::Ending && p.game().is_over());
        let kind = p.game().termination().unwrap().ending.kind;
        p.question = Question::Claim;
        let e = solve(&p).unwrap_err();
        assert_eq!(e, SolveError::GameOver(kind));
        assert_eq!(
            e.to_string(),
            format!("the game is already over ({kind}), so no claim can be made")
        );
        let mut p = first(|p| p.question == Question::Claim && p.game().termination().is_none());
        let nonsense = Move::Normal {
            role: Role::King,
            from: Square::A1,
            capture: None,
            to: Square::H8,
            promotion: None,
        };
        p.question = Question::Intended { mv: nonsense };
        let e = solve(&p).unwrap_err();
        assert!(
            matches!(e, SolveError::Play(PlayError::Illegal { .. })),
            "{e}"
        );
    }

    /// A typed answer that is not read says what to type, as its own variant.
    #[test]
    fn a_typed_answer_not_read_names_its_cause() {
        let claim = first(|p| p.question == Question::Claim);
        assert!(matches!(
            parse_answer(&claim, "maybe"),
            Err(AnswerError::NotAClaim)
        ));
        let ending = first(|p| p.question == Question::Ending);
        assert!(matches!(
            parse_answer(&ending, "maybe"),
            Err(AnswerError::NotAnEnding)
        ));
        let same = first(|p| matches!(p.question, Question::Same { .. }));
        assert!(matches!(
            parse_answer(&same, "maybe"),
            Err(AnswerError::NotYesOrNo)
        ));
        let count = first(|p| matches!(p.question, Question::Count { .. }));
        assert!(matches!(
            parse_answer(&count, "start 99...Kz9"),
            Err(AnswerError::NoSuchPlace(place)) if place == "99...Kz9"
        ));
        let moves = first(|p| p.question == Question::ClaimMoves);
        assert!(matches!(
            parse_answer(&moves, "Ka1"),
            Err(AnswerError::Move(_))
        ));
        assert!(matches!(
            parse_answer(&moves, "Ke9"),
            Err(AnswerError::MoveList(PgnReason::NotAMove { .. }))
        ));
    }
}
