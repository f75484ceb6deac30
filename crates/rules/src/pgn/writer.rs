//! Games written as PGN: the Seven Tag Roster completed, notes as comments, lines broken
//! at 80 columns; the Date tag from the clock.

use shakmaty::Color;

use crate::ending::EndingKind;
use crate::game::Game;

/// Write `game` as PGN with the given tags (the Seven Tag Roster is completed
/// with "?" where missing; Result and, if the game ended, Termination come
/// from the game; SetUp/FEN are added for a non-standard start).
pub fn write(game: &Game, tags: &[(&str, &str)]) -> String {
    write_annotated(game, tags, &Notes::new())
}

/// What to add to a ply of a written game: NAGs after its move, then comments. The notes of
/// ply 0 (the start position) are written as comments before the first move; NAGs there
/// are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// Numeric annotation glyphs (1 = "!", 2 = "?", 4 = "??", 6 = "?!", 10 = "=", ...).
    pub nags: Vec<u8>,
    /// Comments, each written as `{...}` (a `}` inside becomes `)`).
    pub comments: Vec<String>,
}

/// Notes by ply.
pub type Notes = std::collections::BTreeMap<usize, Note>;

/// [`write`] with notes on plies. A `Result` tag in `tags` is used when the game has not
/// ended in the rules core (a game read from PGN, ended by resignation or agreement).
///
/// [`write`]: fn@write
pub fn write_annotated(game: &Game, tags: &[(&str, &str)], notes: &Notes) -> String {
    let get = |name: &str| tags.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let result = match game.termination() {
        Some(t) => t.ending.result(),
        None => get("Result")
            .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2"))
            .unwrap_or("*"),
    };
    let mut out = String::new();
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        let v = get(name).unwrap_or("?");
        out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    // Positions compare without their move counters: a start position with the standard
    // setup but another 50-move count or move number needs its FEN too.
    let standard = game.start_fen() == Game::new().start_fen();
    if !standard {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", game.start_fen()));
    }
    // The standard's values; what ended the game in words is the comment before the result.
    let termination = match game.termination() {
        Some(t) => Some(termination_tag(t.ending.kind)),
        None if result == "*" => Some("unterminated"),
        None => get("Termination"),
    };
    if let Some(t) = termination {
        out.push_str(&format!("[Termination \"{}\"]\n", escape(t)));
    }
    for (k, v) in tags {
        if !matches!(
            *k,
            "Event"
                | "Site"
                | "Date"
                | "Round"
                | "White"
                | "Black"
                | "Result"
                | "SetUp"
                | "FEN"
                | "Termination"
        ) {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
    }
    out.push('\n');
    let comment = |text: &str| format!("{{{}}}", text.replace('}', ")"));
    let mut tokens = Vec::new();
    if let Some(note) = notes.get(&0) {
        tokens.extend(note.comments.iter().map(|c| comment(c)));
    }
    // A Black move gets its number at the start and after a comment ("12... Nf6").
    let mut number_black = true;
    for ply in 1..=game.len() {
        let number = game.move_number(ply);
        let san = game.san_plus(ply).expect("ply >= 1 has a move");
        if number.side == Color::White || number_black {
            tokens.push(format!("{number} {san}"));
        } else {
            tokens.push(san.to_string());
        }
        number_black = false;
        if let Some(note) = notes.get(&ply) {
            tokens.extend(note.nags.iter().map(|n| format!("${n}")));
            tokens.extend(note.comments.iter().map(|c| comment(c)));
            number_black = !note.comments.is_empty();
        }
    }
    if let Some(t) = game.termination() {
        tokens.push(comment(&t.ending.explanation));
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for tok in tokens {
        // Long comments are broken at spaces, so lines stay near 80 columns; an embedded
        // command stays on one line.
        for (i, word) in break_units(&tok).iter().enumerate() {
            let glue = i > 0 && !tok.starts_with('{');
            if line_len > 0 && line_len + 1 + word.len() > 79 && !glue {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += word.len();
            out.push_str(word);
        }
    }
    out.push('\n');
    out
}

/// The pieces of a written token a line may break between: its words, except that an
/// embedded command (`[%claim move 9.2]`) stays whole.
pub(super) fn break_units(tok: &str) -> Vec<String> {
    let mut units: Vec<String> = Vec::new();
    let mut in_command = false;
    for word in tok.split(' ') {
        match units.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
        in_command |= word.contains("[%");
        if word.contains(']') {
            in_command = false;
        }
    }
    units
}

/// The `Termination` tag value for an ending, from the PGN standard's list (Edwards 1994,
/// section 9.8.1: "abandoned", "adjudication", "death", "emergency", "normal", "rules
/// infraction", "time forfeit", "unterminated"): a flag fall is a "time forfeit" (also when
/// it draws, FIDE 6.9), every other ending the rules core rules on is "normal".
pub fn termination_tag(kind: EndingKind) -> &'static str {
    match kind {
        EndingKind::LostOnTime { .. } | EndingKind::FlagFallDraw { .. } => "time forfeit",
        EndingKind::Checkmate { .. }
        | EndingKind::Stalemate
        | EndingKind::InsufficientMaterial
        | EndingKind::FivefoldRepetition
        | EndingKind::SeventyFiveMoves
        | EndingKind::ThreefoldClaim
        | EndingKind::FiftyMoveClaim
        | EndingKind::Resignation { .. }
        | EndingKind::DrawAgreed
        | EndingKind::Recorded { .. } => "normal",
    }
}

/// A moment in UTC, to the minute, as the calendar has it (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcMinute {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
}

impl UtcMinute {
    /// The calendar date and time of `secs` seconds after 1970-01-01 00:00 UTC (Howard
    /// Hinnant's `civil_from_days`, "chrono-Compatible Low-Level Date Algorithms").
    pub fn from_unix(secs: u64) -> UtcMinute {
        let days = (secs / 86_400) as i64;
        let rest = secs % 86_400;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        UtcMinute {
            year,
            month,
            day,
            hour: (rest / 3600) as u32,
            minute: (rest % 3600 / 60) as u32,
        }
    }

    /// Now (the Unix epoch if the system clock is before it).
    pub fn now() -> UtcMinute {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        UtcMinute::from_unix(secs)
    }

    /// The date as a PGN `Date` tag writes it: "2026.11.23".
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

pub(super) fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}
