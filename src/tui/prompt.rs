//! The input line's prompts: what a typed line is for (the line itself, with the screen
//! that asked for it, is `screen::Input`). A leaf: the App owns the one input line; the
//! screens ask for it by [`InputKind`].

use std::path::{Path, PathBuf};

use crate::rules::pgn::UtcMinute;

/// What a typed line is for: one kind per purpose, whichever game or screen asks (the
/// screen that asked gets the line, and words the prompt: `screen::Input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A move of the game on the board.
    Move,
    /// The move a claim intends (chess).
    ClaimMove,
    /// A position to start a new game from.
    Fen,
    /// A PGN file to open.
    LoadPgn,
    /// Where to save the game (a PGN file).
    SavePgn,
    /// A typed drill answer.
    DrillAnswer,
}

impl InputKind {
    /// The prompt a screen gives this kind unless it words its own.
    pub fn prompt(self) -> &'static str {
        match self {
            InputKind::Move => "Move (SAN or UCI)",
            InputKind::ClaimMove => "Intended move for the claim",
            InputKind::Fen => "FEN",
            InputKind::LoadPgn => "Load PGN file",
            InputKind::SavePgn => "Save PGN as",
            InputKind::DrillAnswer => "Your answer",
        }
    }
}

/// Where `~/` leads (the home directory), so typed paths read as a shell reads them.
pub fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(text),
    }
}

/// A new file name for a saved game in `dir`: `game-20261123-1437.pgn` (UTC; `prefix`
/// "game" for chess, "xiangqi" for xiangqi), with `-2`, `-3` ... added if that file exists.
pub fn default_save_name(prefix: &str, now: UtcMinute, dir: &Path) -> PathBuf {
    let stem = format!(
        "{prefix}-{:04}{:02}{:02}-{:02}{:02}",
        now.year, now.month, now.day, now.hour, now.minute
    );
    let mut name = dir.join(format!("{stem}.pgn"));
    let mut n = 2;
    while name.exists() {
        name = dir.join(format!("{stem}-{n}.pgn"));
        n += 1;
    }
    name
}
