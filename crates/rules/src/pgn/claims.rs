//! Draw claims recorded in a game: the `[%claim ...]` command a comment carries, written
//! and read.

use crate::claim::Ground;

use super::writer::Notes;

/// A draw claim recorded in a game (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimMark {
    /// `[%claim now]`: a claim in the position, without a move (9.2 b, 9.3 b).
    Now,
    /// `[%claim move]`: the move into this ply was written with a claim (9.2 a, 9.3 a).
    WithMove,
}

impl ClaimMark {
    /// The command's argument: "now" or "move".
    pub fn code(self) -> &'static str {
        match self {
            ClaimMark::Now => "now",
            ClaimMark::WithMove => "move",
        }
    }

    /// The mark whose [`ClaimMark::code`] is `code`.
    pub fn from_code(code: &str) -> Option<ClaimMark> {
        [ClaimMark::Now, ClaimMark::WithMove]
            .into_iter()
            .find(|m| m.code() == code)
    }
}

/// A `[%claim ...]` command of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedClaim {
    /// The number of main-line moves before the comment: the ply of the position claimed
    /// in ([`ClaimMark::Now`]), or the ply the intended move led to ([`ClaimMark::WithMove`]).
    pub ply: usize,
    pub mark: ClaimMark,
    /// The rule claimed under (`[%claim now 9.2]`), or None when the record does not say
    /// (`[%claim now]`): then the claim is judged under either rule.
    pub ground: Option<Ground>,
    /// The line (1-based) of the comment; 0 for a claim not read from a file (one made in
    /// the trainer).
    pub line: usize,
}

/// The embedded command recording a claim (`mark`, and the rule if known), as a comment's
/// text (without the braces): `[%claim now 9.2]`, `[%claim move]`.
pub fn claim_comment(mark: ClaimMark, ground: Option<Ground>) -> String {
    match ground {
        Some(g) => format!("[%claim {} {}]", mark.code(), g.code()),
        None => format!("[%claim {}]", mark.code()),
    }
}

/// The notes that record `claims` in a written game (a [`claim_comment`] at each claim's
/// ply), for [`super::write_annotated`]: reading the game back gives the same claims.
pub fn claim_notes(claims: &[RecordedClaim]) -> Notes {
    let mut notes = Notes::new();
    for c in claims {
        notes
            .entry(c.ply)
            .or_default()
            .comments
            .push(claim_comment(c.mark, c.ground));
    }
    notes
}

/// `claim now` / `claim move`, optionally with the rule (`claim now 9.2`, `claim move
/// 9.3`): the text of an embedded command, without `[%` and `]`. Other commands (`clk`,
/// `eval`, ...) and other arguments are not claims.
pub(super) fn parse_claim_command(cmd: &[u8]) -> Option<(ClaimMark, Option<Ground>)> {
    let text = std::str::from_utf8(cmd).ok()?;
    let mut words = text.split_ascii_whitespace();
    if words.next()? != "claim" {
        return None;
    }
    let mark = ClaimMark::from_code(words.next()?)?;
    let ground = match words.next() {
        None => None,
        Some(code) => Some(Ground::from_code(code)?),
    };
    words.next().is_none().then_some((mark, ground))
}
